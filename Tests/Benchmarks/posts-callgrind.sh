#!/usr/bin/env bash
# Instructions posts-service executes per posts.get, under callgrind: a count
# that stays put on a noisy machine where times do not. A gateway and a
# posts-service on a fresh database in a 0700 directory; one post; posts.get
# for it one at a time from pyzmq. The count covers the requests after a
# warm-up of 200 (callgrind's counters are zeroed, then dumped), divided by
# their number, libraries included.
#
#   Tests/Benchmarks/posts-callgrind.sh [REQUESTS]     (default 2,000)
#
# With ANNOTATE=N it also prints the N functions that executed the most
# instructions of their own (callgrind_annotate), per request.
#
# valgrind cannot read the debug information of a release build linked
# with a static Swift runtime, so it runs a copy without it (symbols kept).
set -euo pipefail
requests=${1:-2000}
BIN=${BIN:-$(cd "$(dirname "$0")/../.." && pwd)/.build/release}
for tool in valgrind callgrind_control objcopy python3; do
    command -v "$tool" >/dev/null || { echo "posts-callgrind: $tool is not installed" >&2; exit 1; }
done
dir=$(mktemp -d /tmp/posts-callgrind-XXXXXX); chmod 700 "$dir"
pids=()
cleanup() { kill "${pids[@]}" 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$dir"; }
trap cleanup EXIT
export POSTS_RUNTIME_DIR=$dir POSTS_LOG_LEVEL=error
objcopy --strip-debug "$BIN/posts-service" "$dir/posts-service"
"$BIN/gateway" >/dev/null 2>&1 & pids+=($!)
sleep 0.5
valgrind --tool=callgrind "--callgrind-out-file=$dir/callgrind.out" \
    "$dir/posts-service" --database "$dir/posts.sqlite" --sessions 4 >/dev/null 2>"$dir/valgrind.log" & pids+=($!)
service=$!
uid=
for _ in $(seq 60); do
    uid=$("$BIN/posts" create --title "callgrind" --content "one post, read again and again" --json 2>/dev/null \
        | python3 -c 'import json, sys; print(json.load(sys.stdin)["uid"])' 2>/dev/null) && break
    sleep 1
done
[ -n "$uid" ] || { echo "posts-callgrind: posts-service did not answer under valgrind ($dir/valgrind.log)" >&2; cat "$dir/valgrind.log" >&2; exit 1; }
get() { # count
    python3 - "$dir/gateway.ipc" "$uid" "$1" <<'PY'
import json, sys, zmq
socket = zmq.Context().socket(zmq.DEALER)
socket.connect("ipc://" + sys.argv[1])
body = json.dumps({"jsonrpc": "2.0", "method": "posts.get", "params": {"uid": sys.argv[2]}, "id": 1}).encode()
for _ in range(int(sys.argv[3])):
    socket.send_multipart([b"", b"MDPC01", b"posts", body])
    reply = socket.recv_multipart()
    if b'"result"' not in reply[-1]:
        sys.exit("posts.get failed: %r" % reply[-1][:200])
PY
}
get 200
callgrind_control --zero "$service" >/dev/null 2>&1
get "$requests"
callgrind_control --dump "$service" >/dev/null 2>&1
sleep 2
total=0
for file in "$dir"/callgrind.out*; do
    count=$(awk '/^(summary|totals):/ {print $2; exit}' "$file")
    total=$((total + ${count:-0}))
done
if [ -n "${ANNOTATE:-}" ]; then
    for file in "$dir"/callgrind.out*; do
        grep -q '^events:' "$file" && callgrind_annotate --threshold=100 "$file"
    done \
        | awk -v n="$requests" '/^ *[0-9,]+ +\(/ { count = $1; gsub(",", "", count); $1 = ""; sub(/^ *\([^)]*\) */, ""); if (count / n >= 50) printf "%8d  %s\n", count / n, $0 }' \
        | grep -v 'PROGRAM TOTALS' | sort -rn | head -n "$ANNOTATE"
fi
echo "posts-service: $total instructions for $requests posts.get after the warm-up: $((total / requests)) per request"
