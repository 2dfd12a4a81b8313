#include "storage/hyperloglog.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <functional>
#include <string>

namespace kv::hll {
namespace {

constexpr int kP = 14;
constexpr int kQ = 64 - kP;
constexpr uint64_t kPMask = kRegisters - 1;
constexpr int kBits = 6;
constexpr uint8_t kRegisterMax = (1 << kBits) - 1;
constexpr double kAlphaInf = 0.721347520444481703680;  // 0.5 / ln(2)

// Sparse opcodes: 00xxxxxx ZERO (1..64), 01xxxxxx xxxxxxxx XZERO (1..16384), 1vvvvvxx VAL
// (value 1..32, run 1..4).
constexpr uint8_t kXZeroBit = 0x40;
constexpr uint8_t kValBit = 0x80;
constexpr int kValMaxValue = 32;
constexpr int kValMaxLen = 4;
constexpr int kZeroMaxLen = 64;
constexpr int kXZeroMaxLen = 16384;

inline bool IsZero(const uint8_t* p) { return (*p & 0xc0) == 0; }
inline bool IsXZero(const uint8_t* p) { return (*p & 0xc0) == kXZeroBit; }
inline bool IsVal(const uint8_t* p) { return (*p & kValBit) != 0; }
inline int ZeroLen(const uint8_t* p) { return (*p & 0x3f) + 1; }
// An XZERO opcode in the string's last byte (only in a corrupted HLL) takes its second byte from
// past the string's end, where Redis keeps its sds terminator: `tail` (see TailByte).
inline int XZeroLen(const uint8_t* p, const uint8_t* end, uint8_t tail) {
  return (((*p & 0x3f) << 8) | (p + 1 < end ? p[1] : tail)) + 1;
}

// The byte Redis holds past a string's end. It is the NUL terminator of every sds, except after
// hllSparseSet split an XZERO cut short by the string's end: the new sequence is one byte longer
// than the string grows, and its last byte lands past the new end, where the next command reads it
// back as that opcode's second byte. The few such bytes live here, each for one string (its block,
// size and bytes past the header, so that any other change to the string, which gives Redis's
// string its NUL again, drops it). Only corrupted HLLs ever have one.
struct TailRecord {
  const char* data;
  size_t size;
  size_t body_hash;
  uint8_t byte;
};
constexpr size_t kMaxTails = 8;
thread_local std::array<TailRecord, kMaxTails> tails;
thread_local size_t tail_count = 0;

size_t BodyHash(std::string_view s) {
  return std::hash<std::string_view>{}(s.size() > kHeaderSize ? s.substr(kHeaderSize) : "");
}

void DropTail(size_t i) {
  tails[i] = tails[tail_count - 1];
  --tail_count;
}

uint8_t TailByte(std::string_view s) {
  for (size_t i = 0; i < tail_count; ++i) {
    if (tails[i].data != s.data() || tails[i].size != s.size()) continue;
    if (tails[i].body_hash == BodyHash(s)) return tails[i].byte;
    DropTail(i);
    break;
  }
  return 0;
}

// Records `byte` past the end of `s` (0: the NUL, nothing to keep), forgetting what was recorded
// for `s` before, and for `old_data` (the string's block before it moved).
void SetTailByte(std::string_view s, const char* old_data, uint8_t byte) {
  for (size_t i = 0; i < tail_count;) {
    if (tails[i].data == s.data() || tails[i].data == old_data) {
      DropTail(i);
    } else {
      ++i;
    }
  }
  if (byte == 0) return;
  if (tail_count == kMaxTails) DropTail(0);
  tails[tail_count++] = TailRecord{s.data(), s.size(), BodyHash(s), byte};
}
inline int ValValue(const uint8_t* p) { return ((*p >> 2) & 0x1f) + 1; }
inline int ValLen(const uint8_t* p) { return (*p & 0x3) + 1; }
inline void ValSet(uint8_t* p, int val, int len) {
  *p = static_cast<uint8_t>(((val - 1) << 2 | (len - 1)) | kValBit);
}
inline void ZeroSet(uint8_t* p, int len) { *p = static_cast<uint8_t>(len - 1); }
inline void XZeroSet(uint8_t* p, int len) {
  const int l = len - 1;
  p[0] = static_cast<uint8_t>((l >> 8) | kXZeroBit);
  p[1] = static_cast<uint8_t>(l & 0xff);
}

inline const uint8_t* Bytes(std::string_view s) {
  return reinterpret_cast<const uint8_t*>(s.data());
}
inline uint8_t* Bytes(CompactString& s) { return reinterpret_cast<uint8_t*>(s.data()); }

// Ertl's sigma and tau ("New cardinality estimation algorithms for HyperLogLog sketches").
double Sigma(double x) {
  if (x == 1.) return INFINITY;
  double z_prime;
  double y = 1;
  double z = x;
  do {
    x *= x;
    z_prime = z;
    z += x * y;
    y += y;
  } while (z_prime != z);
  return z;
}

double Tau(double x) {
  if (x == 0. || x == 1.) return 0.;
  double z_prime;
  double y = 1.0;
  double z = 1 - x;
  do {
    x = std::sqrt(x);
    z_prime = z;
    y *= 0.5;
    z -= std::pow(1 - x, 2) * y;
  } while (z_prime != z);
  return z / 3;
}

// The estimate from the histogram of register values.
uint64_t Estimate(const int* reghisto) {
  const double m = kRegisters;
  double z = m * Tau((m - reghisto[kQ + 1]) / m);
  for (int j = kQ; j >= 1; --j) {
    z += reghisto[j];
    z *= 0.5;
  }
  z += m * Sigma(reghisto[0] / m);
  const double e = static_cast<double>(std::llround(kAlphaInf * m * m / z));
  return static_cast<uint64_t>(e);
}

void DenseHisto(const uint8_t* registers, int* reghisto) {
  for (size_t j = 0; j < kRegisters; ++j) reghisto[GetDenseRegister(registers, j)]++;
}

// hllSparseRegHisto; false if the runs do not cover exactly every register.
bool SparseHisto(const uint8_t* p, const uint8_t* end, uint8_t tail, int* reghisto) {
  long idx = 0;
  while (p < end) {
    if (IsZero(p)) {
      const int runlen = ZeroLen(p);
      idx += runlen;
      reghisto[0] += runlen;
      p++;
    } else if (IsXZero(p)) {
      const int runlen = XZeroLen(p, end, tail);
      idx += runlen;
      reghisto[0] += runlen;
      p += 2;
    } else {
      const int runlen = ValLen(p);
      idx += runlen;
      reghisto[ValValue(p)] += runlen;
      p++;
    }
  }
  return idx == static_cast<long>(kRegisters);
}

int DenseSet(uint8_t* registers, size_t index, uint8_t count) {
  if (count > GetDenseRegister(registers, index)) {
    SetDenseRegister(registers, index, count);
    return 1;
  }
  return 0;
}

// Builds the dense form of a sparse HLL into `dense` (kDenseSize bytes, the header copied);
// false if the runs are corrupt. A run reaching past the last register is corrupt even when the
// runs before it end exactly there: Redis 7.0.15 as shipped (with the CVE-2025-32023 fix) stops
// with an error there, where the original 7.0.15 source stopped and accepted.
bool BuildDense(std::string_view sparse, std::string* dense) {
  dense->assign(kDenseSize, '\0');
  std::memcpy(dense->data(), sparse.data(), kHeaderSize);
  (*dense)[4] = static_cast<char>(kDense);
  auto* registers = reinterpret_cast<uint8_t*>(dense->data()) + kHeaderSize;
  const uint8_t* p = Bytes(sparse) + kHeaderSize;
  const uint8_t* end = Bytes(sparse) + sparse.size();
  const uint8_t tail = TailByte(sparse);
  long idx = 0;
  while (p < end) {
    if (IsZero(p)) {
      idx += ZeroLen(p);
      p++;
    } else if (IsXZero(p)) {
      idx += XZeroLen(p, end, tail);
      p += 2;
    } else {
      int runlen = ValLen(p);
      const int regval = ValValue(p);
      if (runlen + idx > static_cast<long>(kRegisters)) return false;  // overflow
      while (runlen--) {
        SetDenseRegister(registers, static_cast<size_t>(idx), static_cast<uint8_t>(regval));
        idx++;
      }
      p++;
    }
  }
  return idx == static_cast<long>(kRegisters);
}

}  // namespace

uint8_t GetDenseRegister(const uint8_t* p, size_t regnum) {
  const size_t byte = regnum * kBits / 8;
  const size_t fb = regnum * kBits & 7;
  const size_t fb8 = 8 - fb;
  const unsigned long b0 = p[byte];
  // The last register's second byte is past the registers: the dense string has none there,
  // and Redis reads its sds terminator (0).
  const unsigned long b1 = byte + 1 < (kRegisters * kBits + 7) / 8 ? p[byte + 1] : 0;
  return static_cast<uint8_t>(((b0 >> fb) | (b1 << fb8)) & kRegisterMax);
}

void SetDenseRegister(uint8_t* p, size_t regnum, uint8_t val) {
  const size_t byte = regnum * kBits / 8;
  const size_t fb = regnum * kBits & 7;
  const size_t fb8 = 8 - fb;
  const unsigned long v = val;
  p[byte] &= static_cast<uint8_t>(~(kRegisterMax << fb));
  p[byte] |= static_cast<uint8_t>(v << fb);
  if (byte + 1 < (kRegisters * kBits + 7) / 8) {
    p[byte + 1] &= static_cast<uint8_t>(~(kRegisterMax >> fb8));
    p[byte + 1] |= static_cast<uint8_t>(v >> fb8);
  }
}

uint8_t DenseRegister(std::string_view s, size_t index) {
  return GetDenseRegister(Bytes(s) + kHeaderSize, index);
}

uint64_t MurmurHash64A(const void* key, int len, uint32_t seed) {
  const uint64_t m = 0xc6a4a7935bd1e995ULL;
  const int r = 47;
  uint64_t h = seed ^ (static_cast<uint64_t>(len) * m);
  const auto* data = static_cast<const uint8_t*>(key);
  const uint8_t* end = data + (len - (len & 7));
  while (data != end) {
    uint64_t k;
    std::memcpy(&k, data, sizeof k);  // little endian, as Redis reads it on x86
    k *= m;
    k ^= k >> r;
    k *= m;
    h ^= k;
    h *= m;
    data += 8;
  }
  switch (len & 7) {
    case 7:
      h ^= static_cast<uint64_t>(data[6]) << 48;
      [[fallthrough]];
    case 6:
      h ^= static_cast<uint64_t>(data[5]) << 40;
      [[fallthrough]];
    case 5:
      h ^= static_cast<uint64_t>(data[4]) << 32;
      [[fallthrough]];
    case 4:
      h ^= static_cast<uint64_t>(data[3]) << 24;
      [[fallthrough]];
    case 3:
      h ^= static_cast<uint64_t>(data[2]) << 16;
      [[fallthrough]];
    case 2:
      h ^= static_cast<uint64_t>(data[1]) << 8;
      [[fallthrough]];
    case 1:
      h ^= static_cast<uint64_t>(data[0]);
      h *= m;
  }
  h ^= h >> r;
  h *= m;
  h ^= h >> r;
  return h;
}

int PatternLength(std::string_view element, size_t* index) {
  // Redis passes the length as an int.
  uint64_t hash = MurmurHash64A(element.data(), static_cast<int>(element.size()), 0xadc83b19U);
  *index = hash & kPMask;
  hash >>= kP;
  hash |= uint64_t{1} << kQ;  // the loop ends, and the count is at most Q + 1
  uint64_t bit = 1;
  int count = 1;
  while ((hash & bit) == 0) {
    count++;
    bit <<= 1;
  }
  return count;
}

std::string Create() {
  constexpr size_t kSparseLen =
      kHeaderSize + ((kRegisters + (kXZeroMaxLen - 1)) / kXZeroMaxLen) * 2;
  std::string s(kSparseLen, '\0');
  std::memcpy(s.data(), "HYLL", 4);
  s[4] = static_cast<char>(kSparse);
  auto* p = reinterpret_cast<uint8_t*>(s.data()) + kHeaderSize;
  for (size_t aux = kRegisters; aux != 0;) {
    const size_t xzero = std::min<size_t>(kXZeroMaxLen, aux);
    XZeroSet(p, static_cast<int>(xzero));
    p += 2;
    aux -= xzero;
  }
  return s;
}

bool LooksValid(std::string_view s) {
  if (s.size() < kHeaderSize) return false;
  if (s[0] != 'H' || s[1] != 'Y' || s[2] != 'L' || s[3] != 'L') return false;
  const uint8_t encoding = EncodingOf(s);
  if (encoding > kSparse) return false;
  if (encoding == kDense && s.size() != kDenseSize) return false;
  return true;
}

bool SparseToDense(CompactString& s) {
  if (EncodingOf(s.view()) == kDense) return true;
  std::string dense;
  if (!BuildDense(s.view(), &dense)) return false;
  s.assign(dense);
  return true;
}

int SetRegister(CompactString& s, size_t index, uint8_t count, size_t sparse_max_bytes) {
  if (EncodingOf(s.view()) == kDense) {
    return DenseSet(Bytes(s) + kHeaderSize, index, count);
  }
  auto promote = [&]() -> int {
    if (!SparseToDense(s)) return -1;
    DenseSet(Bytes(s) + kHeaderSize, index, count);
    return 1;
  };
  if (count > kValMaxValue) return promote();

  const char* old_data = s.data();
  uint8_t tail = TailByte(s.view());

  // Step 1: the opcode covering the register (offsets from the string's start).
  const size_t sparse = kHeaderSize;
  size_t end = s.size();
  uint8_t* base = Bytes(s);
  size_t p = sparse;
  long first = 0;
  long span = 0;
  size_t prev = 0;
  bool has_prev = false;
  while (p < end) {
    size_t oplen = 1;
    if (IsZero(base + p)) {
      span = ZeroLen(base + p);
    } else if (IsVal(base + p)) {
      span = ValLen(base + p);
    } else {
      span = XZeroLen(base + p, base + end, tail);
      oplen = 2;
    }
    if (static_cast<long>(index) <= first + span - 1) break;
    prev = p;
    has_prev = true;
    p += oplen;
    first += span;
  }
  if (span == 0 || p >= end) return -1;  // invalid format

  size_t next = IsXZero(base + p) ? p + 2 : p + 1;
  const bool has_next = next < end;
  bool is_zero = false, is_xzero = false, is_val = false;
  long runlen;
  if (IsZero(base + p)) {
    is_zero = true;
    runlen = ZeroLen(base + p);
  } else if (IsXZero(base + p)) {
    is_xzero = true;
    runlen = XZeroLen(base + p, base + end, tail);
  } else {
    is_val = true;
    runlen = ValLen(base + p);
  }

  bool updated_in_place = false;
  if (is_val) {
    const int oldcount = ValValue(base + p);
    if (oldcount >= count) return 0;  // A: nothing to do
    if (runlen == 1) {                // B: a VAL of one register
      ValSet(base + p, count, 1);
      updated_in_place = true;
    }
  }
  if (!updated_in_place && is_zero && runlen == 1) {  // C: a ZERO of one register
    ValSet(base + p, count, 1);
    updated_in_place = true;
  }

  if (!updated_in_place) {
    // D: split the opcode into up to three (XZERO-VAL-XZERO at worst).
    uint8_t seq[5];
    uint8_t* n = seq;
    const long last = first + span - 1;
    const long idx = static_cast<long>(index);
    if (is_zero || is_xzero) {
      if (idx != first) {
        const int len = static_cast<int>(idx - first);
        if (len > kZeroMaxLen) {
          XZeroSet(n, len);
          n += 2;
        } else {
          ZeroSet(n, len);
          n++;
        }
      }
      ValSet(n, count, 1);
      n++;
      if (idx != last) {
        const int len = static_cast<int>(last - idx);
        if (len > kZeroMaxLen) {
          XZeroSet(n, len);
          n += 2;
        } else {
          ZeroSet(n, len);
          n++;
        }
      }
    } else {
      const int curval = ValValue(base + p);
      if (idx != first) {
        ValSet(n, curval, static_cast<int>(idx - first));
        n++;
      }
      ValSet(n, count, 1);
      n++;
      if (idx != last) {
        ValSet(n, curval, static_cast<int>(last - idx));
        n++;
      }
    }
    // Step 3: the new sequence in place of the old opcode.
    const long seqlen = n - seq;
    const long oldlen = is_xzero ? 2 : 1;
    const long deltalen = seqlen - oldlen;
    if (deltalen > 0 &&
        static_cast<long>(s.size()) + deltalen > static_cast<long>(sparse_max_bytes)) {
      return promote();
    }
    if (deltalen > 0) {
      s.resize(s.size() + static_cast<size_t>(deltalen));
      base = Bytes(s);
    }
    if (deltalen != 0 && has_next) {
      std::memmove(base + next + deltalen, base + next, end - next);
    }
    if (deltalen < 0) {
      s.resize(s.size() - static_cast<size_t>(-deltalen));
      base = Bytes(s);
    }
    // An XZERO cut short by the string's end (see XZeroLen) counts two bytes but holds one, so the
    // sequence can reach past the new end: Redis writes it into its spare room and the string
    // ends where its length says, so only what fits is kept.
    const size_t fits = std::min(static_cast<size_t>(seqlen), s.size() - p);
    std::memcpy(base + p, seq, fits);
    tail = fits < static_cast<size_t>(seqlen) ? seq[fits] : 0;
    end = static_cast<size_t>(static_cast<long>(end) + deltalen);
    next = static_cast<size_t>(static_cast<long>(next) + deltalen);
  }

  // Step 4: merge adjacent VAL opcodes of the same value, scanning up to 5 from the previous one.
  size_t q = has_prev ? prev : sparse;
  int scanlen = 5;
  while (q < end && scanlen--) {
    if (IsXZero(base + q)) {
      q += 2;
      continue;
    }
    if (IsZero(base + q)) {
      q++;
      continue;
    }
    if (q + 1 < end && IsVal(base + q + 1)) {
      const int v1 = ValValue(base + q);
      const int v2 = ValValue(base + q + 1);
      if (v1 == v2) {
        const int len = ValLen(base + q) + ValLen(base + q + 1);
        if (len <= kValMaxLen) {
          ValSet(base + q + 1, v1, len);
          std::memmove(base + q, base + q + 1, end - q - 1);
          s.resize(s.size() - 1);
          base = Bytes(s);
          end--;
          tail = 0;  // Redis's string shrinks and ends with a NUL again
          continue;  // try again with the value on the right
        }
      }
    }
    q++;
  }
  InvalidateCache(s);
  SetTailByte(s.view(), old_data, tail);
  return 1;
}

int Add(CompactString& s, std::string_view element, size_t sparse_max_bytes) {
  size_t index;
  const int count = PatternLength(element, &index);
  const uint8_t encoding = EncodingOf(s.view());
  if (encoding != kDense && encoding != kSparse) return -1;
  return SetRegister(s, index, static_cast<uint8_t>(count), sparse_max_bytes);
}

bool CachedCardinality(std::string_view s, uint64_t* card) {
  const uint8_t* c = Bytes(s) + 8;
  if ((c[7] & (1 << 7)) != 0) return false;
  uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = v << 8 | c[i];
  *card = v;
  return true;
}

void SetCachedCardinality(CompactString& s, uint64_t card) {
  uint8_t* c = Bytes(s) + 8;
  for (int i = 0; i < 8; ++i) c[i] = static_cast<uint8_t>((card >> (8 * i)) & 0xff);
}

void InvalidateCache(CompactString& s) { Bytes(s)[15] |= (1 << 7); }

bool Count(std::string_view s, uint64_t* card) {
  int reghisto[64] = {0};
  if (EncodingOf(s) == kDense) {
    DenseHisto(Bytes(s) + kHeaderSize, reghisto);
  } else if (!SparseHisto(Bytes(s) + kHeaderSize, Bytes(s) + s.size(), TailByte(s), reghisto)) {
    return false;
  }
  *card = Estimate(reghisto);
  return true;
}

uint64_t CountRaw(const uint8_t* registers) {
  int reghisto[64] = {0};
  for (size_t j = 0; j < kRegisters; ++j) reghisto[registers[j]]++;
  return Estimate(reghisto);
}

bool MergeInto(std::string_view s, uint8_t* max) {
  if (EncodingOf(s) == kDense) {
    const uint8_t* registers = Bytes(s) + kHeaderSize;
    for (size_t i = 0; i < kRegisters; ++i) {
      const uint8_t val = GetDenseRegister(registers, i);
      if (val > max[i]) max[i] = val;
    }
    return true;
  }
  const uint8_t* p = Bytes(s) + kHeaderSize;
  const uint8_t* end = Bytes(s) + s.size();
  const uint8_t tail = TailByte(s);
  long i = 0;
  while (p < end) {
    if (IsZero(p)) {
      i += ZeroLen(p);
      p++;
    } else if (IsXZero(p)) {
      i += XZeroLen(p, end, tail);
      p += 2;
    } else {
      long runlen = ValLen(p);
      const int regval = ValValue(p);
      if (runlen + i > static_cast<long>(kRegisters)) return false;  // overflow
      while (runlen--) {
        if (regval > max[i]) max[i] = static_cast<uint8_t>(regval);
        i++;
      }
      p++;
    }
  }
  return i == static_cast<long>(kRegisters);
}

std::string DecodeSparse(std::string_view s) {
  std::string out;
  const uint8_t* p = Bytes(s) + kHeaderSize;
  const uint8_t* end = Bytes(s) + s.size();
  const uint8_t tail = TailByte(s);
  while (p < end) {
    if (IsZero(p)) {
      out += "z:" + std::to_string(ZeroLen(p)) + " ";
      p++;
    } else if (IsXZero(p)) {
      out += "Z:" + std::to_string(XZeroLen(p, end, tail)) + " ";
      p += 2;
    } else {
      out += "v:" + std::to_string(ValValue(p)) + "," + std::to_string(ValLen(p)) + " ";
      p++;
    }
  }
  // sdstrim(decoded, " ")
  const size_t b = out.find_first_not_of(' ');
  if (b == std::string::npos) return "";
  const size_t e = out.find_last_not_of(' ');
  return out.substr(b, e - b + 1);
}

}  // namespace kv::hll
