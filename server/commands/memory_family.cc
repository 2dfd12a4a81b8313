// MEMORY USAGE, STATS, DOCTOR, MALLOC-STATS, PURGE and HELP, as Redis 7.0's memoryCommand, with
// kvserver's own accounting: storage reports the bytes its layout really uses.

#include <malloc.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "fmt/format.h"
#include "protocol/number.h"
#include "server/command_registry.h"
#include "server/commands/families.h"
#include "server/commands/help.h"
#include "server/errors.h"
#include "server/memory_overhead.h"
#include "server/strings.h"

namespace kv {
namespace {

// MEMORY USAGE key [SAMPLES count]: the key's entry, its value's bytes, its deadline and its
// share of the tables. SAMPLES as Redis's (default 5, 0 for all): how many elements of a big
// aggregate are measured to estimate the rest.
void MemoryUsage(CommandContext& ctx) {
  size_t samples = 5;  // OBJ_COMPUTE_SIZE_DEF_SAMPLES
  for (size_t j = 3; j < ctx.args.size(); ++j) {
    if (OptionIs(ctx.args[j], "samples") && j + 1 < ctx.args.size()) {
      auto n = ParseInt64(ctx.args[j + 1]);
      if (!n) return ctx.reply.Error(errors::kNotInteger);
      if (*n < 0) return ctx.reply.Error(errors::kSyntax);
      samples = static_cast<size_t>(*n);
      ++j;
    } else {
      return ctx.reply.Error(errors::kSyntax);
    }
  }
  // As Redis, the table is read directly: no expiry, no access time, no hit or miss.
  auto m = ctx.db().MemoryOf(ctx.args[2], samples);
  if (!m) return ctx.reply.Null();
  ctx.reply.Integer(static_cast<int64_t>(m->allocated + m->table_share));
}

void MemoryStats(CommandContext& ctx) {
  const MemoryOverhead m = ComputeMemoryOverhead(ctx.server);
  auto& r = ctx.reply;
  auto field = [&](std::string_view name, int64_t v) {
    r.Bulk(name);
    r.Integer(v);
  };
  auto ratio = [&](std::string_view name, float v) {
    r.Bulk(name);
    r.Double(v);
  };
  const auto total = static_cast<int64_t>(m.total_allocated);
  const auto rss = static_cast<int64_t>(m.rss);
  r.MapHeader(27 + m.dbs.size());
  field("peak.allocated", static_cast<int64_t>(m.peak_allocated));
  field("total.allocated", total);
  field("startup.allocated", static_cast<int64_t>(m.startup_allocated));
  // No replication, AOF, scripts, functions or cluster: their buffers are empty. Client buffers
  // are not accounted separately; they are part of the dataset figure.
  for (std::string_view name : {"replication.backlog", "clients.slaves", "clients.normal",
                                "cluster.links", "aof.buffer", "lua.caches", "functions.caches"}) {
    field(name, 0);
  }
  for (const MemoryOverhead::DbTables& db : m.dbs) {
    r.Bulk("db." + std::to_string(db.db));
    r.MapHeader(3);
    field("overhead.hashtable.main", static_cast<int64_t>(db.main));
    field("overhead.hashtable.expires", static_cast<int64_t>(db.expires));
    field("overhead.hashtable.slot-to-keys", 0);
  }
  field("overhead.total", static_cast<int64_t>(m.overhead_total));
  field("keys.count", static_cast<int64_t>(m.total_keys));
  field("keys.bytes-per-key", static_cast<int64_t>(m.bytes_per_key));
  field("dataset.bytes", static_cast<int64_t>(m.dataset));
  ratio("dataset.percentage", m.dataset_perc);
  ratio("peak.percentage", m.peak_perc);
  // glibc's malloc has no separate active and resident figures: allocated stands for active,
  // and the process's resident set for the allocator's.
  field("allocator.allocated", total);
  field("allocator.active", total);
  field("allocator.resident", rss);
  ratio("allocator-fragmentation.ratio", 1.0f);
  field("allocator-fragmentation.bytes", 0);
  ratio("allocator-rss.ratio", m.total_frag);
  field("allocator-rss.bytes", m.total_frag_bytes);
  ratio("rss-overhead.ratio", 1.0f);
  field("rss-overhead.bytes", 0);
  ratio("fragmentation", m.total_frag);
  field("fragmentation.bytes", m.total_frag_bytes);
}

// Redis's getMemoryDoctorReport, over the checks that apply to kvserver (no replicas, no
// scripts, and allocator figures that are the process's).
std::string DoctorReport(ServerState& state) {
  const MemoryOverhead m = ComputeMemoryOverhead(state);
  if (m.total_allocated < 5 * 1024 * 1024) {
    return "Hi Sam, this instance is empty or is using very little memory, my issues detector "
           "can't be used in these conditions. Please, leave for your mission on Earth and fill it "
           "with some data. The new Sam and I will be back to our programming as soon as I "
           "finished rebooting.\n";
  }
  const bool big_peak =
      static_cast<float>(m.peak_allocated) / static_cast<float>(m.total_allocated) > 1.5f;
  const bool high_frag = m.total_frag > 1.4f && m.total_frag_bytes > (10 << 20);
  if (!big_peak && !high_frag) {
    return "Hi Sam, I can't find any memory issue in your instance. I can only account for what "
           "occurs on this base.\n";
  }
  std::string s = "Sam, I detected a few issues in this Redis instance memory implants:\n\n";
  if (big_peak) {
    s += " * Peak memory: In the past this instance used more than 150% the memory that is "
         "currently using. The allocator is normally not able to release memory after a peak, so "
         "you can expect to see a big fragmentation ratio, however this is actually harmless and "
         "is only due to the memory peak, and if the Redis instance Resident Set Size (RSS) is "
         "currently bigger than expected, the memory will be used as soon as you fill the Redis "
         "instance with more data. If the memory peak was only occasional and you want to try to "
         "reclaim memory, please try the MEMORY PURGE command, otherwise the only other option is "
         "to shutdown and restart the instance.\n\n";
  }
  if (high_frag) {
    s += " * High total RSS: This instance has a memory fragmentation and RSS overhead greater "
         "than 1.4 (this means that the Resident Set Size of the Redis process is much larger "
         "than the sum of the logical allocations Redis performed). This problem is usually due "
         "either to a large peak memory (check if there is a peak memory entry above in the "
         "report) or may result from a workload that causes the allocator to fragment memory a "
         "lot. If the problem is a large peak memory, then there is no issue. Otherwise, make "
         "sure you are using the Jemalloc allocator and not the default libc malloc. Note: The "
         "currently used allocator is \"libc\".\n\n";
  }
  s += "I'm here to keep you safe, Sam. I want to help you.\n";
  return s;
}

void MemoryDoctor(CommandContext& ctx) { ctx.reply.Verbatim(DoctorReport(ctx.server)); }

// Redis prints jemalloc's statistics; kvserver's allocator is glibc's, whose malloc_info gives
// its own (XML) report.
void MemoryMallocStats(CommandContext& ctx) {
  char* text = nullptr;
  size_t size = 0;
  FILE* out = open_memstream(&text, &size);
  if (out == nullptr) return ctx.reply.Bulk("Stats not supported for the current allocator");
  malloc_info(0, out);
  std::fclose(out);
  ctx.reply.Verbatim(std::string_view(text, size));
  std::free(text);
}

// Redis asks jemalloc to purge dirty pages; glibc's equivalent gives free memory back to the
// system.
void MemoryPurge(CommandContext& ctx) {
  malloc_trim(0);
  ctx.reply.Ok();
}

void MemoryHelp(CommandContext& ctx) {
  ReplyHelp(ctx, "memory",
            {"DOCTOR", "    Return memory problems reports.", "MALLOC-STATS",
             "    Return internal statistics report from the memory allocator.", "PURGE",
             "    Attempt to purge dirty pages for reclamation by the allocator.", "STATS",
             "    Return information about the memory usage of the server.",
             "USAGE <key> [SAMPLES <count>]",
             "    Return memory in bytes used by <key> and its value. Nested values are",
             "    sampled up to <count> times (default: 5, 0 means sample all)."});
}

// Never reached with a subcommand; MEMORY alone fails the arity check first.
void MemoryContainer(CommandContext& ctx) { ctx.reply.Error(WrongArityError("memory")); }

}  // namespace

void RegisterMemoryFamily(CommandRegistry& r) {
  r.Register({"memory",
              -2,
              0,
              0,
              0,
              0,
              MemoryContainer,
              "server",
              "A container for memory diagnostics commands",
              "4.0.0",
              "@slow",
              {
                  {"doctor", 2, 0, 0, 0, 0, MemoryDoctor, "server",
                   "Outputs memory problems report", "4.0.0", "@slow"},
                  {"help", 2, kCmdLoading | kCmdStale, 0, 0, 0, MemoryHelp, "server",
                   "Show helpful text about the different subcommands", "4.0.0", "@slow"},
                  {"malloc-stats", 2, 0, 0, 0, 0, MemoryMallocStats, "server",
                   "Show allocator internal stats", "4.0.0", "@slow"},
                  {"purge", 2, 0, 0, 0, 0, MemoryPurge, "server",
                   "Ask the allocator to release memory", "4.0.0", "@slow"},
                  {"stats", 2, 0, 0, 0, 0, MemoryStats, "server", "Show memory usage details",
                   "4.0.0", "@slow"},
                  {"usage", -3, kCmdReadOnly, 2, 2, 1, MemoryUsage, "server",
                   "Estimate the memory usage of a key", "4.0.0", "@read @slow"},
              }});
}

}  // namespace kv
