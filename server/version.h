#pragma once

namespace kv {

// The Redis version whose behaviour kvserver reproduces; clients and exporters read it from
// INFO's redis_version.
inline constexpr char kRedisCompatVersion[] = "7.0.15";
inline constexpr char kKvserverVersion[] = "0.1.0";
inline constexpr char kBuildId[] = "6b7673657276657200000001";

}  // namespace kv
