// FaultInjector: which command takes which fault, and how often.

#include "server/fault_injector.h"

#include "gtest/gtest.h"

namespace kv {
namespace {

using Kind = FaultInjector::Kind;

FaultInjector::Fault Make(Kind kind, std::string command = "", uint64_t count = 1) {
  FaultInjector::Fault f;
  f.kind = kind;
  f.command = std::move(command);
  f.count = count;
  return f;
}

TEST(FaultInjector, UnarmedTakesNothing) {
  FaultInjector faults;
  EXPECT_FALSE(faults.armed());
  EXPECT_EQ(faults.Take("get").kind, Kind::kNone);
}

TEST(FaultInjector, AFaultLastsForItsCount) {
  FaultInjector faults;
  faults.Add(Make(Kind::kDrop, "", 2));
  EXPECT_EQ(faults.Take("get").kind, Kind::kDrop);
  EXPECT_TRUE(faults.armed());
  EXPECT_EQ(faults.Take("set").kind, Kind::kDrop);
  EXPECT_FALSE(faults.armed());
  EXPECT_EQ(faults.Take("get").kind, Kind::kNone);
}

TEST(FaultInjector, NamedFaultsMatchAnyCaseAndTheFirstMatchWins) {
  FaultInjector faults;
  faults.Add(Make(Kind::kError, "get"));
  faults.Add(Make(Kind::kDelay));
  EXPECT_EQ(faults.Take("SET").kind, Kind::kDelay);
  EXPECT_EQ(faults.size(), 1u);
  EXPECT_EQ(faults.Take("GeT").kind, Kind::kError);
  EXPECT_FALSE(faults.armed());
}

TEST(FaultInjector, KvfaultIsNeverAffected) {
  FaultInjector faults;
  faults.Add(Make(Kind::kDrop));
  EXPECT_EQ(faults.Take("KVFAULT").kind, Kind::kNone);
  EXPECT_EQ(faults.Take("ping").kind, Kind::kDrop);
}

TEST(FaultInjector, ErrorLineKeepsTheCode) {
  EXPECT_EQ(ErrorLine("LOADING wait"), "-LOADING wait");
  EXPECT_EQ(ErrorLine("-MOVED 1 h:1"), "-MOVED 1 h:1");
}

}  // namespace
}  // namespace kv
