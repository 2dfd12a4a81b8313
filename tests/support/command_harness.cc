#include "tests/support/command_harness.h"

namespace kv::test {

CommandHarness::CommandHarness(Config config)
    : registry_(BuildCommandRegistry()),
      state_(std::move(config), &clock_, &registry_),
      dispatcher_(&state_),
      writer_(&out_) {
  state_.request_shutdown = [this] { shutdown_requested_ = true; };
}

std::string CommandHarness::Run(std::initializer_list<std::string_view> args) {
  return RunViews(std::vector<std::string_view>(args));
}

std::string CommandHarness::Run(const std::vector<std::string>& args) {
  return RunViews(std::vector<std::string_view>(args.begin(), args.end()));
}

std::string CommandHarness::RunViews(const std::vector<std::string_view>& args) {
  out_.Clear();
  writer_.set_protocol(conn_.protocol);
  dispatcher_.Dispatch(args, conn_, writer_, clock_.NowMs());
  return std::string(out_.view());
}

}  // namespace kv::test
