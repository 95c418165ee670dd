#!/usr/bin/env python3
"""Keeps blocking calls off Swift's cooperative threads (docs/ARCHITECTURE.md,
"Threads"). That pool has one thread per core, two on CI: one sleep,
semaphore wait, blocking poll or wait for a process in async code stalls
every task in the process, and tests then fail their time limits for
nothing.

The compiler does most of the work: a function marked
`@available(*, noasync, ...)` cannot be called from async code (an error in
Swift 6). This check makes sure everything that blocks is so marked, and
that the compiler gets to look:

1. A function whose body calls something that blocks (a sleep, a semaphore
   or group wait, poll(2), epoll_wait, zmq_poll, a wait for a process, or
   any function of ours marked noasync) must itself be marked noasync,
   unless the call sits in a closure that runs on a thread of its own
   (`Thread { }`, `startThread(named:) { }`, `onThread(named:) { }`,
   `onOwnThread { }`, a test harness's `atShutdown { }`,
   `DispatchQueue....async { }`) or the
   function is in the allow-list below (with the reason it may block).
2. A blocking call in a closure given to `Task { }` is refused outright.
3. Every `@Test` function is `async`: Swift Testing runs a synchronous test
   on a cooperative thread too, and only an async one has its body checked
   by the compiler.
4. Every `@Suite` has a `.timeLimit`, so a test that hangs fails by name
   instead of holding the run until CI's watchdog.

Run by `make lint` (and so `make test`); prints each offence with its file
and line, and exits 1. Run on the default directories, it also names an
allow-list entry that excuses nothing any more.

usage: Tests/Checks/no-blocking.py [DIRECTORY...]   (default: Shared Services Tests)
"""
import os
import re
import sys

root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# Functions that block by design, on a thread that is not a cooperative one,
# though the compiler cannot see which thread: "file:function" -> why.
ALLOWED = {
    "Tests/Benchmarks/GatewayBench/*": "the benchmark measures on its main thread (main.swift), never a cooperative one",
    "Shared/Majordomo/BrokerLink.swift:close": "a worker session's link, closed as the session stops, on its SessionThread",
    "Shared/ZeroMQ/ZMTP/StreamDealer.swift:close": "a worker session's link, closed as the session stops, on its SessionThread",
    "Shared/EventBus/BusTransport.swift:close": "the bus's socket thread, finishing its writes as it stops",
    "Shared/EventBus/EventBus.swift:run": "the body of the bus's socket thread (startSocketThread)",
    "Shared/EventBus/EventPublisher.swift:run": "the body of the publisher's socket thread (startSocketThread)",
    "Shared/Majordomo/Broker.swift:run": "the body of the broker's socket thread (startSocketThread)",
    "Shared/Majordomo/BrokerTransport.swift:close": "the broker's socket thread, finishing its writes as it stops",
    "Shared/Majordomo/ClientEngine+Loop.swift:run": "the body of the client's socket thread (startSocketThread)",
    "Shared/LocalPlatform/SearchIndex/ChangedDocuments.swift:write": "inside GRDB's write closure, on the database's writer queue",
    "Shared/ZeroMQ/LibZMQ/Poller.swift:pollNow": "polls with a timeout of 0: it only looks",
    "Shared/LocalPlatform/SearchIndex/SQLiteSearchIndex.swift:writeDocuments":
        "waits for the page's words inside GRDB's write closure, on the database's writer queue",
    "Shared/LocalPlatform/SearchIndex/SQLiteSearchIndex.swift:writeThenRank":
        "closes the search gate inside GRDB's write closure, on the database's writer queue",
    "Shared/LocalPlatform/SearchIndex/SQLiteSearchIndex.swift:compact":
        "waits for the page ranked aside inside GRDB's write closure, on the database's writer queue",
}

USED = set()

RAW = [
    r"\busleep\s*\(", r"\bnanosleep\s*\(", r"(?<![\w.])sleep\s*\(", r"\bThread\.sleep\b",
    r"(?<![\w.])poll\s*\(", r"\bGlibc\.poll\s*\(", r"\bepoll_wait\s*\(", r"\bzmq_poll\s*\(",
    r"\bwaitpid\s*\([^)]*,\s*0\s*\)", r"\bwaitUntilExit\s*\(", r"\breadDataToEndOfFile\s*\(",
    r"\.wait\s*\(\s*(timeout:\s*[^)]*|wallTimeout:\s*[^)]*)?\)",
]
THREAD_OPENERS = re.compile(r"(\bstart(Socket)?Thread\(named:[^()]*\)\s*|\bonThread\(named:[^()]*\)\s*|\bThread\s*(\(block:\s*)?|\bonOwnThread\s*|\batShutdown\s*|DispatchQueue[\w.()\s:\"-]*\.async(After\([^)]*\))?\s*(\(execute:\s*)?)$")
TASK_OPENERS = re.compile(r"\bTask(\.detached)?\s*(\([^()]*\))?\s*$")
NOASYNC = re.compile(r"@available\(\s*\*\s*,\s*noasync")
DECLARATION = re.compile(r"\b(func\s+(\w+)|init\??(?=\s*[(<])|deinit|var\s+(\w+)|subscript)")


def strip(text):
    """Blanks out comments and string contents, keeping every offset."""
    out, i, n = list(text), 0, len(text)
    while i < n:
        if text.startswith("//", i):
            while i < n and text[i] != "\n":
                out[i] = " "
                i += 1
        elif text.startswith("/*", i):
            depth = 0
            while i < n:
                if text.startswith("/*", i):
                    depth += 1
                elif text.startswith("*/", i):
                    depth -= 1
                    out[i] = out[i + 1] = " "
                    i += 2
                    if depth == 0:
                        break
                    continue
                if text[i] != "\n":
                    out[i] = " "
                i += 1
        elif text[i] == '"':
            quote = '"""' if text.startswith('"""', i) else '"'
            hashes = 0
            j = i - 1
            while j >= 0 and text[j] == "#":
                hashes += 1
                j -= 1
            end = quote + "#" * hashes
            i += len(quote)
            while i < n and not text.startswith(end, i):
                if text[i] == "\\" and hashes == 0:
                    out[i] = " "
                    i += 1
                if i < n and text[i] != "\n":
                    out[i] = " "
                i += 1
            i += len(end)
        else:
            i += 1
    return "".join(out)


def module(path):
    """Where a name of a test target holds: its own target (a bench's
    `shutdown()` is not the harness's). The product's modules and
    TestSupport are seen everywhere."""
    parts = os.path.relpath(path, root).split(os.sep)
    if parts[0] != "Tests" or parts[1] == "TestSupport":
        return None
    return "/".join(parts[:3] if parts[1] == "Benchmarks" else parts[:2])


def noasync_calls(files):
    """A pattern for a call of each function marked noasync, by its name and
    first argument label (so `finish(within:)` is not `finish()`), with the
    module it holds in (None: everywhere)."""
    calls = set()
    for path, text in files.items():
        for match in NOASYNC.finditer(text):
            declared = DECLARATION.search(text, match.end())
            if not declared or not declared.group(2):
                continue
            name = declared.group(2)
            parameters = text[declared.end():]
            first = re.match(r"\s*(<[^(]*>)?\s*\(\s*(\w+)?\s*(\w+)?\s*(:)?", parameters)
            if not first or not first.group(2):
                pattern = re.escape(name) + r"\s*\(\s*\)"
            elif first.group(2) == "_":
                pattern = re.escape(name) + r"\s*\(\s*(?!\w+\s*:)(?!\))"
            else:
                pattern = re.escape(name) + r"\s*\(\s*" + first.group(2) + r"\s*:"
            calls.add((pattern, module(path)))
    return calls


def scopes(text):
    """Each `{` with its matching `}` and the text before it on its statement."""
    opened, pairs = [], []
    for i, c in enumerate(text):
        if c == "{":
            opened.append(i)
        elif c == "}" and opened:
            start = opened.pop()
            pairs.append((start, i))
    return pairs


def head(text, brace):
    """What comes before a `{`: back to the previous `;`, `{` or `}` outside parentheses."""
    start, depth = brace, 0
    while start > 0:
        c = text[start - 1]
        if c in ")]":
            depth += 1
        elif c in "([":
            depth -= 1
        elif c in ";{}" and depth <= 0:
            break
        start -= 1
    return text[start:brace]


SIGNATURE_END = re.compile(r"^\s*(async\s*)?((re)?throws(\([^)]*\))?\s*)?(->\s*[^{]*?)?(\s*where\s[^{]*)?\s*$")


def balanced(text, at):
    """The index after the parenthesis that closes the one at `at`."""
    depth = 0
    for i in range(at, len(text)):
        depth += {"(": 1, ")": -1}.get(text[i], 0)
        if depth == 0:
            return i + 1
    return None


def declared_name(before_brace):
    """The name of the function, initializer or computed property whose body
    opens at the brace `before_brace` comes before, or None (a closure, a
    loop, a type)."""
    for match in reversed(list(DECLARATION.finditer(before_brace))):
        word = re.match(r"\w+", match.group(0)).group(0)
        rest = before_brace[match.end():]
        if word in ("var", "subscript"):
            if word == "var" and "\n" not in rest.strip() and "=" not in rest and re.match(r"^\s*:\s*[^{]+$", rest):
                return match.group(3)
            if word == "subscript" and rest.lstrip().startswith("("):
                return "subscript"
            continue
        if word == "deinit":
            return "deinit" if not rest.strip() else None
        rest = re.sub(r"^\s*<[^(]*>", "", rest)
        if not rest.lstrip().startswith("("):
            continue
        end = balanced(rest, rest.index("("))
        if end is not None and SIGNATURE_END.match(rest[end:]):
            return match.group(2) or "init"
        return None
    return None


def check(path, raw, text, blocking_names):
    problems = []
    pairs = scopes(text)
    here = module(path)
    calls = [re.compile(p) for p in RAW] + [re.compile(r"(?<![\w])" + call) for call, where in blocking_names if where in (None, here)]
    relative = os.path.relpath(path, root)
    reported = set()
    for pattern in calls:
        for match in pattern.finditer(text):
            at = match.start()
            before = text[max(0, at - 60):at]
            line_start = text.rfind("\n", 0, at) + 1
            statement = text[line_start:at]
            if re.search(r"\bawait\b", statement):
                continue  # an async call of the same name
            if re.search(r"\bfunc\s*$", text[max(0, at - 10):at].rstrip() + " ") or re.search(r"\bfunc\s+$", before):
                continue  # its own declaration
            enclosing = sorted((p for p in pairs if p[0] < at < p[1]), key=lambda p: p[0], reverse=True)
            verdict = None
            for start, _ in enclosing:
                before_brace = head(text, start)
                tail = before_brace.rstrip()
                if THREAD_OPENERS.search(tail):
                    verdict = "ok"
                    break
                if TASK_OPENERS.search(tail):
                    verdict = "task"
                    break
                name = declared_name(before_brace)
                if name:
                    key = f"{relative}:{name}"
                    folder = f"{os.path.dirname(relative)}/*"
                    if NOASYNC.search(before_brace):
                        verdict = "ok"
                    elif key in ALLOWED or folder in ALLOWED:
                        USED.add(key if key in ALLOWED else folder)
                        verdict = "ok"
                    else:
                        verdict = ("func", name)
                    break
            line = text.count("\n", 0, at) + 1
            if line in reported:
                continue
            reported.add(line)
            call = raw[at:match.end()].strip()
            if verdict == "task":
                problems.append(f"{relative}:{line}: `{call}` blocks inside a Task: a cooperative thread")
            elif isinstance(verdict, tuple):
                problems.append(
                    f"{relative}:{line}: `{call}` blocks, but `{verdict[1]}` is not marked "
                    "@available(*, noasync, ...): mark it, or move the wait onto a thread of its own (onOwnThread)")
    for match in re.finditer(r"@Test\b", text):
        declared = re.compile(r"\bfunc\s+(\w+)\s*\(").search(text, match.end())
        if not declared or "{" in text[match.end():declared.start()]:
            continue
        end = balanced(text, declared.end() - 1)
        signature = text[end:text.index("{", end)] if end else ""
        if not re.search(r"\basync\b", signature):
            line = text.count("\n", 0, declared.start()) + 1
            problems.append(f"{relative}:{line}: @Test func {declared.group(1)} is not async: Swift Testing runs it on a cooperative thread "
                            "all the same, and only an async body has its blocking calls refused by the compiler")
    for match in re.finditer(r"@Suite\b", text):
        attribute = text[match.end():]
        end = balanced(attribute, 0) if attribute.startswith("(") else 0
        if "timeLimit" not in attribute[:end or 0]:
            line = text.count("\n", 0, match.start()) + 1
            problems.append(f"{relative}:{line}: @Suite without a .timeLimit: a test that hangs would hold the whole run")
    return problems


def main():
    directories = sys.argv[1:] or ["Shared", "Services", "Tests"]
    files = {}
    for directory in directories:
        for folder, _, names in os.walk(os.path.join(root, directory)):
            for name in sorted(names):
                if name.endswith(".swift"):
                    path = os.path.join(folder, name)
                    raw = open(path, encoding="utf-8").read()
                    files[path] = (raw, strip(raw))
    blocking_names = noasync_calls({path: stripped for path, (_, stripped) in files.items()})
    problems = []
    for path in sorted(files):
        raw, stripped = files[path]
        problems += check(path, raw, stripped, blocking_names)
    if not sys.argv[1:]:
        problems += [f"no-blocking.py: the allow-list's {key} excuses no blocking call: remove it" for key in ALLOWED if key not in USED]
    for problem in problems:
        print(problem)
    if problems:
        print(f"no-blocking: {len(problems)} problem(s): blocking where a cooperative thread may run it (see Tests/Checks/no-blocking.py)",
              file=sys.stderr)
        sys.exit(1)


main()
