#!/usr/bin/env python3
"""kvserver against real redis-server, side by side on this machine.

Every workload runs on both servers in alternating rounds (kvserver, redis, kvserver, redis, ...),
each round on a freshly started server. For each workload it records throughput (redis-benchmark's
requests per second or updates per second of a mass import), latency percentiles, and the server
process's CPU time per request (summed over all its threads from /proc/PID/task/*/schedstat, in
nanoseconds), then writes a Markdown report, the raw measurements as CSV and PNG charts (gnuplot).

Usage: bench/harness.py [--mode full|quick|smoke] [--rounds N] [--out DIR] [--only a,b,...] [--pin]
Workloads (--only): matrix, pipeline, import, latency, threads, hashes, sets, lists, zsets,
lazyfree, streams, pubsub, multi.

--pin runs each server on CPU 0 and the measuring clients (redis-benchmark, the import's
redis-cli --pipe) on CPU 1 (taskset). Unpinned, the two share
both CPUs, and where redis-benchmark's one thread is saturated (pipelined tests, long replies) the
ratio measures the client's CPU per request more than the server's; pinned, the server has a CPU
of its own.
"""

import argparse
import csv
import io
import math
import os
import random
import resource
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field

import fanout

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MATRIX_TESTS = ["ping_inline", "ping_mbulk", "set", "get", "incr", "mset"]
SERVERS = ["kvserver", "redis"]
# Command prefixes that place the servers and redis-benchmark on CPUs (--pin); empty: unpinned.
PIN = {"server": [], "client": []}

# Targets from issue 3: (throughput ratio at least, CPU-per-request ratio at most).
TARGETS = {
    "matrix": (1.0, 0.9),
    "pipeline -P16": (0.97, 0.85),
    "pipeline -P64": (1.1, 0.6),
    "import tcp": (1.1, 0.8),
    "import unix": (1.1, 0.8),
    # Issue 13's hash targets; HGETALL is judged by throughput only.
    "hashes hset": (1.0, 0.9),
    "hashes hset -P16": (1.1, 0.75),
    "hashes hgetall 1000": (1.0, math.inf),
    # Issue 13's set targets; SMEMBERS is judged by throughput only.
    "sets sadd/spop": (1.0, 0.9),
    "sets sadd/spop -P16": (1.1, 0.75),
    "sets smembers 1000": (1.0, math.inf),
    # Issue 13's list targets: redis-benchmark's list tests, LRANGE 0 999 by throughput only.
    "lists -c50": (1.0, 0.9),
    "lists -P16": (1.1, 0.75),
    "lists lrange 1000": (1.0, math.inf),
    # Issue 14's: redis-benchmark's zadd and zpopmin; on one big sorted set (ZADD of new members,
    # ZRANK, ZRANGEBYSCORE ... LIMIT 0 100, ZRANGE of 100 by rank, ZREM) throughput only, as for
    # GEOSEARCH over the big geo set and PFCOUNT of 10 keys.
    "zsets zadd/zpopmin": (1.0, 0.9),
    "zsets zadd/zpopmin -P16": (1.1, 0.75),
    "zsets big set": (1.2, math.inf),
    "zsets geosearch": (1.0, math.inf),
    "zsets pfcount 10 keys": (1.0, math.inf),
    # Issue 15's stream targets: XADD as redis-benchmark 7.2's xadd test; the reads by throughput.
    "streams xadd": (1.0, 0.9),
    "streams xadd -P16": (1.1, math.inf),
    "streams xrange 100 of 1M": (1.0, math.inf),
    "streams xreadgroup 10 of 1M": (1.0, math.inf),
    # Issue 16's: messages delivered per second and server CPU per delivered message; MULTI with
    # 10 SETs and EXEC, pipelined, by throughput.
    "pubsub fanout": (1.0, 0.9),
    "pubsub fanout pattern": (1.0, 0.9),
    "multi 10 sets": (1.0, math.inf),
}

# Issue 13's memory targets: growth per element (field) after a load through redis-cli --pipe,
# kvserver / redis, for RSS and used_memory alike.
MEMORY_TARGETS = {
    "hashes memory 100k x 10": 1.0,
    "hashes memory 1 x 1M": 0.75,
    "sets memory 100k x 10 small integers": 1.0,
    "sets memory 1 x 1M 16-byte strings": 0.75,
    "lists memory 1 x 1M 10-byte elements": 1.0,
    "zsets memory 1 x 1M": 0.6,
    "zsets memory 100k x 10": 1.0,
    "streams memory 1 x 500k entries of 2 fields": 1.0,
}

# Issue 13's lazy freeing workload: members of the set UNLINKed while another client loops GET.
LAZYFREE_SET_MEMBERS = {"full": 10_000_000, "quick": 1_000_000, "smoke": 20_000}


@dataclass
class Mode:
    clients: list
    rounds: int
    requests: int  # per matrix test
    pipeline_requests: int
    import_keys: int
    idle_connections: int
    latency_requests: int
    long_seconds: float  # --threads 2 runs; 0 skips them
    hgetall_requests: int
    small_hashes: int  # hashes of 10 fields for the memory workload
    big_hash_fields: int  # fields of the one big hash for the memory workload
    small_sets: int  # sets of 10 small integers for the memory workload
    big_set_members: int  # members of the one big set for the memory workload
    list_requests: int  # per redis-benchmark list test
    big_list_elements: int  # elements of the one big list for the memory workload
    deliveries: int = 1_000_000  # messages delivered per pub/sub fan-out run (all subscribers)
    transactions: int = 100_000  # MULTI + 10 SETs + EXEC blocks per run


MODES = {
    "full": Mode([1 << i for i in range(11)], 3, 100_000, 2_000_000, 1_000_000, 1000, 200_000, 10,
                 50_000, 100_000, 1_000_000, 100_000, 1_000_000, 200_000, 1_000_000, 2_000_000,
                 200_000),
    "quick": Mode([1, 50, 256], 3, 100_000, 1_000_000, 1_000_000, 1000, 200_000, 10, 50_000,
                  100_000, 1_000_000, 100_000, 1_000_000, 200_000, 1_000_000, 1_000_000, 100_000),
    "smoke": Mode([1, 8], 1, 2_000, 20_000, 20_000, 100, 5_000, 0, 500, 1_000, 10_000, 1_000,
                  10_000, 2_000, 20_000, 20_000, 1_000),
}


# The fan-out publisher's pipeline (redis-benchmark -P).
PUBLISH_PIPELINE = 16


def publish_count(wanted):
    """Messages to publish in a fan-out run: at least 1000, and a multiple of the pipeline.
    redis-benchmark -P sends whole batches, so with -n not a multiple of -P it counts more replies
    than -n; when its client then finishes in the same event loop turn as its 250 ms progress
    timer, the timer sees no client left and a count other than -n, prints "All clients
    disconnected... aborting." and exits 1, with every message delivered (it happens with
    redis-server too: its log shows the client closing its connection). That was the fan-out
    cell's "closed publisher" under load."""
    n = max(1000, wanted)
    return -(-n // PUBLISH_PIPELINE) * PUBLISH_PIPELINE


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """One server process on 127.0.0.1 and a unix socket, with its CPU and memory readings."""

    def __init__(self, kind, kvserver, workdir):
        self.kind = kind
        binary = kvserver if kind == "kvserver" else shutil.which("redis-server")
        # free_port() only finds a port free a moment ago: another process may take it before
        # the server binds it, and then PING would be answered by that process. So the server
        # must report our child's process id, or it starts again on another port.
        for _ in range(5):
            self.port = free_port()
            self.unixsocket = os.path.join(workdir, f"{kind}-{self.port}.sock")
            # Its own empty directory: redis-server loads any dump.rdb in its working directory.
            self.dir = tempfile.mkdtemp(prefix=f"{kind}-", dir=workdir)
            common = ["--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
                      "--appendonly", "no", "--dir", self.dir, "--unixsocket", self.unixsocket,
                      "--unixsocketperm", "700"]
            # The log goes to a file in its directory, for the report of a run that failed.
            self.log_path = os.path.join(self.dir, "server.log")
            with open(self.log_path, "wb") as log:
                self.proc = subprocess.Popen([*PIN["server"], binary, *common], stdout=log,
                                             stderr=subprocess.STDOUT)
            if self.wait_ready():
                return
            self.stop()
        raise RuntimeError(f"{kind} did not start")

    def wait_ready(self):
        deadline = time.time() + 10
        while time.time() < deadline and self.proc.poll() is None:
            try:
                if self.command("PING") == b"+PONG\r\n":
                    return self.info_field("server", "process_id") == self.proc.pid
            except OSError:
                pass
            time.sleep(0.02)
        return False

    def command(self, *args):
        """Sends one command and returns the raw reply (enough for PING and INFO)."""
        payload = f"*{len(args)}\r\n".encode()
        for a in args:
            payload += f"${len(a)}\r\n{a}\r\n".encode()
        with socket.create_connection(("127.0.0.1", self.port), timeout=5) as s:
            s.sendall(payload)
            data = s.recv(65536)
            if data.startswith(b"$"):
                header, _, rest = data.partition(b"\r\n")
                need = int(header[1:]) + 2
                while len(rest) < need:
                    chunk = s.recv(65536)
                    if not chunk:
                        break
                    rest += chunk
                return rest[:need - 2]
            return data

    def info_field(self, section, name):
        for line in self.command("INFO", section).decode().splitlines():
            if line.startswith(name + ":"):
                return int(line.split(":", 1)[1])
        raise KeyError(name)

    def cpu_ns(self):
        """CPU time of every thread of the process so far, in nanoseconds."""
        total = 0
        task_dir = f"/proc/{self.proc.pid}/task"
        for tid in os.listdir(task_dir):
            try:
                with open(f"{task_dir}/{tid}/schedstat") as f:
                    total += int(f.read().split()[0])
            except OSError:
                pass  # the thread ended meanwhile
        return total

    def rss_bytes(self):
        with open(f"/proc/{self.proc.pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) * 1024
        raise RuntimeError("no VmRSS")

    def log_tail(self, lines=20):
        """The end of the server's log, and how it exited if it did."""
        with open(self.log_path, "rb") as f:
            tail = b"".join(f.readlines()[-lines:]).decode(errors="replace")
        code = self.proc.poll()
        return tail + (f"(exited with {code})\n" if code is not None else "(still running)\n")

    def stop(self):
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        try:
            os.unlink(self.unixsocket)
        except OSError:
            pass


@dataclass
class Sample:
    """One measurement of one workload on one server in one round."""
    workload: str  # e.g. "matrix", "pipeline -P16", "import tcp"
    test: str  # redis-benchmark test name or "import"
    clients: int
    server: str
    round: int
    requests: int
    throughput: float  # requests (or updates) per second
    cpu_ns_per_request: float
    p50_ms: float = float("nan")
    p99_ms: float = float("nan")
    extra: dict = field(default_factory=dict)


def run_benchmark(server, test, clients, requests, extra_args=(),
                  data_args=("-r", "64", "-d", "1024")):
    """One redis-benchmark run of one test; returns (rps, p50, p99, cpu ns per request)."""
    return run_benchmark_args(server, ["-t", test, *data_args], clients, requests, extra_args)


def run_benchmark_args(server, test_args, clients, requests, extra_args=()):
    """One redis-benchmark run of `test_args` (-t test, or a command line); returns (rps, p50,
    p99, cpu ns per request)."""
    args = [*PIN["client"], "redis-benchmark", "-h", "127.0.0.1", "-p", str(server.port), "--csv",
            "-n", str(requests), "-c", str(clients), *extra_args, *test_args]
    before = server.cpu_ns()
    out = subprocess.run(args, check=True, capture_output=True, text=True).stdout
    cpu = server.cpu_ns() - before
    rows = list(csv.DictReader(io.StringIO(out)))
    if len(rows) != 1:
        raise RuntimeError(f"redis-benchmark {' '.join(args)} printed:\n{out}")
    row = rows[0]
    return (float(row["rps"]), float(row["p50_latency_ms"]), float(row["p99_latency_ms"]),
            cpu / requests)


class Harness:
    def __init__(self, opts):
        self.opts = opts
        self.mode = MODES[opts.mode]
        if opts.rounds:
            self.mode.rounds = opts.rounds
        self.kvserver = opts.kvserver
        self.out = opts.out
        self.work = tempfile.mkdtemp(prefix="kvbench-")
        self.samples = []

    def log(self, msg):
        print(msg, flush=True)

    def alternate(self, body):
        """Runs body(server, round) for each round on fresh servers, kvserver first in even rounds
        and redis first in odd ones: this VM's speed drifts by tens of percent over minutes, and
        a fixed order would hand one server the same side of every drift."""
        for r in range(self.mode.rounds):
            for kind in (SERVERS if r % 2 == 0 else SERVERS[::-1]):
                server = Server(kind, self.kvserver, self.work)
                try:
                    body(server, r)
                finally:
                    server.stop()

    def matrix(self):
        for clients in self.mode.clients:
            def body(server, r, clients=clients):
                # One server runs the tests in redis-benchmark's order, so GET finds SET's keys.
                for test in MATRIX_TESTS:
                    rps, p50, p99, cpu = run_benchmark(server, test, clients, self.mode.requests)
                    self.samples.append(Sample("matrix", test, clients, server.kind, r,
                                               self.mode.requests, rps, cpu, p50, p99))
                    self.log(f"matrix {test:12} -c {clients:<5} {server.kind:9} round {r}: "
                             f"{rps:>11.0f} rps {cpu:>8.0f} ns/req")
            self.alternate(body)

    def pipeline(self):
        for depth in (16, 64):
            def body(server, r, depth=depth):
                for test in ("set", "get"):
                    rps, p50, p99, cpu = run_benchmark(server, test, 50, self.mode.pipeline_requests,
                                                       ["-P", str(depth)])
                    self.samples.append(Sample(f"pipeline -P{depth}", test, 50, server.kind, r,
                                               self.mode.pipeline_requests, rps, cpu, p50, p99))
                    self.log(f"pipeline -P{depth} {test:4} {server.kind:9} round {r}: "
                             f"{rps:>11.0f} rps {cpu:>8.0f} ns/req")
            self.alternate(body)

    def import_file(self):
        """1M `SET <uuid> <uuid>` in RESP, generated once per run from a fixed seed."""
        path = os.path.join(self.work, "import.resp")
        if not os.path.exists(path):
            rng = random.Random(20261130)
            with open(path, "wb") as f:
                chunk = []
                for _ in range(self.mode.import_keys):
                    key = str(uuid_from(rng))
                    value = str(uuid_from(rng))
                    chunk.append(f"*3\r\n$3\r\nSET\r\n$36\r\n{key}\r\n$36\r\n{value}\r\n")
                    if len(chunk) == 10000:
                        f.write("".join(chunk).encode())
                        chunk.clear()
                f.write("".join(chunk).encode())
        return path

    def mass_import(self):
        path = self.import_file()
        keys = self.mode.import_keys
        for transport in ("tcp", "unix"):
            def body(server, r, transport=transport):
                target = (["-h", "127.0.0.1", "-p", str(server.port)] if transport == "tcp"
                          else ["-s", server.unixsocket])
                rss0, used0 = server.rss_bytes(), server.info_field("memory", "used_memory")
                cpu0 = server.cpu_ns()
                start = time.perf_counter()
                with open(path, "rb") as f:
                    out = subprocess.run([*PIN["client"], "redis-cli", *target, "--pipe"], stdin=f,
                                         check=True, capture_output=True, text=True).stdout
                seconds = time.perf_counter() - start
                cpu = (server.cpu_ns() - cpu0) / keys
                if f"errors: 0, replies: {keys}" not in out:
                    raise RuntimeError(f"import into {server.kind} failed:\n{out}")
                dbsize = int(server.command("DBSIZE").decode()[1:])
                if dbsize != keys:
                    raise RuntimeError(f"{server.kind} has {dbsize} keys after the import")
                extra = {}
                if transport == "tcp":
                    extra = {
                        "rss_bytes_per_key": (server.rss_bytes() - rss0) / keys,
                        "used_memory_bytes_per_key":
                            (server.info_field("memory", "used_memory") - used0) / keys,
                    }
                self.samples.append(Sample(f"import {transport}", "import", 1, server.kind, r,
                                           keys, keys / seconds, cpu, extra=extra))
                self.log(f"import {transport:4} {server.kind:9} round {r}: {keys / seconds:>11.0f}"
                         f" keys/s {cpu:>8.0f} ns/key {extra}")
            self.alternate(body)

    def latency(self):
        def body(server, r):
            run_benchmark(server, "set", 50, self.mode.latency_requests)  # values for GET to find
            for idle in (0, self.mode.idle_connections):
                conns = [socket.create_connection(("127.0.0.1", server.port)) for _ in range(idle)]
                try:
                    if idle:  # every idle connection is accepted and registered before measuring
                        wait_clients(server, idle + 1)
                    rps, p50, p99, cpu = run_benchmark(server, "get", 50,
                                                       self.mode.latency_requests)
                finally:
                    for c in conns:
                        c.close()
                name = f"latency {idle} idle"
                self.samples.append(Sample(name, "get", 50, server.kind, r,
                                           self.mode.latency_requests, rps, cpu, p50, p99))
                self.log(f"{name} {server.kind:9} round {r}: p50 {p50} ms p99 {p99} ms "
                         f"{rps:>9.0f} rps {cpu:>8.0f} ns/req")
        self.alternate(body)

    def threads(self):
        """redis-benchmark --threads 2, long enough (>= long_seconds) for its 250 ms timer."""
        for depth in (1, 16):
            # Sized by the faster server, so that both runs last at least long_seconds.
            fastest = 0
            for kind in SERVERS:
                probe = Server(kind, self.kvserver, self.work)
                try:
                    rps, *_ = run_benchmark(probe, "get", 50, 100_000,
                                            ["--threads", "2", "-P", str(depth)])
                    fastest = max(fastest, rps)
                finally:
                    probe.stop()
            requests = int(fastest * self.mode.long_seconds * 1.2)
            workload = f"threads 2 -P{depth}"

            def body(server, r, depth=depth, requests=requests, workload=workload):
                for test in ("set", "get"):
                    rps, p50, p99, cpu = run_benchmark(server, test, 50, requests,
                                                       ["--threads", "2", "-P", str(depth)])
                    self.samples.append(Sample(workload, test, 50, server.kind, r, requests, rps,
                                               cpu, p50, p99))
                    self.log(f"{workload} {test:4} {server.kind:9} round {r}: {rps:>11.0f} rps "
                             f"{cpu:>8.0f} ns/req")
            self.alternate(body)

    def hashes(self):
        """Issue 13's hash workloads: redis-benchmark's own hset test (its defaults: one field of
        3 bytes, a listpack) at -c 50 and at -c 50 -P 16; HGETALL of a 1,000-field hash (a
        hashtable) at -c 50; memory per field after loading 100,000 hashes of 10 short fields and
        one hash of 1,000,000 fields through redis-cli --pipe."""
        for depth in (1, 16):
            workload = "hashes hset" + (f" -P{depth}" if depth > 1 else "")
            requests = self.mode.requests if depth == 1 else self.mode.pipeline_requests

            def body(server, r, depth=depth, requests=requests, workload=workload):
                rps, p50, p99, cpu = run_benchmark(server, "hset", 50, requests,
                                                   ["-P", str(depth)], data_args=())
                self.samples.append(Sample(workload, "hset", 50, server.kind, r, requests, rps,
                                           cpu, p50, p99))
                self.log(f"{workload} {server.kind:9} round {r}: {rps:>11.0f} rps "
                         f"{cpu:>8.0f} ns/req")
            self.alternate(body)

        def hgetall(server, r):
            fields = []
            for i in range(1000):
                fields += [f"field:{i}", f"value:{i}"]
            server.command("HSET", "bighash", *fields)
            requests = self.mode.hgetall_requests
            rps, p50, p99, cpu = run_benchmark_args(server, ["HGETALL", "bighash"], 50, requests)
            self.samples.append(Sample("hashes hgetall 1000", "hgetall", 50, server.kind, r,
                                       requests, rps, cpu, p50, p99))
            self.log(f"hashes hgetall 1000 {server.kind:9} round {r}: {rps:>11.0f} rps "
                     f"{cpu:>8.0f} ns/req")
        self.alternate(hgetall)

        small = self.mode.small_hashes
        big = self.mode.big_hash_fields
        rng = random.Random(20261201)

        def small_hashes(f):
            for i in range(small):
                args = ["HSET", f"hash:{i}"]
                for j in range(10):
                    args += [f"field{j}", random_word(rng, 8)]
                f.write(resp_command(args))

        def big_hash(f):
            for i in range(big):
                f.write(resp_command(["HSET", "bighash", f"field:{i}", random_word(rng, 10)]))

        for workload, generate, keys, elements in (
                ("hashes memory 100k x 10", small_hashes, small, small * 10),
                ("hashes memory 1 x 1M", big_hash, 1, big)):
            path = self.resp_file(workload.replace(" ", "-") + ".resp", generate)
            self.alternate(lambda server, r, workload=workload, path=path, keys=keys,
                           elements=elements: self.load_memory(server, r, workload, path, keys,
                                                               elements))

    def sets(self):
        """Issue 13's set workloads: redis-benchmark's sadd and spop tests (one set of at most 64
        members, a hashtable) at -c 50 and at -c 50 -P 16; SMEMBERS of a 1,000-member set at
        -c 50; memory per member after loading 100,000 sets of 10 small integers (intsets) and one
        set of 1,000,000 16-byte strings through redis-cli --pipe."""
        for depth in (1, 16):
            workload = "sets sadd/spop" + (f" -P{depth}" if depth > 1 else "")
            requests = self.mode.requests if depth == 1 else self.mode.pipeline_requests

            def body(server, r, depth=depth, requests=requests, workload=workload):
                for test in ("sadd", "spop"):
                    rps, p50, p99, cpu = run_benchmark(server, test, 50, requests,
                                                       ["-P", str(depth)])
                    self.samples.append(Sample(workload, test, 50, server.kind, r, requests,
                                               rps, cpu, p50, p99))
                    self.log(f"{workload} {test:4} {server.kind:9} round {r}: {rps:>11.0f} rps "
                             f"{cpu:>8.0f} ns/req")
            self.alternate(body)

        def smembers(server, r):
            server.command("SADD", "bigset", *(f"member:{i}" for i in range(1000)))
            requests = self.mode.hgetall_requests
            rps, p50, p99, cpu = run_benchmark_args(server, ["SMEMBERS", "bigset"], 50, requests)
            self.samples.append(Sample("sets smembers 1000", "smembers", 50, server.kind, r,
                                       requests, rps, cpu, p50, p99))
            self.log(f"sets smembers 1000 {server.kind:9} round {r}: {rps:>11.0f} rps "
                     f"{cpu:>8.0f} ns/req")
        self.alternate(smembers)

        small = self.mode.small_sets
        big = self.mode.big_set_members
        rng = random.Random(20261202)

        def small_sets(f):
            for i in range(small):
                f.write(resp_command(["SADD", f"set:{i}"] +
                                     [str(v) for v in rng.sample(range(1000), 10)]))

        def big_set(f):
            members = set()
            while len(members) < big:
                m = f"{rng.getrandbits(64):016x}"
                if m not in members:
                    members.add(m)
                    f.write(resp_command(["SADD", "bigset", m]))

        for workload, generate, keys, elements in (
                ("sets memory 100k x 10 small integers", small_sets, small, small * 10),
                ("sets memory 1 x 1M 16-byte strings", big_set, 1, big)):
            path = self.resp_file(workload.replace(" ", "-") + ".resp", generate)
            self.alternate(lambda server, r, workload=workload, path=path, keys=keys,
                           elements=elements: self.load_memory(server, r, workload, path, keys,
                                                               elements))

    def zsets(self):
        """Issue 14's sorted set, geo and HyperLogLog workloads: redis-benchmark's zadd and
        zpopmin tests at -c 50 and -P 16; on one sorted set of big_set_members members with random
        scores (loaded with redis-cli --pipe), ZADD of new members, ZRANK, ZRANGEBYSCORE ... LIMIT
        0 100, ZRANGE of 100 by rank and ZREM at -c 50; GEOSEARCH BYRADIUS 200 km over as many
        random points; PFCOUNT of 10 keys of 100,000 elements; memory per member of the big
        sorted set and of small_sets sorted sets of 10 members."""
        for depth in (1, 16):
            workload = "zsets zadd/zpopmin" + (f" -P{depth}" if depth > 1 else "")
            requests = self.mode.requests if depth == 1 else self.mode.pipeline_requests

            def body(server, r, depth=depth, requests=requests, workload=workload):
                for test in ("zadd", "zpopmin"):
                    rps, p50, p99, cpu = run_benchmark(server, test, 50, requests,
                                                       ["-P", str(depth)], data_args=())
                    self.samples.append(Sample(workload, test, 50, server.kind, r, requests,
                                               rps, cpu, p50, p99))
                    self.log(f"{workload} {test:7} {server.kind:9} round {r}: {rps:>11.0f} rps "
                             f"{cpu:>8.0f} ns/req")
            self.alternate(body)

        n = self.mode.big_set_members
        rng = random.Random(20261214)

        def big_zset(f):
            # Members as redis-benchmark's __rand_int__ writes them (12 digits), so that ZRANK and
            # ZREM below find them.
            for i in range(n):
                f.write(resp_command(["ZADD", "bigz", repr(rng.random() * n), f"m:{i:012d}"]))

        def small_zsets(f):
            for i in range(self.mode.small_sets):
                args = ["ZADD", f"zset:{i}"]
                for j in range(10):
                    args += [str(rng.randrange(1000)), f"member{j}"]
                f.write(resp_command(args))

        def geo_points(f):
            for i in range(n):
                f.write(resp_command(["GEOADD", "geo", f"{rng.uniform(-180, 180):.6f}",
                                      f"{rng.uniform(-85, 85):.6f}", f"p:{i}"]))

        def hlls(f):
            for k in range(10):
                for start in range(0, 100_000, 1000):
                    f.write(resp_command(["PFADD", f"hll:{k}"] +
                                         [f"e:{k}:{i}" for i in range(start, start + 1000)]))

        big_path = self.resp_file("zsets-big.resp", big_zset)
        ops = [("zadd new", ["-r", "100000000", "ZADD", "bigz", "__rand_int__", "n:__rand_int__"]),
               ("zrank", ["-r", str(n), "ZRANK", "bigz", "m:__rand_int__"]),
               ("zrangebyscore limit 100",
                ["-r", str(n), "ZRANGEBYSCORE", "bigz", "__rand_int__", "+inf", "LIMIT", "0",
                 "100"]),
               ("zrange 100 by rank", ["ZRANGE", "bigz", str(n // 2), str(n // 2 + 99)]),
               ("zrem", ["-r", str(n), "ZREM", "bigz", "m:__rand_int__"])]

        def big_set(server, r):
            self.load_memory(server, r, "zsets memory 1 x 1M", big_path, 1, n)
            requests = self.mode.hgetall_requests
            for test, args in ops:
                rps, p50, p99, cpu = run_benchmark_args(server, args, 50, requests)
                self.samples.append(Sample("zsets big set", test, 50, server.kind, r, requests,
                                           rps, cpu, p50, p99))
                self.log(f"zsets big set {test:24} {server.kind:9} round {r}: {rps:>11.0f} rps "
                         f"{cpu:>8.0f} ns/req")
        self.alternate(big_set)

        for workload, generate, command, keys in (
                ("zsets geosearch", geo_points,
                 ["GEOSEARCH", "geo", "FROMLONLAT", "15", "37", "BYRADIUS", "200", "km", "ASC"], 1),
                ("zsets pfcount 10 keys", hlls, ["PFCOUNT"] + [f"hll:{k}" for k in range(10)],
                 10)):
            path = self.resp_file(workload.replace(" ", "-") + ".resp", generate)

            def body(server, r, workload=workload, path=path, command=command, keys=keys):
                subprocess.run(["redis-cli", "-h", "127.0.0.1", "-p", str(server.port), "--pipe"],
                               stdin=open(path, "rb"), check=True, capture_output=True)
                if int(server.command("DBSIZE").decode()[1:]) != keys:
                    raise RuntimeError(f"{server.kind}: the load for {workload} failed")
                requests = max(self.mode.hgetall_requests // 10, 100)
                rps, p50, p99, cpu = run_benchmark_args(server, command, 50, requests)
                self.samples.append(Sample(workload, command[0].lower(), 50, server.kind, r,
                                           requests, rps, cpu, p50, p99))
                self.log(f"{workload} {server.kind:9} round {r}: {rps:>11.0f} rps "
                         f"{cpu:>8.0f} ns/req")
            self.alternate(body)

        path = self.resp_file("zsets-small.resp", small_zsets)
        small = self.mode.small_sets
        self.alternate(lambda server, r: self.load_memory(server, r, "zsets memory 100k x 10",
                                                          path, small, small * 10))
    def scripting(self):
        """Issue 18's script workloads: EVALSHA of a one-command and of a ten-command script and
        FCALL of a one-command function at -c 50 (redis-benchmark), and one EVAL whose script
        calls redis.call 1,000,000 times in a loop (its wall time as rps = calls per second)."""
        one = "return redis.call('incr', KEYS[1])"
        ten = ("for i = 1, 9 do redis.call('incr', KEYS[1]) end "
               "return redis.call('incr', KEYS[1])")
        library = ("#!lua name=benchlib\nredis.register_function('incr_one', "
                   "function(keys) return redis.call('incr', keys[1]) end)")
        loop = "for i = 1, 1000000 do redis.call('incr', KEYS[1]) end return 1"

        def body(server, r):
            requests = self.mode.requests
            for name, script in (("evalsha 1 command", one), ("evalsha 10 commands", ten)):
                sha = server.command("SCRIPT", "LOAD", script).decode()
                rps, p50, p99, cpu = run_benchmark_args(
                    server, ["EVALSHA", sha, "1", "key:__rand_int__"], 50, requests)
                self.samples.append(Sample("scripting " + name, "evalsha", 50, server.kind, r,
                                           requests, rps, cpu, p50, p99))
                self.log(f"scripting {name:20} {server.kind:9} round {r}: {rps:>11.0f} rps "
                         f"{cpu:>8.0f} ns/req")
            server.command("FUNCTION", "LOAD", library)
            rps, p50, p99, cpu = run_benchmark_args(
                server, ["FCALL", "incr_one", "1", "key:__rand_int__"], 50, requests)
            self.samples.append(Sample("scripting fcall 1 command", "fcall", 50, server.kind, r,
                                       requests, rps, cpu, p50, p99))
            self.log(f"scripting fcall 1 command    {server.kind:9} round {r}: {rps:>11.0f} rps "
                     f"{cpu:>8.0f} ns/req")
            before = server.cpu_ns()
            started = time.time()
            subprocess.run(["redis-cli", "-p", str(server.port), "EVAL", loop, "1", "loopkey"],
                           check=True, capture_output=True)
            seconds = time.time() - started
            cpu = server.cpu_ns() - before
            self.samples.append(Sample("scripting loop 1M redis.call", "eval", 1, server.kind, r,
                                       1000000, 1000000 / seconds, cpu / 1000000))
            self.log(f"scripting loop 1M redis.call {server.kind:9} round {r}: {seconds:.3f} s")
        self.alternate(body)

    def lists(self):
        """Issue 13's list workloads: redis-benchmark's lpush, rpush, lpop, rpop and
        lrange_100/300/600 tests as it runs them (3-byte values, one list "mylist") at -c 50 and
        at -c 50 -P 16; LRANGE 0 999 of a 1,000-element list at -c 50; memory per element after
        loading one list of 1,000,000 10-byte strings through redis-cli --pipe."""
        requests = self.mode.list_requests

        def record(server, r, workload, test, result):
            rps, p50, p99, cpu = result
            self.samples.append(Sample(workload, test, 50, server.kind, r, requests, rps, cpu,
                                       p50, p99))
            self.log(f"{workload} {test:10} {server.kind:9} round {r}: {rps:>11.0f} rps "
                     f"{cpu:>8.0f} ns/req")

        def fill(server, n):
            # The list redis-benchmark's LRANGE tests make first ("xxx" elements), made here so
            # that its pushes stay out of the LRANGE measurement.
            server.command("DEL", "mylist")
            run_benchmark(server, "lpush", 50, n, data_args=())

        for depth in (1, 16):
            workload = "lists -c50" if depth == 1 else f"lists -P{depth}"

            def body(server, r, depth=depth, workload=workload):
                # redis-benchmark's order: the pops take what the pushes added.
                for test in ("lpush", "rpush", "lpop", "rpop"):
                    record(server, r, workload, test,
                           run_benchmark(server, test, 50, requests, ["-P", str(depth)],
                                         data_args=()))
                fill(server, 600)
                for test, last in (("lrange_100", 99), ("lrange_300", 299), ("lrange_600", 599)):
                    record(server, r, workload, test,
                           run_benchmark_args(server, ["LRANGE", "mylist", "0", str(last)], 50,
                                              requests, ["-P", str(depth)]))
            self.alternate(body)

        def lrange_1000(server, r):
            fill(server, 1000)
            record(server, r, "lists lrange 1000", "lrange",
                   run_benchmark_args(server, ["LRANGE", "mylist", "0", "999"], 50, requests))
        self.alternate(lrange_1000)

        n = self.mode.big_list_elements

        def big_list(f):
            for i in range(n):
                f.write(resp_command(["RPUSH", "biglist", f"v{i:09d}"]))

        workload = "lists memory 1 x 1M 10-byte elements"
        path = self.resp_file("lists-memory.resp", big_list)
        self.alternate(lambda server, r: self.load_memory(server, r, workload, path, 1, n))
    def pubsub(self):
        """Issue 16's fan-out: one publisher (redis-benchmark -c 1 -P 16 PUBLISH, 16-byte
        messages) to 1, 100 and 1,000 subscribers of one channel, and the same through a pattern;
        the rate is messages delivered per second (publishes x subscribers, until the last byte
        reached the last subscriber) and the CPU is the server's per delivered message. The
        subscribers read in a process of their own; the pubsub output limit is lifted on both
        servers so that a subscriber process slower than the server measures, not disconnects.
        Then 100 fast subscribers beside one that never reads, under the default limit: the
        fast ones' rate against the run without it."""
        payload = "p" * 16
        runs = [(n, None) for n in (1, 100, 1000)] + [(n, "ch*") for n in (1, 100, 1000)]
        for subscribers, pattern in runs:
            workload = "pubsub fanout" + (" pattern" if pattern else "")
            messages = publish_count(self.mode.deliveries // subscribers)

            def body(server, r, subscribers=subscribers, pattern=pattern, workload=workload,
                     messages=messages):
                server.command("CONFIG", "SET", "client-output-buffer-limit", "pubsub 0 0 0")
                self.fanout_run(server, r, workload, subscribers, pattern, messages, payload)
            self.alternate(body)
        for slow in (False, True):
            workload = "pubsub 100 fast" + (" + 1 slow" if slow else "")
            messages = publish_count(self.mode.deliveries // 100)
            self.alternate(lambda server, r, workload=workload, slow=slow, messages=messages:
                           self.fanout_run(server, r, workload, 100, None, messages, payload,
                                           slow=slow))

    def fanout_run(self, server, r, workload, subscribers, pattern, messages, payload, slow=False):
        proc, done = fanout.start_subscribers(server.port, subscribers, "chan", payload, messages,
                                              pattern=pattern, slow=slow)
        try:
            cpu0 = server.cpu_ns()
            start = time.time()
            bench = subprocess.run([*PIN["client"], "redis-benchmark", "-h", "127.0.0.1", "-p",
                                    str(server.port), "-c", "1", "-P", str(PUBLISH_PIPELINE),
                                    "-n", str(messages), "PUBLISH", "chan", payload],
                                   capture_output=True, text=True)
            if bench.returncode != 0:
                raise RuntimeError(f"{workload} on {server.kind}: redis-benchmark failed:\n"
                                   f"server log:\n{server.log_tail()}"
                                   f"{bench.stdout[-2000:]}{bench.stderr[-2000:]}")
            if not done.poll(600):
                raise RuntimeError(f"{workload}: the subscribers did not get every message")
            last = done.recv()
            cpu = server.cpu_ns() - cpu0
        finally:
            proc.join(timeout=5)
            if proc.is_alive():
                proc.kill()
        deliveries = messages * subscribers
        rate = deliveries / (last - start)
        self.samples.append(Sample(workload, "publish", subscribers, server.kind, r, deliveries,
                                   rate, cpu / deliveries))
        self.log(f"{workload} {subscribers:>4} subscribers {server.kind:9} round {r}: "
                 f"{rate:>11.0f} msg/s {cpu / deliveries:>8.0f} ns/msg")

    def multi(self):
        """MULTI, 10 SETs, EXEC, pipelined through redis-cli --pipe: transactions per second
        and the server's CPU per transaction."""
        count = self.mode.transactions

        def generate(f):
            for t in range(count):
                f.write(resp_command(["MULTI"]))
                for i in range(10):
                    f.write(resp_command(["SET", f"key:{(t * 10 + i) % 10000}", "v" * 16]))
                f.write(resp_command(["EXEC"]))

        path = self.resp_file(f"multi-{count}.resp", generate)

        def body(server, r):
            cpu0 = server.cpu_ns()
            start = time.perf_counter()
            with open(path, "rb") as f:
                out = subprocess.run(["redis-cli", "-h", "127.0.0.1", "-p", str(server.port),
                                      "--pipe"], stdin=f, check=True, capture_output=True,
                                     text=True).stdout
            seconds = time.perf_counter() - start
            if f"errors: 0, replies: {count * 12}" not in out:
                raise RuntimeError(f"transactions on {server.kind} failed:\n{out}")
            cpu = (server.cpu_ns() - cpu0) / count
            self.samples.append(Sample("multi 10 sets", "multi", 1, server.kind, r, count,
                                       count / seconds, cpu))
            self.log(f"multi 10 sets {server.kind:9} round {r}: {count / seconds:>9.0f} tx/s "
                     f"{cpu:>8.0f} ns/tx")
        self.alternate(body)

    def lazyfree(self):
        """Issue 13's lazy freeing workload: one client loops GET, one request at a time, while
        another UNLINKs a set of LAZYFREE_SET_MEMBERS members (10,000,000 in full mode); records
        the GET latencies from 200 ms before the UNLINK until 200 ms after the server freed the
        set (INFO's lazyfree_pending_objects back at 0): p50, p99 and max, and the UNLINK's own
        latency. The GET loop runs in a Python thread: its figures include some interpreter
        noise, the same for both servers."""
        n = LAZYFREE_SET_MEMBERS[self.opts.mode]
        batch = 1000

        def big_set(f):
            for start in range(0, n, batch):
                f.write(resp_command(["SADD", "bigset"] +
                                     [f"member:{i}" for i in range(start, min(n, start + batch))]))

        path = self.resp_file(f"lazyfree-{n}.resp", big_set)
        workload = f"lazyfree unlink {n}-member set"

        def body(server, r):
            with open(path, "rb") as f:
                out = subprocess.run(["redis-cli", "-h", "127.0.0.1", "-p", str(server.port),
                                      "--pipe"], stdin=f, check=True, capture_output=True,
                                     text=True).stdout
            if "errors: 0," not in out:
                raise RuntimeError(f"load into {server.kind} failed:\n{out}")
            if server.command("SCARD", "bigset") != f":{n}\r\n".encode():
                raise RuntimeError(f"{server.kind}: the set does not have {n} members")
            server.command("SET", "k", "v")
            getter = socket.create_connection(("127.0.0.1", server.port))
            getter.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            request, reply = resp_command(["GET", "k"]), b"$1\r\nv\r\n"
            latencies = []
            stop = threading.Event()

            def loop():
                while not stop.is_set():
                    start = time.perf_counter()
                    getter.sendall(request)
                    got = b""
                    while len(got) < len(reply):
                        chunk = getter.recv(64)
                        if not chunk:
                            raise RuntimeError(f"{server.kind} closed the GET connection")
                        got += chunk
                    latencies.append(time.perf_counter() - start)

            cpu0 = server.cpu_ns()
            window_start = time.perf_counter()
            thread = threading.Thread(target=loop)
            thread.start()
            try:
                time.sleep(0.2)
                start = time.perf_counter()
                if server.command("UNLINK", "bigset") != b":1\r\n":
                    raise RuntimeError(f"{server.kind}: UNLINK did not delete the set")
                unlink_ms = (time.perf_counter() - start) * 1000
                deadline = time.time() + 120
                while server.info_field("memory", "lazyfree_pending_objects") > 0:
                    if time.time() > deadline:
                        raise RuntimeError(f"{server.kind} never freed the set")
                    time.sleep(0.01)
                freed_ms = (time.perf_counter() - start) * 1000
                time.sleep(0.2)
            finally:
                stop.set()
                thread.join()
                getter.close()
            window = time.perf_counter() - window_start
            ms = sorted(x * 1000 for x in latencies)
            p50 = ms[len(ms) // 2]
            p99 = ms[min(len(ms) - 1, int(len(ms) * 0.99))]
            extra = {"max_ms": ms[-1], "unlink_ms": unlink_ms, "freed_after_ms": freed_ms}
            self.samples.append(Sample(workload, "get", 1, server.kind, r, len(ms),
                                       len(ms) / window, (server.cpu_ns() - cpu0) / len(ms), p50,
                                       p99, extra=extra))
            self.log(f"{workload} {server.kind:9} round {r}: GET p50 {p50:.3f} ms p99 {p99:.3f} "
                     f"ms max {ms[-1]:.3f} ms over {len(ms)} GETs; UNLINK {unlink_ms:.3f} ms, "
                     f"freed after {freed_ms:.0f} ms")
        self.alternate(body)

    def resp_file(self, name, generate):
        """A file of RESP commands written once per run by generate(file)."""
        path = os.path.join(self.work, name)
        if not os.path.exists(path):
            with open(path, "wb") as f:
                generate(f)
        return path

    def load_memory(self, server, r, workload, path, keys, elements):
        """Loads `path` through redis-cli --pipe; records the RSS and used_memory growth per
        element, and the load's rate and CPU per command."""
        rss0, used0 = server.rss_bytes(), server.info_field("memory", "used_memory")
        cpu0 = server.cpu_ns()
        start = time.perf_counter()
        with open(path, "rb") as f:
            out = subprocess.run(["redis-cli", "-h", "127.0.0.1", "-p", str(server.port),
                                  "--pipe"], stdin=f, check=True, capture_output=True,
                                 text=True).stdout
        seconds = time.perf_counter() - start
        if "errors: 0," not in out:
            raise RuntimeError(f"load into {server.kind} failed:\n{out}")
        replies = int(out.rsplit("replies: ", 1)[1].split()[0])
        dbsize = int(server.command("DBSIZE").decode()[1:])
        if dbsize != keys:
            raise RuntimeError(f"{server.kind} has {dbsize} keys after {workload}")
        extra = {
            "rss_bytes_per_element": (server.rss_bytes() - rss0) / elements,
            "used_memory_bytes_per_element":
                (server.info_field("memory", "used_memory") - used0) / elements,
        }
        self.samples.append(Sample(workload, "load", 1, server.kind, r, replies,
                                   replies / seconds, (server.cpu_ns() - cpu0) / replies,
                                   extra=extra))
        self.log(f"{workload} {server.kind:9} round {r}: {replies / seconds:>9.0f} cmds/s "
                 f"RSS {extra['rss_bytes_per_element']:.1f} B/element, used_memory "
                 f"{extra['used_memory_bytes_per_element']:.1f} B/element")

    def streams(self):
        """Issue 15's stream workloads: XADD mystream * myfield xxx (redis-benchmark 7.0.15 has no
        xadd test; this is 7.2's) at -c 50 and -c 50 -P 16; XRANGE of 100 entries and XREADGROUP
        COUNT 10 (NOACK, new entries) from a stream of big_list_elements entries; memory per entry
        after loading half that many entries of two fields into one stream."""
        for depth in (1, 16):
            workload = "streams xadd" + (f" -P{depth}" if depth > 1 else "")
            requests = self.mode.requests if depth == 1 else self.mode.pipeline_requests

            def body(server, r, depth=depth, requests=requests, workload=workload):
                server.command("DEL", "mystream")
                rps, p50, p99, cpu = run_benchmark_args(
                    server, ["XADD", "mystream", "*", "myfield", "xxx"], 50, requests,
                    ["-P", str(depth)])
                self.samples.append(Sample(workload, "xadd", 50, server.kind, r, requests, rps,
                                           cpu, p50, p99))
                self.log(f"{workload} {server.kind:9} round {r}: {rps:>11.0f} rps "
                         f"{cpu:>8.0f} ns/req")
            self.alternate(body)

        big = self.mode.big_list_elements
        rng = random.Random(20261215)

        def big_stream(f):
            for i in range(1, big + 1):
                f.write(resp_command(["XADD", "bigstream", f"{i}-0", "name", random_word(rng, 8),
                                      "value", str(i)]))
            f.write(resp_command(["XGROUP", "CREATE", "bigstream", "g", "0"]))

        path = self.resp_file("streams-big.resp", big_stream)

        def reads(server, r):
            server.command("FLUSHALL")
            with open(path, "rb") as f:
                subprocess.run(["redis-cli", "-h", "127.0.0.1", "-p", str(server.port), "--pipe"],
                               stdin=f, check=True, capture_output=True)
            requests = self.mode.hgetall_requests
            for workload, args in (
                    ("streams xrange 100 of 1M", ["XRANGE", "bigstream", f"{big // 2}", "+",
                                                  "COUNT", "100"]),
                    ("streams xreadgroup 10 of 1M", ["XREADGROUP", "GROUP", "g", "c", "COUNT",
                                                     "10", "NOACK", "STREAMS", "bigstream",
                                                     ">"])):
                rps, p50, p99, cpu = run_benchmark_args(server, args, 50, requests)
                self.samples.append(Sample(workload, args[0].lower(), 50, server.kind, r,
                                           requests, rps, cpu, p50, p99))
                self.log(f"{workload} {server.kind:9} round {r}: {rps:>11.0f} rps "
                         f"{cpu:>8.0f} ns/req")
            server.command("FLUSHALL")
        self.alternate(reads)

        entries = big // 2

        def memory_stream(f):
            for _ in range(entries):
                f.write(resp_command(["XADD", "memstream", "*", "field1", random_word(rng, 8),
                                      "field2", random_word(rng, 8)]))

        workload = "streams memory 1 x 500k entries of 2 fields"
        mpath = self.resp_file("streams-memory.resp", memory_stream)
        self.alternate(lambda server, r: self.load_memory(server, r, workload, mpath, 1,
                                                          entries))

    def run(self):
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # for -c 1024 and idle clients
        started = time.time()
        failed = []
        try:
            for name in self.opts.only:
                # A workload that fails (a server that died, a load that went wrong) is reported
                # and the run goes on: the other workloads' measurements still make a report.
                try:
                    getattr(self, {"import": "mass_import"}.get(name, name))()
                except Exception as e:  # noqa: BLE001
                    self.log(f"workload {name} FAILED: {e!r}")
                    failed.append(name)
        finally:
            shutil.rmtree(self.work, ignore_errors=True)
        os.makedirs(self.out, exist_ok=True)
        write_csv(self.samples, os.path.join(self.out, "results.csv"))
        charts = plot_matrix(self.samples, self.out)
        report = render_report(self.samples, self.opts, self.mode, time.time() - started, charts)
        with open(os.path.join(self.out, "report.md"), "w") as f:
            f.write(report)
        print(report)
        if failed:
            raise SystemExit(f"failed workloads: {', '.join(failed)}")


def random_word(rng, n):
    return "".join(rng.choice("abcdefghijklmnopqrstuvwxyz0123456789") for _ in range(n))


def resp_command(args):
    out = [f"*{len(args)}\r\n"]
    for a in args:
        out.append(f"${len(a.encode())}\r\n{a}\r\n")
    return "".join(out).encode()


def uuid_from(rng):
    import uuid
    return uuid.UUID(int=rng.getrandbits(128), version=4)


def wait_clients(server, count):
    deadline = time.time() + 30
    while server.info_field("clients", "connected_clients") < count:
        if time.time() > deadline:
            raise RuntimeError(f"{server.kind} never reached {count} clients")
        time.sleep(0.05)


# ---- reporting -------------------------------------------------------------------------------

def geomean(values):
    values = [v for v in values if v > 0 and not math.isnan(v)]
    return math.exp(sum(map(math.log, values)) / len(values)) if values else float("nan")


@dataclass
class Cell:
    """Both servers' samples for one (workload, test, clients), paired by round."""
    workload: str
    test: str
    clients: int
    kv: list
    redis: list

    def ratios(self, attr):
        by_round = {s.round: s for s in self.redis}
        return [getattr(s, attr) / getattr(by_round[s.round], attr) for s in self.kv
                if s.round in by_round and getattr(by_round[s.round], attr)]

    def median(self, side, attr):
        values = [getattr(s, attr) for s in side if not math.isnan(getattr(s, attr))]
        return statistics.median(values) if values else float("nan")


def cells(samples, workload=None):
    grouped = {}
    for s in samples:
        if workload and s.workload != workload:
            continue
        cell = grouped.setdefault((s.workload, s.test, s.clients),
                                  Cell(s.workload, s.test, s.clients, [], []))
        (cell.kv if s.server == "kvserver" else cell.redis).append(s)
    return list(grouped.values())


def ratio_text(ratios):
    if not ratios:
        return "-"
    return f"{statistics.median(ratios):.2f} ({min(ratios):.2f}..{max(ratios):.2f})"


def workload_table(cell_list):
    lines = [
        "| test | clients | kvserver rps | redis rps | rps ratio (min..max) | kvserver ns/req |"
        " redis ns/req | CPU ratio (min..max) | p50 ms kv / redis | p99 ms kv / redis |",
        "|---|---:|---:|---:|---|---:|---:|---|---|---|",
    ]
    for c in cell_list:
        lines.append(
            f"| {c.test} | {c.clients} | {c.median(c.kv, 'throughput'):.0f} | "
            f"{c.median(c.redis, 'throughput'):.0f} | {ratio_text(c.ratios('throughput'))} | "
            f"{c.median(c.kv, 'cpu_ns_per_request'):.0f} | "
            f"{c.median(c.redis, 'cpu_ns_per_request'):.0f} | "
            f"{ratio_text(c.ratios('cpu_ns_per_request'))} | "
            f"{c.median(c.kv, 'p50_ms'):.3f} / {c.median(c.redis, 'p50_ms'):.3f} | "
            f"{c.median(c.kv, 'p99_ms'):.3f} / {c.median(c.redis, 'p99_ms'):.3f} |")
    return "\n".join(lines)


def summary_rows(samples):
    """Per target group: geometric means of the median ratios, and the verdict."""
    rows = []
    for group, (min_rps, max_cpu) in TARGETS.items():
        group_cells = cells(samples, group)
        if not group_cells:
            continue
        rps = geomean([statistics.median(c.ratios("throughput")) for c in group_cells
                       if c.ratios("throughput")])
        cpu = geomean([statistics.median(c.ratios("cpu_ns_per_request")) for c in group_cells
                       if c.ratios("cpu_ns_per_request")])
        verdict = "met" if rps >= min_rps and cpu <= max_cpu else "missed"
        rows.append(f"| {group} | {len(group_cells)} | {rps:.3f} | ≥ {min_rps} | {cpu:.3f} | "
                    f"≤ {max_cpu} | {verdict} |")
    return rows


def other_target_rows(samples):
    """Memory per key after the import and GET p99: median over rounds of the per-round ratio."""
    rows = []
    for c in cells(samples, "import tcp"):
        redis_by_round = {s.round: s for s in c.redis}
        for key, label in (("rss_bytes_per_key", "memory per key, RSS"),
                           ("used_memory_bytes_per_key", "memory per key, used_memory")):
            ratios = [s.extra[key] / redis_by_round[s.round].extra[key] for s in c.kv
                      if s.round in redis_by_round and redis_by_round[s.round].extra.get(key)]
            if ratios:
                rows.append((label, statistics.median(ratios), 0.7))
    for workload, limit in MEMORY_TARGETS.items():
        for c in cells(samples, workload):
            redis_by_round = {s.round: s for s in c.redis}
            for key, label in (("rss_bytes_per_element", "RSS"),
                               ("used_memory_bytes_per_element", "used_memory")):
                ratios = [s.extra[key] / redis_by_round[s.round].extra[key] for s in c.kv
                          if s.round in redis_by_round and redis_by_round[s.round].extra.get(key)]
                if ratios:
                    name = (f"{workload[len('hashes memory '):]} hash fields: memory per field"
                            if workload.startswith("hashes memory ")
                            else f"{workload}: memory per element")
                    rows.append((f"{name}, {label}", statistics.median(ratios), limit))
    # Issue 16: beside a subscriber that never reads, the fast ones keep at least the share of
    # their rate that Redis's keep (their rate with it over without it, kvserver's / Redis's).
    slow = {c.clients: c for c in cells(samples, "pubsub 100 fast + 1 slow")}
    fast = {c.clients: c for c in cells(samples, "pubsub 100 fast")}
    for n, c in slow.items():
        if n in fast:
            kept = {}
            for label, s_side, f_side in (("kv", c.kv, fast[n].kv), ("redis", c.redis,
                                                                      fast[n].redis)):
                kept[label] = c.median(s_side, "throughput") / fast[n].median(f_side, "throughput")
            rows.append(("pub/sub: redis's share of fast rate kept beside a slow subscriber, over "
                         "kvserver's", kept["redis"] / kept["kv"], 1.0))
    for c in cells(samples):
        if c.workload.startswith("latency") and c.ratios("p99_ms"):
            rows.append((f"GET p99, {c.workload[len('latency '):]}",
                         statistics.median(c.ratios("p99_ms")), 1.1))
    return [f"| {label} | {ratio:.3f} | ≤ {limit} | {'met' if ratio <= limit else 'missed'} |"
            for label, ratio, limit in rows]


def render_report(samples, opts, mode, seconds, charts):
    out = io.StringIO()
    w = out.write
    w("# kvserver vs redis-server\n\n")
    redis_version = subprocess.run(["redis-server", "--version"], capture_output=True,
                                   text=True).stdout.strip()
    w(f"- Date: {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; mode `{opts.mode}`, "
      f"{mode.rounds} rounds, alternating kvserver/redis on fresh servers; took {seconds:.0f} s.\n")
    w(f"- Machine: {os.cpu_count()} CPUs, load average at the end "
      f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}; {redis_version}.\n")
    w("- Ratios are kvserver / redis, per round, as median (min..max). CPU is the server "
      "process's CPU time (all threads, /proc schedstat) during the client run, per request.\n")
    w("- Placement: " + ("pinned, each server on CPU 0 and the measuring clients on CPU 1.\n\n"
                         if PIN["server"] else "unpinned, servers and clients share the CPUs.\n\n"))
    w("## Targets (issue 3)\n\n")
    w("| workload | cells | throughput ratio (geomean) | target | CPU/request ratio (geomean) |"
      " target | verdict |\n|---|---:|---:|---|---:|---|---|\n")
    w("\n".join(summary_rows(samples)) + "\n\n")
    others = other_target_rows(samples)
    if others:
        w("| target | ratio (median over rounds) | target | verdict |\n|---|---:|---|---|\n")
        w("\n".join(others) + "\n\n")
    workloads = []
    for s in samples:
        if s.workload not in workloads:
            workloads.append(s.workload)
    for workload in workloads:
        w(f"## {workload}\n\n")
        if workload == "matrix":
            w("`redis-benchmark -r 64 -d 1024 -t <test> -n "
              f"{mode.requests} -c <clients> --csv`, tests in redis-benchmark's order on one "
              "server per round.\n\n")
        w(workload_table(cells(samples, workload)) + "\n\n")
        if workload in MEMORY_TARGETS:
            for c in cells(samples, workload):
                parts = []
                for label, side in (("kvserver", c.kv), ("redis", c.redis)):
                    rss = statistics.median(s.extra["rss_bytes_per_element"] for s in side)
                    used = statistics.median(s.extra["used_memory_bytes_per_element"] for s in side)
                    parts.append(f"{label} RSS {rss:.1f} B, used_memory {used:.1f} B")
                w("Memory growth per field (median over rounds): " + "; ".join(parts) + ".\n\n")
        if workload.startswith("lazyfree"):
            for c in cells(samples, workload):
                parts = []
                for label, side in (("kvserver", c.kv), ("redis", c.redis)):
                    parts.append(f"{label} GET max {max(s.extra['max_ms'] for s in side):.3f} ms "
                                 f"(worst round), UNLINK "
                                 f"{statistics.median(s.extra['unlink_ms'] for s in side):.3f} ms, "
                                 "set freed after "
                                 f"{statistics.median(s.extra['freed_after_ms'] for s in side):.0f}"
                                 " ms")
                w("GET latency while the set is freed (one GET at a time, from 200 ms before the "
                  "UNLINK to 200 ms after the set is freed): " + "; ".join(parts) + ".\n\n")
        if workload == "import tcp":
            mem = [c for c in cells(samples, workload)]
            for c in mem:
                w("Memory after the import, growth per key (median over rounds): ")
                parts = []
                for label, side in (("kvserver", c.kv), ("redis", c.redis)):
                    rss = statistics.median(s.extra["rss_bytes_per_key"] for s in side)
                    used = statistics.median(s.extra["used_memory_bytes_per_key"] for s in side)
                    parts.append(f"{label} RSS {rss:.1f} B, used_memory {used:.1f} B")
                w("; ".join(parts) + ".\n\n")
    for chart in charts:
        w(f"![{chart}]({chart})\n")
    return out.getvalue()


def write_csv(samples, path):
    with open(path, "w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(["workload", "test", "clients", "server", "round", "requests",
                         "throughput", "cpu_ns_per_request", "p50_ms", "p99_ms", "extra"])
        for s in samples:
            writer.writerow([s.workload, s.test, s.clients, s.server, s.round, s.requests,
                             f"{s.throughput:.1f}", f"{s.cpu_ns_per_request:.1f}", s.p50_ms,
                             s.p99_ms, s.extra or ""])


def plot_matrix(samples, out):
    """Throughput and CPU per request against clients, both servers on one chart per test."""
    gnuplot = shutil.which("gnuplot")
    if not gnuplot:
        raise RuntimeError("gnuplot is missing: scripts/setup.sh installs it")
    matrix_cells = cells(samples, "matrix")
    charts = []
    for metric, ylabel, suffix in (("throughput", "requests per second", "rps"),
                                   ("cpu_ns_per_request", "server CPU ns per request", "cpu")):
        for test in MATRIX_TESTS:
            rows = sorted((c for c in matrix_cells if c.test == test), key=lambda c: c.clients)
            if not rows:
                continue
            data = os.path.join(out, f"matrix-{test}-{suffix}.dat")
            with open(data, "w") as f:
                for c in rows:
                    f.write(f"{c.clients} {c.median(c.kv, metric)} {c.median(c.redis, metric)}\n")
            png = f"matrix-{test}-{suffix}.png"
            script = (
                f"set terminal pngcairo size 800,480; set output '{os.path.join(out, png)}';"
                f"set title '{test.upper()}: {ylabel} (redis-benchmark -r 64 -d 1024)';"
                "set logscale x 2; set xlabel 'clients'; set key top left; set grid;"
                f"set ylabel '{ylabel}'; set yrange [0:*];"
                f"plot '{data}' using 1:2 with linespoints lw 2 title 'kvserver',"
                f" '{data}' using 1:3 with linespoints lw 2 title 'redis-server'")
            subprocess.run([gnuplot, "-e", script], check=True)
            os.unlink(data)
            charts.append(png)
    return charts


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--mode", choices=MODES, default="quick")
    parser.add_argument("--rounds", type=int, default=0)
    parser.add_argument("--out", default=os.path.join(ROOT, "build", "bench-report"))
    parser.add_argument("--kvserver", default=os.path.join(ROOT, "build", "server", "kvserver"))
    parser.add_argument("--only",
                        default="matrix,pipeline,import,latency,threads,hashes,sets,lists,zsets,"
                        "lazyfree,streams,pubsub,multi,scripting")
    parser.add_argument("--pin", action="store_true",
                        help="servers on CPU 0, redis-benchmark on CPU 1 (needs 2 CPUs)")
    opts = parser.parse_args()
    if opts.pin:
        PIN.update(server=["taskset", "-c", "0"], client=["taskset", "-c", "1"])
    opts.only = [w for w in opts.only.split(",") if w]
    unknown = set(opts.only) - {"matrix", "pipeline", "import", "latency", "threads", "hashes",
                                "sets", "lists", "zsets", "lazyfree", "streams", "pubsub",
                                "multi", "scripting"}
    if unknown:
        parser.error(f"unknown workloads: {', '.join(sorted(unknown))}")
    if MODES[opts.mode].long_seconds == 0 and "threads" in opts.only:
        opts.only.remove("threads")
    Harness(opts).run()


if __name__ == "__main__":
    sys.exit(main())
