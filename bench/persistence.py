#!/usr/bin/env python3
"""Persistence, kvserver against real redis-server side by side (issue 17's performance targets).

For each round, on each server in turn (kvserver, redis, kvserver, ...), freshly started in an
empty directory of its own with the same dataset (KEYS keys of mixed types: 60% strings, 10% each
lists, hashes, sets and sorted sets of 5 elements, sent with redis-cli --pipe):
  - SAVE time (the command's round trip) and the size of the dump.rdb it wrote;
  - BGSAVE time (from the command until INFO shows the save finished, polled every 5 ms);
  - start-up load time of that dump.rdb (the server's own "DB loaded from disk: X seconds" line);
  - SET throughput of `redis-benchmark -t set -c 50` with appendonly yes and appendfsync
    everysec, then always (a fresh server each, in an empty directory);
  - a BGSAVE under write load: with the dataset loaded and `redis-benchmark -t set -c 50 -r KEYS`
    writing at full speed (random keys over the dataset's size, so the writes land on pages the
    child shares), the server's memory before the BGSAVE and its peak while the child runs
    (parent + child, their PSS from /proc/<pid>/smaps_rollup sampled every 20 ms: what the two
    really hold, shared pages counted once; and the sum of their RSS, which counts shared pages
    twice), and the SET throughput during the BGSAVE (commands processed from INFO, from the
    BGSAVE to the child's end) next to the throughput just before it.
Then a Markdown table of the medians and kvserver/redis ratios (time and size: lower is better;
throughput: higher is better), also written to --out when given.

Usage: bench/persistence.py [--kvserver build/server/kvserver] [--redis redis-server]
                            [--keys 1000000] [--requests 200000] [--rounds 1] [--out FILE]
`--keys 100000 --requests 20000` is a quick smoke run.
"""

import argparse
import os
import random
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SERVERS = ["kvserver", "redis"]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """A server on a free loopback port in `workdir`, logging to workdir/server.log."""

    def __init__(self, binary, workdir, extra=()):
        self.workdir = workdir
        self.log = os.path.join(workdir, "server.log")
        self.port = free_port()
        args = [binary, "--port", str(self.port), "--bind", "127.0.0.1", "--dir", workdir,
                "--logfile", self.log, "--save", ""] + list(extra)
        self.proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 600
        while self.call("PING") != b"+PONG\r\n":
            if self.proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"{binary} did not start; see {self.log}")
            time.sleep(0.005)

    def call(self, *args):
        """One command's raw reply (None when the server cannot be reached)."""
        request = b"*%d\r\n" % len(args)
        for a in args:
            a = a.encode() if isinstance(a, str) else a
            request += b"$%d\r\n%s\r\n" % (len(a), a)
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=600) as s:
                s.sendall(request)
                data = b""
                while True:
                    end = data.find(b"\r\n")
                    if end != -1:
                        if data[:1] != b"$" or data[:3] == b"$-1":
                            return data  # a one-line reply
                        if len(data) >= end + 2 + int(data[1:end]) + 2:
                            return data  # a whole bulk reply
                    chunk = s.recv(1 << 20)
                    if not chunk:
                        return data
                    data += chunk
        except OSError:
            return None

    def info(self, field):
        text = self.call("INFO", "persistence").decode()
        m = re.search(r"^%s:(\S+)" % re.escape(field), text, re.M)
        return m.group(1) if m else None

    def stop(self):
        self.proc.send_signal(signal.SIGTERM)
        self.proc.wait(timeout=600)


def write_dataset(path, keys, seed=17):
    """The dataset as RESP commands (one per key) for redis-cli --pipe."""
    rng = random.Random(seed)

    def cmd(*args):
        out = [b"*%d\r\n" % len(args)]
        for a in args:
            a = a.encode()
            out.append(b"$%d\r\n%s\r\n" % (len(a), a))
        return b"".join(out)

    with open(path, "wb") as f:
        for i in range(keys):
            kind = rng.random()
            key = "%08x-%04x-%04x-%012x" % (rng.getrandbits(32), i & 0xFFFF,
                                             rng.getrandbits(16), rng.getrandbits(48))
            if kind < 0.6:
                f.write(cmd("SET", "s:" + key, "value-%d-%x" % (i, rng.getrandbits(64))))
            elif kind < 0.7:
                f.write(cmd("RPUSH", "l:" + key, *("item-%d" % j for j in range(5))))
            elif kind < 0.8:
                f.write(cmd("HSET", "h:" + key,
                            *sum((["f%d" % j, "v%d" % rng.getrandbits(20)] for j in range(5)), [])))
            elif kind < 0.9:
                f.write(cmd("SADD", "t:" + key, *("m%d" % rng.getrandbits(24) for _ in range(5))))
            else:
                f.write(cmd("ZADD", "z:" + key,
                            *sum(([str(j * 1.5), "m%d" % j] for j in range(5)), [])))


def load_dataset(server, dataset):
    with open(dataset, "rb") as f:
        subprocess.run(["redis-cli", "-p", str(server.port), "--pipe"], stdin=f, check=True,
                       stdout=subprocess.DEVNULL)


def measure_snapshots(binary, dataset, keys):
    """SAVE seconds, BGSAVE seconds, dump.rdb bytes and start-up load seconds."""
    workdir = tempfile.mkdtemp(prefix="kv-bench-persist-")
    try:
        server = Server(binary, workdir)
        load_dataset(server, dataset)
        dbsize = int(server.call("DBSIZE")[1:-2])
        if dbsize != keys:
            raise RuntimeError(f"{binary}: {dbsize} keys loaded, expected {keys}")
        t0 = time.perf_counter()
        if server.call("SAVE") != b"+OK\r\n":
            raise RuntimeError(f"{binary}: SAVE failed")
        save_s = time.perf_counter() - t0
        size = os.path.getsize(os.path.join(workdir, "dump.rdb"))
        t0 = time.perf_counter()
        if server.call("BGSAVE") != b"+Background saving started\r\n":
            raise RuntimeError(f"{binary}: BGSAVE did not start")
        while server.info("rdb_bgsave_in_progress") != "0":
            time.sleep(0.005)
        bgsave_s = time.perf_counter() - t0
        if server.info("rdb_last_bgsave_status") != "ok":
            raise RuntimeError(f"{binary}: BGSAVE failed")
        server.stop()
        os.rename(os.path.join(workdir, "server.log"), os.path.join(workdir, "first.log"))
        # The same directory again: the server loads the dump.rdb at start-up.
        server = Server(binary, workdir)
        with open(server.log) as f:
            m = re.search(r"DB loaded from disk: ([0-9.]+) seconds", f.read())
        if not m:
            raise RuntimeError(f"{binary}: no load line in {server.log}")
        load_s = float(m.group(1))
        if int(server.call("DBSIZE")[1:-2]) != keys:
            raise RuntimeError(f"{binary}: the reloaded dataset differs")
        server.stop()
        return {"SAVE s": save_s, "BGSAVE s": bgsave_s, "dump.rdb bytes": size,
                "load at start-up s": load_s}
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


def measure_aof(binary, fsync, requests):
    """SET requests per second of redis-benchmark -t set -c 50 with appendonly yes."""
    workdir = tempfile.mkdtemp(prefix="kv-bench-aof-")
    try:
        server = Server(binary, workdir, ["--appendonly", "yes", "--appendfsync", fsync])
        out = subprocess.run(["redis-benchmark", "-p", str(server.port), "-t", "set", "-c", "50",
                              "-n", str(requests), "-r", "100000", "--csv"],
                             check=True, capture_output=True, text=True).stdout
        server.stop()
        for line in out.splitlines():
            cells = [c.strip('"') for c in line.split(",")]
            if cells and cells[0] == "SET":
                return float(cells[1])
        raise RuntimeError(f"no SET line in redis-benchmark's output: {out}")
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


def proc_memory_kb(pid):
    """(PSS, RSS) of process `pid` in kB, (0, 0) once it is gone."""
    pss = rss = 0
    try:
        with open(f"/proc/{pid}/smaps_rollup") as f:
            for line in f:
                if line.startswith("Pss:"):
                    pss = int(line.split()[1])
                elif line.startswith("Rss:"):
                    rss = int(line.split()[1])
    except OSError:
        pass
    return pss, rss


def children_of(pid):
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            return [int(c) for c in f.read().split()]
    except OSError:
        return []


def commands_processed(server):
    text = server.call("INFO", "stats").decode()
    return int(re.search(r"^total_commands_processed:(\d+)", text, re.M).group(1))


def measure_bgsave_under_load(binary, dataset, keys):
    """Memory before and during a BGSAVE while redis-benchmark writes, and SET/s during it."""
    workdir = tempfile.mkdtemp(prefix="kv-bench-bgsave-")
    bench = None
    try:
        server = Server(binary, workdir)
        load_dataset(server, dataset)
        bench = subprocess.Popen(["redis-benchmark", "-p", str(server.port), "-t", "set", "-c",
                                  "50", "-n", "1000000000", "-r", str(keys), "-q"],
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(1.0)  # the clients connected and writing
        c0, t0 = commands_processed(server), time.perf_counter()
        time.sleep(1.0)
        c1, t1 = commands_processed(server), time.perf_counter()
        before_sets = (c1 - c0 - 1) / (t1 - t0)
        before_pss, before_rss = proc_memory_kb(server.proc.pid)
        if server.call("BGSAVE") != b"+Background saving started\r\n":
            raise RuntimeError(f"{binary}: BGSAVE did not start")
        c0, t0 = commands_processed(server), time.perf_counter()
        peak_pss = peak_rss = 0
        polls = 1  # our own INFO commands, counted among the processed ones
        while True:
            pids = [server.proc.pid] + children_of(server.proc.pid)
            readings = [proc_memory_kb(p) for p in pids]
            peak_pss = max(peak_pss, sum(r[0] for r in readings))
            peak_rss = max(peak_rss, sum(r[1] for r in readings))
            polls += 1
            if server.info("rdb_bgsave_in_progress") == "0":
                break
            time.sleep(0.02)
        c1, t1 = commands_processed(server), time.perf_counter()
        if server.info("rdb_last_bgsave_status") != "ok":
            raise RuntimeError(f"{binary}: BGSAVE failed")
        bench.terminate()
        bench.wait()
        bench = None
        server.stop()
        return {"BGSAVE under load: SET/s before": before_sets,
                "BGSAVE under load: SET/s during": (c1 - c0 - polls) / (t1 - t0),
                "BGSAVE under load: PSS before MB": before_pss / 1024,
                "BGSAVE under load: peak PSS MB (parent+child)": peak_pss / 1024,
                "BGSAVE under load: RSS before MB": before_rss / 1024,
                "BGSAVE under load: peak RSS MB (parent+child)": peak_rss / 1024,
                "BGSAVE under load: BGSAVE s": t1 - t0}
    finally:
        if bench is not None:
            bench.kill()
            bench.wait()
        shutil.rmtree(workdir, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kvserver", default=os.path.join(ROOT, "build", "server", "kvserver"))
    parser.add_argument("--redis", default=shutil.which("redis-server") or "redis-server")
    parser.add_argument("--keys", type=int, default=1000000)
    parser.add_argument("--requests", type=int, default=200000)
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--out", help="also write the Markdown report here")
    opts = parser.parse_args()
    binaries = {"kvserver": opts.kvserver, "redis": opts.redis}

    dataset = tempfile.NamedTemporaryFile(prefix="kv-bench-dataset-", delete=False).name
    started = time.monotonic()
    try:
        write_dataset(dataset, opts.keys)
        results = {name: {} for name in SERVERS}

        def record(name, metric, value):
            results[name].setdefault(metric, []).append(value)
            print(f"  {name:8} {metric:28} {value:,.3f}", file=sys.stderr, flush=True)

        for r in range(opts.rounds):
            print(f"round {r + 1}/{opts.rounds}", file=sys.stderr, flush=True)
            # kvserver first in even rounds, redis first in odd ones: the VM's speed drifts over
            # minutes, and a fixed order would give one server the same side of every drift.
            order = SERVERS if r % 2 == 0 else SERVERS[::-1]
            for name in order:
                for metric, value in measure_snapshots(binaries[name], dataset,
                                                       opts.keys).items():
                    record(name, metric, value)
            for name in order:
                for metric, value in measure_bgsave_under_load(binaries[name], dataset,
                                                               opts.keys).items():
                    record(name, metric, value)
            for fsync in ("everysec", "always"):
                for name in order:
                    record(name, f"SET/s appendfsync {fsync}",
                           measure_aof(binaries[name], fsync, opts.requests))
    finally:
        os.unlink(dataset)

    lines = [f"# Persistence: kvserver vs redis-server ({opts.keys:,} keys, "
             f"{opts.rounds} round(s), {time.monotonic() - started:.0f} s)", "",
             "| measure | kvserver | redis | ratio | better |", "|---|---|---|---|---|"]
    for metric in results["kvserver"]:
        kv = statistics.median(results["kvserver"][metric])
        redis = statistics.median(results["redis"][metric])
        better = "higher" if "SET/s" in metric else "lower"
        lines.append(f"| {metric} | {kv:,.3f} | {redis:,.3f} | {kv / redis:.2f} | {better} |")
    report = "\n".join(lines) + "\n"
    print(report)
    if opts.out:
        with open(opts.out, "w") as f:
            f.write(report)


if __name__ == "__main__":
    main()
