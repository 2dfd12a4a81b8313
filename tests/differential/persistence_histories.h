#pragma once

// What the persistence differential tests share: values of every type and encoding built by the
// same commands on kvserver and redis-server, and a way to read a value that does not depend on a
// hash table's order.

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "tests/support/reply_pair.h"
#include "tests/support/resp_client.h"
#include "tests/support/resp_reply.h"

namespace kv::test {

inline std::string BulkText(const std::string& reply) {
  auto r = ParseReply(reply);
  return r && r->type == RespReply::Type::kBulkString ? r->str : "";
}

// A stream's delivery and seen times blanked in a parsed XINFO STREAM FULL reply (RESP2): the
// times two servers' clocks gave the same commands differ.
inline void BlankStreamTimes(RespReply& r) {
  for (size_t i = 0; i + 1 < r.elements.size(); ++i) {
    RespReply& k = r.elements[i];
    RespReply& v = r.elements[i + 1];
    if (k.type != RespReply::Type::kBulkString) continue;
    if (k.str == "seen-time") v.integer = 0;
    if (k.str == "pending" && v.type == RespReply::Type::kArray) {
      // A group's [id, consumer, delivery time, count], a consumer's [id, delivery time, count].
      for (RespReply& p : v.elements) {
        if (p.elements.size() == 4) p.elements[2].integer = 0;
        if (p.elements.size() == 3) p.elements[1].integer = 0;
      }
    }
  }
  for (RespReply& e : r.elements) BlankStreamTimes(e);
}

// A stream's whole state: XINFO STREAM FULL (entries, counters, groups, PELs, consumers), with the
// times blanked unless `with_times`.
inline std::string StreamContents(RawConnection& c, const std::string& key, bool with_times) {
  const std::string full = c.Call({"xinfo", "stream", key, "full", "count", "0"});
  if (with_times) return full;
  auto r = ParseReply(full);
  if (!r) return "unparsable " + full;
  BlankStreamTimes(*r);
  return Describe(*r);
}

// The value at `key` in a form that does not depend on a hash table's order (nor, for a stream,
// on the clock).
inline std::string Contents(RawConnection& c, const std::string& key) {
  const std::string type = c.Call({"type", key});
  std::string read;
  bool unordered = false, pairs = false;
  if (type == "+string\r\n") {
    read = c.Call({"get", key});
  } else if (type == "+list\r\n") {
    read = c.Call({"lrange", key, "0", "-1"});
  } else if (type == "+zset\r\n") {
    read = c.Call({"zrange", key, "0", "-1", "withscores"});
  } else if (type == "+set\r\n") {
    read = c.Call({"smembers", key});
    unordered = true;
  } else if (type == "+hash\r\n") {
    read = c.Call({"hgetall", key});
    unordered = pairs = true;
  } else if (type == "+stream\r\n") {
    return type + StreamContents(c, key, false);
  } else {
    return type;
  }
  if (!unordered) return type + read;
  auto r = ParseReply(read);
  if (!r) return "unparsable " + read;
  std::vector<std::string> items;
  for (size_t i = 0; i < r->elements.size(); i += pairs ? 2 : 1) {
    std::string item = r->elements[i].str;
    if (pairs) item += std::string("\0", 1) + r->elements[i + 1].str;
    items.push_back(std::move(item));
  }
  std::sort(items.begin(), items.end());
  std::string out = type;
  for (const auto& s : items) out += s + "\n";
  return out;
}

struct History {
  std::string name;
  std::vector<Args> setup;  // builds "k"
  std::string encoding;     // what OBJECT ENCODING k must say on both
  bool deterministic = true;
  // Consumers or pending entries: times from each server's clock, so the two servers' payloads
  // for the same commands differ (what one restores from the other's still dumps the same).
  bool timed = false;
};

inline std::vector<History> Histories() {
  std::vector<History> h;
  h.push_back({"int string", {{"set", "k", "12345"}}, "int"});
  h.push_back({"wide int string", {{"set", "k", "9223372036854775807"}}, "int"});
  h.push_back({"negative int", {{"set", "k", "-2147483648"}}, "int"});
  h.push_back({"embstr", {{"set", "k", "hello"}}, "embstr"});
  h.push_back({"compressible raw", {{"set", "k", std::string(300, 'a') + "b"}}, "raw"});
  std::string noise;
  for (int i = 0; i < 2000; ++i) noise.push_back(static_cast<char>((i * 7919 + i / 13) & 0xff));
  h.push_back({"binary raw", {{"set", "k", noise}}, "raw"});
  h.push_back({"appended", {{"set", "k", "1"}, {"append", "k", "23"}}, "raw"});
  h.push_back({"empty string", {{"set", "k", ""}}, "embstr"});

  h.push_back({"small list",
               {{"rpush", "k", "a", "1", "-20000", "bbbbbbbbbbbbbbbbbbbbbbbbbb"}},
               "quicklist"});
  Args many = {"rpush", "k"};
  for (int i = 0; i < 3000; ++i)
    many.push_back(i % 4 == 0 ? std::to_string(i * 977) : "item" + std::to_string(i));
  h.push_back({"list of many nodes", {many}, "quicklist"});
  h.push_back({"compressed list",
               {{"config", "set", "list-compress-depth", "1"},
                many,
                {"config", "set", "list-compress-depth", "0"}},
               "quicklist"});
  h.push_back({"list with a plain node",
               {{"debug", "quicklist-packed-threshold", "100"},
                {"rpush", "k", "x", std::string(500, 'p'), "y"},
                {"debug", "quicklist-packed-threshold", "1073741824"}},
               "quicklist"});
  h.push_back({"list with a big element",
               {{"rpush", "k", "a", std::string(10000, 'q'), "b"}},
               "quicklist"});

  h.push_back(
      {"listpack hash", {{"hset", "k", "f", "v", "n", "12", "neg", "-3", "e", ""}}, "listpack"});
  Args big_hash = {"hset", "k"};
  for (int i = 0; i < 600; ++i) {
    big_hash.push_back("field:" + std::to_string(i));
    big_hash.push_back(std::to_string(i * 31));
  }
  h.push_back({"hashtable hash", {big_hash}, "hashtable", false});
  h.push_back(
      {"hash with a long value", {{"hset", "k", "f", std::string(100, 'v')}}, "hashtable", false});

  h.push_back({"intset", {{"sadd", "k", "5", "-1", "300", "70000"}}, "intset"});
  h.push_back({"wide intset", {{"sadd", "k", "1", "5000000000", "-5000000000"}}, "intset"});
  h.push_back({"string set", {{"sadd", "k", "a", "b", "c", "1"}}, "hashtable", false});
  Args big_set = {"sadd", "k"};
  for (int i = 0; i < 600; ++i) big_set.push_back(std::to_string(i * 3));
  h.push_back({"big integer set", {big_set}, "hashtable", false});

  h.push_back(
      {"listpack zset",
       {{"zadd", "k", "1", "a", "2.5", "b", "-inf", "c", "inf", "d", "0.1", "e", "3", "12"}},
       "listpack"});
  Args big_zset = {"zadd", "k"};
  for (int i = 0; i < 300; ++i) {
    big_zset.push_back(std::to_string(i % 7 == 0 ? i : i * 0.37));
    big_zset.push_back("member" + std::to_string(i));
  }
  h.push_back({"skiplist zset", {big_zset}, "skiplist"});
  h.push_back({"zset with a long member",
               {{"zadd", "k", "1", std::string(100, 'm'), "2", "x"}},
               "skiplist"});

  // Streams: explicit ids (a "*" id is the clock's), several nodes, tombstones, trimming, groups
  // with and without pending entries and consumers.
  h.push_back(
      {"stream",
       {{"xadd", "k", "1-1", "f", "v", "n", "12"}, {"xadd", "k", "2-0", "f", "w", "n", "-7"}},
       "stream"});
  h.push_back({"empty stream with a group",
               {{"xgroup", "create", "k", "g", "$", "mkstream"}, {"xsetid", "k", "5-5"}},
               "stream"});
  Args stream_entry = {"xadd", "k", "", "field", "value", "num", "100"};
  std::vector<Args> long_stream = {{"config", "set", "stream-node-max-entries", "7"}};
  for (int i = 1; i <= 60; ++i) {
    stream_entry[2] = std::to_string(1000 + i) + "-" + std::to_string(i % 3);
    stream_entry[4] = i % 5 == 0 ? std::string(40, 'x') : "v" + std::to_string(i);
    long_stream.push_back(stream_entry);
    // Now and then an entry of other fields (not the master's).
    if (i % 9 == 0)
      long_stream.push_back(
          {"xadd", "k", std::to_string(1000 + i) + "-7", "other", std::to_string(i)});
  }
  long_stream.push_back({"config", "set", "stream-node-max-entries", "100"});
  std::vector<Args> deleted = long_stream;
  deleted.push_back({"xdel", "k", "1003-0", "1010-1", "1045-0", "1046-1"});
  deleted.push_back({"xtrim", "k", "minid", "1005-0"});
  h.push_back({"stream of many nodes, deleted and trimmed", deleted, "stream"});
  std::vector<Args> approx = long_stream;
  approx.push_back({"xtrim", "k", "maxlen", "~", "30"});
  h.push_back({"approximately trimmed stream", approx, "stream"});
  h.push_back({"stream with groups, no consumers",
               {{"xadd", "k", "1-1", "a", "1"},
                {"xadd", "k", "2-1", "a", "2"},
                {"xgroup", "create", "k", "g1", "0"},
                {"xgroup", "create", "k", "g2", "1-1", "entriesread", "1"},
                {"xgroup", "create", "k", "3", "$"},
                {"xdel", "k", "2-1"}},
               "stream"});
  std::vector<Args> pel = long_stream;
  for (const Args& cmd : std::vector<Args>{
           {"xgroup", "create", "k", "workers", "0"},
           {"xgroup", "create", "k", "idle", "$"},
           {"xgroup", "create", "k", "noack", "0"},
           {"xreadgroup", "group", "workers", "alice", "count", "10", "streams", "k", ">"},
           {"xreadgroup", "group", "workers", "bob", "count", "5", "streams", "k", ">"},
           {"xreadgroup", "group", "workers", "1", "count", "3", "streams", "k", ">"},
           {"xreadgroup", "group", "noack", "n", "noack", "count", "4", "streams", "k", ">"},
           {"xgroup", "createconsumer", "k", "workers", "carol"},
           {"xack", "k", "workers", "1002-2", "1004-1"},
           {"xclaim", "k", "workers", "bob", "0", "1001-1", "retrycount", "5"},
           {"xclaim", "k", "workers", "carol", "0", "1003-0", "time", "1234567"},
           {"xdel", "k", "1006-0", "1019-1"},
       }) {
    pel.push_back(cmd);
  }
  History with_pel{"stream with consumers and pending entries", pel, "stream"};
  with_pel.timed = true;
  h.push_back(with_pel);
  return h;
}

}  // namespace kv::test
