// Blocking list commands against the real kvserver binary with many hiredis connections: the
// order clients are served in, disconnecting while blocked, timeouts on the server's timer (and
// far ones that must not keep it busy), CLIENT PAUSE holding the push that would serve them.

#include <hiredis/hiredis.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "gtest/gtest.h"
#include "tests/support/server_process.h"

namespace kv::test {
namespace {

using Clock = std::chrono::steady_clock;

struct ReplyDeleter {
  void operator()(redisReply* r) const { freeReplyObject(r); }
};
using Reply = std::unique_ptr<redisReply, ReplyDeleter>;

Reply Call(redisContext* c, const std::vector<std::string>& args) {
  std::vector<const char*> argv;
  std::vector<size_t> lens;
  for (const std::string& a : args) {
    argv.push_back(a.data());
    lens.push_back(a.size());
  }
  return Reply(static_cast<redisReply*>(
      redisCommandArgv(c, static_cast<int>(args.size()), argv.data(), lens.data())));
}

// Sends a command without waiting for its reply.
void Send(redisContext* c, const std::vector<std::string>& args) {
  std::vector<const char*> argv;
  std::vector<size_t> lens;
  for (const std::string& a : args) {
    argv.push_back(a.data());
    lens.push_back(a.size());
  }
  ASSERT_EQ(redisAppendCommandArgv(c, static_cast<int>(args.size()), argv.data(), lens.data()),
            REDIS_OK);
  int done = 0;
  while (!done) ASSERT_EQ(redisBufferWrite(c, &done), REDIS_OK);
}

Reply Read(redisContext* c) {
  void* r = nullptr;
  if (redisGetReply(c, &r) != REDIS_OK) return nullptr;
  return Reply(static_cast<redisReply*>(r));
}

// [key, element] of a served BLPOP, or "nil".
std::string Served(const Reply& r) {
  if (!r) return "<no reply>";
  if (r->type == REDIS_REPLY_NIL) return "nil";
  if (r->type != REDIS_REPLY_ARRAY || r->elements != 2) return "<unexpected>";
  return std::string(r->element[0]->str, r->element[0]->len) + " " +
         std::string(r->element[1]->str, r->element[1]->len);
}

int64_t InfoInt(redisContext* c, const std::string& field) {
  Reply r = Call(c, {"INFO"});
  const std::string info(r->str, r->len);
  const size_t at = info.find("\r\n" + field + ":");
  if (at == std::string::npos) return -1;
  return std::stoll(info.substr(at + field.size() + 3));
}

// Waits (up to 10 s) until INFO's blocked_clients is `n`.
bool WaitBlocked(redisContext* c, int64_t n) {
  const auto deadline = Clock::now() + std::chrono::seconds(10);
  while (Clock::now() < deadline) {
    if (InfoInt(c, "blocked_clients") == n) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return false;
}

// The process's user + system CPU time so far, in clock ticks.
long CpuTicks(pid_t pid) {
  std::ifstream f("/proc/" + std::to_string(pid) + "/stat");
  std::string stat((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  std::istringstream fields(stat.substr(stat.rfind(')') + 2));
  std::string skip;
  for (int i = 3; i < 14; ++i) fields >> skip;
  long utime = 0;
  long stime = 0;
  fields >> utime >> stime;
  return utime + stime;
}

class BlockingTest : public ::testing::Test {
 protected:
  void SetUp() override {
    server_ = ServerProcess::StartKvserver();
    ASSERT_TRUE(server_);
    admin_ = server_->Connect();
    ASSERT_TRUE(admin_);
  }

  std::vector<RedisConnection> Clients(int n) {
    std::vector<RedisConnection> out;
    for (int i = 0; i < n; ++i) out.push_back(server_->Connect());
    return out;
  }

  std::unique_ptr<ServerProcess> server_;
  RedisConnection admin_;
};

TEST_F(BlockingTest, ManyClientsAreServedFirstComeFirstServed) {
  std::vector<RedisConnection> clients = Clients(50);
  for (size_t i = 0; i < clients.size(); ++i) {
    // Each blocks in turn, so that the order is known.
    Send(clients[i].get(), {i % 2 ? "BLPOP" : "BRPOP", "other", "queue", "0"});
    ASSERT_TRUE(WaitBlocked(admin_.get(), static_cast<int64_t>(i + 1)));
  }
  std::vector<std::string> push = {"RPUSH", "queue"};
  for (int i = 0; i < 50; ++i) push.push_back(std::to_string(i));
  ASSERT_EQ(Call(admin_.get(), push)->integer, 50);
  // Clients take turns at the list's two ends.
  int head = 0;
  int tail = 49;
  for (size_t i = 0; i < clients.size(); ++i) {
    const int expected = i % 2 ? head++ : tail--;
    EXPECT_EQ(Served(Read(clients[i].get())), "queue " + std::to_string(expected)) << i;
  }
  EXPECT_EQ(InfoInt(admin_.get(), "blocked_clients"), 0);
  EXPECT_EQ(Call(admin_.get(), {"EXISTS", "queue"})->integer, 0);
}

TEST_F(BlockingTest, DisconnectedClientsLeaveNothingBehind) {
  std::vector<RedisConnection> clients = Clients(10);
  for (size_t i = 0; i < clients.size(); ++i) {
    Send(clients[i].get(), {"BLMOVE", "src", "dst", "LEFT", "RIGHT", i % 2 ? "0" : "100"});
  }
  ASSERT_TRUE(WaitBlocked(admin_.get(), 10));
  EXPECT_EQ(InfoInt(admin_.get(), "clients_in_timeout_table"), 5);
  for (size_t i = 0; i < clients.size(); i += 2) clients[i].reset();
  ASSERT_TRUE(WaitBlocked(admin_.get(), 5));
  EXPECT_EQ(InfoInt(admin_.get(), "clients_in_timeout_table"), 0);
  ASSERT_EQ(Call(admin_.get(), {"RPUSH", "src", "a", "b", "c", "d", "e", "f", "g"})->integer, 7);
  const char* expected[] = {"a", "b", "c", "d", "e"};
  for (size_t i = 1, n = 0; i < clients.size(); i += 2, ++n) {
    Reply r = Read(clients[i].get());
    ASSERT_TRUE(r && r->type == REDIS_REPLY_STRING) << i;
    EXPECT_EQ(std::string(r->str, r->len), expected[n]);
  }
  EXPECT_EQ(Call(admin_.get(), {"LLEN", "src"})->integer, 2);
  EXPECT_EQ(Call(admin_.get(), {"LLEN", "dst"})->integer, 5);
  EXPECT_EQ(InfoInt(admin_.get(), "blocked_clients"), 0);
}

TEST_F(BlockingTest, TimeoutsFireOnTheServersTimer) {
  std::vector<RedisConnection> clients = Clients(3);
  const auto start = Clock::now();
  Send(clients[0].get(), {"BLPOP", "k", "0.2"});
  Send(clients[1].get(), {"BLMPOP", "0.05", "1", "k", "LEFT"});
  Send(clients[2].get(), {"BRPOPLPUSH", "k", "d", "0.1"});
  for (auto& c : clients) EXPECT_EQ(Served(Read(c.get())), "nil");
  // Not before the longest timeout.
  EXPECT_GE(Clock::now() - start, std::chrono::milliseconds(200));
  EXPECT_EQ(InfoInt(admin_.get(), "blocked_clients"), 0);
}

TEST_F(BlockingTest, FarTimeoutsDoNotKeepTheServerBusy) {
  RedisConnection client = server_->Connect();
  // 292 years (in nanoseconds, just past what 64 bits hold), a deadline past the end of time
  // (Redis: never), and a year, each the only wait. An idle server takes next to nothing: a
  // timer that fired at once, over and over, took a fifth of the CPU.
  for (const char* timeout : {"9223372037.855", "9223372036854775", "31536000"}) {
    Send(client.get(), {"BLPOP", "k", timeout});
    ASSERT_TRUE(WaitBlocked(admin_.get(), 1));
    const long before = CpuTicks(server_->pid());
    std::this_thread::sleep_for(std::chrono::seconds(1));
    EXPECT_LT(CpuTicks(server_->pid()) - before, sysconf(_SC_CLK_TCK) / 20)
        << "CPU ticks used in a second of waiting, timeout " << timeout;
    ASSERT_EQ(Call(admin_.get(), {"RPUSH", "k", timeout})->integer, 1);
    EXPECT_EQ(Served(Read(client.get())), std::string("k ") + timeout);
  }
}

TEST_F(BlockingTest, ClientPauseHoldsThePushThatServes) {
  std::vector<RedisConnection> clients = Clients(2);
  Send(clients[0].get(), {"BLPOP", "k", "0"});
  ASSERT_TRUE(WaitBlocked(admin_.get(), 1));
  ASSERT_EQ(std::string(Call(admin_.get(), {"CLIENT", "PAUSE", "300", "WRITE"})->str), "OK");
  const auto start = Clock::now();
  Send(clients[1].get(), {"LPUSH", "k", "v"});
  EXPECT_EQ(Served(Read(clients[0].get())), "k v");
  EXPECT_GE(Clock::now() - start, std::chrono::milliseconds(250));
  EXPECT_EQ(Read(clients[1].get())->integer, 1);
}

}  // namespace
}  // namespace kv::test
