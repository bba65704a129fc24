// Drives webgate's MCP server with the official TypeScript client, the
// way Claude Code, Cursor and most other clients talk to it.
//
//   PAGE_URL=<url> node client.mjs stdio <webgate-binary> <config.yaml>
//   PAGE_URL=<url> node client.mjs http  <mcp-url> [bearer-token]
//
// It lists the tools, calls web_search with include_content (and a
// progress token), web_fetch on PAGE_URL in two parts, web_fetch with an
// invalid URL and web_search with invalid arguments, and prints one JSON
// object summarising what it saw. The Go test (e2e_test.go) checks that
// summary. Any protocol error exits non-zero.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const [mode, target, extra] = process.argv.slice(2);
let transport;
if (mode === "stdio") {
  transport = new StdioClientTransport({
    command: target,
    args: ["--config", extra, "mcp"],
    stderr: "inherit",
  });
} else if (mode === "http") {
  const headers = extra ? { Authorization: `Bearer ${extra}` } : {};
  transport = new StreamableHTTPClientTransport(new URL(target), { requestInit: { headers } });
} else {
  console.error("usage: node client.mjs stdio <binary> <config> | http <url> [token]");
  process.exit(2);
}

const client = new Client({ name: "webgate-e2e", version: "1.0.0" });
await client.connect(transport);

const { tools } = await client.listTools();
const progress = [];
const search = await client.callTool(
  { name: "web_search", arguments: { query: "webgate end to end", max_results: 2, include_content: true } },
  undefined,
  { onprogress: (p) => progress.push(p.progress) },
);
const part1 = await client.callTool({ name: "web_fetch", arguments: { url: process.env.PAGE_URL, max_length: 40 } });
const next = part1.structuredContent?.results?.[0]?.next_start_index ?? 0;
const part2 = await client.callTool({ name: "web_fetch", arguments: { url: process.env.PAGE_URL, max_length: 40, start_index: next } });
const badFetch = await client.callTool({ name: "web_fetch", arguments: { url: "not a url" } });
const badSearch = await client.callTool({ name: "web_search", arguments: { query: "x" } });

console.log(JSON.stringify({
  server: client.getServerVersion(),
  tools: tools
    .map((t) => ({
      name: t.name,
      readOnlyHint: t.annotations?.readOnlyHint ?? null,
      openWorldHint: t.annotations?.openWorldHint ?? null,
      maxResultSizeChars: t._meta?.["anthropic/maxResultSizeChars"] ?? null,
      hasOutputSchema: Boolean(t.outputSchema),
    }))
    .sort((a, b) => a.name.localeCompare(b.name)),
  search: {
    isError: search.isError ?? false,
    text: search.content?.[0]?.text ?? "",
    structured: search.structuredContent ?? null,
  },
  progress,
  fetch: [part1, part2].map((r) => ({
    isError: r.isError ?? false,
    text: r.content?.[0]?.text ?? "",
    result: r.structuredContent?.results?.[0] ?? null,
  })),
  badFetch: { isError: badFetch.isError ?? false, text: badFetch.content?.[0]?.text ?? "" },
  badSearch: { isError: badSearch.isError ?? false, text: badSearch.content?.[0]?.text ?? "" },
}));
await client.close();
