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

// What names "the same file" on disk: device, inode, size and modification
// time. A file rebuilt since (a new file renamed over the old: a new inode)
// or rewritten in place (a new modification time, mostly a new size) is
// another file. (A rewrite in place to the same size within one tick of the
// file system's clock would keep the identity; no writer of ours does that:
// gobblet-tb writes a new file and renames it.)
struct FileIdentity {
  dev_t device = 0;
  ino_t inode = 0;
  off_t size = 0;
  struct timespec modified = {};

  static FileIdentity of(const struct stat& st) { return {st.st_dev, st.st_ino, st.st_size, st.st_mtim}; }
  bool operator==(const FileIdentity& o) const {
    return device == o.device && inode == o.inode && size == o.size && modified.tv_sec == o.modified.tv_sec &&
           modified.tv_nsec == o.modified.tv_nsec;
  }
};

// An entry of the one cache of open files (in open()): per path (made
// absolute), for the life of the process, what opening it gave and for
// which file: the loaded copy, or the refusal of a broken file. Sessions
// that come and go then neither load a good file again nor read, copy and
// checksum a broken one again (84 MB and ~90 ms for a gobblers-size file,
// under the lock). An entry is used only while the path still names the
// file it was made from (FileIdentity): a file rebuilt or repaired since is
// read afresh.
struct OpenFile {
  FileIdentity identity;
  std::shared_ptr<const Tablebase> tablebase;  // null if refused
  absl::Status failure;                        // why it was refused
};

// A refusal that only a change of the file can undo (its bytes or its kind
// are wrong, File::open's InvalidArgument and DataLoss); not one of the
// process's (memory, a zstd context: ResourceExhausted) or of access
// (Unavailable, NotFound), which may pass with the file unchanged.
bool refusalOfTheFile(const absl::Status& status) {
  return absl::IsInvalidArgument(status) || absl::IsDataLoss(status);
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
    if (statted && it->second.identity == FileIdentity::of(before)) {
      if (it->second.tablebase) return it->second.tablebase;
      return it->second.failure;
    }
    opened.erase(it);
  }
  auto file = File::open(path);
  if (!file.ok() && !(statted && refusalOfTheFile(file.status()))) return file.status();
  // (Not statted but loaded: the path appeared meanwhile; the entry's empty
  // identity matches no file, so the next open loads it again.)
  OpenFile entry;
  if (statted) entry.identity = FileIdentity::of(before);
  if (file.ok())
    entry.tablebase = *std::move(file);
  else
    entry.failure = file.status();
  opened[key] = entry;
  if (entry.tablebase) return entry.tablebase;
  return entry.failure;
}

}  // namespace gobblet::tb
