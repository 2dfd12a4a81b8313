#!/usr/bin/env python3
"""redis-py (Debian's python3-redis), unchanged, against the real kvserver binary.

Usage: test_redis_py.py /path/to/kvserver   (or KVSERVER=/path/to/kvserver)
Starts kvserver on a free loopback port (--port 0 --port-file) and stops it at the end.
"""
import inspect
import os
import subprocess
import sys
import tempfile
import time
import unittest

import redis

KVSERVER = None


class KvServer:
    def __init__(self, binary):
        self.dir = tempfile.TemporaryDirectory(prefix="kv-redis-py-")
        port_file = os.path.join(self.dir.name, "port")
        self.log = open(os.path.join(self.dir.name, "log"), "w+")
        self.proc = subprocess.Popen(
            [binary, "--port", "0", "--bind", "127.0.0.1", "--port-file", port_file],
            stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 10
        while not os.path.exists(port_file):
            if self.proc.poll() is not None or time.monotonic() > deadline:
                self.log.seek(0)
                output = self.log.read()
                self.stop()
                raise RuntimeError(f"kvserver did not write its port file:\n{output}")
            time.sleep(0.01)
        with open(port_file) as f:
            self.port = int(f.read().strip())

    def stop(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.log.close()
        self.dir.cleanup()


class RedisPyTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.server = KvServer(KVSERVER)

    @classmethod
    def tearDownClass(cls):
        cls.server.stop()

    def setUp(self):
        self.r = redis.Redis(host="127.0.0.1", port=self.server.port, decode_responses=True)
        self.r.flushall()

    def tearDown(self):
        self.r.close()

    def test_default_handshake(self):
        self.assertTrue(self.r.ping())

    def test_commands_at_connect(self):
        """What redis-py sends at connect, from INFO commandstats after CONFIG RESETSTAT (which
        counts itself): nothing of its own; CLIENT SETNAME and SELECT when configured; and none of
        it refused (INFO errorstats empty)."""
        for options, expected in [({}, []), ({"client_name": "n", "db": 3},
                                             ["client|setname", "select"])]:
            self.r.config_resetstat()
            r = redis.Redis(host="127.0.0.1", port=self.server.port, **options)
            self.assertTrue(r.ping())
            called = {name.removeprefix("cmdstat_"): stats["calls"]
                      for name, stats in r.info("commandstats").items()}
            print(f"\nredis-py {redis.__version__} at connect {options}: "
                  f"{[c for c in called if c not in ('config|resetstat', 'ping')]}",
                  file=sys.stderr)
            self.assertEqual(called, {"config|resetstat": 1, "ping": 1,
                                      **{c: 1 for c in expected}})
            self.assertEqual(r.info("errorstats"), {})
            r.close()

    def test_resp3(self):
        if "protocol" not in inspect.signature(redis.Redis.__init__).parameters:
            print(f"\nnote: redis-py {redis.__version__} has no protocol=3 (RESP3 came in 5.0); "
                  "RESP3 case skipped", file=sys.stderr)
            self.skipTest("redis-py without RESP3")
        r3 = redis.Redis(host="127.0.0.1", port=self.server.port, protocol=3,
                         decode_responses=True)
        self.assertTrue(r3.set("k3", "v"))
        self.assertEqual(r3.get("k3"), "v")
        self.assertEqual(r3.config_get("maxclients"), {"maxclients": "10000"})
        r3.close()

    def test_strings_and_expiry(self):
        r = self.r
        self.assertTrue(r.set("a", "1"))
        self.assertEqual(r.get("a"), "1")
        self.assertEqual(r.incr("a"), 2)
        self.assertEqual(r.incr("a", 5), 7)
        self.assertTrue(r.mset({"b": "x", "c": "y"}))
        self.assertEqual(r.mget("a", "b", "c", "missing"), ["7", "x", "y", None])
        self.assertTrue(r.expire("b", 100))
        self.assertTrue(90 <= r.ttl("b") <= 100)
        self.assertEqual(r.ttl("c"), -1)
        self.assertEqual(r.ttl("missing"), -2)
        self.assertEqual(r.delete("a", "b", "missing"), 2)
        self.assertIsNone(r.get("a"))

    def test_binary_values(self):
        raw = redis.Redis(host="127.0.0.1", port=self.server.port)
        value = bytes(range(256)) + b"\r\n\x00"
        raw.set(b"bin\x00key", value)
        self.assertEqual(raw.get(b"bin\x00key"), value)
        raw.close()

    def test_scan_iter_sees_every_key_once(self):
        r = self.r
        keys = {f"key:{i}" for i in range(1000)}
        r.mset({k: "v" for k in keys})
        seen = list(r.scan_iter(count=50))
        self.assertEqual(len(seen), len(set(seen)))
        self.assertEqual(set(seen), keys)
        self.assertEqual(set(r.scan_iter(match="key:99*")),
                         {"key:99"} | {f"key:99{d}" for d in range(10)})

    def test_pipeline_without_transaction(self):
        pipe = self.r.pipeline(transaction=False)
        for i in range(500):
            pipe.set(f"p:{i}", i)
            pipe.incr(f"p:{i}")
        pipe.get("p:499")
        pipe.dbsize()
        results = pipe.execute()
        self.assertEqual(len(results), 1002)
        self.assertEqual(results[:2], [True, 1])
        self.assertEqual(results[-2:], ["500", 500])

    def test_client_name(self):
        self.assertTrue(self.r.client_setname("compat-py"))
        self.assertEqual(self.r.client_getname(), "compat-py")
        self.assertEqual(self.r.client_info()["name"], "compat-py")

    def test_info_and_config(self):
        info = self.r.info()
        self.assertIsInstance(info, dict)
        self.assertTrue(str(info["redis_version"]).startswith("7."))
        self.assertEqual(info["role"], "master")
        self.assertIn("kvserver_version", info)
        self.assertIn("used_memory", self.r.info("memory"))
        self.assertEqual(self.r.config_get("maxclients"), {"maxclients": "10000"})
        self.assertEqual(self.r.config_get("max*")["maxclients"], "10000")
        self.assertTrue(self.r.config_set("hz", 20))
        self.assertEqual(self.r.config_get("hz"), {"hz": "20"})

    def test_errors_are_response_errors(self):
        self.r.set("s", "abc")
        with self.assertRaisesRegex(redis.exceptions.ResponseError,
                                    "^value is not an integer or out of range$"):
            self.r.incr("s")
        with self.assertRaisesRegex(redis.exceptions.ResponseError, "unknown command"):
            self.r.execute_command("NOSUCHCOMMAND")
        # The connection stays usable after an error.
        self.assertEqual(self.r.get("s"), "abc")

    def test_bitmaps(self):
        self.assertEqual(self.r.setbit("bits", 7, 1), 0)
        self.assertEqual(self.r.setbit("bits", 100, 1), 0)
        self.assertEqual(self.r.setbit("bits", 7, 1), 1)
        self.assertEqual(self.r.bitcount("bits"), 2)
        self.assertEqual(self.r.getbit("bits", 100), 1)

    def test_select_database(self):
        r1 = redis.Redis(host="127.0.0.1", port=self.server.port, db=1, decode_responses=True)
        r1.set("only-in-1", "x")
        self.assertIsNone(self.r.get("only-in-1"))
        self.assertEqual(r1.get("only-in-1"), "x")
        r1.close()


if __name__ == "__main__":
    if len(sys.argv) > 1:
        KVSERVER = sys.argv.pop(1)
    else:
        KVSERVER = os.environ.get("KVSERVER")
    if not KVSERVER or not os.access(KVSERVER, os.X_OK):
        sys.exit("usage: test_redis_py.py /path/to/kvserver (or set KVSERVER)")
    print(f"redis-py {redis.__version__}", file=sys.stderr)
    unittest.main(verbosity=2)
