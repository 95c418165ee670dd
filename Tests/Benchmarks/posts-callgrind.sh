#!/usr/bin/env bash
# Instructions posts-service executes per posts.get, under callgrind:
# `callgrind.sh posts`, kept under this name for the commands in
# docs/BENCHMARKS.md.   Tests/Benchmarks/posts-callgrind.sh [REQUESTS]
exec "$(dirname "$0")/callgrind.sh" posts "$@"
