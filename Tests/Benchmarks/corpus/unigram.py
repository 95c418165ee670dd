#!/usr/bin/env python3
"""Builds a search benchmark corpus of any size with realistic word
frequencies: every installed English manual page (manpages.py) is read once
for its words and how often each occurs, and for how long its paragraphs
and titles are; then COUNT posts are drawn from those frequencies and
lengths. Common words are as common as in the pages, rare ones as rare, so
a million posts behave like a large real corpus, not like a repeated small
one. Deterministic for a given set of installed pages and SEED.

--paragraphs N (1 by default) makes each post's content N paragraphs'
lengths of words, drawn as one: 2 gives posts about twice as long, with the
same word frequencies (gateway-bench's `--search-corpus unigram-long`).

usage: unigram.py [--paragraphs N] OUT.jsonl COUNT [SEED]
"""
import bisect, collections, glob, itertools, json, os, random, re, sys, uuid

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from manpages import paragraphs  # noqa: E402

WORD = re.compile(r"[A-Za-z0-9]+")


def statistics():
    counts, lengths, title_lengths = collections.Counter(), [], []
    for path in sorted(glob.glob("/usr/share/man/man*/*.gz")):
        for post in paragraphs(path):
            words = WORD.findall(post["content"].lower())
            counts.update(words)
            lengths.append(len(words))
            title_lengths.append(len(WORD.findall(post["title"])))
    return counts, lengths, title_lengths


def main():
    arguments = sys.argv[1:]
    paragraphs_per_post = 1
    if arguments[:1] == ["--paragraphs"]:
        paragraphs_per_post, arguments = int(arguments[1]), arguments[2:]
    out, count = arguments[0], int(arguments[1])
    seed = int(arguments[2]) if len(arguments) > 2 else 1
    counts, lengths, title_lengths = statistics()
    if not counts:
        sys.exit("no manual pages under /usr/share/man: install manpages (apt-get install -y manpages man-db)")
    words = [word for word, _ in counts.most_common()]
    cumulative = list(itertools.accumulate(counts[word] for word in words))
    total = cumulative[-1]
    rng = random.Random(seed)
    namespace = uuid.UUID("6ba7b812-9dad-11d1-80b4-00c04fd430c8")

    def draw(k, limit):
        text = " ".join(words[bisect.bisect(cumulative, rng.random() * total)] for _ in range(k))
        # Within what an import takes (a title of 200 characters), cut at a word.
        return text if len(text) <= limit else text[:limit].rsplit(" ", 1)[0]

    with open(out, "w") as f:
        for index in range(count):
            post = {
                "uid": str(uuid.uuid5(namespace, f"{seed}#{index}")).upper(),
                "title": draw(max(1, rng.choice(title_lengths)), 200),
                "content": draw(max(1, sum(rng.choice(lengths) for _ in range(paragraphs_per_post))), 50_000),
            }
            f.write(json.dumps(post) + "\n")
    print(f"{count} posts drawn from {len(words)} words of {len(lengths)} manual-page paragraphs ({total} words)", file=sys.stderr)


if __name__ == "__main__":
    main()
