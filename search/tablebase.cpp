// Tablebase::open and Tablebase::defaultPath (see search/tablebase.h).
#include "search/tablebase.h"

#include <cstdlib>
#include <sys/stat.h>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

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

absl::StatusOr<std::shared_ptr<const Tablebase>> Tablebase::open(const std::string& path) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0)
    return absl::NotFoundError(absl::StrCat("tablebase file '", path, "' does not exist"));
  return absl::UnimplementedError(absl::StrCat("tablebase file '", path, "': reader not implemented yet"));
}

}  // namespace gobblet
