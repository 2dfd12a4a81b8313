#!/usr/bin/env python3
"""Captures the seed corpus of rdb_fuzz from a real redis-server.

Starts redis-server on a free loopback port in a temporary directory, makes one key of every
type in each encoding Redis writes (and a few compressed and integer strings), and writes to
tests/fuzz/corpus/rdb_fuzz/:
- dump-<name>: a 0 byte, then the key's DUMP payload without its 10-byte footer (rdb_fuzz adds
  the footer back, so that the fuzzer works on the object itself);
- file-<name>: a 1 byte, then a whole dump.rdb that redis-server saved.
Replaces what it wrote before, keeping the regression-* inputs fuzzers found.

Usage: tests/fuzz/capture-rdb-corpus.py [path/to/redis-server]
"""
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "corpus", "rdb_fuzz")

# (name, commands that make key "k" in the encoding the name says)
KEYS = [
    ("string-int", [["SET", "k", "12345"]]),
    ("string-raw", [["SET", "k", "hello world"]]),
    ("string-lzf", [["SET", "k", "abc" * 100]]),
    ("list-listpack", [["RPUSH", "k", "a", "1", "-7", "bb"]]),
    ("list-quicklist", [["RPUSH", "k"] + [f"e{i}" * 3 for i in range(300)]]),
    ("hash-listpack", [["HSET", "k", "f1", "v1", "f2", "22"]]),
    ("hash-hashtable", [["HSET", "k"] + [x for i in range(200) for x in (f"f{i}", f"v{i}")]]),
    ("set-intset", [["SADD", "k", "1", "2", "300000", "-4"]]),
    ("set-listpack", [["SADD", "k", "a", "b", "c"]]),
    ("set-hashtable", [["SADD", "k"] + [f"m{i}" for i in range(200)]]),
    ("zset-listpack", [["ZADD", "k", "1", "a", "2.5", "b", "-inf", "c"]]),
    ("zset-skiplist", [["ZADD", "k"] + [x for i in range(200) for x in (str(i / 3), f"m{i}")]]),
    ("stream", [["XADD", "k", "1-1", "a", "1", "b", "2"], ["XADD", "k", "2-1", "a", "3"],
                ["XGROUP", "CREATE", "k", "g", "0"],
                ["XREADGROUP", "GROUP", "g", "c", "COUNT", "1", "STREAMS", "k", ">"]]),
]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def command(sock, args):
    out = b"*%d\r\n" % len(args)
    for a in args:
        a = a.encode() if isinstance(a, str) else a
        out += b"$%d\r\n%s\r\n" % (len(a), a)
    sock.sendall(out)
    return read_reply(sock.makefile("rb", buffering=0))


def read_reply(f):
    line = f.readline()
    if line[:1] == b"$":
        n = int(line[1:])
        return None if n < 0 else f.read(n + 2)[:-2]
    if line[:1] == b"*":
        return [read_reply(f) for _ in range(int(line[1:]))]
    if line[:1] == b"-":
        raise RuntimeError(line.decode())
    return line.rstrip(b"\r\n")


def main():
    redis = sys.argv[1] if len(sys.argv) > 1 else "redis-server"
    work = tempfile.mkdtemp()
    port = free_port()
    server = subprocess.Popen([redis, "--port", str(port), "--bind", "127.0.0.1", "--dir", work,
                               "--save", "", "--appendonly", "no"], stdout=subprocess.DEVNULL)
    try:
        for _ in range(100):
            try:
                sock = socket.create_connection(("127.0.0.1", port))
                break
            except OSError:
                time.sleep(0.05)
        if os.path.isdir(OUT):
            for name in os.listdir(OUT):
                if not name.startswith("regression-"):
                    os.remove(os.path.join(OUT, name))
        os.makedirs(OUT, exist_ok=True)
        for name, cmds in KEYS:
            command(sock, ["FLUSHALL"])
            for c in cmds:
                command(sock, c)
            payload = command(sock, ["DUMP", "k"])
            with open(os.path.join(OUT, f"dump-{name}"), "wb") as f:
                f.write(b"\x00" + payload[:-10])
        # Every key in one file, some with a TTL, in two databases.
        command(sock, ["FLUSHALL"])
        for name, cmds in KEYS:
            for c in cmds:
                command(sock, [name if a == "k" else a for a in c])
        command(sock, ["EXPIRE", "string-raw", "1000"])
        command(sock, ["SELECT", "3"])
        command(sock, ["SET", "other", "db"])
        command(sock, ["SAVE"])
        with open(os.path.join(work, "dump.rdb"), "rb") as f:
            rdb = f.read()
        with open(os.path.join(OUT, "file-every-type"), "wb") as f:
            f.write(b"\x01" + rdb)
        print(f"wrote {len(KEYS) + 1} seeds to {OUT}")
    finally:
        server.terminate()
        server.wait()
        shutil.rmtree(work)


if __name__ == "__main__":
    main()
