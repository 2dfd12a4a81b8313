// COMMAND and its subcommands: the registry for what kvserver does, Redis 7.0.15's generated
// documentation (command_docs.h) for the rest.

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <iterator>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "protocol/number.h"
#include "server/command_registry.h"
#include "server/commands/command_docs.h"
#include "server/commands/families.h"
#include "server/commands/migrate_keys.h"
#include "server/commands/sort_keys.h"
#include "server/dispatcher.h"
#include "server/errors.h"
#include "server/glob.h"
#include "server/strings.h"

namespace kv {
namespace {

// Redis's documentation of a registered command; nullptr for kvserver's own commands (KVFAULT)
// and those newer than Redis 7.0.
const CommandDoc* DocOf(const CommandSpec& spec) { return FindCommandDoc(FullName(spec)); }

std::vector<std::string_view> FlagNames(uint32_t flags) {
  // In the order Redis's addReplyFlagsForCommand lists them.
  static constexpr std::pair<uint32_t, std::string_view> kNames[] = {
      {kCmdWrite, "write"},
      {kCmdReadOnly, "readonly"},
      {kCmdDenyOom, "denyoom"},
      {kCmdAdmin, "admin"},
      {kCmdPubSub, "pubsub"},
      {kCmdNoScript, "noscript"},
      {kCmdBlocking, "blocking"},
      {kCmdLoading, "loading"},
      {kCmdStale, "stale"},
      {kCmdSkipMonitor, "skip_monitor"},
      {kCmdSkipSlowlog, "skip_slowlog"},
      {kCmdAsking, "asking"},
      {kCmdFast, "fast"},
      {kCmdNoAuth, "no_auth"},
      {kCmdNoMandatoryKeys, "no_mandatory_keys"},
      {kCmdNoAsyncLoading, "no_async_loading"},
      {kCmdNoMulti, "no_multi"},
      {kCmdMovableKeys, "movablekeys"},
      {kCmdAllowBusy, "allow_busy"},
  };
  std::vector<std::string_view> names;
  for (auto [bit, name] : kNames) {
    if (flags & bit) names.push_back(name);
  }
  return names;
}

void ReplyStatusSet(ReplyWriter& r, const std::vector<std::string_view>& words) {
  r.SetHeader(words.size());
  for (std::string_view w : words) r.SimpleString(w);
}

// A map of integer fields, as the specs of begin_search and find_keys.
void ReplyIntMap(ReplyWriter& r, std::initializer_list<std::pair<std::string_view, int>> fields) {
  r.MapHeader(fields.size());
  for (auto [name, value] : fields) {
    r.Bulk(name);
    r.Integer(value);
  }
}

// Redis's addReplyCommandKeySpecs.
void ReplyKeySpecs(ReplyWriter& r, std::span<const KeySpecDoc> specs) {
  r.SetHeader(specs.size());
  for (const KeySpecDoc& ks : specs) {
    r.MapHeader(ks.notes.empty() ? 3 : 4);
    if (!ks.notes.empty()) {
      r.Bulk("notes");
      r.Bulk(ks.notes);
    }
    r.Bulk("flags");
    ReplyStatusSet(r, SplitWords(ks.flags));
    r.Bulk("begin_search");
    r.MapHeader(2);
    r.Bulk("type");
    switch (ks.search) {
      case KeySearch::kIndex:
        r.Bulk("index");
        r.Bulk("spec");
        ReplyIntMap(r, {{"index", ks.search_pos}});
        break;
      case KeySearch::kKeyword:
        r.Bulk("keyword");
        r.Bulk("spec");
        r.MapHeader(2);
        r.Bulk("keyword");
        r.Bulk(ks.keyword);
        r.Bulk("startfrom");
        r.Integer(ks.search_pos);
        break;
      case KeySearch::kUnknown:
        r.Bulk("unknown");
        r.Bulk("spec");
        r.MapHeader(0);
        break;
    }
    r.Bulk("find_keys");
    r.MapHeader(2);
    r.Bulk("type");
    const auto [a, b, c] = ks.find_args;
    switch (ks.find) {
      case KeyFind::kRange:
        r.Bulk("range");
        r.Bulk("spec");
        ReplyIntMap(r, {{"lastkey", a}, {"keystep", b}, {"limit", c}});
        break;
      case KeyFind::kKeynum:
        r.Bulk("keynum");
        r.Bulk("spec");
        ReplyIntMap(r, {{"keynumidx", a}, {"firstkey", b}, {"keystep", c}});
        break;
      case KeyFind::kUnknown:
        r.Bulk("unknown");
        r.Bulk("spec");
        r.MapHeader(0);
        break;
    }
  }
}

// One command as COMMAND and COMMAND INFO describe it: ten fields, as Redis 7's
// addReplyCommandInfo. Arity, flags, key positions and ACL categories are the registry's (what
// kvserver does; tests/server/command_table_test.cc holds them to Redis's), the rest Redis's docs.
void ReplyCommandInfo(CommandContext& ctx, const CommandSpec& spec) {
  ReplyWriter& r = ctx.reply;
  const CommandDoc* doc = DocOf(spec);
  r.ArrayHeader(10);
  r.Bulk(FullName(spec));
  r.Integer(spec.arity);
  ReplyStatusSet(r, FlagNames(spec.flags));
  r.Integer(spec.first_key);
  r.Integer(spec.last_key);
  r.Integer(spec.key_step);
  ReplyStatusSet(r, SplitWords(spec.acl_categories));
  const std::vector<std::string_view> tips =
      doc != nullptr ? SplitWords(doc->tips) : std::vector<std::string_view>{};
  r.SetHeader(tips.size());
  for (std::string_view tip : tips) r.Bulk(tip);
  ReplyKeySpecs(r, doc != nullptr ? doc->key_specs : std::span<const KeySpecDoc>{});
  if (spec.subcommands.empty()) return r.SetHeader(0);
  r.ArrayHeader(spec.subcommands.size());
  for (const CommandSpec& sub : spec.subcommands) ReplyCommandInfo(ctx, sub);
}

// Redis's addReplyCommandArgList.
void ReplyDocArgs(ReplyWriter& r, std::span<const ArgDoc> args) {
  r.ArrayHeader(args.size());
  for (const ArgDoc& arg : args) {
    const bool nested = arg.type == "oneof" || arg.type == "block";
    const bool token = arg.token.data() != nullptr;
    const std::pair<std::string_view, std::string_view> strings[] = {
        {"summary", arg.summary}, {"since", arg.since}, {"deprecated_since", arg.deprecated_since}};
    size_t fields = 2 + (arg.key_spec_index >= 0) + token + !arg.flags.empty() + nested;
    for (auto [name, value] : strings) fields += !value.empty();
    r.MapHeader(fields);
    r.Bulk("name");
    r.Bulk(arg.name);
    r.Bulk("type");
    r.Bulk(arg.type);
    if (arg.key_spec_index >= 0) {
      r.Bulk("key_spec_index");
      r.Integer(arg.key_spec_index);
    }
    if (token) {
      r.Bulk("token");
      r.Bulk(arg.token);
    }
    for (auto [name, value] : strings) {
      if (value.empty()) continue;
      r.Bulk(name);
      r.Bulk(value);
    }
    if (!arg.flags.empty()) {
      r.Bulk("flags");
      ReplyStatusSet(r, SplitWords(arg.flags));
    }
    if (nested) {
      r.Bulk("arguments");
      ReplyDocArgs(r, arg.args);
    }
  }
}

// Redis's addReplyCommandDocs; a command Redis lacks gets the registry's summary, since and group.
void ReplyCommandDocs(CommandContext& ctx, const CommandSpec& spec) {
  ReplyWriter& r = ctx.reply;
  CommandDoc doc = {};
  if (const CommandDoc* found = DocOf(spec)) {
    doc = *found;
  } else {
    doc.summary = spec.summary;
    doc.since = spec.since;
    doc.group = spec.group;
  }
  const std::pair<std::string_view, std::string_view> strings[] = {{"summary", doc.summary},
                                                                   {"since", doc.since},
                                                                   {"group", doc.group},
                                                                   {"complexity", doc.complexity}};
  const std::pair<std::string_view, std::string_view> deprecation[] = {
      {"deprecated_since", doc.deprecated_since}, {"replaced_by", doc.replaced_by}};
  size_t fields =
      !doc.doc_flags.empty() + !doc.history.empty() + !doc.args.empty() + !spec.subcommands.empty();
  for (auto [name, value] : strings) fields += !value.empty();
  for (auto [name, value] : deprecation) fields += !value.empty();
  r.MapHeader(fields);
  for (auto [name, value] : strings) {
    if (value.empty()) continue;
    r.Bulk(name);
    r.Bulk(value);
  }
  if (!doc.doc_flags.empty()) {
    r.Bulk("doc_flags");
    ReplyStatusSet(r, SplitWords(doc.doc_flags));
  }
  for (auto [name, value] : deprecation) {
    if (value.empty()) continue;
    r.Bulk(name);
    r.Bulk(value);
  }
  if (!doc.history.empty()) {
    r.Bulk("history");
    r.SetHeader(doc.history.size());
    for (const HistoryDoc& entry : doc.history) {
      r.ArrayHeader(2);
      r.Bulk(entry.since);
      r.Bulk(entry.changes);
    }
  }
  if (!doc.args.empty()) {
    r.Bulk("arguments");
    ReplyDocArgs(r, doc.args);
  }
  if (!spec.subcommands.empty()) {
    r.Bulk("subcommands");
    r.MapHeader(spec.subcommands.size());
    for (const CommandSpec& sub : spec.subcommands) {
      r.Bulk(FullName(sub));
      ReplyCommandDocs(ctx, sub);
    }
  }
}

// "config|get" or "get" to its table entry, as Redis's lookupCommandBySds: at most one '|', and
// a name with a '|' must name a subcommand.
const CommandSpec* Lookup(CommandContext& ctx, std::string_view name) {
  name = name.substr(0, name.find('\0'));
  const size_t bar = name.find('|');
  const CommandSpec* spec = ctx.server.registry->Find(name.substr(0, bar));
  if (spec == nullptr || bar == std::string_view::npos) return spec;
  const std::string_view sub = name.substr(bar + 1);
  if (sub.find('|') != std::string_view::npos) return nullptr;
  return CommandRegistry::FindSubcommand(*spec, sub);
}

void Command(CommandContext& ctx) {
  auto all = ctx.server.registry->All();
  ctx.reply.ArrayHeader(all.size());
  for (const CommandSpec* spec : all) ReplyCommandInfo(ctx, *spec);
}

void CommandCount(CommandContext& ctx) {
  ctx.reply.Integer(static_cast<int64_t>(ctx.server.registry->size()));
}

void CommandInfo(CommandContext& ctx) {
  if (ctx.args.size() == 2) return Command(ctx);
  ctx.reply.ArrayHeader(ctx.args.size() - 2);
  for (size_t i = 2; i < ctx.args.size(); ++i) {
    const CommandSpec* spec = Lookup(ctx, ctx.args[i]);
    if (spec == nullptr) {
      ctx.reply.Null();
    } else {
      ReplyCommandInfo(ctx, *spec);
    }
  }
}

void CommandDocs(CommandContext& ctx) {
  std::vector<const CommandSpec*> specs;
  if (ctx.args.size() == 2) {
    specs = ctx.server.registry->All();
  } else {
    for (size_t i = 2; i < ctx.args.size(); ++i) {
      if (const CommandSpec* spec = Lookup(ctx, ctx.args[i])) specs.push_back(spec);
    }
  }
  ctx.reply.MapHeader(specs.size());
  for (const CommandSpec* spec : specs) {
    ctx.reply.Bulk(FullName(*spec));
    ReplyCommandDocs(ctx, *spec);
  }
}

// COMMAND LIST [FILTERBY MODULE name|ACLCAT category|PATTERN pattern]: every command and
// subcommand by full name, optionally filtered.
void CommandList(CommandContext& ctx) {
  enum class Filter { kNone, kModule, kAclCat, kPattern } filter = Filter::kNone;
  std::string_view filter_arg;
  for (size_t i = 2; i < ctx.args.size(); ++i) {
    const size_t more = ctx.args.size() - 1 - i;
    if (!OptionIs(ctx.args[i], "filterby") || more != 2) return ctx.reply.Error(errors::kSyntax);
    std::string_view type = ctx.args[i + 1];
    if (OptionIs(type, "module")) {
      filter = Filter::kModule;
    } else if (OptionIs(type, "aclcat")) {
      filter = Filter::kAclCat;
    } else if (OptionIs(type, "pattern")) {
      filter = Filter::kPattern;
    } else {
      return ctx.reply.Error(errors::kSyntax);
    }
    filter_arg = ctx.args[i + 2];
    i += 2;
  }
  auto listed = [&](const CommandSpec& spec, const std::string& full_name) {
    switch (filter) {
      case Filter::kNone:
        return true;
      case Filter::kModule:
        return false;  // kvserver loads no modules
      case Filter::kAclCat: {
        const std::string_view cat = filter_arg.substr(0, filter_arg.find('\0'));
        for (std::string_view c : SplitWords(spec.acl_categories)) {
          if (c.size() > 1 && EqualsIgnoreCase(c.substr(1), cat)) return true;
        }
        return false;
      }
      case Filter::kPattern:
        return GlobMatch(filter_arg.substr(0, filter_arg.find('\0')), full_name, true);
    }
    return false;
  };
  std::vector<std::string> names;
  for (const CommandSpec* spec : ctx.server.registry->All()) {
    std::string name = FullName(*spec);
    if (listed(*spec, name)) names.push_back(std::move(name));
    for (const CommandSpec& sub : spec->subcommands) {
      std::string sub_name = FullName(sub);
      if (listed(sub, sub_name)) names.push_back(std::move(sub_name));
    }
  }
  ctx.reply.ArrayHeader(names.size());
  for (const std::string& name : names) ctx.reply.Bulk(name);
}

void CommandHelp(CommandContext& ctx) {
  static constexpr std::string_view kLines[] = {
      "(no subcommand)",
      "    Return details about all Redis commands.",
      "COUNT",
      "    Return the total number of commands in this Redis server.",
      "LIST",
      "    Return a list of all commands in this Redis server.",
      "INFO [<command-name> ...]",
      "    Return details about multiple Redis commands.",
      "    If no command names are given, documentation details for all",
      "    commands are returned.",
      "DOCS [<command-name> ...]",
      "    Return documentation details about multiple Redis commands.",
      "    If no command names are given, documentation details for all",
      "    commands are returned.",
      "GETKEYS <full-command>",
      "    Return the keys from a full Redis command.",
      "GETKEYSANDFLAGS <full-command>",
      "    Return the keys and the access flags from a full Redis command.",
  };
  ReplyWriter& r = ctx.reply;
  r.ArrayHeader(std::size(kLines) + 3);
  r.SimpleString("COMMAND <subcommand> [<arg> [value] [opt] ...]. Subcommands are:");
  for (std::string_view line : kLines) r.SimpleString(line);
  r.SimpleString("HELP");
  r.SimpleString("    Prints this help.");
}

// A key of a command line and the flags of the key specification that found it.
struct FoundKey {
  size_t pos;
  std::string_view flags;
};

bool HasWord(std::string_view words, std::string_view word) {
  for (std::string_view w : SplitWords(words)) {
    if (w == word) return true;
  }
  return false;
}

// Redis's getKeysUsingKeySpecs: the keys of `argv` (the command line from the command's name on)
// that `specs` find. False when a specification does not fit the arguments or is incomplete.
bool FindKeys(std::span<const KeySpecDoc> specs, std::span<const std::string_view> argv,
              std::vector<FoundKey>* keys) {
  const int argc = static_cast<int>(argv.size());
  for (const KeySpecDoc& ks : specs) {
    if (HasWord(ks.flags, "not_key")) continue;
    int first = 0;
    if (ks.search == KeySearch::kIndex) {
      first = ks.search_pos;
    } else if (ks.search == KeySearch::kKeyword) {
      // From startfrom towards the end, or from the end backwards when it is negative.
      const int start = ks.search_pos > 0 ? ks.search_pos : argc + ks.search_pos;
      const int end = ks.search_pos > 0 ? argc - 1 : 1;
      for (int i = start; i != end && i < argc && i >= 1; i += start <= end ? 1 : -1) {
        if (OptionIs(argv[i], ks.keyword)) {
          first = i + 1;
          break;
        }
      }
      if (first == 0) continue;
    } else {
      return false;
    }
    const auto [a, b, c] = ks.find_args;
    int64_t last = 0;  // 64 bits: a huge numkeys must not overflow
    int step = 1;
    if (ks.find == KeyFind::kRange) {  // lastkey, keystep, limit
      step = b;
      last = a >= 0 ? first + a : c == 0 ? argc + a : first + ((argc - first) / c + a);
    } else if (ks.find == KeyFind::kKeynum) {  // keynumidx, firstkey, keystep
      step = c;
      if (first + a >= argc) return false;
      const std::optional<int64_t> numkeys = ParseInt64(argv[first + a]);
      if (!numkeys || *numkeys < 0) return false;
      first += b;
      last = int64_t{first} + static_cast<int32_t>(*numkeys) - 1;  // Redis's (int)numkeys
    } else {
      return false;
    }
    if (last >= argc || last < first || first >= argc || step < 1) return false;
    for (int64_t i = first; i <= last; i += step) {
      keys->push_back({static_cast<size_t>(i), ks.flags});
    }
    if (HasWord(ks.flags, "incomplete")) return false;
  }
  return true;
}

// The flags of a key whose spec has variable_flags, from the arguments (Redis's setGetKeys and
// bitfieldGetKeys).
std::string_view VariableKeyFlags(const CommandSpec& spec, std::span<const std::string_view> argv) {
  if (spec.name == "set") {  // the key is only read when GET is given
    for (size_t i = 3; i < argv.size(); ++i) {
      if (OptionIs(argv[i], "get")) return "RW access update";
    }
    return "OW update";
  }
  // BITFIELD: only read when every operation is a GET.
  for (size_t i = 2; i < argv.size(); ++i) {
    const size_t remaining = argv.size() - i - 1;
    if (OptionIs(argv[i], "get") && remaining >= 2) {
      i += 2;
    } else if (OptionIs(argv[i], "overflow") && remaining >= 1) {
      i += 1;
    } else {
      return "RW access update";
    }
  }
  return "RO access";
}

// COMMAND GETKEYS / GETKEYSANDFLAGS <command> [args...]: the keys a command line would touch,
// found by the command's key specifications. Where those cannot find them Redis falls back on a
// command's own key finder: SORT and SORT_RO have theirs (sortGetKeys), MIGRATE migrateGetKeys.
void GetKeys(CommandContext& ctx, bool with_flags) {
  const auto cmd_args = ctx.args.subspan(2);
  const CommandSpec* spec = ctx.server.registry->Find(cmd_args[0]);
  if (spec != nullptr && !spec->subcommands.empty() && cmd_args.size() >= 2) {
    spec = CommandRegistry::FindSubcommand(*spec, cmd_args[1]);
  }
  if (spec == nullptr) return ctx.reply.Error("Invalid command specified");
  const CommandDoc* doc = DocOf(*spec);
  const std::span<const KeySpecDoc> specs =
      doc != nullptr ? doc->key_specs : std::span<const KeySpecDoc>{};
  if (std::all_of(specs.begin(), specs.end(),
                  [](const KeySpecDoc& ks) { return HasWord(ks.flags, "not_key"); })) {
    return ctx.reply.Error("The command has no key arguments");
  }
  if (!ArityMatches(spec->arity, cmd_args.size())) {
    return ctx.reply.Error("Invalid number of arguments specified for command");
  }
  std::vector<FoundKey> keys;
  if (!FindKeys(specs, cmd_args, &keys)) {
    keys.clear();
    if (spec->name == "sort" || spec->name == "sort_ro") {
      for (const SortKey& key : SortGetKeys(cmd_args, spec->name == "sort_ro")) {
        keys.push_back({key.pos, key.flags});
      }
    } else if (spec->name == "migrate") {
      for (size_t pos : MigrateGetKeys(cmd_args)) keys.push_back({pos, "RW access delete"});
    }
  }
  for (FoundKey& key : keys) {
    if (HasWord(key.flags, "variable_flags")) key.flags = VariableKeyFlags(*spec, cmd_args);
  }
  if (keys.empty()) {
    if (spec->flags & kCmdNoMandatoryKeys) return ctx.reply.ArrayHeader(0);
    return ctx.reply.Error("Invalid arguments specified for command");
  }
  ctx.reply.ArrayHeader(keys.size());
  for (const FoundKey& key : keys) {
    if (!with_flags) {
      ctx.reply.Bulk(cmd_args[key.pos]);
      continue;
    }
    ctx.reply.ArrayHeader(2);
    ctx.reply.Bulk(cmd_args[key.pos]);
    ReplyStatusSet(ctx.reply, SplitWords(key.flags));
  }
}

void CommandGetKeys(CommandContext& ctx) { GetKeys(ctx, false); }
void CommandGetKeysAndFlags(CommandContext& ctx) { GetKeys(ctx, true); }

constexpr uint32_t kIntro = kCmdLoading | kCmdStale;

}  // namespace

void RegisterIntrospectionFamily(CommandRegistry& r) {
  r.Register(
      {"command",
       -1,
       kIntro,
       0,
       0,
       0,
       Command,
       "server",
       "Get array of Redis command details",
       "2.8.13",
       "@slow @connection",
       {
           {"count", 2, kIntro, 0, 0, 0, CommandCount, "server",
            "Get total number of Redis commands", "2.8.13", "@slow @connection"},
           {"info", -2, kIntro, 0, 0, 0, CommandInfo, "server",
            "Get array of specific Redis command details, or all when no argument is "
            "given.",
            "2.8.13", "@slow @connection"},
           {"docs", -2, kIntro, 0, 0, 0, CommandDocs, "server",
            "Get array of specific Redis command documentation", "7.0.0", "@slow @connection"},
           {"list", -2, kIntro, 0, 0, 0, CommandList, "server",
            "Get an array of Redis command names", "7.0.0", "@slow @connection"},
           {"help", 2, kIntro, 0, 0, 0, CommandHelp, "server",
            "Show helpful text about the different subcommands", "5.0.0", "@slow @connection"},
           {"getkeys", -4, kIntro, 0, 0, 0, CommandGetKeys, "server",
            "Extract keys given a full Redis command", "2.8.13", "@slow @connection"},
           {"getkeysandflags", -4, kIntro, 0, 0, 0, CommandGetKeysAndFlags, "server",
            "Extract keys and access flags given a full Redis command", "7.0.0",
            "@slow @connection"},
       }});
}

}  // namespace kv
