// Package guard defends the two directions in which a web gateway for
// agents is a security boundary.
//
// Outgoing, the query guard (Detector) looks for secrets in search queries
// and fetch URLs before they leave the process: vendor API keys, JWTs,
// private keys, credentials in URLs and assignments, long random tokens,
// and internal host names. A query holding one is refused (ErrSecret) or
// redacted, as configured.
//
// Incoming, the content guard treats fetched pages as untrusted input for
// a model: the fetcher strips what a reader of the page never sees
// (comments, hidden and off-screen elements; package extract/hidden)
// when the guard asks for it (fetch.Request.StripHidden), CleanText
// removes invisible Unicode (zero-width, bidirectional controls, tag
// characters), Wrap puts
// content between boundaries a page cannot forge, and Injections flags
// passages that read like instructions to the model.
//
// Layer wraps a search.Searcher and a fetch.Getter with both guards; it is
// the guard layer of the service chain (see package service).
package guard
