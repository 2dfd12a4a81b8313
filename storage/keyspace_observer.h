#pragma once

#include <cstddef>
#include <string_view>

namespace kv {

// What a database reports about changes it makes on its own, outside any command's control: keys
// deleted because their deadline passed (lazy expiry inside a lookup, or active expiry), and, while
// asked to, every key it adds. The server implements it (keyspace notifications, WATCH, client
// tracking); storage only calls it, knowing nothing of what listens.
class KeyspaceObserver {
 public:
  virtual ~KeyspaceObserver() = default;
  // `key` of database `db` expired and has just been deleted.
  virtual void KeyExpired(size_t db, std::string_view key) = 0;
  // `key` was added to database `db` (it did not exist; overwrites are not additions). Called
  // only while the database reports additions (Db::ReportAdditions), before the value is set.
  virtual void KeyAdded(size_t db, std::string_view key) = 0;
};

}  // namespace kv
