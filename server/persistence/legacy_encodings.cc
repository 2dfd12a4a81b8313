#include "server/persistence/legacy_encodings.h"

#include <cstdint>
#include <cstring>

namespace kv {
namespace {

uint32_t ReadU32(const unsigned char* p) {
  uint32_t v;
  std::memcpy(&v, p, 4);  // little-endian, as the formats and the hosts RDB is read on
  return v;
}

// Sign-extends the `bytes` little-endian bytes at `p`.
int64_t ReadSigned(const unsigned char* p, int bytes) {
  uint64_t v = 0;
  for (int i = bytes - 1; i >= 0; --i) v = v << 8 | p[i];
  const int shift = 64 - 8 * bytes;
  return static_cast<int64_t>(v << shift) >> shift;
}

constexpr size_t kZipListHeader = 10;  // zlbytes, zltail, zllen
constexpr unsigned char kZipEnd = 0xFF;

}  // namespace

bool WalkZipList(std::string_view bytes, absl::FunctionRef<bool(ListPackValue)> fn) {
  const auto* zl = reinterpret_cast<const unsigned char*>(bytes.data());
  const size_t size = bytes.size();
  if (size < kZipListHeader + 1) return false;
  if (ReadU32(zl) != size || zl[size - 1] != kZipEnd) return false;
  const size_t tail = ReadU32(zl + 4);
  if (tail > size - 1) return false;
  const unsigned header_count = zl[8] | (zl[9] << 8);

  size_t p = kZipListHeader;
  size_t prev_size = 0;
  size_t last = kZipListHeader;
  size_t count = 0;
  while (zl[p] != kZipEnd) {
    const size_t start = p;
    // prevlen: one byte, or 0xFE and four.
    size_t prevlen;
    if (zl[p] < 0xFE) {
      prevlen = zl[p];
      p += 1;
    } else {
      if (p + 5 > size - 1) return false;
      prevlen = ReadU32(zl + p + 1);
      p += 5;
    }
    if (prevlen != prev_size) return false;
    if (p >= size - 1) return false;
    const unsigned char enc = zl[p];
    ListPackValue v;
    size_t header = 1, data = 0;
    int int_bytes = 0;
    switch (enc >> 6) {
      case 0:
        data = enc & 0x3f;
        break;
      case 1:
        if (p + 2 > size - 1) return false;
        header = 2;
        data = (size_t{enc & 0x3fu} << 8) | zl[p + 1];
        break;
      case 2:
        if (enc != 0x80 || p + 5 > size - 1) return false;
        header = 5;
        data = (size_t{zl[p + 1]} << 24) | (size_t{zl[p + 2]} << 16) | (size_t{zl[p + 3]} << 8) |
               zl[p + 4];
        break;
      default:
        v.is_int = true;
        if (enc == 0xC0) {
          int_bytes = 2;
        } else if (enc == 0xD0) {
          int_bytes = 4;
        } else if (enc == 0xE0) {
          int_bytes = 8;
        } else if (enc == 0xF0) {
          int_bytes = 3;
        } else if (enc == 0xFE) {
          int_bytes = 1;
        } else if (enc >= 0xF1 && enc <= 0xFD) {
          v.num = (enc & 0x0f) - 1;
        } else {
          return false;
        }
        data = static_cast<size_t>(int_bytes);
    }
    if (data > size - 1 - p || header > size - 1 - p - data) return false;
    const unsigned char* payload = zl + p + header;
    if (v.is_int) {
      if (int_bytes > 0) v.num = ReadSigned(payload, int_bytes);
    } else {
      v.str = std::string_view(reinterpret_cast<const char*>(payload), data);
    }
    p += header + data;
    prev_size = p - start;
    last = start;
    ++count;
    if (!fn(v)) return false;
  }
  if (p != size - 1) return false;
  if (tail != last) return false;
  if (header_count != UINT16_MAX && header_count != count) return false;
  return true;
}

bool WalkZipMap(std::string_view bytes,
                absl::FunctionRef<bool(std::string_view field, std::string_view value)> fn) {
  const auto* zm = reinterpret_cast<const unsigned char*>(bytes.data());
  const size_t size = bytes.size();
  if (size < 2) return false;
  const unsigned header_count = zm[0];
  size_t p = 1, count = 0;
  // zipmapDecodeLength: one byte under 254, or 254 and four; 255 is the end.
  auto read_len = [&](size_t* len) {
    if (p >= size) return false;
    if (zm[p] < 254) {
      *len = zm[p];
      p += 1;
      return true;
    }
    if (zm[p] != 254 || p + 5 > size) return false;
    *len = ReadU32(zm + p + 1);
    p += 5;
    return true;
  };
  while (p < size && zm[p] != 255) {
    size_t flen, vlen;
    if (!read_len(&flen) || flen > size - p) return false;
    const std::string_view field(reinterpret_cast<const char*>(zm + p), flen);
    p += flen;
    if (!read_len(&vlen) || p >= size) return false;
    const size_t free = zm[p++];
    if (vlen > size - p || free > size - p - vlen) return false;
    const std::string_view value(reinterpret_cast<const char*>(zm + p), vlen);
    p += vlen + free;
    ++count;
    if (!fn(field, value)) return false;
  }
  if (p != size - 1) return false;
  if (header_count < 254 && header_count != count) return false;
  return true;
}

}  // namespace kv
