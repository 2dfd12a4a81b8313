#include "server/persistence/crc64.h"

#include <array>
#include <cstring>

namespace kv {
namespace {

// The reflected polynomial.
constexpr uint64_t kPoly = 0x95ac9329ac4bc9b5ull;

// Slicing by 8 (as Redis's crcspeed): table[k][b] is the CRC of byte b followed by k zero bytes,
// so eight bytes are folded per step.
struct Tables {
  std::array<std::array<uint64_t, 256>, 8> t{};
  constexpr Tables() {
    for (uint64_t b = 0; b < 256; ++b) {
      uint64_t crc = b;
      for (int i = 0; i < 8; ++i) crc = (crc & 1) ? (crc >> 1) ^ kPoly : crc >> 1;
      t[0][b] = crc;
    }
    for (size_t b = 0; b < 256; ++b) {
      for (size_t k = 1; k < 8; ++k) t[k][b] = t[0][t[k - 1][b] & 0xff] ^ (t[k - 1][b] >> 8);
    }
  }
};

constexpr Tables kTables;

}  // namespace

uint64_t Crc64(uint64_t crc, std::string_view data) {
  const auto& t = kTables.t;
  const auto* p = reinterpret_cast<const unsigned char*>(data.data());
  size_t n = data.size();
  while (n >= 8) {
    uint64_t word;
    std::memcpy(&word, p, 8);  // little-endian hosts only, as the rest of the RDB code
    crc ^= word;
    crc = t[7][crc & 0xff] ^ t[6][(crc >> 8) & 0xff] ^ t[5][(crc >> 16) & 0xff] ^
          t[4][(crc >> 24) & 0xff] ^ t[3][(crc >> 32) & 0xff] ^ t[2][(crc >> 40) & 0xff] ^
          t[1][(crc >> 48) & 0xff] ^ t[0][crc >> 56];
    p += 8;
    n -= 8;
  }
  while (n-- > 0) crc = t[0][(crc ^ *p++) & 0xff] ^ (crc >> 8);
  return crc;
}

}  // namespace kv
