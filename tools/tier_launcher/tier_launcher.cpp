// gobblet-tier-launcher: runs a gobblet program built for the best
// instruction-set tier this processor can run (cmake/program_tiers.cmake).
//
// Installed as <libexecdir>/gobblet/gobblet-tier-launcher, with every
// program's <bindir>/<program> a link to it and each tier's programs in
// <libexecdir>/gobblet/<tier>/<program>. Called through a link, it takes
// the program's name from argv[0] (or, for a link of the user's own such
// as ~/bin/gobblet-dev -> /usr/bin/gobblet, from the last link before the
// launcher in the chain argv[0] resolves to), finds the tier folders
// beside its own file (/proc/self/exe, so an unpacked tree works wherever
// it lies; the installed folder where /proc is missing), and replaces
// itself (execv) with the program of the highest tier that is both shipped
// and supported by this processor, with the same arguments; one that does
// not run (a broken file, a link back to the launcher) is said on stderr
// and the next tier is tried.
// GOBBLET_TIER=<tier> asks for one tier; it is refused, with a message, if
// the processor cannot run it or it is not shipped. Started by an MPI
// launcher (mpirun, srun: tools/command_line/mpi_launch.h), it runs
// <libexecdir>/gobblet/mpi/<program> instead where that is installed (the
// package gobblet-mpi: gobblet-match, gobblet-tb and gobblet-prove built with MPI, for
// the lowest tier shipped, so they run on any processor the package runs
// on). Exit status 127 when it runs nothing.
//
// Built for the plain x86-64 baseline (it must run everywhere), with no
// library of the project but the MPI launcher's variables
// (mpi_launch.cpp): it only looks and executes.
#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "tools/command_line/mpi_launch.h"

namespace {

// Best first.
constexpr const char* kTiers[] = {"x86-64-v4", "x86-64-v3", "x86-64-v2", "x86-64"};

bool processorRuns(std::string_view tier) {
  __builtin_cpu_init();
  if (tier == "x86-64-v4") return __builtin_cpu_supports("x86-64-v4");
  if (tier == "x86-64-v3") return __builtin_cpu_supports("x86-64-v3");
  if (tier == "x86-64-v2") return __builtin_cpu_supports("x86-64-v2");
  return tier == "x86-64";
}

bool isKnownTier(std::string_view tier) {
  for (const char* t : kTiers)
    if (tier == t) return true;
  return false;
}

// A program name the launcher may run: letters, digits and '-', as the
// project's programs are named (no '/', no "..": it stays in its folder).
bool isProgramName(std::string_view name) {
  if (name.empty() || name.size() > 64 || name.front() == '-') return false;
  for (char c : name)
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-')) return false;
  return true;
}

std::string baseName(std::string_view path) {
  if (const size_t slash = path.rfind('/'); slash != std::string_view::npos) path.remove_prefix(slash + 1);
  return std::string(path);
}

// The names a program may go by, first the one it was called by: argv[0]'s
// last part, then each link's name along the chain argv[0] (looked up in
// PATH when it has no '/') resolves through, up to the launcher itself.
std::vector<std::string> candidateNames(const char* argv0) {
  std::vector<std::string> names{baseName(argv0)};
  std::string path = argv0;
  if (path.find('/') == std::string::npos) {
    const char* searchPath = std::getenv("PATH");
    std::string dirs = searchPath ? searchPath : "";
    path.clear();
    for (size_t start = 0; start <= dirs.size();) {
      size_t end = dirs.find(':', start);
      if (end == std::string::npos) end = dirs.size();
      const std::string candidate = (end > start ? dirs.substr(start, end - start) : ".") + "/" + argv0;
      if (::access(candidate.c_str(), X_OK) == 0) {
        path = candidate;
        break;
      }
      start = end + 1;
    }
  }
  for (int hops = 0; !path.empty() && hops < 16; ++hops) {  // a bounded chain: no loop forever
    struct stat st;
    if (::lstat(path.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) break;
    char target[PATH_MAX];
    const ssize_t n = ::readlink(path.c_str(), target, sizeof target - 1);
    if (n <= 0) break;
    target[n] = '\0';
    std::string next = target;
    if (next.front() != '/') next = path.substr(0, path.rfind('/') + 1) + next;
    names.push_back(baseName(next));
    path = next;
  }
  return names;
}

int refuse(const std::string& why) {
  std::fprintf(stderr, "gobblet-tier-launcher: %s\n", why.c_str());
  return 127;
}

// Whether `path` is, through any links, the file `self` (the launcher):
// running it would start the launcher again, for ever.
bool isSameFile(const std::string& path, const std::string& self) {
  struct stat a, b;
  return ::stat(path.c_str(), &a) == 0 && ::stat(self.c_str(), &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

// Replaces this process with `path`, unless it is the launcher itself;
// returns why not (the exec's error, or the loop).
std::string run(const std::string& path, char** argv, const std::string& self) {
  if (isSameFile(path, self)) return path + " is the launcher itself (a link back to it): not run";
  ::execv(path.c_str(), argv);
  return path + ": " + std::strerror(errno);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 1 || argv[0] == nullptr) return refuse("no program name");
  if (baseName(argv[0]) == "gobblet-tier-launcher")
    return refuse("run a gobblet program through its link in bin/ (gobblet, gobblet-tb, ...), not the launcher");

  std::string folder;
  char selfPath[PATH_MAX];
  if (const ssize_t n = ::readlink("/proc/self/exe", selfPath, sizeof selfPath - 1); n > 0) {
    selfPath[n] = '\0';
    folder = selfPath;
    folder.erase(folder.rfind('/'));
  } else {
#ifdef GOBBLET_INSTALLED_LAUNCHER_DIR
    folder = GOBBLET_INSTALLED_LAUNCHER_DIR;  // no /proc (a bare chroot): where it was installed
#else
    return refuse(std::string("cannot find its own file: ") + std::strerror(errno));
#endif
  }

  // The first name some tier ships: the called name, else a link's on the way.
  std::string program;
  for (const std::string& name : candidateNames(argv[0])) {
    if (name == "gobblet-tier-launcher") break;
    if (!isProgramName(name)) continue;
    for (const char* tier : kTiers)
      if (program.empty() && ::access((folder + "/" + tier + "/" + name).c_str(), X_OK) == 0) program = name;
    if (!program.empty()) break;
  }
  if (program.empty()) {
    program = baseName(argv[0]);
    if (!isProgramName(program)) return refuse("not a gobblet program name");
  }

  const std::string self = folder + "/gobblet-tier-launcher";
  if (gobblet::cli::mpiLaunch().launched) {
    const std::string path = folder + "/mpi/" + program;
    if (::access(path.c_str(), X_OK) == 0) return refuse(run(path, argv, self));
  }

  const char* wanted = std::getenv("GOBBLET_TIER");
  if (wanted && *wanted) {
    const std::string tier = wanted;
    if (!isKnownTier(tier)) return refuse("GOBBLET_TIER=" + tier + " is not x86-64, x86-64-v2, x86-64-v3 or x86-64-v4");
    if (!processorRuns(tier)) return refuse("GOBBLET_TIER=" + tier + ": this processor cannot run that tier");
    const std::string path = folder + "/" + tier + "/" + program;
    if (::access(path.c_str(), X_OK) != 0) return refuse("GOBBLET_TIER=" + tier + ": " + path + " is not installed");
    return refuse(run(path, argv, self));
  }
  // The best tier that runs; one that cannot be run (a broken file, a link
  // back to the launcher) is said and the next one tried.
  for (const char* tier : kTiers) {
    if (!processorRuns(tier)) continue;
    const std::string path = folder + "/" + tier + "/" + program;
    if (::access(path.c_str(), X_OK) != 0) continue;
    std::fprintf(stderr, "gobblet-tier-launcher: %s; trying a lower tier\n", run(path, argv, self).c_str());
  }
  return refuse("no build of " + program + " for this processor in " + folder + " that runs");
}
