#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "protocol/io_buffer.h"
#include "protocol/reply_writer.h"
#include "server/command.h"
#include "storage/stream.h"

namespace kv {

// What the stream families (stream_family.cc, stream_group_family.cc) reply and propagate alike:
// ids, entries and ranges of entries (delivered to a consumer group's consumer when read through
// one), new consumers, and the commands a group's reads and claims send to the AOF.

void ReplyId(ReplyWriter& reply, StreamId id);

// An array whose length is known only once its elements are written: they go to a scratch
// buffer first (Redis's deferred lengths).
class DeferredArray {
 public:
  explicit DeferredArray(ReplyWriter& out) : out_(out), writer_(&scratch_, out.protocol()) {}
  ReplyWriter& writer() { return writer_; }
  void Finish(size_t n, bool map = false) {
    if (map) {
      out_.MapHeader(n);
    } else {
      out_.ArrayHeader(n);
    }
    out_.Raw(scratch_.view());
  }

 private:
  ReplyWriter& out_;
  IoBuffer scratch_;
  ReplyWriter writer_;
};

// Writes entry `id` alone ([id, fields]) when it exists; false otherwise (STREAM_RWR_RAWENTRIES).
bool ReplyOneEntry(ReplyWriter& reply, const Stream& s, StreamId id);

// Redis's streamCreateConsumer: a new consumer (the name must be new), a change and its
// "xgroup-createconsumer" event.
StreamConsumer* CreateConsumer(CommandContext& ctx, StreamGroup& g, std::string_view name,
                               std::string_view key);

// What a consumer group's reads and claims send to the AOF in place of the command (Redis's
// streamPropagateXCLAIM, streamPropagateGroupID and streamPropagateConsumerCreation): commands
// that replay the same change whatever the clock and the entries' state then.

// XCLAIM <key> <group> <consumer> 0 <id> TIME <ms> RETRYCOUNT <count> FORCE JUSTID LASTID <id>:
// the pending entry `id` (as the client wrote it, or formatted) as it is now.
void PropagateClaim(CommandContext& ctx, std::string_view key, std::string_view group_name,
                    const StreamGroup& g, std::string_view id, const StreamNack& nack);
// XGROUP SETID <key> <group> <last id> ENTRIESREAD <n>: a group's position moved without a
// claim to carry it (NOACK reads, XCLAIM LASTID alone).
void PropagateGroupId(CommandContext& ctx, std::string_view key, std::string_view group_name,
                      const StreamGroup& g);
// XGROUP CREATECONSUMER <key> <group> <consumer>: a consumer a NOACK read created (no claim will
// create it on replay).
void PropagateConsumerCreation(CommandContext& ctx, std::string_view key,
                               std::string_view group_name, std::string_view consumer);

// A read through a consumer group (XREADGROUP): whose entries are delivered to whom.
struct GroupRead {
  StreamGroup* group = nullptr;
  StreamConsumer* consumer = nullptr;
  bool noack = false;
  bool history = false;
  // The key and group name as the client wrote them (what is propagated).
  std::string_view key;
  std::string_view group_name;
};

// Redis's streamReplyWithRange: entries from start to end (inclusive), at most `count` (0: all),
// delivered to a group's consumer when `g` has one.
size_t ReplyRange(CommandContext& ctx, Stream& s, StreamId start, StreamId end, size_t count,
                  bool rev, const GroupRead* g);

}  // namespace kv
