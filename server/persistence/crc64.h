#pragma once

#include <cstdint>
#include <string_view>

namespace kv {

// Redis's CRC-64 (crc64.c: the "Jones" polynomial 0xad93d23594c935a9, reflected input and
// output, no final xor), as RDB files and DUMP payloads end with: Crc64(0, "123456789") is
// 0xe9c6d914c4b8d9ca. `crc` is the value so far, to checksum data that arrives in pieces.
uint64_t Crc64(uint64_t crc, std::string_view data);

}  // namespace kv
