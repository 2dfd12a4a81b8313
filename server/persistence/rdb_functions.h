#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace kv {

class RdbReader;
class RdbWriter;

// Redis 7.0's encoding of function libraries, in RDB files and FUNCTION DUMP payloads: each library
// is RDB_OPCODE_FUNCTION2 followed by its code (shebang included) as an RDB string. Files of
// 7.0's release candidates hold RDB_OPCODE_FUNCTION instead: name, engine, an optional
// description and the code without its shebang.

// rdbSaveFunctions: one FUNCTION2 entry per library code, in the order given.
void WriteFunctionLibraries(RdbWriter& w, const std::vector<std::string>& codes);

// rdbFunctionLoad's reading half: the library after opcode `opcode` (FUNCTION or FUNCTION2) as
// FUNCTION LOAD would take it (an old entry gets its "#!<engine> name=<name>" line back). False
// with Redis's reason ("Failed loading library payload", ...) in `*error`.
bool ReadFunctionLibrary(RdbReader& r, int opcode, std::string* code, std::string* error);

// FUNCTION DUMP (functionDumpCommand): the entries, the RDB version in two little-endian bytes and
// the CRC64 of all that in eight.
std::string CreateFunctionsPayload(const std::vector<std::string>& codes, bool compress);

// Called with each library's code in the payload's order; false (with the error's text) stops.
using LibraryConsumer = std::function<bool(std::string&& code, std::string* error)>;

// FUNCTION RESTORE's reading (functionRestoreCommand): verifies the footer ("DUMP payload version
// or checksum are wrong"), then hands each entry to `consume` until the last 10 bytes. False with
// the reply's error text when anything fails.
bool ReadFunctionsPayload(std::string_view payload, const LibraryConsumer& consume,
                          std::string* error);

}  // namespace kv
