// gobblet-tier-launcher: runs a gobblet program built for the best
// instruction-set tier this processor can run (cmake/program_tiers.cmake).
//
// Installed as <libexecdir>/gobblet/gobblet-tier-launcher, with every
// program's <bindir>/<program> a link to it and each tier's programs in
// <libexecdir>/gobblet/<tier>/<program>. Called through a link, it takes
// the program's name from argv[0], finds the tier folders beside its own
// file (/proc/self/exe, so an unpacked tree works wherever it lies), and
// replaces itself (execv) with the program of the highest tier that is
// both shipped and supported by this processor, with the same arguments.
// GOBBLET_TIER=<tier> asks for one tier; it is refused, with a message, if
// the processor cannot run it or it is not shipped.
//
// Built for the plain x86-64 baseline (it must run everywhere), with no
// library of the project: it only looks and executes.
#include <limits.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>

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

int refuse(const std::string& why) {
  std::fprintf(stderr, "gobblet-tier-launcher: %s\n", why.c_str());
  return 127;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 1 || argv[0] == nullptr) return refuse("no program name");
  std::string_view invoked = argv[0];
  if (const size_t slash = invoked.rfind('/'); slash != std::string_view::npos) invoked.remove_prefix(slash + 1);
  const std::string program(invoked);
  if (program == "gobblet-tier-launcher")
    return refuse("run a gobblet program through its link in bin/ (gobblet, gobblet-tb, ...), not the launcher");
  if (!isProgramName(program)) return refuse("not a gobblet program name");

  char self[PATH_MAX];
  const ssize_t n = ::readlink("/proc/self/exe", self, sizeof self - 1);
  if (n <= 0) return refuse(std::string("cannot find its own file: ") + std::strerror(errno));
  self[n] = '\0';
  std::string folder(self);
  folder.erase(folder.rfind('/'));

  const char* wanted = std::getenv("GOBBLET_TIER");
  if (wanted && *wanted) {
    const std::string tier = wanted;
    if (!isKnownTier(tier)) return refuse("GOBBLET_TIER=" + tier + " is not x86-64, x86-64-v2, x86-64-v3 or x86-64-v4");
    if (!processorRuns(tier)) return refuse("GOBBLET_TIER=" + tier + ": this processor cannot run that tier");
    const std::string path = folder + "/" + tier + "/" + program;
    if (::access(path.c_str(), X_OK) != 0) return refuse("GOBBLET_TIER=" + tier + ": " + path + " is not installed");
    ::execv(path.c_str(), argv);
    return refuse(path + ": " + std::strerror(errno));
  }
  for (const char* tier : kTiers) {
    if (!processorRuns(tier)) continue;
    const std::string path = folder + "/" + tier + "/" + program;
    if (::access(path.c_str(), X_OK) != 0) continue;
    ::execv(path.c_str(), argv);
    return refuse(path + ": " + std::strerror(errno));
  }
  return refuse("no build of " + program + " for this processor in " + folder);
}
