#!/usr/bin/env bash
# Our gateway beside another 7/MDP broker (the zguide's C Majordomo broker in
# docs/BENCHMARKS.md), measured the same way in one run: the same client
# (loadc, ../shared/bench/loadc.c), the same `echo-worker --raw --inline`
# workers, an ipc:// endpoint in a fresh 0700 directory for each run. Runs
# alternate, the other broker first. Nothing here builds the other broker:
# give its executable, which must take the endpoint to bind as its argument.
#
#   Tests/Benchmarks/side-by-side.sh series   REF LOADC [ROUNDS]
#   Tests/Benchmarks/side-by-side.sh callgrind REF LOADC
#   Tests/Benchmarks/side-by-side.sh flood     REF LOADC [ROUNDS]
#
# series: 2 x 1 and 2 x 16 sessions pipelined (200,000 requests, 500 in
# flight, 100-byte bodies), then sequential round trips (2 x 16, 20,000),
# with the CPU time of the broker (user and system, 10 ms ticks), of the two
# workers (ticks) and of the client (seconds): what the machine spent per
# request, and so the most a broker that cost nothing could reach. Last,
# each round's ratios (ours against the reference run just before it) and
# their median.
# callgrind: instructions per request of each broker process, libzmq
# included, at 2 x 1 and 2 x 16 pipelined and at 2 x 16 one request at a
# time: the difference between a short and a long run, divided by the
# requests between them. Ours runs as `gateway-bench broker ENDPOINT` (the same
# Broker, without Dispatch's main loop, which valgrind cannot run).
# flood: one client floods `echo` (5,000,000 requests, 2,000 in flight,
# reading its replies as they come) while another asks one request at a
# time (2,000, after the flood has run for a second): the honest client's
# p50 and p99 with each broker, and without the flood as a baseline.
set -euo pipefail
mode=${1:?series or callgrind} ref=${2:?reference broker executable} loadc=${3:?loadc executable}
BIN=${BIN:-$(cd "$(dirname "$0")/../.." && pwd)/.build/release}

start_broker() { # which endpoint [wrapper...]
    local which=$1 endpoint=$2; shift 2
    if [ "$which" = reference ]; then "$@" "$ref" "$endpoint" >/dev/null 2>&1 &
    elif [ $# -gt 0 ]; then "$@" "$BIN/gateway-bench" broker "$endpoint" >/dev/null 2>&1 &
    else POSTS_RUNTIME_DIR=$(dirname "${endpoint#ipc://}") POSTS_LOG_LEVEL=error "$BIN/gateway" --bind "$endpoint" >/dev/null 2>&1 &
    fi
    broker=$!
}

start_workers() { # endpoint sessions
    workers=()
    for _ in 1 2; do
        POSTS_LOG_LEVEL=error "$BIN/echo-worker" --gateway "$1" --raw --inline --sessions "$2" >/dev/null 2>&1 &
        workers+=($!)
    done
}

stop_all() { kill "${workers[@]}" 2>/dev/null || true; kill -9 "$broker" 2>/dev/null || true; wait 2>/dev/null || true; }

ticks() { awk '{print $14, $15}' "/proc/$1/stat"; }

worker_ticks() {
    local sum=0 user system
    for pid in "${workers[@]}"; do read -r user system < <(ticks "$pid"); sum=$((sum + user + system)); done
    echo "$sum"
}

one_run() { # which sessions requests window
    local dir; dir=$(mktemp -d /tmp/side-by-side-XXXXXX); chmod 700 "$dir"
    local endpoint=ipc://$dir/broker.ipc
    start_broker "$1" "$endpoint"; sleep 0.5
    start_workers "$endpoint" "$2"; sleep 1.5
    read -r user0 system0 < <(ticks "$broker")
    local workers0; workers0=$(worker_ticks)
    local result client
    # bash's own `time`: the client's user and system seconds.
    client=$( { TIMEFORMAT='%U %S'; time "$loadc" "$endpoint" echo "$3" "$4" 100 > "$dir/result"; } 2>&1 )
    result=$(cat "$dir/result")
    read -r user1 system1 < <(ticks "$broker")
    local workers1; workers1=$(worker_ticks)
    echo "$1 sessions=2x$2 $result broker_cpu_ticks=user:$((user1 - user0)),system:$((system1 - system0))" \
        "workers_cpu_ticks=$((workers1 - workers0)) client_cpu_seconds=${client/ /+}"
    stop_all; rm -rf "$dir"
}

instructions() { # which requests sessions window
    local dir; dir=$(mktemp -d /tmp/side-by-side-XXXXXX); chmod 700 "$dir"
    local endpoint=ipc://$dir/broker.ipc
    start_broker "$1" "$endpoint" valgrind --tool=callgrind "--callgrind-out-file=$dir/callgrind.out"; sleep 4
    start_workers "$endpoint" "$3"; sleep 4
    "$loadc" "$endpoint" echo "$2" "$4" 100 >/dev/null
    callgrind_control -d "$broker" >/dev/null 2>&1; sleep 2
    local total=0
    for file in "$dir"/callgrind.out*; do
        local count; count=$(awk '/^(summary|totals):/ {print $2; exit}' "$file")
        total=$((total + ${count:-0}))
    done
    stop_all; rm -rf "$dir"
    echo "$total"
}

flood_run() { # which
    local dir; dir=$(mktemp -d /tmp/side-by-side-XXXXXX); chmod 700 "$dir"
    local endpoint=ipc://$dir/broker.ipc
    start_broker "$1" "$endpoint"; sleep 0.5
    start_workers "$endpoint" 1; sleep 1.5
    echo "$1 alone: $("$loadc" "$endpoint" echo 2000 1 100)"
    "$loadc" "$endpoint" echo 5000000 2000 100 >/dev/null 2>&1 &
    local flood=$!; sleep 1
    echo "$1 beside a flood: $("$loadc" "$endpoint" echo 2000 1 100)"
    kill "$flood" 2>/dev/null || true
    stop_all; rm -rf "$dir"
}

case $mode in
flood)
    for round in $(seq "${4:-3}"); do
        for which in reference ours; do flood_run $which | sed "s/^/round $round: /"; done
    done ;;
series)
    log=$(mktemp /tmp/side-by-side-XXXXXX.log)
    for round in $(seq "${4:-3}"); do
        for sessions in 1 16; do
            for which in reference ours; do echo "round $round: $(one_run $which $sessions 200000 500)"; done
        done
        for which in reference ours; do echo "round $round: $(one_run $which 16 20000 1)"; done
    done | tee "$log"
    # Each round's ratio (ours against the reference run just before it),
    # and their median: the machine moves between rounds more than the
    # brokers differ within one.
    awk '
        / pipelined / { match($0, /rps=[0-9]+/); rate = substr($0, RSTART + 4, RLENGTH - 4) + 0
                        match($0, /sessions=2x[0-9]+/); kind = "throughput at 2 x " substr($0, RSTART + 11, RLENGTH - 11) ", ours / the reference"
                        if ($3 == "reference") ref[kind] = rate; else add(kind, rate / ref[kind]) }
        / seq / { match($0, /p50_us=[0-9.]+/); p50 = substr($0, RSTART + 7, RLENGTH - 7) + 0
                  if ($3 == "reference") ref["seq"] = p50; else add("sequential p50 at 2 x 16, the reference / ours", ref["seq"] / p50) }
        function add(kind, ratio) { if (!(kind in count)) order[++kinds] = kind; values[kind, ++count[kind]] = ratio }
        END {
            for (k = 1; k <= kinds; k++) {
                kind = order[k]; n = count[kind]; line = ""
                for (i = 1; i <= n; i++) sorted[i] = values[kind, i]
                for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (sorted[j] < sorted[i]) { t = sorted[i]; sorted[i] = sorted[j]; sorted[j] = t }
                for (i = 1; i <= n; i++) line = line sprintf(" %.3f", values[kind, i])
                median = n % 2 ? sorted[(n + 1) / 2] : (sorted[n / 2] + sorted[n / 2 + 1]) / 2
                printf "%s: rounds%s; median %.3f\n", kind, line, median
            }
        }' "$log"
    rm -f "$log" ;;
callgrind)
    # Pipelined, how many messages a wake-up finds varies from run to run,
    # and with it the count (by up to 3%); one request at a time, by up to 1.5%.
    for run in "1 500 5000 25000 2 x 1 pipelined" "16 500 5000 25000 2 x 16 pipelined" "16 1 2000 10000 2 x 16 one at a time"; do
        set -- $run; sessions=$1 window=$2 small=$3 large=$4; shift 4
        for which in reference ours; do
            a=$(instructions $which "$small" "$sessions" "$window"); b=$(instructions $which "$large" "$sessions" "$window")
            echo "$*, $which: $a instructions at $small requests, $b at $large: $(( (b - a) / (large - small) )) per request"
        done
    done ;;
*) echo "usage: $0 series|callgrind|flood REF LOADC [ROUNDS]" >&2; exit 64 ;;
esac
