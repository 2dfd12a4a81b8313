// HyperLogLog: PFADD, PFCOUNT, PFMERGE, PFSELFTEST and PFDEBUG, as Redis 7.0's hyperloglog.c.
// The value is a plain string in Redis's HLL layout (storage/hyperloglog), so GET, SET, COPY and
// the rest see it as Redis does; every command that writes an HLL leaves the string "raw", as
// Redis's dbUnshareStringValue.

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "server/client_registry.h"
#include "server/command_registry.h"
#include "server/commands/families.h"
#include "server/commands/lookup.h"
#include "server/errors.h"
#include "server/strings.h"
#include "storage/hyperloglog.h"

namespace kv {
namespace {

constexpr std::string_view kInvalidHll = "-INVALIDOBJ Corrupted HLL object detected";
constexpr std::string_view kNotHll = "-WRONGTYPE Key is not a valid HyperLogLog string value.";

size_t SparseMaxBytes(const CommandContext& ctx) {
  return static_cast<size_t>(ctx.server.config.hll_sparse_max_bytes);
}

// isHLLObjectOrReply: a string holding an HLL, else WRONGTYPE (a sorted set, ...) or Redis's
// not-an-HLL error.
bool CheckHll(CommandContext& ctx, const Value& v) {
  if (!v.is_string()) {
    ctx.reply.Error(errors::kWrongType);
    return false;
  }
  if (!hll::LooksValid(v.str())) {
    ctx.reply.Error(kNotHll);
    return false;
  }
  return true;
}

// createHLLObject + dbAdd: a new empty (sparse) HLL at `key`, a raw string as Redis's.
Value& CreateHll(CommandContext& ctx, std::string_view key) {
  bool inserted = false;
  Value& v = ctx.db().FindOrInsert(key, ctx.now_ms, &inserted);
  v.SetString(hll::Create());
  v.mutable_str();
  return v;
}

// PFADD key [element ...]: 1 if a register changed (or the key was created), else 0.
void PfAdd(CommandContext& ctx) {
  const std::string_view key = ctx.args[1];
  Value* v = ctx.db().Find(key, ctx.now_ms);
  uint64_t updated = 0;
  if (v == nullptr) {
    v = &CreateHll(ctx, key);
    ++updated;
  } else if (!CheckHll(ctx, *v)) {
    return;
  }
  CompactString& s = v->mutable_str();
  const size_t max_bytes = SparseMaxBytes(ctx);
  for (size_t j = 2; j < ctx.args.size(); ++j) {
    const int r = hll::Add(s, ctx.args[j], max_bytes);
    if (r == 1) ++updated;
    if (r == -1) return ctx.reply.Error(kInvalidHll);
  }
  if (updated != 0) {
    ctx.KeyModified(key);
    ctx.Notify(kNotifyString, "pfadd", key);
    ctx.CountChanges(updated);
    hll::InvalidateCache(s);
  }
  ctx.reply.Integer(updated != 0 ? 1 : 0);
}

// PFCOUNT key [key ...]: the cardinality of one HLL (cached in its header), or of the union of
// several.
void PfCount(CommandContext& ctx) {
  if (ctx.args.size() > 2) {
    std::vector<uint8_t> max(hll::kRegisters, 0);
    for (size_t j = 1; j < ctx.args.size(); ++j) {
      const Value* v = LookupRead(ctx, ctx.args[j]);
      if (v == nullptr) continue;  // an empty HLL
      if (!CheckHll(ctx, *v)) return;
      if (!hll::MergeInto(v->str(), max.data())) return ctx.reply.Error(kInvalidHll);
    }
    return ctx.reply.Integer(static_cast<int64_t>(hll::CountRaw(max.data())));
  }
  Value* v = ctx.db().Find(ctx.args[1], ctx.now_ms);
  // Redis's lookupKeyRead, on a value this command may rewrite: a hit or a miss (and "keymiss").
  ++(v != nullptr ? ctx.server.stats.keyspace_hits : ctx.server.stats.keyspace_misses);
  if (v == nullptr) {
    ctx.Notify(kNotifyKeyMiss, "keymiss", ctx.args[1]);
    return ctx.reply.Integer(0);
  }
  if (!CheckHll(ctx, *v)) return;
  CompactString& s = v->mutable_str();
  uint64_t card;
  if (!hll::CachedCardinality(s.view(), &card)) {
    if (!hll::Count(s.view(), &card)) return ctx.reply.Error(kInvalidHll);
    hll::SetCachedCardinality(s, card);
    // A read that rewrites the cached cardinality: Redis signals the key (WATCH, tracking).
    ctx.KeyModified(ctx.args[1]);
    ctx.CountChanges();
  }
  ctx.reply.Integer(static_cast<int64_t>(card));
}

// PFMERGE destkey [sourcekey ...]: the union into destkey (dense if any input is).
void PfMerge(CommandContext& ctx) {
  std::vector<uint8_t> max(hll::kRegisters, 0);
  bool use_dense = false;
  for (size_t j = 1; j < ctx.args.size(); ++j) {
    const Value* v = LookupRead(ctx, ctx.args[j]);
    if (v == nullptr) continue;
    if (!CheckHll(ctx, *v)) return;
    if (hll::EncodingOf(v->str()) == hll::kDense) use_dense = true;
    if (!hll::MergeInto(v->str(), max.data())) return ctx.reply.Error(kInvalidHll);
  }
  const std::string_view key = ctx.args[1];
  Value* v = ctx.db().Find(key, ctx.now_ms);
  if (v == nullptr) v = &CreateHll(ctx, key);
  CompactString& s = v->mutable_str();
  if (use_dense && !hll::SparseToDense(s)) return ctx.reply.Error(kInvalidHll);
  const size_t max_bytes = SparseMaxBytes(ctx);
  for (size_t j = 0; j < hll::kRegisters; ++j) {
    if (max[j] != 0) hll::SetRegister(s, j, max[j], max_bytes);
  }
  hll::InvalidateCache(s);
  ctx.KeyModified(key);
  // Redis notifies PFMERGE as a "pfadd", a mass-add of elements.
  ctx.Notify(kNotifyString, "pfadd", key);
  ctx.CountChanges();
  ctx.reply.Ok();
}

// PFSELFTEST: the register packing and the estimator's error bounds, dense and sparse side by
// side over ten million elements, as Redis's.
void PfSelfTest(CommandContext& ctx) {
  std::mt19937_64 rng{std::random_device{}()};
  std::vector<uint8_t> dense(hll::kDenseSize, 0);
  uint8_t* registers = dense.data() + hll::kHeaderSize;
  std::vector<uint8_t> bytecounters(hll::kRegisters);
  // Test 1: every register keeps its value without disturbing its neighbours.
  for (int cycle = 0; cycle < 1000; ++cycle) {
    for (size_t i = 0; i < hll::kRegisters; ++i) {
      const auto r = static_cast<uint8_t>(rng() & 63);
      bytecounters[i] = r;
      hll::SetDenseRegister(registers, i, r);
    }
    for (size_t i = 0; i < hll::kRegisters; ++i) {
      const uint8_t val = hll::GetDenseRegister(registers, i);
      if (val != bytecounters[i]) {
        return ctx.reply.Error("TESTFAILED Register " + std::to_string(i) + " should be " +
                               std::to_string(bytecounters[i]) + " but is " + std::to_string(val));
      }
    }
  }
  // Test 2: the approximation error, and dense and sparse agreeing.
  std::memset(registers, 0, hll::kDenseSize - hll::kHeaderSize);
  std::memcpy(dense.data(), "HYLL", 4);
  CompactString sparse(hll::Create());
  const double relerr = 1.04 / std::sqrt(static_cast<double>(hll::kRegisters));
  int64_t checkpoint = 1;
  const uint64_t seed = rng();
  const size_t max_bytes = SparseMaxBytes(ctx);
  const std::string_view dense_view(reinterpret_cast<const char*>(dense.data()), dense.size());
  for (int64_t j = 1; j <= 10000000; ++j) {
    const uint64_t ele = static_cast<uint64_t>(j) ^ seed;
    const std::string_view bytes(reinterpret_cast<const char*>(&ele), sizeof ele);
    size_t index;
    const int count = hll::PatternLength(bytes, &index);
    if (count > hll::GetDenseRegister(registers, index)) {
      hll::SetDenseRegister(registers, index, static_cast<uint8_t>(count));
    }
    hll::Add(sparse, bytes, max_bytes);
    if (j != checkpoint) continue;
    if (static_cast<uint64_t>(j) < max_bytes / 2 &&
        hll::EncodingOf(sparse.view()) != hll::kSparse) {
      return ctx.reply.Error("TESTFAILED sparse encoding not used");
    }
    uint64_t dense_card = 0, sparse_card = 0;
    hll::Count(dense_view, &dense_card);
    hll::Count(sparse.view(), &sparse_card);
    if (dense_card != sparse_card) return ctx.reply.Error("TESTFAILED dense/sparse disagree");
    int64_t abserr = checkpoint - static_cast<int64_t>(dense_card);
    uint64_t maxerr =
        static_cast<uint64_t>(std::ceil(relerr * 6 * static_cast<double>(checkpoint)));
    if (j == 10) maxerr = 1;
    if (abserr < 0) abserr = -abserr;
    if (abserr > static_cast<int64_t>(maxerr)) {
      return ctx.reply.Error("TESTFAILED Too big error. card:" + std::to_string(checkpoint) +
                             " abserr:" + std::to_string(abserr));
    }
    checkpoint *= 10;
  }
  ctx.reply.Ok();
}

// Redis's islocalClient: a unix socket client, or one from 127.0.0.1 or ::1.
bool IsLocalClient(CommandContext& ctx) {
  if (ctx.server.clients == nullptr) return true;  // in-process: no socket at all
  bool local = false;
  ctx.server.clients->ForEachClient([&](const ClientInfo& info) {
    if (info.state != &ctx.conn) return;
    local =
        info.unix_socket || info.addr.starts_with("127.0.0.1:") || info.addr.starts_with("[::1]:");
  });
  return local;
}

// PFDEBUG GETREG|DECODE|ENCODING|TODENSE key. As DEBUG, refused unless enable-debug-command
// allows the client (Redis 7.0 runs it for anyone: kvserver guards its internals as DEBUG's).
void PfDebug(CommandContext& ctx) {
  const std::string& mode = ctx.server.config.enable_debug_command;
  if (!(mode == "yes" || (mode == "local" && IsLocalClient(ctx)))) {
    return ctx.reply.Error(
        "PFDEBUG command not allowed. If the enable-debug-command option is set to \"local\", "
        "you can run it from a local connection, otherwise you need to set this option in the "
        "configuration file, and then restart the server.");
  }
  const std::string_view cmd = ctx.args[1];
  Value* v = ctx.db().Find(ctx.args[2], ctx.now_ms);
  if (v == nullptr) return ctx.reply.Error("The specified key does not exist");
  if (!CheckHll(ctx, *v)) return;
  CompactString& s = v->mutable_str();
  if (OptionIs(cmd, "getreg")) {
    if (hll::EncodingOf(s.view()) == hll::kSparse) {
      if (!hll::SparseToDense(s)) return ctx.reply.Error(kInvalidHll);
      ctx.CountChanges();
    }
    ctx.reply.ArrayHeader(hll::kRegisters);
    for (size_t j = 0; j < hll::kRegisters; ++j) {
      ctx.reply.Integer(hll::DenseRegister(s.view(), j));
    }
  } else if (OptionIs(cmd, "decode")) {
    if (hll::EncodingOf(s.view()) != hll::kSparse) {
      return ctx.reply.Error("HLL encoding is not sparse");
    }
    ctx.reply.Bulk(hll::DecodeSparse(s.view()));
  } else if (OptionIs(cmd, "encoding")) {
    ctx.reply.SimpleString(hll::EncodingOf(s.view()) == hll::kDense ? "dense" : "sparse");
  } else if (OptionIs(cmd, "todense")) {
    bool converted = false;
    if (hll::EncodingOf(s.view()) == hll::kSparse) {
      if (!hll::SparseToDense(s)) return ctx.reply.Error(kInvalidHll);
      converted = true;
      ctx.CountChanges();
    }
    ctx.reply.Integer(converted ? 1 : 0);
  } else {
    ctx.reply.Error("Unknown PFDEBUG subcommand '" + std::string(cmd.substr(0, cmd.find('\0'))) +
                    "'");
  }
}

}  // namespace

void RegisterHllFamily(CommandRegistry& r) {
  r.Register({"pfadd", -2, kCmdWrite | kCmdDenyOom | kCmdFast, 1, 1, 1, PfAdd, "hyperloglog",
              "Adds the specified elements to the specified HyperLogLog.", "2.8.9",
              "@write @hyperloglog @fast"});
  r.Register(
      {"pfcount", -2, kCmdReadOnly | kCmdMayReplicate, 1, -1, 1, PfCount, "hyperloglog",
       "Return the approximated cardinality of the set(s) observed by the HyperLogLog at key(s).",
       "2.8.9", "@read @hyperloglog @slow"});
  r.Register({"pfmerge", -2, kCmdWrite | kCmdDenyOom, 1, -1, 1, PfMerge, "hyperloglog",
              "Merge N different HyperLogLogs into a single one.", "2.8.9",
              "@write @hyperloglog @slow"});
  r.Register({"pfselftest", 1, kCmdAdmin, 0, 0, 0, PfSelfTest, "hyperloglog",
              "An internal command for testing HyperLogLog values", "2.8.9",
              "@hyperloglog @admin @slow @dangerous"});
  r.Register({"pfdebug", 3, kCmdWrite | kCmdDenyOom | kCmdAdmin, 2, 2, 1, PfDebug, "hyperloglog",
              "Internal commands for debugging HyperLogLog values", "2.8.9",
              "@write @hyperloglog @admin @slow @dangerous"});
}

}  // namespace kv
