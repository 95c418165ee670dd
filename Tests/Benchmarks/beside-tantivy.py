#!/usr/bin/env python3
"""Tantivy (its official Python bindings, `pip install tantivy`, 0.27) on the
corpus and the query classes of gateway-bench's ranking suite, in this one
process: the reference the suite prints its own figures beside
(`gateway-bench --suite ranking --beside-tantivy`, docs/BENCHMARKS.md).

The same semantics as ours as closely as Tantivy allows:
- English stemming (Tantivy's `en_stem`: lower case, Snowball's English
  stemmer; ours is FTS5's porter over unicode61);
- the title weighted 10x the content (a boost on the title's clause; ours
  weights bm25's term frequency, as FTS5's bm25 with weights does);
- every term required; the last word, when not in a phrase, also matches
  as a prefix (a regex over the index's terms: every completion, where ours
  takes the 8 most common);
- a quoted phrase from positions;
- the top 10 and the total, which Tantivy counts exactly (ours stops
  counting once the page is settled past 1,000 matches).

usage: beside-tantivy.py CORPUS.jsonl CLASSES.json SAMPLES INDEX_DIR
  CLASSES.json: [{"name": ..., "queries": [...]}, ...]
Prints one JSON object: build seconds, size on disk, RssAnon, and per class
p50 / p99 in milliseconds with the mean total.
"""
import json
import os
import re
import shutil
import sys
import time

import tantivy

WORD = re.compile(r"[^\W_]+", re.UNICODE)


def rss_anon_mb():
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("RssAnon:"):
                return int(line.split()[1]) / 1024
    return 0.0


def terms(text):
    """What a person typed, as ours reads it (SearchQuery.terms): quoted
    phrases, and words (runs of letters and digits) outside them."""
    found = []
    for index, part in enumerate(text.split('"')):
        words = [w.lower() for w in WORD.findall(part)]
        if not words:
            continue
        if index % 2 == 1 and len(words) > 1:
            found.append(("phrase", words))
        else:
            found.extend(("word", [w]) for w in words)
    return found


def build_query(index, schema, text):
    parts = terms(text)
    clauses = []
    for position, (kind, words) in enumerate(parts):
        if kind == "phrase":
            query = index.parse_query('"' + " ".join(words) + '"', ["title", "content"], field_boosts={"title": 10.0})
        else:
            query = index.parse_query(words[0], ["title", "content"], field_boosts={"title": 10.0})
            if position == len(parts) - 1 and not text.rstrip().endswith('"'):
                prefix = re.escape(words[0]) + ".*"
                query = tantivy.Query.boolean_query([
                    (tantivy.Occur.Should, query),
                    (tantivy.Occur.Should, tantivy.Query.boost_query(tantivy.Query.regex_query(schema, "title", prefix), 10.0)),
                    (tantivy.Occur.Should, tantivy.Query.regex_query(schema, "content", prefix)),
                ])
        clauses.append((tantivy.Occur.Must, query))
    return tantivy.Query.boolean_query(clauses)


def main():
    corpus, classes_path, samples, directory = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
    with open(classes_path) as f:
        classes = json.load(f)
    shutil.rmtree(directory, ignore_errors=True)
    os.makedirs(directory)

    builder = tantivy.SchemaBuilder()
    builder.add_text_field("title", stored=True, tokenizer_name="en_stem")
    builder.add_text_field("content", stored=True, tokenizer_name="en_stem")
    schema = builder.build()
    start = time.perf_counter()
    index = tantivy.Index(schema, path=directory)
    writer = index.writer(heap_size=256_000_000)
    with open(corpus) as f:
        for line in f:
            post = json.loads(line)
            writer.add_document(tantivy.Document(title=post.get("title", ""), content=post.get("content", "")))
    writer.commit()
    writer.wait_merging_threads()
    index.reload()
    build = time.perf_counter() - start
    size = sum(os.path.getsize(os.path.join(root, name)) for root, _, names in os.walk(directory) for name in names)

    searcher = index.searcher()
    before = rss_anon_mb()
    results = []
    for one in classes:
        queries = [build_query(index, schema, q) for q in one["queries"]]
        times, totals = [], []
        for n in range(samples + 20):
            query = queries[n % len(queries)]
            begin = time.perf_counter()
            found = searcher.search(query, 10, count=True)
            elapsed = time.perf_counter() - begin
            if n >= 20:
                times.append(elapsed)
                totals.append(found.count)
        times.sort()
        results.append({
            "name": one["name"],
            "p50": times[len(times) // 2] * 1e3,
            "p99": times[min(len(times) - 1, len(times) * 99 // 100)] * 1e3,
            "meanTotal": sum(totals) / len(totals),
        })
    print(json.dumps({
        "version": tantivy.__version__, "documents": searcher.num_docs, "buildSeconds": build, "bytesOnDisk": size,
        "rssAnonMB": rss_anon_mb(), "rssAnonGrowthWhileQueryingMB": rss_anon_mb() - before, "classes": results,
    }))


if __name__ == "__main__":
    main()
