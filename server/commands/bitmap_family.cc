// Bitmaps: SETBIT, GETBIT, BITCOUNT, BITPOS, BITOP, BITFIELD and BITFIELD_RO, as Redis 7.0.15's
// bitops.c. Bit 0 is the most significant bit of the first byte. Strings are changed in place
// (grown with zero bytes when a write reaches past the end), as SETRANGE does.

#include <algorithm>
#include <bit>
#include <climits>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "protocol/number.h"
#include "server/command_registry.h"
#include "server/commands/families.h"
#include "server/commands/lookup.h"
#include "server/commands/zero_string.h"
#include "server/errors.h"
#include "server/strings.h"

namespace kv {
namespace {

constexpr std::string_view kBitOffsetError = "bit offset is not an integer or out of range";
constexpr std::string_view kBitValueError = "bit is not an integer or out of range";
constexpr std::string_view kBitfieldTypeError =
    "Invalid bitfield type. Use something like i16 u8. Note that u64 is not supported but i64 is.";

const uint8_t* Bytes(std::string_view s) { return reinterpret_cast<const uint8_t*>(s.data()); }

uint64_t LoadWord(const uint8_t* p) {
  uint64_t w;
  std::memcpy(&w, p, sizeof(w));
  return w;
}

// The number of set bits in p[0, n), a word at a time (with the popcnt instruction where the CPU
// has it: the default x86-64 target would call a library routine for every word).
__attribute__((target_clones("popcnt", "default"))) uint64_t Popcount(const uint8_t* p, size_t n) {
  uint64_t a = 0, b = 0, c = 0, d = 0;
  size_t i = 0;
  for (; i + 32 <= n; i += 32) {
    a += std::popcount(LoadWord(p + i));
    b += std::popcount(LoadWord(p + i + 8));
    c += std::popcount(LoadWord(p + i + 16));
    d += std::popcount(LoadWord(p + i + 24));
  }
  for (; i + 8 <= n; i += 8) a += std::popcount(LoadWord(p + i));
  for (; i < n; ++i) b += std::popcount(p[i]);
  return a + b + c + d;
}

// The first bit equal to `bit` in the whole bytes p[0, n), relative to p, or -1. Words that are
// all 0 (looking for a 1) or all 1 (looking for a 0) are skipped eight bytes at a time.
int64_t FindBitInBytes(const uint8_t* p, size_t n, int bit) {
  const uint64_t skip = bit ? 0 : ~uint64_t{0};
  size_t i = 0;
  while (i + 8 <= n && LoadWord(p + i) == skip) i += 8;
  for (; i < n; ++i) {
    const uint8_t byte = bit ? p[i] : static_cast<uint8_t>(~p[i]);
    if (byte != 0) return static_cast<int64_t>(i * 8 + std::countl_zero(byte));
  }
  return -1;
}

int BitAt(const uint8_t* p, uint64_t pos) { return (p[pos >> 3] >> (7 - (pos & 7))) & 1; }

// The first bit equal to `bit` among bits [first, last] of p, or -1.
int64_t FindBit(const uint8_t* p, uint64_t first, uint64_t last, int bit) {
  uint64_t pos = first;
  for (; pos <= last && (pos & 7) != 0; ++pos) {
    if (BitAt(p, pos) == bit) return static_cast<int64_t>(pos);
  }
  if (pos > last) return -1;
  const uint64_t whole_end = (last + 1) >> 3;  // bytes [pos/8, whole_end) lie wholly in range
  const int64_t found = FindBitInBytes(p + (pos >> 3), whole_end - (pos >> 3), bit);
  if (found >= 0) return static_cast<int64_t>(pos) + found;
  for (pos = whole_end * 8; pos <= last; ++pos) {
    if (BitAt(p, pos) == bit) return static_cast<int64_t>(pos);
  }
  return -1;
}

// Redis's getBitOffsetFromArgument: a bit offset, which must be a non-negative integer whose byte
// lies below proto-max-bulk-len. With `hash_bits` (BITFIELD), "#n" means n * hash_bits.
std::optional<uint64_t> BitOffsetOrReply(CommandContext& ctx, std::string_view arg,
                                         int hash_bits = 0) {
  const bool hash = hash_bits > 0 && !arg.empty() && arg[0] == '#';
  std::optional<int64_t> n = ParseInt64(hash ? arg.substr(1) : arg);
  if (n && hash) *n = static_cast<int64_t>(static_cast<uint64_t>(*n) * hash_bits);
  if (!n || *n < 0 || (*n >> 3) >= ctx.server.config.proto_max_bulk_len) {
    ctx.reply.Error(kBitOffsetError);
    return std::nullopt;
  }
  return static_cast<uint64_t>(*n);
}

// Whether a looked-up value (or its absence) can be read as a string; false after replying
// WRONGTYPE.
bool ReadableString(CommandContext& ctx, const Value* v) {
  if (v != nullptr && v->type() != ValueType::kString) {
    ctx.reply.Error(errors::kWrongType);
    return false;
  }
  return true;
}

// Redis's lookupStringForBitCommand: the string at args[1], created if missing and grown with
// zero bytes so that bit `max_bit` exists; nullptr after replying WRONGTYPE. `grown` tells
// whether it was created or grown: then every write counts as a change, as in Redis.
CompactString* StringForBitWrite(CommandContext& ctx, uint64_t max_bit, bool* grown) {
  bool inserted = false;
  Value& v = ctx.db().FindOrInsert(ctx.args[1], ctx.now_ms, &inserted);
  if (v.type() != ValueType::kString) {
    ctx.reply.Error(errors::kWrongType);
    return nullptr;
  }
  CompactString& s = v.mutable_str();
  const size_t bytes = static_cast<size_t>(max_bit >> 3) + 1;
  *grown = inserted || s.size() < bytes;
  // New bytes are zero; a new string is made at its length, an existing one grows with room to
  // spare (Redis's sdsnewlen and sdsgrowzero).
  if (inserted) {
    MakeZeroString(s, bytes);
  } else if (s.size() < bytes) {
    s.resize(bytes);
  }
  return &s;
}

// SETBIT key offset 0|1: the bit's old value.
void SetBit(CommandContext& ctx) {
  const std::optional<uint64_t> offset = BitOffsetOrReply(ctx, ctx.args[2]);
  if (!offset) return;
  const std::optional<int64_t> on = ParseInt64(ctx.args[3]);
  if (!on || (*on & ~int64_t{1}) != 0) return ctx.reply.Error(kBitValueError);
  bool grown = false;
  CompactString* s = StringForBitWrite(ctx, *offset, &grown);
  if (s == nullptr) return;
  char& byte = (*s)[*offset >> 3];
  const int shift = 7 - static_cast<int>(*offset & 7);
  const int old = (byte >> shift) & 1;
  byte = static_cast<char>((byte & ~(1 << shift)) | (*on << shift));
  if (grown || old != *on) {
    ctx.KeyModified(ctx.args[1]);
    ctx.Notify(kNotifyString, "setbit", ctx.args[1]);
    ctx.CountChanges();
  }
  ctx.reply.Integer(old);
}

// GETBIT key offset: 0 past the end of the string or for a missing key.
void GetBit(CommandContext& ctx) {
  const std::optional<uint64_t> offset = BitOffsetOrReply(ctx, ctx.args[2]);
  if (!offset) return;
  const Value* v = LookupRead(ctx, ctx.args[1]);
  if (!ReadableString(ctx, v)) return;
  if (v == nullptr || (*offset >> 3) >= v->str().size()) return ctx.reply.Integer(0);
  ctx.reply.Integer(BitAt(Bytes(v->str()), *offset));
}

// The range of bits [first, last] that BITCOUNT's or BITPOS's start/end select in a string of
// `len` bytes: indexes in bytes (or bits with BIT), negative ones from the end, clamped to the
// string. Empty when first > last.
struct BitRange {
  int64_t first;
  int64_t last;
};
BitRange ClampRange(int64_t start, int64_t end, int64_t len, bool in_bits) {
  const int64_t total = in_bits ? len * 8 : len;
  if (start >= 0 && end >= 0 && start > end) return {1, 0};
  if (start < 0) start += total;
  if (end < 0) end += total;
  if (start < 0) start = 0;
  if (end < 0) end = 0;
  if (end >= total) end = total - 1;
  if (start > end) return {1, 0};
  if (in_bits) return {start, end};
  return {start * 8, end * 8 + 7};
}

// The BYTE|BIT argument; nullopt after replying a syntax error.
std::optional<bool> UnitIsBitOrReply(CommandContext& ctx, std::string_view arg) {
  if (OptionIs(arg, "bit")) return true;
  if (OptionIs(arg, "byte")) return false;
  ctx.reply.Error(errors::kSyntax);
  return std::nullopt;
}

std::optional<int64_t> IntegerOrReply(CommandContext& ctx, std::string_view arg) {
  const std::optional<int64_t> n = ParseInt64(arg);
  if (!n) ctx.reply.Error(errors::kNotInteger);
  return n;
}

// BITCOUNT key [start end [BYTE|BIT]]: a missing key counts 0 before any argument is checked.
void BitCount(CommandContext& ctx) {
  const Value* v = LookupRead(ctx, ctx.args[1]);
  if (v == nullptr) return ctx.reply.Integer(0);
  if (!ReadableString(ctx, v)) return;
  const std::string_view s = v->str();
  const int64_t len = static_cast<int64_t>(s.size());
  BitRange range{0, len * 8 - 1};
  if (ctx.args.size() == 4 || ctx.args.size() == 5) {
    const std::optional<int64_t> start = IntegerOrReply(ctx, ctx.args[2]);
    if (!start) return;
    const std::optional<int64_t> end = IntegerOrReply(ctx, ctx.args[3]);
    if (!end) return;
    if (*start < 0 && *end < 0 && *start > *end) return ctx.reply.Integer(0);
    bool in_bits = false;
    if (ctx.args.size() == 5) {
      const std::optional<bool> unit = UnitIsBitOrReply(ctx, ctx.args[4]);
      if (!unit) return;
      in_bits = *unit;
    }
    range = ClampRange(*start, *end, len, in_bits);
  } else if (ctx.args.size() != 2) {
    return ctx.reply.Error(errors::kSyntax);
  }
  if (range.first > range.last) return ctx.reply.Integer(0);
  // Whole bytes, less the bits of the first and last byte that lie outside the range.
  const uint8_t* p = Bytes(s);
  const int64_t first_byte = range.first >> 3;
  const int64_t last_byte = range.last >> 3;
  uint64_t count = Popcount(p + first_byte, static_cast<size_t>(last_byte - first_byte + 1));
  count -= std::popcount(static_cast<uint8_t>(p[first_byte] >> (8 - (range.first & 7))));
  count -= std::popcount(static_cast<uint8_t>(p[last_byte] & ((1u << (7 - (range.last & 7))) - 1)));
  ctx.reply.Integer(static_cast<int64_t>(count));
}

// BITPOS key bit [start [end [BYTE|BIT]]]: the first bit set (or clear) in the range, -1 if none.
// Without an end, the string counts as followed by zeros, so the first clear bit of a string of
// ones is the one just past it.
void BitPos(CommandContext& ctx) {
  const std::optional<int64_t> bit = IntegerOrReply(ctx, ctx.args[2]);
  if (!bit) return;
  if (*bit != 0 && *bit != 1) return ctx.reply.Error("The bit argument must be 1 or 0.");
  const Value* v = LookupRead(ctx, ctx.args[1]);
  if (v == nullptr) return ctx.reply.Integer(*bit ? -1 : 0);
  if (!ReadableString(ctx, v)) return;
  const std::string_view s = v->str();
  const int64_t len = static_cast<int64_t>(s.size());
  const size_t argc = ctx.args.size();
  BitRange range{0, len * 8 - 1};
  bool end_given = false;
  if (argc >= 4 && argc <= 6) {
    const std::optional<int64_t> start = IntegerOrReply(ctx, ctx.args[3]);
    if (!start) return;
    bool in_bits = false;
    if (argc == 6) {
      const std::optional<bool> unit = UnitIsBitOrReply(ctx, ctx.args[5]);
      if (!unit) return;
      in_bits = *unit;
    }
    int64_t end = len - 1;
    if (argc >= 5) {
      const std::optional<int64_t> given = IntegerOrReply(ctx, ctx.args[4]);
      if (!given) return;
      end = *given;
      end_given = true;
    }
    range = ClampRange(*start, end, len, in_bits);
  } else if (argc != 3) {
    return ctx.reply.Error(errors::kSyntax);
  }
  if (range.first > range.last) return ctx.reply.Integer(-1);
  const int64_t pos = FindBit(Bytes(s), static_cast<uint64_t>(range.first),
                              static_cast<uint64_t>(range.last), static_cast<int>(*bit));
  if (pos < 0 && *bit == 0 && !end_given) return ctx.reply.Integer(range.last + 1);
  ctx.reply.Integer(pos);
}

enum class BitOp { kAnd, kOr, kXor, kNot };

// Applies `op` of `src` to the `dst_size` bytes at `dst` (a word at a time); bytes past src count
// as zero.
void Combine(BitOp op, char* dst, size_t dst_size, std::string_view src) {
  uint8_t* d = reinterpret_cast<uint8_t*>(dst);
  const uint8_t* s = reinterpret_cast<const uint8_t*>(src.data());
  const size_t n = src.size();
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    uint64_t a = LoadWord(d + i);
    const uint64_t b = LoadWord(s + i);
    a = op == BitOp::kAnd ? (a & b) : op == BitOp::kOr ? (a | b) : (a ^ b);
    std::memcpy(d + i, &a, sizeof(a));
  }
  for (; i < n; ++i) {
    d[i] = op == BitOp::kAnd ? (d[i] & s[i]) : op == BitOp::kOr ? (d[i] | s[i]) : (d[i] ^ s[i]);
  }
  if (op == BitOp::kAnd && n < dst_size) std::memset(d + n, 0, dst_size - n);
}

// BITOP AND|OR|XOR|NOT destkey key [key ...]: stores the result (as long as the longest source,
// shorter ones padded with zeros) at destkey without a TTL, or deletes destkey when every source
// is empty or missing; replies the result's length.
void BitOpCommand(CommandContext& ctx) {
  const std::string_view name = ctx.args[1];
  BitOp op;
  if (OptionIs(name, "and")) {
    op = BitOp::kAnd;
  } else if (OptionIs(name, "or")) {
    op = BitOp::kOr;
  } else if (OptionIs(name, "xor")) {
    op = BitOp::kXor;
  } else if (OptionIs(name, "not")) {
    op = BitOp::kNot;
  } else {
    return ctx.reply.Error(errors::kSyntax);
  }
  if (op == BitOp::kNot && ctx.args.size() != 4) {
    return ctx.reply.Error("BITOP NOT must be called with a single source key.");
  }
  const auto sources = ctx.args.subspan(3);
  // Every source is looked up (expiring the dead ones) before any value is used, so that no
  // deletion happens while views into the keyspace are held.
  for (std::string_view key : sources) {
    if (!ReadableString(ctx, LookupRead(ctx, key))) return;
  }
  Db& db = ctx.db();
  std::vector<std::string_view> values;
  values.reserve(sources.size());
  size_t max_len = 0;
  for (std::string_view key : sources) {
    const Value* v = db.Peek(key, ctx.now_ms);
    values.push_back(v != nullptr ? std::string_view(v->str()) : std::string_view());
    max_len = std::max(max_len, values.back().size());
  }
  if (max_len == 0) {
    if (db.Delete(ctx.args[2], ctx.now_ms)) {
      ctx.KeyModified(ctx.args[2]);
      ctx.Notify(kNotifyGeneric, "del", ctx.args[2]);
      ctx.CountChanges();
    }
    return ctx.reply.Integer(0);
  }
  DetachedValue result;
  result.changed_in_place = true;  // Redis stores BITOP's result as "raw"
  CompactString& out = result.str;
  out.resize(max_len);  // zeros past the first source
  char* d = out.data();
  if (!values[0].empty()) std::memcpy(d, values[0].data(), values[0].size());
  if (op == BitOp::kNot) {
    for (size_t i = 0; i < max_len; ++i) d[i] = static_cast<char>(~d[i]);
  } else {
    for (size_t i = 1; i < values.size(); ++i) Combine(op, d, max_len, values[i]);
  }
  db.Put(ctx.args[2], std::move(result), kNoExpiry);
  ctx.KeyModified(ctx.args[2]);
  ctx.Notify(kNotifyString, "set", ctx.args[2]);
  ctx.CountChanges();
  ctx.reply.Integer(static_cast<int64_t>(max_len));
}

// BITFIELD's integers: `bits` wide at bit `offset`, most significant bit first. Bytes past the
// end of `s` read as zero.
uint64_t GetUnsigned(std::string_view s, uint64_t offset, int bits) {
  uint64_t value = 0;
  for (int j = 0; j < bits; ++j, ++offset) {
    const uint64_t byte = offset >> 3;
    const uint64_t bit =
        byte < s.size() ? (static_cast<uint8_t>(s[byte]) >> (7 - (offset & 7))) & 1 : 0;
    value = (value << 1) | bit;
  }
  return value;
}

int64_t GetSigned(std::string_view s, uint64_t offset, int bits) {
  uint64_t value = GetUnsigned(s, offset, bits);
  if (bits < 64 && (value & (uint64_t{1} << (bits - 1)))) value |= ~uint64_t{0} << bits;
  return static_cast<int64_t>(value);
}

void SetBits(CompactString& s, uint64_t offset, int bits, uint64_t value) {
  for (int j = 0; j < bits; ++j, ++offset) {
    const int bit = (value >> (bits - 1 - j)) & 1;
    const int shift = 7 - static_cast<int>(offset & 7);
    char& byte = s[offset >> 3];
    byte = static_cast<char>((byte & ~(1 << shift)) | (bit << shift));
  }
}

enum class Overflow { kWrap, kSat, kFail };

// Redis's checkUnsignedBitfieldOverflow: whether `value` + `incr` leaves the range of a `bits`
// wide unsigned integer, and if so (except with FAIL) the value to store instead in `*limit`.
bool UnsignedOverflows(uint64_t value, int64_t incr, int bits, Overflow ow, uint64_t* limit) {
  const uint64_t max = (uint64_t{1} << bits) - 1;  // bits <= 63
  const int64_t max_incr = static_cast<int64_t>(max - value);
  const int64_t min_incr = static_cast<int64_t>(-value);
  const bool over = value > max || (incr > 0 && incr > max_incr);
  const bool under = !over && incr < 0 && incr < min_incr;
  if (!over && !under) return false;
  if (ow == Overflow::kWrap) {
    *limit = (value + static_cast<uint64_t>(incr)) & max;
  } else if (ow == Overflow::kSat) {
    *limit = over ? max : 0;
  }
  return true;
}

// Redis's checkSignedBitfieldOverflow, with its unsigned arithmetic for the increments.
bool SignedOverflows(int64_t value, int64_t incr, int bits, Overflow ow, int64_t* limit) {
  const int64_t max = bits == 64 ? INT64_MAX : (int64_t{1} << (bits - 1)) - 1;
  const int64_t min = -max - 1;
  const int64_t max_incr = static_cast<int64_t>(static_cast<uint64_t>(max) - value);
  const int64_t min_incr = static_cast<int64_t>(static_cast<uint64_t>(min) - value);
  const bool over =
      value > max || (bits != 64 && incr > max_incr) || (value >= 0 && incr > 0 && incr > max_incr);
  const bool under = !over && (value < min || (bits != 64 && incr < min_incr) ||
                               (value < 0 && incr < 0 && incr < min_incr));
  if (!over && !under) return false;
  if (ow == Overflow::kWrap) {
    uint64_t c = static_cast<uint64_t>(value) + static_cast<uint64_t>(incr);
    if (bits < 64) {
      const uint64_t mask = ~uint64_t{0} << bits;
      c = (c & (uint64_t{1} << (bits - 1))) ? (c | mask) : (c & ~mask);
    }
    *limit = static_cast<int64_t>(c);
  } else if (ow == Overflow::kSat) {
    *limit = over ? max : min;
  }
  return true;
}

// Redis's getBitfieldTypeFromArgument: i1..i64 or u1..u63 (read as a C string).
bool BitfieldTypeOrReply(CommandContext& ctx, std::string_view arg, bool* is_signed, int* bits) {
  if (arg.empty() || (arg[0] != 'i' && arg[0] != 'u')) {
    ctx.reply.Error(kBitfieldTypeError);
    return false;
  }
  *is_signed = arg[0] == 'i';
  std::string_view digits = arg.substr(1);
  digits = digits.substr(0, digits.find('\0'));
  const std::optional<int64_t> n = ParseInt64(digits);
  if (!n || *n < 1 || *n > (*is_signed ? 64 : 63)) {
    ctx.reply.Error(kBitfieldTypeError);
    return false;
  }
  *bits = static_cast<int>(*n);
  return true;
}

struct BitfieldOp {
  enum Kind { kGet, kSet, kIncrBy } kind;
  uint64_t offset;
  int64_t value;  // SET's value or INCRBY's increment
  Overflow overflow;
  int bits;
  bool is_signed;
};

// One SET or INCRBY on `s`: replies the old value (SET) or the new one (INCRBY), or nil when the
// result overflows under OVERFLOW FAIL (nothing is written then). Returns whether it counts as a
// change, as in Redis: it wrote, and the value changed or the string was just created or `grown`.
bool RunBitfieldWrite(CommandContext& ctx, CompactString& s, const BitfieldOp& op, bool grown) {
  const bool incr = op.kind == BitfieldOp::kIncrBy;
  if (op.is_signed) {
    const int64_t old = GetSigned(s, op.offset, op.bits);
    int64_t limit = 0;
    const int64_t target =
        incr ? static_cast<int64_t>(static_cast<uint64_t>(old) + op.value) : op.value;
    const bool overflow = incr ? SignedOverflows(old, op.value, op.bits, op.overflow, &limit)
                               : SignedOverflows(op.value, 0, op.bits, op.overflow, &limit);
    if (overflow && op.overflow == Overflow::kFail) {
      ctx.reply.Null();
      return false;
    }
    const int64_t stored = overflow ? limit : target;
    ctx.reply.Integer(incr ? stored : old);
    SetBits(s, op.offset, op.bits, static_cast<uint64_t>(stored));
    return grown || stored != old;
  } else {
    const uint64_t old = GetUnsigned(s, op.offset, op.bits);
    uint64_t limit = 0;
    const uint64_t target =
        incr ? old + static_cast<uint64_t>(op.value) : static_cast<uint64_t>(op.value);
    const bool overflow =
        incr ? UnsignedOverflows(old, op.value, op.bits, op.overflow, &limit)
             : UnsignedOverflows(static_cast<uint64_t>(op.value), 0, op.bits, op.overflow, &limit);
    if (overflow && op.overflow == Overflow::kFail) {
      ctx.reply.Null();
      return false;
    }
    const uint64_t stored = overflow ? limit : target;
    ctx.reply.Integer(static_cast<int64_t>(incr ? stored : old));
    SetBits(s, op.offset, op.bits, stored);
    return grown || stored != old;
  }
}

// BITFIELD key [GET type offset] [SET type offset value] [INCRBY type offset increment]
// [OVERFLOW WRAP|SAT|FAIL] ...: every operation is parsed before any runs; the reply is an array
// with one entry per GET/SET/INCRBY. BITFIELD_RO accepts only GET.
void BitfieldGeneric(CommandContext& ctx, bool read_only_command) {
  std::vector<BitfieldOp> ops;
  Overflow overflow = Overflow::kWrap;
  bool writes = false;
  uint64_t highest_write_bit = 0;
  const size_t argc = ctx.args.size();
  for (size_t j = 2; j < argc; ++j) {
    const size_t remaining = argc - j - 1;
    const std::string_view sub = ctx.args[j];
    BitfieldOp op{};
    if (OptionIs(sub, "get") && remaining >= 2) {
      op.kind = BitfieldOp::kGet;
    } else if (OptionIs(sub, "set") && remaining >= 3) {
      op.kind = BitfieldOp::kSet;
    } else if (OptionIs(sub, "incrby") && remaining >= 3) {
      op.kind = BitfieldOp::kIncrBy;
    } else if (OptionIs(sub, "overflow") && remaining >= 1) {
      const std::string_view type = ctx.args[++j];
      if (OptionIs(type, "wrap")) {
        overflow = Overflow::kWrap;
      } else if (OptionIs(type, "sat")) {
        overflow = Overflow::kSat;
      } else if (OptionIs(type, "fail")) {
        overflow = Overflow::kFail;
      } else {
        return ctx.reply.Error("Invalid OVERFLOW type specified");
      }
      continue;
    } else {
      return ctx.reply.Error(errors::kSyntax);
    }
    if (!BitfieldTypeOrReply(ctx, ctx.args[j + 1], &op.is_signed, &op.bits)) return;
    const std::optional<uint64_t> offset = BitOffsetOrReply(ctx, ctx.args[j + 2], op.bits);
    if (!offset) return;
    op.offset = *offset;
    op.overflow = overflow;
    if (op.kind != BitfieldOp::kGet) {
      writes = true;
      highest_write_bit = std::max(highest_write_bit, op.offset + op.bits - 1);
      const std::optional<int64_t> value = IntegerOrReply(ctx, ctx.args[j + 3]);
      if (!value) return;
      op.value = *value;
    }
    ops.push_back(op);
    j += op.kind == BitfieldOp::kGet ? 2 : 3;
  }

  CompactString* target = nullptr;
  bool grown = false;
  std::string_view readable;
  if (!writes) {
    const Value* v = LookupRead(ctx, ctx.args[1]);
    if (!ReadableString(ctx, v)) return;
    if (v != nullptr) readable = v->str();
  } else {
    if (read_only_command) {
      return ctx.reply.Error("BITFIELD_RO only supports the GET subcommand");
    }
    target = StringForBitWrite(ctx, highest_write_bit, &grown);
    if (target == nullptr) return;
  }

  ctx.reply.ArrayHeader(ops.size());
  uint64_t changes = 0;
  for (const BitfieldOp& op : ops) {
    if (op.kind != BitfieldOp::kGet) {
      changes += RunBitfieldWrite(ctx, *target, op, grown);
      continue;
    }
    const std::string_view s = target != nullptr ? std::string_view(*target) : readable;
    if (op.is_signed) {
      ctx.reply.Integer(GetSigned(s, op.offset, op.bits));
    } else {
      ctx.reply.Integer(static_cast<int64_t>(GetUnsigned(s, op.offset, op.bits)));
    }
  }
  if (changes != 0) {
    ctx.KeyModified(ctx.args[1]);
    ctx.Notify(kNotifyString, "setbit", ctx.args[1]);
    ctx.CountChanges(changes);
  }
}

void Bitfield(CommandContext& ctx) { BitfieldGeneric(ctx, false); }
void BitfieldRo(CommandContext& ctx) { BitfieldGeneric(ctx, true); }

constexpr uint32_t kWrite = kCmdWrite | kCmdDenyOom;

}  // namespace

void RegisterBitmapFamily(CommandRegistry& r) {
  // name, arity, flags, first key, last key, step, handler, group, summary, since, ACL categories
  r.Register({"setbit", 4, kWrite, 1, 1, 1, SetBit, "bitmap",
              "Sets or clears the bit at offset in the string value stored at key", "2.2.0",
              "@write @bitmap @slow"});
  r.Register({"getbit", 3, kCmdReadOnly | kCmdFast, 1, 1, 1, GetBit, "bitmap",
              "Returns the bit value at offset in the string value stored at key", "2.2.0",
              "@read @bitmap @fast"});
  r.Register({"bitcount", -2, kCmdReadOnly, 1, 1, 1, BitCount, "bitmap",
              "Count set bits in a string", "2.6.0", "@read @bitmap @slow"});
  r.Register({"bitpos", -3, kCmdReadOnly, 1, 1, 1, BitPos, "bitmap",
              "Find first bit set or clear in a string", "2.8.7", "@read @bitmap @slow"});
  r.Register({"bitop", -4, kWrite, 2, -1, 1, BitOpCommand, "bitmap",
              "Perform bitwise operations between strings", "2.6.0", "@write @bitmap @slow"});
  r.Register({"bitfield", -2, kWrite, 1, 1, 1, Bitfield, "bitmap",
              "Perform arbitrary bitfield integer operations on strings", "3.2.0",
              "@write @bitmap @slow"});
  r.Register({"bitfield_ro", -2, kCmdReadOnly | kCmdFast, 1, 1, 1, BitfieldRo, "bitmap",
              "Perform arbitrary bitfield integer operations on strings. Read-only variant of "
              "BITFIELD",
              "6.0.0", "@read @bitmap @fast"});
}

}  // namespace kv
