// Loading an RDB file (rdbLoad) in two stages: a parser that reads the file's records and builds
// their values, and an inserter that puts them into the databases. A big file is parsed on a
// thread of its own while the caller's thread inserts, batch by batch: the two halves of a load
// cost about the same (decoding and building values; the table's cache misses), so on two cores
// it takes about half the time. Only the inserter touches the databases, the function engine,
// the log and the progress callback, in the file's order, so the outcome is the serial one.
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cinttypes>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <memory>
#include <mutex>
#include <string_view>
#include <thread>
#include <vector>

#include "server/persistence/crc64.h"
#include "server/persistence/object_lru.h"
#include "server/persistence/rdb_file.h"
#include "server/persistence/rdb_format.h"
#include "server/persistence/rdb_functions.h"
#include "storage/db_set.h"

namespace kv {
namespace {

// One top-level record of the file, as the parser hands it to the inserter.
struct Record {
  // kExpiredKey: a key not loaded, as its deadline passed; it counts for the progress callback
  // and key-load-delay as a loaded one.
  enum class Kind : uint8_t { kKey, kExpiredKey, kResize, kFunction, kLog };
  Kind kind = Kind::kKey;
  uint32_t db = 0;
  size_t position = 0;  // kKey, kExpiredKey: the parser's offset after the key
  // kKey. `key` and a string value's `str` are views of the file, or of the batch's `decoded`.
  std::string_view key;
  std::string_view str;
  std::unique_ptr<Aggregate> aggregate;  // any other type
  int64_t expire_at = kNoExpiry;
  int64_t lfu_freq = -1;
  int64_t lru_idle = -1;
  // kResize.
  uint64_t keys = 0;
  uint64_t volatile_keys = 0;
  std::string text;  // kFunction: the library's code; kLog: the line
};

struct Batch {
  static constexpr size_t kRecords = 1024;
  std::vector<Record> records;
  std::deque<std::string> decoded;  // strings that were not stored plainly (a deque: stable views)
  bool last = false;                // the parser's last batch; `result` says how it ended
  RdbLoadResult result;

  void Clear() {
    records.clear();
    decoded.clear();
  }
};

// Reads the file's records into batches, handing each full one to `emit`, which returns the
// next (empty) batch to fill, or nullptr to stop the parse. The last batch has `last` set and
// the parse's outcome in `result` (its error, keys_expired, bytes_read).
template <typename Emit>
void ParseRecords(std::string_view data, const RdbLoadOptions& options, size_t db_count,
                  std::unique_ptr<Batch> batch, Emit&& emit) {
  RdbReader r(data);
  RdbLoadResult result;
  auto finish = [&]() {
    batch->last = true;
    batch->result = std::move(result);
    emit(std::move(batch));
  };
  auto fail = [&](std::string error) {
    result.error = std::move(error);
    finish();
  };
  auto corrupt = [&](const std::string& why) {
    fail("Internal error in RDB reading offset " + std::to_string(r.position()) + " -> " + why);
  };
  auto add = [&](Record::Kind kind) -> Record& {
    Record& rec = batch->records.emplace_back();
    rec.kind = kind;
    return rec;
  };
  auto log = [&](std::string line) { add(Record::Kind::kLog).text = std::move(line); };
  // A string the reader decoded into `scratch` is kept with the batch; a plain one is a view of
  // the file.
  auto keep = [&](std::string_view s) -> std::string_view {
    const bool in_file =
        s.empty() || (s.data() >= data.data() && s.data() < data.data() + data.size());
    return in_file ? s : std::string_view(batch->decoded.emplace_back(s));
  };

  if (data.size() < 9 || data.substr(0, 5) != "REDIS")
    return fail("Wrong signature trying to load DB from file");
  int version = 0;
  for (char c : data.substr(5, 4)) {
    if (c < '0' || c > '9') return fail("Wrong signature trying to load DB from file");
    version = version * 10 + (c - '0');
  }
  if (version < 1 || version > rdb::kVersion) {
    return fail("Can't handle RDB format version " + std::to_string(version));
  }
  r.Skip(9);

  uint32_t db_index = 0;
  int64_t expire_at = kNoExpiry;
  int64_t lfu_freq = -1, lru_idle = -1;
  std::string scratch;
  std::string aux_key, aux_value;
  while (true) {
    if (batch->records.size() >= Batch::kRecords) {
      batch = emit(std::move(batch));
      if (batch == nullptr) return;
    }
    uint8_t type;
    if (!r.Byte(&type)) return corrupt(r.error());
    switch (type) {
      case rdb::kOpExpireTime: {
        int32_t seconds;
        if (!r.Int32(&seconds)) return corrupt(r.error());
        expire_at = int64_t{seconds} * 1000;
        continue;
      }
      case rdb::kOpExpireTimeMs:
        if (!r.Int64(&expire_at)) return corrupt(r.error());
        continue;
      case rdb::kOpFreq: {
        uint8_t freq;
        if (!r.Byte(&freq)) return corrupt(r.error());
        lfu_freq = freq;
        continue;
      }
      case rdb::kOpIdle: {
        uint64_t idle;
        if (!r.Length(&idle)) return corrupt(r.error());
        lru_idle = static_cast<int64_t>(idle);
        continue;
      }
      case rdb::kOpSelectDb: {
        uint64_t index;
        if (!r.Length(&index)) return corrupt(r.error());
        if (index >= db_count) {
          return fail(
              "FATAL: Data file was created with a Redis server configured to handle more than " +
              std::to_string(db_count) + " databases. Exiting");
        }
        db_index = static_cast<uint32_t>(index);
        continue;
      }
      case rdb::kOpResizeDb: {
        uint64_t db_size, expires_size;
        if (!r.Length(&db_size) || !r.Length(&expires_size)) return corrupt(r.error());
        // Believed only as far as the rest of the file could hold that many keys (8 bytes each
        // at least), so that a corrupt count cannot make it allocate more than the file's size.
        const uint64_t most = r.remaining() / 8;
        Record& rec = add(Record::Kind::kResize);
        rec.db = db_index;
        rec.keys = std::min(db_size, most);
        rec.volatile_keys = std::min(expires_size, most);
        continue;
      }
      case rdb::kOpAux: {
        if (!r.String(&aux_key) || !r.String(&aux_value)) return corrupt(r.error());
        if (aux_key == "redis-ver") {
          log("Loading RDB produced by version " + aux_value);
        } else if (aux_key == "ctime") {
          const int64_t age = options.now_ms / 1000 - std::strtoll(aux_value.c_str(), nullptr, 10);
          log("RDB age " + std::to_string(age < 0 ? 0 : age) + " seconds");
        } else if (aux_key == "used-mem") {
          char line[96];
          std::snprintf(
              line, sizeof line, "RDB memory usage when created %.2f Mb",
              static_cast<double>(std::strtoll(aux_value.c_str(), nullptr, 10)) / (1024 * 1024));
          log(line);
        }
        continue;
      }
      case rdb::kOpModuleAux:
        return corrupt("The RDB file contains AUX module data I can't load: no matching module");
      case rdb::kOpFunction:
      case rdb::kOpFunction2: {
        std::string code, error;
        if (!ReadFunctionLibrary(r, type, &code, &error)) {
          return fail("Failed loading library, " + error);
        }
        add(Record::Kind::kFunction).text = std::move(code);
        continue;
      }
      case rdb::kOpEof: {
        if (version >= 5) {
          const uint64_t expected = Crc64(0, data.substr(0, r.position()));
          int64_t stored;
          if (!r.Int64(&stored)) return corrupt(r.error());
          if (options.checksum) {
            if (stored == 0) {
              log("RDB file was saved with checksum disabled: no check performed.");
            } else if (static_cast<uint64_t>(stored) != expected) {
              // Redis's two lines: the sums, then rdbReportCorruptRDB's (at offset 0, as the
              // checksum's reader has no position).
              char line[128];
              std::snprintf(line, sizeof line,
                            "Wrong RDB checksum expected: (%" PRIx64 ") but got (%" PRIx64
                            "). Aborting now.",
                            expected, static_cast<uint64_t>(stored));
              log(line);
              return fail("Internal error in RDB reading offset 0 -> RDB CRC error");
            }
          }
        }
        result.ok = true;
        result.bytes_read = r.position();
        return finish();
      }
      default:
        break;
    }
    if (!rdb::IsObjectType(type)) {
      return corrupt("Unknown RDB encoding type " + std::to_string(type));
    }
    std::string_view key, str;
    if (!r.String(&key, &scratch)) return corrupt(r.error());
    key = keep(key);
    DetachedValue value;
    if (type == rdb::kTypeString) {
      // Kept as the bytes themselves: the inserter embeds them in the key's entry.
      if (!r.String(&str, &scratch)) return corrupt(r.error());
      str = keep(str);
    } else if (!r.LoadObject(type, options.limits, &value)) {
      if (!r.empty_key()) return corrupt(r.error());
      // Redis skips empty aggregates (which older versions could write) and goes on.
      expire_at = kNoExpiry;
      lfu_freq = lru_idle = -1;
      continue;
    }
    const bool expired =
        expire_at != kNoExpiry && expire_at < options.now_ms && !options.keep_expired;
    Record& rec = add(expired ? Record::Kind::kExpiredKey : Record::Kind::kKey);
    rec.position = r.position();
    if (expired) {
      ++result.keys_expired;
    } else {
      rec.db = db_index;
      rec.key = key;
      rec.str = str;
      rec.aggregate = std::move(value.aggregate);
      rec.expire_at = expire_at;
      rec.lfu_freq = lfu_freq;
      rec.lru_idle = lru_idle;
    }
    expire_at = kNoExpiry;
    lfu_freq = lru_idle = -1;
  }
}

// Puts a batch's records into the databases, in order. False when the load must stop: an error
// (in `result`), or the progress callback said so.
class Inserter {
 public:
  Inserter(DbSet& dbs, const RdbLoadOptions& options, RdbLoadResult& result)
      : dbs_(dbs), options_(options), result_(result) {}

  bool Insert(Batch& batch) {
    for (Record& rec : batch.records) {
      switch (rec.kind) {
        case Record::Kind::kLog:
          if (options_.log) options_.log(rec.text);
          break;
        case Record::Kind::kResize:
          dbs_.db(rec.db).Reserve(rec.keys, rec.volatile_keys);
          break;
        case Record::Kind::kFunction: {
          std::string error;
          if (options_.load_function && !options_.load_function(std::move(rec.text), &error)) {
            result_.error = "Failed loading library, " + error;
            return false;
          }
          break;
        }
        case Record::Kind::kKey:
          if (!InsertKey(rec)) return false;
          [[fallthrough]];
        case Record::Kind::kExpiredKey:
          if (!KeyDone(rec)) return false;
          break;
      }
    }
    return true;
  }

 private:
  bool InsertKey(Record& rec) {
    Db& db = dbs_.db(rec.db);
    db.SetClock(options_.now_ms);
    Value* v = Add(db, rec);
    if (v == nullptr && options_.allow_duplicates) {
      db.Delete(rec.key, options_.now_ms);
      v = Add(db, rec);
    }
    if (v == nullptr) {
      result_.error = "Internal error in RDB reading offset " + std::to_string(rec.position) +
                      " -> RDB has duplicated key '" + std::string(rec.key) + "' in DB " +
                      std::to_string(rec.db);
      return false;
    }
    if (rec.lfu_freq >= 0 || rec.lru_idle >= 0) {
      SetLruOrLfu(*v, options_.lfu_policy, options_.now_ms, rec.lfu_freq, rec.lru_idle);
    }
    ++result_.keys_loaded;
    return true;
  }

  // After each key: key-load-delay, and the progress callback each progress interval.
  bool KeyDone(const Record& rec) {
    if (options_.key_delay_us != 0) DebugDelay(options_.key_delay_us);
    if (options_.progress && options_.progress_interval_bytes != 0 &&
        rec.position / options_.progress_interval_bytes > progress_mark_) {
      progress_mark_ = rec.position / options_.progress_interval_bytes;
      if (!options_.progress(rec.position)) {
        result_.stopped = true;
        result_.error = "Loading stopped";
        return false;
      }
    }
    return true;
  }

  static Value* Add(Db& db, Record& rec) {
    if (rec.aggregate == nullptr) return db.AddNewString(rec.key, rec.str, rec.expire_at);
    DetachedValue value;
    value.aggregate = std::move(rec.aggregate);
    Value* v = db.AddNew(rec.key, value, rec.expire_at);
    if (v == nullptr) rec.aggregate = std::move(value.aggregate);  // for a second try
    return v;
  }

  DbSet& dbs_;
  const RdbLoadOptions& options_;
  RdbLoadResult& result_;
  size_t progress_mark_ = 0;  // how many progress intervals were reported
};

// Hands batches from the parser's thread to the inserter's: full ones one way, emptied ones
// back, at most kBatches in all, so the parser runs at most that far ahead.
class BatchQueue {
 public:
  static constexpr int kBatches = 4;

  std::unique_ptr<Batch> TakeEmpty() {
    std::unique_lock lock(mu_);
    cv_.wait(lock, [&] { return stopped_ || !empty_.empty() || made_ < kBatches; });
    if (stopped_) return nullptr;
    if (empty_.empty()) {
      ++made_;
      auto batch = std::make_unique<Batch>();
      batch->records.reserve(Batch::kRecords);
      return batch;
    }
    auto batch = std::move(empty_.back());
    empty_.pop_back();
    return batch;
  }
  void PutFull(std::unique_ptr<Batch> batch) {
    std::lock_guard lock(mu_);
    full_.push_back(std::move(batch));
    cv_.notify_all();
  }
  std::unique_ptr<Batch> TakeFull() {
    std::unique_lock lock(mu_);
    cv_.wait(lock, [&] { return !full_.empty(); });
    auto batch = std::move(full_.front());
    full_.pop_front();
    return batch;
  }
  void PutEmpty(std::unique_ptr<Batch> batch) {
    batch->Clear();
    std::lock_guard lock(mu_);
    empty_.push_back(std::move(batch));
    cv_.notify_all();
  }
  // The parser then gets no more batches and ends.
  void Stop() {
    std::lock_guard lock(mu_);
    stopped_ = true;
    cv_.notify_all();
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<std::unique_ptr<Batch>> full_;
  std::vector<std::unique_ptr<Batch>> empty_;
  int made_ = 0;
  bool stopped_ = false;
};

void TakeParseOutcome(RdbLoadResult& parsed, RdbLoadResult& result) {
  result.ok = parsed.ok;
  result.error = std::move(parsed.error);
  result.keys_expired = parsed.keys_expired;
  result.bytes_read = parsed.bytes_read;
}

RdbLoadResult LoadSerially(DbSet& dbs, std::string_view data, const RdbLoadOptions& options) {
  RdbLoadResult result;
  Inserter inserter(dbs, options, result);
  auto emit = [&](std::unique_ptr<Batch> full) -> std::unique_ptr<Batch> {
    if (!inserter.Insert(*full)) return nullptr;
    if (full->last) {
      TakeParseOutcome(full->result, result);
      return nullptr;
    }
    full->Clear();
    return full;
  };
  ParseRecords(data, options, dbs.count(), std::make_unique<Batch>(), emit);
  return result;
}

RdbLoadResult LoadInParallel(DbSet& dbs, std::string_view data, const RdbLoadOptions& options) {
  RdbLoadResult result;
  BatchQueue queue;
  std::thread parser([&] {
    auto emit = [&](std::unique_ptr<Batch> full) -> std::unique_ptr<Batch> {
      const bool last = full->last;
      queue.PutFull(std::move(full));
      return last ? nullptr : queue.TakeEmpty();
    };
    std::unique_ptr<Batch> first = queue.TakeEmpty();
    if (first != nullptr) ParseRecords(data, options, dbs.count(), std::move(first), emit);
  });
  Inserter inserter(dbs, options, result);
  while (true) {
    std::unique_ptr<Batch> batch = queue.TakeFull();
    if (!inserter.Insert(*batch)) break;
    if (batch->last) {
      TakeParseOutcome(batch->result, result);
      break;
    }
    queue.PutEmpty(std::move(batch));
  }
  queue.Stop();
  parser.join();
  return result;
}

}  // namespace

RdbLoadResult LoadRdbFile(DbSet& dbs, const std::string& path, const RdbLoadOptions& options) {
  RdbLoadResult result;
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    result.missing = errno == ENOENT;
    result.error = std::strerror(errno);
    return result;
  }
  struct stat st;
  if (::fstat(fd, &st) != 0) {
    result.error = std::strerror(errno);
    ::close(fd);
    return result;
  }
  const size_t size = static_cast<size_t>(st.st_size);
  void* map = size > 0 ? ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0) : nullptr;
  ::close(fd);
  if (size > 0 && map == MAP_FAILED) {
    result.error = std::strerror(errno);
    return result;
  }
  if (map != nullptr) ::madvise(map, size, MADV_SEQUENTIAL);
  result = LoadRdbBytes(dbs, std::string_view(static_cast<const char*>(map), size), options);
  if (map != nullptr) ::munmap(map, size);
  return result;
}

RdbLoadResult LoadRdbBytes(DbSet& dbs, std::string_view data, const RdbLoadOptions& options) {
  return data.size() >= options.parse_thread_min_bytes ? LoadInParallel(dbs, data, options)
                                                       : LoadSerially(dbs, data, options);
}

}  // namespace kv
