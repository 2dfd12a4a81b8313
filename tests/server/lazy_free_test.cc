// Lazy freeing on the event loop (server/lazy_free.h): the queue, its slices and INFO's
// counters, and through the command harness (one slice per command, as the loop runs one per
// turn) UNLINK and FLUSHALL ASYNC of big values while other commands run.

#include "server/lazy_free.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "storage/set.h"
#include "tests/support/command_harness.h"

namespace kv {
namespace {

std::unique_ptr<Set> SetOf(int members) {
  auto set = std::make_unique<Set>();
  for (int i = 0; i < members; ++i) set->Add("member:" + std::to_string(i) + ":abcdefgh", 512);
  return set;
}

TEST(LazyFreerTest, SmallValuesAreFreedAtOnceBigOnesQueued) {
  LazyFreer freer;
  freer.FreeValue(SetOf(LazyFreer::kThreshold));  // effort 64: freed at once
  freer.FreeValue(nullptr);
  EXPECT_EQ(freer.pending_objects(), 0u);
  EXPECT_EQ(freer.freed_objects(), 0u);
  EXPECT_FALSE(freer.RunSlice());

  freer.FreeValue(SetOf(LazyFreer::kThreshold + 1));
  freer.FreeValue(SetOf(100000));
  EXPECT_EQ(freer.pending_objects(), 2u);
  EXPECT_EQ(freer.freed_objects(), 0u);
  // A slice of no time is one step: the small set goes, the big one is under way.
  EXPECT_TRUE(freer.RunSlice(std::chrono::nanoseconds(0)));
  EXPECT_EQ(freer.pending_objects(), 1u);
  EXPECT_EQ(freer.freed_objects(), 1u);
  size_t slices = 1;
  while (freer.RunSlice(std::chrono::nanoseconds(0))) ++slices;
  // 100,000 members in a table of 131,072 slots, 1024 slots a step.
  EXPECT_EQ(slices, 131072u / LazyFreer::kStep);
  EXPECT_EQ(freer.pending_objects(), 0u);
  EXPECT_EQ(freer.freed_objects(), 2u);

  freer.ResetFreedObjects();
  EXPECT_EQ(freer.freed_objects(), 0u);
}

// With a way to post, the freer keeps exactly one slice posted while work remains.
TEST(LazyFreerTest, PostsOneSliceAtATimeUntilDone) {
  LazyFreer freer;
  std::vector<std::function<void()>> posted;
  freer.SetPost([&](std::function<void()> fn) { posted.push_back(std::move(fn)); });
  freer.FreeValue(SetOf(10));
  EXPECT_TRUE(posted.empty()) << "nothing queued, nothing posted";
  freer.FreeValue(SetOf(200000));
  freer.FreeValue(SetOf(1000));
  ASSERT_EQ(posted.size(), 1u);
  size_t slices = 0;
  while (!posted.empty()) {
    auto slice = std::move(posted.back());
    posted.pop_back();
    slice();
    ++slices;
    ASSERT_LE(posted.size(), 1u);
  }
  EXPECT_GT(slices, 1u);
  EXPECT_EQ(freer.pending_objects(), 0u);
  EXPECT_EQ(freer.freed_objects(), 2u);
  // Work arriving later posts again.
  freer.FreeValue(SetOf(1000));
  EXPECT_EQ(posted.size(), 1u);
  freer.SetPost(nullptr);
  posted.back()();  // the slice in flight runs, and posts nothing more
  EXPECT_EQ(posted.size(), 1u);
  EXPECT_EQ(freer.pending_objects(), 0u);
}

TEST(LazyFreerTest, DrainAndDestructionFreeEverything) {
  LazyFreer freer;
  freer.FreeValue(SetOf(50000));
  freer.FreeValue(SetOf(50000));
  freer.Drain();
  EXPECT_EQ(freer.pending_objects(), 0u);
  EXPECT_EQ(freer.freed_objects(), 2u);
  LazyFreer dropped;
  dropped.FreeValue(SetOf(50000));
  dropped.RunSlice(std::chrono::nanoseconds(0));
  // ~LazyFreer frees the rest (ASan's leak check).
}

class LazyFreeCommandsTest : public ::testing::Test {
 protected:
  test::CommandHarness h;
  // A field of INFO memory.
  static int64_t Field(const std::string& info, const std::string& name) {
    const size_t at = info.find("\r\n" + name + ":");
    EXPECT_NE(at, std::string::npos) << name;
    return std::stoll(info.substr(at + name.size() + 3));
  }
  int64_t InfoField(const std::string& name) { return Field(h.Run({"INFO", "memory"}), name); }
  void AddMembers(const std::string& key, int count) {
    for (int first = 0; first < count; first += 10000) {
      std::vector<std::string> sadd = {"SADD", key};
      for (int i = first; i < first + 10000 && i < count; ++i) {
        sadd.push_back("member:" + std::to_string(i) + ":abcdefgh");
      }
      h.Run(sadd);
    }
  }
};

TEST_F(LazyFreeCommandsTest, UnlinkedMillionMemberSetIsFreedAcrossTurns) {
  const int64_t before = InfoField("used_memory");
  AddMembers("big", 1000000);
  ASSERT_EQ(h.Run({"SCARD", "big"}), ":1000000\r\n");
  const int64_t peak = InfoField("used_memory");
  EXPECT_EQ(h.Run({"UNLINK", "big"}), ":1\r\n");
  // The key is gone at once, and the name is free for a new value.
  EXPECT_EQ(h.Run({"EXISTS", "big"}), ":0\r\n");
  EXPECT_EQ(h.Run({"SADD", "big", "new"}), ":1\r\n");
  EXPECT_EQ(InfoField("lazyfree_pending_objects"), 1);
  EXPECT_EQ(InfoField("lazyfreed_objects"), 0);
  // Every command is a turn of the loop, with a slice of freeing after it.
  int turns = 4;
  while (true) {
    // Counted as freed only once nothing of it is pending (one INFO: each command is a turn,
    // with a slice after it).
    const std::string info = h.Run({"INFO", "memory"});
    if (Field(info, "lazyfree_pending_objects") != 1) break;
    EXPECT_EQ(Field(info, "lazyfreed_objects"), 0);
    ASSERT_EQ(h.Run({"SET", "k", std::to_string(turns)}), "+OK\r\n");
    ASSERT_EQ(h.Run({"GET", "k"}), "$" + std::to_string(std::to_string(turns).size()) + "\r\n" +
                                       std::to_string(turns) + "\r\n");
    turns += 3;
    ASSERT_LT(turns, 1000000);
  }
  EXPECT_GT(turns, 10) << "a million members take many slices";
  EXPECT_EQ(InfoField("lazyfree_pending_objects"), 0);
  EXPECT_EQ(InfoField("lazyfreed_objects"), 1);
  EXPECT_EQ(h.Run({"SMEMBERS", "big"}), "*1\r\n$3\r\nnew\r\n");
#ifndef KV_SANITIZED
  // The memory really went back (the sanitizers' allocator reports nothing to compare).
  EXPECT_LT(InfoField("used_memory"), before + (peak - before) / 4);
#else
  (void)before;
  (void)peak;
#endif
}

TEST_F(LazyFreeCommandsTest, SmallValuesAreNotCounted) {
  h.Run({"SADD", "small", "a", "b", "c"});
  h.Run({"RPUSH", "list", "a"});
  EXPECT_EQ(h.Run({"UNLINK", "small", "list"}), ":2\r\n");
  EXPECT_EQ(InfoField("lazyfree_pending_objects"), 0);
  EXPECT_EQ(InfoField("lazyfreed_objects"), 0);
}

// FLUSHALL ASYNC counts every key of the flushed databases as an object, as Redis's emptyDbAsync.
TEST_F(LazyFreeCommandsTest, FlushAllAsyncCountsKeys) {
  AddMembers("big", 300000);
  for (int i = 0; i < 999; ++i) h.Run({"SET", "k" + std::to_string(i), "v"});
  h.Run({"SELECT", "1"});
  h.Run({"SET", "other", "v"});
  EXPECT_EQ(h.Run({"FLUSHALL", "ASYNC"}), "+OK\r\n");
  // One slice ran after FLUSHALL: not enough for the set's 300,000 members.
  EXPECT_EQ(InfoField("lazyfree_pending_objects"), 1001);
  EXPECT_EQ(h.Run({"DBSIZE"}), ":0\r\n");
  int turns = 0;
  while (InfoField("lazyfree_pending_objects") != 0) {
    ASSERT_EQ(h.Run({"SET", "k", "v"}), "+OK\r\n");
    ASSERT_LT(++turns, 100000);
  }
  EXPECT_GT(turns, 0);
  EXPECT_EQ(InfoField("lazyfreed_objects"), 1001);
  EXPECT_EQ(h.Run({"CONFIG", "RESETSTAT"}), "+OK\r\n");
  EXPECT_EQ(InfoField("lazyfreed_objects"), 0);
}

// The lazyfree-lazy-* directives hand big values to the same queue.
TEST_F(LazyFreeCommandsTest, LazyDirectives) {
  EXPECT_EQ(h.Run({"CONFIG", "SET", "lazyfree-lazy-user-del", "yes"}), "+OK\r\n");
  AddMembers("a", 1000);
  EXPECT_EQ(h.Run({"DEL", "a"}), ":1\r\n");
  EXPECT_EQ(h.Run({"CONFIG", "SET", "lazyfree-lazy-server-del", "yes"}), "+OK\r\n");
  AddMembers("b", 1000);
  EXPECT_EQ(h.Run({"SET", "b", "string"}), "+OK\r\n");
  EXPECT_EQ(h.Run({"CONFIG", "SET", "lazyfree-lazy-user-flush", "yes"}), "+OK\r\n");
  AddMembers("c", 1000);
  // The database's two keys ("b" and "c") count as two objects.
  EXPECT_EQ(h.Run({"FLUSHDB"}), "+OK\r\n");
  h.state().lazy_freer.Drain();
  EXPECT_EQ(InfoField("lazyfreed_objects"), 4);
  EXPECT_EQ(h.Run({"CONFIG", "SET", "lazyfree-lazy-user-del", "no"}), "+OK\r\n");
  AddMembers("d", 1000);
  EXPECT_EQ(h.Run({"DEL", "d"}), ":1\r\n");
  EXPECT_EQ(InfoField("lazyfreed_objects"), 4) << "DEL frees at once again";
}

}  // namespace
}  // namespace kv
