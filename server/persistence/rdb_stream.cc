// Streams in Redis's RDB encoding (rdb.c's rdbSaveObject and rdbLoadObject for OBJ_STREAM):
// RDB_TYPE_STREAM_LISTPACKS_2 written, it and RDB_TYPE_STREAM_LISTPACKS read. The listpack nodes
// are saved as they are, each keyed by its master id as 16 big-endian bytes (the radix tree's
// key); then the length, the last, first and max-deleted ids, entries-added, and each consumer
// group with its global PEL (ids raw, delivery time and count) and its consumers (name, seen
// time, the ids of their PEL).

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "protocol/number.h"
#include "server/persistence/rdb_format.h"
#include "server/persistence/rdb_reader.h"
#include "server/persistence/rdb_writer.h"
#include "storage/listpack.h"
#include "storage/stream.h"

namespace kv {
namespace {

constexpr size_t kIdBytes = 16;         // sizeof(streamID)
constexpr int64_t kFlagSameFields = 2;  // STREAM_ITEM_FLAG_SAMEFIELDS

// A stream id as the radix trees key it: ms then seq, each 64 bits big-endian.
void AppendIdKey(std::string* out, StreamId id) {
  for (int shift = 56; shift >= 0; shift -= 8) out->push_back(static_cast<char>(id.ms >> shift));
  for (int shift = 56; shift >= 0; shift -= 8) out->push_back(static_cast<char>(id.seq >> shift));
}

StreamId IdFromKey(std::string_view key) {
  StreamId id;
  for (size_t i = 0; i < 8; ++i) id.ms = id.ms << 8 | static_cast<uint8_t>(key[i]);
  for (size_t i = 8; i < 16; ++i) id.seq = id.seq << 8 | static_cast<uint8_t>(key[i]);
  return id;
}

// lpGetIntegerIfValid: an integer element, or a string that is one.
bool IntegerAt(const ListPack& lp, ListPack::Pos p, int64_t* v) {
  if (p == ListPack::npos) return false;
  const ListPackValue e = lp.Get(p);
  if (e.is_int) {
    *v = e.num;
    return true;
  }
  return ListPack::StringToInt64(e.str, v);
}

// streamValidateListpackIntegrity in deep mode, on a list pack already known well-formed: the
// master entry [count][deleted][num-fields][field...][0], then count + deleted entries
// [flags][ms-delta][seq-delta]([num-fields][field...])[value...][lp-count], and nothing after.
// Negative counts, which Redis's walk lets through in some combinations, are refused too: the
// stream's code takes them as sizes.
bool ValidNode(const ListPack& lp) {
  ListPack::Pos p = lp.First();
  int64_t count, deleted, master_fields, zero;
  if (!IntegerAt(lp, p, &count) || count < 0) return false;
  p = lp.Next(p);
  if (!IntegerAt(lp, p, &deleted) || deleted < 0) return false;
  p = lp.Next(p);
  if (!IntegerAt(lp, p, &master_fields) || master_fields < 0) return false;
  p = lp.Next(p);
  for (int64_t j = 0; j < master_fields; ++j) {
    if (p == ListPack::npos) return false;
    p = lp.Next(p);
  }
  if (!IntegerAt(lp, p, &zero) || zero != 0) return false;
  p = lp.Next(p);
  for (int64_t entries = count + deleted; entries > 0; --entries) {
    int64_t flags, delta, fields = master_fields, extra = 3, lp_count;
    if (!IntegerAt(lp, p, &flags)) return false;
    p = lp.Next(p);
    for (int k = 0; k < 2; ++k) {
      if (!IntegerAt(lp, p, &delta)) return false;
      p = lp.Next(p);
    }
    if (!(flags & kFlagSameFields)) {
      if (!IntegerAt(lp, p, &fields) || fields < 0) return false;
      p = lp.Next(p);
      for (int64_t j = 0; j < fields; ++j) {
        if (p == ListPack::npos) return false;
        p = lp.Next(p);
      }
      extra += fields + 1;
    }
    for (int64_t j = 0; j < fields; ++j) {
      if (p == ListPack::npos) return false;
      p = lp.Next(p);
    }
    if (!IntegerAt(lp, p, &lp_count) || lp_count != fields + extra) return false;
    p = lp.Next(p);
  }
  return p == ListPack::npos;
}

// The node's list pack, every entry checked. Redis checks a stream node's header shallowly
// (lpValidateIntegrity with deep = 0) and then walks it itself, so an element count in the header
// that is wrong passes there; here it is recounted rather than refused.
std::optional<ListPack> FromStreamBytes(std::string_view bytes) {
  std::optional<ListPack> lp = ListPack::FromBytes(bytes, /*deep=*/true);
  if (lp || bytes.size() < ListPack::kHeaderSize) return lp;
  std::string recount(bytes);
  recount[4] = recount[5] = static_cast<char>(0xff);  // LP_HDR_NUMELE_UNKNOWN
  lp = ListPack::FromBytes(recount, /*deep=*/true);
  if (lp) lp->size();  // writes the real count back (when it fits), as lpLength
  return lp;
}

}  // namespace

void RdbWriter::StreamObject(const Stream& s) {
  std::string key;
  key.reserve(kIdBytes);
  Length(s.nodes().size());
  for (const auto& [master, lp] : s.nodes()) {
    key.clear();
    AppendIdKey(&key, master);
    String(key);
    String(lp.view());
  }
  Length(s.length());
  for (StreamId id : {s.last_id(), s.first_id(), s.max_deleted_id()}) {
    Length(id.ms);
    Length(id.seq);
  }
  Length(s.entries_added());
  Length(s.groups().size());
  for (const auto& [name, g] : s.groups()) {
    String(name);
    Length(g->last_id.ms);
    Length(g->last_id.seq);
    Length(static_cast<uint64_t>(g->entries_read));  // -1 (unknown) as Redis: all ones
    Length(g->pel.size());
    for (const auto& [id, nack] : g->pel) {
      AppendIdKey(&out(), id);
      Int64(nack.delivery_time);
      Length(nack.delivery_count);
    }
    Length(g->consumers.size());
    for (const auto& [cname, c] : g->consumers) {
      String(cname);
      Int64(c->seen_time);
      Length(c->pel.size());
      for (StreamId id : c->pel) AppendIdKey(&out(), id);
    }
  }
}

bool RdbReader::RawId(StreamId* id) {
  if (remaining() < kIdBytes) return Fail("Unexpected EOF reading RDB file");
  *id = IdFromKey(data_.substr(at_, kIdBytes));
  at_ += kIdBytes;
  return true;
}

bool RdbReader::StreamMetaLength(uint64_t* v) {
  // rdbLoadLen's error value, RDB_LENERR, for a length byte of no known encoding: it consumed the
  // byte, reported the error (only logged under RESTORE) and rdbLoadObject takes the value as is
  // for the ids and counters, checking only that the input did not run out.
  if (remaining() > 0) {
    const uint8_t first = static_cast<uint8_t>(data_[at_]);
    if (first >> 6 == 2 && first != rdb::k32BitLen && first != rdb::k64BitLen) {
      ++at_;
      *v = UINT64_MAX;
      return true;
    }
  }
  return Length(v);
}

bool RdbReader::LoadStream(int type, DetachedValue* out) {
  const bool v2 = type == rdb::kTypeStreamListPacks2;
  auto s = std::make_unique<Stream>();
  uint64_t listpacks;
  if (!Length(&listpacks)) return Fail("Stream listpacks len loading failed.");
  std::string scratch;
  std::string_view bytes;
  while (listpacks-- > 0) {
    if (!String(&bytes, &scratch)) {
      return Fail("Stream master ID loading failed: invalid encoding or I/O error.");
    }
    if (bytes.size() != kIdBytes) {
      return Fail("Stream node key entry is not the size of a stream ID");
    }
    const StreamId master = IdFromKey(bytes);
    if (!String(&bytes, &scratch)) return Fail("Stream listpacks loading failed.");
    // Always the deep check (sanitize-dump-payload yes): the stream's reads trust the node.
    std::optional<ListPack> lp = FromStreamBytes(bytes);
    if (!lp || !ValidNode(*lp)) return Fail("Stream listpack integrity check failed.");
    if (lp->empty()) return Fail("Empty listpack inside stream");
    if (!s->InsertNode(master, std::move(*lp))) {
      return Fail("Listpack re-added with existing key");
    }
  }
  uint64_t length;
  StreamId last;
  if (!StreamMetaLength(&length) || !StreamMetaLength(&last.ms) || !StreamMetaLength(&last.seq)) {
    return Fail("Stream object metadata loading failed.");
  }
  s->set_length(length);
  s->set_last_id(last);
  if (v2) {
    StreamId first, max_deleted;
    uint64_t entries_added;
    if (!StreamMetaLength(&first.ms) || !StreamMetaLength(&first.seq) ||
        !StreamMetaLength(&max_deleted.ms) || !StreamMetaLength(&max_deleted.seq) ||
        !StreamMetaLength(&entries_added)) {
      return Fail("Stream object metadata loading failed.");
    }
    s->set_first_id(first);
    s->set_max_deleted_id(max_deleted);
    s->set_entries_added(entries_added);
  } else {
    // Before 7.0: entries-added starts at the length, the first id is found (the largest id when
    // there is none, as streamGetEdgeID).
    s->set_entries_added(length);
    StreamId first;
    if (!s->EdgeId(true, &first)) first = StreamId::Max();
    s->set_first_id(first);
  }
  if (length != 0 && s->nodes().empty()) {
    return Fail("Stream length inconsistent with rax entries");
  }

  uint64_t groups;
  if (!Length(&groups)) return Fail("Stream cgroup count loading failed.");
  while (groups-- > 0) {
    std::string name;
    if (!String(&name)) return Fail("Error reading the consumer group name from Stream");
    StreamId group_last;
    if (!StreamMetaLength(&group_last.ms) || !StreamMetaLength(&group_last.seq)) {
      return Fail("Stream cgroup ID loading failed.");
    }
    int64_t entries_read;
    if (v2) {
      uint64_t offset;
      if (!StreamMetaLength(&offset)) return Fail("Stream cgroup offset loading failed.");
      entries_read = static_cast<int64_t>(offset);
    } else {
      entries_read = s->EstimateDistanceFromFirstEver(group_last);
    }
    StreamGroup* g = s->CreateGroup(name, group_last, entries_read);
    if (g == nullptr) return Fail("Duplicated consumer group name " + name);

    // The global PEL, whose owners the consumers' PELs give next.
    uint64_t pel_size;
    if (!Length(&pel_size)) return Fail("Stream PEL size loading failed.");
    while (pel_size-- > 0) {
      StreamId id;
      if (!RawId(&id)) return Fail("Stream PEL ID loading failed.");
      StreamNack nack;
      uint64_t count;
      if (!Int64(&nack.delivery_time) || !StreamMetaLength(&count)) {
        return Fail("Stream PEL NACK loading failed.");
      }
      nack.delivery_count = count;
      nack.consumer = nullptr;
      if (!g->pel.try_emplace(id, nack).second) {
        return Fail("Duplicated global PEL entry loading stream consumer group");
      }
    }
    uint64_t consumers;
    if (!Length(&consumers)) return Fail("Stream consumers num loading failed.");
    while (consumers-- > 0) {
      std::string cname;
      if (!String(&cname)) return Fail("Error reading the consumer name from Stream group.");
      if (g->FindConsumer(cname) != nullptr) return Fail("Duplicate stream consumer detected.");
      int64_t seen;
      if (!Int64(&seen)) return Fail("Stream short read reading seen time.");
      StreamConsumer* c = g->CreateConsumer(cname, seen);
      if (!Length(&pel_size)) return Fail("Stream consumer PEL num loading failed.");
      while (pel_size-- > 0) {
        StreamId id;
        if (!RawId(&id)) return Fail("Stream short read reading PEL streamID.");
        auto it = g->pel.find(id);
        if (it == g->pel.end()) return Fail("Consumer entry not found in group global PEL");
        // An entry owned twice would leave a consumer holding an id the group no longer ties to
        // it (Redis lets another consumer's claim through; kvserver refuses it).
        if (it->second.consumer != nullptr) {
          return Fail("Duplicated consumer PEL entry  loading a stream consumer group");
        }
        it->second.consumer = c;
        c->pel.insert(id);
      }
    }
    for (const auto& [id, nack] : g->pel) {
      if (nack.consumer == nullptr) return Fail("Stream CG PEL entry without consumer");
    }
  }
  out->aggregate = std::move(s);
  return true;
}

}  // namespace kv
