// The `cmsgpack` library Redis loads into its Lua (lua-cmsgpack 0.4.0), which Debian does not
// package: pack, unpack, unpack_one and unpack_limit with the same bytes and the same values.
// Numbers that are whole (and fit an int64) are packed as the smallest integer; others as a
// float when a float holds them exactly, else as a double. A table whose keys are exactly 1..n
// is an array, any other a map (in lua_next's order); tables nested 16 deep pack as nil.

#include "server/scripting/lua_cmsgpack.h"

#include <climits>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>

extern "C" {
#include <lauxlib.h>
#include <lua.h>
}

namespace kv {
namespace {

constexpr int kMaxNesting = 16;

bool IsInt64Equivalent(lua_Number n) {
  return !std::isinf(n) && n == n && n >= -9223372036854775808.0 && n < 9223372036854775808.0 &&
         static_cast<lua_Number>(static_cast<int64_t>(n)) == n;
}

void AppendBigEndian(std::string& out, uint64_t v, int bytes) {
  for (int i = bytes - 1; i >= 0; --i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

void EncodeInt(std::string& out, int64_t n) {
  if (n >= 0) {
    if (n <= 127) {
      out.push_back(static_cast<char>(n));
    } else if (n <= 0xff) {
      out.push_back(static_cast<char>(0xcc));
      AppendBigEndian(out, n, 1);
    } else if (n <= 0xffff) {
      out.push_back(static_cast<char>(0xcd));
      AppendBigEndian(out, n, 2);
    } else if (n <= 0xffffffffLL) {
      out.push_back(static_cast<char>(0xce));
      AppendBigEndian(out, n, 4);
    } else {
      out.push_back(static_cast<char>(0xcf));
      AppendBigEndian(out, n, 8);
    }
  } else if (n >= -32) {
    out.push_back(static_cast<char>(static_cast<signed char>(n)));
  } else if (n >= -128) {
    out.push_back(static_cast<char>(0xd0));
    AppendBigEndian(out, static_cast<uint64_t>(n), 1);
  } else if (n >= -32768) {
    out.push_back(static_cast<char>(0xd1));
    AppendBigEndian(out, static_cast<uint64_t>(n), 2);
  } else if (n >= -2147483648LL) {
    out.push_back(static_cast<char>(0xd2));
    AppendBigEndian(out, static_cast<uint64_t>(n), 4);
  } else {
    out.push_back(static_cast<char>(0xd3));
    AppendBigEndian(out, static_cast<uint64_t>(n), 8);
  }
}

void EncodeDouble(std::string& out, double d) {
  const float f = static_cast<float>(d);
  if (d == static_cast<double>(f)) {
    uint32_t bits;
    std::memcpy(&bits, &f, 4);
    out.push_back(static_cast<char>(0xca));
    AppendBigEndian(out, bits, 4);
  } else {
    uint64_t bits;
    std::memcpy(&bits, &d, 8);
    out.push_back(static_cast<char>(0xcb));
    AppendBigEndian(out, bits, 8);
  }
}

void EncodeLength(std::string& out, uint64_t n, unsigned char fix, unsigned fix_max,
                  unsigned char b16, unsigned char b32) {
  if (n <= fix_max) {
    out.push_back(static_cast<char>(fix | n));
  } else if (n <= 0xffff) {
    out.push_back(static_cast<char>(b16));
    AppendBigEndian(out, n, 2);
  } else {
    out.push_back(static_cast<char>(b32));
    AppendBigEndian(out, n, 4);
  }
}

void EncodeString(std::string& out, const char* s, size_t len) {
  if (len < 32) {
    out.push_back(static_cast<char>(0xa0 | len));
  } else if (len <= 0xff) {
    out.push_back(static_cast<char>(0xd9));
    AppendBigEndian(out, len, 1);
  } else if (len <= 0xffff) {
    out.push_back(static_cast<char>(0xda));
    AppendBigEndian(out, len, 2);
  } else {
    out.push_back(static_cast<char>(0xdb));
    AppendBigEndian(out, len, 4);
  }
  out.append(s, len);
}

// Keys exactly 1..n (whole positive numbers that fit an int, no hole).
bool TableIsArray(lua_State* L) {
  const int top = lua_gettop(L);
  luaL_checkstack(L, 2, "in function table_is_an_array");
  int count = 0, max = 0;
  lua_pushnil(L);
  while (lua_next(L, -2)) {
    lua_pop(L, 1);
    lua_Number n;
    if (lua_type(L, -1) != LUA_TNUMBER || (n = lua_tonumber(L, -1)) <= 0 || std::isinf(n) ||
        !(n < 2147483648.0) || static_cast<lua_Number>(static_cast<int>(n)) != n) {
      lua_settop(L, top);
      return false;
    }
    max = static_cast<int>(n) > max ? static_cast<int>(n) : max;
    ++count;
  }
  lua_settop(L, top);
  return max == count;
}

// Encodes the value at the top and pops it.
void Encode(lua_State* L, std::string& out, int level) {
  int t = lua_type(L, -1);
  if (t == LUA_TTABLE && level == kMaxNesting) t = LUA_TNIL;
  switch (t) {
    case LUA_TSTRING: {
      size_t len = 0;
      const char* s = lua_tolstring(L, -1, &len);
      EncodeString(out, s, len);
      break;
    }
    case LUA_TBOOLEAN:
      out.push_back(static_cast<char>(lua_toboolean(L, -1) ? 0xc3 : 0xc2));
      break;
    case LUA_TNUMBER: {
      const lua_Number n = lua_tonumber(L, -1);
      if (IsInt64Equivalent(n)) {
        EncodeInt(out, static_cast<int64_t>(n));
      } else {
        EncodeDouble(out, n);
      }
      break;
    }
    case LUA_TTABLE:
      if (TableIsArray(L)) {
        const size_t len = lua_objlen(L, -1);
        EncodeLength(out, len, 0x90, 15, 0xdc, 0xdd);
        luaL_checkstack(L, 1, "in function mp_encode_lua_table_as_array");
        for (size_t j = 1; j <= len; ++j) {
          lua_pushnumber(L, static_cast<lua_Number>(j));
          lua_gettable(L, -2);
          Encode(L, out, level + 1);
        }
      } else {
        luaL_checkstack(L, 3, "in function mp_encode_lua_table_as_map");
        size_t len = 0;
        lua_pushnil(L);
        while (lua_next(L, -2)) {
          lua_pop(L, 1);
          ++len;
        }
        EncodeLength(out, len, 0x80, 15, 0xde, 0xdf);
        lua_pushnil(L);
        while (lua_next(L, -2)) {
          lua_pushvalue(L, -2);
          Encode(L, out, level + 1);  // the key
          Encode(L, out, level + 1);  // the value
        }
      }
      break;
    default:
      out.push_back(static_cast<char>(0xc0));
  }
  lua_pop(L, 1);
}

int Pack(lua_State* L) {
  const int nargs = lua_gettop(L);
  if (nargs == 0) return luaL_argerror(L, 0, "MessagePack pack needs input.");
  if (!lua_checkstack(L, nargs)) {
    return luaL_argerror(L, 0, "Too many arguments for MessagePack pack.");
  }
  luaL_Buffer b;
  luaL_buffinit(L, &b);
  std::string out;
  for (int i = 1; i <= nargs; ++i) {
    out.clear();
    lua_pushvalue(L, i);
    Encode(L, out, 0);
    luaL_addlstring(&b, out.data(), out.size());
  }
  luaL_pushresult(&b);
  return 1;
}

enum class DecodeError { kNone, kEof, kBadFormat };

struct Cursor {
  const unsigned char* p;
  size_t left;
  DecodeError err = DecodeError::kNone;
  bool Need(size_t n) {
    if (left < n) {
      err = DecodeError::kEof;
      return false;
    }
    return true;
  }
  void Consume(size_t n) {
    p += n;
    left -= n;
  }
  uint64_t BigEndian(size_t at, int bytes) const {
    uint64_t v = 0;
    for (int i = 0; i < bytes; ++i) v = (v << 8) | p[at + i];
    return v;
  }
};

void Decode(lua_State* L, Cursor& c);

void DecodeArray(lua_State* L, Cursor& c, size_t len) {
  lua_newtable(L);
  luaL_checkstack(L, 1, "in function mp_decode_to_lua_array");
  for (size_t index = 1; index <= len; ++index) {
    lua_pushnumber(L, static_cast<lua_Number>(index));
    Decode(L, c);
    if (c.err != DecodeError::kNone) return;
    lua_settable(L, -3);
  }
}

void DecodeMap(lua_State* L, Cursor& c, size_t len) {
  lua_newtable(L);
  while (len--) {
    Decode(L, c);
    if (c.err != DecodeError::kNone) return;
    Decode(L, c);
    if (c.err != DecodeError::kNone) return;
    lua_settable(L, -3);
  }
}

void DecodeString(lua_State* L, Cursor& c, size_t header, size_t len) {
  if (!c.Need(header + len)) return;
  lua_pushlstring(L, reinterpret_cast<const char*>(c.p + header), len);
  c.Consume(header + len);
}

void Decode(lua_State* L, Cursor& c) {
  if (!c.Need(1)) return;
  luaL_checkstack(L, 1, "too many return values at once; use unpack_one or unpack_limit instead.");
  const unsigned char type = c.p[0];
  // Fixed-width numbers: their total size and how to read them.
  switch (type) {
    case 0xcc:
    case 0xcd:
    case 0xce:
    case 0xcf: {
      const int bytes = 1 << (type - 0xcc);
      if (!c.Need(1 + bytes)) return;
      lua_pushnumber(L, static_cast<lua_Number>(c.BigEndian(1, bytes)));
      c.Consume(1 + bytes);
      return;
    }
    case 0xd0:
    case 0xd1:
    case 0xd2:
    case 0xd3: {
      const int bytes = 1 << (type - 0xd0);
      if (!c.Need(1 + bytes)) return;
      const uint64_t raw = c.BigEndian(1, bytes);
      int64_t v = static_cast<int64_t>(raw);
      if (bytes < 8) {
        const int shift = 64 - 8 * bytes;
        v = static_cast<int64_t>(raw << shift) >> shift;  // sign-extend
      }
      lua_pushnumber(L, static_cast<lua_Number>(v));
      c.Consume(1 + bytes);
      return;
    }
    case 0xc0:
      lua_pushnil(L);
      c.Consume(1);
      return;
    case 0xc3:
    case 0xc2:
      lua_pushboolean(L, type == 0xc3);
      c.Consume(1);
      return;
    case 0xca: {
      if (!c.Need(5)) return;
      const uint32_t bits = static_cast<uint32_t>(c.BigEndian(1, 4));
      float f;
      std::memcpy(&f, &bits, 4);
      lua_pushnumber(L, f);
      c.Consume(5);
      return;
    }
    case 0xcb: {
      if (!c.Need(9)) return;
      const uint64_t bits = c.BigEndian(1, 8);
      double d;
      std::memcpy(&d, &bits, 8);
      lua_pushnumber(L, d);
      c.Consume(9);
      return;
    }
    case 0xd9:
      if (!c.Need(2)) return;
      return DecodeString(L, c, 2, c.p[1]);
    case 0xda:
      if (!c.Need(3)) return;
      return DecodeString(L, c, 3, c.BigEndian(1, 2));
    case 0xdb:
      if (!c.Need(5)) return;
      return DecodeString(L, c, 5, c.BigEndian(1, 4));
    case 0xdc:
    case 0xde: {
      if (!c.Need(3)) return;
      const size_t len = c.BigEndian(1, 2);
      c.Consume(3);
      return type == 0xdc ? DecodeArray(L, c, len) : DecodeMap(L, c, len);
    }
    case 0xdd:
    case 0xdf: {
      if (!c.Need(5)) return;
      const size_t len = c.BigEndian(1, 4);
      c.Consume(5);
      return type == 0xdd ? DecodeArray(L, c, len) : DecodeMap(L, c, len);
    }
    default:
      break;
  }
  if ((type & 0x80) == 0) {
    lua_pushnumber(L, type);
    c.Consume(1);
  } else if ((type & 0xe0) == 0xe0) {
    lua_pushnumber(L, static_cast<signed char>(type));
    c.Consume(1);
  } else if ((type & 0xe0) == 0xa0) {
    DecodeString(L, c, 1, type & 0x1f);
  } else if ((type & 0xf0) == 0x90) {
    c.Consume(1);
    DecodeArray(L, c, type & 0xf);
  } else if ((type & 0xf0) == 0x80) {
    c.Consume(1);
    DecodeMap(L, c, type & 0xf);
  } else {
    c.err = DecodeError::kBadFormat;
  }
}

int UnpackFull(lua_State* L, lua_Integer limit, lua_Integer offset) {
  size_t len = 0;
  const char* s = luaL_checklstring(L, 1, &len);
  const bool decode_all = limit == 0 && offset == 0;
  if (offset < 0 || limit < 0) {
    return luaL_error(L, "Invalid request to unpack with offset of %d and limit of %d.",
                      static_cast<int>(offset), static_cast<int>(len));
  }
  if (static_cast<size_t>(offset) > len) {
    return luaL_error(L, "Start offset %d greater than input length %d.", static_cast<int>(offset),
                      static_cast<int>(len));
  }
  if (decode_all) limit = INT_MAX;
  Cursor c{reinterpret_cast<const unsigned char*>(s) + offset, len - static_cast<size_t>(offset)};
  int count = 0;
  for (; c.left > 0 && count < limit; ++count) {
    Decode(L, c);
    if (c.err == DecodeError::kEof) return luaL_error(L, "Missing bytes in input.");
    if (c.err == DecodeError::kBadFormat) return luaL_error(L, "Bad data format in input.");
  }
  if (!decode_all) {
    luaL_checkstack(L, 1, "in function mp_unpack_full");
    lua_pushinteger(L, c.left == 0 ? -1 : static_cast<lua_Integer>(len - c.left));
    lua_insert(L, 2);
    ++count;
  }
  return count;
}

int Unpack(lua_State* L) { return UnpackFull(L, 0, 0); }

int UnpackOne(lua_State* L) {
  const lua_Integer offset = luaL_optinteger(L, 2, 0);
  lua_pop(L, lua_gettop(L) - 1);
  return UnpackFull(L, 1, offset);
}

int UnpackLimit(lua_State* L) {
  const lua_Integer limit = luaL_checkinteger(L, 2);
  const lua_Integer offset = luaL_optinteger(L, 3, 0);
  lua_pop(L, lua_gettop(L) - 1);
  return UnpackFull(L, limit, offset);
}

}  // namespace

int OpenCmsgpack(lua_State* L) {
  lua_newtable(L);
  const luaL_Reg functions[] = {
      {"pack", Pack}, {"unpack", Unpack}, {"unpack_one", UnpackOne}, {"unpack_limit", UnpackLimit}};
  for (const luaL_Reg& f : functions) {
    lua_pushcfunction(L, f.func);
    lua_setfield(L, -2, f.name);
  }
  lua_pushliteral(L, "cmsgpack");
  lua_setfield(L, -2, "_NAME");
  lua_pushliteral(L, "lua-cmsgpack 0.4.0");
  lua_setfield(L, -2, "_VERSION");
  lua_pushliteral(L, "Copyright (C) 2012, Salvatore Sanfilippo");
  lua_setfield(L, -2, "_COPYRIGHT");
  lua_pushliteral(L, "MessagePack C implementation for Lua");
  lua_setfield(L, -2, "_DESCRIPTION");
  return 1;
}

}  // namespace kv
