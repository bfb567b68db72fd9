// What the server's process may hold and the hash budget sized from it
// (server/process_memory.h, protocol/hash_budget.h): the cgroup files and
// /proc/self's are fed here as text, so that the rules are checked for
// cgroup v1, v2 and both, whatever this machine has.
#include <gtest/gtest.h>

#include <sys/resource.h>

#include <map>
#include <string>

#include "protocol/hash_budget.h"
#include "server/process_memory.h"

namespace gobblet {
namespace {

constexpr int64_t kMiB = int64_t{1} << 20, kGiB = int64_t{1} << 30;

// A file system of a few files; every other path is missing.
struct FakeFiles {
  std::map<std::string, std::string> files;
  std::vector<std::string> asked;
  ReadTextFile reader() {
    return [this](const std::string& path) -> std::optional<std::string> {
      asked.push_back(path);
      const auto it = files.find(path);
      if (it == files.end()) return std::nullopt;
      return it->second;
    };
  }
};

// mountinfo lines as a systemd machine with cgroup v2 has them.
constexpr const char* kV2MountInfo =
    "22 1 0:21 / /proc rw,nosuid,nodev,noexec,relatime shared:12 - proc proc rw\n"
    "35 24 0:30 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime shared:9 - cgroup2 cgroup2 rw,nsdelegate\n";

TEST(ProcessMemory, ParsesALimitFile) {
  EXPECT_EQ(parseCgroupMemoryLimit("max\n"), 0);
  EXPECT_EQ(parseCgroupMemoryLimit("536870912\n"), 512 * kMiB);
  EXPECT_EQ(parseCgroupMemoryLimit("9223372036854771712\n"), 0);  // v1's "no limit"
  EXPECT_EQ(parseCgroupMemoryLimit(" 4096 "), 4096);
  EXPECT_EQ(parseCgroupMemoryLimit(""), std::nullopt);
  EXPECT_EQ(parseCgroupMemoryLimit("-1"), std::nullopt);
  EXPECT_EQ(parseCgroupMemoryLimit("12 MiB"), std::nullopt);
  EXPECT_EQ(parseCgroupMemoryLimit("99999999999999999999999"), std::nullopt);
}

// Under v2 the limit of a cgroup above the process's holds too: the least wins.
TEST(ProcessMemory, CgroupV2TakesTheLeastLimitUpToTheRoot) {
  FakeFiles fs;
  fs.files["/proc/self/cgroup"] = "0::/user.slice/board.service\n";
  fs.files["/proc/self/mountinfo"] = kV2MountInfo;
  fs.files["/sys/fs/cgroup/user.slice/board.service/memory.max"] = "max\n";
  fs.files["/sys/fs/cgroup/user.slice/memory.max"] = "2147483648\n";
  EXPECT_EQ(cgroupMemoryLimit(fs.reader()), 2 * kGiB);
  fs.files["/sys/fs/cgroup/user.slice/board.service/memory.max"] = "805306368\n";
  EXPECT_EQ(cgroupMemoryLimit(fs.reader()), 768 * kMiB);
}

// A container's namespace: the process is at "/" of a hierarchy mounted at
// /sys/fs/cgroup, whose own memory.max is the container's limit.
TEST(ProcessMemory, CgroupV2InAContainer) {
  FakeFiles fs;
  fs.files["/proc/self/cgroup"] = "0::/\n";
  fs.files["/proc/self/mountinfo"] = kV2MountInfo;
  fs.files["/sys/fs/cgroup/memory.max"] = "1073741824\n";
  EXPECT_EQ(cgroupMemoryLimit(fs.reader()), kGiB);
}

// Under v1 the memory controller's hierarchy counts (not cpu's), also when
// the mount shows only a folder of it (a container without a cgroup
// namespace: the mounted folder is the process's own cgroup). v1's "no
// limit" is no limit.
TEST(ProcessMemory, CgroupV1UsesTheMemoryControllersHierarchy) {
  FakeFiles fs;
  fs.files["/proc/self/cgroup"] =
      "5:cpu,cpuacct:/docker/abc\n"
      "4:memory:/docker/abc\n"
      "0::/\n";
  fs.files["/proc/self/mountinfo"] =
      "31 30 0:28 /docker/abc /sys/fs/cgroup/cpu,cpuacct ro,nosuid - cgroup cgroup rw,cpu,cpuacct\n"
      "34 30 0:31 /docker/abc /sys/fs/cgroup/memory ro,nosuid - cgroup cgroup rw,memory\n";
  fs.files["/sys/fs/cgroup/cpu,cpuacct/memory.limit_in_bytes"] = "1048576\n";  // not the memory controller's
  fs.files["/sys/fs/cgroup/memory/memory.limit_in_bytes"] = "9223372036854771712\n";
  EXPECT_EQ(cgroupMemoryLimit(fs.reader()), 0);
  fs.files["/sys/fs/cgroup/memory/memory.limit_in_bytes"] = "3221225472\n";
  EXPECT_EQ(cgroupMemoryLimit(fs.reader()), 3 * kGiB);
}

// A hybrid machine (v1 controllers, v2 mounted beside them, as here): the
// least of both; a mount point with a space in its name is written \040.
TEST(ProcessMemory, CgroupV1AndV2TogetherTheLeast) {
  FakeFiles fs;
  fs.files["/proc/self/cgroup"] = "4:memory:/jobs/7\n0::/jobs/7\n";
  fs.files["/proc/self/mountinfo"] =
      "34 30 0:31 / /sys/fs/cgroup/memory rw - cgroup cgroup rw,memory\n"
      "40 30 0:37 / /sys/fs/cgroup/my\\040unified rw - cgroup2 cgroup2 rw\n";
  fs.files["/sys/fs/cgroup/memory/jobs/7/memory.limit_in_bytes"] = "4294967296\n";
  fs.files["/sys/fs/cgroup/my unified/jobs/memory.max"] = "1610612736\n";
  EXPECT_EQ(cgroupMemoryLimit(fs.reader()), 1536 * kMiB);
}

// Missing files, junk in them, or no memory hierarchy: no limit, and no
// file outside the mounted hierarchies is read.
TEST(ProcessMemory, NoOrUnreadableCgroupFilesAreNoLimit) {
  FakeFiles none;
  EXPECT_EQ(cgroupMemoryLimit(none.reader()), 0);
  FakeFiles junk;
  junk.files["/proc/self/cgroup"] = "garbage\n::\n0::relative\n\n";
  junk.files["/proc/self/mountinfo"] = "- - -\n1 2 3\n35 24 0:30 / /c rw - cgroup2\n";
  EXPECT_EQ(cgroupMemoryLimit(junk.reader()), 0);
  FakeFiles v2;
  v2.files["/proc/self/cgroup"] = "0::/a/b\n";
  v2.files["/proc/self/mountinfo"] = kV2MountInfo;
  v2.files["/sys/fs/cgroup/a/b/memory.max"] = "lots\n";
  EXPECT_EQ(cgroupMemoryLimit(v2.reader()), 0);
  for (const std::string& path : v2.asked)
    EXPECT_TRUE(path.rfind("/proc/self/", 0) == 0 || path.rfind("/sys/fs/cgroup/", 0) == 0) << path;
}

TEST(HashBudgetDefault, AQuarterOfTheMachineAtMostHalfOfTheProcesssLimit) {
  MemoryBounds machine;
  machine.physical = 24 * kGiB;
  EXPECT_EQ(defaultHashBudgetMiB(machine), 6 * 1024);
  EXPECT_FALSE(processMemoryLimit(machine));

  MemoryBounds ulimit = machine;
  ulimit.addressSpace = 2 * kGiB;
  EXPECT_EQ(defaultHashBudgetMiB(ulimit), 1024);
  EXPECT_EQ(processMemoryLimit(ulimit)->name, "RLIMIT_AS");

  MemoryBounds cgroup = ulimit;
  cgroup.data = 3 * kGiB;
  cgroup.cgroup = 512 * kMiB;
  EXPECT_EQ(defaultHashBudgetMiB(cgroup), 256);
  EXPECT_EQ(processMemoryLimit(cgroup)->name, "the cgroup's memory limit");
  EXPECT_EQ(processMemoryLimit(cgroup)->bytes, 512 * kMiB);

  MemoryBounds data = machine;
  data.data = 1 * kGiB;
  EXPECT_EQ(defaultHashBudgetMiB(data), 512);
  EXPECT_EQ(processMemoryLimit(data)->name, "RLIMIT_DATA");

  // The floor of 64 MiB for a small machine does not pass the process's limit.
  MemoryBounds small;
  small.physical = 128 * kMiB;
  EXPECT_EQ(defaultHashBudgetMiB(small), 64);
  small.cgroup = 100 * kMiB;
  EXPECT_EQ(defaultHashBudgetMiB(small), 50);
  small.addressSpace = 1 * kMiB;
  EXPECT_EQ(defaultHashBudgetMiB(small), 1);
  // Nothing known: 1 GiB, within the process's limit.
  EXPECT_EQ(defaultHashBudgetMiB(MemoryBounds{}), 1024);
  MemoryBounds unknownMachine;
  unknownMachine.cgroup = kGiB;
  EXPECT_EQ(defaultHashBudgetMiB(unknownMachine), 512);
}

// This process's own bounds as the server reads them: the machine's memory,
// and its soft RLIMIT_AS and RLIMIT_DATA (set here to 1 TiB and 3 TiB for
// the check, then put back).
TEST(ProcessMemory, ReadsThisProcesssLimits) {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  GTEST_SKIP() << "the sanitizers' shadow memory may be beyond such limits";
#endif
  rlimit as{}, data{};
  ASSERT_EQ(::getrlimit(RLIMIT_AS, &as), 0);
  ASSERT_EQ(::getrlimit(RLIMIT_DATA, &data), 0);
  const auto lowered = [](rlimit limit, rlim_t bytes) {
    if (limit.rlim_max != RLIM_INFINITY && limit.rlim_max < bytes) bytes = limit.rlim_max;
    return rlimit{bytes, limit.rlim_max};
  };
  const rlimit testAs = lowered(as, rlim_t{1} << 40), testData = lowered(data, rlim_t{3} << 40);
  ASSERT_EQ(::setrlimit(RLIMIT_AS, &testAs), 0);
  ASSERT_EQ(::setrlimit(RLIMIT_DATA, &testData), 0);
  const MemoryBounds bounds = processMemoryBounds();
  ::setrlimit(RLIMIT_AS, &as);
  ::setrlimit(RLIMIT_DATA, &data);
  EXPECT_GT(bounds.physical, 0);
  EXPECT_EQ(bounds.addressSpace, static_cast<int64_t>(testAs.rlim_cur));
  EXPECT_EQ(bounds.data, static_cast<int64_t>(testData.rlim_cur));
}

}  // namespace
}  // namespace gobblet
