package mcpserver

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// StdioTransport is the transport `webgate mcp` serves on: newline-
// delimited JSON-RPC messages on in and out (MCP, Transports, stdio:
// https://modelcontextprotocol.io/specification/2025-06-18/basic/transports#stdio), as
// the SDK's mcp.IOTransport, except that a line that is not a JSON-RPC
// message is answered and skipped instead of ending the session.
//
// The SDK's transport decodes stdin as one JSON stream and stops at the
// first syntax error: the client got no answer, and every request after
// the bad line went unanswered until it gave up. JSON-RPC 2.0 (section 5,
// https://www.jsonrpc.org/specification#response_object) asks for an error
// response instead, with a null id when the id could not be read: -32700
// "Parse error" for invalid JSON, -32600 "Invalid Request" for JSON that is
// not a request (section 5.1,
// https://www.jsonrpc.org/specification#error_object). Each line is
// screened before the SDK sees it; lines that are messages (or batches of
// messages) pass through unchanged, so everything else about the session
// is the SDK's.
func StdioTransport(in io.Reader, out io.Writer, log *slog.Logger) mcp.Transport {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &stdio{in: in, out: &lineWriter{w: out}, log: log, maxLine: mcp.DefaultMaxLineLength}
}

type stdio struct {
	in      io.Reader
	out     *lineWriter
	log     *slog.Logger
	maxLine int
}

// Connect starts screening in and hands the SDK's transport what passes.
// The screening goroutine ends when in ends or fails, or at its next line
// once the session has closed its side of the pipe; like the SDK's own
// reader, it cannot interrupt a read of stdin that never returns.
func (s *stdio) Connect(ctx context.Context) (mcp.Connection, error) {
	pr, pw := io.Pipe()
	go s.screen(pw)
	// The screen bounds lines already; the SDK counts bytes per frame
	// including what its decoder reads ahead, so its cap stays off.
	return (&mcp.IOTransport{Reader: pr, Writer: s.out, MaxLineLength: -1}).Connect(ctx)
}

// lineWriter serialises writes to out, so an error line written by the
// screen never lands inside a message the SDK is writing (the SDK writes
// each message, newline included, in one Write).
type lineWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lineWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// Close leaves the process's stdout open.
func (l *lineWriter) Close() error { return nil }

func (s *stdio) screen(pw *io.PipeWriter) {
	br := bufio.NewReaderSize(s.in, 64<<10)
	batches := false // until an initialize asks for a version that has them
	for {
		line, tooLong, err := readLine(br, s.maxLine)
		if tooLong {
			s.refuse(jsonrpc.CodeInvalidRequest, fmt.Sprintf("Invalid Request: message longer than %d bytes", s.maxLine))
		} else if line = bytes.TrimSpace(line); len(line) > 0 {
			if code, msg := screenLine(line, batches); code != 0 {
				s.refuse(code, msg)
			} else if v, ok := initializeVersion(line); ok {
				batches = v == "2024-11-05" || v == "2025-03-26"
				if _, werr := pw.Write(append(line, '\n')); werr != nil {
					return
				}
			} else if _, werr := pw.Write(append(line, '\n')); werr != nil {
				return // the session is over
			}
		}
		if err != nil {
			if errors.Is(err, io.EOF) {
				err = nil
			}
			pw.CloseWithError(err)
			return
		}
	}
}

// refuse answers a line that is not a message. Its content is not
// logged: it may hold anything the client had.
func (s *stdio) refuse(code int, msg string) {
	s.log.Warn("mcp stdio: answered a line that is not a JSON-RPC message", "code", code, "error", msg)
	b, _ := json.Marshal(struct {
		JSONRPC string         `json:"jsonrpc"`
		ID      *struct{}      `json:"id"` // always null
		Error   *jsonrpc.Error `json:"error"`
	}{JSONRPC: "2.0", Error: &jsonrpc.Error{Code: int64(code), Message: msg}})
	_, _ = s.out.Write(append(b, '\n'))
}

// screenLine returns 0 for a JSON-RPC message, or a batch of them when
// batches is set, and otherwise the error code and message to answer
// with. MCP 2025-06-18 removed JSON-RPC batches
// (https://modelcontextprotocol.io/specification/2025-06-18/changelog; the SDK ends a session
// that sends one under that version or later), so they are answered
// with -32600 unless the client initialised with an older version.
func screenLine(line []byte, batches bool) (int, string) {
	var v json.RawMessage
	if err := json.Unmarshal(line, &v); err != nil {
		return jsonrpc.CodeParseError, "Parse error: " + err.Error()
	}
	switch line[0] {
	case '{':
		if _, err := jsonrpc.DecodeMessage(line); err != nil {
			return jsonrpc.CodeInvalidRequest, "Invalid Request: " + err.Error()
		}
		return 0, ""
	case '[':
		if !batches {
			return jsonrpc.CodeInvalidRequest, "Invalid Request: JSON-RPC batches are not part of MCP since protocol version 2025-06-18; send one message per line"
		}
		var batch []json.RawMessage
		if err := json.Unmarshal(line, &batch); err != nil || len(batch) == 0 {
			return jsonrpc.CodeInvalidRequest, "Invalid Request: an empty batch"
		}
		for i, m := range batch {
			if _, err := jsonrpc.DecodeMessage(m); err != nil {
				return jsonrpc.CodeInvalidRequest, fmt.Sprintf("Invalid Request: batch element %d: %v", i, err)
			}
		}
		return 0, ""
	}
	return jsonrpc.CodeInvalidRequest, "Invalid Request: a message is a JSON object"
}

// initializeVersion returns the protocol version an initialize request
// asks for.
func initializeVersion(line []byte) (string, bool) {
	if !bytes.Contains(line, []byte(`"initialize"`)) {
		return "", false
	}
	var m struct {
		Method string `json:"method"`
		Params struct {
			ProtocolVersion string `json:"protocolVersion"`
		} `json:"params"`
	}
	if json.Unmarshal(line, &m) != nil || m.Method != "initialize" {
		return "", false
	}
	return m.Params.ProtocolVersion, true
}

// readLine reads up to the next newline. A line longer than max is read
// to its end and dropped (tooLong), so one oversized message costs at
// most max bytes of memory and does not end the session.
func readLine(br *bufio.Reader, max int) (line []byte, tooLong bool, err error) {
	for {
		chunk, err := br.ReadSlice('\n')
		if !tooLong {
			if len(line)+len(chunk) > max+1 { // +1: the newline
				tooLong, line = true, nil
			} else {
				line = append(line, chunk...)
			}
		}
		if !errors.Is(err, bufio.ErrBufferFull) {
			return line, tooLong, err
		}
	}
}
