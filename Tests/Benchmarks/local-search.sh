#!/usr/bin/env bash
# `posts search --local` on a file of N posts (default 100,000 man-page
# paragraphs, built by corpus/manpages.py): the import, the first search
# after it, and later searches, each a separate `posts` process as a person
# would run it. usage: local-search.sh [POSTS_BINARY] [N]
set -euo pipefail
posts=${1:-.build/release/posts}
count=${2:-100000}
work=$(mktemp -d /tmp/local-search-XXXXXX)
trap 'rm -rf "$work"' EXIT
python3 "$(dirname "$0")/corpus/manpages.py" "$work/corpus.jsonl" "$count" >/dev/null 2>&1
TIMEFORMAT=%R
seconds() { { time "$@" >/dev/null 2>&1; } 2>&1; }
echo "| step | seconds |"
echo "|---|---|"
echo "| posts import --local ($count posts) | $(seconds "$posts" import --local "$work/posts.sqlite" "$work/corpus.jsonl") |"
first=1
for query in "network socket" printf compress "file descriptor" signal; do
  label=$([ $first = 1 ] && echo "first search after the import" || echo "a later search")
  echo "| $label: \`$query\` | $(seconds "$posts" search --local "$work/posts.sqlite" $query --limit 10) |"
  first=0
done
"$posts" create --local "$work/posts.sqlite" --title "fresh zebra" >/dev/null
echo "| a search after one more post: \`zebra\` | $(seconds "$posts" search --local "$work/posts.sqlite" zebra) |"
