// Byte-exact replies in RESP2 and RESP3, as Redis 7.0.15 writes them (src/networking.c; the
// double formats were checked with ZSCORE against redis-server).

#include "protocol/reply_writer.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>

namespace kv {
namespace {

class ReplyWriterTest : public ::testing::TestWithParam<int> {
 protected:
  int proto() const { return GetParam(); }
  bool resp3() const { return GetParam() >= 3; }
  // Returns the bytes written by `f` and clears the buffer.
  template <typename F>
  std::string Write(F f) {
    out_.Clear();
    ReplyWriter w(&out_, proto());
    f(w);
    return std::string(out_.view());
  }
  IoBuffer out_;
};

INSTANTIATE_TEST_SUITE_P(Resp, ReplyWriterTest, ::testing::Values(2, 3),
                         [](const auto& info) { return "Resp" + std::to_string(info.param); });

TEST_P(ReplyWriterTest, SimpleStrings) {
  EXPECT_EQ(Write([](ReplyWriter& w) { w.Ok(); }), "+OK\r\n");
  EXPECT_EQ(Write([](ReplyWriter& w) { w.Pong(); }), "+PONG\r\n");
  EXPECT_EQ(Write([](ReplyWriter& w) { w.SimpleString("QUEUED"); }), "+QUEUED\r\n");
  EXPECT_EQ(Write([](ReplyWriter& w) { w.SimpleString(""); }), "+\r\n");
}

TEST_P(ReplyWriterTest, Errors) {
  EXPECT_EQ(Write([](ReplyWriter& w) { w.Error("unknown command"); }), "-ERR unknown command\r\n");
  EXPECT_EQ(Write([](ReplyWriter& w) {
              w.Error("-WRONGTYPE Operation against a key holding the wrong kind of value");
            }),
            "-WRONGTYPE Operation against a key holding the wrong kind of value\r\n");
  EXPECT_EQ(Write([](ReplyWriter& w) { w.Error("-ERR already coded"); }), "-ERR already coded\r\n");
  // addReplyErrorLength: an empty message still gets the ERR code.
  EXPECT_EQ(Write([](ReplyWriter& w) { w.Error(""); }), "-ERR \r\n");
  EXPECT_EQ(Write([](ReplyWriter& w) { w.Error("-"); }), "-\r\n");
  // CR and LF become spaces so the reply stays one line.
  EXPECT_EQ(Write([](ReplyWriter& w) { w.Error("bad\r\nthing\nhere\r"); }),
            "-ERR bad  thing here \r\n");
  EXPECT_EQ(Write([](ReplyWriter& w) { w.Error("-NOPE a\r\nb"); }), "-NOPE a  b\r\n");
  // Other bytes pass through.
  EXPECT_EQ(Write([](ReplyWriter& w) { w.Error(std::string_view("a\0b\tc", 5)); }),
            std::string("-ERR a\0b\tc\r\n", 12));
}

TEST_P(ReplyWriterTest, Integers) {
  EXPECT_EQ(Write([](ReplyWriter& w) { w.Integer(0); }), ":0\r\n");
  EXPECT_EQ(Write([](ReplyWriter& w) { w.Integer(1); }), ":1\r\n");
  EXPECT_EQ(Write([](ReplyWriter& w) { w.Integer(-1); }), ":-1\r\n");
  EXPECT_EQ(Write([](ReplyWriter& w) { w.Integer(1234567); }), ":1234567\r\n");
  EXPECT_EQ(Write([](ReplyWriter& w) { w.Integer(INT64_MAX); }), ":9223372036854775807\r\n");
  EXPECT_EQ(Write([](ReplyWriter& w) { w.Integer(INT64_MIN); }), ":-9223372036854775808\r\n");
}

TEST_P(ReplyWriterTest, Bulks) {
  EXPECT_EQ(Write([](ReplyWriter& w) { w.Bulk("hello"); }), "$5\r\nhello\r\n");
  EXPECT_EQ(Write([](ReplyWriter& w) { w.Bulk(""); }), "$0\r\n\r\n");
  const std::string binary("a\0\r\n\xff", 5);
  EXPECT_EQ(Write([&](ReplyWriter& w) { w.Bulk(binary); }), "$5\r\n" + binary + "\r\n");
  const std::string big(200000, 'b');
  EXPECT_EQ(Write([&](ReplyWriter& w) { w.Bulk(big); }), "$200000\r\n" + big + "\r\n");
}

TEST_P(ReplyWriterTest, DefaultConstructedViewsAreEmptyStrings) {
  // std::string_view() has a null data pointer; writing it must not hand null to memcpy.
  EXPECT_EQ(Write([](ReplyWriter& w) { w.Bulk(std::string_view()); }), "$0\r\n\r\n");
  EXPECT_EQ(Write([](ReplyWriter& w) { w.SimpleString(std::string_view()); }), "+\r\n");
  EXPECT_EQ(Write([](ReplyWriter& w) { w.Error(std::string_view()); }), "-ERR \r\n");
  EXPECT_EQ(Write([](ReplyWriter& w) { w.Raw(std::string_view()); }), "");
  EXPECT_EQ(Write([](ReplyWriter& w) { w.Verbatim(std::string_view()); }),
            resp3() ? "=4\r\ntxt:\r\n" : "$0\r\n\r\n");
}

TEST_P(ReplyWriterTest, Nulls) {
  EXPECT_EQ(Write([](ReplyWriter& w) { w.Null(); }), resp3() ? "_\r\n" : "$-1\r\n");
  EXPECT_EQ(Write([](ReplyWriter& w) { w.NullArray(); }), resp3() ? "_\r\n" : "*-1\r\n");
}

TEST_P(ReplyWriterTest, AggregateHeaders) {
  EXPECT_EQ(Write([](ReplyWriter& w) { w.ArrayHeader(0); }), "*0\r\n");
  EXPECT_EQ(Write([](ReplyWriter& w) { w.ArrayHeader(3); }), "*3\r\n");
  EXPECT_EQ(Write([](ReplyWriter& w) { w.ArrayHeader(123456); }), "*123456\r\n");
  // A map of N pairs is a flat array of 2N elements in RESP2.
  EXPECT_EQ(Write([](ReplyWriter& w) { w.MapHeader(2); }), resp3() ? "%2\r\n" : "*4\r\n");
  EXPECT_EQ(Write([](ReplyWriter& w) { w.MapHeader(0); }), resp3() ? "%0\r\n" : "*0\r\n");
  EXPECT_EQ(Write([](ReplyWriter& w) { w.SetHeader(3); }), resp3() ? "~3\r\n" : "*3\r\n");
  EXPECT_EQ(Write([](ReplyWriter& w) { w.PushHeader(3); }), resp3() ? ">3\r\n" : "*3\r\n");
}

TEST_P(ReplyWriterTest, Doubles) {
  auto dbl = [&](double v) { return Write([v](ReplyWriter& w) { w.Double(v); }); };
  auto expect = [&](std::string_view text) {
    return resp3() ? "," + std::string(text) + "\r\n"
                   : "$" + std::to_string(text.size()) + "\r\n" + std::string(text) + "\r\n";
  };
  EXPECT_EQ(dbl(1.5), expect("1.5"));
  EXPECT_EQ(dbl(3), expect("3"));
  EXPECT_EQ(dbl(0), expect("0"));
  EXPECT_EQ(dbl(-2.25), expect("-2.25"));
  // %.17g, as Redis: ZSCORE of 0.1 is 0.10000000000000001.
  EXPECT_EQ(dbl(0.1), expect("0.10000000000000001"));
  EXPECT_EQ(dbl(0.1 + 0.2), expect("0.30000000000000004"));
  EXPECT_EQ(dbl(1e300), expect("1.0000000000000001e+300"));
  EXPECT_EQ(dbl(123456789012345678.0), expect("1.2345678901234568e+17"));
  EXPECT_EQ(dbl(std::numeric_limits<double>::infinity()), expect("inf"));
  EXPECT_EQ(dbl(-std::numeric_limits<double>::infinity()), expect("-inf"));
}

TEST_P(ReplyWriterTest, Bools) {
  EXPECT_EQ(Write([](ReplyWriter& w) { w.Bool(true); }), resp3() ? "#t\r\n" : ":1\r\n");
  EXPECT_EQ(Write([](ReplyWriter& w) { w.Bool(false); }), resp3() ? "#f\r\n" : ":0\r\n");
}

TEST_P(ReplyWriterTest, Verbatim) {
  EXPECT_EQ(Write([](ReplyWriter& w) { w.Verbatim("hi"); }),
            resp3() ? "=6\r\ntxt:hi\r\n" : "$2\r\nhi\r\n");
  EXPECT_EQ(Write([](ReplyWriter& w) { w.Verbatim(""); }),
            resp3() ? "=4\r\ntxt:\r\n" : "$0\r\n\r\n");
  const std::string info = "# Server\r\nredis_version:7.0.15\r\n";
  EXPECT_EQ(Write([&](ReplyWriter& w) { w.Verbatim(info); }),
            resp3() ? "=" + std::to_string(info.size() + 4) + "\r\ntxt:" + info + "\r\n"
                    : "$" + std::to_string(info.size()) + "\r\n" + info + "\r\n");
}

TEST_P(ReplyWriterTest, RawAndSequences) {
  const std::string bytes = Write([](ReplyWriter& w) {
    w.ArrayHeader(3);
    w.Bulk("a");
    w.Integer(42);
    w.Raw("+raw\r\n");
    w.Null();
  });
  EXPECT_EQ(bytes,
            std::string("*3\r\n$1\r\na\r\n:42\r\n+raw\r\n") + (resp3() ? "_\r\n" : "$-1\r\n"));
}

TEST_P(ReplyWriterTest, ManyRepliesGrowTheBuffer) {
  const std::string bytes = Write([](ReplyWriter& w) {
    for (int i = 0; i < 10000; ++i) w.Bulk("value-" + std::to_string(i));
  });
  std::string expected;
  for (int i = 0; i < 10000; ++i) {
    const std::string v = "value-" + std::to_string(i);
    expected += "$" + std::to_string(v.size()) + "\r\n" + v + "\r\n";
  }
  EXPECT_EQ(bytes, expected);
}

TEST(ReplyWriterSwitchTest, ProtocolAndBufferCanChange) {
  IoBuffer a;
  IoBuffer b;
  ReplyWriter w(&a);
  EXPECT_EQ(w.protocol(), 2);
  EXPECT_EQ(w.buffer(), &a);
  w.Null();
  w.set_protocol(3);
  EXPECT_EQ(w.protocol(), 3);
  w.Null();
  w.set_buffer(&b);
  EXPECT_EQ(w.buffer(), &b);
  w.MapHeader(1);
  EXPECT_EQ(a.view(), "$-1\r\n_\r\n");
  EXPECT_EQ(b.view(), "%1\r\n");
}

}  // namespace
}  // namespace kv
