// SORT and SORT_RO, as Redis 7.0's sort.c: the elements of a list, set or sorted set sorted by
// their value (numbers, or strings with ALPHA) or by the values of other keys (BY pattern, hash
// fields with "->"), or in their own order (BY a pattern without '*'), a LIMIT window of them, and
// for each the element itself or other keys' values (GET), replied or stored as a list (STORE).
//
// Elements that compare equal come out in Redis's order too: a full sort is glibc's qsort of
// Redis's vector (a stable merge sort), and a BY sort cut by LIMIT is Redis's pqsort
// (partial_sort.h), both over the elements in the order Redis loads them (a list's, an intset's
// ascending order; a hash table's order is its own in Redis too).

#include <algorithm>
#include <cerrno>
#include <climits>
#include <clocale>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "protocol/number.h"
#include "server/command_registry.h"
#include "server/commands/families.h"
#include "server/commands/lookup.h"
#include "server/commands/partial_sort.h"
#include "server/commands/sort_keys.h"
#include "server/errors.h"
#include "server/strings.h"
#include "storage/hash.h"
#include "storage/list.h"
#include "storage/set.h"
#include "storage/zset.h"

namespace kv {
namespace {

// One element to sort (Redis's redisSortObject): the element, and what it sorts by.
struct SortItem {
  std::string element;
  double score = 0;
  // ALPHA with BY: the BY key's value, when it has one (Redis's cmpobj, NULL otherwise).
  std::optional<std::string> by_value;
};

// How sortCompare compares, from the options.
struct SortOrder {
  bool desc = false;
  bool alpha = false;
  bool by_pattern = false;
  bool store = false;
};

int Sign(int v) { return (v > 0) - (v < 0); }

// compareStringObjects: the bytes, then the length.
int CompareBinary(std::string_view a, std::string_view b) {
  const int cmp = std::memcmp(a.data(), b.data(), std::min(a.size(), b.size()));
  if (cmp != 0) return Sign(cmp);
  return a.size() < b.size() ? -1 : a.size() > b.size() ? 1 : 0;
}

// collateStringObjects: strcoll, under the LC_COLLATE of the environment as Redis's main() sets
// it, so up to a string's first NUL byte.
int CompareCollated(const std::string& a, const std::string& b) {
  return Sign(std::strcoll(a.c_str(), b.c_str()));
}

// sortCompare.
int Compare(const SortItem& a, const SortItem& b, const SortOrder& order) {
  int cmp;
  if (!order.alpha) {
    if (a.score > b.score) {
      cmp = 1;
    } else if (a.score < b.score) {
      cmp = -1;
    } else {
      // Equal scores: the elements' bytes decide, so that the result is deterministic.
      cmp = CompareBinary(a.element, b.element);
    }
  } else if (order.by_pattern) {
    if (!a.by_value || !b.by_value) {
      // A missing BY value sorts first; two missing ones are equal.
      cmp = a.by_value.has_value() == b.by_value.has_value() ? 0 : !a.by_value ? -1 : 1;
    } else {
      cmp = order.store ? CompareBinary(*a.by_value, *b.by_value)
                        : CompareCollated(*a.by_value, *b.by_value);
    }
  } else {
    cmp = order.store ? CompareBinary(a.element, b.element) : CompareCollated(a.element, b.element);
  }
  return order.desc ? -cmp : cmp;
}

// lookupKeyByPattern: "#" is the element itself; otherwise the first '*' of the pattern is
// replaced by the element to name a key, whose string value it is, or with "->field" after the
// '*' the value of that field of the hash at the key. Nothing for a pattern without '*', a missing
// key or field, or a key of another type. Like Redis's C string functions, the search for '*',
// "->" and the field stops at a NUL byte, while the key and field take the pattern's whole bytes.
std::optional<std::string> LookupByPattern(CommandContext& ctx, std::string_view pattern,
                                           std::string_view element) {
  const std::string_view cpattern = pattern.substr(0, pattern.find('\0'));
  if (cpattern == "#") return std::string(element);
  const size_t star = cpattern.find('*');
  if (star == std::string_view::npos) return std::nullopt;
  const size_t arrow = cpattern.find("->", star + 1);
  const bool has_field = arrow != std::string_view::npos && arrow + 2 < cpattern.size();
  const std::string_view field = has_field ? pattern.substr(arrow + 2) : std::string_view();
  const size_t postfix_len = pattern.size() - (star + 1) - (has_field ? field.size() + 2 : 0);

  std::string key;
  key.reserve(star + element.size() + postfix_len);
  key.append(pattern.substr(0, star));
  key.append(element);
  key.append(pattern.substr(star + 1, postfix_len));
  const Value* v = LookupRead(ctx, key);
  if (v == nullptr) return std::nullopt;
  if (has_field) {
    if (v->type() != ValueType::kHash) return std::nullopt;
    Hash::IntBuf buf;
    std::string_view value;
    if (!v->As<Hash>().Get(field, buf, &value)) return std::nullopt;
    return std::string(value);
  }
  if (!v->is_string()) return std::nullopt;
  return std::string(v->str());
}

// The number a value sorts by: strtod over the value up to its first NUL, as Redis's; false when
// something follows the number, it is out of range or not a number.
bool ParseSortScore(const std::string& value, double* score) {
  char* eptr;
  errno = 0;
  *score = std::strtod(value.c_str(), &eptr);
  return eptr[0] == '\0' && errno != ERANGE && !std::isnan(*score);
}

std::string ElementString(ListPackValue v) {
  if (!v.is_int) return std::string(v.str);
  char buf[ListPackValue::kIntBufSize];
  return std::string(v.ToString(buf));
}

// SORT's result as a list (createQuicklistObject: the list options of the moment).
std::unique_ptr<List> NewList(const CommandContext& ctx) {
  const Config& config = ctx.server.config;
  return std::make_unique<List>(
      static_cast<int>(std::clamp<int64_t>(config.list_max_listpack_size, INT_MIN, INT_MAX)),
      static_cast<int>(std::clamp<int64_t>(config.list_compress_depth, 0, INT_MAX)),
      ctx.server.list_packed_threshold);
}

// setKey(..., 0): `key` gets the list, replacing whatever it held and its TTL; a new key wakes
// the clients blocked on it (dbAdd), an overwritten one does not (dbOverwrite).
void StoreList(CommandContext& ctx, std::string_view key, std::unique_ptr<List> list) {
  Db& db = ctx.db();
  if (db.Find(key, ctx.now_ms) == nullptr) {
    AddAggregate(ctx, key, std::move(list));
    return;
  }
  DetachedValue v;
  v.aggregate = std::move(list);
  db.Put(key, std::move(v), kNoExpiry);
}

// sortCommandGeneric.
void SortGeneric(CommandContext& ctx, bool readonly) {
  bool desc = false, alpha = false, dontsort = false;
  int64_t limit_start = 0, limit_count = -1;
  std::optional<std::string_view> store_key;
  std::optional<std::string_view> sort_by;
  std::vector<std::string_view> get_patterns;

  // The options, SQL-like. Redis also refuses BY with a '*' pattern, and GET, in cluster mode
  // and for ACL users without access to every key; kvserver refuses cluster-enabled yes and every
  // user but a default one with every permission at start, so neither refusal can apply yet.
  const size_t argc = ctx.args.size();
  for (size_t j = 2; j < argc; ++j) {
    const size_t left = argc - j - 1;
    const std::string_view arg = ctx.args[j];
    if (OptionIs(arg, "asc")) {
      desc = false;
    } else if (OptionIs(arg, "desc")) {
      desc = true;
    } else if (OptionIs(arg, "alpha")) {
      alpha = true;
    } else if (OptionIs(arg, "limit") && left >= 2) {
      const std::optional<int64_t> start = ParseInt64(ctx.args[j + 1]);
      const std::optional<int64_t> count = start ? ParseInt64(ctx.args[j + 2]) : std::nullopt;
      if (!start || !count) return ctx.reply.Error(errors::kNotInteger);
      limit_start = *start;
      limit_count = *count;
      j += 2;
    } else if (!readonly && OptionIs(arg, "store") && left >= 1) {
      store_key = ctx.args[j + 1];
      ++j;
    } else if (OptionIs(arg, "by") && left >= 1) {
      sort_by = ctx.args[j + 1];
      // A pattern without '*' (up to a NUL, as strchr) names no keys: nothing to sort by, the
      // elements keep their order. Once set this stays, whatever BY follows.
      const std::string_view by = *sort_by;
      if (by.substr(0, by.find('\0')).find('*') == std::string_view::npos) dontsort = true;
      ++j;
    } else if (OptionIs(arg, "get") && left >= 1) {
      get_patterns.push_back(ctx.args[j + 1]);
      ++j;
    } else {
      return ctx.reply.Error(errors::kSyntax);
    }
  }

  const Value* source = LookupRead(ctx, ctx.args[1]);
  if (source != nullptr && source->type() != ValueType::kSet &&
      source->type() != ValueType::kList && source->type() != ValueType::kZSet) {
    return ctx.reply.Error(errors::kWrongType);
  }
  const ValueType type = source != nullptr ? source->type() : ValueType::kList;

  // A set has no order of its own to keep: stored, or read by a script, it is sorted as strings
  // so that the result does not depend on its hash table.
  if (dontsort && type == ValueType::kSet && (store_key || ctx.conn.script_client)) {
    dontsort = false;
    alpha = true;
    sort_by.reset();
  }

  // Redis turns a listpack sorted set into a skiplist for SORT, for good.
  if (type == ValueType::kZSet && source->As<ZSet>().is_listpack()) {
    source->As<ZSet>().ConvertToBig();
  }

  int64_t vectorlen = source != nullptr ? static_cast<int64_t>(source->aggregate()->size()) : 0;

  // The LIMIT window, kept within the elements.
  int64_t start = std::min(std::max<int64_t>(limit_start, 0), vectorlen);
  limit_count = std::min(std::max<int64_t>(limit_count, -1), vectorlen);
  int64_t end = limit_count < 0 ? vectorlen - 1 : start + limit_count - 1;
  if (start >= vectorlen) {
    start = vectorlen - 1;
    end = vectorlen - 2;
  }
  if (end >= vectorlen) end = vectorlen - 1;

  // A list or sorted set kept in its order loads only the window.
  const bool load_window = (type == ValueType::kZSet || type == ValueType::kList) && dontsort;
  if (load_window && (start != 0 || end != vectorlen - 1)) vectorlen = end - start + 1;

  std::vector<SortItem> vector;
  vector.reserve(static_cast<size_t>(std::max<int64_t>(vectorlen, 0)));
  if (type == ValueType::kList && source != nullptr) {
    List& list = source->As<List>();
    const auto add = [&](ListPackValue v) { vector.push_back({ElementString(v), 0, {}}); };
    if (dontsort) {
      if (end >= start && vectorlen > 0) {
        const int64_t len = static_cast<int64_t>(list.size());
        if (desc) {
          list.ForRange(static_cast<long>(len - start - vectorlen),
                        static_cast<long>(len - start - 1),
                        /*reverse=*/true, add);
        } else {
          list.ForRange(static_cast<long>(start), static_cast<long>(start + vectorlen - 1),
                        /*reverse=*/false, add);
        }
        end -= start;
        start = 0;
      }
    } else if (vectorlen > 0) {
      list.ForRange(0, static_cast<long>(vectorlen - 1), /*reverse=*/false, add);
    }
  } else if (type == ValueType::kSet) {
    source->As<Set>().ForEach([&](std::string_view m) {
      vector.push_back({std::string(m), 0, {}});
    });
  } else if (type == ValueType::kZSet) {
    const ZSet& z = source->As<ZSet>();
    char buf[ListPackValue::kIntBufSize];
    if (dontsort) {
      const int64_t len = static_cast<int64_t>(z.size());
      ZSet::Iterator it = z.Seek(static_cast<size_t>(desc ? len - 1 - start : start));
      for (int64_t n = 0; n < vectorlen && it.valid(); ++n) {
        vector.push_back({std::string(it.member(buf)), 0, {}});
        if (desc) {
          it.Prev();
        } else {
          it.Next();
        }
      }
      end -= start;
      start = 0;
    } else {
      z.ForEach([&](std::string_view m, double) { vector.push_back({std::string(m), 0, {}}); });
    }
  }

  // What each element sorts by, then the sort.
  bool score_error = false;
  if (!dontsort) {
    for (SortItem& item : vector) {
      std::optional<std::string> by_value;
      if (sort_by) {
        by_value = LookupByPattern(ctx, *sort_by, item.element);
        if (!by_value) continue;  // sorts as 0, or first with ALPHA
      }
      if (alpha) {
        if (sort_by) item.by_value = std::move(by_value);
      } else if (!ParseSortScore(sort_by ? *by_value : item.element, &item.score)) {
        score_error = true;
      }
    }
    const SortOrder order{desc, alpha, sort_by.has_value(), store_key.has_value()};
    const auto cmp = [&order](const SortItem& a, const SortItem& b) {
      return Compare(a, b, order);
    };
    // With an error nothing is returned, so no need to sort (NaN would not order).
    if (!score_error && !vector.empty()) {
      if (sort_by && (start != 0 || end != static_cast<int64_t>(vector.size()) - 1)) {
        PartialSorter<SortItem, decltype(cmp)>(vector, cmp)
            .Sort(static_cast<size_t>(start), static_cast<size_t>(end));
      } else {
        std::stable_sort(vector.begin(), vector.end(),
                         [&cmp](const SortItem& a, const SortItem& b) { return cmp(a, b) < 0; });
      }
    }
  }

  const int64_t window = end - start + 1;
  const int64_t outputlen =
      get_patterns.empty() ? window : static_cast<int64_t>(get_patterns.size()) * window;
  if (score_error) return ctx.reply.Error("One or more scores can't be converted into double");

  if (!store_key) {
    ctx.reply.ArrayHeader(static_cast<size_t>(outputlen));
    for (int64_t j = start; j <= end; ++j) {
      const std::string& element = vector[static_cast<size_t>(j)].element;
      if (get_patterns.empty()) ctx.reply.Bulk(element);
      for (std::string_view pattern : get_patterns) {
        const std::optional<std::string> value = LookupByPattern(ctx, pattern, element);
        if (value) {
          ctx.reply.Bulk(*value);
        } else {
          ctx.reply.Null();
        }
      }
    }
    return;
  }

  std::unique_ptr<List> result = NewList(ctx);
  for (int64_t j = start; j <= end; ++j) {
    const std::string& element = vector[static_cast<size_t>(j)].element;
    if (get_patterns.empty()) result->Push(element, List::End::kTail);
    for (std::string_view pattern : get_patterns) {
      const std::optional<std::string> value = LookupByPattern(ctx, pattern, element);
      result->Push(value ? std::string_view(*value) : std::string_view(), List::End::kTail);
    }
  }
  // setKey signals the key; an empty result deletes it with a "del" event.
  if (outputlen > 0) {
    StoreList(ctx, *store_key, std::move(result));
    ctx.KeyModified(*store_key);
    ctx.Notify(kNotifyList, "sortstore", *store_key);
    ctx.CountChanges(static_cast<uint64_t>(outputlen));
  } else if (ctx.db().Delete(*store_key, ctx.now_ms)) {
    ctx.KeyModified(*store_key);
    ctx.Notify(kNotifyGeneric, "del", *store_key);
    ctx.CountChanges();
  }
  ctx.reply.Integer(outputlen);
}

void Sort(CommandContext& ctx) { SortGeneric(ctx, /*readonly=*/false); }
void SortRo(CommandContext& ctx) { SortGeneric(ctx, /*readonly=*/true); }

}  // namespace

std::vector<SortKey> SortGetKeys(std::span<const std::string_view> argv, bool readonly) {
  std::vector<SortKey> keys = {{1, "RO access"}};
  if (readonly) return keys;  // sortROGetKeys
  // sortGetKeys: the last STORE's argument, skipping the arguments of LIMIT, GET and BY (other
  // words count as options without arguments).
  std::optional<SortKey> store;
  for (size_t i = 2; i < argv.size(); ++i) {
    if (OptionIs(argv[i], "limit")) {
      i += 2;
    } else if (OptionIs(argv[i], "get") || OptionIs(argv[i], "by")) {
      i += 1;
    } else if (OptionIs(argv[i], "store") && i + 1 < argv.size()) {
      store = SortKey{i + 1, "OW update"};
    }
  }
  if (store) keys.push_back(*store);
  return keys;
}

void RegisterSortFamily(CommandRegistry& r) {
  r.Register({"sort", -2, kCmdWrite | kCmdDenyOom | kCmdMovableKeys, 1, 1, 1, Sort, "generic",
              "Sort the elements in a list, set or sorted set", "1.0.0",
              "@write @set @sortedset @list @slow @dangerous"});
  r.Register({"sort_ro", -2, kCmdReadOnly | kCmdMovableKeys, 1, 1, 1, SortRo, "generic",
              "Sort the elements in a list, set or sorted set. Read-only variant of SORT.", "7.0.0",
              "@read @set @sortedset @list @slow @dangerous"});
}

}  // namespace kv
