#include "storage/geohash.h"

#include <cmath>

namespace kv::geo {
namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr double kDegToRad = kPi / 180.0;  // Redis's D_R

inline double DegRad(double ang) { return ang * kDegToRad; }
inline double RadDeg(double ang) { return ang / kDegToRad; }

// Spreads the 32 bits of x over the even bits and those of y over the odd bits.
uint64_t Interleave64(uint32_t xlo, uint32_t ylo) {
  static constexpr uint64_t B[] = {0x5555555555555555ULL, 0x3333333333333333ULL,
                                   0x0F0F0F0F0F0F0F0FULL, 0x00FF00FF00FF00FFULL,
                                   0x0000FFFF0000FFFFULL};
  static constexpr unsigned S[] = {1, 2, 4, 8, 16};
  uint64_t x = xlo;
  uint64_t y = ylo;
  for (int i = 4; i >= 0; --i) {
    x = (x | (x << S[i])) & B[i];
    y = (y | (y << S[i])) & B[i];
  }
  return x | (y << 1);
}

// The inverse: the even bits in the low half, the odd bits in the high half.
uint64_t Deinterleave64(uint64_t interleaved) {
  static constexpr uint64_t B[] = {0x5555555555555555ULL, 0x3333333333333333ULL,
                                   0x0F0F0F0F0F0F0F0FULL, 0x00FF00FF00FF00FFULL,
                                   0x0000FFFF0000FFFFULL, 0x00000000FFFFFFFFULL};
  static constexpr unsigned S[] = {0, 1, 2, 4, 8, 16};
  uint64_t x = interleaved;
  uint64_t y = interleaved >> 1;
  for (int i = 0; i < 6; ++i) {
    x = (x | (x >> S[i])) & B[i];
    y = (y | (y >> S[i])) & B[i];
  }
  return x | (y << 32);
}

void MoveX(HashBits* hash, int d) {
  if (d == 0) return;
  uint64_t x = hash->bits & 0xaaaaaaaaaaaaaaaaULL;
  const uint64_t y = hash->bits & 0x5555555555555555ULL;
  const uint64_t zz = 0x5555555555555555ULL >> (64 - hash->step * 2);
  if (d > 0) {
    x = x + (zz + 1);
  } else {
    x = x | zz;
    x = x - (zz + 1);
  }
  x &= (0xaaaaaaaaaaaaaaaaULL >> (64 - hash->step * 2));
  hash->bits = x | y;
}

void MoveY(HashBits* hash, int d) {
  if (d == 0) return;
  const uint64_t x = hash->bits & 0xaaaaaaaaaaaaaaaaULL;
  uint64_t y = hash->bits & 0x5555555555555555ULL;
  const uint64_t zz = 0xaaaaaaaaaaaaaaaaULL >> (64 - hash->step * 2);
  if (d > 0) {
    y = y + (zz + 1);
  } else {
    y = y | zz;
    y = y - (zz + 1);
  }
  y &= (0x5555555555555555ULL >> (64 - hash->step * 2));
  hash->bits = x | y;
}

bool RangeIsZero(const Range& r) { return r.max == 0 && r.min == 0; }

}  // namespace

Range LongitudeRange() { return {kLonMin, kLonMax}; }
Range LatitudeRange() { return {kLatMin, kLatMax}; }

bool Encode(const Range& lon_range, const Range& lat_range, double longitude, double latitude,
            uint8_t step, HashBits* hash) {
  if (step > 32 || step == 0 || RangeIsZero(lat_range) || RangeIsZero(lon_range)) return false;
  if (longitude > kLonMax || longitude < kLonMin || latitude > kLatMax || latitude < kLatMin) {
    return false;
  }
  hash->bits = 0;
  hash->step = step;
  if (latitude < lat_range.min || latitude > lat_range.max || longitude < lon_range.min ||
      longitude > lon_range.max) {
    return false;
  }
  double lat_offset = (latitude - lat_range.min) / (lat_range.max - lat_range.min);
  double long_offset = (longitude - lon_range.min) / (lon_range.max - lon_range.min);
  lat_offset *= static_cast<double>(1ULL << step);
  long_offset *= static_cast<double>(1ULL << step);
  hash->bits = Interleave64(static_cast<uint32_t>(lat_offset), static_cast<uint32_t>(long_offset));
  return true;
}

bool EncodeWgs84(double longitude, double latitude, uint8_t step, HashBits* hash) {
  return Encode(LongitudeRange(), LatitudeRange(), longitude, latitude, step, hash);
}

bool Decode(const Range& lon_range, const Range& lat_range, HashBits hash, Area* area) {
  if (hash.zero() || RangeIsZero(lat_range) || RangeIsZero(lon_range)) return false;
  area->hash = hash;
  const uint8_t step = hash.step;
  const uint64_t hash_sep = Deinterleave64(hash.bits);  // [lat][long]
  const double lat_scale = lat_range.max - lat_range.min;
  const double long_scale = lon_range.max - lon_range.min;
  const auto ilato = static_cast<uint32_t>(hash_sep);
  const auto ilono = static_cast<uint32_t>(hash_sep >> 32);
  const double cells = static_cast<double>(1ULL << step);
  area->latitude.min = lat_range.min + (ilato * 1.0 / cells) * lat_scale;
  area->latitude.max = lat_range.min + ((ilato + 1) * 1.0 / cells) * lat_scale;
  area->longitude.min = lon_range.min + (ilono * 1.0 / cells) * long_scale;
  area->longitude.max = lon_range.min + ((ilono + 1) * 1.0 / cells) * long_scale;
  return true;
}

bool DecodeToLonLat(HashBits hash, double* xy) {
  Area area;
  if (!Decode(LongitudeRange(), LatitudeRange(), hash, &area)) return false;
  xy[0] = (area.longitude.min + area.longitude.max) / 2;
  if (xy[0] > kLonMax) xy[0] = kLonMax;
  if (xy[0] < kLonMin) xy[0] = kLonMin;
  xy[1] = (area.latitude.min + area.latitude.max) / 2;
  if (xy[1] > kLatMax) xy[1] = kLatMax;
  if (xy[1] < kLatMin) xy[1] = kLatMin;
  return true;
}

uint64_t ScoreBits(double score) {
  // GCC's double to uint64_t on x86-64: values from 2^63 (and +inf) are reduced by 2^63 and
  // get the top bit back; the rest, NaN and -inf included, go through the signed conversion,
  // whose out-of-range answer is 2^63.
  constexpr double kTwo63 = 9223372036854775808.0;
  auto signed_convert = [](double d) -> uint64_t {
    if (!(d >= -kTwo63 && d < kTwo63)) return uint64_t{1} << 63;
    return static_cast<uint64_t>(static_cast<int64_t>(d));
  };
  if (score >= kTwo63) return signed_convert(score - kTwo63) ^ (uint64_t{1} << 63);
  return signed_convert(score);
}

bool DecodeScore(double score, double* xy) {
  return DecodeToLonLat(HashBits{ScoreBits(score), kStepMax}, xy);
}

void GetNeighbors(const HashBits& hash, Neighbors* n) {
  n->east = n->west = n->north = n->south = hash;
  n->south_east = n->south_west = n->north_east = n->north_west = hash;
  MoveX(&n->east, 1);
  MoveX(&n->west, -1);
  MoveY(&n->south, -1);
  MoveY(&n->north, 1);
  MoveX(&n->north_west, -1);
  MoveY(&n->north_west, 1);
  MoveX(&n->north_east, 1);
  MoveY(&n->north_east, 1);
  MoveX(&n->south_east, 1);
  MoveY(&n->south_east, -1);
  MoveX(&n->south_west, -1);
  MoveY(&n->south_west, -1);
}

uint64_t Align52Bits(HashBits hash) { return hash.bits << (52 - hash.step * 2); }

uint8_t EstimateStepsByRadius(double range_meters, double latitude) {
  if (range_meters == 0) return 26;
  int step = 1;
  while (range_meters < kMercatorMax) {
    range_meters *= 2;
    step++;
  }
  step -= 2;  // make sure the range is included in most of the base cases
  // Wider range towards the poles.
  if (latitude > 66 || latitude < -66) {
    step--;
    if (latitude > 80 || latitude < -80) step--;
  }
  if (step < 1) step = 1;
  if (step > 26) step = 26;
  return static_cast<uint8_t>(step);
}

void BoundingBox(Shape* shape, double* bounds) {
  const double longitude = shape->xy[0];
  const double latitude = shape->xy[1];
  const bool circle = shape->type == Shape::Type::kCircle;
  const double height = shape->conversion * (circle ? shape->radius : shape->height / 2);
  const double width = shape->conversion * (circle ? shape->radius : shape->width / 2);
  const double lat_delta = RadDeg(height / kEarthRadiusMeters);
  const double long_delta_top =
      RadDeg(width / kEarthRadiusMeters / std::cos(DegRad(latitude + lat_delta)));
  const double long_delta_bottom =
      RadDeg(width / kEarthRadiusMeters / std::cos(DegRad(latitude - lat_delta)));
  // The hemispheres are opposite: different corners are the widest.
  const bool southern = latitude < 0;
  bounds[0] = southern ? longitude - long_delta_bottom : longitude - long_delta_top;
  bounds[2] = southern ? longitude + long_delta_bottom : longitude + long_delta_top;
  bounds[1] = latitude - lat_delta;
  bounds[3] = latitude + lat_delta;
}

SearchAreas CalculateAreasByShape(Shape* shape) {
  BoundingBox(shape, shape->bounds);
  const double min_lon = shape->bounds[0];
  const double min_lat = shape->bounds[1];
  const double max_lon = shape->bounds[2];
  const double max_lat = shape->bounds[3];
  const double longitude = shape->xy[0];
  const double latitude = shape->xy[1];
  // For a box, the distance from the center to a corner.
  double radius_meters = shape->type == Shape::Type::kCircle
                             ? shape->radius
                             : std::sqrt((shape->width / 2) * (shape->width / 2) +
                                         (shape->height / 2) * (shape->height / 2));
  radius_meters *= shape->conversion;

  int steps = EstimateStepsByRadius(radius_meters, latitude);
  const Range long_range = LongitudeRange();
  const Range lat_range = LatitudeRange();
  HashBits hash;
  Neighbors neighbors;
  Area area;
  Encode(long_range, lat_range, longitude, latitude, static_cast<uint8_t>(steps), &hash);
  GetNeighbors(hash, &neighbors);
  Decode(long_range, lat_range, hash, &area);

  // Near the edge of the area the estimated step may not be small enough for the neighbours to
  // cover everything.
  bool decrease_step = false;
  {
    Area north, south, east, west;
    Decode(long_range, lat_range, neighbors.north, &north);
    Decode(long_range, lat_range, neighbors.south, &south);
    Decode(long_range, lat_range, neighbors.east, &east);
    Decode(long_range, lat_range, neighbors.west, &west);
    if (north.latitude.max < max_lat) decrease_step = true;
    if (south.latitude.min > min_lat) decrease_step = true;
    if (east.longitude.max < max_lon) decrease_step = true;
    if (west.longitude.min > min_lon) decrease_step = true;
  }
  if (steps > 1 && decrease_step) {
    steps--;
    Encode(long_range, lat_range, longitude, latitude, static_cast<uint8_t>(steps), &hash);
    GetNeighbors(hash, &neighbors);
    Decode(long_range, lat_range, hash, &area);
  }

  // Drop the boxes the search cannot reach.
  if (steps >= 2) {
    if (area.latitude.min < min_lat) {
      neighbors.south = neighbors.south_west = neighbors.south_east = HashBits{};
    }
    if (area.latitude.max > max_lat) {
      neighbors.north = neighbors.north_east = neighbors.north_west = HashBits{};
    }
    if (area.longitude.min < min_lon) {
      neighbors.west = neighbors.south_west = neighbors.north_west = HashBits{};
    }
    if (area.longitude.max > max_lon) {
      neighbors.east = neighbors.south_east = neighbors.north_east = HashBits{};
    }
  }
  return {hash, neighbors, area};
}

double LatDistance(double lat1, double lat2) {
  return kEarthRadiusMeters * std::fabs(DegRad(lat2) - DegRad(lat1));
}

double Distance(double lon1d, double lat1d, double lon2d, double lat2d) {
  const double lon1r = DegRad(lon1d);
  const double lon2r = DegRad(lon2d);
  const double v = std::sin((lon2r - lon1r) / 2);
  // Same longitudes: the latitude distance, without the expensive math.
  if (v == 0.0) return LatDistance(lat1d, lat2d);
  const double lat1r = DegRad(lat1d);
  const double lat2r = DegRad(lat2d);
  const double u = std::sin((lat2r - lat1r) / 2);
  const double a = u * u + std::cos(lat1r) * std::cos(lat2r) * v * v;
  return 2.0 * kEarthRadiusMeters * std::asin(std::sqrt(a));
}

bool DistanceIfInRadius(double x1, double y1, double x2, double y2, double radius,
                        double* distance) {
  *distance = Distance(x1, y1, x2, y2);
  return *distance <= radius;
}

bool DistanceIfInRectangle(double width_m, double height_m, double x1, double y1, double x2,
                           double y2, double* distance) {
  // The latitude distance is cheaper: checked first.
  const double lat_distance = LatDistance(y2, y1);
  if (lat_distance > height_m / 2) return false;
  const double lon_distance = Distance(x2, y2, x1, y2);
  if (lon_distance > width_m / 2) return false;
  *distance = Distance(x1, y1, x2, y2);
  return true;
}

bool WithinShape(const Shape& shape, double score, double* xy, double* distance) {
  if (!DecodeScore(score, xy)) return false;
  if (shape.type == Shape::Type::kCircle) {
    return DistanceIfInRadius(shape.xy[0], shape.xy[1], xy[0], xy[1],
                              shape.radius * shape.conversion, distance);
  }
  return DistanceIfInRectangle(shape.width * shape.conversion, shape.height * shape.conversion,
                               shape.xy[0], shape.xy[1], xy[0], xy[1], distance);
}

}  // namespace kv::geo
