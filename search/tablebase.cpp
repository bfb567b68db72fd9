// Tablebase::open and Tablebase::defaultPath (see search/tablebase.h).
#include "search/tablebase.h"

#include <cstdlib>
#include <map>
#include <mutex>

#include "absl/strings/str_cat.h"
#include "search/tablebase_file.h"

namespace gobblet {

std::string Tablebase::defaultPath(const Variant& variant) {
  std::string dir;
  if (const char* env = std::getenv("GOBBLET_TB_DIR"); env && *env) {
    dir = env;
  } else if (const char* xdg = std::getenv("XDG_DATA_HOME"); xdg && *xdg) {
    dir = absl::StrCat(xdg, "/gobblet");
  } else if (const char* home = std::getenv("HOME"); home && *home) {
    dir = absl::StrCat(home, "/.local/share/gobblet");
  } else {
    dir = ".";
  }
  // "3x3:2,2,1" -> "3x3-2-2-1": no ':' or ',' in file names.
  std::string name = variant.name();
  for (char& c : name)
    if (c == ':' || c == ',') c = '-';
  return absl::StrCat(dir, "/", name, ".gtb");
}

// Every session of a process shares one mapping per file: open() hands out
// the live one if there is one.
absl::StatusOr<std::shared_ptr<const Tablebase>> Tablebase::open(const std::string& path) {
  static std::mutex mutex;
  static std::map<std::string, std::weak_ptr<const Tablebase>> live;
  std::lock_guard<std::mutex> lock(mutex);
  if (auto it = live.find(path); it != live.end())
    if (auto tb = it->second.lock()) return tb;
  auto file = TablebaseFile::open(path);
  if (!file.ok()) return file.status();
  std::shared_ptr<const Tablebase> tb = *std::move(file);
  live[path] = tb;
  return tb;
}

}  // namespace gobblet
