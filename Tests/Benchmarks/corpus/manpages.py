#!/usr/bin/env python3
"""Builds the search benchmark's corpus: the English manual pages that Debian
packages installed under /usr/share/man, split into one post per paragraph,
as JSON Lines. Text nobody on this project wrote, and no network needed.

usage: manpages.py OUT.jsonl COUNT
Deterministic for a given set of installed pages: files in sorted order.
"""
import glob, gzip, json, os, re, sys, uuid

ESCAPES = [(r"\\f[BIRPC]|\\f\(..|\\f\[[^]]*\]", ""), (r"\\\(..", " "), (r"\\\[[^]]*\]", " "),
           (r"\\[-e]", "-"), (r"\\&|\\c|\\:|\\%|\\/|\\,|\\\^|\\\|", ""), (r"\\s[-+]?\d", ""), (r"\\\*\(?\w+", ""),
           (r"\\(.)", r"\1")]
ESCAPE_RE = [(re.compile(p), r) for p, r in ESCAPES]


def clean(line):
    for pattern, replacement in ESCAPE_RE:
        line = pattern.sub(replacement, line)
    return line.strip()


def paragraphs(path):
    name = os.path.basename(path)[: -len(".gz")]
    try:
        with gzip.open(path, "rt", encoding="utf-8", errors="replace") as f:
            lines = f.read().splitlines()
    except (OSError, EOFError):
        return
    section, buffer = "", []

    def flush():
        text = " ".join(buffer).strip()
        buffer.clear()
        if len(text) >= 40:
            # At most 200 characters, as a post's title may be (PostRules.titleLength).
            yield {"title": f"{name}: {section or 'text'}".strip()[:200].strip(), "content": text}

    for line in lines:
        if line.startswith(".SH") or line.startswith(".SS"):
            yield from flush()
            section = clean(line[3:]).strip('"').title()
        elif line.startswith((".PP", ".P", ".LP", ".TP", ".IP", ".sp", ".br")) or not line.strip():
            yield from flush()
        elif line.startswith(("'\\\"", ".\\\"", ".")):
            macro_text = line.split(None, 1)
            if len(macro_text) == 2 and line[:3] in (".B ", ".I ", ".BR", ".IR", ".BI", ".RB", ".RI", ".IB"):
                buffer.append(clean(macro_text[1].replace('"', "")))
        else:
            buffer.append(clean(line))
    yield from flush()


def main():
    out, count = sys.argv[1], int(sys.argv[2])
    files = sorted(glob.glob("/usr/share/man/man*/*.gz"))
    written = 0
    namespace = uuid.UUID("6ba7b811-9dad-11d1-80b4-00c04fd430c8")
    with open(out, "w") as f:
        for path in files:
            for index, post in enumerate(paragraphs(path)):
                post["uid"] = str(uuid.uuid5(namespace, f"{path}#{index}")).upper()
                f.write(json.dumps(post) + "\n")
                written += 1
                if written == count:
                    print(f"{written} posts from {files.index(path) + 1} of {len(files)} pages", file=sys.stderr)
                    return
    print(f"only {written} posts in {len(files)} pages", file=sys.stderr)
    sys.exit(1)


if __name__ == "__main__":
    main()
