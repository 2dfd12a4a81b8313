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
            [binary, "--port", "0", "--bind", "127.0.0.1", "--port-file", port_file, "--save", ""],
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

    # ---- pub/sub ----

    def _message(self, pubsub, timeout=5.0):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            m = pubsub.get_message(timeout=0.1)
            if m is not None:
                return m
        self.fail("no pub/sub message")

    def test_pubsub_channels_and_patterns(self):
        p = self.r.pubsub()
        p.subscribe("news", "sport")
        self.assertEqual(self._message(p), {"type": "subscribe", "pattern": None,
                                            "channel": "news", "data": 1})
        self.assertEqual(self._message(p)["data"], 2)
        p.psubscribe("n*")
        self.assertEqual(self._message(p), {"type": "psubscribe", "pattern": None,
                                            "channel": "n*", "data": 3})
        self.assertEqual(self.r.publish("news", "hello"), 2)
        self.assertEqual(self._message(p), {"type": "message", "pattern": None,
                                            "channel": "news", "data": "hello"})
        self.assertEqual(self._message(p), {"type": "pmessage", "pattern": "n*",
                                            "channel": "news", "data": "hello"})
        self.assertEqual(self.r.pubsub_numsub("news", "none"), [("news", 1), ("none", 0)])
        self.assertEqual(self.r.pubsub_numpat(), 1)
        self.assertEqual(sorted(self.r.pubsub_channels()), ["news", "sport"])
        # PING in subscribed mode, through the library.
        p.ping()
        self.assertEqual(self._message(p)["type"], "pong")
        p.unsubscribe()
        p.punsubscribe()
        kinds = sorted(self._message(p)["type"] for _ in range(3))
        self.assertEqual(kinds, ["punsubscribe", "unsubscribe", "unsubscribe"])
        self.assertEqual(self.r.publish("news", "gone"), 0)
        p.close()

    def test_pubsub_handlers_and_thread(self):
        got = []
        p = self.r.pubsub(ignore_subscribe_messages=True)
        p.subscribe(**{"jobs": lambda m: got.append(m["data"])})
        worker = p.run_in_thread(sleep_time=0.01)
        try:
            deadline = time.monotonic() + 5
            while self.r.pubsub_numsub("jobs") != [("jobs", 1)] and time.monotonic() < deadline:
                time.sleep(0.01)
            for i in range(100):
                self.r.publish("jobs", str(i))
            while len(got) < 100 and time.monotonic() < deadline:
                time.sleep(0.01)
        finally:
            worker.stop()
            worker.join(timeout=5)
        self.assertEqual(got, [str(i) for i in range(100)])

    def test_keyspace_notifications(self):
        self.r.config_set("notify-keyspace-events", "KEA")
        try:
            p = self.r.pubsub(ignore_subscribe_messages=True)
            p.psubscribe("__keyspace@0__:*")
            self.r.set("watched", "1")
            self.r.expire("watched", 100)
            self.r.delete("watched")
            events = [self._message(p)["data"] for _ in range(3)]
            self.assertEqual(events, ["set", "expire", "del"])
            p.close()
        finally:
            self.r.config_set("notify-keyspace-events", "")
        self.assertEqual(self.r.config_get("notify-keyspace-events"),
                         {"notify-keyspace-events": ""})

    # ---- transactions ----

    def test_transaction_pipeline(self):
        with self.r.pipeline(transaction=True) as pipe:
            pipe.set("t1", "a").incr("t2").get("t1")
            self.assertEqual(pipe.execute(), [True, 1, "a"])
        # A runtime error is inside the results; raise_on_error=False returns it.
        with self.r.pipeline(transaction=True) as pipe:
            pipe.incr("t1").set("t3", "x")
            result = pipe.execute(raise_on_error=False)
            self.assertIsInstance(result[0], redis.exceptions.ResponseError)
            self.assertEqual(result[1], True)
        # A queueing error aborts the whole transaction.
        with self.r.pipeline(transaction=True) as pipe:
            pipe.set("t4", "x").execute_command("NOSUCHCOMMAND")
            with self.assertRaises(redis.exceptions.ResponseError):
                pipe.execute()
        self.assertIsNone(self.r.get("t4"))

    def test_watch_optimistic_locking(self):
        self.r.set("balance", "10")
        other = redis.Redis(host="127.0.0.1", port=self.server.port, decode_responses=True)
        with self.r.pipeline() as pipe:
            pipe.watch("balance")
            current = int(pipe.get("balance"))
            other.set("balance", "99")  # someone else writes first
            pipe.multi()
            pipe.set("balance", current - 1)
            with self.assertRaises(redis.exceptions.WatchError):
                pipe.execute()
        self.assertEqual(self.r.get("balance"), "99")

        # The usual retry loop, racing another client that increments the same key.
        def decrement(pipe):
            value = int(pipe.get("balance"))
            pipe.multi()
            pipe.set("balance", value - 1)

        for _ in range(20):
            other.incr("balance")
            self.r.transaction(decrement, "balance")
        self.assertEqual(self.r.get("balance"), "99")
        other.close()
    def test_register_script(self):
        """redis-py's Script: EVALSHA first, EVAL (loading it) on NOSCRIPT, EVALSHA after."""
        incr_by = self.r.register_script(
            "return redis.call('incrby', KEYS[1], ARGV[1])")
        self.r.script_flush()
        self.assertEqual(incr_by(keys=["n"], args=[5]), 5)
        self.assertEqual(self.r.script_exists(incr_by.sha), [True])
        self.assertEqual(incr_by(keys=["n"], args=[2]), 7)
        self.assertEqual(self.r.evalsha(incr_by.sha, 1, "n", 1), 8)
        with self.assertRaisesRegex(redis.exceptions.NoScriptError, "No matching script"):
            self.r.evalsha("0" * 40, 0)

    def test_script_errors_and_pipeline(self):
        with self.assertRaisesRegex(redis.exceptions.ResponseError, "boom"):
            self.r.eval("error('boom')", 0)
        self.r.set("s", "x")
        with self.assertRaisesRegex(redis.exceptions.ResponseError,
                                    "value is not an integer"):
            self.r.eval("return redis.call('incr', KEYS[1])", 1, "s")
        script = self.r.register_script("return {KEYS[1], ARGV[1], 7}")
        pipe = self.r.pipeline(transaction=False)  # kvserver has no MULTI yet
        script(keys=["k"], args=["a"], client=pipe)
        script(keys=["k2"], args=["b"], client=pipe)
        self.assertEqual(pipe.execute(), [["k", "a", 7], ["k2", "b", 7]])

    def test_functions(self):
        self.r.function_flush()
        code = ("#!lua name=pylib\n"
                "redis.register_function('echo_keys', function(keys, args) return keys end)")
        self.assertEqual(self.r.function_load(code), "pylib")
        self.assertEqual(self.r.fcall("echo_keys", 2, "a", "b"), ["a", "b"])
        # redis-py 4.3 hands FUNCTION LIST's RESP2 reply over as it comes: flat lists.
        library = self.r.function_list()[0]
        self.assertEqual(library[library.index("library_name") + 1], "pylib")
        self.r.function_delete("pylib")
        with self.assertRaisesRegex(redis.exceptions.ResponseError, "Function not found"):
            self.r.fcall("echo_keys", 0)


if __name__ == "__main__":
    if len(sys.argv) > 1:
        KVSERVER = sys.argv.pop(1)
    else:
        KVSERVER = os.environ.get("KVSERVER")
    if not KVSERVER or not os.access(KVSERVER, os.X_OK):
        sys.exit("usage: test_redis_py.py /path/to/kvserver (or set KVSERVER)")
    print(f"redis-py {redis.__version__}", file=sys.stderr)
    unittest.main(verbosity=2)
