#!/usr/bin/env python3
"""Our gateway beside nats-server, driven the same way, in one run.

    Tests/Benchmarks/beside-nats.py [BIN] [--rounds N] [--requests N] [--samples N]

Both sides are small C programs in Tests/Benchmarks/nats, built here with
gcc: `mdpload` (7/MDP on libzmq) asks our gateway, `natsload` (libnats)
asks nats-server, with the same requests, window and output; our side
answers with two `echo-worker --raw --inline` processes, NATS's with two
`natsecho` processes in queue group "q". Each side has S connections per
answering process (S = 1 or 16); 100-byte bodies.

Set-ups, each ours against NATS (--setups, comma-separated):
  ipc         ours on ipc:// (our own ZMTP), NATS on tcp://127.0.0.1 (it has no ipc);
  tcp         ours on tcp://127.0.0.1 plaintext (our own ZMTP), NATS on tcp:// plaintext;
  tcp-libzmq  the same with POSTS_ZMTP=libzmq (what tcp:// was before our ZMTP
              carried it; not run unless asked);
  secure      ours on tcp:// with CURVE (keys from `posts keys generate`; libzmq),
              NATS with TLS (a self-signed certificate made here by openssl).
and in each: 2 x 1 and 2 x 16 pipelined (REQUESTS, 500 in flight), and
one at a time at 2 x 16 (SAMPLES, p50 and p99). Each run prints the CPU
the broker (or nats-server) and the answering processes spent (10 ms
ticks, from /proc) and the client's (seconds, from its rusage).
Runs alternate, NATS first; the last lines are each round's ratio (ours
over NATS: throughput, higher is better; p50, lower is better) and their
median over the rounds.

Needs: nats-server and libnats-dev (Debian), libzmq, gcc, openssl, and a
release build (make release).
"""
import argparse, os, resource, shutil, signal, socket, statistics, subprocess, sys, tempfile, time

here = os.path.dirname(os.path.abspath(__file__))
parser = argparse.ArgumentParser()
parser.add_argument("bin", nargs="?", default=os.path.join(here, "..", "..", ".build", "release"))
parser.add_argument("--rounds", type=int, default=3)
parser.add_argument("--requests", type=int, default=200_000)
parser.add_argument("--samples", type=int, default=20_000)
parser.add_argument("--window", type=int, default=500)
parser.add_argument("--body", type=int, default=100)
parser.add_argument("--setups", default="ipc,tcp,secure")
args = parser.parse_args()
binaries = os.path.abspath(args.bin)
for tool in ["nats-server", "gcc", "openssl"]:
    if shutil.which(tool) is None:
        sys.exit(f"beside-nats: {tool} is missing (apt-get install nats-server libnats-dev gcc openssl)")

work = tempfile.mkdtemp(prefix="beside-nats-")
os.chmod(work, 0o700)
tools = {}
for name, library in [("mdpload", "-lzmq"), ("natsload", "-lnats"), ("natsecho", "-lnats")]:
    tools[name] = os.path.join(work, name)
    subprocess.run(["gcc", "-O2", "-pthread", "-o", tools[name], os.path.join(here, "nats", name + ".c"), library], check=True)

# CURVE keys for our side, TLS for NATS's.
keys = os.path.join(work, "keys")
allow = os.path.join(work, "allow")
os.makedirs(allow, mode=0o700)
for name in ["gateway", "worker", "client"]:
    subprocess.run([os.path.join(binaries, "posts"), "keys", "generate", name, "--dir", keys], check=True, stdout=subprocess.DEVNULL)
for name in ["worker", "client"]:
    shutil.copy(os.path.join(keys, name + ".key"), allow)


def z85(path, field):
    for line in open(path):
        if line.strip().startswith(field):
            return line.split('"')[1]
    raise SystemExit(f"no {field} in {path}")


certificate, key = os.path.join(work, "nats.pem"), os.path.join(work, "nats.key")
subprocess.run(
    ["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1",
     "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", key, "-out", certificate], check=True, stdout=subprocess.DEVNULL,
    stderr=subprocess.DEVNULL)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def ticks(pid):
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])


class Side:
    """A broker (or nats-server) and two answering processes."""

    def __init__(self, system, setup, sessions):
        self.processes, self.env = [], dict(os.environ, POSTS_LOG_LEVEL="error")
        run = tempfile.mkdtemp(dir=work)
        os.chmod(run, 0o700)
        self.env["POSTS_RUNTIME_DIR"] = run
        self.client_env = dict(os.environ)
        if system == "nats":
            port = free_port()
            config = os.path.join(run, "nats.conf")
            with open(config, "w") as f:
                f.write(f"listen: 127.0.0.1:{port}\n")
                if setup == "secure":
                    f.write(f'tls {{\n  cert_file: "{certificate}"\n  key_file: "{key}"\n}}\n')
            self.broker = self.spawn(["nats-server", "-c", config])
            self.endpoint = f"{'tls' if setup == 'secure' else 'nats'}://127.0.0.1:{port}"
            self.wait_port(port)
            extra = [certificate] if setup == "secure" else []
            self.workers = [self.spawn([tools["natsecho"], self.endpoint, "echo", "q", str(sessions)] + extra) for _ in range(2)]
            self.load = [tools["natsload"], self.endpoint, "echo"]
            self.extra = extra
            time.sleep(0.5)
        else:
            gateway_env = dict(self.env)
            worker = []
            if setup == "ipc":
                self.endpoint = f"ipc://{run}/gateway.ipc"
            else:
                port = free_port()
                self.endpoint = f"tcp://127.0.0.1:{port}"
            if setup in ("tcp", "tcp-libzmq"):
                gateway_env["POSTS_INSECURE"] = "1"
                worker = ["--insecure"]
            if setup == "tcp-libzmq":
                self.env["POSTS_ZMTP"] = gateway_env["POSTS_ZMTP"] = "libzmq"
            if setup == "secure":
                gateway_env.update(POSTS_CURVE_KEY=os.path.join(keys, "gateway.key_secret"), POSTS_CURVE_ALLOW=allow)
                worker = ["--curve-key", os.path.join(keys, "worker.key_secret"), "--gateway-key", os.path.join(keys, "gateway.key")]
                self.client_env.update(
                    MDPLOAD_CURVE_SECRET=z85(os.path.join(keys, "client.key_secret"), "secret-key"),
                    MDPLOAD_CURVE_SERVER=z85(os.path.join(keys, "gateway.key"), "public-key"))
            self.broker = self.spawn([os.path.join(binaries, "gateway"), "--bind", self.endpoint], env=gateway_env)
            time.sleep(0.5)
            self.workers = [
                self.spawn([os.path.join(binaries, "echo-worker"), "--gateway", self.endpoint, "--raw", "--inline", "--sessions", str(sessions)] + worker)
                for _ in range(2)]
            self.load = [tools["mdpload"], self.endpoint, "echo"]
            self.extra = []
            time.sleep(1.5)

    def spawn(self, command, env=None):
        process = subprocess.Popen(command, env=env or self.env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.processes.append(process)
        return process

    @staticmethod
    def wait_port(port):
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.1).close()
                return
            except OSError:
                time.sleep(0.05)

    def measure(self, count, window):
        before = (ticks(self.broker.pid), sum(ticks(w.pid) for w in self.workers))
        # The client is the only child reaped meanwhile: its CPU is the difference.
        reaped = resource.getrusage(resource.RUSAGE_CHILDREN)
        process = subprocess.Popen(self.load + [str(count), str(window), str(args.body)] + self.extra, env=self.client_env,
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        out, err = process.communicate(timeout=300)
        after = (ticks(self.broker.pid), sum(ticks(w.pid) for w in self.workers))
        now = resource.getrusage(resource.RUSAGE_CHILDREN)
        if process.returncode != 0:
            raise SystemExit(f"{self.load[0]} failed ({process.returncode}): {err.strip()}")
        result = dict(part.split("=", 1) for part in out.split() if "=" in part)
        result["broker_ticks"], result["workers_ticks"] = after[0] - before[0], after[1] - before[1]
        result["client_seconds"] = (now.ru_utime + now.ru_stime) - (reaped.ru_utime + reaped.ru_stime)
        return result

    def stop(self):
        for process in reversed(self.processes):
            process.send_signal(signal.SIGTERM)
        for process in self.processes:
            try:
                process.wait(5)
            except subprocess.TimeoutExpired:
                process.kill()


runs = [("2x1 pipelined", 1, args.window), ("2x16 pipelined", 16, args.window), ("2x16 one at a time", 16, 1)]
ratios = {}
try:
    for round_ in range(1, args.rounds + 1):
        for setup in args.setups.split(","):
            for label, sessions, window in runs:
                figures = {}
                for system in ["nats", "ours"]:
                    side = Side(system, setup, sessions)
                    try:
                        figures[system] = side.measure(args.requests if window > 1 else args.samples, window)
                    finally:
                        side.stop()
                    f = figures[system]
                    shown = f"rps={f['rps']}" if window > 1 else f"p50_us={f['p50_us']} p99_us={f['p99_us']}"
                    print(f"round {round_} {setup:6} {label:19} {system:4} {shown} broker_ticks={f['broker_ticks']} "
                          f"answering_ticks={f['workers_ticks']} client_cpu_seconds={f['client_seconds']:.2f}", flush=True)
                if window > 1:
                    ratio = float(figures["ours"]["rps"]) / float(figures["nats"]["rps"])
                else:
                    ratio = float(figures["ours"]["p50_us"]) / float(figures["nats"]["p50_us"])
                ratios.setdefault((setup, label), []).append(ratio)
finally:
    shutil.rmtree(work, ignore_errors=True)

print("\nours / NATS (throughput: higher is better; one at a time: p50, lower is better)")
for (setup, label), values in ratios.items():
    print(f"{setup:6} {label:19} rounds={' '.join(f'{v:.2f}' for v in values)} median={statistics.median(values):.2f}")
