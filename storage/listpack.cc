#include "storage/listpack.h"

#include <malloc.h>

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <new>
#include <stdexcept>
#include <string>
#include <vector>

namespace kv {
namespace {

// What every empty list pack points at: 7 bytes, no elements, the terminator. Never written.
alignas(8) constexpr uint8_t kEmptyBlock[ListPack::kEmptyBytes] = {7, 0, 0, 0, 0, 0, 0xFF};

constexpr uint8_t kEnd = 0xFF;
// Encoding bytes (listpack.c's LP_ENCODING_*). The first byte's high bits select the encoding:
//   0xxxxxxx 7-bit uint | 10xxxxxx 6-bit-length string | 110xxxxx 13-bit int |
//   1110xxxx 12-bit-length string | 0xF0 32-bit-length string | 0xF1-0xF4 16/24/32/64-bit int.
constexpr uint8_t k6BitStr = 0x80;
constexpr uint8_t k13BitInt = 0xC0;
constexpr uint8_t k12BitStr = 0xE0;
constexpr uint8_t k32BitStr = 0xF0;
constexpr uint8_t k16BitInt = 0xF1;
constexpr uint8_t k24BitInt = 0xF2;
constexpr uint8_t k32BitInt = 0xF3;
constexpr uint8_t k64BitInt = 0xF4;

inline uint32_t Load32(const uint8_t* p) {
  return uint32_t{p[0]} | uint32_t{p[1]} << 8 | uint32_t{p[2]} << 16 | uint32_t{p[3]} << 24;
}

inline void Store32(uint8_t* p, uint32_t v) {
  p[0] = static_cast<uint8_t>(v);
  p[1] = static_cast<uint8_t>(v >> 8);
  p[2] = static_cast<uint8_t>(v >> 16);
  p[3] = static_cast<uint8_t>(v >> 24);
}

// Little-endian `n` bytes at p, sign-extended from n*8 bits.
inline int64_t LoadSigned(const uint8_t* p, int n) {
  uint64_t u = 0;
  for (int i = 0; i < n; ++i) u |= uint64_t{p[i]} << (8 * i);
  const int shift = 64 - 8 * n;
  return static_cast<int64_t>(u << shift) >> shift;
}

// The bytes of the backlen that follows an entry whose encoding and data take `l` bytes. The
// thresholds are lpEncodeBacklen's, including its `<` where `<=` would do (a 16383-byte entry
// takes 3 backlen bytes), which Redis's bytes depend on.
inline uint32_t BacklenSize(uint64_t l) {
  if (l <= 127) return 1;
  if (l < 16383) return 2;
  if (l < 2097151) return 3;
  if (l < 268435455) return 4;
  return 5;
}

// Writes the backlen of `l` into buf (BacklenSize(l) bytes): 7 bits per byte, the most
// significant group first; every byte but the first has its high bit set, so that reading
// backwards from the entry's last byte knows where the backlen starts.
inline void WriteBacklen(uint8_t* buf, uint64_t l) {
  const uint32_t n = BacklenSize(l);
  for (uint32_t i = 0; i < n; ++i) {
    const uint32_t shift = 7 * (n - 1 - i);
    buf[i] = static_cast<uint8_t>((l >> shift) & 127) | (i == 0 ? 0 : 128);
  }
}

// Reads the backlen whose last byte is at `p`; UINT64_MAX if it runs past 5 bytes.
inline uint64_t ReadBacklen(const uint8_t* p) {
  uint64_t v = 0;
  uint32_t shift = 0;
  for (;;) {
    v |= uint64_t{p[0] & 127u} << shift;
    if ((p[0] & 128) == 0) return v;
    shift += 7;
    --p;
    if (shift > 28) return UINT64_MAX;
  }
}

// Bytes of the encoding and length header of the entry starting with byte `b` (0 for a byte that
// starts no entry): lpCurrentEncodedSizeBytes.
inline uint32_t EncodingHeaderSize(uint8_t b) {
  if (b < k12BitStr) return 1;
  if (b < k32BitStr) return 2;
  if (b == k32BitStr) return 5;
  if (b <= k64BitInt || b == kEnd) return 1;
  return 0;
}

// Bytes of the encoding and data of the entry at `p` (not its backlen); 0 for an invalid
// encoding byte. Reads the length bytes, so the header must be known to be inside the block.
inline uint64_t EncodedSize(const uint8_t* p) {
  const uint8_t b = p[0];
  if (b < k6BitStr) return 1;
  if (b < k13BitInt) return 1 + (b & 0x3f);
  if (b < k12BitStr) return 2;
  if (b < k32BitStr) return 2 + ((uint32_t{b} & 0xf) << 8 | p[1]);
  switch (b) {
    case k32BitStr:
      return 5 + uint64_t{Load32(p + 1)};
    case k16BitInt:
      return 3;
    case k24BitInt:
      return 4;
    case k32BitInt:
      return 5;
    case k64BitInt:
      return 9;
    case kEnd:
      return 1;
    default:
      return 0;
  }
}

// The whole entry at `p`, backlen included.
inline uint32_t EntrySize(const uint8_t* p) {
  const uint8_t b = p[0];
  if (b < k6BitStr) return 2;                // 7-bit uint: 1 byte and a 1-byte backlen
  if (b < k13BitInt) return 2 + (b & 0x3f);  // short string: its backlen (<= 64) is 1 byte
  const uint64_t n = EncodedSize(p);
  return static_cast<uint32_t>(n + BacklenSize(n));
}

// The element at `p`; `entry_size` gets the whole entry's size. Invalid encoding bytes read as
// lpGet reads them (12345678900000000 + the byte), never past the entry's first byte.
inline ListPackValue Decode(const uint8_t* p, uint32_t* entry_size) {
  const uint8_t b = p[0];
  ListPackValue v;
  if (b < k6BitStr) {
    v.is_int = true;
    v.num = b;
    *entry_size = 2;
    return v;
  }
  if (b < k13BitInt) {
    const uint32_t len = b & 0x3f;
    v.str = {reinterpret_cast<const char*>(p + 1), len};
    *entry_size = 2 + len;
    return v;
  }
  if (b < k12BitStr) {
    v.is_int = true;
    const uint64_t u = (uint64_t{b} & 0x1f) << 8 | p[1];
    v.num = static_cast<int64_t>(u << 51) >> 51;
    *entry_size = 3;
    return v;
  }
  if (b < k32BitStr) {
    const uint32_t len = (uint32_t{b} & 0xf) << 8 | p[1];
    v.str = {reinterpret_cast<const char*>(p + 2), len};
    *entry_size = 2 + len + BacklenSize(2 + len);
    return v;
  }
  v.is_int = true;
  switch (b) {
    case k32BitStr: {
      const uint32_t len = Load32(p + 1);
      v.is_int = false;
      v.str = {reinterpret_cast<const char*>(p + 5), len};
      *entry_size = static_cast<uint32_t>(5 + uint64_t{len} + BacklenSize(5 + uint64_t{len}));
      return v;
    }
    case k16BitInt:
      v.num = LoadSigned(p + 1, 2);
      *entry_size = 4;
      return v;
    case k24BitInt:
      v.num = LoadSigned(p + 1, 3);
      *entry_size = 5;
      return v;
    case k32BitInt:
      v.num = LoadSigned(p + 1, 4);
      *entry_size = 6;
      return v;
    case k64BitInt:
      v.num = LoadSigned(p + 1, 8);
      *entry_size = 10;
      return v;
    default:
      v.num = 12345678900000000LL + b;
      *entry_size = 1;
      return v;
  }
}

// The encoded size (encoding + data) of an integer: lpEncodeIntegerGetType's widths.
inline uint32_t IntegerEncodedSize(int64_t v) {
  if (v >= 0 && v <= 127) return 1;
  if (v >= -4096 && v <= 4095) return 2;
  if (v >= -32768 && v <= 32767) return 3;
  if (v >= -8388608 && v <= 8388607) return 4;
  if (v >= INT32_MIN && v <= INT32_MAX) return 5;
  return 9;
}

inline uint64_t StringEncodedSize(size_t n) {
  if (n < 64) return 1 + n;
  if (n < 4096) return 2 + n;
  return 5 + uint64_t{n};
}

inline bool Overlaps(const uint8_t* block, size_t bytes, const char* p) {
  const auto b = reinterpret_cast<uintptr_t>(block);
  const auto q = reinterpret_cast<uintptr_t>(p);
  return q >= b && q < b + bytes;
}

}  // namespace

// An element ready to be written: its encoding bytes (the whole integer, or a string's header),
// the string's bytes if any, and its backlen.
struct ListPack::Encoded {
  uint8_t head[9];
  uint8_t head_len;
  uint8_t backlen_len;
  uint8_t backlen[5];
  std::string_view payload;

  size_t total() const { return head_len + payload.size() + backlen_len; }
  void WriteTo(uint8_t* dst) const {
    std::memcpy(dst, head, head_len);
    dst += head_len;
    if (!payload.empty()) std::memcpy(dst, payload.data(), payload.size());
    std::memcpy(dst + payload.size(), backlen, backlen_len);
  }
};

std::string_view ListPackValue::ToString(char (&buf)[kIntBufSize]) const {
  if (!is_int) return str;
  const auto r = std::to_chars(buf, buf + kIntBufSize, num);
  return {buf, static_cast<size_t>(r.ptr - buf)};
}

bool ListPackValue::Equals(std::string_view s) const {
  if (!is_int) return str == s;
  int64_t v;
  return ListPack::StringToInt64(s, &v) && v == num;
}

bool ListPack::StringToInt64(std::string_view s, int64_t* value) {
  const size_t n = s.size();
  if (n == 0 || n > 20) return false;
  const char* p = s.data();
  if (n == 1 && p[0] == '0') {
    *value = 0;
    return true;
  }
  size_t i = 0;
  const bool negative = p[0] == '-';
  if (negative) ++i;
  if (i == n || p[i] < '1' || p[i] > '9') return false;
  uint64_t v = 0;
  for (; i < n; ++i) {
    const unsigned d = static_cast<unsigned char>(p[i]) - '0';
    if (d > 9) return false;
    // 20 digits may overflow uint64_t; 19 never do.
    if (v > (UINT64_MAX - d) / 10) return false;
    v = v * 10 + d;
  }
  if (negative) {
    if (v > uint64_t{INT64_MAX} + 1) return false;
    *value = static_cast<int64_t>(0 - v);
  } else {
    if (v > uint64_t{INT64_MAX}) return false;
    *value = static_cast<int64_t>(v);
  }
  return true;
}

void ListPack::EncodeInteger(int64_t v, Encoded* e) {
  uint8_t* h = e->head;
  const auto u = static_cast<uint64_t>(v);
  if (v >= 0 && v <= 127) {
    h[0] = static_cast<uint8_t>(v);
    e->head_len = 1;
  } else if (v >= -4096 && v <= 4095) {
    const uint64_t t = u & 0x1fff;  // 13-bit two's complement
    h[0] = static_cast<uint8_t>(t >> 8) | k13BitInt;
    h[1] = static_cast<uint8_t>(t);
    e->head_len = 2;
  } else {
    int n;
    if (v >= -32768 && v <= 32767) {
      h[0] = k16BitInt;
      n = 2;
    } else if (v >= -8388608 && v <= 8388607) {
      h[0] = k24BitInt;
      n = 3;
    } else if (v >= INT32_MIN && v <= INT32_MAX) {
      h[0] = k32BitInt;
      n = 4;
    } else {
      h[0] = k64BitInt;
      n = 8;
    }
    for (int i = 0; i < n; ++i) h[1 + i] = static_cast<uint8_t>(u >> (8 * i));
    e->head_len = static_cast<uint8_t>(1 + n);
  }
  e->payload = {};
  e->backlen[0] = e->head_len;  // at most 9: one byte
  e->backlen_len = 1;
}

void ListPack::EncodeString(std::string_view s, Encoded* e) {
  int64_t v;
  if (StringToInt64(s, &v)) {
    EncodeInteger(v, e);
    return;
  }
  const size_t n = s.size();
  uint8_t* h = e->head;
  if (n < 64) {
    h[0] = static_cast<uint8_t>(n) | k6BitStr;
    e->head_len = 1;
  } else if (n < 4096) {
    h[0] = static_cast<uint8_t>(n >> 8) | k12BitStr;
    h[1] = static_cast<uint8_t>(n);
    e->head_len = 2;
  } else {
    if (n > UINT32_MAX) throw std::length_error("listpack element too large");
    h[0] = k32BitStr;
    Store32(h + 1, static_cast<uint32_t>(n));
    e->head_len = 5;
  }
  e->payload = s;
  const uint64_t enc = e->head_len + uint64_t{n};
  e->backlen_len = static_cast<uint8_t>(BacklenSize(enc));
  WriteBacklen(e->backlen, enc);
}

size_t ListPack::EntrySizeFor(std::string_view s) {
  int64_t v;
  if (StringToInt64(s, &v)) return EntrySizeForInteger(v);
  const uint64_t enc = StringEncodedSize(s.size());
  return enc + BacklenSize(enc);
}

size_t ListPack::EntrySizeForInteger(int64_t v) { return IntegerEncodedSize(v) + 1; }

// --- The block ------------------------------------------------------------------------------

ListPack::ListPack() noexcept : block_(const_cast<uint8_t*>(kEmptyBlock)) {}

ListPack::ListPack(ListPack&& other) noexcept : block_(other.block_) {
  other.block_ = const_cast<uint8_t*>(kEmptyBlock);
}

ListPack& ListPack::operator=(ListPack&& other) noexcept {
  if (this != &other) {
    if (!is_shared_empty()) std::free(block_);
    block_ = other.block_;
    other.block_ = const_cast<uint8_t*>(kEmptyBlock);
  }
  return *this;
}

ListPack::~ListPack() {
  if (!is_shared_empty()) std::free(block_);
}

bool ListPack::is_shared_empty() const { return block_ == kEmptyBlock; }

size_t ListPack::bytes() const { return Load32(block_); }

void ListPack::SetBytes(size_t n) { Store32(block_, static_cast<uint32_t>(n)); }

uint16_t ListPack::header_count() const {
  return static_cast<uint16_t>(block_[4] | block_[5] << 8);
}

void ListPack::SetHeaderCount(uint16_t n) {
  block_[4] = static_cast<uint8_t>(n);
  block_[5] = static_cast<uint8_t>(n >> 8);
}

void ListPack::AdjustCount(long delta) {
  const uint16_t c = header_count();
  if (c == kCountUnknown) return;
  const long n = std::min<long>(c + delta, kCountUnknown);
  SetHeaderCount(static_cast<uint16_t>(n));
}

size_t ListPack::allocated() const { return is_shared_empty() ? 0 : malloc_usable_size(block_); }

void ListPack::Reserve(size_t n) {
  if (is_shared_empty()) {
    void* p = std::malloc(std::max(n, kEmptyBytes));
    if (p == nullptr) throw std::bad_alloc();
    std::memcpy(p, kEmptyBlock, kEmptyBytes);
    block_ = static_cast<uint8_t*>(p);
    return;
  }
  if (n <= malloc_usable_size(block_)) return;
  void* p = std::realloc(block_, n);
  if (p == nullptr) throw std::bad_alloc();
  block_ = static_cast<uint8_t*>(p);
}

void ListPack::MaybeShrink(size_t n) {
  if (is_shared_empty()) return;
  // Keep a little slack for the next insert (a queue pops and pushes in turn); give back more.
  if (malloc_usable_size(block_) <= n + n / 4 + 16) return;
  if (void* p = std::realloc(block_, n)) block_ = static_cast<uint8_t*>(p);
}

void ListPack::ShrinkToFit() {
  if (is_shared_empty()) return;
  const size_t n = bytes();
  if (malloc_usable_size(block_) <= n) return;
  if (void* p = std::realloc(block_, n)) block_ = static_cast<uint8_t*>(p);
}

ListPack ListPack::Clone() const {
  if (is_shared_empty()) return ListPack();
  const size_t n = bytes();
  void* p = std::malloc(n);
  if (p == nullptr) throw std::bad_alloc();
  std::memcpy(p, block_, n);
  return ListPack(static_cast<uint8_t*>(p));
}

// --- Validation -----------------------------------------------------------------------------

namespace {

// lpValidateNext on offsets: checks the entry at `*off` and moves past it (to 0 at the
// terminator). False if the entry is malformed or reaches past the block.
bool ValidateNext(const uint8_t* lp, size_t size, size_t* off) {
  const size_t p = *off;
  if (p < ListPack::kHeaderSize || p > size - 1) return false;
  if (lp[p] == kEnd) {
    *off = 0;
    return true;
  }
  const uint32_t header = EncodingHeaderSize(lp[p]);
  if (header == 0 || p + header > size - 1) return false;
  const uint64_t encoded = EncodedSize(lp + p);
  const uint32_t backlen = BacklenSize(encoded);
  const uint64_t entry = encoded + backlen;
  if (p + entry > size - 1) return false;
  const size_t next = p + entry;
  const uint64_t stored = ReadBacklen(lp + next - 1);
  if (stored != encoded) return false;
  *off = next;
  return true;
}

bool ValidateImpl(std::string_view bytes, bool deep,
                  absl::FunctionRef<bool(ListPackValue)>* on_entry) {
  const auto* lp = reinterpret_cast<const uint8_t*>(bytes.data());
  const size_t size = bytes.size();
  if (size < ListPack::kEmptyBytes) return false;
  if (Load32(lp) != size) return false;
  if (lp[size - 1] != kEnd) return false;
  if (!deep) return true;
  const uint32_t header_count = lp[4] | lp[5] << 8;
  uint32_t count = 0;
  size_t off = ListPack::kHeaderSize;
  while (off != 0 && lp[off] != kEnd) {
    const size_t at = off;
    if (!ValidateNext(lp, size, &off)) return false;
    if (on_entry != nullptr) {
      uint32_t ignored;
      if (!(*on_entry)(Decode(lp + at, &ignored))) return false;
    }
    ++count;
  }
  if (off != size - 1) return false;
  return header_count == ListPack::kCountUnknown || header_count == count;
}

}  // namespace

bool ListPack::Validate(std::string_view bytes, bool deep) {
  return ValidateImpl(bytes, deep, nullptr);
}

bool ListPack::Validate(std::string_view bytes, absl::FunctionRef<bool(ListPackValue)> on_entry) {
  return ValidateImpl(bytes, true, &on_entry);
}

std::optional<ListPack> ListPack::FromBytes(std::string_view bytes, bool deep) {
  if (!Validate(bytes, deep)) return std::nullopt;
  if (bytes == std::string_view(reinterpret_cast<const char*>(kEmptyBlock), kEmptyBytes)) {
    return ListPack();
  }
  void* p = std::malloc(bytes.size());
  if (p == nullptr) throw std::bad_alloc();
  std::memcpy(p, bytes.data(), bytes.size());
  return ListPack(static_cast<uint8_t*>(p));
}

// --- Reading --------------------------------------------------------------------------------

size_t ListPack::size() const {
  const uint16_t c = header_count();
  if (c != kCountUnknown) return c;
  size_t n = 0;
  for (const uint8_t* p = block_ + kHeaderSize; *p != kEnd; p += EntrySize(p)) ++n;
  // lpLength caches a count that fits again; Redis's bytes carry it from then on.
  if (n < kCountUnknown) const_cast<ListPack*>(this)->SetHeaderCount(static_cast<uint16_t>(n));
  return n;
}

ListPack::Pos ListPack::Last() const {
  const size_t eof = bytes() - 1;
  return eof == kHeaderSize ? npos : Prev(static_cast<Pos>(eof));
}

ListPack::Pos ListPack::Next(Pos pos) const {
  const Pos next = pos + EntrySize(block_ + pos);
  return block_[next] == kEnd ? npos : next;
}

ListPack::Pos ListPack::Prev(Pos pos) const {
  if (pos == kHeaderSize) return npos;
  const uint64_t l = ReadBacklen(block_ + pos - 1);
  return static_cast<Pos>(pos - l - BacklenSize(l));
}

ListPack::Pos ListPack::Seek(long index) const {
  bool forward = true;
  const uint16_t c = header_count();
  if (c != kCountUnknown) {
    if (index < 0) index += c;
    if (index < 0 || index >= long{c}) return npos;
    // Walk from the nearer end.
    if (index > c / 2) {
      forward = false;
      index -= c;
    }
  } else if (index < 0) {
    forward = false;
  }
  if (forward) {
    Pos p = First();
    for (; index > 0 && p != npos; --index) p = Next(p);
    return p;
  }
  Pos p = Last();
  for (; index < -1 && p != npos; ++index) p = Prev(p);
  return p;
}

ListPackValue ListPack::Get(Pos pos) const {
  uint32_t ignored;
  return Decode(block_ + pos, &ignored);
}

bool ListPack::Equals(Pos pos, std::string_view s) const { return Get(pos).Equals(s); }

ListPack::Pos ListPack::Find(Pos pos, std::string_view s, uint32_t skip) const {
  if (pos == npos) return npos;
  // Whether `s` is an integer, parsed at the first integer element compared: 0 not yet known,
  // 1 yes (in `num`), -1 no.
  int parsed = 0;
  int64_t num = 0;
  uint32_t to_skip = 0;
  const uint8_t* p = block_ + pos;
  while (*p != kEnd) {
    if (to_skip == 0) {
      uint32_t size;
      const ListPackValue v = Decode(p, &size);
      if (!v.is_int) {
        if (v.str == s) {
          return static_cast<Pos>(p - block_);
        }
      } else {
        if (parsed == 0) parsed = StringToInt64(s, &num) ? 1 : -1;
        if (parsed == 1 && v.num == num) return static_cast<Pos>(p - block_);
      }
      to_skip = skip;
      p += size;
    } else {
      --to_skip;
      p += EntrySize(p);
    }
  }
  return npos;
}

ListPack::Pos ListPack::RandomPair(size_t pairs, uint64_t random) const {
  return Seek(static_cast<long>(random % pairs * 2));
}

// --- Writing --------------------------------------------------------------------------------

ListPack::Pos ListPack::Put(Pos pos, const Encoded& e, bool replace) {
  const size_t old_bytes = bytes();
  // The new element may be bytes of this very block (LSET k 0 with another element's bytes): it
  // moves when the block does, so it is copied out first.
  std::string copy;
  const Encoded* src = &e;
  Encoded local;
  if (!e.payload.empty() && Overlaps(block_, old_bytes, e.payload.data())) {
    copy.assign(e.payload);
    local = e;
    local.payload = copy;
    src = &local;
  }
  const size_t replaced = replace ? EntrySize(block_ + pos) : 0;
  const size_t add = src->total();
  const size_t new_bytes = old_bytes + add - replaced;
  if (new_bytes > kMaxBytes) throw std::length_error("listpack too large");
  if (new_bytes > old_bytes) Reserve(new_bytes);
  uint8_t* dst = block_ + pos;
  std::memmove(dst + add, dst + replaced, old_bytes - pos - replaced);
  src->WriteTo(dst);
  SetBytes(new_bytes);
  if (!replace) AdjustCount(1);
  if (new_bytes < old_bytes) MaybeShrink(new_bytes);
  return pos;
}

void ListPack::Append(std::string_view s) {
  Encoded e;
  EncodeString(s, &e);
  Put(static_cast<Pos>(bytes() - 1), e, false);
}

void ListPack::AppendInteger(int64_t v) {
  Encoded e;
  EncodeInteger(v, &e);
  Put(static_cast<Pos>(bytes() - 1), e, false);
}

void ListPack::Prepend(std::string_view s) {
  Encoded e;
  EncodeString(s, &e);
  Put(kHeaderSize, e, false);
}

void ListPack::PrependInteger(int64_t v) {
  Encoded e;
  EncodeInteger(v, &e);
  Put(kHeaderSize, e, false);
}

void ListPack::AppendMany(std::span<const std::string_view> elements) {
  const size_t old_bytes = bytes();
  size_t add = 0;
  for (std::string_view s : elements) {
    if (!s.empty() && Overlaps(block_, old_bytes, s.data())) {
      // Bytes of this block, which moves as it grows: copies first, then one at a time.
      const std::vector<std::string> copies(elements.begin(), elements.end());
      for (const std::string& c : copies) Append(c);
      return;
    }
    add += EntrySizeFor(s);
  }
  const size_t new_bytes = old_bytes + add;
  if (new_bytes > kMaxBytes) throw std::length_error("listpack too large");
  if (add == 0) return;
  Reserve(new_bytes);
  uint8_t* dst = block_ + old_bytes - 1;
  Encoded e;
  for (std::string_view s : elements) {
    EncodeString(s, &e);
    e.WriteTo(dst);
    dst += e.total();
  }
  *dst = kEnd;
  SetBytes(new_bytes);
  AdjustCount(static_cast<long>(elements.size()));
}

ListPack::Pos ListPack::Insert(Pos pos, std::string_view s, Where where) {
  Encoded e;
  EncodeString(s, &e);
  if (where == Where::kAfter) pos += EntrySize(block_ + pos);
  return Put(pos, e, false);
}

ListPack::Pos ListPack::InsertInteger(Pos pos, int64_t v, Where where) {
  Encoded e;
  EncodeInteger(v, &e);
  if (where == Where::kAfter) pos += EntrySize(block_ + pos);
  return Put(pos, e, false);
}

ListPack::Pos ListPack::Replace(Pos pos, std::string_view s) {
  Encoded e;
  EncodeString(s, &e);
  return Put(pos, e, true);
}

ListPack::Pos ListPack::ReplaceInteger(Pos pos, int64_t v) {
  Encoded e;
  EncodeInteger(v, &e);
  return Put(pos, e, true);
}

ListPack::Pos ListPack::Delete(Pos pos) {
  const size_t old_bytes = bytes();
  const size_t n = EntrySize(block_ + pos);
  std::memmove(block_ + pos, block_ + pos + n, old_bytes - pos - n);
  SetBytes(old_bytes - n);
  AdjustCount(-1);
  MaybeShrink(old_bytes - n);
  return block_[pos] == kEnd ? npos : pos;
}

ListPack::Pos ListPack::DeleteFrom(Pos pos, size_t count) {
  if (count == 0) return pos;
  const size_t old_bytes = bytes();
  size_t tail = pos;
  long deleted = 0;
  while (count-- > 0) {
    ++deleted;
    tail += EntrySize(block_ + tail);
    if (block_[tail] == kEnd) break;
  }
  std::memmove(block_ + pos, block_ + tail, old_bytes - tail);
  const size_t new_bytes = old_bytes - (tail - pos);
  SetBytes(new_bytes);
  AdjustCount(-deleted);
  MaybeShrink(new_bytes);
  return block_[pos] == kEnd ? npos : pos;
}

void ListPack::DeleteRange(long index, size_t count) {
  if (count == 0) return;
  const Pos p = Seek(index);
  if (p == npos) return;
  const uint16_t c = header_count();
  if (c != kCountUnknown) {
    if (index < 0) index += c;
    if (static_cast<size_t>(c - index) <= count) {
      // Everything from `p` on goes: the terminator moves up, no walk needed.
      block_[p] = kEnd;
      SetBytes(p + 1);
      SetHeaderCount(static_cast<uint16_t>(index));
      MaybeShrink(p + 1);
      return;
    }
  }
  DeleteFrom(p, count);
}

void ListPack::Merge(ListPack&& other) {
  if (&other == this) return;
  const size_t n = size() + other.size();
  const size_t first = bytes();
  const size_t second = other.bytes();
  const size_t new_bytes = first + second - kEmptyBytes;
  if (new_bytes > kMaxBytes) throw std::length_error("listpack too large");
  if (new_bytes > first) {
    Reserve(new_bytes);
    std::memcpy(block_ + first - 1, other.block_ + kHeaderSize, second - kHeaderSize);
    SetBytes(new_bytes);
  }
  // lpMerge writes the sum, saturated, even when it is 65535 or more (unknown).
  if (!is_shared_empty()) SetHeaderCount(static_cast<uint16_t>(std::min<size_t>(n, kCountUnknown)));
  other = ListPack();
}

}  // namespace kv
