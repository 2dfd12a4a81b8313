// Arbitrary bytes into the request parser (RESP multibulk and inline), with the server's real
// limits (proto-max-bulk-len 512 MB, Redis's 64 KB inline and length lines, and for a
// fuzzer-chosen flag the unauthenticated limits). The bytes are parsed once whole and once
// arriving in fuzzer-chosen pieces, as a connection feeds them, and must give the same commands,
// the same error and the same unconsumed rest. No allocation made while parsing may exceed what
// the bytes that arrived justify: a claimed length is never allocated up front.
#include <fuzzer/FuzzedDataProvider.h>
#include <sanitizer/allocator_interface.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "protocol/resp_parser.h"

namespace {

using Command = std::vector<std::string>;

struct Outcome {
  std::vector<Command> commands;
  std::string error;      // empty when the bytes ran out without a protocol error
  size_t unconsumed = 0;  // bytes left in the buffer at the end
};

void Check(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "resp_parser_fuzz: invariant broken: %s\n", what);
    std::abort();
  }
}

// The largest single allocation made inside RespParser::Parse while tracking is on.
bool tracking = false;
size_t largest_allocation = 0;
void OnMalloc(const volatile void*, size_t size) {
  if (tracking && size > largest_allocation) largest_allocation = size;
}
void OnFree(const volatile void*) {}

// Runs the parser over `buffer` as a connection does, dropping what each call consumed; returns
// false once a protocol error ended the stream.
bool Drain(kv::RespParser& parser, std::string& buffer, Outcome& out, bool track) {
  while (!buffer.empty()) {
    size_t consumed = 12345;
    tracking = track;
    const kv::RespParser::Status status = parser.Parse(buffer, &consumed);
    tracking = false;
    Check(consumed <= buffer.size(), "consumed more than the input");
    if (status == kv::RespParser::Status::kError) {
      Check(consumed == 0, "an error consumed bytes");
      out.error = parser.ErrorMessage();
      Check(!out.error.empty(), "an error without a message");
      return false;
    }
    if (status == kv::RespParser::Status::kNeedMore) {
      buffer.erase(0, consumed);
      return true;
    }
    Check(consumed > 0, "a command consumed nothing");
    Check(!parser.args().empty(), "a command without arguments");
    Command command;
    for (std::string_view arg : parser.args()) {
      // Multibulk arguments point into the input, inline ones into the parser's own storage.
      command.emplace_back(arg);
    }
    out.commands.push_back(std::move(command));
    buffer.erase(0, consumed);
  }
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  __sanitizer_install_malloc_and_free_hooks(OnMalloc, OnFree);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzedDataProvider provider(data, size);
  kv::ParserLimits limits;  // the server's defaults
  limits.unauthenticated = provider.ConsumeBool();
  const uint32_t split_seed = provider.ConsumeIntegral<uint32_t>();
  const std::string input = provider.ConsumeRemainingBytesAsString();

  // Whole: everything has arrived at once.
  Outcome whole;
  {
    kv::RespParser parser(&limits);
    std::string buffer = input;
    largest_allocation = 0;
    Drain(parser, buffer, whole, /*track=*/true);
    whole.unconsumed = buffer.size();
    // The parser's memory grows with the bytes, never with a length they claim: its argument
    // vectors hold at most 16 bytes per argument of at least 2 bytes, doubling as they grow, and
    // like Redis it may preallocate 1024 argument slots (16 KB).
    Check(largest_allocation <= 16 * input.size() + 64 * 1024, "an allocation beyond the input");
  }

  // In pieces: sizes from a small generator seeded by the input, mostly short pieces (every
  // state of the parser gets interrupted) and sometimes long ones.
  Outcome pieces;
  {
    kv::RespParser parser(&limits);
    std::string buffer;
    uint32_t x = split_seed | 1;
    size_t at = 0;
    bool open = true;
    while (at < input.size() && open) {
      x ^= x << 13;
      x ^= x >> 17;
      x ^= x << 5;
      const size_t len = (x & 3) != 0 ? 1 + (x >> 8) % 8 : 1 + (x >> 8) % 4096;
      const size_t n = std::min(len, input.size() - at);
      buffer.append(input, at, n);
      at += n;
      open = Drain(parser, buffer, pieces, /*track=*/false);
    }
    pieces.unconsumed = buffer.size() + (input.size() - at);
  }

  // The "too big" errors depend on how much had arrived when no newline was there yet (as in
  // Redis); below that size, the pieces must not matter.
  if (input.size() <= limits.max_inline_len) {
    Check(pieces.commands == whole.commands, "pieces gave other commands than the whole");
    Check(pieces.error == whole.error, "pieces gave another error than the whole");
    if (whole.error.empty()) {
      Check(pieces.unconsumed == whole.unconsumed, "pieces left another rest than the whole");
    }
  }
  return 0;
}
