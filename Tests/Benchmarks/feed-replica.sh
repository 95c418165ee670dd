#!/usr/bin/env bash
# A new search replica built from the change feed (an index directory of
# its own, as on another host), timed until it registers with the gateway,
# with one or two search-service builds in turns on the same posts:
#
#   Tests/Benchmarks/feed-replica.sh CORPUS.jsonl ROUNDS SEARCH_SERVICE [OTHER_SEARCH_SERVICE]
#
# CORPUS: posts as `posts import --json` reads them (corpus/unigram.py
# makes them: `python3 Tests/Benchmarks/corpus/unigram.py u1m.jsonl 1000000`,
# `--paragraphs 2` for the long-post corpus). A gateway and posts-service
# (`--sessions 4`) from BIN (default .build/release) take the import once,
# with no search worker; then each round starts each given search-service
# with an empty index directory, times it until the gateway knows a
# `search` worker (MMI `mmi.service`: the worker registers once it holds
# every post and ranks by its postings), stops it and removes its
# directory. Prints each run's time and the CPU seconds search-service and
# posts-service spent on it. Two builds in turns make a before and after
# on this noisy machine; one run alone says little.
set -euo pipefail
[ $# -ge 3 ] || { echo "usage: $0 CORPUS.jsonl ROUNDS SEARCH_SERVICE [OTHER_SEARCH_SERVICE]" >&2; exit 2; }
corpus=$1 rounds=$2
builds=("$3")
[ $# -ge 4 ] && builds+=("$4")
here=$(cd "$(dirname "$0")" && pwd)
BIN=${BIN:-$(cd "$here/../.." && pwd)/.build/release}
for tool in python3 bc; do command -v "$tool" >/dev/null || { echo "feed-replica.sh: $tool is not installed" >&2; exit 1; }; done
dir=$(mktemp -d /tmp/feed-replica-XXXXXX); chmod 700 "$dir"
export POSTS_RUNTIME_DIR=$dir POSTS_DATA_DIR=$dir POSTS_LOG_LEVEL=warning
pids=()
cleanup() { kill "${pids[@]}" 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$dir"; }
trap cleanup EXIT
"$BIN/gateway" >/dev/null 2>&1 & pids+=($!)
for _ in $(seq 50); do [ -S "$dir/gateway.ipc" ] && break; sleep 0.1; done
"$BIN/posts-service" --database "$dir/posts.sqlite" --sessions 4 >/dev/null 2>&1 & pids+=($!)
posts_service=$!
for _ in $(seq 100); do "$BIN/posts" count >/dev/null 2>&1 && break; sleep 0.1; done
"$BIN/posts" import --json --timeout 900 "$corpus" >/dev/null
cpu() { awk '{ print ($14 + $15) / 100 }' "/proc/$1/stat"; }
# registered: until the gateway answers 200 to mmi.service for "search".
registered() {
    python3 - "$dir/gateway.ipc" <<'PY'
import sys, time, zmq
socket = zmq.Context().socket(zmq.DEALER)
socket.setsockopt(zmq.LINGER, 0)
socket.connect("ipc://" + sys.argv[1])
deadline = time.monotonic() + 900
while time.monotonic() < deadline:
    socket.send_multipart([b"", b"MDPC01", b"mmi.service", b"search"])
    if socket.poll(2000) and socket.recv_multipart()[-1] == b"200":
        sys.exit(0)
    time.sleep(0.05)
sys.exit("feed-replica.sh: no search worker registered within 900 s")
PY
}
for round in $(seq "$rounds"); do
    for build in "${builds[@]}"; do
        sleep 2
        before=$(cpu "$posts_service")
        start=$(date +%s.%N)
        "$build" --sessions 1 --index-dir "$dir/from-the-feed" >"$dir/search.log" 2>&1 &
        search=$!
        pids+=("$search")
        registered
        end=$(date +%s.%N)
        printf '%s round %s: %.1f s, CPU search-service %.1f s, posts-service %.1f s\n' "$build" "$round" \
            "$(echo "$end - $start" | bc)" "$(cpu "$search")" "$(echo "$(cpu "$posts_service") - $before" | bc)"
        kill "$search"
        wait "$search" 2>/dev/null || true
        rm -rf "$dir/from-the-feed"
    done
done
