#include "storage/list.h"

#include <gtest/gtest.h>

#include <climits>
#include <string>
#include <vector>

namespace kv {
namespace {

using End = List::End;

std::string Str(const ListPackValue& v) {
  char buf[ListPackValue::kIntBufSize];
  return std::string(v.ToString(buf));
}

List Make(std::vector<std::string> elements, int fill = 3) {
  List list(fill, 0);
  for (const std::string& e : elements) list.Push(e, End::kTail);
  return list;
}

std::vector<std::string> Range(List& list, long start, long end, bool reverse = false) {
  std::vector<std::string> out;
  list.ForRange(start, end, reverse, [&](ListPackValue v) { out.push_back(Str(v)); });
  return out;
}

std::vector<std::string> All(List& list) {
  return list.size() == 0 ? std::vector<std::string>{}
                          : Range(list, 0, static_cast<long>(list.size()) - 1);
}

std::vector<long> FindAll(List& list, std::string_view s, long rank, long maxlen) {
  std::vector<long> out;
  list.Find(s, rank, maxlen, [&](long i) {
    out.push_back(i);
    return true;
  });
  return out;
}

TEST(ListTest, IsAQuicklistAggregate) {
  List list(-2, 0);
  EXPECT_EQ(list.type(), ValueType::kList);
  EXPECT_EQ(list.encoding(), Encoding::kQuickList);
  EXPECT_EQ(list.size(), 0u);
  list.Push("a", End::kTail);
  list.Push("b", End::kHead);
  EXPECT_EQ(list.size(), 2u);
  EXPECT_EQ(list.FreeEffort(), 1u);
  std::unique_ptr<Aggregate> copy = list.Clone();
  EXPECT_EQ(copy->size(), 2u);
  EXPECT_EQ(copy->encoding(), Encoding::kQuickList);
  EXPECT_EQ(All(static_cast<List&>(*copy)), (std::vector<std::string>{"b", "a"}));
  EXPECT_GT(list.AllocatedBytes(0), 0u);
}

TEST(ListTest, RangesForwardAndReversed) {
  List list = Make({"0", "1", "2", "3", "4", "5", "6"});
  EXPECT_EQ(Range(list, 2, 4), (std::vector<std::string>{"2", "3", "4"}));
  EXPECT_EQ(Range(list, 4, 6, true), (std::vector<std::string>{"6", "5", "4"}));
  EXPECT_EQ(Range(list, 0, 0), (std::vector<std::string>{"0"}));
}

TEST(ListTest, IndexAndSet) {
  List list = Make({"a", "b", "c"});
  std::string got;
  EXPECT_TRUE(list.Index(-1, [&](ListPackValue v) { got = Str(v); }));
  EXPECT_EQ(got, "c");
  EXPECT_FALSE(list.Index(3, [&](ListPackValue) {}));
  EXPECT_FALSE(list.Index(LONG_MIN, [&](ListPackValue) {}));
  EXPECT_TRUE(list.Set(1, "B"));
  EXPECT_FALSE(list.Set(-4, "x"));
  EXPECT_EQ(All(list), (std::vector<std::string>{"a", "B", "c"}));
}

TEST(ListTest, InsertFindsTheFirstPivot) {
  List list = Make({"a", "p", "b", "p"});
  EXPECT_TRUE(list.Insert("p", "before", false));
  EXPECT_TRUE(list.Insert("p", "after", true));
  EXPECT_FALSE(list.Insert("zz", "x", true));
  EXPECT_EQ(All(list), (std::vector<std::string>{"a", "before", "p", "after", "b", "p"}));
  // Integers compare by their canonical text only.
  List nums = Make({"10", "010"});
  EXPECT_TRUE(nums.Insert("010", "x", true));
  EXPECT_EQ(All(nums), (std::vector<std::string>{"10", "010", "x"}));
}

TEST(ListTest, RemoveFromEitherEnd) {
  List list = Make({"x", "a", "x", "b", "x", "c", "x"});
  EXPECT_EQ(list.Remove(2, "x"), 2u);
  EXPECT_EQ(All(list), (std::vector<std::string>{"a", "b", "x", "c", "x"}));
  EXPECT_EQ(list.Remove(-1, "x"), 1u);
  EXPECT_EQ(All(list), (std::vector<std::string>{"a", "b", "x", "c"}));
  EXPECT_EQ(list.Remove(0, "nothing"), 0u);
  EXPECT_EQ(list.Remove(LONG_MIN, "x"), 1u);
  EXPECT_EQ(list.Remove(0, "b"), 1u);
  EXPECT_EQ(All(list), (std::vector<std::string>{"a", "c"}));
}

TEST(ListTest, TrimAndPopMany) {
  List list = Make({"0", "1", "2", "3", "4", "5", "6", "7", "8"});
  list.Trim(2, 3);
  EXPECT_EQ(All(list), (std::vector<std::string>{"2", "3", "4", "5"}));
  list.PopMany(End::kTail, 1);
  list.PopMany(End::kHead, 2);
  EXPECT_EQ(All(list), (std::vector<std::string>{"4"}));
  list.Trim(1, 0);
  EXPECT_EQ(list.size(), 0u);
}

TEST(ListTest, FindWithRankAndMaxlen) {
  List list = Make({"a", "b", "c", "1", "2", "3", "c", "c"});
  EXPECT_EQ(FindAll(list, "c", 1, 0), (std::vector<long>{2, 6, 7}));
  EXPECT_EQ(FindAll(list, "c", 2, 0), (std::vector<long>{6, 7}));
  EXPECT_EQ(FindAll(list, "c", -1, 0), (std::vector<long>{7, 6, 2}));
  EXPECT_EQ(FindAll(list, "c", -3, 0), (std::vector<long>{2}));
  EXPECT_EQ(FindAll(list, "c", 1, 7), (std::vector<long>{2, 6}));
  EXPECT_EQ(FindAll(list, "c", -1, 1), (std::vector<long>{7}));
  EXPECT_EQ(FindAll(list, "2", 1, 0), (std::vector<long>{4}));
  EXPECT_EQ(FindAll(list, "c", LONG_MAX, 0), (std::vector<long>{}));
  EXPECT_EQ(FindAll(list, "c", -LONG_MAX, 0), (std::vector<long>{}));
}

}  // namespace
}  // namespace kv
