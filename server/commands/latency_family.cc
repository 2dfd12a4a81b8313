// LATENCY LATEST|HISTORY|RESET|HISTOGRAM|DOCTOR|GRAPH|HELP, as Redis 7.0.15's latencyCommand.
// The dispatcher records the "command" and "fast-command" events (LatencyMonitor); HISTOGRAM
// reads the per-command histograms of INFO latencystats. DOCTOR reports on those two events
// with Redis's texts; GRAPH lists the samples instead of drawing Redis's sparkline.

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "server/command_registry.h"
#include "server/commands/families.h"
#include "server/commands/help.h"
#include "server/errors.h"
#include "server/strings.h"

namespace kv {
namespace {

using Series = LatencyMonitor::Series;

void LatencyContainer(CommandContext& ctx) {
  // Reached only with no subcommand, which the arity check rejects first.
  ctx.reply.Error(WrongArityError("latency"));
}

// LATENCY LATEST: per event its name, the time and latency of the latest sample and the
// all-time maximum.
void LatencyLatest(CommandContext& ctx) {
  const auto& events = ctx.server.latency_monitor.events();
  ctx.reply.ArrayHeader(events.size());
  for (const auto& [event, series] : events) {
    ctx.reply.ArrayHeader(4);
    ctx.reply.Bulk(event);
    ctx.reply.Integer(series.latest().time_s);
    ctx.reply.Integer(static_cast<int64_t>(series.latest().latency_ms));
    ctx.reply.Integer(static_cast<int64_t>(series.max_ms));
  }
}

// Calls fn(sample) for the event's samples, oldest first.
template <typename Fn>
void ForEachSample(const Series& s, Fn&& fn) {
  for (size_t j = 0; j < LatencyMonitor::kHistory; ++j) {
    const auto& sample = s.samples[(s.next + j) % LatencyMonitor::kHistory];
    if (sample.time_s != 0) fn(sample);
  }
}

// LATENCY HISTORY event: [time, latency] pairs, oldest first.
void LatencyHistory(CommandContext& ctx) {
  const Series* s = ctx.server.latency_monitor.Find(ctx.args[2]);
  if (s == nullptr) return ctx.reply.ArrayHeader(0);
  size_t n = 0;
  ForEachSample(*s, [&](const auto&) { ++n; });
  ctx.reply.ArrayHeader(n);
  ForEachSample(*s, [&](const auto& sample) {
    ctx.reply.ArrayHeader(2);
    ctx.reply.Integer(sample.time_s);
    ctx.reply.Integer(static_cast<int64_t>(sample.latency_ms));
  });
}

// LATENCY RESET [event ...]: how many events were forgotten.
void LatencyReset(CommandContext& ctx) {
  LatencyMonitor& m = ctx.server.latency_monitor;
  size_t resets = 0;
  if (ctx.args.size() == 2) {
    resets = m.ResetAll();
  } else {
    for (size_t j = 2; j < ctx.args.size(); ++j) resets += m.Reset(ctx.args[j]);
  }
  ctx.reply.Integer(static_cast<int64_t>(resets));
}

// One command's entry of LATENCY HISTOGRAM (a command with calls), as Redis's fillCommandCDF.
void ReplyCommandCdf(CommandContext& ctx, const CommandSpec& spec) {
  const CommandStats& stats = ctx.server.command_stats[spec.stats_slot];
  ReplyWriter& r = ctx.reply;
  r.Bulk(FullName(spec));
  r.MapHeader(2);
  r.Bulk("calls");
  r.Integer(static_cast<int64_t>(stats.latency->count()));
  r.Bulk("histogram_usec");
  const auto cdf = stats.latency->CumulativeByPowersOfTwo();
  r.MapHeader(cdf.size());
  for (const auto& [usec, calls] : cdf) {
    r.Integer(static_cast<int64_t>(usec));
    r.Integer(static_cast<int64_t>(calls));
  }
}

// The command named `name` (any case), "parent|sub" for a subcommand, as Redis's
// lookupCommandBySds; null when there is none.
const CommandSpec* LookupCommand(CommandContext& ctx, std::string_view name) {
  const size_t bar = name.find('|');
  const CommandSpec* spec = ctx.server.registry->Find(name.substr(0, bar));
  if (bar == std::string_view::npos || spec == nullptr) return spec;
  const std::string_view sub = name.substr(bar + 1);
  if (sub.find('|') != std::string_view::npos) return nullptr;
  return CommandRegistry::FindSubcommand(*spec, sub);
}

// LATENCY HISTOGRAM [command ...]: a map of command name to {calls, histogram_usec}, for every
// command with calls (or the named ones, a container standing for its subcommands).
void LatencyHistogramCmd(CommandContext& ctx) {
  std::vector<const CommandSpec*> specs;
  auto add = [&](const CommandSpec& spec) {
    if (ctx.server.command_stats[spec.stats_slot].latency) specs.push_back(&spec);
  };
  if (ctx.args.size() == 2) {
    for (const CommandSpec* spec : ctx.server.registry->All()) {
      add(*spec);
      for (const CommandSpec& sub : spec->subcommands) add(sub);
    }
  } else {
    for (size_t j = 2; j < ctx.args.size(); ++j) {
      const CommandSpec* spec = LookupCommand(ctx, ctx.args[j]);
      if (spec == nullptr) continue;
      add(*spec);
      for (const CommandSpec& sub : spec->subcommands) add(sub);
    }
  }
  ctx.reply.MapHeader(specs.size());
  for (const CommandSpec* spec : specs) ReplyCommandCdf(ctx, *spec);
}

std::string Printf(const char* format, auto... values) {
  char buf[512];
  std::snprintf(buf, sizeof(buf), format, values...);
  return buf;
}

// Redis's createLatencyReport, for the events kvserver records.
std::string LatencyReport(CommandContext& ctx) {
  const auto& events = ctx.server.latency_monitor.events();
  const Config& config = ctx.server.config;
  if (events.empty() && config.latency_monitor_threshold == 0) {
    return "I'm sorry, Dave, I can't do that. Latency monitoring is disabled in this Redis "
           "instance. You may use \"CONFIG SET latency-monitor-threshold <milliseconds>.\" in "
           "order to enable it. If we weren't in a deep space mission I'd suggest to take a look "
           "at https://redis.io/topics/latency-monitor.\n";
  }
  std::string report;
  bool slowlog_enabled = false, slowlog_tuning = false, slowlog_inspect = false, scheduler = false;
  int eventnum = 0;
  for (const auto& [event, series] : events) {
    if (++eventnum == 1) {
      report +=
          "Dave, I have observed latency spikes in this Redis instance. You don't mind talking "
          "about it, do you Dave?\n\n";
    }
    // Redis's analyzeLatencyForEvent.
    uint64_t samples = 0, sum = 0, oldest = 0;
    ForEachSample(series, [&](const auto& s) {
      ++samples;
      sum += s.latency_ms;
      if (oldest == 0 || static_cast<uint64_t>(s.time_s) < oldest) oldest = s.time_s;
    });
    const uint64_t avg = samples ? sum / samples : 0;
    uint64_t deviation = 0;
    ForEachSample(series, [&](const auto& s) {
      deviation += s.latency_ms > avg ? s.latency_ms - avg : avg - s.latency_ms;
    });
    const uint64_t mad = samples ? deviation / samples : 0;
    int64_t period = samples ? ctx.now_ms / 1000 - static_cast<int64_t>(oldest) : 0;
    if (samples && period == 0) period = 1;
    report += Printf(
        "%d. %s: %d latency spikes (average %lums, mean deviation %lums, period %.2f sec). Worst "
        "all time event %lums.",
        eventnum, event.c_str(), static_cast<int>(samples), static_cast<unsigned long>(avg),
        static_cast<unsigned long>(mad), static_cast<double>(period) / static_cast<double>(samples),
        static_cast<unsigned long>(series.max_ms));
    if (EqualsIgnoreCase(event, "command")) {
      if (config.slowlog_log_slower_than < 0) {
        slowlog_enabled = true;
      } else if (config.slowlog_log_slower_than / 1000 > config.latency_monitor_threshold) {
        slowlog_tuning = true;
      }
      slowlog_inspect = true;
    }
    if (EqualsIgnoreCase(event, "fast-command")) scheduler = true;
    report += '\n';
  }
  if (eventnum == 0) {
    report +=
        "Dave, no latency spike was observed during the lifetime of this Redis instance, not in "
        "the slightest bit. I honestly think you ought to sit down calmly, take a stress pill, and "
        "think things over.\n";
    return report;
  }
  if (!slowlog_inspect && !scheduler) {
    report +=
        "\nWhile there are latency events logged, I'm not able to suggest any easy fix. Please "
        "use the Redis community to get some help, providing this report in your help request.\n";
    return report;
  }
  report += "\nI have a few advices for you:\n\n";
  const unsigned long long threshold_us =
      static_cast<unsigned long long>(config.latency_monitor_threshold) * 1000;
  if (slowlog_enabled) {
    report += Printf(
        "- There are latency issues with potentially slow commands you are using. Try to enable "
        "the Slow Log Redis feature using the command 'CONFIG SET slowlog-log-slower-than %llu'. "
        "If the Slow log is disabled Redis is not able to log slow commands execution for you.\n",
        threshold_us);
  }
  if (slowlog_tuning) {
    report += Printf(
        "- Your current Slow Log configuration only logs events that are slower than your "
        "configured latency monitor threshold. Please use 'CONFIG SET slowlog-log-slower-than "
        "%llu'.\n",
        threshold_us);
  }
  if (slowlog_inspect) {
    report +=
        "- Check your Slow Log to understand what are the commands you are running which are too "
        "slow to execute. Please check https://redis.io/commands/slowlog for more information.\n";
  }
  if (scheduler) {
    report +=
        "- The system is slow to execute Redis code paths not containing system calls. This "
        "usually means the system does not provide Redis CPU time to run for long periods. You "
        "should try to:\n"
        "  1) Lower the system load.\n"
        "  2) Use a computer / VM just for Redis if you are running other software in the same "
        "system.\n"
        "  3) Check if you have a \"noisy neighbour\" problem.\n"
        "  4) Check with 'redis-cli --intrinsic-latency 100' what is the intrinsic latency in "
        "your system.\n"
        "  5) Check if the problem is allocator-related by recompiling Redis with MALLOC=libc, "
        "if you are using Jemalloc. However this may create fragmentation problems.\n";
  }
  if (slowlog_inspect) {
    report +=
        "- Deleting, expiring or evicting (because of maxmemory policy) large objects is a "
        "blocking operation. If you have very large objects that are often deleted, expired, or "
        "evicted, try to fragment those objects into multiple smaller objects.\n";
  }
  return report;
}

void LatencyDoctor(CommandContext& ctx) { ctx.reply.Verbatim(LatencyReport(ctx)); }

// LATENCY GRAPH event: Redis's heading, then one line per sample (age and latency) where Redis
// draws a sparkline.
void LatencyGraph(CommandContext& ctx) {
  const auto& events = ctx.server.latency_monitor.events();
  auto it = events.find(ctx.args[2]);
  if (it == events.end()) {
    return ctx.reply.Error("No samples available for event '" +
                           std::string(ctx.args[2].substr(0, ctx.args[2].find('\0'))) + "'");
  }
  const Series& s = it->second;
  uint64_t low = 0, high = 0;
  bool first = true;
  std::string rows;
  ForEachSample(s, [&](const auto& sample) {
    low = first ? sample.latency_ms : std::min(low, sample.latency_ms);
    high = first ? sample.latency_ms : std::max(high, sample.latency_ms);
    first = false;
    // Redis's labels: how long ago, in seconds, minutes, hours or days.
    const int64_t ago = ctx.now_ms / 1000 - sample.time_s;
    std::string label = ago < 60      ? std::to_string(ago) + "s"
                        : ago < 3600  ? std::to_string(ago / 60) + "m"
                        : ago < 86400 ? std::to_string(ago / 3600) + "h"
                                      : std::to_string(ago / 86400) + "d";
    rows += label + " " + std::to_string(sample.latency_ms) + " ms\n";
  });
  std::string graph = it->first + " - high " + std::to_string(high) + " ms, low " +
                      std::to_string(low) + " ms (all time high " + std::to_string(s.max_ms) +
                      " ms)\n" + std::string(80, '-') + "\n" + rows;
  ctx.reply.Verbatim(graph);
}

void LatencyHelp(CommandContext& ctx) {
  ReplyHelp(ctx, "latency",
            {"DOCTOR", "    Return a human readable latency analysis report.", "GRAPH <event>",
             "    Return an ASCII latency graph for the <event> class.", "HISTORY <event>",
             "    Return time-latency samples for the <event> class.", "LATEST",
             "    Return the latest latency samples for all events.", "RESET [<event> ...]",
             "    Reset latency data of one or more <event> classes.",
             "    (default: reset all data for all event classes)", "HISTOGRAM [COMMAND ...]",
             "    Return a cumulative distribution of latencies in the format of a histogram for "
             "the specified command names.",
             "    If no commands are specified then all histograms are replied."});
}

}  // namespace

void RegisterLatencyFamily(CommandRegistry& r) {
  constexpr uint32_t kFlags = kCmdAdmin | kCmdNoScript | kCmdLoading | kCmdStale;
  constexpr std::string_view kCat = "@admin @slow @dangerous";
  r.Register({"latency",
              -2,
              0,
              0,
              0,
              0,
              LatencyContainer,
              "server",
              "A container for latency diagnostics commands",
              "2.8.13",
              "@slow",
              {
                  {"doctor", 2, kFlags, 0, 0, 0, LatencyDoctor, "server",
                   "Return a human readable latency analysis report.", "2.8.13", kCat},
                  {"graph", 3, kFlags, 0, 0, 0, LatencyGraph, "server",
                   "Return a latency graph for the event.", "2.8.13", kCat},
                  {"help", 2, kCmdLoading | kCmdStale, 0, 0, 0, LatencyHelp, "server",
                   "Show helpful text about the different subcommands.", "2.8.13", "@slow"},
                  {"histogram", -2, kFlags, 0, 0, 0, LatencyHistogramCmd, "server",
                   "Return the cumulative distribution of latencies of a subset of commands or "
                   "all.",
                   "7.0.0", kCat},
                  {"history", 3, kFlags, 0, 0, 0, LatencyHistory, "server",
                   "Return timestamp-latency samples for the event.", "2.8.13", kCat},
                  {"latest", 2, kFlags, 0, 0, 0, LatencyLatest, "server",
                   "Return the latest latency samples for all events.", "2.8.13", kCat},
                  {"reset", -2, kFlags, 0, 0, 0, LatencyReset, "server",
                   "Reset latency data for one or more events.", "2.8.13", kCat},
              }});
}

}  // namespace kv
