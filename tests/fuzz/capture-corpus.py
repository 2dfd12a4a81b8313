#!/usr/bin/env python3
"""Captures the seed corpus of the fuzz targets from real client traffic.

Starts a kvserver on a free loopback port and a recording proxy in front of it, runs
redis-benchmark (every test, with and without pipelining) and redis-cli (single commands,
options that add a SELECT, HELLO or AUTH, and --pipe) through the proxy, and writes what each
client connection sent, cut at command boundaries into pieces of at most 4 KB, to
tests/fuzz/corpus/<target>/. Also writes the protocol error cases of Redis's
tests/unit/protocol.tcl, and the dictionary request_fuzz.dict: every command and subcommand
name, argument token (from COMMAND DOCS) and directive name (from CONFIG GET *) of the server.
Replaces what it wrote before, keeping the regression-* inputs fuzzers found.

Usage: tests/fuzz/capture-corpus.py path/to/kvserver
"""
import hashlib
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.path.join(HERE, "corpus")
MAX_PIECE = 4096

# Redis's tests/unit/protocol.tcl, plus its desync cases (a NUL, then more than 64 KB).
PROTOCOL_ERRORS = {
    "empty-query": b"\r\nPING\r\n",
    "negative-multibulk-length": b"*-10\r\nPING\r\n",
    "out-of-range-multibulk-length": b"*3000000000\r\n",
    "wrong-multibulk-payload-header": b"*3\r\n$3\r\nSET\r\n$1\r\nx\r\nfooz\r\n",
    "negative-bulk-length": b"*3\r\n$3\r\nSET\r\n$1\r\nx\r\n$-10\r\n",
    "out-of-range-bulk-length": b"*3\r\n$3\r\nSET\r\n$1\r\nx\r\n$2000000000\r\n",
    "non-number-bulk-length": b"*3\r\n$3\r\nSET\r\n$1\r\nx\r\n$blabla\r\n",
    "multibulk-without-bulks": b"*1\r\nfoo\r\n",
    "wrong-number-of-args": b"*4\r\n$4\r\nping\r\n$1\r\nx\r\n$1\r\ny\r\n$1\r\nz\r\n",
    "unbalanced-quotes": b'set """test-key""" test-value\r\nping\r\n',
    "claimed-count": b"*2147483647\r\n$3\r\nSET\r\n",
    "claimed-bulk": b"*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$536870912\r\nabc",
    "cross-protocol": b"POST / HTTP/1.1\r\nHost: localhost\r\n\r\n",
}
# Only for the parser: the 64 KB limits (these seeds are large, and the command fuzzer gains
# nothing from them).
PARSER_ONLY = {
    "desync-inline-too-big": b"\x00" + b"payload" * 9400,
    "desync-count-too-big": b"*\x00" + b"payload" * 9400,
    "desync-bulk-count-too-big": b"*1\r\n$\x00" + b"payload" * 9400,
}


def resp(*args):
    return b"*%d\r\n" % len(args) + b"".join(b"$%d\r\n%s\r\n" % (len(a), a) for a in args)


# The set commands with their options, sent with --pipe.
SET_COMMANDS = b"".join([
    resp(b"SADD", b"s", b"1", b"2", b"3"), resp(b"SADD", b"t", b"2", b"x", b""),
    resp(b"SREM", b"s", b"1"), resp(b"SMEMBERS", b"s"), resp(b"SISMEMBER", b"s", b"2"),
    resp(b"SMISMEMBER", b"s", b"2", b"9"), resp(b"SCARD", b"t"), resp(b"SPOP", b"t", b"2"),
    resp(b"SRANDMEMBER", b"s", b"-5"), resp(b"SMOVE", b"s", b"t", b"3"),
    resp(b"SINTER", b"s", b"t"), resp(b"SINTERCARD", b"2", b"s", b"t", b"LIMIT", b"1"),
    resp(b"SINTERSTORE", b"d", b"s", b"t"), resp(b"SUNION", b"s", b"t"),
    resp(b"SUNIONSTORE", b"d", b"s", b"t"), resp(b"SDIFF", b"t", b"s"),
    resp(b"SDIFFSTORE", b"d", b"t", b"s"), resp(b"SSCAN", b"t", b"0", b"MATCH", b"*", b"COUNT", b"10"),
    resp(b"CONFIG", b"SET", b"set-max-intset-entries", b"4")])


class RecordingProxy:
    """Accepts on a free loopback port, forwards to `upstream`, records client->server bytes."""

    def __init__(self, upstream_port):
        self.upstream_port = upstream_port
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.streams = []  # one bytearray per client connection, in accept order
        self.lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self):
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            server = socket.create_connection(("127.0.0.1", self.upstream_port))
            stream = bytearray()
            with self.lock:
                self.streams.append((self.label, stream))
            threading.Thread(target=self._pump, args=(client, server, stream), daemon=True).start()
            threading.Thread(target=self._pump, args=(server, client, None), daemon=True).start()

    @staticmethod
    def _pump(src, dst, record):
        try:
            while True:
                data = src.recv(65536)
                if not data:
                    break
                if record is not None:
                    record += data
                dst.sendall(data)
        except OSError:
            pass
        for s in (src, dst):
            try:
                s.shutdown(socket.SHUT_WR if s is dst else socket.SHUT_RD)
            except OSError:
                pass

    label = ""


def command_end(data, start):
    """The end of the request starting at `start` (multibulk or inline), or None."""
    if data[start:start + 1] == b"*":
        nl = data.find(b"\r\n", start)
        if nl < 0:
            return None
        try:
            count = int(data[start + 1:nl])
        except ValueError:
            return None
        pos = nl + 2
        for _ in range(max(count, 0)):
            nl = data.find(b"\r\n", pos)
            if nl < 0 or data[pos:pos + 1] != b"$":
                return None
            pos = nl + 2 + int(data[pos + 1:nl]) + 2
        return pos if pos <= len(data) else None
    nl = data.find(b"\n", start)
    return None if nl < 0 else nl + 1


def pieces(stream):
    """Cuts a connection's bytes at command boundaries into pieces of at most MAX_PIECE bytes
    (a single longer command stays whole)."""
    out, start, pos = [], 0, 0
    while pos < len(stream):
        end = command_end(stream, pos)
        if end is None:
            end = len(stream)
        if end - start > MAX_PIECE and pos > start:
            out.append(bytes(stream[start:pos]))
            start = pos
        pos = end
    if start < len(stream):
        out.append(bytes(stream[start:]))
    return out


def read_reply(f):
    """One RESP2 reply from a file-like socket reader, as Python values."""
    line = f.readline()
    kind, rest = line[:1], line[1:-2]
    if kind in (b"+", b"-"):
        return rest.decode()
    if kind == b":":
        return int(rest)
    if kind == b"$":
        n = int(rest)
        return None if n < 0 else f.read(n + 2)[:-2].decode()
    if kind == b"*":
        n = int(rest)
        return None if n < 0 else [read_reply(f) for _ in range(n)]
    raise ValueError(line)


def request(port, *args):
    with socket.create_connection(("127.0.0.1", port)) as s:
        s.sendall(b"*%d\r\n" % len(args) + b"".join(b"$%d\r\n%s\r\n" % (len(a), a.encode())
                                                    for a in args))
        return read_reply(s.makefile("rb"))


def dictionary_words(port):
    """Command and subcommand names, argument tokens, directive names."""
    words = set()

    def walk_arguments(arguments):
        for argument in arguments or []:
            fields = dict(zip(argument[::2], argument[1::2]))
            if fields.get("token"):
                words.add(fields["token"])
            if isinstance(fields.get("arguments"), list):
                walk_arguments(fields["arguments"])

    def walk_docs(docs):
        for name, doc in zip(docs[::2], docs[1::2]):
            words.add(name.split("|")[-1])
            fields = dict(zip(doc[::2], doc[1::2]))
            walk_arguments(fields.get("arguments"))
            if fields.get("subcommands"):
                walk_docs(fields["subcommands"])

    walk_docs(request(port, "COMMAND", "DOCS"))
    words.update(request(port, "CONFIG", "GET", "*")[::2])
    return sorted(words)


def capture(kvserver):
    tmp = tempfile.mkdtemp()
    port_file = os.path.join(tmp, "port")
    server = subprocess.Popen([kvserver, "--port", "0", "--port-file", port_file,
                               "--save", "", "--loglevel", "warning"], stdout=subprocess.DEVNULL)
    try:
        for _ in range(100):
            if os.path.exists(port_file):
                break
            time.sleep(0.05)
        server_port = int(open(port_file).read())
        words = dictionary_words(server_port)
        proxy = RecordingProxy(server_port)
        p = str(proxy.port)

        def traffic(label, args, stdin=None, check=True):
            proxy.label = label
            subprocess.run(args, input=stdin, check=check, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL, timeout=120)
            time.sleep(0.2)  # the proxy's last bytes

        bench = ["redis-benchmark", "-p", p, "-c", "1", "-q", "-r", "1000"]
        # Every test kvserver supports, then the others (sets, hashes, sorted sets): each of those
        # ends at its first reply, an unknown-command error, after one request.
        supported = "ping_inline,ping_mbulk,set,get,incr,mset,lpush,rpush,lpop,rpop,lrange_100"
        traffic("benchmark", bench + ["-t", supported, "-n", "30"])
        traffic("benchmark-P16", bench + ["-t", supported, "-n", "64", "-P", "16"])
        for test in ["sadd", "hset", "spop", "zadd", "zpopmin"]:
            traffic("benchmark-" + test, bench + ["-t", test, "-n", "1"], check=False)
        traffic("benchmark-d100", bench + ["-t", "set,get,mset", "-n", "10", "-d", "100"])
        cli = ["redis-cli", "-p", p]
        for i, cmd in enumerate([
                ["set", "key:1", "hello world"], ["get", "key:1"], ["incr", "counter"],
                ["incrbyfloat", "counter", "1.5"], ["append", "key:1", "!"],
                ["set", "tmp", "v", "EX", "100", "NX"], ["ttl", "tmp"], ["expire", "tmp", "5", "GT"],
                ["mset", "a", "1", "b", "2"], ["mget", "a", "b", "missing"], ["del", "a", "b"],
                ["setrange", "r", "10", "xyz"], ["getrange", "r", "0", "-1"],
                ["setbit", "bits", "7", "1"], ["bitcount", "bits"],
                ["bitfield", "bits", "INCRBY", "u8", "0", "5", "GET", "i4", "#1"],
                ["bitop", "xor", "dest", "bits", "r"], ["lcs", "key:1", "r"],
                ["scan", "0", "MATCH", "key:*", "COUNT", "10"], ["keys", "*"], ["type", "key:1"],
                ["object", "encoding", "counter"], ["rename", "r", "r2"], ["copy", "r2", "r3"],
                ["client", "setname", "fuzz"], ["client", "list"], ["config", "get", "maxmemory"],
                ["info", "keyspace"], ["command", "docs", "get"], ["dbsize"], ["ping"],
                ["rpush", "list", "a", "b", "c", "1", "2"], ["lpush", "list", "z"],
                ["lrange", "list", "0", "-1"], ["lindex", "list", "-1"], ["lset", "list", "0", "y"],
                ["linsert", "list", "BEFORE", "b", "x"], ["lrem", "list", "1", "x"],
                ["ltrim", "list", "0", "10"], ["lpos", "list", "a", "RANK", "-1", "COUNT", "0",
                                                "MAXLEN", "5"],
                ["lmove", "list", "other", "LEFT", "RIGHT"], ["rpoplpush", "other", "list"],
                ["lmpop", "2", "none", "list", "RIGHT", "COUNT", "2"], ["lpop", "list", "2"],
                ["blpop", "none", "list", "0.01"], ["brpop", "none", "0.01"],
                ["blmove", "none", "list", "RIGHT", "LEFT", "0.01"],
                ["blmpop", "0.01", "1", "list", "LEFT", "COUNT", "1"], ["llen", "list"],
                ["debug", "object", "list"]]):
            traffic("cli", cli + cmd)
        traffic("cli-select", cli + ["-n", "3", "set", "k", "v"])
        traffic("cli-resp3", cli + ["-3", "hgetall", "nohash"])
        traffic("cli-auth", cli + ["--no-auth-warning", "-a", "secret", "ping"])
        sets = b"".join(b"*3\r\n$3\r\nSET\r\n$%d\r\nk%d\r\n$%d\r\nv%d\r\n"
                        % (len(str(i)) + 1, i, len(str(i)) + 1, i) for i in range(5))
        traffic("cli-pipe", cli + ["--pipe"], stdin=sets)
        traffic("cli-sets", cli + ["--pipe"], stdin=SET_COMMANDS)
        with proxy.lock:
            return list(proxy.streams), words
    finally:
        server.terminate()
        server.wait()
        shutil.rmtree(tmp)


def write(target, name, data):
    if target == "resp_parser_fuzz":
        # The parser fuzzer takes its flags from the last bytes: a 4-byte seed for the split
        # points, then 0 for the authenticated limits.
        data = data + hashlib.sha1(data).digest()[:4] + b"\x00"
    with open(os.path.join(CORPUS, target, name), "wb") as f:
        f.write(data)


def main():
    kvserver = sys.argv[1]
    streams, words = capture(kvserver)
    with open(os.path.join(HERE, "request_fuzz.dict"), "w") as f:
        f.write("# Generated by capture-corpus.py from the server's command table and directives.\n")
        for word in words:
            f.write('"%s"\n' % word.replace("\\", "\\\\").replace('"', '\\"'))
    # Everything this script wrote before goes; inputs a fuzzer found (regression-*) stay.
    for target in ("resp_parser_fuzz", "request_fuzz"):
        folder = os.path.join(CORPUS, target)
        os.makedirs(folder, exist_ok=True)
        for name in os.listdir(folder):
            if not name.startswith("regression-"):
                os.remove(os.path.join(folder, name))
    seen = set()
    for n, (label, stream) in enumerate(streams):
        for i, piece in enumerate(pieces(stream)):
            digest = hashlib.sha1(piece).hexdigest()
            if digest in seen:
                continue
            seen.add(digest)
            for target in ("resp_parser_fuzz", "request_fuzz"):
                write(target, f"{label}-{n:03d}-{i}", piece)
    for name, data in PROTOCOL_ERRORS.items():
        for target in ("resp_parser_fuzz", "request_fuzz"):
            write(target, "protocol-" + name, data)
    for name, data in PARSER_ONLY.items():
        write("resp_parser_fuzz", "protocol-" + name, data)


if __name__ == "__main__":
    main()
