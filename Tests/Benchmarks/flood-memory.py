#!/usr/bin/env python3
"""The gateway's resident memory through the floods of issue #25, on a
release build: each flood runs against a fresh gateway with one echo worker
in a fresh 0700 directory, and the gateway's VmRSS is sampled from /proc
while it runs. Prints one line per flood: what was sent, how much the
gateway took, whether it held the peer back, and its memory before and at
most. Plain sockets, no ZeroMQ library: a peer that does only what a
careless or hostile program would.

    Tests/Benchmarks/flood-memory.py [BIN]      (BIN: .build/release)
"""
import os, socket, struct, subprocess, sys, tempfile, time

BIN = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "../../.build/release")


def greeting():
    g = bytearray(64)
    g[0], g[9], g[10], g[11] = 0xFF, 0x7F, 3, 1
    g[12:16] = b"NULL"
    return bytes(g)


def frame(body, more=False, command=False):
    flags = (1 if more else 0) | (4 if command else 0)
    if len(body) > 255:
        return bytes([flags | 2]) + struct.pack(">Q", len(body)) + body
    return bytes([flags, len(body)]) + body


def command(name, data=b""):
    return frame(bytes([len(name)]) + name + data, command=True)


def ready(socket_type, identity=None):
    props = bytes([11]) + b"Socket-Type" + struct.pack(">I", len(socket_type)) + socket_type
    if identity:
        props += bytes([8]) + b"Identity" + struct.pack(">I", len(identity)) + identity
    return command(b"READY", props)


def message(*frames):
    return b"".join(frame(f, more=i < len(frames) - 1) for i, f in enumerate(frames))


def rss(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    return 0


class Gateway:
    def __init__(self, raw=False):
        self.dir = tempfile.mkdtemp(prefix="flood-")
        os.chmod(self.dir, 0o700)
        env = dict(os.environ, POSTS_RUNTIME_DIR=self.dir, POSTS_LOG_LEVEL="error")
        self.gateway = subprocess.Popen([f"{BIN}/gateway"], env=env, stderr=subprocess.DEVNULL)
        time.sleep(0.5)
        # --raw sends the body back: the slow reader's replies are as large as its requests.
        self.worker = subprocess.Popen([f"{BIN}/echo-worker", "--inline"] + (["--raw"] if raw else []), env=env,
                                       stderr=subprocess.DEVNULL)
        time.sleep(1.5)
        self.path = f"{self.dir}/gateway.ipc"

    def peer(self, identity, socket_type=b"DEALER"):
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.connect(self.path)
        s.sendall(greeting() + ready(socket_type, identity))
        s.setblocking(False)
        return s

    def stop(self):
        for p in (self.worker, self.gateway):
            p.terminate()
            try:
                p.wait(5)
            except subprocess.TimeoutExpired:
                p.kill()
        subprocess.run(["rm", "-rf", self.dir])


def push(s, chunk, limit, pid, stall=2.0, read_rate=None, seconds=None):
    """Writes chunk again and again, never reading (or reading read_rate
    bytes a second), until limit bytes, `seconds`, or a stall of `stall` s."""
    sent, peak, offset = 0, 0, 0
    start = last = time.monotonic()
    budget = 0.0
    sampled = 0.0
    while sent < limit:
        now = time.monotonic()
        if seconds and now - start > seconds:
            break
        try:
            n = s.send(chunk[offset:offset + 65536])
            sent += n
            offset = (offset + n) % len(chunk)
            last = now
        except BlockingIOError:
            if now - last > stall:
                return sent, True, max(peak, rss(pid))
            time.sleep(0.002)
        except (BrokenPipeError, ConnectionResetError):
            return sent, False, max(peak, rss(pid))
        if read_rate:
            budget += read_rate * (time.monotonic() - now)
            while budget >= 65536:
                try:
                    budget -= len(s.recv(65536)) or 65536
                except BlockingIOError:
                    break
        if time.monotonic() - sampled > 0.01:
            peak, sampled = max(peak, rss(pid)), time.monotonic()
    return sent, False, max(peak, rss(pid))


def run(name, flood, raw=False):
    g = Gateway(raw)
    try:
        before = rss(g.gateway.pid)
        detail, peak = flood(g)
        print(f"{name}: {detail}; gateway RSS {before / 2**20:.1f} MB before, at most {peak / 2**20:.1f} MB; "
              f"still running: {g.gateway.poll() is None}", flush=True)
    finally:
        g.stop()


def requests(g):
    one = message(b"", b"MDPC01", b"echo", b"x" * 100)
    s = g.peer(b"flood")
    sent, stalled, peak = push(s, one * 1000, 1_000_000 * len(one), g.gateway.pid)
    return f"{sent // len(one):,} of 1,000,000 requests taken, then held back: {stalled}", peak


def pings(g):
    one = command(b"PING", b"\x00\x64" + b"context-16-bytes")
    s = g.peer(b"pinger")
    sent, stalled, peak = push(s, one * 10000, 10_000_000 * len(one), g.gateway.pid)
    return f"{sent // len(one):,} of 10,000,000 PINGs taken, then held back: {stalled}", peak


def slow_reader(g):
    one = message(b"", b"MDPC01", b"echo", b"y" * 32768)
    s = g.peer(b"slow")
    sent, stalled, peak = push(s, one * 200, 1 << 40, g.gateway.pid, stall=30, read_rate=8 << 20, seconds=30)
    return f"30 s of 32 KiB requests, replies read at 8 MB/s: {sent // len(one):,} requests taken", peak


def endless(g):
    s = g.peer(b"endless")
    chunk = frame(b"z" * (1 << 20), more=True)
    sent, stalled, peak = push(s, chunk, 64 * len(chunk), g.gateway.pid, stall=2)
    return f"a message with MORE set, never ended: {sent / 2**20:.0f} MiB taken before the connection closed", peak


for name, flood, raw in [("never reads its replies", requests, False), ("PINGs, never read", pings, False),
                         ("reads slowly", slow_reader, True), ("MORE never ended", endless, False)]:
    run(name, flood, raw)
