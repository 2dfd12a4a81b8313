#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "server/persistence/rdb_reader.h"

namespace kv {

class Value;

// DUMP's payload (Redis's createDumpPayload): the value's RDB type byte and body, the RDB version
// in two little-endian bytes, and the CRC64 of all that in eight. nullopt for a value the RDB
// writer cannot encode.
std::optional<std::string> CreateDumpPayload(const Value& v, bool compress);

// Redis's verifyDumpPayload: at least the 10-byte footer, a version this server reads, and (unless
// `skip_checksum`) a matching CRC64.
bool VerifyDumpPayload(std::string_view payload, bool skip_checksum);

// The value of a verified payload (rdbLoadObjectType and rdbLoadObject on it); false for a bad one
// (RESTORE's "Bad data format"), with the reason in `*why` when given.
bool LoadDumpPayload(std::string_view payload, const RdbLoadLimits& limits, DetachedValue* out,
                     std::string* why = nullptr);

}  // namespace kv
