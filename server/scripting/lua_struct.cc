// The `struct` library Redis loads into its Lua (Roberto Ierusalimschy's struct, as Redis ships
// it), which Debian does not package: struct.pack, struct.unpack and struct.size with the same
// format language, bytes and errors, on x86-64 (long is 8 bytes, the maximum alignment 8).

#include "server/scripting/lua_struct.h"

#include <cctype>
#include <climits>
#include <cstdint>
#include <cstring>

extern "C" {
#include <lauxlib.h>
#include <lua.h>
}

namespace kv {
namespace {

using Inttype = long;
using Uinttype = unsigned long;
constexpr int kMaxIntSize = 32;
constexpr int kMaxAlign = 8;
enum Endian { kBig = 0, kLittle = 1 };
constexpr int kNativeEndian = kLittle;

struct Header {
  int endian = kNativeEndian;
  int align = 1;
};

bool IsPowerOf2(int x) { return x > 0 && (x & (x - 1)) == 0; }

int GetNum(lua_State* L, const char** fmt, int df) {
  if (!std::isdigit(static_cast<unsigned char>(**fmt))) return df;
  int a = 0;
  do {
    if (a > (INT_MAX / 10) || a * 10 > (INT_MAX - (**fmt - '0'))) {
      luaL_error(L, "integral size overflow");
    }
    a = a * 10 + *((*fmt)++) - '0';
  } while (std::isdigit(static_cast<unsigned char>(**fmt)));
  return a;
}

size_t OptSize(lua_State* L, char opt, const char** fmt) {
  switch (opt) {
    case 'B':
    case 'b':
      return sizeof(char);
    case 'H':
    case 'h':
      return sizeof(short);
    case 'L':
    case 'l':
      return sizeof(long);
    case 'T':
      return sizeof(size_t);
    case 'f':
      return sizeof(float);
    case 'd':
      return sizeof(double);
    case 'x':
      return 1;
    case 'c':
      return GetNum(L, fmt, 1);
    case 'i':
    case 'I': {
      const int sz = GetNum(L, fmt, sizeof(int));
      if (sz > kMaxIntSize) {
        luaL_error(L, "integral size %d is larger than limit of %d", sz, kMaxIntSize);
      }
      return sz;
    }
    default:
      return 0;
  }
}

int GetToAlign(size_t len, const Header& h, int opt, size_t size) {
  if (size == 0 || opt == 'c') return 0;
  if (size > static_cast<size_t>(h.align)) size = h.align;
  return static_cast<int>((size - (len & (size - 1))) & (size - 1));
}

void ControlOptions(lua_State* L, int opt, const char** fmt, Header& h) {
  switch (opt) {
    case ' ':
      return;
    case '>':
      h.endian = kBig;
      return;
    case '<':
      h.endian = kLittle;
      return;
    case '!': {
      const int a = GetNum(L, fmt, kMaxAlign);
      if (!IsPowerOf2(a)) luaL_error(L, "alignment %d is not a power of 2", a);
      h.align = a;
      return;
    }
    default: {
      const char* msg = lua_pushfstring(L, "invalid format option '%c'", opt);
      luaL_argerror(L, 1, msg);
    }
  }
}

void PutInteger(lua_State* L, luaL_Buffer* b, int arg, int endian, int size) {
  const lua_Number n = luaL_checknumber(L, arg);
  Uinttype value =
      n < 0 ? static_cast<Uinttype>(static_cast<Inttype>(n)) : static_cast<Uinttype>(n);
  char buff[kMaxIntSize];
  if (endian == kLittle) {
    for (int i = 0; i < size; i++) {
      buff[i] = static_cast<char>(value & 0xff);
      value >>= 8;
    }
  } else {
    for (int i = size - 1; i >= 0; i--) {
      buff[i] = static_cast<char>(value & 0xff);
      value >>= 8;
    }
  }
  luaL_addlstring(b, buff, size);
}

void CorrectBytes(char* b, int size, int endian) {
  if (endian == kNativeEndian) return;
  int i = 0;
  while (i < --size) {
    const char temp = b[i];
    b[i++] = b[size];
    b[size] = temp;
  }
}

int Pack(lua_State* L) {
  luaL_Buffer b;
  const char* fmt = luaL_checkstring(L, 1);
  Header h;
  int arg = 2;
  size_t totalsize = 0;
  lua_pushnil(L);  // separates the arguments from the buffer's stack use
  luaL_buffinit(L, &b);
  while (*fmt != '\0') {
    const int opt = *fmt++;
    size_t size = OptSize(L, static_cast<char>(opt), &fmt);
    int toalign = GetToAlign(totalsize, h, opt, size);
    totalsize += toalign;
    while (toalign-- > 0) luaL_addchar(&b, '\0');
    switch (opt) {
      case 'b':
      case 'B':
      case 'h':
      case 'H':
      case 'l':
      case 'L':
      case 'T':
      case 'i':
      case 'I':
        PutInteger(L, &b, arg++, h.endian, static_cast<int>(size));
        break;
      case 'x':
        luaL_addchar(&b, '\0');
        break;
      case 'f': {
        float f = static_cast<float>(luaL_checknumber(L, arg++));
        CorrectBytes(reinterpret_cast<char*>(&f), static_cast<int>(size), h.endian);
        luaL_addlstring(&b, reinterpret_cast<char*>(&f), size);
        break;
      }
      case 'd': {
        double d = luaL_checknumber(L, arg++);
        CorrectBytes(reinterpret_cast<char*>(&d), static_cast<int>(size), h.endian);
        luaL_addlstring(&b, reinterpret_cast<char*>(&d), size);
        break;
      }
      case 'c':
      case 's': {
        size_t l = 0;
        const char* s = luaL_checklstring(L, arg++, &l);
        if (size == 0) size = l;
        luaL_argcheck(L, l >= size, arg, "string too short");
        luaL_addlstring(&b, s, size);
        if (opt == 's') {
          luaL_addchar(&b, '\0');
          size++;
        }
        break;
      }
      default:
        ControlOptions(L, opt, &fmt, h);
    }
    totalsize += size;
  }
  luaL_pushresult(&b);
  return 1;
}

lua_Number GetInteger(const char* buff, int endian, bool is_signed, int size) {
  Uinttype l = 0;
  if (endian == kBig) {
    for (int i = 0; i < size; i++) {
      l <<= 8;
      l |= static_cast<Uinttype>(static_cast<unsigned char>(buff[i]));
    }
  } else {
    for (int i = size - 1; i >= 0; i--) {
      l <<= 8;
      l |= static_cast<Uinttype>(static_cast<unsigned char>(buff[i]));
    }
  }
  if (!is_signed) return static_cast<lua_Number>(l);
  // x86-64 takes a shift count modulo 64, which is what Redis's build does for sizes over 8.
  const Uinttype mask = ~Uinttype{0} << ((size * 8 - 1) & 63);
  if (l & mask) l |= mask;
  return static_cast<lua_Number>(static_cast<Inttype>(l));
}

int Unpack(lua_State* L) {
  Header h;
  const char* fmt = luaL_checkstring(L, 1);
  size_t ld = 0;
  const char* data = luaL_checklstring(L, 2, &ld);
  size_t pos = static_cast<size_t>(luaL_optinteger(L, 3, 1));
  luaL_argcheck(L, pos > 0, 3, "offset must be 1 or greater");
  pos--;
  int n = 0;
  while (*fmt) {
    const int opt = *fmt++;
    size_t size = OptSize(L, static_cast<char>(opt), &fmt);
    pos += GetToAlign(pos, h, opt, size);
    luaL_argcheck(L, size <= ld && pos <= ld - size, 2, "data string too short");
    luaL_checkstack(L, 2, "too many results");
    switch (opt) {
      case 'b':
      case 'B':
      case 'h':
      case 'H':
      case 'l':
      case 'L':
      case 'T':
      case 'i':
      case 'I': {
        const bool is_signed = std::islower(opt);
        lua_pushnumber(L, GetInteger(data + pos, h.endian, is_signed, static_cast<int>(size)));
        n++;
        break;
      }
      case 'x':
        break;
      case 'f': {
        float f;
        std::memcpy(&f, data + pos, size);
        CorrectBytes(reinterpret_cast<char*>(&f), sizeof(f), h.endian);
        lua_pushnumber(L, f);
        n++;
        break;
      }
      case 'd': {
        double d;
        std::memcpy(&d, data + pos, size);
        CorrectBytes(reinterpret_cast<char*>(&d), sizeof(d), h.endian);
        lua_pushnumber(L, d);
        n++;
        break;
      }
      case 'c': {
        if (size == 0) {
          if (n == 0 || !lua_isnumber(L, -1)) luaL_error(L, "format 'c0' needs a previous size");
          size = static_cast<size_t>(lua_tonumber(L, -1));
          lua_pop(L, 1);
          n--;
          luaL_argcheck(L, size <= ld && pos <= ld - size, 2, "data string too short");
        }
        lua_pushlstring(L, data + pos, size);
        n++;
        break;
      }
      case 's': {
        const char* e = static_cast<const char*>(std::memchr(data + pos, '\0', ld - pos));
        if (e == nullptr) luaL_error(L, "unfinished string in data");
        size = static_cast<size_t>(e - (data + pos)) + 1;
        lua_pushlstring(L, data + pos, size - 1);
        n++;
        break;
      }
      default:
        ControlOptions(L, opt, &fmt, h);
    }
    pos += size;
  }
  lua_pushinteger(L, static_cast<lua_Integer>(pos + 1));
  return n + 1;
}

int Size(lua_State* L) {
  Header h;
  const char* fmt = luaL_checkstring(L, 1);
  size_t pos = 0;
  while (*fmt) {
    const int opt = *fmt++;
    const size_t size = OptSize(L, static_cast<char>(opt), &fmt);
    pos += GetToAlign(pos, h, opt, size);
    if (opt == 's') {
      luaL_argerror(L, 1, "option 's' has no fixed size");
    } else if (opt == 'c' && size == 0) {
      luaL_argerror(L, 1, "option 'c0' has no fixed size");
    }
    if (!std::isalnum(opt)) ControlOptions(L, opt, &fmt, h);
    pos += size;
  }
  lua_pushinteger(L, static_cast<lua_Integer>(pos));
  return 1;
}

}  // namespace

int OpenStruct(lua_State* L) {
  lua_newtable(L);
  lua_pushcfunction(L, Pack);
  lua_setfield(L, -2, "pack");
  lua_pushcfunction(L, Unpack);
  lua_setfield(L, -2, "unpack");
  lua_pushcfunction(L, Size);
  lua_setfield(L, -2, "size");
  return 1;
}

}  // namespace kv
