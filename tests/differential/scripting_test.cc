// Scripting against the real redis-server 7.0.15: the same EVAL, EVALSHA, SCRIPT, FUNCTION and
// FCALL commands go to both servers and every reply must be the same bytes. The corpus covers
// the conversions both ways in RESP2 and RESP3 (what redis.call hands a script for each reply
// type, what a script's return value becomes), errors (runtime, compile, raised tables,
// redis.error_reply, redis.pcall, commands refused inside scripts) with the script's line, the
// sandbox (undeclared globals, read-only tables, missing file functions), shebang flags, the
// libraries (cjson, bit, math.random's sequence) and the function libraries.

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tests/support/both_servers_test.h"
#include "tests/support/resp_reply.h"

namespace kv::test {
namespace {

// `r` as text with every "functions" array sorted: Redis lists a library's functions in the
// order of its dictionary, which hashes with a seed drawn at start-up.
std::string Canonical(const RespReply& r) {
  std::string out = std::string(TypeName(r.type)) + ":" + r.str + ":" + std::to_string(r.integer);
  std::vector<std::string> children;
  for (size_t i = 0; i < r.elements.size(); ++i) {
    std::string child = Canonical(r.elements[i]);
    if (i > 0 && r.elements[i - 1].str == "functions") {
      std::vector<std::string> functions;
      for (const RespReply& f : r.elements[i].elements) functions.push_back(Canonical(f));
      std::sort(functions.begin(), functions.end());
      child = "functions[";
      for (const std::string& f : functions) child += f + ",";
      child += "]";
    }
    children.push_back(child);
  }
  for (const std::string& c : children) out += "(" + c + ")";
  return out;
}

// Byte equality, except that FUNCTION LIST may order a library's functions differently.
bool SameAsRedis(const Args& command, const std::string& kv, const std::string& redis) {
  if (kv == redis) return true;
  if (command.size() < 2 || command[0] != "FUNCTION" || command[1] != "LIST") return false;
  const std::optional<RespReply> a = ParseReply(kv), b = ParseReply(redis);
  return a && b && Canonical(*a) == Canonical(*b);
}

class ScriptingDiffTest : public ConnectedBothServersTest<ScriptingDiffTest> {
 protected:
  // EVAL `script` with no keys.
  static Args Eval(const std::string& script) { return {"EVAL", script, "0"}; }
};

TEST_F(ScriptingDiffTest, LuaValuesBecomeReplies) {
  ExpectSameReplies({
      Eval("return 1"),
      Eval("return -7"),
      Eval("return 3.99"),
      Eval("return -3.99"),
      Eval("return 1e300"),
      Eval("return 'hello'"),
      Eval("return ''"),
      Eval("return true"),
      Eval("return false"),
      Eval("return nil"),
      Eval("return {}"),
      Eval("return {1, 'two', 3.5, {4, {5}}, true, false}"),
      Eval("return {1, 2, nil, 4}"),
      Eval("return {a = 1, b = 2}"),
      Eval("return {1, 2, a = 3}"),
      Eval("return {ok = 'FINE'}"),
      Eval("return {ok = 'line\\r\\nbreak'}"),
      Eval("return {err = 'MYCODE some message'}"),
      Eval("return {err = 'nocode'}"),
      Eval("return {1, {err = 'ERR inside'}, 3}"),
      Eval("return redis.status_reply('PONG')"),
      Eval("return redis.error_reply('My Error')"),
      Eval("return redis.error_reply('-WRONG thing')"),
      Eval("return redis.error_reply(1)"),
      Eval("return redis.status_reply()"),
      Eval("return {double = 3.25}"),
      Eval("return {map = {a = 1}}"),
      Eval("return {set = {a = true}}"),
      Eval("return {big_number = '12345678901234567890'}"),
      Eval("return {verbatim_string = {format = 'txt', string = 'hi'}}"),
      Eval("return function() end"),
      Eval("return KEYS"),
      Args{"EVAL", "return {KEYS[1], KEYS[2], ARGV[1], ARGV[2], #KEYS, #ARGV}", "2", "k1", "k2",
           "a1", "a2"},
      Args{"EVAL", "return ARGV", "0", "x", "", "z"},
  });
}

TEST_F(ScriptingDiffTest, RepliesBecomeLuaValues) {
  ExpectSameReplies({
      Args{"SET", "s", "v"},
      Args{"RPUSH", "l", "a", "b", "c"},
      Args{"HSET", "h", "f", "1"},
      Args{"SADD", "set", "m"},
      Args{"ZADD", "z", "1.5", "m"},
      Eval("return redis.call('get', 's')"),
      Eval("return type(redis.call('get', 'nosuch'))"),
      Eval("return tostring(redis.call('get', 'nosuch'))"),
      Eval("return redis.call('incr', 'counter')"),
      Eval("return type(redis.call('incr', 'counter'))"),
      Eval("return redis.call('lrange', 'l', 0, -1)"),
      Eval("return #redis.call('lrange', 'l', 0, -1)"),
      Eval("return redis.call('hgetall', 'h')"),
      Eval("return redis.call('smembers', 'set')"),
      Eval("return redis.call('zrange', 'z', 0, -1, 'withscores')"),
      Eval("return redis.call('zscore', 'z', 'm')"),
      Eval("local r = redis.call('set', 'x', 'y') return type(r) .. ':' .. r.ok"),
      Eval("local r = redis.call('ping') return r"),
      Eval("return redis.call('type', 's')"),
      Eval("return redis.call('exists', 's', 'nosuch', 'l')"),
      Eval("return redis.call('blpop', 'nolist', 0)"),
      Eval("return redis.pcall('incr', 's')"),
      Eval("local r = redis.pcall('incr', 's') return r.err"),
      Eval("return redis.call('set', 'n', 3.14159265358979)"),
      Eval("redis.call('set', 'n', 3.14159265358979) return redis.call('get', 'n')"),
      Eval("redis.call('set', 'n', 100) return redis.call('get', 'n')"),
      Eval("redis.call('set', 'n', 1e20) return redis.call('get', 'n')"),
      Eval("redis.call('set', 'n', -0.5) return redis.call('get', 'n')"),
      Eval("return redis.call('get', {})"),
      Eval("return redis.call()"),
      Eval("return redis.pcall()"),
      Eval("return redis.call('get')"),
      Eval("return redis.call('nosuchcommand')"),
      Eval("return redis.pcall('nosuchcommand')"),
      Eval("return redis.call('config', 'nosuchsub')"),
      Eval("return redis.call('eval', 'return 1', 0)"),
      Eval("return redis.call('script', 'load', 'return 1')"),
      Eval("return redis.call('select', 1)"),
      Args{"GET", "s"},
      Eval("redis.call('select', 1) redis.call('set', 'in1', 'yes') return redis.call('dbsize')"),
      Args{"EXISTS", "in1"},
      Args{"SELECT", "1"},
      Args{"GET", "in1"},
      Args{"FLUSHDB"},
      Args{"SELECT", "0"},
  });
}

TEST_F(ScriptingDiffTest, Resp3Conversions) {
  const std::vector<Args> body = {
      Args{"HSET", "h", "f", "1"},
      Args{"SADD", "set", "m"},
      Args{"ZADD", "z", "1.5", "m"},
      Eval("return true"),
      Eval("return false"),
      Eval("return nil"),
      Eval("return {double = 3.25}"),
      Eval("return {double = 1e300}"),
      Eval("return {map = {a = 1}}"),
      Eval("return {set = {a = true}}"),
      Eval("return {big_number = '12345678901234567890'}"),
      Eval("return {verbatim_string = {format = 'txt', string = 'hi'}}"),
      Eval("return {verbatim_string = {format = 'mk', string = 'hi'}}"),
      Eval("redis.setresp(3) return true"),
      Eval("redis.setresp(3) return false"),
      Eval("redis.setresp(3) return redis.call('hgetall', 'h')"),
      Eval("redis.setresp(3) return redis.call('smembers', 'set')"),
      Eval("redis.setresp(3) return redis.call('zscore', 'z', 'm')"),
      Eval("redis.setresp(3) local r = redis.call('zscore', 'z', 'm') return type(r.double)"),
      Eval("redis.setresp(3) local r = redis.call('hgetall', 'h') return r.map.f"),
      Eval("redis.setresp(3) local r = redis.call('smembers', 'set') return tostring(r.set.m)"),
      Eval("redis.setresp(3) return type(redis.call('get', 'nosuch'))"),
      Eval("redis.setresp(3) return redis.call('get', 'nosuch')"),
      Eval("redis.setresp(3) return redis.call('exists', 'h')"),
      Eval("redis.setresp(3) return redis.call('zrange', 'z', 0, -1, 'withscores')"),
      Eval("redis.setresp(2) return redis.call('hgetall', 'h')"),
      Eval("redis.setresp(4)"),
      Eval("redis.setresp()"),
      Eval("redis.setresp(3) return redis.call('info', 'nosuchsection')"),
  };
  ExpectSameReplies(body);
  std::vector<Args> resp3 = {Args{"HELLO", "3"}};
  resp3.insert(resp3.end(), body.begin(), body.end());
  // HELLO's reply has the client id: compare the rest.
  ExpectSameReplies(resp3, [](const Args& cmd, const std::string& kv, const std::string& redis) {
    return cmd[0] == "HELLO" || kv == redis;
  });
  Both({"HELLO", "2"});
}

TEST_F(ScriptingDiffTest, ErrorsCarryTheScriptLine) {
  ExpectSameReplies({
      Eval("error('boom')"),
      Eval("\n\nerror('on line three')"),
      Eval("error({err = 'CODE table error'})"),
      // error({}) is left out: it crashes Redis 7.0.15 (its reply formats a null message).
      Eval("error()"),
      Eval("error(42)"),
      Eval("local t = nil; return t.x"),
      Eval("return 1 + {}"),
      Eval("return redis.call('incr', 'notanumber_key_is_string') + 1"),
      Eval("return 1 +"),
      Eval("return 'unterminated"),
      Eval("local function f() error('deep') end\nf()"),
      Eval("local function f() redis.call('nosuch') end\n\nf()"),
      Eval("return pcall(function() error('x') end)"),
      Eval("return {pcall(function() error('x') end)}"),
      Eval("return {pcall(function() redis.call('nosuch') end)}"),
      Eval("return {pcall(function() error({err = 'T t'}) end)}"),
      Eval("local ok, e = pcall(error, 'y') return e"),
      Eval("return {xpcall(function() error('x') end, function(e) return 'handled ' .. e end)}"),
      Eval("return redis.sha1hex('')"),
      Eval("return redis.sha1hex('Pizza & Mandolino')"),
      Eval("return redis.sha1hex()"),
      Eval("return redis.log(redis.LOG_WARNING, 'from a script')"),
      Eval("return redis.log(redis.LOG_WARNING)"),
      Eval("return redis.log('x', 'y')"),
      Eval("return redis.log(99, 'y')"),
      Eval("return redis.set_repl(redis.REPL_ALL)"),
      Eval("return redis.set_repl(99)"),
      Eval("return redis.set_repl()"),
      Eval("return redis.replicate_commands()"),
      Eval("return {redis.REPL_NONE, redis.REPL_AOF, redis.REPL_REPLICA, redis.REPL_SLAVE, "
           "redis.REPL_ALL}"),
      Eval("return {redis.LOG_DEBUG, redis.LOG_VERBOSE, redis.LOG_NOTICE, redis.LOG_WARNING}"),
      Eval("return {redis.REDIS_VERSION, redis.REDIS_VERSION_NUM}"),
      Eval("return redis.breakpoint()"),
      Eval("return redis.debug('x')"),
      Args{"EVAL", "return 1", "notanumber"},
      Args{"EVAL", "return 1", "-1"},
      Args{"EVAL", "return 1", "2", "onlyone"},
      Args{"EVAL", "return 1"},
      Args{"EVALSHA", "abc", "0"},
      Args{"EVALSHA", "0123456789012345678901234567890123456789", "0"},
      Args{"EVALSHA", "0123456789012345678901234567890123456789", "x"},
  });
}

TEST_F(ScriptingDiffTest, Sandbox) {
  ExpectSameReplies({
      Eval("return a"),
      Eval("a = 10"),
      Eval("function f() end"),
      Eval("_G.x = 1"),
      Eval("_G = {}"),
      Eval("redis = function() return 1 end"),
      Eval("redis.call = function() return 1 end"),
      Eval("cjson.encode = function() return 1 end"),
      Eval("bit.lshift = function() return 1 end"),
      Eval("string.foo = 1"),
      Eval("math.pi = 3"),
      Eval("table.insert = nil"),
      Eval("setmetatable(_G, {})"),
      Eval("local g = getmetatable(_G) g.__index = {}"),
      Eval("rawset(_G, 'x', 1)"),
      Eval("rawset(redis, 'call', 1)"),
      Eval("loadfile('some file')"),
      Eval("dofile('some file')"),
      Eval("print('some data')"),
      Eval("return os.time()"),
      Eval("return io.open('x')"),
      Eval("return require('x')"),
      Eval("return debug.getinfo(1)"),
      Eval("return package"),
      Eval("return loadstring(string.dump(function() return 1 end))()"),
      Eval("local f, e = loadstring(string.dump(function() return 1 end)) return {tostring(f), e}"),
      Eval("local f, e = loadstring(string.dump(function() return 1 end), 'name') return e"),
      Eval("local f, e = loadstring('return +') return e"),
      Eval("return loadstring('return 7')()"),
      Eval("local t = {} t.x = 1 return t.x"),
      Eval("local s = 'abc' return s:upper()"),
      Eval("return type(_G)"),
      Eval("return type(__redis__err__handler)"),
      Eval("return _VERSION"),
      Eval("return tostring(rawequal(_G, _G))"),
      Eval("return select('#', 1, 2, 3)"),
      Eval("return {unpack({1, 2, 3})}"),
      Eval("return tonumber('0x10')"),
      Eval("return type(coroutine.create(function() end))"),
      Eval("local co = coroutine.wrap(function() coroutine.yield(5) end) return co()"),
      Eval("return type(newproxy)"),
      Eval("return type(getfenv)"),
      Eval("local t = {} for k in pairs(_G) do t[#t + 1] = k end table.sort(t) return t"),
      Eval("local n = 0 for k, v in pairs(redis) do n = n + 1 end return n"),
      Eval("local n = 0 for k, v in pairs(string) do n = n + 1 end return n"),
      Eval("local t = {} for k in next, cjson do t[#t + 1] = k end return #t"),
      Eval("return {pcall(next, {}, 'nokey')}"),
      Eval("return type(gcinfo())"),
      Eval("return {pcall()}"),
      Eval("return {pcall(1)}"),
      Eval("return {pcall(redis.call, 'nosuch')}"),
  });
}

TEST_F(ScriptingDiffTest, Libraries) {
  ExpectSameReplies({
      Eval("return cjson.encode({1, 2, 3})"),
      Eval("return cjson.encode({a = 'b'})"),
      Eval("return cjson.encode('x\"y')"),
      Eval("return cjson.encode(1.5)"),
      Eval("return cjson.encode(cjson.null)"),
      Eval("return cjson.decode('[1,2,\"x\"]')"),
      Eval("return cjson.decode('{\"a\":[1,2]}').a"),
      Eval("return cjson.decode('[1,2')"),
      Eval("return bit.band(7, 3)"),
      Eval("return bit.bor(1, 2, 4)"),
      Eval("return bit.bxor(5, 3)"),
      Eval("return bit.lshift(1, 10)"),
      Eval("return bit.rshift(-1, 28)"),
      Eval("return bit.tohex(255)"),
      Eval("return bit.bnot(0)"),
      Eval("return string.format('%5.2f|%d|%s', 3.14159, 42, 'x')"),
      Eval("return string.rep('ab', 3)"),
      Eval("return {string.byte('ABC', 1, 3)}"),
      Eval("return table.concat({1, 2, 3}, ',')"),
      Eval("return math.floor(3.7)"),
      Eval("return tostring(math.huge)"),
      Eval("math.randomseed(42) return {math.random(100), math.random(1, 6), "
           "tostring(math.random())}"),
      Eval("return math.random(0)"),
      Eval("return tostring(1/3)"),
      Eval("return cmsgpack.pack(1, -1, 127, 128, -33, 300, -300, 70000, -70000, 5000000000, "
           "-5000000000, 1.5, 0.1, 'abc', true, false, nil)"),
      Eval("return cmsgpack.pack({1, 2, 3}, {a = 1}, {}, {[2] = 1}, string.rep('x', 40), "
           "string.rep('y', 300))"),
      Eval("local t = {} local c = t for i = 1, 20 do c[1] = {} c = c[1] end "
           "return cmsgpack.pack(t)"),
      Eval("return {cmsgpack.unpack(cmsgpack.pack(1, 'two', {3, {4}}, -5, 1.5))}"),
      Eval("local t = cmsgpack.unpack(cmsgpack.pack({a = 'b', c = {1, 2}})) return {t.a, t.c}"),
      Eval("return {cmsgpack.unpack_one(cmsgpack.pack(1, 2, 3))}"),
      Eval("return {cmsgpack.unpack_one(cmsgpack.pack(1, 2, 3), 1)}"),
      Eval("return {cmsgpack.unpack_limit(cmsgpack.pack(1, 2, 3), 2)}"),
      Eval("return {cmsgpack.unpack_limit(cmsgpack.pack(1, 2, 3), 5, 2)}"),
      Eval("return cmsgpack.unpack('\\217')"),
      Eval("return cmsgpack.unpack('\\193')"),
      Eval("return cmsgpack.unpack_one('x', 5)"),
      Eval("return cmsgpack.pack()"),
      Eval("return {cmsgpack._NAME, cmsgpack._VERSION}"),
      Eval("return struct.pack('>I2<i4!4bhld', 258, -3, 7, -9, 123456789, 1.5)"),
      Eval("return struct.pack('c3s', 'abcdef', 'zz')"),
      Eval("return {struct.unpack('>I2<i4', struct.pack('>I2<i4', 258, -3))}"),
      Eval("return {struct.unpack('bBhH', struct.pack('bBhH', -1, 255, -2, 65535))}"),
      Eval("return {struct.unpack('s', struct.pack('s', 'hello'))}"),
      Eval("return {struct.unpack('b c0', struct.pack('b c0', 3, 'xyz'))}"),
      Eval("return {struct.unpack('d', struct.pack('d', 1.25))}"),
      Eval("return struct.size('>!4bhlid')"),
      Eval("return struct.size('s')"),
      Eval("return struct.pack('q', 1)"),
      Eval("return struct.unpack('i4', 'ab')"),
      Eval("return struct.pack('!3i', 1)"),
      Eval("return struct.pack('i40', 1)"),
  });
}

TEST_F(ScriptingDiffTest, ShebangFlagsAndReadOnly) {
  ExpectSameReplies({
      Eval("#!lua\nreturn redis.call('set', 'k', 'v')"),
      Eval("#!lua flags=no-writes\nreturn redis.call('get', 'k')"),
      Eval("#!lua flags=no-writes\nreturn redis.call('set', 'k', 'v')"),
      Eval("#!lua flags=no-writes,allow-oom\nreturn 1"),
      Eval("#!lua flags=allow-stale,no-cluster,allow-cross-slot-keys\nreturn 2"),
      Eval("#!lua flags=\nreturn 3"),
      Eval("#!lua flags=bogus\nreturn 1"),
      Eval("#!lua flags=no-writes,\nreturn 1"),
      Eval("#!lua name=x\nreturn 1"),
      Eval("#!lua flags=\"no-writes\"\nreturn 1"),
      Eval("#!lua \"unbalanced\nreturn 1"),
      Eval("#!python\nreturn 1"),
      Eval("#!lua"),
      Eval("#!lua\nerror('line two')"),
      Args{"EVAL_RO", "return redis.call('get', 'k')", "0"},
      Args{"EVAL_RO", "return redis.call('set', 'k', 'v')", "0"},
      Args{"EVAL_RO", "#!lua\nreturn 1", "0"},
      Args{"EVAL_RO", "#!lua flags=no-writes\nreturn 1", "0"},
      Args{"EVAL_RO", "return redis.pcall('del', 'k')", "0"},
  });
}

// What commands do differently when a script calls them: XREAD and XREADGROUP refuse BLOCK, SORT
// BY a constant sorts a set's members, CLUSTER (without cluster mode) is disabled, and CLUSTER
// RESET is refused to scripts.
TEST_F(ScriptingDiffTest, CommandsCalledFromScripts) {
  ExpectSameReplies({
      {"DEL", "s", "myset", "mylist"},
      {"XGROUP", "CREATE", "s", "g", "$", "MKSTREAM"},
      Eval("return redis.pcall('xread', 'STREAMS', 's', '$')"),
      Eval("return redis.pcall('xread', 'BLOCK', 0, 'STREAMS', 's', '$')"),
      Eval("return redis.pcall('XREAD', 'COUNT', 1, 'block', 10, 'STREAMS', 's', '$')"),
      Eval("return redis.pcall('xreadgroup', 'group', 'g', 'c', 'STREAMS', 's', '>')"),
      Eval("return redis.pcall('xreadgroup', 'group', 'g', 'c', 'BLOCK', 0, 'STREAMS', 's', '>')"),
      {"SADD", "myset", "a", "b", "c", "d", "e", "f", "g", "h", "i",  "l",   "m",
       "n",    "o",     "p", "q", "r", "s", "t", "u", "v", "z", "aa", "aaa", "azz"},
      Eval("return redis.call('sort', 'myset', 'by', '_')"),
      Eval("return redis.call('sort', 'myset', 'by', '_', 'get', '#', 'get', '_:*')"),
      Eval("return redis.call('sort', 'myset', 'by', 'nosort', 'desc', 'limit', 0, 5)"),
      Eval("return redis.call('sort_ro', 'myset', 'by', '_')"),
      {"RPUSH", "mylist", "3", "1", "2"},
      Eval("return redis.call('sort', 'mylist', 'by', '_')"),
      {"CLUSTER", "INFO"},
      {"CLUSTER", "HELP"},
      {"CLUSTER", "KEYSLOT", "x"},
      {"CLUSTER", "KEYSLOT"},
      {"CLUSTER", "RESET", "HARD"},
      {"CLUSTER", "BOGUS"},
      {"CLUSTER"},
      Eval("return redis.call('cluster', 'reset', 'hard')"),
      Eval("return redis.pcall('cluster', 'info')"),
      Eval("return redis.pcall('cluster', 'keyslot', 'x')"),
      Eval("return redis.pcall('cluster', 'bogus')"),
      Eval("return redis.pcall('cluster')"),
      {"COMMAND", "INFO", "cluster|reset", "cluster|keyslot"},
  });
}

// sort.c forces a sort by strings for SORT ... BY <constant> of a set when a script calls it
// (CLIENT_SCRIPT: EVAL and FCALL alike), whatever its encoding; lists and sorted sets keep their
// order, which a script can rely on.
TEST_F(ScriptingDiffTest, SortByConstantInScriptsSortsOnlySets) {
  ExpectSameReplies({
      {"DEL", "ints", "strs", "lz", "bz", "l"},
      {"SADD", "ints", "5", "30", "100", "-2", "7"},
      {"SADD", "strs", "b", "10", "a", "9", "c"},
      {"ZADD", "lz", "1", "z", "2", "y", "3", "x"},
      {"ZADD", "bz", "1", "z", "2", "y", "3", "x", "4",
       "a-member-longer-than-sixty-four-bytes-makes-this-sorted-set-a-skiplist-at-once"},
      {"RPUSH", "l", "3", "1", "2"},
      {"OBJECT", "ENCODING", "ints"},
      {"OBJECT", "ENCODING", "bz"},
      Eval("return redis.call('sort', 'ints', 'by', 'nosort')"),
      Eval("return redis.call('sort', 'ints', 'by', 'nosort', 'desc')"),
      Eval("return redis.call('sort', 'strs', 'by', 'constant', 'limit', 1, 3)"),
      Eval("return redis.call('sort_ro', 'strs', 'by', 'nosort', 'get', '#')"),
      Eval("return redis.call('sort', 'lz', 'by', 'nosort')"),
      Eval("return redis.call('sort', 'lz', 'by', 'nosort', 'desc', 'limit', 0, 2)"),
      Eval("return redis.call('sort', 'bz', 'by', 'nosort', 'limit', 1, 2)"),
      Eval("return redis.call('sort', 'l', 'by', 'nosort')"),
      {"FUNCTION", "LOAD", "REPLACE",
       "#!lua name=sortlib\n"
       "redis.register_function('sort_nosort', function(keys) "
       "return redis.call('sort', keys[1], 'by', 'nosort') end)"},
      {"FCALL", "sort_nosort", "1", "ints"},
      {"FCALL", "sort_nosort", "1", "lz"},
      {"FUNCTION", "DELETE", "sortlib"},
      {"SORT", "lz", "BY", "nosort"},
      {"SORT", "ints", "BY", "nosort", "STORE", "dst"},
      {"LRANGE", "dst", "0", "-1"},
      {"DEL", "dst"},
  });
}

TEST_F(ScriptingDiffTest, ScriptCache) {
  Both({"SCRIPT", "FLUSH"});
  ExpectSameReplies({
      Args{"SCRIPT", "LOAD", "return 'cached'"},
      Args{"EVALSHA", "1d3b6fed4cf0e7e8b3b5c1d3f0a7ef7f1e4d0b13", "0"},
      Args{"SCRIPT", "EXISTS", "1d3b6fed4cf0e7e8b3b5c1d3f0a7ef7f1e4d0b13"},
      Args{"SCRIPT", "LOAD", "return 1 +"},
      Args{"SCRIPT", "LOAD", "#!lua flags=bogus\nreturn 1"},
      Args{"SCRIPT", "LOAD", "return KEYS[1]"},
      Args{"SCRIPT", "EXISTS", "e4b8f4e3b0f7a4b5c1b6a3c7e7a3ad0cf33e5d6a",
           "a9b5e4f1d0dc7c9e8bdf0b5a48e6f3af8a3e0c94"},
      Args{"EVAL", "return 'via eval'", "0"},
      Args{"SCRIPT", "EXISTS", "4b1a4bb23b0bbb1e2b8e9b76a0e7c1a8e5c1f0b5"},
      Args{"SCRIPT", "FLUSH", "ASYNC"},
      Args{"SCRIPT", "FLUSH", "SYNC"},
      Args{"SCRIPT", "FLUSH", "BOGUS"},
      Args{"SCRIPT", "FLUSH", "SYNC", "extra"},
      Args{"SCRIPT", "KILL"},
      Args{"SCRIPT", "KILL", "x"},
      Args{"SCRIPT", "NOSUCH"},
      Args{"SCRIPT", "HELP"},
      Args{"SCRIPT"},
      Args{"SCRIPT", "EXISTS"},
  });
  // The SHA1 of a script is what SCRIPT LOAD replies, EVALSHA runs it, upper case too.
  const auto [kv_sha, redis_sha] = Both({"SCRIPT", "LOAD", "return {KEYS[1], ARGV[1]}"});
  ASSERT_EQ(kv_sha, redis_sha);
  const std::string sha = kv_sha.substr(kv_sha.find("\r\n") + 2, 40);
  std::string upper = sha;
  for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  ExpectSameReplies({
      Args{"SCRIPT", "LOAD", "return {KEYS[1], ARGV[1]}"},
      Args{"EVALSHA", sha, "1", "key", "arg"},
      Args{"EVALSHA", upper, "1", "key", "arg"},
      Args{"EVALSHA_RO", sha, "1", "key", "arg"},
      Args{"SCRIPT", "EXISTS", sha, upper, "nosuch"},
  });
}

TEST_F(ScriptingDiffTest, Functions) {
  Both({"FUNCTION", "FLUSH"});
  const std::string lib =
      "#!lua name=mylib\n"
      "local function get(keys, args) return redis.call('get', keys[1]) end\n"
      "local function set(keys, args) return redis.call('set', keys[1], args[1]) end\n"
      "redis.register_function('myget', get)\n"
      "redis.register_function{function_name='myset', callback=set, description='sets it'}\n"
      "redis.register_function{function_name='ro_get', callback=get, flags={'no-writes'}}\n"
      "redis.register_function{function_name='fail', callback=function() error('in fn') end}\n";
  ExpectSameReplies(
      {
          Args{"FUNCTION", "LOAD", lib},
          Args{"FUNCTION", "LOAD", lib},
          Args{"FCALL", "myset", "1", "k", "v"},
          Args{"FCALL", "myget", "1", "k"},
          Args{"FCALL_RO", "ro_get", "1", "k"},
          Args{"FCALL_RO", "myget", "1", "k"},
          Args{"FCALL_RO", "myset", "1", "k", "w"},
          Args{"FCALL", "fail", "0"},
          Args{"FCALL", "nosuch", "0"},
          Args{"FCALL", "myget", "x"},
          Args{"FCALL", "myget", "5", "k"},
          Args{"FCALL", "myget", "-1"},
          Args{"FUNCTION", "LIST"},
          Args{"FUNCTION", "LIST", "WITHCODE"},
          Args{"FUNCTION", "LIST", "LIBRARYNAME", "my*"},
          Args{"FUNCTION", "LIST", "LIBRARYNAME", "other*"},
          Args{"FUNCTION", "LIST", "LIBRARYNAME"},
          Args{"FUNCTION", "LIST", "BOGUS"},
          Args{"FUNCTION", "STATS"},
          Args{"FUNCTION", "LOAD", "REPLACE", lib},
          Args{"FUNCTION", "LOAD",
               "#!lua name=other\nredis.register_function('myget', function() end)"},
          Args{"FUNCTION", "LOAD", "#!lua name=other\nreturn 1"},
          Args{"FUNCTION", "LOAD", "#!lua name=other\nredis.call('ping')"},
          Args{"FUNCTION", "LOAD", "#!lua name=other\nlocal x = math.floor(1)"},
          Args{"FUNCTION", "LOAD", "#!lua name=other\nx = 1"},
          Args{"FUNCTION", "LOAD", "#!lua name=other\nreturn 1 +"},
          Args{"FUNCTION", "LOAD", "#!lua name=bad-name\nreturn 1"},
          Args{"FUNCTION", "LOAD", "#!lua\nreturn 1"},
          Args{"FUNCTION", "LOAD", "#!lua name=a name=b\nreturn 1"},
          Args{"FUNCTION", "LOAD", "#!lua name=a foo=b\nreturn 1"},
          Args{"FUNCTION", "LOAD",
               "#!lua name=\"quoted\"\nredis.register_function('q', function() end)"},
          Args{"FUNCTION", "LOAD", "#!lua name=\"unbalanced\nreturn 1"},
          Args{"FUNCTION", "DELETE", "quoted"},
          Args{"FUNCTION", "LOAD", "#!js name=a\nreturn 1"},
          Args{"FUNCTION", "LOAD", "return 1"},
          Args{"FUNCTION", "LOAD", "#!lua name=a"},
          Args{"FUNCTION", "LOAD", "BOGUS", "#!lua name=a\nreturn 1"},
          Args{"FUNCTION", "LOAD", "#!lua name=o\nredis.register_function('f', 1)"},
          Args{"FUNCTION", "LOAD", "#!lua name=o\nredis.register_function(1, function() end)"},
          Args{"FUNCTION", "LOAD",
               "#!lua name=o\nredis.register_function('bad name', function() end)"},
          Args{"FUNCTION", "LOAD",
               "#!lua name=o\nredis.register_function('f', function() end)\n"
               "redis.register_function('f', function() end)"},
          Args{"FUNCTION", "LOAD",
               "#!lua name=o\nredis.register_function{function_name='f', callback=function() end, "
               "flags={'bogus'}}"},
          Args{"FUNCTION", "LOAD",
               "#!lua name=o\nredis.register_function{function_name='f', callback=function() end, "
               "something=1}"},
          Args{"FUNCTION", "LOAD",
               "#!lua name=o\nredis.register_function{callback=function() end}"},
          Args{"FUNCTION", "LOAD", "#!lua name=o\nredis.register_function{function_name='f'}"},
          Args{"FUNCTION", "LOAD", "#!lua name=o\nredis.register_function()"},
          Args{"FUNCTION", "LOAD", "#!lua name=o\nredis.register_function('x')"},
          Args{"FCALL", "myget", "1", "k"},
          Args{"FUNCTION", "DELETE", "nosuch"},
          Args{"FUNCTION", "DELETE", "mylib"},
          Args{"FCALL", "myget", "1", "k"},
          Args{"FUNCTION", "LIST"},
          Args{"FUNCTION", "STATS"},
          Args{"FUNCTION", "KILL"},
          Args{"FUNCTION", "FLUSH", "BOGUS"},
          Args{"FUNCTION", "FLUSH"},
          Args{"FUNCTION", "HELP"},
          Eval("return redis.call('fcall', 'x', 0)"),
          Eval("return redis.call('function', 'list')"),
      },
      SameAsRedis);
}

TEST_F(ScriptingDiffTest, FunctionsSeeTheirOwnGlobals) {
  Both({"FUNCTION", "FLUSH"});
  ExpectSameReplies({
      Args{"FUNCTION", "LOAD",
           "#!lua name=g\n"
           "redis.register_function('globals', function(keys, args)\n"
           "  return {type(redis.call), type(math.floor), type(cjson), #keys, #args, "
           "type(KEYS)}\n"
           "end)\n"
           "redis.register_function('setresp', function() redis.setresp(3) return "
           "redis.call('hgetall', 'nohash') end)\n"
           "redis.register_function('set_global', function() y = 1 end)\n"},
      Args{"FCALL", "globals", "1", "k", "a", "b"},
      Args{"FCALL", "setresp", "0"},
      Args{"FCALL", "set_global", "0"},
      Args{"FUNCTION", "LOAD", "#!lua name=h\nlocal x = redis.setresp"},
      Args{"FUNCTION", "LOAD", "#!lua name=h\nlocal x = redis.REDIS_VERSION return 1"},
      Args{"FUNCTION", "FLUSH"},
  });
}

}  // namespace
}  // namespace kv::test
