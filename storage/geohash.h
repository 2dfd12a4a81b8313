#pragma once

#include <cstdint>

namespace kv::geo {

// The geohash arithmetic of Redis's geo commands (geohash.c and geohash_helper.c): 26 steps of
// longitude and latitude interleaved into the 52-bit integer a sorted set member's score holds,
// the boxes around a point that a radius or box search scans, and the haversine distance on
// Redis's Earth. Every expression is evaluated in Redis's order, so coordinates and distances
// match it to the last digit.

constexpr int kStepMax = 26;  // 26 * 2 = 52 bits
constexpr double kLatMin = -85.05112878;
constexpr double kLatMax = 85.05112878;
constexpr double kLonMin = -180;
constexpr double kLonMax = 180;
constexpr double kEarthRadiusMeters = 6372797.560856;
constexpr double kMercatorMax = 20037726.37;

struct HashBits {
  uint64_t bits = 0;
  uint8_t step = 0;
  bool zero() const { return bits == 0 && step == 0; }
};

struct Range {
  double min = 0;
  double max = 0;
};

struct Area {
  HashBits hash;
  Range longitude;
  Range latitude;
};

struct Neighbors {
  HashBits north, east, west, south, north_east, south_east, north_west, south_west;
};

// A search: around xy (longitude, latitude) within a radius, or a box of width by height, in
// units of `conversion` meters.
struct Shape {
  enum class Type { kCircle, kBox };
  Type type = Type::kCircle;
  double xy[2] = {0, 0};
  double conversion = 0;
  double bounds[4] = {0, 0, 0, 0};  // min longitude, min latitude, max longitude, max latitude
  double radius = 0;
  double width = 0;
  double height = 0;
};

// The boxes to scan: the center one and its eight neighbours (zero where useless).
struct SearchAreas {
  HashBits hash;
  Neighbors neighbors;
  Area area;
};

// WGS84 limits: longitude -180..180, latitude -85.05112878..85.05112878.
Range LongitudeRange();
Range LatitudeRange();

// geohashEncode: false out of the WGS84 limits or the given ranges.
bool Encode(const Range& lon_range, const Range& lat_range, double longitude, double latitude,
            uint8_t step, HashBits* hash);
bool EncodeWgs84(double longitude, double latitude, uint8_t step, HashBits* hash);
bool Decode(const Range& lon_range, const Range& lat_range, HashBits hash, Area* area);
// The center of a 52-bit hash's cell, clamped to the WGS84 limits (geohashDecodeToLongLatWGS84).
bool DecodeToLonLat(HashBits hash, double* xy);
// A sorted set score as the geo commands read it: its 52 bits at step 26 (decodeGeohash), the
// double converted to an unsigned integer as x86-64 code compiled by GCC does.
bool DecodeScore(double score, double* xy);
uint64_t ScoreBits(double score);

void GetNeighbors(const HashBits& hash, Neighbors* neighbors);
uint64_t Align52Bits(HashBits hash);

uint8_t EstimateStepsByRadius(double range_meters, double latitude);
void BoundingBox(Shape* shape, double* bounds);
// geohashCalculateAreasByShapeWGS84 (also fills shape->bounds).
SearchAreas CalculateAreasByShape(Shape* shape);

double LatDistance(double lat1, double lat2);
double Distance(double lon1, double lat1, double lon2, double lat2);
bool DistanceIfInRadius(double x1, double y1, double x2, double y2, double radius,
                        double* distance);
bool DistanceIfInRectangle(double width_m, double height_m, double x1, double y1, double x2,
                           double y2, double* distance);
// geoWithinShape: decodes `score` into xy and tells whether it is inside `shape`, with its
// distance from the shape's center.
bool WithinShape(const Shape& shape, double score, double* xy, double* distance);

}  // namespace kv::geo
