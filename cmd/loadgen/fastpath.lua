-- wrk script for the fast-path load test (see cmd/loadgen/bench.sh and
-- docs/benchmarks.md): posts Claude Code's recorded search-execution
-- request body, read from the file named by $WEBGATE_BODY, and prints
-- p50/p90/p99 of the full response (the SSE stream ends with
-- message_stop, written together with the end of the chunked body).
--
-- With WEBGATE_VARY=1 every request carries a distinct query (the
-- recorded one plus the run's start time, thread and a counter), so the search engine's cache never hits
-- and the provider is called for every request.
local f = assert(io.open(os.getenv("WEBGATE_BODY") or "body.json", "rb"))
local body = f:read("*a")
f:close()
local vary = os.getenv("WEBGATE_VARY") == "1"
local marker = "Perform a web search for the query: "
local headers = {["Content-Type"] = "application/json", ["anthropic-version"] = "2023-06-01"}
local path = "/v1/messages?beta=true"
local head, tail
if vary then
  local s, e = body:find(marker, 1, true)
  assert(s, "no search instruction in the body")
  local q = body:find('"', e + 1, true)
  head, tail = body:sub(1, q - 1), body:sub(q)
end

wrk.method = "POST"
wrk.path = path
wrk.body = body
wrk.headers = headers

-- Each wrk thread numbers its own queries; the thread id keeps them
-- distinct across threads.
local threads = 0
function setup(thread)
  thread:set("tid", threads)
  threads = threads + 1
end

-- request is only defined when queries vary: wrk then calls it for every
-- request, and otherwise sends its prebuilt request without running Lua.
if vary then
  -- The start time keeps queries distinct across wrk runs too (the
  -- warm-up run and the measured runs of bench.sh share one server).
  local run = os.time()
  local n = 0
  local pre
  function request()
    if not pre then
      -- What wrk.format would write, built once: only the query and the
      -- length change between requests.
      pre = "POST " .. path .. " HTTP/1.1\r\nHost: " .. wrk.headers["Host"] ..
        "\r\nContent-Type: application/json\r\nanthropic-version: 2023-06-01\r\nContent-Length: "
    end
    n = n + 1
    local b = head .. " " .. run .. "-" .. (tid or 0) .. "-" .. n .. tail
    return pre .. #b .. "\r\n\r\n" .. b
  end
end

function done(summary, latency, requests)
  io.write(string.format("requests=%d errors(status)=%d errors(read)=%d p50=%.3f ms p90=%.3f ms p99=%.3f ms max=%.3f ms\n",
    summary.requests, summary.errors.status, summary.errors.read, latency:percentile(50) / 1000,
    latency:percentile(90) / 1000, latency:percentile(99) / 1000, latency.max / 1000))
end
