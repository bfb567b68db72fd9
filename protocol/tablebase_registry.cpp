#include "protocol/tablebase_registry.h"

#include <filesystem>
#include <map>
#include <mutex>

namespace gobblet {

absl::StatusOr<std::shared_ptr<const Tablebase>> openSharedTablebase(const std::string& path) {
  static std::mutex mutex;
  static std::map<std::string, std::shared_ptr<const Tablebase>> opened;

  std::error_code ec;
  std::string key = std::filesystem::absolute(path, ec).lexically_normal().string();
  if (ec) key = path;
  // Opening under the lock: two sessions asking at once must not map twice.
  std::lock_guard lock(mutex);
  if (auto it = opened.find(key); it != opened.end()) return it->second;
  auto tablebase = Tablebase::open(path);
  if (!tablebase.ok()) return tablebase.status();
  opened.emplace(key, *tablebase);
  return *tablebase;
}

}  // namespace gobblet
