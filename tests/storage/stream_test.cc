// The stream data structure: Redis's listpack node layout, node shaping, tombstones, trimming,
// iteration both ways, consumer groups and the entries-read/lag arithmetic.

#include "storage/stream.h"

#include <algorithm>
#include <map>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "gtest/gtest.h"

namespace kv {
namespace {

using Fields = std::vector<std::string_view>;

// Every live entry from start to end as "id:f=v,f=v".
std::vector<std::string> Dump(const Stream& s, bool rev = false, StreamId start = {},
                              StreamId end = StreamId::Max()) {
  std::vector<std::string> out;
  Stream::Iterator it(s, start, end, rev);
  StreamId id;
  int64_t n;
  while (it.Next(&id, &n)) {
    std::string e = id.ToString() + ":";
    for (int64_t i = 0; i < n; ++i) {
      ListPackValue f;
      ListPackValue v;
      it.NextField(&f, &v);
      char b1[ListPackValue::kIntBufSize];
      char b2[ListPackValue::kIntBufSize];
      e += std::string(f.ToString(b1)) + "=" + std::string(v.ToString(b2)) + ",";
    }
    out.push_back(e);
  }
  return out;
}

// The listpack's elements as text.
std::vector<std::string> Elements(const ListPack& lp) {
  std::vector<std::string> out;
  for (ListPackValue v : lp) {
    char buf[ListPackValue::kIntBufSize];
    out.emplace_back(v.ToString(buf));
  }
  return out;
}

TEST(StreamIdTest, IncrDecrAndText) {
  StreamId id{5, UINT64_MAX};
  EXPECT_TRUE(id.Incr());
  EXPECT_EQ(id, (StreamId{6, 0}));
  EXPECT_TRUE(id.Decr());
  EXPECT_EQ(id, (StreamId{5, UINT64_MAX}));
  StreamId max = StreamId::Max();
  EXPECT_FALSE(max.Incr());
  EXPECT_TRUE(max.IsZero());
  StreamId zero;
  EXPECT_FALSE(zero.Decr());
  EXPECT_EQ(zero, StreamId::Max());
  EXPECT_EQ((StreamId{1, 2}).ToString(), "1-2");
  EXPECT_LT((StreamId{1, 9}), (StreamId{2, 0}));
}

TEST(StreamTest, NodeLayoutIsRedisListpack) {
  Stream s;
  const Stream::NodeLimits limits;
  s.Append({10, 0}, Fields{"a", "1", "b", "x"}, limits);
  s.Append({10, 1}, Fields{"a", "2", "b", "y"}, limits);  // same fields
  s.Append({12, 0}, Fields{"c", "3"}, limits);            // other fields
  ASSERT_EQ(s.nodes().size(), 1u);
  // Master entry: count, deleted, num-fields, fields, 0; then
  // flags, ms-delta, seq-delta, [num-fields, field, value | value]..., lp-count.
  EXPECT_EQ(Elements(s.nodes().begin()->second),
            (std::vector<std::string>{"3", "0", "2", "a", "b", "0",  //
                                      "2", "0", "0", "1", "x", "5",  //
                                      "2", "0", "1", "2", "y", "5",  //
                                      "0", "2", "0", "1", "c", "3", "6"}));
  EXPECT_EQ(s.length(), 3u);
  EXPECT_EQ(s.entries_added(), 3u);
  EXPECT_EQ(s.first_id(), (StreamId{10, 0}));
  EXPECT_EQ(s.last_id(), (StreamId{12, 0}));
  EXPECT_EQ(Dump(s), (std::vector<std::string>{"10-0:a=1,b=x,", "10-1:a=2,b=y,", "12-0:c=3,"}));
  EXPECT_EQ(Dump(s, true),
            (std::vector<std::string>{"12-0:c=3,", "10-1:a=2,b=y,", "10-0:a=1,b=x,"}));
}

TEST(StreamTest, NodesSplitByEntriesAndBytes) {
  Stream s;
  s.Append({1, 0}, Fields{"f", "v"}, {4096, 3});
  for (uint64_t i = 2; i <= 10; ++i) s.Append({i, 0}, Fields{"f", "v"}, {4096, 3});
  ASSERT_EQ(s.nodes().size(), 4u);  // 3 + 3 + 3 + 1
  std::vector<uint64_t> masters;
  for (const auto& [id, lp] : s.nodes()) masters.push_back(id.ms);
  EXPECT_EQ(masters, (std::vector<uint64_t>{1, 4, 7, 10}));

  // Bytes: a node takes an entry while its bytes plus the entry's fields and values stay under
  // the limit.
  Stream b;
  const std::string big(40, 'x');
  for (uint64_t i = 1; i <= 6; ++i) b.Append({i, 0}, Fields{"f", big}, {100, 0});
  for (const auto& [id, lp] : b.nodes()) EXPECT_LT(lp.bytes(), 100u + 41u);
  EXPECT_GT(b.nodes().size(), 1u);
  EXPECT_EQ(Dump(b).size(), 6u);
}

TEST(StreamTest, NodesInsertedAsLoadedReadAsTheOriginal) {
  // What an RDB load does: each node's bytes under its master id, then the saved counters.
  Stream original;
  for (uint64_t i = 1; i <= 7; ++i) {
    original.Append({i, 1}, Fields{"f", std::to_string(i)}, {4096, 3});
  }
  original.Delete({2, 1});
  Stream loaded;
  for (const auto& [master, lp] : original.nodes()) {
    EXPECT_TRUE(loaded.InsertNode(master, lp.Clone()));
  }
  EXPECT_FALSE(loaded.InsertNode(original.nodes().begin()->first, ListPack()));  // key taken
  loaded.set_length(original.length());
  loaded.set_last_id(original.last_id());
  loaded.set_first_id(original.first_id());
  loaded.set_entries_added(original.entries_added());
  EXPECT_EQ(Dump(loaded), Dump(original));
  EXPECT_EQ(Dump(loaded, true), Dump(original, true));
  // It goes on as the original: the next entry joins the last node, deletes and trims agree.
  for (Stream* s : {&original, &loaded}) {
    s->Append({8, 0}, Fields{"f", "8"}, {4096, 3});
    s->Delete({5, 1});
    Stream::TrimArgs trim;
    trim.strategy = Stream::TrimStrategy::kMaxLen;
    trim.maxlen = 4;
    s->Trim(trim);
  }
  EXPECT_EQ(Dump(loaded), Dump(original));
  EXPECT_EQ(loaded.length(), original.length());
  EXPECT_EQ(loaded.first_id(), original.first_id());
  EXPECT_EQ(loaded.nodes().size(), original.nodes().size());
}

TEST(StreamTest, DeleteLeavesTombstonesAndDropsEmptyNodes) {
  Stream s;
  for (uint64_t i = 1; i <= 6; ++i) s.Append({i, 0}, Fields{"f", std::to_string(i)}, {4096, 3});
  EXPECT_TRUE(s.Delete({2, 0}));
  EXPECT_FALSE(s.Delete({2, 0}));
  EXPECT_FALSE(s.Delete({7, 0}));
  EXPECT_FALSE(s.Contains({2, 0}));
  EXPECT_TRUE(s.Contains({3, 0}));
  EXPECT_EQ(s.length(), 5u);
  // The node keeps the tombstone: live 2, deleted 1.
  const ListPack& first = s.nodes().begin()->second;
  EXPECT_EQ(Elements(first)[0], "2");
  EXPECT_EQ(Elements(first)[1], "1");
  EXPECT_TRUE(s.Delete({1, 0}));
  EXPECT_EQ(s.first_id(), (StreamId{3, 0}));
  EXPECT_TRUE(s.Delete({3, 0}));  // the node's last live entry: the node goes
  EXPECT_EQ(s.nodes().size(), 1u);
  EXPECT_EQ(Dump(s), (std::vector<std::string>{"4-0:f=4,", "5-0:f=5,", "6-0:f=6,"}));
  EXPECT_EQ(Dump(s, true, {4, 1}, {5, 0}), (std::vector<std::string>{"5-0:f=5,"}));
  StreamId edge;
  ASSERT_TRUE(s.EdgeId(false, &edge));
  EXPECT_EQ(edge, (StreamId{6, 0}));
}

TEST(StreamTest, TrimExactApproxMinIdAndLimit) {
  auto make = [] {
    Stream s;
    for (uint64_t i = 1; i <= 10; ++i) s.Append({i, 0}, Fields{"f", "v"}, {4096, 4});
    return s;  // nodes: 1-4, 5-8, 9-10
  };
  {
    Stream s = make();
    Stream::TrimArgs a{Stream::TrimStrategy::kMaxLen, true, 0, 5, {}};
    EXPECT_EQ(s.Trim(a), 4);  // whole nodes only: 1-4
    EXPECT_EQ(s.length(), 6u);
    EXPECT_EQ(s.first_id(), (StreamId{5, 0}));
  }
  {
    Stream s = make();
    Stream::TrimArgs a{Stream::TrimStrategy::kMaxLen, false, 0, 5, {}};
    EXPECT_EQ(s.Trim(a), 5);
    EXPECT_EQ(s.length(), 5u);
    EXPECT_EQ(Dump(s).front(), "6-0:f=v,");
    EXPECT_EQ(s.nodes().size(), 2u);  // 5 is a tombstone in the second node
  }
  {
    Stream s = make();
    Stream::TrimArgs a{Stream::TrimStrategy::kMinId, false, 0, 0, {7, 0}};
    EXPECT_EQ(s.Trim(a), 6);
    EXPECT_EQ(s.first_id(), (StreamId{7, 0}));
  }
  {
    Stream s = make();
    Stream::TrimArgs a{Stream::TrimStrategy::kMaxLen, true, 3, 0, {}};  // LIMIT 3 < a node
    EXPECT_EQ(s.Trim(a), 0);
    EXPECT_EQ(s.length(), 10u);
  }
  {
    Stream s = make();
    Stream::TrimArgs a{Stream::TrimStrategy::kMaxLen, false, 0, 0, {}};
    EXPECT_EQ(s.Trim(a), 10);
    EXPECT_EQ(s.length(), 0u);
    EXPECT_TRUE(s.first_id().IsZero());
    EXPECT_EQ(s.last_id(), (StreamId{10, 0}));  // kept: ids never go back
  }
}

TEST(StreamTest, IteratorStartsInsideNodesAndSkipsOutOfRange) {
  Stream s;
  for (uint64_t i = 1; i <= 20; ++i) s.Append({100, i}, Fields{"n", std::to_string(i)}, {4096, 5});
  EXPECT_EQ(Dump(s, false, {100, 7}, {100, 9}).size(), 3u);
  EXPECT_EQ(Dump(s, true, {100, 7}, {100, 9}).front(), "100-9:n=9,");
  EXPECT_TRUE(Dump(s, false, {101, 0}, StreamId::Max()).empty());
  EXPECT_TRUE(Dump(s, true, {0, 0}, {99, 0}).empty());
  EXPECT_EQ(Dump(s, true).size(), 20u);
}

TEST(StreamTest, GroupsDeliverAckAndClaim) {
  Stream s;
  for (uint64_t i = 1; i <= 3; ++i) s.Append({i, 0}, Fields{"f", "v"}, {});
  StreamGroup* g = s.CreateGroup("g", {}, 0);
  ASSERT_NE(g, nullptr);
  EXPECT_EQ(s.CreateGroup("g", {}, 0), nullptr);
  StreamConsumer* alice = g->CreateConsumer("alice", 1000);
  StreamConsumer* bob = g->CreateConsumer("bob", 1000);
  for (uint64_t i = 1; i <= 3; ++i) {
    s.AdvanceGroup(*g, {i, 0});
    g->Deliver({i, 0}, alice, 2000);
  }
  EXPECT_EQ(g->entries_read, 3);
  EXPECT_EQ(s.GroupLag(*g), 0);
  EXPECT_EQ(alice->pel.size(), 3u);
  // Delivered again to another consumer: it moves, its count back to 1.
  g->pel.at({2, 0}).delivery_count = 5;
  g->Deliver({2, 0}, bob, 3000);
  EXPECT_EQ(alice->pel.size(), 2u);
  EXPECT_EQ(g->pel.at({2, 0}).delivery_count, 1u);
  EXPECT_EQ(g->pel.at({2, 0}).consumer, bob);
  EXPECT_TRUE(g->Ack({1, 0}));
  EXPECT_FALSE(g->Ack({1, 0}));
  EXPECT_EQ(alice->pel.size(), 1u);

  // A deep copy: changing the copy leaves the original alone.
  std::unique_ptr<Aggregate> copy = s.Clone();
  auto& c = static_cast<Stream&>(*copy);
  StreamGroup* cg = c.FindGroup("g");
  ASSERT_NE(cg, nullptr);
  EXPECT_EQ(cg->pel.size(), 2u);
  EXPECT_EQ(cg->pel.at({2, 0}).consumer->name, "bob");
  EXPECT_NE(cg->pel.at({2, 0}).consumer, bob);
  EXPECT_EQ(cg->DeleteConsumer(cg->FindConsumer("bob")), 1u);
  EXPECT_EQ(g->pel.size(), 2u);
  EXPECT_EQ(Dump(c), Dump(s));
  EXPECT_TRUE(s.DestroyGroup("g"));
  EXPECT_EQ(s.FindGroup("g"), nullptr);
}

TEST(StreamTest, EntriesReadAndLagAcrossTombstones) {
  Stream s;
  for (uint64_t i = 1; i <= 5; ++i) s.Append({i, 0}, Fields{"f", "v"}, {});
  StreamGroup* g = s.CreateGroup("g", {}, StreamGroup::kInvalidEntriesRead);
  // A group made at 0-0 before the first entry: the distance is known.
  EXPECT_EQ(s.EstimateDistanceFromFirstEver({0, 0}), 0);
  EXPECT_EQ(s.EstimateDistanceFromFirstEver({1, 0}), 1);
  EXPECT_EQ(s.EstimateDistanceFromFirstEver({5, 0}), 5);
  EXPECT_EQ(s.EstimateDistanceFromFirstEver({3, 0}), StreamGroup::kInvalidEntriesRead);
  EXPECT_EQ(s.EstimateDistanceFromFirstEver({6, 0}), StreamGroup::kInvalidEntriesRead);
  EXPECT_EQ(s.GroupLag(*g), 5);
  // A tombstone ahead of the group: the counter cannot be trusted.
  ASSERT_TRUE(s.Delete({3, 0}));
  s.set_max_deleted_id({3, 0});
  g->entries_read = 1;
  g->last_id = {1, 0};
  EXPECT_TRUE(s.RangeHasTombstones({1, 0}, StreamId::Max()));
  EXPECT_EQ(s.GroupLag(*g), std::nullopt);
  // Delivering past the tombstone entry by entry: unknown until the last entry, then exact.
  s.AdvanceGroup(*g, {2, 0});
  EXPECT_EQ(g->entries_read, StreamGroup::kInvalidEntriesRead);
  s.AdvanceGroup(*g, {4, 0});
  EXPECT_EQ(g->entries_read, StreamGroup::kInvalidEntriesRead);
  s.AdvanceGroup(*g, {5, 0});
  EXPECT_EQ(g->entries_read, 5);
  EXPECT_EQ(s.GroupLag(*g), 0);
}

TEST(StreamTest, IntegerLookingFieldsRoundTrip) {
  Stream s;
  s.Append({1, 0}, Fields{"1", "-5", "01", "9223372036854775807"}, {});
  s.Append({2, 0}, Fields{"1", "x", "01", ""}, {});
  EXPECT_EQ(Dump(s),
            (std::vector<std::string>{"1-0:1=-5,01=9223372036854775807,", "2-0:1=x,01=,"}));
}

// Random appends, deletes and trims under random node limits against a plain ordered map: every
// range, both ways, holds the model's entries; `~` trims remove a prefix and never go below the
// limit.
TEST(StreamTest, RandomOperationsMatchAModel) {
  for (uint64_t seed = 1; seed <= 40; ++seed) {
    std::mt19937_64 rng(seed);
    auto uniform = [&](uint64_t n) { return rng() % n; };
    const Stream::NodeLimits limits{uniform(4) == 0 ? 0 : 20 + uniform(200),
                                    static_cast<int64_t>(uniform(8))};
    Stream s;
    std::map<StreamId, std::string> model;  // id -> "f=v,..." as Dump writes it
    StreamId last;
    for (int op = 0; op < 400; ++op) {
      const uint64_t kind = uniform(10);
      if (kind < 6) {
        StreamId id = last;
        id.ms += uniform(3);
        id.seq = id.ms == last.ms ? last.seq + 1 + uniform(2) : uniform(3);
        const bool same = uniform(2) == 0;
        std::vector<std::string> fv;
        for (uint64_t i = 0, n = 1 + uniform(3); i < n; ++i) {
          fv.push_back(same ? std::string(1, static_cast<char>('a' + i))
                            : std::to_string(uniform(5)) + "f");
          fv.push_back(uniform(3) == 0 ? std::to_string(uniform(1000))
                                       : std::string(uniform(30), 'v'));
        }
        std::vector<std::string_view> views(fv.begin(), fv.end());
        s.Append(id, views, limits);
        std::string e;
        for (size_t i = 0; i < fv.size(); i += 2) e += fv[i] + "=" + fv[i + 1] + ",";
        model[id] = e;
        last = id;
      } else if (kind < 8 && !model.empty()) {
        auto it = model.begin();
        std::advance(it, uniform(model.size()));
        EXPECT_TRUE(s.Delete(it->first));
        model.erase(it);
      } else if (kind == 8) {
        Stream::TrimArgs a;
        a.approx = uniform(2) == 0;
        a.limit = a.approx ? static_cast<int64_t>(uniform(3) * 10) : 0;
        const size_t before = model.size();
        if (uniform(2) == 0) {
          a.strategy = Stream::TrimStrategy::kMaxLen;
          a.maxlen = static_cast<int64_t>(uniform(before + 1));
        } else {
          a.strategy = Stream::TrimStrategy::kMinId;
          a.minid = {last.ms == 0 ? 0 : uniform(last.ms + 1), uniform(3)};
        }
        const int64_t removed = s.Trim(a);
        ASSERT_LE(static_cast<size_t>(removed), before);
        for (int64_t i = 0; i < removed; ++i) model.erase(model.begin());
        if (a.strategy == Stream::TrimStrategy::kMaxLen) {
          EXPECT_GE(model.size(), static_cast<size_t>(a.maxlen));
          if (!a.approx) EXPECT_EQ(model.size(), std::min(before, static_cast<size_t>(a.maxlen)));
        } else if (!a.approx && !model.empty()) {
          EXPECT_GE(model.begin()->first, a.minid);
        }
      } else {
        StreamId lo{uniform(last.ms + 2), uniform(3)};
        StreamId hi{lo.ms + uniform(4), uniform(3)};
        std::vector<std::string> want;
        for (auto it = model.lower_bound(lo); it != model.end() && it->first <= hi; ++it) {
          want.push_back(it->first.ToString() + ":" + it->second);
        }
        ASSERT_EQ(Dump(s, false, lo, hi), want) << "seed " << seed;
        std::reverse(want.begin(), want.end());
        ASSERT_EQ(Dump(s, true, lo, hi), want) << "seed " << seed;
      }
      ASSERT_EQ(s.length(), model.size()) << "seed " << seed;
      if (!model.empty()) {
        ASSERT_EQ(s.first_id(), model.begin()->first) << "seed " << seed;
        StreamId edge;
        ASSERT_TRUE(s.EdgeId(false, &edge));
        ASSERT_EQ(edge, model.rbegin()->first);
      }
    }
    std::vector<std::string> all;
    for (const auto& [id, e] : model) all.push_back(id.ToString() + ":" + e);
    EXPECT_EQ(Dump(s), all) << "seed " << seed;
    EXPECT_EQ(Dump(static_cast<const Stream&>(*s.Clone())), all);
  }
}

}  // namespace
}  // namespace kv

namespace kv {
namespace {

// Lazy freeing: the nodes from the oldest, then each group's pending entries and consumers.
TEST(StreamTest, ReleaseSomeFreesNodesThenGroups) {
  Stream s;
  const Stream::NodeLimits limits{4096, 10};
  for (uint64_t i = 1; i <= 1000; ++i) s.Append({i, 0}, Fields{"f", "v"}, limits);
  ASSERT_EQ(s.nodes().size(), 100u);
  for (const char* name : {"g1", "g2"}) {
    StreamGroup* g = s.CreateGroup(name, {}, 0);
    StreamConsumer* alice = g->CreateConsumer("alice", 1000);
    StreamConsumer* bob = g->CreateConsumer("bob", 1000);
    for (uint64_t i = 1; i <= 300; ++i) g->Deliver({i, 0}, i % 2 ? alice : bob, 1000);
  }
  // 100 nodes, then per group 300 pending entries, 300 consumers' entries, 2 consumers, itself.
  const size_t work = 100 + 2 * (300 + 300 + 2 + 1);
  ASSERT_EQ(s.FreeEffort(), 100u + 2 * (1 + 300));
  size_t calls = 0;
  while (!s.ReleaseSome(10)) {
    ++calls;
    if (calls == 5) EXPECT_EQ(s.nodes().size(), 50u);
    if (calls == 10) {
      EXPECT_TRUE(s.nodes().empty());
      EXPECT_EQ(s.groups().size(), 2u);
    }
  }
  EXPECT_EQ(calls + 1, (work + 9) / 10);
  EXPECT_TRUE(s.nodes().empty());
  EXPECT_TRUE(s.groups().empty());
  Stream half;
  for (uint64_t i = 1; i <= 100; ++i) half.Append({i, 0}, Fields{"f", "v"}, limits);
  StreamGroup* g = half.CreateGroup("g", {}, 0);
  g->Deliver({5, 0}, g->CreateConsumer("c", 0), 0);
  EXPECT_FALSE(half.ReleaseSome(3));  // the destructor frees the rest
}

}  // namespace
}  // namespace kv
