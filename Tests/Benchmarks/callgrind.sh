#!/usr/bin/env bash
# Instructions a service executes per request, under callgrind: a count that
# stays put on a noisy machine where times do not.
#
#   Tests/Benchmarks/callgrind.sh posts  [REQUESTS]   (default 2,000)
#       posts-service, posts.get of one post.
#   Tests/Benchmarks/callgrind.sh edge   [REQUESTS]   (default 2,000)
#       posts-http, GET /posts/{uid} of one post, as raw HTTP/1.1 bytes on
#       one kept-alive connection (posts-service runs as it is).
#   Tests/Benchmarks/callgrind.sh search [REQUESTS]   (default 600)
#       search-service over 3,000 man-page paragraphs (corpus/manpages.py),
#       search.query with six queries in turn: a common word, two words, a
#       phrase, an unfinished word, a rare word, a word found nowhere.
#   Tests/Benchmarks/callgrind.sh import-posts  [POSTS]   (default 6,000)
#   Tests/Benchmarks/callgrind.sh import-search [POSTS]   (default 6,000)
#       per post of a `posts import` of unigram posts (corpus/unigram.py)
#       after 2,000 imported first: posts-service saving them, or
#       search-service (one session) following the import until it holds
#       them all.
#   Tests/Benchmarks/callgrind.sh feed [POSTS]   (default 8,000)
#       posts-service, per post of its change feed read by a new
#       search-service (an index directory of its own) until it holds them
#       all, after a `posts import` of that many unigram posts.
#
# A gateway and the service (under callgrind) on a fresh database in a
# 0700 directory; requests one at a time from pyzmq (the import modes:
# `posts import`). The count covers the requests after a warm-up
# (callgrind's counters are zeroed, then dumped), divided by their number,
# libraries included. BIN=DIR measures another build. With ANNOTATE=N it
# also prints the N functions that executed the most instructions of
# their own (callgrind_annotate), per request; with
# KEEP=DIR it leaves the callgrind files there, for
# `callgrind_annotate --inclusive=yes`.
#
# valgrind cannot read the debug information of a release build linked
# with a static Swift runtime, so it runs a copy without it (symbols kept).
set -euo pipefail
kind=${1:-}
unit=request
case $kind in
    posts) requests=${2:-2000} warm=200 executable=posts-service method=posts.get ;;
    edge) requests=${2:-2000} warm=200 executable=posts-http method="GET /posts/{uid}" ;;
    search) requests=${2:-600} warm=60 executable=search-service method=search.query ;;
    import-posts) requests=${2:-6000} warm=2000 executable=posts-service method="imported posts" unit=post ;;
    import-search) requests=${2:-6000} warm=2000 executable=search-service method="imported posts" unit=post ;;
    feed) requests=${2:-8000} warm=0 executable=posts-service method="posts served from the feed" unit=post ;;
    *) echo "usage: $0 posts|edge|search|import-posts|import-search|feed [REQUESTS]" >&2; exit 2 ;;
esac
here=$(cd "$(dirname "$0")" && pwd)
BIN=${BIN:-$(cd "$here/../.." && pwd)/.build/release}
for tool in valgrind callgrind_control objcopy python3; do
    command -v "$tool" >/dev/null || { echo "callgrind.sh: $tool is not installed" >&2; exit 1; }
done
dir=$(mktemp -d /tmp/callgrind-XXXXXX); chmod 700 "$dir"
pids=()
cleanup() { kill "${pids[@]}" 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$dir"; }
trap cleanup EXIT
export POSTS_RUNTIME_DIR=$dir POSTS_LOG_LEVEL=error
objcopy --strip-debug "$BIN/$executable" "$dir/$executable"
# posts-http reads its OpenAPI document from the bundle beside it.
[ "$kind" != edge ] || ln -s "$BIN/posts_PostsHTTP.resources" "$dir/"
"$BIN/gateway" >/dev/null 2>&1 & pids+=($!)
sleep 0.5
under_valgrind() {
    valgrind --tool=callgrind "--callgrind-out-file=$dir/callgrind.out" "$dir/$executable" "$@" \
        >/dev/null 2>"$dir/valgrind.log" & pids+=($!)
    service=$!
}
# ask NAME [ARGS...]: one of the request loops below, against the gateway.
ask() {
    python3 - "$dir/gateway.ipc" "$@" <<'PY'
import json, sys, zmq
endpoint, loop = sys.argv[1], sys.argv[2]
socket = zmq.Context().socket(zmq.DEALER)
socket.setsockopt(zmq.LINGER, 0)
socket.connect("ipc://" + endpoint)
def call(service, method, params, timeout=None):
    body = {"jsonrpc": "2.0", "method": method, "id": 1}
    if params is not None:
        body["params"] = params
    socket.send_multipart([b"", b"MDPC01", service.encode(), json.dumps(body).encode()])
    if timeout is not None and not socket.poll(timeout):
        sys.exit(1)
    return json.loads(socket.recv_multipart()[-1])
def check(reply):
    if "result" not in reply:
        sys.exit("%s failed: %r" % (loop, reply))
if loop == "caught-up":
    # With a count: caught up once it holds at least that many posts.
    index = call("search", "search.stats", None, timeout=2000).get("result", {}).get("index", {})
    least = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    sys.exit(0 if index.get("documents", 0) >= least and index.get("lag") == 0 else 1)
count = int(sys.argv[3])
if loop == "posts.get":
    for _ in range(count):
        check(call("posts", "posts.get", {"uid": sys.argv[4]}))
else:
    queries = ["file", "network socket", "\"regular expression\"", "compre", "zeroconf", "qqqzzzxx"]
    for index in range(count):
        check(call("search", "search.query", {"q": queries[index % len(queries)], "limit": 10}))
PY
}
# edge PORT NAME [ARGS...]: GETs of one post through posts-http, as raw
# bytes; with NAME "ready", whether it answers /readyz.
edge() {
    python3 - "$@" <<'PY'
import socket, sys
port, loop = int(sys.argv[1]), sys.argv[2]
try:
    connection = socket.create_connection(("127.0.0.1", port), timeout=10)
except OSError:
    sys.exit(1)
connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
def get(path):
    connection.sendall(f"GET {path} HTTP/1.1\r\nHost: edge\r\n\r\n".encode())
    data = b""
    while b"\r\n\r\n" not in data:
        data += connection.recv(65536)
    head, _, body = data.partition(b"\r\n\r\n")
    length = next(int(line.split(b":")[1]) for line in head.lower().split(b"\r\n") if line.startswith(b"content-length:"))
    while len(body) < length:
        body += connection.recv(65536)
    return int(head[9:12])
if loop == "ready":
    sys.exit(0 if get("/readyz") == 200 else 1)
for _ in range(int(sys.argv[3])):
    if get("/posts/" + sys.argv[4]) != 200:
        sys.exit("GET /posts/%s failed" % sys.argv[4])
PY
}
# create_post: saves the post every request reads, trying for up to a minute
# while the service comes up under valgrind; prints its uid (empty if none).
create_post() {
    for _ in $(seq 60); do
        "$BIN/posts" create --title "callgrind" --content "one post, read again and again" --json 2>/dev/null \
            | python3 -c 'import json, sys; print(json.load(sys.stdin)["uid"])' 2>/dev/null && return
        sleep 1
    done
}
if [ "$kind" = edge ]; then
    "$BIN/posts-service" --database "$dir/posts.sqlite" --sessions 4 >/dev/null 2>&1 & pids+=($!)
    port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    under_valgrind --listen "127.0.0.1:$port"
    uid=$(create_post)
    ready=
    for _ in $(seq 120); do edge "$port" ready && { ready=1; break; }; sleep 1; done
    [ -n "$uid" ] && [ -n "$ready" ] || { echo "callgrind.sh: posts-http did not answer under valgrind ($dir/valgrind.log)" >&2; cat "$dir/valgrind.log" >&2; exit 1; }
    edge "$port" get "$warm" "$uid"
    callgrind_control --zero "$service" >/dev/null 2>&1
    edge "$port" get "$requests" "$uid"
elif [ "$kind" = posts ]; then
    under_valgrind --database "$dir/posts.sqlite" --sessions 4
    uid=$(create_post)
    [ -n "$uid" ] || { echo "callgrind.sh: posts-service did not answer under valgrind ($dir/valgrind.log)" >&2; cat "$dir/valgrind.log" >&2; exit 1; }
    args=("$uid")
elif [ "$kind" = import-posts ] || [ "$kind" = import-search ]; then
    python3 "$here/corpus/unigram.py" "$dir/corpus.jsonl" $((warm + requests)) >/dev/null
    head -n "$warm" "$dir/corpus.jsonl" >"$dir/warm.jsonl"
    tail -n +$((warm + 1)) "$dir/corpus.jsonl" >"$dir/timed.jsonl"
    if [ "$kind" = import-posts ]; then
        under_valgrind --database "$dir/posts.sqlite"
    else
        "$BIN/posts-service" --database "$dir/posts.sqlite" >/dev/null 2>&1 & pids+=($!)
        under_valgrind --sessions 1
    fi
    # caught_up N: the search service holds N posts (at once for import-posts).
    caught_up() {
        [ "$kind" = import-posts ] && return 0
        for _ in $(seq 900); do ask caught-up "$1" && return 0; sleep 1; done
        echo "callgrind.sh: search-service did not catch up under valgrind ($dir/valgrind.log)" >&2; exit 1
    }
    for _ in $(seq 120); do "$BIN/posts" count >/dev/null 2>&1 && break; sleep 1; done
    "$BIN/posts" import --timeout 900 "$dir/warm.jsonl" >/dev/null
    caught_up "$warm"
    callgrind_control --zero "$service" >/dev/null 2>&1
    "$BIN/posts" import --timeout 900 "$dir/timed.jsonl" >/dev/null
    caught_up $((warm + requests))
elif [ "$kind" = feed ]; then
    python3 "$here/corpus/unigram.py" "$dir/corpus.jsonl" "$requests" >/dev/null
    under_valgrind --database "$dir/posts.sqlite"
    for _ in $(seq 120); do "$BIN/posts" count >/dev/null 2>&1 && break; sleep 1; done
    "$BIN/posts" import --timeout 900 "$dir/corpus.jsonl" >/dev/null
    callgrind_control --zero "$service" >/dev/null 2>&1
    mkdir -m 700 "$dir/index"
    "$BIN/search-service" --sessions 1 --index-dir "$dir/index" >/dev/null 2>&1 & pids+=($!)
    caught=
    for _ in $(seq 900); do ask caught-up "$requests" && { caught=1; break; }; sleep 1; done
    [ -n "$caught" ] || { echo "callgrind.sh: the new search-service did not catch up from the feed" >&2; exit 1; }
else
    "$BIN/posts-service" --database "$dir/posts.sqlite" >/dev/null 2>&1 & pids+=($!)
    python3 "$here/corpus/manpages.py" "$dir/corpus.jsonl" 3000 >/dev/null
    "$BIN/posts" import --json "$dir/corpus.jsonl" >/dev/null
    under_valgrind --sessions 1
    ready=
    for _ in $(seq 180); do ask caught-up && { ready=1; break; }; sleep 1; done
    [ -n "$ready" ] || { echo "callgrind.sh: search-service did not catch up under valgrind ($dir/valgrind.log)" >&2; cat "$dir/valgrind.log" >&2; exit 1; }
    args=()
fi
if [ "$kind" = posts ] || [ "$kind" = search ]; then
    ask "$method" "$warm" "${args[@]}"
    callgrind_control --zero "$service" >/dev/null 2>&1
    ask "$method" "$requests" "${args[@]}"
fi
callgrind_control --dump "$service" >/dev/null 2>&1
sleep 2
total=0
for file in "$dir"/callgrind.out*; do
    count=$(awk '/^(summary|totals):/ {print $2; exit}' "$file")
    total=$((total + ${count:-0}))
done
if [ -n "${KEEP:-}" ]; then
    mkdir -p "$KEEP" && cp "$dir"/callgrind.out* "$KEEP"/
fi
if [ -n "${ANNOTATE:-}" ]; then
    for file in "$dir"/callgrind.out*; do
        grep -q '^events:' "$file" && callgrind_annotate --threshold=100 "$file"
    done \
        | awk -v n="$requests" '/^ *[0-9,]+ +\(/ { count = $1; gsub(",", "", count); $1 = ""; sub(/^ *\([^)]*\) */, ""); if (count / n >= 50) printf "%8d  %s\n", count / n, $0 }' \
        | grep -v 'PROGRAM TOTALS' | sort -rn | head -n "$ANNOTATE"
fi
echo "$executable: $total instructions for $requests $method after the warm-up: $((total / requests)) per $unit"
