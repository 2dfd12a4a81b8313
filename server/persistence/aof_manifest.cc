#include "server/persistence/aof_manifest.h"

#include <cctype>
#include <cstdio>
#include <cstdlib>

#include "protocol/inline_splitter.h"
#include "server/strings.h"

namespace kv {

namespace {

bool NeedsRepr(std::string_view s) {
  for (unsigned char c : s) {
    if (c == '\\' || c == '"' || c == '\n' || c == '\r' || c == '\t' || c == '\a' || c == '\b' ||
        !std::isprint(c) || std::isspace(c)) {
      return true;
    }
  }
  return false;
}

void AppendLine(std::string& out, const AofFileInfo& f) {
  out += "file ";
  out += NeedsRepr(f.name) ? QuoteManifestName(f.name) : f.name;
  out += " seq ";
  out += std::to_string(f.seq);
  out += " type ";
  out += f.type;
  out += '\n';
}

// Redis's pathIsBaseName: no '/' and not "..".
bool IsBaseName(std::string_view name) {
  return name.find('/') == std::string_view::npos && name != "..";
}

std::string_view Trim(std::string_view s) {
  const std::string_view blanks = " \t\r\n";
  const size_t b = s.find_first_not_of(blanks);
  if (b == std::string_view::npos) return {};
  return s.substr(b, s.find_last_not_of(blanks) - b + 1);
}

}  // namespace

std::string QuoteManifestName(std::string_view name) {
  std::string out;
  AppendRepr(out, name);
  return out;
}

std::string AofManifest::Format() const {
  std::string out;
  if (base) AppendLine(out, *base);
  for (const AofFileInfo& f : history) AppendLine(out, f);
  for (const AofFileInfo& f : incr) AppendLine(out, f);
  return out;
}

const std::string& AofManifest::NewBase(std::string_view aof_filename, bool rdb) {
  if (base) {
    base->type = 'h';
    history.insert(history.begin(), *base);
  }
  AofFileInfo f;
  f.seq = ++base_seq;
  f.name =
      std::string(aof_filename) + "." + std::to_string(f.seq) + ".base" + (rdb ? ".rdb" : ".aof");
  f.type = 'b';
  base = std::move(f);
  return base->name;
}

const std::string& AofManifest::NewIncr(std::string_view aof_filename) {
  AofFileInfo f;
  f.seq = ++incr_seq;
  f.name = std::string(aof_filename) + "." + std::to_string(f.seq) + ".incr.aof";
  f.type = 'i';
  incr.push_back(std::move(f));
  return incr.back().name;
}

void AofManifest::MarkRewrittenIncrAsHistory(bool keep_last) {
  if (incr.empty()) return;
  const size_t n = keep_last ? incr.size() - 1 : incr.size();
  // Redis walks from the tail, adding each to the head of the history: the order stays.
  for (size_t i = n; i-- > 0;) {
    AofFileInfo h = incr[i];
    h.type = 'h';
    history.insert(history.begin(), std::move(h));
  }
  incr.erase(incr.begin(), incr.begin() + static_cast<std::ptrdiff_t>(n));
}

std::optional<AofManifest> ParseAofManifest(std::string_view text, ManifestParseError* error) {
  constexpr size_t kMaxLine = 1024;  // MANIFEST_MAX_LINE
  AofManifest am;
  int64_t maxseq = 0;
  int line_number = 0;
  // Redis logs the line (and its number) once it has read one that is not too long.
  const auto fail = [&](std::string message, std::optional<std::string_view> line) {
    if (error != nullptr) {
      error->message = std::move(message);
      error->line_number = line ? line_number : 0;
      error->line = std::string(line.value_or(""));
    }
    return std::nullopt;
  };
  if (text.empty()) return fail("Found an empty AOF manifest", std::nullopt);
  size_t at = 0;
  while (at < text.size()) {
    // fgets with a buffer of kMaxLine + 1: at most kMaxLine bytes per read.
    size_t nl = text.find('\n', at);
    const size_t end = nl == std::string_view::npos ? text.size() : nl + 1;
    std::string_view raw = text.substr(at, std::min(end - at, kMaxLine));
    at += raw.size();
    ++line_number;
    if (raw[0] == '#') continue;
    if (raw.find('\n') == std::string_view::npos) {
      return fail("The AOF manifest file contains too long line", std::nullopt);
    }
    const std::string_view line = Trim(raw);
    if (line.empty()) return fail("Invalid AOF manifest file format", line);
    std::string storage;
    std::vector<std::string_view> argv;
    if (!SplitInlineArgs(line, &storage, &argv) || argv.size() < 6 || argv.size() % 2 != 0) {
      return fail("Invalid AOF manifest file format", line);
    }
    AofFileInfo f;
    f.type = 0;
    bool have_name = false;
    for (size_t i = 0; i < argv.size(); i += 2) {
      if (EqualsIgnoreCase(argv[i], "file")) {
        f.name = std::string(argv[i + 1]);
        have_name = true;
        if (!IsBaseName(f.name)) return fail("File can't be a path, just a filename", line);
      } else if (EqualsIgnoreCase(argv[i], "seq")) {
        f.seq = std::atoll(std::string(argv[i + 1]).c_str());
      } else if (EqualsIgnoreCase(argv[i], "type")) {
        f.type = argv[i + 1].empty() ? 0 : argv[i + 1][0];
      }
    }
    if (!have_name || f.name.empty() || f.seq == 0 || f.type == 0) {
      return fail("Invalid AOF manifest file format", line);
    }
    if (f.type == 'b') {
      if (am.base) return fail("Found duplicate base file information", line);
      am.base_seq = f.seq;
      am.base = std::move(f);
    } else if (f.type == 'h') {
      am.history.push_back(std::move(f));
    } else if (f.type == 'i') {
      if (f.seq <= maxseq) return fail("Found a non-monotonic sequence number", line);
      maxseq = f.seq;
      am.incr_seq = f.seq;
      am.incr.push_back(std::move(f));
    } else {
      return fail("Unknown AOF file type", line);
    }
  }
  return am;
}

}  // namespace kv
