#include "server/persistence/rdb_functions.h"

#include "server/persistence/crc64.h"
#include "server/persistence/dump_payload.h"
#include "server/persistence/rdb_format.h"
#include "server/persistence/rdb_reader.h"
#include "server/persistence/rdb_writer.h"

namespace kv {
namespace {

constexpr size_t kFooterSize = 10;  // version (2) and CRC64 (8)

}  // namespace

void WriteFunctionLibraries(RdbWriter& w, const std::vector<std::string>& codes) {
  for (const std::string& code : codes) {
    w.Byte(rdb::kOpFunction2);
    w.String(code);
  }
}

bool ReadFunctionLibrary(RdbReader& r, int opcode, std::string* code, std::string* error) {
  if (opcode == rdb::kOpFunction2) {
    if (r.String(code)) return true;
    *error = "Failed loading library payload";
    return false;
  }
  std::string name, engine, description, blob;
  uint64_t has_description = 0;
  if (!r.String(&name)) {
    *error = "Failed loading library name";
    return false;
  }
  if (!r.String(&engine)) {
    *error = "Failed loading engine name";
    return false;
  }
  if (!r.Length(&has_description)) {
    *error = "Failed loading library description indicator";
    return false;
  }
  if (has_description != 0 && !r.String(&description)) {
    *error = "Failed loading library description";
    return false;
  }
  if (!r.String(&blob)) {
    *error = "Failed loading library blob";
    return false;
  }
  // The description has no place in the new format: it goes.
  *code = "#!" + engine + " name=" + name + "\n" + blob;
  return true;
}

std::string CreateFunctionsPayload(const std::vector<std::string>& codes, bool compress) {
  std::string out;
  RdbWriter w(&out, compress);
  WriteFunctionLibraries(w, codes);
  w.Byte(rdb::kVersion & 0xff);
  w.Byte((rdb::kVersion >> 8) & 0xff);
  const uint64_t crc = Crc64(0, out);
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<char>((crc >> (8 * i)) & 0xff));
  return out;
}

bool ReadFunctionsPayload(std::string_view payload, const LibraryConsumer& consume,
                          std::string* error) {
  if (!VerifyDumpPayload(payload, /*skip_checksum=*/false)) {
    *error = "DUMP payload version or checksum are wrong";
    return false;
  }
  // As Redis, the reader sees the footer too: an entry that runs into it ends the loop rather than
  // failing.
  RdbReader r(payload);
  while (payload.size() - r.position() > kFooterSize) {
    uint8_t type;
    if (!r.Byte(&type)) {
      *error = "can not read data type";
      return false;
    }
    if (type != rdb::kOpFunction && type != rdb::kOpFunction2) {
      *error = "given type is not a function";
      return false;
    }
    std::string code;
    if (!ReadFunctionLibrary(r, type, &code, error)) return false;
    if (!consume(std::move(code), error)) {
      if (error->empty()) *error = "failed loading the given functions payload";
      return false;
    }
  }
  return true;
}

}  // namespace kv
