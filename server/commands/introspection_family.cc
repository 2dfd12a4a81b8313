// COMMAND and its subcommands, generated from the command table.

#include <string>
#include <vector>

#include "server/command_registry.h"
#include "server/commands/families.h"
#include "server/errors.h"
#include "server/strings.h"

namespace kv {
namespace {

std::string FullName(const CommandSpec& spec) {
  return spec.parent.empty() ? std::string(spec.name)
                             : std::string(spec.parent) + "|" + std::string(spec.name);
}

std::vector<std::string_view> FlagNames(uint32_t flags) {
  static constexpr std::pair<uint32_t, std::string_view> kNames[] = {
      {kCmdWrite, "write"},       {kCmdReadOnly, "readonly"},
      {kCmdDenyOom, "denyoom"},   {kCmdAdmin, "admin"},
      {kCmdPubSub, "pubsub"},     {kCmdNoScript, "noscript"},
      {kCmdBlocking, "blocking"}, {kCmdLoading, "loading"},
      {kCmdStale, "stale"},       {kCmdSkipMonitor, "skip_monitor"},
      {kCmdFast, "fast"},         {kCmdNoAuth, "no_auth"},
      {kCmdNoMulti, "no_multi"},  {kCmdAllowBusy, "allow_busy"},
  };
  std::vector<std::string_view> names;
  for (auto [bit, name] : kNames) {
    if (flags & bit) names.push_back(name);
  }
  return names;
}

// The key specification Redis 7 derives for a simple first/last/step command.
void ReplyKeySpecs(CommandContext& ctx, const CommandSpec& spec) {
  if (spec.first_key == 0) return ctx.reply.ArrayHeader(0);
  ReplyWriter& r = ctx.reply;
  r.ArrayHeader(1);
  r.MapHeader(3);
  r.Bulk("flags");
  if (spec.flags & kCmdWrite) {
    r.SetHeader(2);
    r.SimpleString("RW");
    r.SimpleString("UPDATE");
  } else {
    r.SetHeader(2);
    r.SimpleString("RO");
    r.SimpleString("ACCESS");
  }
  r.Bulk("begin_search");
  r.MapHeader(2);
  r.Bulk("type");
  r.Bulk("index");
  r.Bulk("spec");
  r.MapHeader(1);
  r.Bulk("index");
  r.Integer(spec.first_key);
  r.Bulk("find_keys");
  r.MapHeader(2);
  r.Bulk("type");
  r.Bulk("range");
  r.Bulk("spec");
  r.MapHeader(3);
  r.Bulk("lastkey");
  r.Integer(spec.last_key < 0 ? spec.last_key : spec.last_key - spec.first_key);
  r.Bulk("keystep");
  r.Integer(spec.key_step);
  r.Bulk("limit");
  r.Integer(0);
}

void ReplyCommandInfo(CommandContext& ctx, const CommandSpec& spec) {
  ReplyWriter& r = ctx.reply;
  r.ArrayHeader(10);
  r.Bulk(FullName(spec));
  r.Integer(spec.arity);
  auto flags = FlagNames(spec.flags);
  r.SetHeader(flags.size());
  for (std::string_view f : flags) r.SimpleString(f);
  r.Integer(spec.first_key);
  r.Integer(spec.last_key);
  r.Integer(spec.key_step);
  std::vector<std::string_view> categories = SplitWords(spec.acl_categories);
  r.SetHeader(categories.size());
  for (std::string_view c : categories) r.SimpleString(c);
  r.ArrayHeader(0);  // tips
  ReplyKeySpecs(ctx, spec);
  r.ArrayHeader(spec.subcommands.size());
  for (const CommandSpec& sub : spec.subcommands) ReplyCommandInfo(ctx, sub);
}

void ReplyCommandDocs(CommandContext& ctx, const CommandSpec& spec) {
  ReplyWriter& r = ctx.reply;
  r.MapHeader(spec.subcommands.empty() ? 3 : 4);
  r.Bulk("summary");
  r.Bulk(spec.summary);
  r.Bulk("since");
  r.Bulk(spec.since);
  r.Bulk("group");
  r.Bulk(spec.group);
  if (!spec.subcommands.empty()) {
    r.Bulk("subcommands");
    r.MapHeader(spec.subcommands.size());
    for (const CommandSpec& sub : spec.subcommands) {
      r.Bulk(FullName(sub));
      ReplyCommandDocs(ctx, sub);
    }
  }
}

// "config|get" or "get" to its table entry.
const CommandSpec* Lookup(CommandContext& ctx, std::string_view name) {
  size_t bar = name.find('|');
  const CommandSpec* spec = ctx.server.registry->Find(name.substr(0, bar));
  if (spec == nullptr || bar == std::string_view::npos) return spec;
  return CommandRegistry::FindSubcommand(*spec, name.substr(bar + 1));
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
      ctx.reply.NullArray();
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

void CommandList(CommandContext& ctx) {
  if (ctx.args.size() != 2) return ctx.reply.Error(errors::kSyntax);
  auto all = ctx.server.registry->All();
  ctx.reply.ArrayHeader(all.size());
  for (const CommandSpec* spec : all) ctx.reply.Bulk(spec->name);
}

constexpr uint32_t kIntro = kCmdLoading | kCmdStale;

}  // namespace

void RegisterIntrospectionFamily(CommandRegistry& r) {
  r.Register({"command",
              -1,
              kIntro,
              0,
              0,
              0,
              Command,
              "server",
              "Returns detailed information about all commands.",
              "2.8.13",
              "@slow @connection",
              {
                  {"count", 2, kIntro, 0, 0, 0, CommandCount, "server",
                   "Returns a count of commands.", "2.8.13", "@slow @connection"},
                  {"info", -2, kIntro, 0, 0, 0, CommandInfo, "server",
                   "Returns information about one, multiple or all commands.", "2.8.13",
                   "@slow @connection"},
                  {"docs", -2, kIntro, 0, 0, 0, CommandDocs, "server",
                   "Returns documentary information about one, multiple or all commands.", "7.0.0",
                   "@slow @connection"},
                  {"list", -2, kIntro, 0, 0, 0, CommandList, "server",
                   "Returns a list of command names.", "7.0.0", "@slow @connection"},
              }});
}

}  // namespace kv
