#include "server/persistence/aof_loader.h"

#include <spdlog/spdlog.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <vector>

#include "protocol/io_buffer.h"
#include "protocol/reply_writer.h"
#include "server/command.h"
#include "server/command_registry.h"
#include "server/persistence/load_limits.h"
#include "server/persistence/rdb_file.h"
#include "server/scripting/scripting.h"
#include "server/server_state.h"
#include "server/transaction.h"

namespace kv {

namespace {

constexpr size_t kLineMax = 1024;  // AOF_ANNOTATION_LINE_MAX_LEN: fgets's buffer

// Reads the file as Redis's loop does with fgets and fread: a short read anywhere is the
// unexpected end of the file.
class AofCursor {
 public:
  AofCursor(std::string_view data, size_t at) : data_(data), at_(at) {}
  bool eof() const { return at_ >= data_.size(); }
  size_t position() const { return at_; }
  // fgets: up to and including '\n', at most kLineMax - 1 bytes; false at the end.
  bool Line(std::string_view* line) {
    if (at_ >= data_.size()) return false;
    const size_t max = std::min(kLineMax - 1, data_.size() - at_);
    const size_t nl = data_.substr(at_, max).find('\n');
    const size_t n = nl == std::string_view::npos ? max : nl + 1;
    *line = data_.substr(at_, n);
    at_ += n;
    return true;
  }
  bool Read(size_t n, std::string_view* out) {
    if (data_.size() - at_ < n) {
      at_ = data_.size();
      return false;
    }
    *out = data_.substr(at_, n);
    at_ += n;
    return true;
  }

 private:
  std::string_view data_;
  size_t at_;
};

}  // namespace

AofLoadStatus LoadAppendOnlyFile(ServerState& s, const std::string& dir, const std::string& name,
                                 const AofLoadOptions& options) {
  const std::string path = dir + "/" + name;
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    const int en = errno;
    struct stat st;
    if (::stat(path.c_str(), &st) == 0 || errno != ENOENT) {
      spdlog::warn("Fatal error: can't open the append log file {} for reading: {}", name,
                   std::strerror(en));
      return AofLoadStatus::kOpenError;
    }
    spdlog::warn("The append log file {} doesn't exist: {}", name, std::strerror(errno));
    return AofLoadStatus::kNotExist;
  }
  std::stringstream buffer;
  buffer << in.rdbuf();
  const std::string data = buffer.str();
  if (data.empty()) return AofLoadStatus::kEmpty;

  // Where the commands begin: after an RDB part, if the file has one.
  size_t commands_at = 0;
  if (data.compare(0, 5, "REDIS") == 0) {
    // A base written with aof-use-rdb-preamble, or (under appendfilename itself) the single file
    // of a Redis before 7.0 with its preamble, commands following it.
    const bool old_style = name == s.config.appendfilename;
    if (old_style) {
      spdlog::info("Reading RDB preamble from AOF file...");
    } else {
      spdlog::info("Reading RDB base file on AOF loading...");
    }
    RdbLoadOptions rdb;
    rdb.limits = LoadLimits(s);
    rdb.now_ms = s.clock->NowMs();
    rdb.keep_expired = true;
    rdb.lfu_policy = IsLfuPolicy(s.config.maxmemory_policy);
    rdb.checksum = s.config.rdbchecksum;
    rdb.log = [](const std::string& line) { spdlog::info("{}", line); };
    rdb.key_delay_us = options.key_delay_us;
    if (options.progress && options.rdb_progress_interval_bytes != 0) {
      rdb.progress = options.progress;
      rdb.progress_interval_bytes = options.rdb_progress_interval_bytes;
    }
    if (!s.scripting) s.scripting = std::make_shared<Scripting>();
    rdb.load_function = [&s](std::string&& code, std::string* error) {
      return !s.scripting->LoadLibrary(code, false, error).empty();
    };
    const RdbLoadResult r = LoadRdbBytes(s.dbs, data, rdb);
    if (r.stopped) return AofLoadStatus::kStopped;
    if (!r.ok) {
      spdlog::warn("{}", r.error);
      if (old_style) {
        spdlog::warn("Error reading the RDB preamble of the AOF file {}, AOF loading aborted",
                     name);
      } else {
        spdlog::warn("Error reading the RDB base file {}, AOF loading aborted", name);
      }
      return AofLoadStatus::kFailed;
    }
    if (old_style) spdlog::info("Reading the remaining AOF tail...");
    commands_at = r.bytes_read;
  }

  // Redis's fake AOF client: no socket, never blocks, replies dropped.
  ConnState client;
  client.id = kAofClientId;
  IoBuffer replies;
  ReplyWriter writer(&replies, 2);
  ConnState* const old_client = s.current_client;
  s.current_client = &client;
  AofCursor cur(data, commands_at);
  // Redis starts these at 0, so that a tail cut inside its first command truncates the preamble
  // away too; the preamble is kept here.
  size_t valid_up_to = commands_at;
  size_t valid_before_multi = commands_at;
  const CommandSpec* exec = s.registry->Find("exec");
  const CommandSpec* multi = s.registry->Find("multi");
  std::vector<std::string_view> argv;
  enum class End { kOk, kEof, kFormat, kFailed, kStopped } end = End::kOk;
  uint64_t loops = 0;
  while (true) {
    // Clients are served from time to time (they get -LOADING).
    if (loops++ % 1024 == 0 && options.progress && !options.progress(cur.position())) {
      end = End::kStopped;
      break;
    }
    std::string_view line;
    if (!cur.Line(&line)) break;   // the end of the file, between commands
    if (line[0] == '#') continue;  // an annotation (#TS:...)
    if (line[0] != '*') {
      end = End::kFormat;
      break;
    }
    if (line.size() < 2 || line[1] == '\n') {
      end = End::kEof;
      break;
    }
    if (options.key_delay_us != 0) DebugDelay(options.key_delay_us);
    const long argc = std::atol(std::string(line.substr(1)).c_str());
    if (argc < 1) {
      end = End::kFormat;
      break;
    }
    argv.clear();
    bool short_read = false;
    for (long j = 0; j < argc; ++j) {
      std::string_view len_line;
      if (!cur.Line(&len_line)) {
        short_read = true;
        break;
      }
      if (len_line[0] != '$') {
        end = End::kFormat;
        break;
      }
      const long len = std::strtol(std::string(len_line.substr(1)).c_str(), nullptr, 10);
      std::string_view arg, crlf;
      if (len < 0 || !cur.Read(static_cast<size_t>(len), &arg) || !cur.Read(2, &crlf)) {
        short_read = true;
        break;
      }
      argv.push_back(arg);
    }
    if (end == End::kFormat) break;
    if (short_read) {
      end = End::kEof;
      break;
    }
    const CommandSpec* spec = s.registry->Find(argv[0]);
    if (spec != nullptr && !spec->subcommands.empty() && argv.size() >= 2) {
      spec = CommandRegistry::FindSubcommand(*spec, argv[1]);
    }
    if (spec == nullptr) {
      spdlog::warn("Unknown command '{}' reading the append only file {}", argv[0], name);
      end = End::kFailed;
      break;
    }
    if (spec == multi) valid_before_multi = valid_up_to;
    client.last_cmd = spec;
    if (client.multi && spec != exec) {
      client.multi->Queue(*spec, spec->flags, argv);
    } else {
      CommandContext ctx{argv, writer, client, s, s.clock->NowMs()};
      ++s.executing;
      spec->handler(ctx);
      --s.executing;
    }
    replies.Clear();
    valid_up_to = cur.position();
  }
  if (end == End::kOk && client.multi) {
    spdlog::warn("Revert incomplete MULTI/EXEC transaction in AOF file {}", name);
    valid_up_to = valid_before_multi;
    end = End::kEof;
  }
  s.current_client = old_client;
  s.ForgetClient(client);
  switch (end) {
    case End::kOk:
      return AofLoadStatus::kOk;
    case End::kFailed:
      return AofLoadStatus::kFailed;
    case End::kStopped:
      return AofLoadStatus::kStopped;
    case End::kFormat:
      spdlog::warn(
          "Bad file format reading the append only file {}: make a backup of your AOF file, then "
          "use ./redis-check-aof --fix <filename.manifest>",
          name);
      return AofLoadStatus::kFailed;
    case End::kEof:
      break;
  }
  if (options.truncated_ok) {
    spdlog::warn("!!! Warning: short read while loading the AOF file {}!!!", name);
    spdlog::warn("!!! Truncating the AOF {} at offset {} !!!", name, valid_up_to);
    if (::truncate(path.c_str(), static_cast<off_t>(valid_up_to)) == -1) {
      spdlog::warn("Error truncating the AOF file {}: {}", name, std::strerror(errno));
    } else {
      spdlog::warn("AOF {} loaded anyway because aof-load-truncated is enabled", name);
      return AofLoadStatus::kTruncated;
    }
  }
  spdlog::warn(
      "Unexpected end of file reading the append only file {}. You can: 1) Make a backup of your "
      "AOF file, then use ./redis-check-aof --fix <filename.manifest>. 2) Alternatively you can "
      "set the 'aof-load-truncated' configuration option to yes and restart the server.",
      name);
  return AofLoadStatus::kFailed;
}

}  // namespace kv
