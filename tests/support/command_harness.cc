#include "tests/support/command_harness.h"

namespace kv::test {
namespace {

// Like the test fixtures' servers (`--save ""`), the harness has no save points, so that FLUSHALL
// and SHUTDOWN write no dump.rdb into the tests' working directory. CONFIG SET save sets some.
Config WithoutSavePoints(Config config) {
  config.save.clear();
  return config;
}

}  // namespace

CommandHarness::CommandHarness(Config config)
    : registry_(BuildCommandRegistry()),
      state_(WithoutSavePoints(std::move(config)), &clock_, &registry_),
      dispatcher_(&state_),
      writer_(&out_) {
  state_.request_shutdown = [this] { shutdown_requested_ = true; };
  conn_.id = 1;
  conn_.addr = "127.0.0.1:40001";
  conn_.monitor_sink = this;
  conn_.block_sink = this;
  conn_.push_sink = this;
  conn_.created_ms = clock_.NowMs();
  clients_.Add(&conn_, "127.0.0.1:40001", "127.0.0.1:6379", 8);
  state_.clients = &clients_;
  state_.clients_by_id.emplace(conn_.id, &conn_);
}

void FakeClients::ForEachClient(const std::function<void(const ClientInfo&)>& fn) const {
  for (const Entry& e : entries_) {
    ClientInfo info;
    info.state = e.state;
    info.addr = e.addr;
    info.laddr = e.laddr;
    info.fd = e.fd;
    info.last_interaction_ms = e.state->created_ms;
    fn(info);
  }
}

void FakeClients::KillClient(uint64_t id) {
  for (size_t i = 0; i < entries_.size(); ++i) {
    if (entries_[i].state->id == id) {
      entries_.erase(entries_.begin() + static_cast<std::ptrdiff_t>(i));
      killed_.push_back(id);
      return;
    }
  }
}

void CommandHarness::ResetConnection() {
  if (conn_.blocked) state_.blocking.Remove(conn_.id);
  if (conn_.monitor) std::erase(state_.monitors, &conn_);
  state_.ForgetClient(conn_);
  ConnState fresh;
  fresh.id = conn_.id;
  fresh.addr = conn_.addr;
  fresh.monitor_sink = this;
  fresh.block_sink = this;
  fresh.push_sink = this;
  fresh.created_ms = clock_.NowMs();
  conn_ = std::move(fresh);
  state_.clients_by_id.emplace(conn_.id, &conn_);
  out_.Clear();
}

std::string CommandHarness::Run(std::initializer_list<std::string_view> args) {
  return RunViews(std::vector<std::string_view>(args));
}

std::string CommandHarness::Run(const std::vector<std::string>& args) {
  return RunViews(std::vector<std::string_view>(args.begin(), args.end()));
}

std::string CommandHarness::RunViews(std::span<const std::string_view> args) {
  writer_.set_protocol(conn_.protocol);
  held_ = !dispatcher_.Dispatch(args, conn_, writer_, clock_.NowMs());
  EndTurn();
  return TakeOutput();
}

void CommandHarness::EndTurn() {
  state_.RunAfterBatch();
  state_.lazy_freer.RunSlice();
}

std::string CommandHarness::TakeOutput() {
  std::string out(out_.view());
  out_.Clear();
  return out;
}

ReplyWriter& CommandHarness::BlockedReply() {
  writer_.set_protocol(conn_.protocol);
  return writer_;
}

CommandHarness::Client::Client(CommandHarness* h, uint64_t id) : h_(h), writer_(&out_) {
  conn_.id = id;
  conn_.addr = "127.0.0.1:" + std::to_string(40000 + id);
  conn_.block_sink = this;
  conn_.push_sink = this;
  conn_.monitor_sink = this;
  conn_.created_ms = h->clock_.NowMs();
}

std::string CommandHarness::Client::Run(std::initializer_list<std::string_view> args) {
  const std::vector<std::string_view> views(args);
  writer_.set_protocol(conn_.protocol);
  h_->dispatcher_.Dispatch(views, conn_, writer_, h_->clock_.NowMs());
  h_->EndTurn();
  return TakeOutput();
}

std::string CommandHarness::Client::Run(const std::vector<std::string>& args) {
  const std::vector<std::string_view> views(args.begin(), args.end());
  writer_.set_protocol(conn_.protocol);
  h_->dispatcher_.Dispatch(views, conn_, writer_, h_->clock_.NowMs());
  h_->EndTurn();
  return TakeOutput();
}

void CommandHarness::Client::Disconnect() {
  if (conn_.blocked) h_->state_.blocking.Remove(conn_.id);
  if (conn_.monitor) std::erase(h_->state_.monitors, &conn_);
  h_->state_.ForgetClient(conn_);
  h_->clients_.KillClient(conn_.id);
}

std::string CommandHarness::Client::TakeOutput() {
  std::string out(out_.view());
  out_.Clear();
  return out;
}

ReplyWriter& CommandHarness::Client::BlockedReply() {
  writer_.set_protocol(conn_.protocol);
  return writer_;
}

CommandHarness::Client& CommandHarness::NewClient() {
  others_.push_back(std::unique_ptr<Client>(new Client(this, others_.size() + 2)));
  Client& c = *others_.back();
  clients_.Add(&c.conn_, c.conn_.addr, "127.0.0.1:6379", static_cast<int>(8 + others_.size()));
  state_.clients_by_id.emplace(c.conn_.id, &c.conn_);
  return c;
}

void CommandHarness::AdvanceClock(int64_t ms) {
  clock_.Advance(ms);
  state_.blocking.ExpireTimeouts(state_, clock_.NowMs());
}

}  // namespace kv::test
