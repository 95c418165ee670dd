#!/usr/bin/env python3
"""The HTTP edge beside the MDP round trip it stands on, in one run.

    Tests/Benchmarks/http-edge.py [BIN] [--samples N] [--streams N]

Starts a gateway, posts-service (4 sessions) and posts-http from BIN
(default .build/release) in a fresh 0700 directory, saves 1,000 posts, then
times one request at a time, in turns of 250 (each path its turn, and
again), so every path meets the same noise:

  - posts.get, and posts.save of a new post, over MDP: a DEALER on the
    gateway (pyzmq), as any ZeroMQ client would ask (the raw frames, no
    client library);
  - GET /posts/{uid} and POST /posts (each a new post) through the edge,
    as raw HTTP/1.1 bytes on one kept-alive socket, as the MDP path sends
    raw frames: the edge's own cost, the ratio the target is about;
  - the same two through http.client, Python's HTTP client, for what a
    script meets (its header parsing costs about as much as the edge).

Every client is Python. It prints p50 and p99 of each, its p50 over that
of the MDP call it stands on (a GET's posts.get, a POST's posts.save), and
posts-http's CPU for each request (from /proc); then POST /posts
throughput with 16 connections, each a thread sending one at a time; then
posts-http's resident memory (VmRSS, and RssAnon) at rest and with N
change streams open (default 1,000), each a connection that has read its
response's head.
"""
import argparse, http.client, json, os, random, resource, shutil, signal, socket, subprocess, sys, tempfile, threading, time, uuid

import zmq

parser = argparse.ArgumentParser()
parser.add_argument("bin", nargs="?", default=os.path.join(os.path.dirname(__file__), "..", "..", ".build", "release"))
parser.add_argument("--samples", type=int, default=4000)
parser.add_argument("--streams", type=int, default=1000)
args = parser.parse_args()
binaries = os.path.abspath(args.bin)

directory = tempfile.mkdtemp(prefix="http-edge-")
os.chmod(directory, 0o700)
environment = dict(os.environ, POSTS_RUNTIME_DIR=directory, POSTS_LOG_LEVEL="error", POSTS_DATA_DIR=directory)
processes = []


def start(name, *arguments):
    log = open(os.path.join(directory, name + ".log"), "w")
    process = subprocess.Popen([os.path.join(binaries, name), *arguments], env=environment, stdout=log, stderr=log)
    processes.append(process)
    return process


def stop():
    for process in reversed(processes):
        process.send_signal(signal.SIGTERM)
    for process in processes:
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
    shutil.rmtree(directory, ignore_errors=True)


def wait_until(condition, limit=30):
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.05)
    raise SystemExit("http-edge.py: the lab did not come up; logs in " + directory)


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def memory(pid):
    fields = {}
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            name, _, value = line.partition(":")
            fields[name] = value.strip()
    return fields["VmRSS"], fields.get("RssAnon", "?")


def cpu_ticks(pid):
    """User and system time of a process so far, in clock ticks."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rpartition(")")[2].split()
    return int(fields[11]) + int(fields[12])


def percentile(times, fraction):
    ordered = sorted(times)
    return ordered[min(len(ordered) - 1, int(len(ordered) * fraction))] * 1e6


try:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    start("gateway")
    wait_until(lambda: os.path.exists(os.path.join(directory, "gateway.ipc")))
    start("posts-service", "--sessions", "4")
    port = free_port()
    edge = start("posts-http", "--listen", f"127.0.0.1:{port}", "--max-streams", str(args.streams))

    def ready():
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            connection.request("GET", "/readyz")
            return connection.getresponse().status == 200
        except OSError:
            return False

    wait_until(ready)

    http_connection = http.client.HTTPConnection("127.0.0.1", port)

    def ask(method, path, body=None):
        headers = {"Content-Type": "application/json"} if body is not None else {}
        http_connection.request(method, path, body=body, headers=headers)
        response = http_connection.getresponse()
        data = response.read()
        if response.status >= 300:
            raise SystemExit(f"http-edge.py: {method} {path} answered {response.status}: {data[:200]!r}")
        return data

    uids = []
    for index in range(1000):
        uids.append(json.loads(ask("POST", "/posts", json.dumps({"title": f"Post {index}", "content": "Lorem ipsum dolor sit amet. " * 8})))["uid"])

    dealer = zmq.Context().socket(zmq.DEALER)
    dealer.setsockopt(zmq.LINGER, 0)
    dealer.connect("ipc://" + os.path.join(directory, "gateway.ipc"))

    def mdp_call(index, method, params):
        """One JSON-RPC call over MDP, timed from send to reply."""
        body = json.dumps({"jsonrpc": "2.0", "id": index, "method": method, "params": params}).encode()
        started = time.perf_counter()
        dealer.send_multipart([b"", b"MDPC01", b"posts", body])
        reply = dealer.recv_multipart()
        elapsed = time.perf_counter() - started
        if b'"result"' not in reply[-1]:
            raise SystemExit(f"http-edge.py: {method} failed: {reply[-1][:200]!r}")
        return elapsed

    def mdp_get(index):
        return mdp_call(index, "posts.get", {"uid": uids[index % len(uids)]})

    def mdp_save(index):
        post = {"uid": str(uuid.uuid4()), "title": f"Saved {index}", "content": "Lorem ipsum dolor sit amet. " * 8}
        return mdp_call(index, "posts.save", {"post": post})

    def http_get(index):
        started = time.perf_counter()
        ask("GET", "/posts/" + uids[index % len(uids)])
        return time.perf_counter() - started

    # The same requests as raw bytes on a socket, as the MDP path sends raw
    # frames: what the edge costs without http.client's own (its header
    # parsing alone costs about as much as the edge's).
    raw = socket.create_connection(("127.0.0.1", port))
    raw.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    pending = bytearray()

    def raw_exchange(request):
        raw.sendall(request)
        while (end := pending.find(b"\r\n\r\n")) < 0:
            pending.extend(raw.recv(65536))
        head = bytes(pending[:end]).lower()
        status = int(head[9:12])
        length = 0
        for line in head.split(b"\r\n")[1:]:
            name, _, value = line.partition(b":")
            if name == b"content-length":
                length = int(value)
        while len(pending) < end + 4 + length:
            pending.extend(raw.recv(65536))
        body = bytes(pending[end + 4:end + 4 + length])
        del pending[:end + 4 + length]
        if status >= 300:
            raise SystemExit(f"http-edge.py: a raw request answered {status}: {body[:200]!r}")
        return body

    def raw_get(index):
        request = f"GET /posts/{uids[index % len(uids)]} HTTP/1.1\r\nHost: edge\r\n\r\n".encode()
        started = time.perf_counter()
        raw_exchange(request)
        return time.perf_counter() - started

    def raw_post(index):
        body = json.dumps({"title": f"Raw {index}", "content": "Lorem ipsum dolor sit amet. " * 8}).encode()
        request = f"POST /posts HTTP/1.1\r\nHost: edge\r\nContent-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n".encode() + body
        started = time.perf_counter()
        raw_exchange(request)
        return time.perf_counter() - started

    def http_post(index):
        body = json.dumps({"title": f"Timed {index}", "content": "Lorem ipsum dolor sit amet. " * 8})
        started = time.perf_counter()
        ask("POST", "/posts", body)
        return time.perf_counter() - started

    # Each path beside the MDP call it stands on: a GET beside posts.get, a
    # POST (a new post) beside posts.save of a new post.
    paths = [("posts.get over MDP (DEALER, raw frames)", mdp_get), ("GET /posts/{uid} through posts-http (raw bytes)", raw_get),
             ("posts.save over MDP (DEALER, raw frames)", mdp_save), ("POST /posts through posts-http (raw bytes)", raw_post),
             ("GET /posts/{uid} through posts-http (http.client)", http_get), ("POST /posts through posts-http (http.client)", http_post)]
    beside = {name: (paths[2][0] if "POST" in name or "save" in name else paths[0][0]) for name, _ in paths}
    times = {name: [] for name, _ in paths}
    # posts-http's CPU (user and system) over each path's timed turns.
    edge_cpu = {name: 0 for name, _ in paths}
    index, turn, warm = 0, 250, 500
    while len(times[paths[0][0]]) < args.samples:
        for name, path in paths:
            before = cpu_ticks(edge.pid)
            for offset in range(turn):
                elapsed = path(index + offset)
                if index >= warm:
                    times[name].append(elapsed)
            if index >= warm:
                edge_cpu[name] += cpu_ticks(edge.pid) - before
        index += turn

    print(f"Command: `{' '.join(sys.argv)}`\n")
    print("| one at a time, turns of 250 | p50 | p99 | p50 vs its MDP call | posts-http CPU a request |\n|---|---|---|---|---|")
    for name, _ in paths:
        p50, p99 = percentile(times[name], 0.5), percentile(times[name], 0.99)
        cpu = edge_cpu[name] / os.sysconf("SC_CLK_TCK") / len(times[name]) * 1e6
        versus = "" if beside[name] == name else f"{p50 / percentile(times[beside[name]], 0.5):.2f}× {beside[name].split()[0]}"
        print(f"| {name} | {p50:.1f} µs | {p99:.1f} µs | {versus} | {cpu:.0f} µs |")

    # POST throughput: 16 connections, one request at a time each.
    clients, each = 16, 500
    failures = []

    def poster(number):
        connection = http.client.HTTPConnection("127.0.0.1", port)
        for request in range(each):
            connection.request("POST", "/posts", body=json.dumps({"title": f"Load {number}-{request}"}), headers={"Content-Type": "application/json"})
            response = connection.getresponse()
            response.read()
            if response.status != 201:
                failures.append(response.status)

    threads = [threading.Thread(target=poster, args=(number,)) for number in range(clients)]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.perf_counter() - started
    print(f"\n| POST /posts, {clients} connections | {clients * each / elapsed:.0f} posts/s ({len(failures)} failed) |\n|---|---|")

    time.sleep(1)
    rest = memory(edge.pid)
    streams = []
    for _ in range(args.streams):
        stream = socket.create_connection(("127.0.0.1", port))
        stream.sendall(b"GET /posts/changes HTTP/1.1\r\nHost: edge\r\nAccept: text/event-stream\r\n\r\n")
        streams.append(stream)
    for stream in streams:
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = stream.recv(4096)
            if not chunk:
                raise SystemExit("http-edge.py: a change stream closed: " + head.decode(errors="replace"))
            head += chunk
        if not head.startswith(b"HTTP/1.1 200"):
            raise SystemExit("http-edge.py: a change stream was refused: " + head.decode(errors="replace")[:200])
    time.sleep(1)
    loaded = memory(edge.pid)
    print(f"\n| posts-http resident memory | VmRSS | RssAnon |\n|---|---|---|")
    print(f"| at rest (after the runs above) | {rest[0]} | {rest[1]} |")
    print(f"| with {args.streams} change streams open | {loaded[0]} | {loaded[1]} |")
    for stream in streams:
        stream.close()
finally:
    stop()
