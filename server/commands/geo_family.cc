// Geo: GEOADD, GEODIST, GEOHASH, GEOPOS, GEORADIUS, GEORADIUSBYMEMBER and their _RO forms,
// GEOSEARCH and GEOSEARCHSTORE, as Redis 7.0's geo.c: points are sorted set members whose score
// is their 52-bit geohash (storage/geohash).

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "protocol/number.h"
#include "server/command_registry.h"
#include "server/commands/families.h"
#include "server/commands/lookup.h"
#include "server/commands/partial_sort.h"
#include "server/commands/zset_access.h"
#include "server/errors.h"
#include "server/long_double.h"
#include "server/strings.h"
#include "storage/geohash.h"
#include "storage/zset.h"

namespace kv {
namespace {

using IntBuf = char[ListPackValue::kIntBufSize];

// An argument as Redis prints it with %s: up to a NUL byte.
std::string_view CStringPrefix(std::string_view s) { return s.substr(0, s.find('\0')); }

// ---- Arguments (geo.c's input helpers) ----

// extractLongLatOrReply: two floats, then the WGS84 limits.
bool ParseLonLat(CommandContext& ctx, std::string_view lon, std::string_view lat, double* xy) {
  const std::optional<double> x = ParseDouble(lon);
  if (!x) {
    ctx.reply.Error(errors::kNotFloat);
    return false;
  }
  const std::optional<double> y = ParseDouble(lat);
  if (!y) {
    ctx.reply.Error(errors::kNotFloat);
    return false;
  }
  xy[0] = *x;
  xy[1] = *y;
  if (xy[0] < geo::kLonMin || xy[0] > geo::kLonMax || xy[1] < geo::kLatMin ||
      xy[1] > geo::kLatMax) {
    char buf[256];
    std::snprintf(buf, sizeof buf, "-ERR invalid longitude,latitude pair %f,%f", xy[0], xy[1]);
    ctx.reply.Error(buf);
    return false;
  }
  return true;
}

// extractUnitOrReply: meters per unit, or -1 after replying.
double ParseUnit(CommandContext& ctx, std::string_view unit) {
  if (OptionIs(unit, "m")) return 1;
  if (OptionIs(unit, "km")) return 1000;
  if (OptionIs(unit, "ft")) return 0.3048;
  if (OptionIs(unit, "mi")) return 1609.34;
  ctx.reply.Error("unsupported unit provided. please use M, KM, FT, MI");
  return -1;
}

// extractDistanceOrReply: radius and unit.
bool ParseDistance(CommandContext& ctx, std::string_view radius_arg, std::string_view unit,
                   double* conversion, double* radius) {
  const std::optional<double> d = ParseDouble(radius_arg);
  if (!d) {
    ctx.reply.Error("need numeric radius");
    return false;
  }
  if (*d < 0) {
    ctx.reply.Error("radius cannot be negative");
    return false;
  }
  *radius = *d;
  const double to_meters = ParseUnit(ctx, unit);
  if (to_meters < 0) return false;
  *conversion = to_meters;
  return true;
}

// extractBoxOrReply: width, height and unit.
bool ParseBox(CommandContext& ctx, std::span<const std::string_view> args, double* conversion,
              double* width, double* height) {
  const std::optional<double> w = ParseDouble(args[0]);
  if (!w) {
    ctx.reply.Error("need numeric width");
    return false;
  }
  const std::optional<double> h = ParseDouble(args[1]);
  if (!h) {
    ctx.reply.Error("need numeric height");
    return false;
  }
  if (*h < 0 || *w < 0) {
    ctx.reply.Error("height or width cannot be negative");
    return false;
  }
  *height = *h;
  *width = *w;
  const double to_meters = ParseUnit(ctx, args[2]);
  if (to_meters < 0) return false;
  *conversion = to_meters;
  return true;
}

// longLatFromMember.
bool LonLatOfMember(const ZSet& z, std::string_view member, double* xy) {
  double score;
  return z.Score(member, &score) && geo::DecodeScore(score, xy);
}

// addReplyDoubleDistance: fixedpoint_d2string with 4 decimals (llrint of the value times 10^4).
void ReplyDistance(CommandContext& ctx, double d) {
  char buf[64];
  size_t n;
  if (d == 0) {
    n = static_cast<size_t>(std::snprintf(buf, sizeof buf, "0.0000"));
  } else {
    const long long v = std::llrint(d * 10000.0);
    unsigned long long u =
        v < 0 ? (v == INT64_MIN ? (1ULL << 63) : static_cast<unsigned long long>(-v))
              : static_cast<unsigned long long>(v);
    n = static_cast<size_t>(
        std::snprintf(buf, sizeof buf, "%s%llu.%04llu", v < 0 ? "-" : "", u / 10000, u % 10000));
  }
  ctx.reply.Bulk(std::string_view(buf, n));
}

// addReplyHumanLongDouble: a bulk string in RESP2, a double in RESP3, both ld2string's human text.
void ReplyHumanDouble(CommandContext& ctx, double v) {
  const std::string text = FormatLongDoubleHuman(v);
  if (ctx.reply.protocol() >= 3) {
    ctx.reply.Raw("," + text + "\r\n");
  } else {
    ctx.reply.Bulk(text);
  }
}

// ---- GEOADD ----

// GEOADD key [NX|XX] [CH] longitude latitude member ...: ZADD with each position's 52-bit
// geohash as its score.
void GeoAdd(CommandContext& ctx) {
  bool xx = false, nx = false;
  size_t longidx = 2;
  for (; longidx < ctx.args.size(); ++longidx) {
    const std::string_view opt = ctx.args[longidx];
    if (OptionIs(opt, "nx")) {
      nx = true;
    } else if (OptionIs(opt, "xx")) {
      xx = true;
    } else if (!OptionIs(opt, "ch")) {
      break;
    }
  }
  if ((ctx.args.size() - longidx) % 3 != 0 || (xx && nx)) {
    return ctx.reply.Error(errors::kSyntax);
  }
  const size_t elements = (ctx.args.size() - longidx) / 3;
  std::vector<std::string> scores(elements);
  std::vector<std::string_view> argv(ctx.args.begin(), ctx.args.begin() + longidx);
  argv[0] = "zadd";
  for (size_t i = 0; i < elements; ++i) {
    double xy[2];
    const size_t at = longidx + i * 3;
    if (!ParseLonLat(ctx, ctx.args[at], ctx.args[at + 1], xy)) return;
    geo::HashBits hash;
    geo::EncodeWgs84(xy[0], xy[1], geo::kStepMax, &hash);
    scores[i] = std::to_string(geo::Align52Bits(hash));
  }
  for (size_t i = 0; i < elements; ++i) {
    argv.push_back(scores[i]);
    argv.push_back(ctx.args[longidx + i * 3 + 2]);
  }
  CommandContext zadd{argv, ctx.reply, ctx.conn, ctx.server, ctx.now_ms, ctx.blocked_key};
  ZAddCommand(zadd);
  // Propagated as the ZADD it is (Redis's replaceClientCommandVector).
  if (ctx.Propagating()) ctx.PropagateAs(std::vector<std::string>(argv.begin(), argv.end()));
}

// ---- Searches ----

struct GeoPoint {
  double longitude;
  double latitude;
  double dist;
  double score;
  std::string member;
};

// sort_gp_asc / sort_gp_desc.
int CompareByDistance(const GeoPoint& a, const GeoPoint& b, bool desc) {
  int r;
  if (a.dist > b.dist) {
    r = 1;
  } else if (a.dist == b.dist) {
    r = 0;
  } else {
    r = -1;
  }
  return desc ? -r : r;
}

// geoGetPointsInRange: the members with scores in [min, max) inside the shape, appended to `out`
// until `limit` (0: no limit) are found.
void PointsInRange(const ZSet& z, double min, double max, const geo::Shape& shape,
                   std::vector<GeoPoint>* out, uint64_t limit) {
  const ScoreRange range{min, max, false, true};
  IntBuf buf;
  for (ZSet::Iterator it = z.FirstInRange(range); it.valid(); it.Next()) {
    const double score = it.score();
    if (!range.LteMax(score)) break;
    double xy[2];
    double distance = 0;
    if (geo::WithinShape(shape, score, xy, &distance)) {
      out->push_back({xy[0], xy[1], distance, score, std::string(it.member(buf))});
    }
    if (!out->empty() && limit != 0 && out->size() >= limit) break;
  }
}

// membersOfAllNeighbors: the center box and its eight neighbours, each once (as Redis, a box
// equal to the previous one is skipped, except after the center box).
void MembersOfAllNeighbors(const ZSet& z, const geo::SearchAreas& areas, const geo::Shape& shape,
                           std::vector<GeoPoint>* out, uint64_t limit) {
  const geo::HashBits boxes[9] = {areas.hash,
                                  areas.neighbors.north,
                                  areas.neighbors.south,
                                  areas.neighbors.east,
                                  areas.neighbors.west,
                                  areas.neighbors.north_east,
                                  areas.neighbors.north_west,
                                  areas.neighbors.south_east,
                                  areas.neighbors.south_west};
  size_t last_processed = 0;
  for (size_t i = 0; i < 9; ++i) {
    if (boxes[i].zero()) continue;
    if (last_processed != 0 && boxes[i].bits == boxes[last_processed].bits &&
        boxes[i].step == boxes[last_processed].step) {
      continue;
    }
    if (!out->empty() && limit != 0 && out->size() >= limit) break;
    // scoresOfGeoHashBox: every score with the box's prefix.
    geo::HashBits next = boxes[i];
    next.bits++;
    PointsInRange(z, static_cast<double>(geo::Align52Bits(boxes[i])),
                  static_cast<double>(geo::Align52Bits(next)), shape, out, limit);
    last_processed = i;
  }
}

enum GeoFlags : int {
  kRadiusCoords = 1,
  kRadiusMember = 2,
  kRadiusNoStore = 4,
  kGeoSearch = 8,
  kGeoSearchStore = 16,
};

enum class Sort { kNone, kAsc, kDesc };

// georadiusGeneric: GEORADIUS, GEORADIUSBYMEMBER, their _RO forms, GEOSEARCH and
// GEOSEARCHSTORE.
void RadiusGeneric(CommandContext& ctx, size_t src_index, int flags) {
  std::string_view storekey;
  bool storedist = false;
  const std::span<const std::string_view> args = ctx.args;
  ZSet* z = nullptr;
  if (!ReadAggregate<ZSet>(ctx, args[src_index], &z)) return;

  size_t base_args;
  geo::Shape shape;
  if (flags & kRadiusCoords) {
    base_args = 6;
    shape.type = geo::Shape::Type::kCircle;
    if (!ParseLonLat(ctx, args[2], args[3], shape.xy)) return;
    if (!ParseDistance(ctx, args[4], args[5], &shape.conversion, &shape.radius)) return;
  } else if ((flags & kRadiusMember) && z == nullptr) {
    // Without a source the arguments are still checked, to know which reply to use.
    base_args = 5;
  } else if (flags & kRadiusMember) {
    base_args = 5;
    shape.type = geo::Shape::Type::kCircle;
    if (!LonLatOfMember(*z, args[2], shape.xy)) {
      return ctx.reply.Error("could not decode requested zset member");
    }
    if (!ParseDistance(ctx, args[3], args[4], &shape.conversion, &shape.radius)) return;
  } else {
    base_args = 2;
    if (flags & kGeoSearchStore) {
      base_args = 3;
      storekey = args[1];
    }
  }

  bool withdist = false, withhash = false, withcoords = false;
  bool frommember = false, fromloc = false, byradius = false, bybox = false;
  Sort sort = Sort::kNone;
  bool any = false;
  int64_t count = 0;
  if (args.size() > base_args) {
    const size_t remaining = args.size() - base_args;
    for (size_t i = 0; i < remaining; ++i) {
      const std::string_view arg = args[base_args + i];
      if (OptionIs(arg, "withdist")) {
        withdist = true;
      } else if (OptionIs(arg, "withhash")) {
        withhash = true;
      } else if (OptionIs(arg, "withcoord")) {
        withcoords = true;
      } else if (OptionIs(arg, "any")) {
        any = true;
      } else if (OptionIs(arg, "asc")) {
        sort = Sort::kAsc;
      } else if (OptionIs(arg, "desc")) {
        sort = Sort::kDesc;
      } else if (OptionIs(arg, "count") && i + 1 < remaining) {
        const std::optional<int64_t> c = ParseInt64(args[base_args + i + 1]);
        if (!c) return ctx.reply.Error(errors::kNotInteger);
        if (*c <= 0) return ctx.reply.Error("COUNT must be > 0");
        count = *c;
        ++i;
      } else if (OptionIs(arg, "store") && i + 1 < remaining && !(flags & kRadiusNoStore) &&
                 !(flags & kGeoSearch)) {
        storekey = args[base_args + i + 1];
        storedist = false;
        ++i;
      } else if (OptionIs(arg, "storedist") && i + 1 < remaining && !(flags & kRadiusNoStore) &&
                 !(flags & kGeoSearch)) {
        storekey = args[base_args + i + 1];
        storedist = true;
        ++i;
      } else if (OptionIs(arg, "storedist") && (flags & kGeoSearch) && (flags & kGeoSearchStore)) {
        storedist = true;
      } else if (OptionIs(arg, "frommember") && i + 1 < remaining && (flags & kGeoSearch) &&
                 !fromloc) {
        if (z != nullptr && !LonLatOfMember(*z, args[base_args + i + 1], shape.xy)) {
          return ctx.reply.Error("could not decode requested zset member");
        }
        frommember = true;
        ++i;
      } else if (OptionIs(arg, "fromlonlat") && i + 2 < remaining && (flags & kGeoSearch) &&
                 !frommember) {
        if (!ParseLonLat(ctx, args[base_args + i + 1], args[base_args + i + 2], shape.xy)) return;
        fromloc = true;
        i += 2;
      } else if (OptionIs(arg, "byradius") && i + 2 < remaining && (flags & kGeoSearch) && !bybox) {
        if (!ParseDistance(ctx, args[base_args + i + 1], args[base_args + i + 2], &shape.conversion,
                           &shape.radius)) {
          return;
        }
        shape.type = geo::Shape::Type::kCircle;
        byradius = true;
        i += 2;
      } else if (OptionIs(arg, "bybox") && i + 3 < remaining && (flags & kGeoSearch) && !byradius) {
        if (!ParseBox(ctx, args.subspan(base_args + i + 1, 3), &shape.conversion, &shape.width,
                      &shape.height)) {
          return;
        }
        shape.type = geo::Shape::Type::kBox;
        bybox = true;
        i += 3;
      } else {
        return ctx.reply.Error(errors::kSyntax);
      }
    }
  }

  if (!storekey.empty() && (withdist || withhash || withcoords)) {
    return ctx.reply.Error(
        std::string(flags & kGeoSearchStore ? "GEOSEARCHSTORE" : "STORE option in GEORADIUS") +
        " is not compatible with WITHDIST, WITHHASH and WITHCOORD options");
  }
  if ((flags & kGeoSearch) && !(frommember || fromloc)) {
    return ctx.reply.Error("exactly one of FROMMEMBER or FROMLONLAT can be specified for " +
                           std::string(CStringPrefix(args[0])));
  }
  if ((flags & kGeoSearch) && !(byradius || bybox)) {
    return ctx.reply.Error("exactly one of BYRADIUS and BYBOX can be specified for " +
                           std::string(CStringPrefix(args[0])));
  }
  if (any && count == 0) return ctx.reply.Error("the ANY argument requires COUNT argument");

  const bool store = !storekey.empty();
  if (z == nullptr) {
    if (store) {
      DeleteStoreDestination(ctx, storekey);
      return ctx.reply.Integer(0);
    }
    return ctx.reply.ArrayHeader(0);
  }

  // COUNT without an order: the closest ones (not for ANY).
  if (count != 0 && sort == Sort::kNone && !any) sort = Sort::kAsc;

  const geo::SearchAreas areas = geo::CalculateAreasByShape(&shape);
  std::vector<GeoPoint> points;
  MembersOfAllNeighbors(*z, areas, shape, &points, any ? static_cast<uint64_t>(count) : 0);
  if (points.empty() && !store) return ctx.reply.ArrayHeader(0);

  const size_t result_length = points.size();
  const size_t returned = (count == 0 || result_length < static_cast<uint64_t>(count))
                              ? result_length
                              : static_cast<size_t>(count);
  if (sort != Sort::kNone) {
    const bool desc = sort == Sort::kDesc;
    if (returned == result_length) {
      // glibc's qsort of these is a stable merge sort.
      std::stable_sort(points.begin(), points.end(), [&](const GeoPoint& a, const GeoPoint& b) {
        return CompareByDistance(a, b, desc) < 0;
      });
    } else {
      // Redis sorts only the results it returns (pqsort).
      auto cmp = [desc](const GeoPoint& a, const GeoPoint& b) {
        return CompareByDistance(a, b, desc);
      };
      PartialSorter<GeoPoint, decltype(cmp)>(points, cmp).Sort(0, returned - 1);
    }
  }

  if (!store) {
    const size_t options = withdist + withcoords + withhash;
    ctx.reply.ArrayHeader(returned);
    for (size_t i = 0; i < returned; ++i) {
      GeoPoint& gp = points[i];
      gp.dist /= shape.conversion;
      if (options != 0) ctx.reply.ArrayHeader(options + 1);
      ctx.reply.Bulk(gp.member);
      if (withdist) ReplyDistance(ctx, gp.dist);
      if (withhash) ctx.reply.Integer(static_cast<int64_t>(gp.score));
      if (withcoords) {
        ctx.reply.ArrayHeader(2);
        ReplyHumanDouble(ctx, gp.longitude);
        ReplyHumanDouble(ctx, gp.latitude);
      }
    }
    return;
  }
  if (returned == 0) {
    DeleteStoreDestination(ctx, storekey);
    return ctx.reply.Integer(0);
  }
  auto dst = std::make_unique<ZSet>(true);
  size_t maxelelen = 0, totelelen = 0;
  for (size_t i = 0; i < returned; ++i) {
    GeoPoint& gp = points[i];
    gp.dist /= shape.conversion;
    maxelelen = std::max(maxelelen, gp.member.size());
    totelelen += gp.member.size();
    dst->AddNew(storedist ? gp.dist : gp.score, gp.member);
  }
  dst->ConvertToListPackIfNeeded(maxelelen, totelelen, ZSetLimits(ctx));
  StoreZSet(ctx, storekey, std::move(dst));
  ctx.Notify(kNotifyZset, (flags & kGeoSearch) ? "geosearchstore" : "georadiusstore", storekey);
  ctx.CountChanges(returned);
  ctx.reply.Integer(static_cast<int64_t>(returned));
}

void GeoRadius(CommandContext& ctx) { RadiusGeneric(ctx, 1, kRadiusCoords); }
void GeoRadiusByMember(CommandContext& ctx) { RadiusGeneric(ctx, 1, kRadiusMember); }
void GeoRadiusRo(CommandContext& ctx) { RadiusGeneric(ctx, 1, kRadiusCoords | kRadiusNoStore); }
void GeoRadiusByMemberRo(CommandContext& ctx) {
  RadiusGeneric(ctx, 1, kRadiusMember | kRadiusNoStore);
}
void GeoSearch(CommandContext& ctx) { RadiusGeneric(ctx, 1, kGeoSearch); }
void GeoSearchStore(CommandContext& ctx) { RadiusGeneric(ctx, 2, kGeoSearch | kGeoSearchStore); }

// ---- GEOHASH, GEOPOS, GEODIST ----

// GEOHASH key member ...: 11 characters of the standard geohash (latitude -90..90), re-encoded
// from the position Redis's own -85..85 hash decodes to.
void GeoHash(CommandContext& ctx) {
  static constexpr char kAlphabet[] = "0123456789bcdefghjkmnpqrstuvwxyz";
  ZSet* z = nullptr;
  if (!ReadAggregate<ZSet>(ctx, ctx.args[1], &z)) return;
  ctx.reply.ArrayHeader(ctx.args.size() - 2);
  for (size_t j = 2; j < ctx.args.size(); ++j) {
    double score;
    double xy[2];
    if (z == nullptr || !z->Score(ctx.args[j], &score) || !geo::DecodeScore(score, xy)) {
      ctx.reply.Null();
      continue;
    }
    geo::HashBits hash;
    geo::Encode({-180, 180}, {-90, 90}, xy[0], xy[1], 26, &hash);
    char buf[11];
    for (int i = 0; i < 11; ++i) {
      // 52 bits make ten characters; the eleventh is 0, as Redis's.
      const int idx = i == 10 ? 0 : static_cast<int>((hash.bits >> (52 - ((i + 1) * 5))) & 0x1f);
      buf[i] = kAlphabet[idx];
    }
    ctx.reply.Bulk(std::string_view(buf, 11));
  }
}

void GeoPos(CommandContext& ctx) {
  ZSet* z = nullptr;
  if (!ReadAggregate<ZSet>(ctx, ctx.args[1], &z)) return;
  ctx.reply.ArrayHeader(ctx.args.size() - 2);
  for (size_t j = 2; j < ctx.args.size(); ++j) {
    double score;
    double xy[2];
    if (z == nullptr || !z->Score(ctx.args[j], &score) || !geo::DecodeScore(score, xy)) {
      ctx.reply.NullArray();
      continue;
    }
    ctx.reply.ArrayHeader(2);
    ReplyHumanDouble(ctx, xy[0]);
    ReplyHumanDouble(ctx, xy[1]);
  }
}

// GEODIST key member1 member2 [unit]
void GeoDist(CommandContext& ctx) {
  double to_meter = 1;
  if (ctx.args.size() == 5) {
    to_meter = ParseUnit(ctx, ctx.args[4]);
    if (to_meter < 0) return;
  } else if (ctx.args.size() > 5) {
    return ctx.reply.Error(errors::kSyntax);
  }
  ZSet* z = nullptr;
  if (!ReadAggregate<ZSet>(ctx, ctx.args[1], &z)) return;
  double score1, score2, xyxy[4];
  if (z == nullptr || !z->Score(ctx.args[2], &score1) || !z->Score(ctx.args[3], &score2)) {
    return ctx.reply.Null();
  }
  if (!geo::DecodeScore(score1, xyxy) || !geo::DecodeScore(score2, xyxy + 2)) {
    return ctx.reply.Null();
  }
  ReplyDistance(ctx, geo::Distance(xyxy[0], xyxy[1], xyxy[2], xyxy[3]) / to_meter);
}

}  // namespace

void RegisterGeoFamily(CommandRegistry& r) {
  r.Register(
      {"geoadd", -5, kCmdWrite | kCmdDenyOom, 1, 1, 1, GeoAdd, "geo",
       "Add one or more geospatial items in the geospatial index represented using a sorted set",
       "3.2.0", "@write @geo @slow"});
  r.Register({"geodist", -4, kCmdReadOnly, 1, 1, 1, GeoDist, "geo",
              "Returns the distance between two members of a geospatial index", "3.2.0",
              "@read @geo @slow"});
  r.Register({"geohash", -2, kCmdReadOnly, 1, 1, 1, GeoHash, "geo",
              "Returns members of a geospatial index as standard geohash strings", "3.2.0",
              "@read @geo @slow"});
  r.Register({"geopos", -2, kCmdReadOnly, 1, 1, 1, GeoPos, "geo",
              "Returns longitude and latitude of members of a geospatial index", "3.2.0",
              "@read @geo @slow"});
  r.Register({"georadius", -6, kCmdWrite | kCmdDenyOom | kCmdMovableKeys, 1, 1, 1, GeoRadius, "geo",
              "Query a sorted set representing a geospatial index to fetch members matching a "
              "given maximum distance from a point",
              "3.2.0", "@write @geo @slow"});
  r.Register({"georadius_ro", -6, kCmdReadOnly, 1, 1, 1, GeoRadiusRo, "geo",
              "A read-only variant for GEORADIUS", "3.2.10", "@read @geo @slow"});
  r.Register({"georadiusbymember", -5, kCmdWrite | kCmdDenyOom | kCmdMovableKeys, 1, 1, 1,
              GeoRadiusByMember, "geo",
              "Query a sorted set representing a geospatial index to fetch members matching a "
              "given maximum distance from a member",
              "3.2.0", "@write @geo @slow"});
  r.Register({"georadiusbymember_ro", -5, kCmdReadOnly, 1, 1, 1, GeoRadiusByMemberRo, "geo",
              "A read-only variant for GEORADIUSBYMEMBER", "3.2.10", "@read @geo @slow"});
  r.Register({"geosearch", -7, kCmdReadOnly, 1, 1, 1, GeoSearch, "geo",
              "Query a sorted set representing a geospatial index to fetch members inside an area "
              "of a box or a circle.",
              "6.2.0", "@read @geo @slow"});
  r.Register({"geosearchstore", -8, kCmdWrite | kCmdDenyOom, 1, 2, 1, GeoSearchStore, "geo",
              "Query a sorted set representing a geospatial index to fetch members inside an area "
              "of a box or a circle, and store the result in another key.",
              "6.2.0", "@write @geo @slow"});
}

}  // namespace kv
