#pragma once

#include <span>
#include <string_view>

namespace kv {

// What Redis 7.0.15 reports about each of its commands in COMMAND INFO and COMMAND DOCS, generated
// from its command JSON files by scripts/gen-command-docs.py (command_docs.inc). It holds every
// redis-server command, not only those kvserver has, so a family that lands later finds its docs
// here. Lists of names are space separated, in the order Redis replies them.

// One argument (Redis's redisCommandArg).
struct ArgDoc {
  std::string_view name;
  std::string_view
      type;            // string, integer, double, key, pattern, unix-time, pure-token, oneof, block
  int key_spec_index;  // -1: not a key
  std::string_view token;  // null data() when there is none (MIGRATE's empty_string has "")
  std::string_view summary;
  std::string_view since;
  std::string_view deprecated_since;
  std::string_view flags;        // optional multiple multiple_token
  std::span<const ArgDoc> args;  // of a oneof or block
};

// Where a key specification starts looking (begin_search) and how it finds the keys (find_keys).
enum class KeySearch : unsigned char { kIndex, kKeyword, kUnknown };
enum class KeyFind : unsigned char { kRange, kKeynum, kUnknown };

struct KeySpecDoc {
  std::string_view notes;
  std::string_view flags;  // e.g. "RW access update"
  KeySearch search;
  int search_pos;            // kIndex: the index; kKeyword: startfrom
  std::string_view keyword;  // kKeyword
  KeyFind find;
  // kRange: lastkey, keystep, limit; kKeynum: keynumidx, firstkey, keystep.
  int find_args[3];
};

struct HistoryDoc {
  std::string_view since;
  std::string_view changes;
};

struct CommandDoc {
  std::string_view name;  // full name in lower case: "get", "config|get"
  // COMMAND INFO.
  int arity;
  std::string_view flags;  // e.g. "write denyoom", movablekeys included
  int first_key;
  int last_key;
  int key_step;
  std::string_view acl_categories;  // e.g. "@write @string @slow", implicit ones included
  std::string_view tips;
  std::span<const KeySpecDoc> key_specs;
  // COMMAND DOCS; an empty field is one Redis leaves out.
  std::string_view summary;
  std::string_view since;
  std::string_view group;
  std::string_view complexity;
  std::string_view doc_flags;  // deprecated, syscmd
  std::string_view deprecated_since;
  std::string_view replaced_by;
  std::span<const HistoryDoc> history;
  std::span<const ArgDoc> args;
};

// The entry of `full_name` ("get", "config|get"; lower case); nullptr for a command Redis 7.0.15
// does not have.
const CommandDoc* FindCommandDoc(std::string_view full_name);

// Every entry, sorted by name.
std::span<const CommandDoc> AllCommandDocs();

}  // namespace kv
