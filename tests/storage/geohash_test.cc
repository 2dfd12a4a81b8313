#include "storage/geohash.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

namespace kv::geo {
namespace {

// Values from Redis's documentation and its geo tests (unit/geo.tcl).
TEST(GeohashTest, EncodesAsRedis) {
  HashBits hash;
  ASSERT_TRUE(EncodeWgs84(13.361389, 38.115556, kStepMax, &hash));
  EXPECT_EQ(Align52Bits(hash), 3479099956230698u);  // Palermo's score in GEOADD's docs
  ASSERT_TRUE(EncodeWgs84(15.087269, 37.502669, kStepMax, &hash));
  EXPECT_EQ(Align52Bits(hash), 3479447370796909u);  // Catania
  EXPECT_FALSE(EncodeWgs84(181, 0, kStepMax, &hash));
  EXPECT_FALSE(EncodeWgs84(0, 85.06, kStepMax, &hash));
  EXPECT_TRUE(EncodeWgs84(-180, -85.05112878, kStepMax, &hash));
  EXPECT_EQ(hash.bits, 0u);
}

TEST(GeohashTest, DecodesToTheCellCenter) {
  double xy[2];
  ASSERT_TRUE(DecodeScore(3479099956230698.0, xy));
  // GEOPOS Sicily Palermo: 13.36138933897018433 38.11555639549629859
  EXPECT_DOUBLE_EQ(xy[0], 13.361389338970184);
  EXPECT_DOUBLE_EQ(xy[1], 38.115556395496299);
  // Every point decodes within half a cell of where it was encoded, and re-encodes the same.
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> lon(-180, 180), lat(kLatMin, kLatMax);
  for (int i = 0; i < 10000; ++i) {
    const double x = lon(rng), y = lat(rng);
    HashBits hash;
    ASSERT_TRUE(EncodeWgs84(x, y, kStepMax, &hash));
    const uint64_t bits = Align52Bits(hash);
    ASSERT_TRUE(DecodeScore(static_cast<double>(bits), xy));
    EXPECT_NEAR(xy[0], x, 360.0 / (1 << 26));
    EXPECT_NEAR(xy[1], y, 170.2 / (1 << 26));
    HashBits again;
    ASSERT_TRUE(EncodeWgs84(xy[0], xy[1], kStepMax, &again));
    EXPECT_EQ(again.bits, hash.bits);
  }
}

TEST(GeohashTest, ScoreBitsFollowGccConversion) {
  EXPECT_EQ(ScoreBits(5.0), 5u);
  EXPECT_EQ(ScoreBits(-1.0), UINT64_MAX);
  EXPECT_EQ(ScoreBits(INFINITY), 0u);
  EXPECT_EQ(ScoreBits(-INFINITY), uint64_t{1} << 63);
  EXPECT_EQ(ScoreBits(1e19), static_cast<uint64_t>(1e19));
  double xy[2];
  EXPECT_TRUE(DecodeScore(-1.0, xy));  // clamped to the limits, as Redis's
  EXPECT_EQ(xy[0], kLonMax);
}

TEST(GeohashTest, NeighborsSurroundTheCell) {
  HashBits hash;
  ASSERT_TRUE(EncodeWgs84(13.361389, 38.115556, 10, &hash));
  Neighbors n;
  GetNeighbors(hash, &n);
  Area center, east, north, south_west;
  ASSERT_TRUE(Decode(LongitudeRange(), LatitudeRange(), hash, &center));
  ASSERT_TRUE(Decode(LongitudeRange(), LatitudeRange(), n.east, &east));
  ASSERT_TRUE(Decode(LongitudeRange(), LatitudeRange(), n.north, &north));
  ASSERT_TRUE(Decode(LongitudeRange(), LatitudeRange(), n.south_west, &south_west));
  EXPECT_DOUBLE_EQ(east.longitude.min, center.longitude.max);
  EXPECT_DOUBLE_EQ(east.latitude.min, center.latitude.min);
  EXPECT_DOUBLE_EQ(north.latitude.min, center.latitude.max);
  EXPECT_DOUBLE_EQ(south_west.longitude.max, center.longitude.min);
  EXPECT_DOUBLE_EQ(south_west.latitude.max, center.latitude.min);
}

TEST(GeohashTest, DistancesAsRedis) {
  // GEODIST Sicily Palermo Catania: 166274.1516 (m), from the decoded positions.
  double p[2], c[2];
  ASSERT_TRUE(DecodeScore(3479099956230698.0, p));
  ASSERT_TRUE(DecodeScore(3479447370796909.0, c));
  EXPECT_EQ(std::llrint(Distance(p[0], p[1], c[0], c[1]) * 10000), 1662741516);
  EXPECT_EQ(Distance(10, 20, 10, 25), LatDistance(20, 25));
  double d;
  EXPECT_TRUE(DistanceIfInRadius(0, 0, 0, 1, 111227, &d));
  EXPECT_FALSE(DistanceIfInRadius(0, 0, 0, 1, 111226, &d));
  EXPECT_TRUE(DistanceIfInRectangle(1000, 300000, 0, 0, 0, 1, &d));
  EXPECT_FALSE(DistanceIfInRectangle(1000, 200000, 0, 0, 0, 1, &d));
}

TEST(GeohashTest, SearchAreasCoverTheShape) {
  EXPECT_EQ(EstimateStepsByRadius(0, 0), 26);
  EXPECT_EQ(EstimateStepsByRadius(1000, 0), 14);
  EXPECT_EQ(EstimateStepsByRadius(1000, 70), 13);
  EXPECT_EQ(EstimateStepsByRadius(1000, 85), 12);
  EXPECT_EQ(EstimateStepsByRadius(1e8, 0), 1);
  Shape shape;
  shape.xy[0] = 15;
  shape.xy[1] = 37;
  shape.radius = 200;
  shape.conversion = 1000;
  const SearchAreas areas = CalculateAreasByShape(&shape);
  EXPECT_LT(shape.bounds[0], 15);
  EXPECT_GT(shape.bounds[2], 15);
  EXPECT_NEAR(shape.bounds[3] - 37, 200000 / kEarthRadiusMeters * 180 / M_PI, 1e-9);
  EXPECT_FALSE(areas.hash.zero());
  // The center box and the non-zero neighbours cover the bounding box.
  EXPECT_LE(areas.area.longitude.min, 15);
  EXPECT_GE(areas.area.longitude.max, 15);
}

}  // namespace
}  // namespace kv::geo
