#include "server/process_memory.h"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <cstdlib>  // defines __GLIBC__ where the C library is glibc
#include <fstream>
#include <limits>
#include <sstream>
#include <vector>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace gobblet {

namespace {

std::string_view trimmed(std::string_view text) {
  const size_t begin = text.find_first_not_of(" \t\r\n");
  if (begin == std::string_view::npos) return {};
  return text.substr(begin, text.find_last_not_of(" \t\r\n") + 1 - begin);
}

std::vector<std::string_view> split(std::string_view text, char separator) {
  std::vector<std::string_view> parts;
  for (size_t start = 0;;) {
    const size_t end = text.find(separator, start);
    parts.push_back(text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start));
    if (end == std::string_view::npos) return parts;
    start = end + 1;
  }
}

bool hasItem(std::string_view list, std::string_view item) {
  for (std::string_view part : split(list, ','))
    if (part == item) return true;
  return false;
}

// mountinfo writes a space, tab, newline or backslash in a path as \ and
// three octal digits.
std::string unescapeMountPath(std::string_view text) {
  std::string path;
  for (size_t i = 0; i < text.size(); ++i) {
    const auto octal = [&](size_t k) { return text[k] >= '0' && text[k] <= '7'; };
    if (text[i] == '\\' && i + 3 < text.size() && octal(i + 1) && octal(i + 2) && octal(i + 3)) {
      path += static_cast<char>((text[i + 1] - '0') * 64 + (text[i + 2] - '0') * 8 + (text[i + 3] - '0'));
      i += 3;
    } else {
      path += text[i];
    }
  }
  return path;
}

// A mounted cgroup hierarchy: where it is mounted, and which of its
// folders is mounted there.
struct CgroupMount {
  std::string root, mountPoint;
};

// The least limit in `file` of the cgroup at `path` (its path in the
// hierarchy) and of each above it, under any of `mounts`; 0 if none.
int64_t leastLimitUp(const std::vector<CgroupMount>& mounts, const std::string& path, const char* file,
                     const ReadTextFile& read) {
  int64_t least = 0;
  for (const CgroupMount& mount : mounts) {
    // The cgroup's folder: its path below the mounted folder (from the
    // mount point itself when the path is not below it).
    std::string below;
    if (mount.root == "/")
      below = path;
    else if (path.compare(0, mount.root.size(), mount.root) == 0 &&
             (path.size() == mount.root.size() || path[mount.root.size()] == '/'))
      below = path.substr(mount.root.size());
    while (!below.empty() && below.back() == '/') below.pop_back();
    for (;;) {
      if (const auto text = read(mount.mountPoint + below + "/" + file))
        if (const auto limit = parseCgroupMemoryLimit(*text); limit && *limit > 0)
          least = least == 0 ? *limit : std::min(least, *limit);
      if (below.empty()) break;
      below.erase(below.rfind('/'));
    }
  }
  return least;
}

int64_t rlimitBytes(int resource) {
  rlimit limit{};
  if (::getrlimit(resource, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) return 0;
  return static_cast<int64_t>(std::min<rlim_t>(limit.rlim_cur, std::numeric_limits<int64_t>::max()));
}

std::optional<std::string> readTextFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) return std::nullopt;
  return text.str();
}

}  // namespace

std::optional<int64_t> parseCgroupMemoryLimit(std::string_view text) {
  text = trimmed(text);
  if (text == "max") return 0;
  uint64_t bytes = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), bytes);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  // v1 says "no limit" with the largest multiple of the page size below 2^63.
  if (bytes >= (uint64_t{1} << 62)) return 0;
  return static_cast<int64_t>(bytes);
}

int64_t cgroupMemoryLimit(const ReadTextFile& read) {
  const auto cgroups = read("/proc/self/cgroup");
  const auto mountInfo = read("/proc/self/mountinfo");
  if (!cgroups || !mountInfo) return 0;
  // The process's path in the v2 hierarchy ("0::PATH") and in the v1
  // hierarchy of the memory controller ("ID:...,memory,...:PATH").
  std::optional<std::string> v2Path, v1Path;
  for (std::string_view line : split(*cgroups, '\n')) {
    const size_t first = line.find(':'), second = first == std::string_view::npos ? first : line.find(':', first + 1);
    if (second == std::string_view::npos) continue;
    const std::string_view id = line.substr(0, first), controllers = line.substr(first + 1, second - first - 1);
    const std::string path(trimmed(line.substr(second + 1)));
    if (path.empty() || path[0] != '/') continue;
    if (id == "0" && controllers.empty()) v2Path = path;
    if (hasItem(controllers, "memory")) v1Path = path;
  }
  // mountinfo: "ID PARENT MAJOR:MINOR ROOT MOUNT-POINT OPTIONS [OPTIONAL...] - TYPE SOURCE SUPER-OPTIONS".
  std::vector<CgroupMount> v2Mounts, v1Mounts;
  for (std::string_view line : split(*mountInfo, '\n')) {
    std::vector<std::string_view> fields;
    for (std::string_view field : split(trimmed(line), ' '))
      if (!field.empty()) fields.push_back(field);
    const auto dash = std::find(fields.begin(), fields.end(), "-");
    if (dash - fields.begin() < 6 || fields.end() - dash < 4) continue;
    CgroupMount mount{unescapeMountPath(fields[3]), unescapeMountPath(fields[4])};
    if (dash[1] == "cgroup2") v2Mounts.push_back(std::move(mount));
    if (dash[1] == "cgroup" && hasItem(dash[3], "memory")) v1Mounts.push_back(std::move(mount));
  }
  int64_t least = 0;
  const auto consider = [&least](int64_t limit) {
    if (limit > 0) least = least == 0 ? limit : std::min(least, limit);
  };
  if (v2Path) consider(leastLimitUp(v2Mounts, *v2Path, "memory.max", read));
  if (v1Path) consider(leastLimitUp(v1Mounts, *v1Path, "memory.limit_in_bytes", read));
  return least;
}

MemoryBounds processMemoryBounds() {
  MemoryBounds bounds;
  const long pages = ::sysconf(_SC_PHYS_PAGES), pageSize = ::sysconf(_SC_PAGESIZE);
  if (pages > 0 && pageSize > 0) bounds.physical = static_cast<int64_t>(pages) * pageSize;
  bounds.addressSpace = rlimitBytes(RLIMIT_AS);
  bounds.data = rlimitBytes(RLIMIT_DATA);
  bounds.cgroup = cgroupMemoryLimit(readTextFile);
  return bounds;
}

// Called once per dropped client whose queue held over 1 MiB (8 MiB of
// unread output gets a client dropped), and by the session reaper once no
// session waits: trimming walks every arena, a few milliseconds at most for
// this server's heap.
void returnFreedMemory() {
#if defined(__GLIBC__)
  malloc_trim(0);
#endif
}

void mapLargeBlocksApart() {
#if defined(__GLIBC__)
  // Fixed bounds (glibc no longer moves them), the trimming one back at its
  // default in case a block freed before had raised it.
  mallopt(M_MMAP_THRESHOLD, 64 * 1024);
  mallopt(M_TRIM_THRESHOLD, 128 * 1024);
#endif
}

}  // namespace gobblet
