#!/bin/sh
# Fast-path latency benchmark, as reported in docs/benchmarks.md.
#
#   cmd/loadgen/bench.sh [hit|miss] [runs] [duration]
#
# Starts `loadgen serve` (webgate's serve stack over a 0 ms in-process
# provider, enrichment off) in its own process, warms it up, then runs wrk
# (Debian package `wrk`) with one thread and 50 keep-alive connections
# posting Claude Code's recorded search request, `runs` times. "hit"
# repeats the recorded query (engine cache hit after the first request);
# "miss" makes every query distinct, so the provider is called each time.
# Per run it prints the load average, wrk's latency percentiles and
# throughput, and the CPU time per request of the server and of wrk, read
# from /proc/<pid>/stat (server) and /usr/bin/time (wrk), and the server's
# read and write system calls per request, from /proc/<pid>/io. LOG_LEVEL (default info, webgate serve's default)
# sets the server's log level; its log goes to $OUT/server.log. PROFILE=1
# writes the server's CPU profile (warm-up included) to $OUT/cpu.out;
# MEMPROFILE=1 its allocation profile to $OUT/mem.out.
# CONFIG names a webgate config file for the server (default: none, the
# zero-config defaults `webgate serve` uses), e.g. to measure the cost of
# one layer by switching it off. STATIC=1 serves one recorded answer from
# a bare net/http server with the same settings and one-write transport
# (loadgen serve -static): the floor any net/http design has here.
set -eu
mode=${1:-hit}
runs=${2:-3}
dur=${3:-10s}
conns=${CONNS:-50}
level=${LOG_LEVEL:-info}
out=${OUT:-/tmp/webgate-bench}
addr=127.0.0.1:${PORT:-8788}
here=$(cd "$(dirname "$0")" && pwd)
# ../shared sits beside the repository (two levels above this folder).
rec=${RECORDING:-$here/../../../shared/protocol/claude-code/search-execution-request.json}
mkdir -p "$out"
go build -o "$out/loadgen" "$here"
"$out/loadgen" body -request "$rec" > "$out/body.json"
vary=0
[ "$mode" = miss ] && vary=1

prof=
[ -n "${PROFILE:-}" ] && prof="-cpuprofile $out/cpu.out"
[ -n "${MEMPROFILE:-}" ] && prof="$prof -memprofile $out/mem.out"
[ -n "${CONFIG:-}" ] && prof="$prof -config $CONFIG"
[ -n "${STATIC:-}" ] && prof="$prof -static -request $rec"
# shellcheck disable=SC2086
"$out/loadgen" serve -listen "$addr" -log-level "$level" $prof 2> "$out/server.log" &
srv=$!
trap 'kill $srv 2>/dev/null; wait $srv 2>/dev/null || true' EXIT INT TERM
for _ in $(seq 50); do
	curl -fsS "http://$addr/healthz" >/dev/null 2>&1 && break
	sleep 0.1
done

hz=$(getconf CLK_TCK)
cpu() { awk '{print $14 + $15}' "/proc/$1/stat"; }
# Read and write system calls made so far (exact, unlike CPU time, so
# they compare runs made on a busy machine).
sysc() { awk '/^syscr|^syscw/ {printf "%s ", $2}' "/proc/$1/io"; }

# Warm-up: connections, caches, heap size.
WEBGATE_BODY="$out/body.json" WEBGATE_VARY=$vary wrk -t1 -c"$conns" -d3s -s "$here/fastpath.lua" "http://$addr" > "$out/wrk.txt"
total=$(sed -n 's/^requests=\([0-9]*\).*/\1/p' "$out/wrk.txt")

for i in $(seq "$runs"); do
	load=$(cut -d' ' -f1-3 /proc/loadavg)
	before=$(cpu $srv)
	sysbefore=$(sysc $srv)
	WEBGATE_BODY="$out/body.json" WEBGATE_VARY=$vary /usr/bin/time -f 'wrkcpu=%U %S' -o "$out/wrk.time" \
		wrk -t1 -c"$conns" -d"$dur" -s "$here/fastpath.lua" "http://$addr" > "$out/wrk.txt"
	wcpu=$(sed -n 's/^wrkcpu=\([0-9.]*\) \([0-9.]*\)/\1 \2/p' "$out/wrk.time" | awk '{print $1 + $2}')
	after=$(cpu $srv)
	sysafter=$(sysc $srv)
	line=$(grep '^requests=' "$out/wrk.txt")
	reqs=$(echo "$line" | sed 's/requests=\([0-9]*\).*/\1/')
	total=$((total + reqs))
	rps=$(grep 'Requests/sec' "$out/wrk.txt" | awk '{print $2}')
	awk -v m="$mode" -v l="$load" -v line="$line" -v rps="$rps" -v s=$((after - before)) -v w="$wcpu" -v n="$reqs" -v hz="$hz" -v sb="$sysbefore" -v sa="$sysafter" 'BEGIN {
		split(sb, b, " "); split(sa, a, " ")
		printf "%s load=%s rps=%s %s server_cpu/req=%.1f us wrk_cpu/req=%.1f us reads/req=%.2f writes/req=%.2f\n", m, l, rps, line, s*1e6/hz/n, w*1e6/n, (a[1]-b[1])/n, (a[2]-b[2])/n
	}'
done
kill $srv
wait $srv || true
trap - EXIT INT TERM
# wrk counts only completed responses, so a few more requests may have
# reached the server than it reports.
echo "requests answered: $total; $(grep -o 'provider calls: [0-9]*' "$out/server.log")"
