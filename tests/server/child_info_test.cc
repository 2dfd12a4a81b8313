// ChildInfo (server/persistence/child_info.h): what a forked child reports through its pipe, sent
// and received here in one process (the pipe works the same across a fork).

#include "server/persistence/child_info.h"

#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace kv {
namespace {

TEST(ChildInfoTest, PrivateDirtyIsReadFromSmaps) {
  // This process has written to memory of its own: its heap, its stack.
  std::vector<char> touched(8 << 20, 'x');
  EXPECT_GE(PrivateDirtyBytes(), touched.size());
}

TEST(ChildInfoTest, ReportsReachTheServerSide) {
  ChildInfo info;
  info.Receive();  // nothing open: nothing read
  EXPECT_EQ(info.keys_total(), 0u);
  info.Open(1000);
  EXPECT_EQ(info.keys_total(), 1000u);
  EXPECT_EQ(info.current_cow_size(), 0u);
  EXPECT_EQ(info.current_cow_size_age_s(), 0u);
  info.Receive();  // an empty pipe
  EXPECT_EQ(info.keys_processed(), 0u);
  info.Send(ChildInfo::Type::kCurrent, 300);
  info.Receive();
  EXPECT_EQ(info.keys_processed(), 300u);
  EXPECT_GT(info.current_cow_size(), 0u);
  EXPECT_EQ(info.current_cow_peak(), info.current_cow_size());
  EXPECT_LE(info.current_cow_size_age_s(), 1u);
  EXPECT_EQ(info.rdb_last_cow_size(), 0u);
  // The final report: the peak of the whole run becomes the last save's copy-on-write.
  info.Send(ChildInfo::Type::kRdbCowSize, 0);
  info.Receive();
  EXPECT_GT(info.rdb_last_cow_size(), 0u);
  EXPECT_EQ(info.rdb_last_cow_size(), info.current_cow_peak());
  EXPECT_EQ(info.aof_last_cow_size(), 0u);
  // The child reaped: the current figures go, the last save's stays.
  const uint64_t last = info.rdb_last_cow_size();
  info.Close();
  EXPECT_EQ(info.current_cow_size(), 0u);
  EXPECT_EQ(info.current_cow_peak(), 0u);
  EXPECT_EQ(info.keys_total(), 0u);
  EXPECT_EQ(info.rdb_last_cow_size(), last);
  info.Open(10);
  info.Send(ChildInfo::Type::kAofCowSize, 0);
  info.Receive();
  EXPECT_GT(info.aof_last_cow_size(), 0u);
  EXPECT_EQ(info.rdb_last_cow_size(), last);
}

// INFO's total_forks and latest_fork_usec; CONFIG RESETSTAT zeroes them.
TEST(ChildInfoTest, CountsForks) {
  ChildInfo info;
  EXPECT_EQ(info.total_forks(), 0);
  info.Forked(120);
  info.Forked(80);
  EXPECT_EQ(info.total_forks(), 2);
  EXPECT_EQ(info.latest_fork_usec(), 80);
  info.Close();  // a reaped child leaves the counts
  EXPECT_EQ(info.total_forks(), 2);
  info.ResetForkStats();
  EXPECT_EQ(info.total_forks(), 0);
  EXPECT_EQ(info.latest_fork_usec(), 0);
}

// KeySaved reports every 1024 keys, at most once a second: the first key reports at once.
TEST(ChildInfoTest, KeySavedReportsAtMostOnceASecond) {
  ChildInfo info;
  info.Open(5000);
  for (int i = 0; i < 5000; ++i) info.KeySaved();
  info.Receive();
  EXPECT_EQ(info.keys_processed(), 1u);
}

}  // namespace
}  // namespace kv
