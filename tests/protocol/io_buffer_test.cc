#include "protocol/io_buffer.h"

#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace kv {
namespace {

TEST(IoBufferTest, StartsEmptyWithoutMemory) {
  IoBuffer b;
  EXPECT_TRUE(b.empty());
  EXPECT_EQ(b.size(), 0u);
  EXPECT_EQ(b.capacity(), 0u);
  EXPECT_EQ(b.view(), "");
}

TEST(IoBufferTest, AppendAndConsume) {
  IoBuffer b;
  b.Append("hello");
  b.Append(' ');
  b.Append(std::string_view("world\0!", 7));
  EXPECT_EQ(b.size(), 13u);
  EXPECT_FALSE(b.empty());
  EXPECT_EQ(b.view(), std::string_view("hello world\0!", 13));
  b.Consume(6);
  EXPECT_EQ(b.view(), std::string_view("world\0!", 7));
  EXPECT_EQ(std::string_view(b.data(), b.size()), b.view());
  b.Consume(7);
  EXPECT_TRUE(b.empty());
  EXPECT_EQ(b.view(), "");
}

TEST(IoBufferTest, AppendNothing) {
  // Appending nothing to a buffer without storage must not pass null pointers to memcpy
  // (UBSan checks this).
  IoBuffer b;
  b.Append("");
  b.Append(std::string_view());
  EXPECT_TRUE(b.empty());
  EXPECT_EQ(b.capacity(), 0u);
  b.Append("x");
  b.Append("");
  EXPECT_EQ(b.view(), "x");
}

TEST(IoBufferTest, ConsumingEverythingRewindsToTheFront) {
  IoBuffer b;
  b.Append(std::string(1000, 'a'));
  const size_t cap = b.capacity();
  const char* front = b.data();
  b.Consume(1000);
  // The whole capacity is writable again, without growing.
  EXPECT_EQ(b.WritableSize(), cap);
  b.Append(std::string(cap, 'b'));
  EXPECT_EQ(b.capacity(), cap);
  EXPECT_EQ(b.data(), front);
  EXPECT_EQ(b.view(), std::string(cap, 'b'));
}

TEST(IoBufferTest, CompactsInsteadOfGrowingWhenLittleIsReadable) {
  IoBuffer b;
  b.Append(std::string(1000, 'a'));
  ASSERT_EQ(b.capacity(), 1024u);
  b.Consume(900);
  std::string expected(100, 'a');
  b.Append(std::string(500, 'c'));
  expected += std::string(500, 'c');
  EXPECT_EQ(b.capacity(), 1024u);
  EXPECT_EQ(b.view(), expected);
}

TEST(IoBufferTest, GrowsWhenMostlyFull) {
  IoBuffer b;
  b.Append(std::string(1000, 'a'));
  b.Consume(10);
  b.Append(std::string(100, 'b'));
  EXPECT_GE(b.capacity(), 1090u);
  EXPECT_EQ(b.view(), std::string(990, 'a') + std::string(100, 'b'));
}

TEST(IoBufferTest, GrowthIsGeometric) {
  IoBuffer b;
  size_t reallocations = 0;
  size_t cap = b.capacity();
  for (int i = 0; i < 100000; ++i) {
    b.Append("0123456789");
    if (b.capacity() != cap) {
      ++reallocations;
      cap = b.capacity();
    }
  }
  EXPECT_EQ(b.size(), 1000000u);
  EXPECT_LT(reallocations, 20u);
  EXPECT_LT(b.capacity(), 4u * 1000000);
  for (size_t i = 0; i < b.size(); i += 9973)
    ASSERT_EQ(b.data()[i], '0' + static_cast<char>(i % 10));
}

TEST(IoBufferTest, LargeSingleAppend) {
  IoBuffer b;
  b.Append("x");
  const std::string big(3 * 1024 * 1024 + 7, 'z');
  b.Append(big);
  EXPECT_EQ(b.size(), big.size() + 1);
  EXPECT_EQ(b.view().substr(1), big);
}

TEST(IoBufferTest, PrepareAndCommitWrite) {
  IoBuffer b;
  char* p = b.PrepareWrite(64);
  ASSERT_NE(p, nullptr);
  EXPECT_GE(b.WritableSize(), 64u);
  std::memcpy(p, "abcdef", 6);
  b.CommitWrite(6);
  EXPECT_EQ(b.view(), "abcdef");
  // Preparing without committing adds nothing.
  b.PrepareWrite(5000);
  EXPECT_GE(b.WritableSize(), 5000u);
  EXPECT_EQ(b.view(), "abcdef");
  p = b.PrepareWrite(3);
  std::memcpy(p, "ghi", 3);
  b.CommitWrite(3);
  EXPECT_EQ(b.view(), "abcdefghi");
}

TEST(IoBufferTest, PrepareWriteKeepsUnreadBytes) {
  IoBuffer b;
  b.Append(std::string(800, 'r'));
  b.Consume(700);
  char* p = b.PrepareWrite(2000);
  std::memset(p, 'w', 2000);
  b.CommitWrite(2000);
  EXPECT_EQ(b.view(), std::string(100, 'r') + std::string(2000, 'w'));
}

TEST(IoBufferTest, ReserveAndInitialCapacity) {
  IoBuffer a(5000);
  EXPECT_GE(a.capacity(), 5000u);
  EXPECT_TRUE(a.empty());
  IoBuffer b;
  b.Append("abc");
  b.Reserve(10000);
  EXPECT_GE(b.WritableSize(), 10000u);
  const size_t cap = b.capacity();
  b.Reserve(10);  // already enough room
  EXPECT_EQ(b.capacity(), cap);
  EXPECT_EQ(b.view(), "abc");
}

TEST(IoBufferTest, Clear) {
  IoBuffer b;
  b.Append("abc");
  const size_t cap = b.capacity();
  b.Clear();
  EXPECT_TRUE(b.empty());
  EXPECT_EQ(b.capacity(), cap);
  b.Append("d");
  EXPECT_EQ(b.view(), "d");
}

TEST(IoBufferTest, ShrinkIfEmpty) {
  IoBuffer b;
  b.Append(std::string(100000, 'x'));
  const size_t big = b.capacity();
  ASSERT_GT(big, 16384u);
  // Not empty: nothing happens.
  b.ShrinkIfEmpty(16384);
  EXPECT_EQ(b.capacity(), big);
  b.Consume(99999);
  b.ShrinkIfEmpty(16384);
  EXPECT_EQ(b.capacity(), big);
  EXPECT_EQ(b.view(), "x");
  // Empty and larger than the capacity to keep: freed.
  b.Consume(1);
  b.ShrinkIfEmpty(16384);
  EXPECT_EQ(b.capacity(), 0u);
  EXPECT_TRUE(b.empty());
  // Still usable.
  b.Append("again");
  EXPECT_EQ(b.view(), "again");
  // A small empty buffer keeps its storage.
  b.Consume(5);
  const size_t small = b.capacity();
  b.ShrinkIfEmpty(16384);
  EXPECT_EQ(b.capacity(), small);
}

TEST(IoBufferTest, MoveConstruction) {
  IoBuffer a;
  a.Append("0123456789");
  a.Consume(3);
  const size_t cap = a.capacity();
  IoBuffer b(std::move(a));
  EXPECT_EQ(b.view(), "3456789");
  EXPECT_EQ(b.capacity(), cap);
  EXPECT_TRUE(a.empty());  // NOLINT(bugprone-use-after-move): moved-from state is specified
  EXPECT_EQ(a.capacity(), 0u);
  a.Append("reuse");
  EXPECT_EQ(a.view(), "reuse");
  EXPECT_EQ(b.view(), "3456789");
}

TEST(IoBufferTest, MoveAssignment) {
  IoBuffer a;
  a.Append("source");
  IoBuffer b;
  b.Append(std::string(5000, 'd'));
  b = std::move(a);
  EXPECT_EQ(b.view(), "source");
  EXPECT_TRUE(a.empty());  // NOLINT(bugprone-use-after-move)
  EXPECT_EQ(a.capacity(), 0u);
  // Self move-assignment leaves the buffer intact.
  IoBuffer& alias = b;
  b = std::move(alias);
  EXPECT_EQ(b.view(), "source");
}

// Random operations against a std::string model.
TEST(IoBufferTest, RandomOperationsMatchAModel) {
  for (uint32_t seed = 0; seed < 20; ++seed) {
    std::mt19937 rng(seed);
    IoBuffer b;
    std::string model;
    for (int step = 0; step < 3000; ++step) {
      switch (rng() % 6) {
        case 0:
        case 1: {
          std::string s(rng() % (rng() % 10 == 0 ? 5000 : 100), '\0');
          for (char& c : s) c = static_cast<char>(rng());
          b.Append(s);
          model += s;
          break;
        }
        case 2: {
          const size_t n = model.empty() ? 0 : rng() % (model.size() + 1);
          b.Consume(n);
          model.erase(0, n);
          break;
        }
        case 3: {
          const size_t want = rng() % 3000;
          const size_t n = want == 0 ? 0 : rng() % want;
          char* p = b.PrepareWrite(want);
          ASSERT_GE(b.WritableSize(), want);
          for (size_t i = 0; i < n; ++i) p[i] = static_cast<char>('a' + i % 26);
          b.CommitWrite(n);
          for (size_t i = 0; i < n; ++i) model += static_cast<char>('a' + i % 26);
          break;
        }
        case 4:
          b.Append(static_cast<char>(rng()));
          model += b.view().back();
          break;
        default:
          b.ShrinkIfEmpty(2048);
          break;
      }
      ASSERT_EQ(b.size(), model.size());
      ASSERT_LE(b.size(), b.capacity());
      ASSERT_TRUE(b.view() == model) << "seed " << seed << " step " << step;
    }
  }
}

// Records each call, and what the buffer held then; `clear` makes it empty the buffer.
class RecordingWatcher : public IoBufferWatcher {
 public:
  void WatchedSizeReached(IoBuffer& buffer, size_t incoming) override {
    calls.push_back({buffer.size(), incoming});
    if (clear) buffer.Clear();
    if (rewatch != 0) buffer.Watch(rewatch, this);
  }
  std::vector<std::pair<size_t, size_t>> calls;
  bool clear = false;
  size_t rewatch = 0;
};

TEST(IoBufferTest, WatchCallsOnceAWriteWouldPassTheWatchedSize) {
  IoBuffer b(1 << 20);  // room enough: the watch, not growth, must make the call
  RecordingWatcher w;
  b.Watch(100, &w);
  b.Append(std::string(60, 'a'));
  b.Append(std::string(40, 'b'));  // exactly 100: not past it
  EXPECT_TRUE(w.calls.empty());
  b.Append('c');
  ASSERT_EQ(w.calls.size(), 1u);
  EXPECT_EQ(w.calls[0], std::make_pair(size_t{100}, size_t{1}));
  // Left past the watch, every write calls again, and the writes still happen.
  b.Append("de");
  ASSERT_EQ(w.calls.size(), 2u);
  EXPECT_EQ(w.calls[1], std::make_pair(size_t{101}, size_t{2}));
  EXPECT_EQ(b.size(), 103u);
  EXPECT_EQ(b.view().substr(99), "bcde");
  b.Unwatch();
  b.Append(std::string(1000, 'f'));
  EXPECT_EQ(w.calls.size(), 2u);
  EXPECT_EQ(b.size(), 1103u);
}

TEST(IoBufferTest, WatchCountsWhatIsPendingNotWhatWasEverWritten) {
  IoBuffer b(4096);
  RecordingWatcher w;
  b.Watch(100, &w);
  for (int i = 0; i < 50; ++i) {
    b.Append(std::string(90, 'x'));
    b.Consume(90);
  }
  b.Append(std::string(80, 'y'));
  b.Consume(50);  // 30 pending, the front moved on
  b.Append(std::string(70, 'z'));
  EXPECT_TRUE(w.calls.empty());
  b.Append('!');
  ASSERT_EQ(w.calls.size(), 1u);
  EXPECT_EQ(w.calls[0].first, 100u);
  // Through a watch below what is already pending, a write calls at once.
  b.Watch(10, &w);
  b.Append('?');
  EXPECT_EQ(w.calls.size(), 2u);
}

TEST(IoBufferTest, WatcherThatClearsKeepsTheBufferSmall) {
  IoBuffer b;
  RecordingWatcher w;
  w.clear = true;
  b.Watch(0, &w);  // every write: the previous one is dropped
  for (int i = 0; i < 10000; ++i) b.Append(std::string(100, static_cast<char>('a' + i % 26)));
  EXPECT_EQ(w.calls.size(), 10000u);
  EXPECT_EQ(b.size(), 100u);
  EXPECT_EQ(b.view(), std::string(100, static_cast<char>('a' + 9999 % 26)));
  EXPECT_LE(b.capacity(), 1024u);
}

TEST(IoBufferTest, WatcherMayMoveTheWatchOn) {
  IoBuffer b;
  RecordingWatcher w;
  w.rewatch = 0;
  b.Watch(10, &w);
  w.rewatch = 1000;
  b.Append(std::string(11, 'a'));
  ASSERT_EQ(w.calls.size(), 1u);
  b.Append(std::string(989, 'b'));
  EXPECT_EQ(w.calls.size(), 1u);
  b.Append('c');
  EXPECT_EQ(w.calls.size(), 2u);
  EXPECT_EQ(b.size(), 1001u);
}

TEST(IoBufferTest, RecheckWatchCallsTheWatcherWithNothingIncoming) {
  IoBuffer b;
  b.RecheckWatch();  // no watcher: nothing
  RecordingWatcher w;
  b.Append("abc");
  b.Watch(1000, &w);
  b.RecheckWatch();
  ASSERT_EQ(w.calls.size(), 1u);
  EXPECT_EQ(w.calls[0], std::make_pair(size_t{3}, size_t{0}));
}

TEST(IoBufferTest, TruncatePastTheEndKeepsEverything) {
  IoBuffer b;
  b.Append("hello");
  b.Truncate(10);
  EXPECT_EQ(b.view(), "hello");
  b.Truncate(2);
  EXPECT_EQ(b.view(), "he");
  b.Append("y");
  EXPECT_EQ(b.view(), "hey");
}

TEST(IoBufferTest, WatchedBufferMatchesAModelUnderRandomOperations) {
  // Writes through a watch that moves about, with consumes, truncates and shrinks: the bytes are
  // those of a plain string, and the watcher is called exactly for the writes that pass it.
  for (uint32_t seed = 1; seed <= 20; ++seed) {
    std::mt19937 rng(seed);
    IoBuffer b;
    RecordingWatcher w;
    std::string model;
    size_t watch = 500;
    b.Watch(watch, &w);
    size_t expected_calls = 0;
    for (int step = 0; step < 3000; ++step) {
      switch (rng() % 6) {
        case 0:
        case 1: {
          const std::string s(rng() % 300, static_cast<char>('a' + step % 26));
          if (!s.empty() && model.size() + s.size() > watch) ++expected_calls;
          b.Append(s);
          model += s;
          break;
        }
        case 2: {
          const size_t n = model.empty() ? 0 : rng() % (model.size() + 1);
          b.Consume(n);
          model.erase(0, n);
          break;
        }
        case 3: {
          const size_t n = rng() % 2000;
          b.Truncate(n);
          if (n < model.size()) model.resize(n);
          break;
        }
        case 4:
          watch = rng() % 3000;
          b.Watch(watch, &w);
          break;
        default:
          b.ShrinkIfEmpty(1024);
          break;
      }
      ASSERT_EQ(w.calls.size(), expected_calls) << "seed " << seed << " step " << step;
      ASSERT_LE(b.size(), b.capacity());
      ASSERT_TRUE(b.view() == model) << "seed " << seed << " step " << step;
    }
  }
}

}  // namespace
}  // namespace kv
