#include "server/persistence/propagation.h"

#include "protocol/resp_text.h"

namespace kv {

namespace {

std::vector<std::string_view> Views(const std::vector<std::string>& argv) {
  return std::vector<std::string_view>(argv.begin(), argv.end());
}

}  // namespace

void AppendRespCommand(std::string& out, std::span<const std::string_view> argv) {
  out += '*';
  out += std::to_string(argv.size());
  out += "\r\n";
  for (std::string_view a : argv) AppendBulk(out, a);
}

void Propagation::AlsoPropagate(size_t db, std::vector<std::string> argv) {
  if (!on()) return;
  if (depth_ == 0 && pending_.empty()) {
    Feed(db, Views(argv));
    return;
  }
  pending_.push_back(Op{db, std::move(argv)});
}

void Propagation::FlushPending(bool allow_multi) {
  if (pending_.empty()) return;
  std::vector<Op> ops;
  ops.swap(pending_);
  if (!on()) return;
  const bool transaction = allow_multi && ops.size() > 1;
  // MULTI in the first command's database, so that its SELECT comes first; EXEC in the last's,
  // so that none comes between.
  if (transaction) {
    const std::string_view multi[] = {"MULTI"};
    Feed(ops.front().db, multi);
  }
  for (const Op& op : ops) Feed(op.db, Views(op.argv));
  if (transaction) {
    const std::string_view exec[] = {"EXEC"};
    Feed(ops.back().db, exec);
  }
}

void CommandPropagation::Finish(uint64_t dirty_now, size_t db,
                                std::span<const std::string_view> args, bool never) {
  finished_ = true;
  if (p_.frame_ != &frame_) return;  // propagation was off when the command started
  p_.frame_ = outer_;
  --p_.depth_;
  if (never || frame_.prevent || !p_.on()) return;
  if (dirty_now == frame_.dirty_before && !frame_.force) return;
  // The common case, a top-level command alone: fed at once, without copying its arguments.
  if (p_.depth_ == 0 && p_.pending_.empty()) {
    if (frame_.rewritten) {
      p_.Feed(db, Views(frame_.argv));
    } else {
      p_.Feed(db, args);
    }
    return;
  }
  if (frame_.rewritten) {
    p_.pending_.push_back(Propagation::Op{db, std::move(frame_.argv)});
  } else {
    p_.pending_.push_back(Propagation::Op{db, std::vector<std::string>(args.begin(), args.end())});
  }
}

CommandPropagation::~CommandPropagation() {
  // A handler that threw: its frame is closed without propagating it.
  if (!finished_ && p_.frame_ == &frame_) {
    p_.frame_ = outer_;
    --p_.depth_;
  }
}

}  // namespace kv
