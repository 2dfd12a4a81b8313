#include "server/persistence/dump_payload.h"

#include "server/persistence/crc64.h"
#include "server/persistence/rdb_format.h"
#include "server/persistence/rdb_writer.h"

namespace kv {
namespace {

constexpr size_t kFooterSize = 10;  // version (2) and CRC64 (8)

}  // namespace

std::optional<std::string> CreateDumpPayload(const Value& v, bool compress) {
  std::string out;
  RdbWriter w(&out, compress);
  if (!w.ObjectType(v)) return std::nullopt;
  w.Object(v);
  w.Byte(rdb::kVersion & 0xff);
  w.Byte((rdb::kVersion >> 8) & 0xff);
  uint64_t crc = Crc64(0, out);
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<char>((crc >> (8 * i)) & 0xff));
  return out;
}

bool VerifyDumpPayload(std::string_view payload, bool skip_checksum) {
  if (payload.size() < kFooterSize) return false;
  const auto* footer =
      reinterpret_cast<const unsigned char*>(payload.data() + payload.size() - kFooterSize);
  const int version = footer[0] | (footer[1] << 8);
  if (version > rdb::kVersion) return false;
  if (skip_checksum) return true;
  uint64_t stored = 0;
  for (int i = 7; i >= 0; --i) stored = stored << 8 | footer[2 + i];
  return Crc64(0, payload.substr(0, payload.size() - 8)) == stored;
}

bool LoadDumpPayload(std::string_view payload, const RdbLoadLimits& limits, DetachedValue* out,
                     std::string* why) {
  // The footer is not part of the object: the reader must not run into it.
  RdbReader reader(payload.substr(0, payload.size() - kFooterSize));
  uint8_t type;
  bool ok = reader.Byte(&type);
  if (ok && !rdb::IsObjectType(type)) ok = false;
  if (ok) ok = reader.LoadObject(type, limits, out);
  if (!ok && why != nullptr) *why = reader.error();
  return ok;
}

}  // namespace kv
