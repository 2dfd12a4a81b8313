#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kv {

// Redis 7.0's multi-part AOF manifest (aof.c's aofManifest): which files of the append-only
// directory make up the dataset. One line per file, "file <name> seq <n> type <b|h|i>": the base
// first, then history files (left over from a rewrite, to be deleted), then incremental files in
// increasing sequence.
struct AofFileInfo {
  std::string name;
  int64_t seq = 0;
  char type = 'i';  // 'b' base, 'h' history, 'i' incremental
};

struct AofManifest {
  std::optional<AofFileInfo> base;
  std::vector<AofFileInfo> history;
  std::vector<AofFileInfo> incr;
  int64_t base_seq = 0;  // the highest sequence numbers handed out
  int64_t incr_seq = 0;

  bool empty() const { return !base && incr.empty(); }

  // getAofManifestAsString: the file's text.
  std::string Format() const;

  // The next base's name (getNewBaseFileNameAndMarkPreAsHistory): the current base becomes
  // history. `rdb` picks the ".rdb" suffix (aof-use-rdb-preamble) over ".aof".
  const std::string& NewBase(std::string_view aof_filename, bool rdb);
  // getNewIncrAofName: a new incremental file appended to the list.
  const std::string& NewIncr(std::string_view aof_filename);
  // markRewrittenIncrAofAsHistory: every incremental file but the last (the one being written,
  // when `keep_last`) becomes history.
  void MarkRewrittenIncrAsHistory(bool keep_last);
};

// aofLoadManifestFromFile on the file's text: the manifest, or Redis's error ("Invalid AOF
// manifest file format", ...) with the line it was found on (0 for none).
struct ManifestParseError {
  std::string message;
  int line_number = 0;
  std::string line;
};
std::optional<AofManifest> ParseAofManifest(std::string_view text, ManifestParseError* error);

// Redis's sdsneedsrepr / sdscatrepr for file names with spaces or control characters.
std::string QuoteManifestName(std::string_view name);

}  // namespace kv
