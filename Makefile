# The two commands in README: `make run` and `make test`.
SWIFT ?= swift
SHELL := /bin/bash
.SHELLFLAGS := -o pipefail -c
RELEASE_BIN := $(CURDIR)/.build/release

.PHONY: setup build release release-all run run-postgres test lint bench bench-scale bench-nats clean

# What `make run` starts (the Procfile's executables) and the client people
# run beside it: all a newcomer's first `make run` builds.
RUN_PRODUCTS := gateway posts-service search-service posts-http posts

setup:
	@deploy/setup

build: setup
	$(SWIFT) build

# The Swift runtime and Foundation linked in statically: each process maps
# less (docs/BENCHMARKS.md). Product by product: a plain `swift build`
# would also link GRDB's dynamic library product, which cannot take a
# static Swift runtime. Without debug information (-gnone, -g0): half the
# size, and the symbol table stays, so profiles and backtraces still name
# each function (docs/BENCHMARKS.md, "Executables"); stripping the files
# after the build instead made the next build link them all again.
# `make release` builds what `make run` runs; `make release-all` every
# executable in Package.swift (the benchmarks' gateway-bench and
# echo-worker too).
RELEASE_FLAGS := -c release --static-swift-stdlib -Xswiftc -gnone -Xcc -g0
release: setup
	@for product in $(or $(PRODUCTS),$(RUN_PRODUCTS)); do \
	    $(SWIFT) build $(RELEASE_FLAGS) --product $$product || exit 1; \
	done

release-all: setup
	@products=$$($(SWIFT) package describe --type json | python3 -c \
	    'import json, sys; print(" ".join(p["name"] for p in json.load(sys.stdin)["products"] if "executable" in p["type"]))') \
	    && [ -n "$$products" ] || { echo "make release-all: cannot list the products in Package.swift" >&2; exit 1; }; \
	$(MAKE) --no-print-directory release PRODUCTS="$$products"

# Starts everything in the Procfile; pass honcho options with ARGS, e.g.
# make run ARGS="-c search=4"
run: release
	@python3 -m honcho start -f Procfile $(ARGS) || [ $$? -eq 130 ]  # Ctrl-C is a normal stop

# The same, with posts-service on a local PostgreSQL cluster of its own
# (made on first use under ~/.local/share/posts/postgres; deploy/run-postgres).
run-postgres: release
	@deploy/setup --test
	@deploy/run-postgres $(ARGS)

# Every test, in one process: unit, contract (SQLite and real processes),
# integration and the interface in tmux.
test: lint
	@deploy/setup --test
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

# Conventions a tool holds: the format (.swift-format: 150 columns, 4
# spaces), no Foundation in the gateway's modules, and nothing that blocks
# where one of Swift's cooperative threads may run it (docs/ARCHITECTURE.md).
lint:
	$(SWIFT) format lint --strict --recursive --configuration .swift-format Package.swift Shared Services Tests
	python3 Tests/Checks/foundation-free.py
	python3 Tests/Checks/no-blocking.py

# Benchmarks through the real gateway; results go to stdout and bench-results/.
bench: release-all
	@mkdir -p bench-results
	$(RELEASE_BIN)/gateway-bench --binaries $(RELEASE_BIN) $(BENCH_ARGS) | tee bench-results/gateway.md
	Tests/Benchmarks/local-search.sh $(RELEASE_BIN)/posts | tee bench-results/local-search.md
	Tests/Benchmarks/http-edge.py $(RELEASE_BIN) | tee bench-results/http-edge.md

# Search at scale (#26): 100,000 man-page paragraphs, then 1,000,000 posts
# drawn by their word frequencies (Tests/Benchmarks/corpus/unigram.py):
# latency beside FTS5 in-process, a new worker from the feed and from a
# copy, one started again, memory; then each query class's ranking in one
# process, by postings beside FTS5 over every match and beside Tantivy, at
# 1,000,000; one replica's throughput with 1 and 2 sessions. About 30
# minutes on 2 cores.
bench-scale: release-all
	@deploy/setup --bench
	@mkdir -p bench-results
	$(RELEASE_BIN)/gateway-bench --binaries $(RELEASE_BIN) --suite search --search-posts 100000 | tee bench-results/search-100k.md
	$(RELEASE_BIN)/gateway-bench --binaries $(RELEASE_BIN) --suite search --search-posts 1000000 --search-corpus unigram \
		--samples 400 | tee bench-results/search-1m.md
	$(RELEASE_BIN)/gateway-bench --suite ranking --search-posts 1000000 --search-corpus unigram --samples 8000 --beside-tantivy \
		| tee bench-results/ranking-1m.md
	$(RELEASE_BIN)/gateway-bench --binaries $(RELEASE_BIN) --suite search-cores --search-posts 1000000 --search-corpus unigram \
		--requests 100000 | tee bench-results/search-cores-1m.md

# Our gateway beside nats-server (#42): ipc://, tcp:// and secured (CURVE
# against TLS), 2 x 1 and 2 x 16 pipelined and one at a time, three rounds.
# About 10 minutes on 2 cores.
bench-nats: release-all
	@deploy/setup --bench
	@mkdir -p bench-results
	Tests/Benchmarks/beside-nats.py $(RELEASE_BIN) | tee bench-results/beside-nats.md

clean:
	rm -rf .build bench-results
