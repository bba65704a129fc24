// Package providers links in every search provider. Each provider package
// under internal/search/ registers itself with search.Register from an
// init function (name, settings with their environment variables,
// built-in rate limit, factory); importing this package makes all of them
// known. Package config imports it, so the configuration, the engine's
// chain, the `webgate providers` command and the configuration reference
// all see the same set.
//
// Adding a provider means writing its package, with its registration and
// a providertest contract test, and adding one import line here.
package providers

import (
	_ "github.com/webgate/webgate/internal/search/brave"
	_ "github.com/webgate/webgate/internal/search/duckduckgo"
	_ "github.com/webgate/webgate/internal/search/exa"
	_ "github.com/webgate/webgate/internal/search/google"
	_ "github.com/webgate/webgate/internal/search/jina"
	_ "github.com/webgate/webgate/internal/search/searxng"
	_ "github.com/webgate/webgate/internal/search/serpapi"
	_ "github.com/webgate/webgate/internal/search/serper"
	_ "github.com/webgate/webgate/internal/search/tavily"
)
