#include "server/scripting/lua_convert.h"

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>

extern "C" {
#include <lauxlib.h>
#include <lua.h>
}

namespace kv {
namespace {

// Reads kvserver's own replies, which are well formed: no checks beyond staying in bounds.
class RespToLua {
 public:
  RespToLua(lua_State* L, std::string_view reply)
      : L_(L), p_(reply.data()), end_(p_ + reply.size()) {}

  // Pushes the next reply (nothing when `push` is false: an attribute's contents).
  void Parse(bool push = true) {
    if (p_ >= end_) {
      if (push) lua_pushnil(L_);
      return;
    }
    const char type = *p_++;
    const std::string_view line = Line();
    if (push) luaL_checkstack(L_, 4, "reached lua stack limit");
    switch (type) {
      case '+':
        if (!push) return;
        lua_newtable(L_);
        lua_pushlstring(L_, line.data(), line.size());
        lua_setfield(L_, -2, "ok");
        return;
      case '-': {
        if (!push) return;
        std::string err = "-";
        err.append(line);
        PushLuaErrorTable(L_, err);
        lua_pushboolean(L_, 1);
        lua_setfield(L_, -2, "ignore_error_stats_update");
        return;
      }
      case ':':
        if (push)
          lua_pushnumber(L_, static_cast<lua_Number>(std::strtoll(line.data(), nullptr, 10)));
        return;
      case '$': {
        const long long len = std::strtoll(line.data(), nullptr, 10);
        if (len < 0) {
          if (push) lua_pushboolean(L_, 0);
          return;
        }
        if (push) lua_pushlstring(L_, p_, static_cast<size_t>(len));
        p_ += len + 2;
        return;
      }
      case '=': {
        const long long len = std::strtoll(line.data(), nullptr, 10);
        if (push) {
          lua_newtable(L_);
          lua_newtable(L_);
          lua_pushlstring(L_, p_ + 4, static_cast<size_t>(len - 4));
          lua_setfield(L_, -2, "string");
          lua_pushlstring(L_, p_, 3);
          lua_setfield(L_, -2, "format");
          lua_setfield(L_, -2, "verbatim_string");
        }
        p_ += len + 2;
        return;
      }
      case '*':
      case '>': {
        const long long n = std::strtoll(line.data(), nullptr, 10);
        if (n < 0) {
          if (push) lua_pushboolean(L_, 0);
          return;
        }
        if (push) lua_newtable(L_);
        for (long long j = 0; j < n; ++j) {
          if (push) lua_pushnumber(L_, static_cast<lua_Number>(j + 1));
          Parse(push);
          if (push) lua_settable(L_, -3);
        }
        return;
      }
      case '%':
      case '~': {
        const long long n = std::strtoll(line.data(), nullptr, 10);
        if (push) {
          lua_newtable(L_);
          lua_pushstring(L_, type == '%' ? "map" : "set");
          lua_newtable(L_);
        }
        for (long long j = 0; j < n; ++j) {
          Parse(push);
          if (type == '%') {
            Parse(push);
          } else if (push) {
            luaL_checkstack(L_, 1, "reached lua stack limit");
            lua_pushboolean(L_, 1);
          }
          if (push) lua_settable(L_, -3);
        }
        if (push) lua_settable(L_, -3);
        return;
      }
      case '|': {
        const long long n = std::strtoll(line.data(), nullptr, 10);
        for (long long j = 0; j < 2 * n; ++j) Parse(false);
        Parse(push);
        return;
      }
      case '_':
        if (push) lua_pushnil(L_);
        return;
      case '#':
        if (push) lua_pushboolean(L_, !line.empty() && line[0] == 't');
        return;
      case ',': {
        if (!push) return;
        const std::string text(line);
        double d = std::strtod(text.c_str(), nullptr);
        if (text == "inf") d = HUGE_VAL;
        if (text == "-inf") d = -HUGE_VAL;
        lua_newtable(L_);
        lua_pushnumber(L_, d);
        lua_setfield(L_, -2, "double");
        return;
      }
      case '(':
        if (!push) return;
        lua_newtable(L_);
        lua_pushlstring(L_, line.data(), line.size());
        lua_setfield(L_, -2, "big_number");
        return;
      default:
        if (push) lua_pushnil(L_);
        return;
    }
  }

 private:
  // The rest of the current line, CRLF consumed.
  std::string_view Line() {
    const char* start = p_;
    while (p_ + 1 < end_ && !(p_[0] == '\r' && p_[1] == '\n')) ++p_;
    const std::string_view line(start, p_ - start);
    p_ = p_ + 2 <= end_ ? p_ + 2 : end_;
    return line;
  }

  lua_State* L_;
  const char* p_;
  const char* end_;
};

// `field` of the table at the top, as Redis's lua_rawget on a pushed string key: pushes it and
// returns its type.
int RawField(lua_State* L, const char* field) {
  lua_pushstring(L, field);
  lua_rawget(L, -2);
  return lua_type(L, -1);
}

// A double converted as C's (long long) cast on x86-64: out of range (and NaN) gives INT64_MIN.
int64_t TruncateToInteger(lua_Number n) {
  if (!(n >= -9223372036854775808.0 && n < 9223372036854775808.0)) return INT64_MIN;
  return static_cast<int64_t>(n);
}

std::string MapNewlines(std::string s) {
  for (char& c : s) {
    if (c == '\r' || c == '\n') c = ' ';
  }
  return s;
}

void WriteErrorFromTable(lua_State* L, ReplyWriter& reply) {
  lua_getfield(L, -1, "err");
  std::string msg = lua_isstring(L, -1) ? lua_tostring(L, -1) : "";
  lua_pop(L, 1);
  // Redis's addReplyErrorFormat("-%s"): trimmed of CR/LF at both ends, the rest made spaces.
  while (!msg.empty() && (msg.back() == '\r' || msg.back() == '\n')) msg.pop_back();
  size_t lead = 0;
  while (lead < msg.size() && (msg[lead] == '\r' || msg[lead] == '\n')) ++lead;
  reply.Error("-" + MapNewlines(msg.substr(lead)));
}

void WriteValue(lua_State* L, int script_protocol, ReplyWriter& reply);

void WriteTable(lua_State* L, int script_protocol, ReplyWriter& reply) {
  IoBuffer* out = reply.buffer();
  if (RawField(L, "err") == LUA_TSTRING) {
    lua_pop(L, 1);
    WriteErrorFromTable(L, reply);
    return;
  }
  lua_pop(L, 1);
  if (RawField(L, "ok") == LUA_TSTRING) {
    size_t len = 0;
    const char* s = lua_tolstring(L, -1, &len);
    // sdsnew stops at a NUL, as Redis.
    reply.SimpleString(MapNewlines(std::string(s, std::strlen(s))));
    lua_pop(L, 1);
    return;
  }
  lua_pop(L, 1);
  if (RawField(L, "double") == LUA_TNUMBER) {
    reply.Double(lua_tonumber(L, -1));
    lua_pop(L, 1);
    return;
  }
  lua_pop(L, 1);
  if (RawField(L, "big_number") == LUA_TSTRING) {
    size_t len = 0;
    const char* s = lua_tolstring(L, -1, &len);
    const std::string num = MapNewlines(std::string(s, len));
    if (reply.protocol() >= 3) {
      out->Append("(");
      out->Append(num);
      out->Append("\r\n");
    } else {
      reply.Bulk(num);
    }
    lua_pop(L, 1);
    return;
  }
  lua_pop(L, 1);
  if (RawField(L, "verbatim_string") == LUA_TTABLE) {
    if (RawField(L, "format") == LUA_TSTRING) {
      const char* format = lua_tostring(L, -1);
      lua_pushstring(L, "string");
      lua_rawget(L, -3);
      if (lua_type(L, -1) == LUA_TSTRING) {
        size_t len = 0;
        const char* s = lua_tolstring(L, -1, &len);
        if (reply.protocol() >= 3) {
          char ext[3];
          for (int i = 0; i < 3; ++i) ext[i] = *format == '\0' ? ' ' : *format++;
          out->Append("=" + std::to_string(len + 4) + "\r\n");
          out->Append(std::string_view(ext, 3));
          out->Append(":");
          out->Append(std::string_view(s, len));
          out->Append("\r\n");
        } else {
          reply.Bulk(std::string_view(s, len));
        }
        lua_pop(L, 3);
        return;
      }
      lua_pop(L, 1);
    }
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
  if (RawField(L, "map") == LUA_TTABLE) {
    size_t n = 0;
    lua_pushnil(L);
    while (lua_next(L, -2)) {
      lua_pop(L, 1);
      ++n;
    }
    reply.MapHeader(n);
    lua_pushnil(L);
    while (lua_next(L, -2)) {
      lua_pushvalue(L, -2);
      WriteValue(L, script_protocol, reply);  // the key
      WriteValue(L, script_protocol, reply);  // the value
    }
    lua_pop(L, 1);
    return;
  }
  lua_pop(L, 1);
  if (RawField(L, "set") == LUA_TTABLE) {
    size_t n = 0;
    lua_pushnil(L);
    while (lua_next(L, -2)) {
      lua_pop(L, 1);
      ++n;
    }
    reply.SetHeader(n);
    lua_pushnil(L);
    while (lua_next(L, -2)) {
      lua_pop(L, 1);
      lua_pushvalue(L, -1);
      WriteValue(L, script_protocol, reply);
    }
    lua_pop(L, 1);
    return;
  }
  lua_pop(L, 1);
  // An array: the elements up to the first nil.
  size_t n = 0;
  for (;; ++n) {
    lua_rawgeti(L, -1, static_cast<int>(n + 1));
    const bool nil = lua_isnil(L, -1);
    lua_pop(L, 1);
    if (nil) break;
  }
  reply.ArrayHeader(n);
  for (size_t j = 1; j <= n; ++j) {
    lua_rawgeti(L, -1, static_cast<int>(j));
    WriteValue(L, script_protocol, reply);
  }
}

// Writes the value at the top and pops it.
void WriteValue(lua_State* L, int script_protocol, ReplyWriter& reply) {
  if (!lua_checkstack(L, 4)) {
    reply.Error("reached lua stack limit");
    lua_pop(L, 1);
    return;
  }
  switch (lua_type(L, -1)) {
    case LUA_TSTRING: {
      size_t len = 0;
      const char* s = lua_tolstring(L, -1, &len);
      reply.Bulk(std::string_view(s, len));
      break;
    }
    case LUA_TBOOLEAN:
      if (script_protocol == 2) {
        if (lua_toboolean(L, -1)) {
          reply.Integer(1);
        } else {
          reply.Null();
        }
      } else {
        reply.Bool(lua_toboolean(L, -1));
      }
      break;
    case LUA_TNUMBER:
      reply.Integer(TruncateToInteger(lua_tonumber(L, -1)));
      break;
    case LUA_TTABLE:
      WriteTable(L, script_protocol, reply);
      break;
    default:
      reply.Null();
  }
  lua_pop(L, 1);
}

}  // namespace

void PushLuaErrorTable(lua_State* L, std::string_view text) {
  std::string_view code = "ERR", msg = text;
  if (!text.empty() && text[0] == '-') {
    const size_t space = text.find(' ');
    if (space == std::string_view::npos) {
      msg = text.substr(1);
    } else {
      code = text.substr(1, space - 1);
      msg = text.substr(space + 1);
    }
  }
  while (!msg.empty() && (msg.front() == '\r' || msg.front() == '\n')) msg.remove_prefix(1);
  while (!msg.empty() && (msg.back() == '\r' || msg.back() == '\n')) msg.remove_suffix(1);
  lua_newtable(L);
  lua_pushstring(L, "err");
  luaL_Buffer b;
  luaL_buffinit(L, &b);
  luaL_addlstring(&b, code.data(), code.size());
  luaL_addchar(&b, ' ');
  luaL_addlstring(&b, msg.data(), msg.size());
  luaL_pushresult(&b);
  lua_settable(L, -3);
}

void PushRespAsLua(lua_State* L, std::string_view reply) { RespToLua(L, reply).Parse(); }

bool WriteLuaReply(lua_State* L, int script_protocol, ReplyWriter& reply) {
  bool counted = false;
  if (lua_istable(L, -1)) {
    lua_pushstring(L, "err");
    lua_rawget(L, -2);
    const bool is_error = lua_type(L, -1) == LUA_TSTRING;
    lua_pop(L, 1);
    if (is_error) {
      lua_getfield(L, -1, "ignore_error_stats_update");
      counted = lua_toboolean(L, -1);
      lua_pop(L, 1);
    }
  }
  WriteValue(L, script_protocol, reply);
  return counted;
}

bool WriteLuaError(lua_State* L, std::string_view funcname, ReplyWriter& reply) {
  if (!lua_istable(L, -1)) {
    std::string msg = "execution failure";
    if (lua_isstring(L, -1)) msg = lua_tostring(L, -1);
    if (msg.size() > 100) msg.resize(100);
    std::string text = "Error running script " + std::string(funcname) + ", " + msg;
    while (!text.empty() && (text.back() == '\r' || text.back() == '\n')) text.pop_back();
    reply.Error(MapNewlines(text));
    return false;
  }
  lua_getfield(L, -1, "err");
  std::string msg = lua_isstring(L, -1) ? lua_tostring(L, -1) : "";
  lua_pop(L, 1);
  lua_getfield(L, -1, "source");
  const bool has_source = lua_isstring(L, -1);
  const std::string source = has_source ? lua_tostring(L, -1) : "";
  lua_pop(L, 1);
  lua_getfield(L, -1, "line");
  const bool has_line = lua_isstring(L, -1);
  const std::string line = has_line ? lua_tostring(L, -1) : "";
  lua_pop(L, 1);
  lua_getfield(L, -1, "ignore_error_stats_update");
  const bool counted = lua_toboolean(L, -1);
  lua_pop(L, 1);
  std::string text = "-" + msg;
  if (has_source && has_line) {
    text += " script: " + std::string(funcname) + ", on " + source + ":" + line + ".";
  }
  reply.Error(text);
  return counted;
}

}  // namespace kv
