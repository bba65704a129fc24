// Command webgate gives AI agents real web search and web fetch on any
// model backend. See the README and docs/ for usage.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/webgate/webgate/internal/cli"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := cli.Main(ctx, os.Args[1:], cli.Stdio())
	stop()
	os.Exit(code)
}
