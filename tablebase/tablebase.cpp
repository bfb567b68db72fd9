// open and defaultPath (see tablebase/tablebase.h).
#include "tablebase/tablebase.h"

#include <sys/stat.h>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <mutex>

#include "absl/strings/str_cat.h"
#include "file.h"

namespace gobblet::tb {

std::string defaultPath(const Variant& variant) {
  // (Built by returning, not by assigning a literal: GCC 12 at -O3 warned of
  // an overlapping memcpy in `dir = "."`, a false -Wrestrict.)
  const std::string dir = []() -> std::string {
    if (const char* env = std::getenv("GOBBLET_TB_DIR"); env && *env) return env;
    if (const char* xdg = std::getenv("XDG_DATA_HOME"); xdg && *xdg) return absl::StrCat(xdg, "/gobblet");
    if (const char* home = std::getenv("HOME"); home && *home) return absl::StrCat(home, "/.local/share/gobblet");
    return ".";
  }();
  // "3x3:2,2,1" -> "3x3-2-2-1": no ':' or ',' in file names.
  std::string name = variant.name();
  for (char& c : name)
    if (c == ':' || c == ',') c = '-';
  return absl::StrCat(dir, "/", name, ".gtb");
}

namespace {

// The one cache of open files: one loaded copy per path (made absolute) for
// the life of the process, so that sessions that come and go do not load a
// file again. An entry is used only while the path still names the file it
// was loaded from (same device, inode, size and modification time): a file
// rebuilt since (a new file renamed over the old) is loaded afresh.
struct OpenFile {
  std::shared_ptr<const Tablebase> tablebase;
  dev_t device = 0;
  ino_t inode = 0;
  off_t size = 0;
  struct timespec modified = {};
};

bool sameFile(const OpenFile& f, const struct stat& st) {
  return f.device == st.st_dev && f.inode == st.st_ino && f.size == st.st_size &&
         f.modified.tv_sec == st.st_mtim.tv_sec && f.modified.tv_nsec == st.st_mtim.tv_nsec;
}

}  // namespace

absl::StatusOr<std::shared_ptr<const Tablebase>> open(const std::string& path) {
  static std::mutex mutex;
  static std::map<std::string, OpenFile> opened;

  std::error_code ec;
  std::string key = std::filesystem::absolute(path, ec).lexically_normal().string();
  if (ec) key = path;
  // Loading under the lock: two sessions asking at once must not load twice.
  std::lock_guard<std::mutex> lock(mutex);
  struct stat before;
  const bool statted = ::stat(path.c_str(), &before) == 0;  // stat never blocks, even on a FIFO
  if (auto it = opened.find(key); it != opened.end()) {
    if (statted && sameFile(it->second, before)) return it->second.tablebase;
    opened.erase(it);
  }
  auto file = File::open(path);
  if (!file.ok()) return file.status();
  OpenFile entry;
  entry.tablebase = *std::move(file);
  if (statted) {
    entry.device = before.st_dev;
    entry.inode = before.st_ino;
    entry.size = before.st_size;
    entry.modified = before.st_mtim;
  }
  opened[key] = entry;
  return entry.tablebase;
}

}  // namespace gobblet::tb
