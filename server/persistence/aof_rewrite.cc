#include "server/persistence/aof_rewrite.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <initializer_list>
#include <string_view>
#include <vector>

#include "protocol/resp_text.h"
#include "server/persistence/propagation.h"
#include "storage/db_set.h"
#include "storage/hash.h"
#include "storage/list.h"
#include "storage/set.h"
#include "storage/stream.h"
#include "storage/zset.h"

namespace kv {

namespace {

constexpr size_t kItemsPerCommand = 64;  // AOF_REWRITE_ITEMS_PER_CMD

// One command of the rewrite: the name and key, then items, emitted by the batch.
class BatchWriter {
 public:
  BatchWriter(std::string* out, std::string_view name, std::string_view key, size_t total)
      : out_(out), name_(name), key_(key), left_(total) {}
  // Adds one item (a member, or a field or score followed by its value: `width` words).
  void Add(std::initializer_list<std::string_view> words) {
    if (in_batch_ == 0) {
      const size_t n = std::min(left_, kItemsPerCommand);
      argv_.assign({name_, key_});
      batch_size_ = n;
    }
    // The words are views into the caller's copies, which outlive the writer.
    for (std::string_view w : words) argv_.push_back(w);
    ++in_batch_;
    --left_;
    if (in_batch_ == batch_size_) Emit();
  }

 private:
  void Emit() {
    AppendRespCommand(*out_, argv_);
    in_batch_ = 0;
  }
  std::string* out_;
  std::string_view name_, key_;
  size_t left_;
  size_t in_batch_ = 0;
  size_t batch_size_ = 0;
  std::vector<std::string_view> argv_;
};

std::string FormatScore(double d) {
  char buf[128];
  const int n = std::snprintf(buf, sizeof buf, "%.17g", d);
  return std::string(buf, static_cast<size_t>(n));
}

// A command written piece by piece, as Redis's rioWriteBulkCount and rioWriteBulkString: the
// argument count, then each argument as a bulk string.
void AppendArgCount(std::string& out, size_t n) {
  out += '*';
  out += std::to_string(n);
  out += "\r\n";
}

using ::kv::AppendBulk;
void AppendBulk(std::string& out, int64_t n) { AppendBulk(out, std::to_string(n)); }
void AppendBulk(std::string& out, StreamId id) { AppendBulk(out, id.ToString()); }

// Redis's rewriteStreamObject: the entries as XADDs (an empty stream as XADD MAXLEN 0 of a
// placeholder entry), XSETID for the last id and counters, then per group XGROUP CREATE with its
// entries-read, per consumer an XCLAIM ... FORCE of each pending entry with its delivery time and
// count, or XGROUP CREATECONSUMER for a consumer with nothing pending.
void AppendStream(std::string& out, std::string_view key, const Stream& s) {
  if (s.length() != 0) {
    Stream::Iterator it(s, StreamId{}, StreamId::Max(), false);
    StreamId id;
    int64_t num_fields;
    char field_buf[ListPackValue::kIntBufSize];
    char value_buf[ListPackValue::kIntBufSize];
    while (it.Next(&id, &num_fields)) {
      AppendArgCount(out, 3 + 2 * static_cast<size_t>(num_fields));
      AppendBulk(out, "XADD");
      AppendBulk(out, key);
      AppendBulk(out, id);
      for (int64_t i = 0; i < num_fields; ++i) {
        ListPackValue field, value;
        it.NextField(&field, &value);
        AppendBulk(out, field.ToString(field_buf));
        AppendBulk(out, value.ToString(value_buf));
      }
    }
  } else {
    const std::string_view argv[] = {"XADD", key, "MAXLEN", "0", "0-1", "x", "y"};
    AppendRespCommand(out, argv);
  }
  AppendArgCount(out, 7);
  AppendBulk(out, "XSETID");
  AppendBulk(out, key);
  AppendBulk(out, s.last_id());
  AppendBulk(out, "ENTRIESADDED");
  AppendBulk(out, static_cast<int64_t>(s.entries_added()));
  AppendBulk(out, "MAXDELETEDID");
  AppendBulk(out, s.max_deleted_id());
  for (const auto& [group_name, group] : s.groups()) {
    AppendArgCount(out, 7);
    AppendBulk(out, "XGROUP");
    AppendBulk(out, "CREATE");
    AppendBulk(out, key);
    AppendBulk(out, group_name);
    AppendBulk(out, group->last_id);
    AppendBulk(out, "ENTRIESREAD");
    AppendBulk(out, group->entries_read);
    for (const auto& [consumer_name, consumer] : group->consumers) {
      if (consumer->pel.empty()) {
        const std::string_view argv[] = {"XGROUP", "CREATECONSUMER", key, group_name,
                                         consumer_name};
        AppendRespCommand(out, argv);
        continue;
      }
      for (StreamId id : consumer->pel) {
        const StreamNack& nack = group->pel.at(id);
        AppendArgCount(out, 12);
        AppendBulk(out, "XCLAIM");
        AppendBulk(out, key);
        AppendBulk(out, group_name);
        AppendBulk(out, consumer_name);
        AppendBulk(out, "0");
        AppendBulk(out, id);
        AppendBulk(out, "TIME");
        AppendBulk(out, nack.delivery_time);
        AppendBulk(out, "RETRYCOUNT");
        AppendBulk(out, static_cast<int64_t>(nack.delivery_count));
        AppendBulk(out, "JUSTID");
        AppendBulk(out, "FORCE");
      }
    }
  }
}

}  // namespace

std::optional<std::string> WriteAofCommandsBase(const DbSet& dbs, const std::string& path,
                                                int64_t now_s, bool timestamp) {
  std::string out;
  if (timestamp) out += "#TS:" + std::to_string(now_s) + "\r\n";
  std::optional<std::string> error;
  for (size_t index = 0; index < dbs.count() && !error; ++index) {
    const Db& db = dbs.db(index);
    if (db.size() == 0) continue;
    const std::string n = std::to_string(index);
    const std::string_view select[] = {"SELECT", n};
    AppendRespCommand(out, select);
    db.ForEach([&](std::string_view key, const Value& v) {
      if (error) return;
      switch (v.type()) {
        case ValueType::kString: {
          const std::string_view argv[] = {"SET", key, v.str()};
          AppendRespCommand(out, argv);
          break;
        }
        case ValueType::kList: {
          auto& list = const_cast<List&>(v.As<List>());
          // Items are copied: a list pack's integers are formatted into a scratch buffer.
          std::vector<std::string> items;
          items.reserve(list.size());
          char buf[ListPackValue::kIntBufSize];
          list.ForRange(0, static_cast<long>(list.size()) - 1, false,
                        [&](ListPackValue e) { items.emplace_back(e.ToString(buf)); });
          BatchWriter w(&out, "RPUSH", key, items.size());
          for (const std::string& e : items) w.Add({e});
          break;
        }
        case ValueType::kSet: {
          const Set& set = v.As<Set>();
          std::vector<std::string> items;
          items.reserve(set.size());
          set.ForEach([&](std::string_view m) { items.emplace_back(m); });
          BatchWriter w(&out, "SADD", key, items.size());
          for (const std::string& m : items) w.Add({m});
          break;
        }
        case ValueType::kZSet: {
          const ZSet& z = v.As<ZSet>();
          std::vector<std::pair<std::string, std::string>> items;
          items.reserve(z.size());
          z.ForEach([&](std::string_view m, double score) {
            items.emplace_back(FormatScore(score), std::string(m));
          });
          BatchWriter w(&out, "ZADD", key, items.size());
          for (const auto& [score, m] : items) w.Add({score, m});
          break;
        }
        case ValueType::kHash: {
          const Hash& h = v.As<Hash>();
          std::vector<std::pair<std::string, std::string>> items;
          items.reserve(h.size());
          h.ForEach([&](std::string_view f, std::string_view value) {
            items.emplace_back(std::string(f), std::string(value));
            return true;
          });
          BatchWriter w(&out, "HMSET", key, items.size());
          for (const auto& [f, value] : items) w.Add({f, value});
          break;
        }
        case ValueType::kStream:
          AppendStream(out, key, v.As<Stream>());
          break;
        default:
          error = "the AOF rewrite cannot write the value of key '" + std::string(key) + "'";
          return;
      }
      const int64_t at = db.GetExpire(key);
      if (at != kNoExpiry) {
        const std::string ms = std::to_string(at);
        const std::string_view argv[] = {"PEXPIREAT", key, ms};
        AppendRespCommand(out, argv);
      }
    });
  }
  if (error) return error;
  const std::string tmp = path + ".tmp-" + std::to_string(::getpid());
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd == -1)
    return "Opening the temp file for AOF rewrite: " + std::string(std::strerror(errno));
  std::string_view rest = out;
  while (!rest.empty()) {
    const ssize_t n = ::write(fd, rest.data(), rest.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      error = "Write error writing append only file on disk: " + std::string(std::strerror(errno));
      break;
    }
    rest.remove_prefix(static_cast<size_t>(n));
  }
  if (!error && ::fsync(fd) == -1) error = std::string("fsync: ") + std::strerror(errno);
  ::close(fd);
  if (!error && ::rename(tmp.c_str(), path.c_str()) == -1) {
    error = std::string("rename: ") + std::strerror(errno);
  }
  if (error) ::unlink(tmp.c_str());
  return error;
}

}  // namespace kv
