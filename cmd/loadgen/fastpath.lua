-- wrk script for the fast-path load test (see cmd/loadgen and
-- docs/benchmarks.md): posts Claude Code's recorded search-execution
-- request body, read from the file named by $WEBGATE_BODY, and prints
-- p50/p99 of the full response (the SSE stream ends with message_stop).
local f = assert(io.open(os.getenv("WEBGATE_BODY") or "body.json", "rb"))
wrk.method = "POST"
wrk.path = "/v1/messages?beta=true"
wrk.body = f:read("*a")
f:close()
wrk.headers["Content-Type"] = "application/json"
wrk.headers["anthropic-version"] = "2023-06-01"

function done(summary, latency, requests)
  io.write(string.format("requests=%d errors(status)=%d p50=%.3f ms p90=%.3f ms p99=%.3f ms max=%.3f ms\n",
    summary.requests, summary.errors.status, latency:percentile(50) / 1000,
    latency:percentile(90) / 1000, latency:percentile(99) / 1000, latency.max / 1000))
end
