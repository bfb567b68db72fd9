// gobblet-tb: build, inspect, probe and verify tablebases of the 3x3 and 4x4 families.
//
//   gobblet-tb build [VARIANT] [--out FILE] [--threads N] [--codes-dir DIR]
//   mpirun -np R gobblet-tb build ...     (the same build spread over R processes)
//   gobblet-tb estimate VARIANT... [--threads N] [--ranks R] [--memory-per-rank GIB] [--ns-per-state NS]
//   gobblet-tb info FILE
//   gobblet-tb probe FILE POSITION
//   gobblet-tb verify FILE [--threads N] [--codes-dir DIR]
//
// VARIANT defaults to gobblers, FILE for build to the default location
// (tb::defaultPath). Progress goes to standard error, results to standard
// output. This file only declares its command line and prints: the work is the
// tablebase library's (tablebase/). Exit status 0 on success, 1 on failure, 2 on bad usage.
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "engine/notation.h"
#include "engine/variant.h"
#include "mpi_share.h"
#include "progress_line.h"
#include "tablebase/tablebase.h"
#include "tools/command_line/command_line.h"
#include "tools/command_line/mpi_launch.h"
#ifdef GOBBLET_TB_MPI
#include "tools/command_line/mpi_agree.h"
#endif

namespace {

using namespace gobblet;
namespace tb = gobblet::tb;
namespace cli = gobblet::cli;
using Clock = std::chrono::steady_clock;

// The threads of a command: --threads, else one per core.
int threadsOf(const cli::Arguments& args) {
  if (args.has("--threads")) return static_cast<int>(args.integer("--threads"));
  return static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
}

// What gobblet-tb accepts: a command and its arguments.
cli::Program commandLine() {
  const cli::Option threads =
      cli::integer("--threads", "N", 1, tb::kMaxBuildThreads, "worker threads, one per core unless given");
  const cli::Option codesDir =
      cli::text("--codes-dir", "DIR",
                "keep the codes (a byte per slot) in an unnamed file in DIR while working (default: in memory if "
                "they fit, else in the directory of the file)");
  const std::string variants = variantNamesText();  // the variants that have a tablebase (4x4: the members that fit)
  cli::Program p;
  p.name = "gobblet-tb";
  p.summary = "Builds, inspects, probes and verifies tablebases of the 3x3 and 4x4 families.";
  p.commands = {
      {"build",
       "Solves a variant of the 3x3 or 4x4 family and writes its tablebase file. Under mpirun -np R (a gobblet-tb "
       "built with MPI) the work is spread over R processes, which write the same file; the memory too: a 4x4 "
       "member's rank holds 1/R of the table, a 3x3 variant's the slices of its own groups.",
       {{cli::text("--out", "FILE", "the file to write (default: the variant's file in the default folder)"), threads,
         codesDir},
        {cli::optionalPositional("VARIANT", variants).withDefault("gobblers")}}},
      {"estimate",
       "Prints each variant's slots, states, expected memory and expected build time on this machine, or "
       "with --ranks on a cluster of such machines.",
       {{threads,
         cli::integer("--ranks", "R", 1, 1 << 20,
                      "processes of a build under mpirun (one per node), each of --threads threads: per-rank memory, "
                      "disk, bytes exchanged and time"),
         cli::integer("--memory-per-rank", "GIB", 1, 1 << 20,
                      "memory of each rank's node: whether the codes fit in it or go to a file on its disk"),
         cli::integer("--ns-per-state", "NS", 1, 1000000,
                      "the build's time per state on the machine meant, with these threads (the figure this "
                      "command prints there); without it, this machine's is measured now")},
        {cli::positionals("VARIANT", variants)}}},
      {"info",
       "Prints a tablebase file's header and counts, after checking every block.",
       {{}, {cli::positional("FILE", "a tablebase file")}}},
      {"probe",
       "Prints a position's value and every legal move's, best first.",
       {{},
        {cli::positional("FILE", "a tablebase file"),
         cli::positionals("POSITION", "the position (docs/notation.md), in one word or several")}}},
      {"verify",
       "Checks every value of a tablebase file against the rules, independently of the builder.",
       {{threads, codesDir}, {cli::positional("FILE", "a tablebase file")}}},
  };
  return p;
}

// Reports a usage error of gobblet-tb; returns its exit status, 2.
int usage(const std::string& why) { return cli::usageError(commandLine(), why); }

// Reports a failure of the work; returns its exit status, 1.
int fail(const absl::Status& status) { return cli::failure(commandLine(), status.message()); }

double seconds(Clock::time_point since) { return std::chrono::duration<double>(Clock::now() - since).count(); }

long peakRssMiB() {
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  return ru.ru_maxrss / 1024;
}

double gib(uint64_t bytes) { return static_cast<double>(bytes) / (1 << 30); }

double physicalGiB() {
  return gib(static_cast<uint64_t>(sysconf(_SC_PHYS_PAGES)) * static_cast<uint64_t>(sysconf(_SC_PAGESIZE)));
}

// The counts block that build and info both print.
void printCounts(const tb::TableCounts& c) {
  const auto u = [](uint64_t x) { return static_cast<unsigned long long>(x); };
  std::printf("states       %llu\n", u(c.states));
  std::printf("won or lost  %llu\n", u(c.wins + c.losses));
  std::printf("game over    %llu\n", u(c.terminal));
  std::printf("wins         %llu\ndraws        %llu\nlosses       %llu\n", u(c.wins), u(c.draws), u(c.losses));
  std::printf("start        %s\n", tb::describe(c.start).c_str());
  std::printf("longest      %d plies\n", c.longest);
}

// Where a command keeps its code byte per slot while it works: "" (in
// memory) if `inMemory` bytes fit this machine's, else an unnamed file in
// `codesDir` (--codes-dir), or beside `besidePath` if none was given. An
// error if even `inFile` bytes do not fit in memory, or the disk has not
// the `slots` bytes of the file. Says where the file goes.
absl::StatusOr<std::string> chooseCodesDir(const std::string& what, uint64_t inMemory, uint64_t inFile, uint64_t slots,
                                           const std::string& besidePath, std::string codesDir) {
  const double haveGiB = physicalGiB();
  const auto fits = [&](uint64_t bytes) { return gib(bytes) <= 0.9 * haveGiB; };  // a tenth left to the rest
  if (codesDir.empty() && !fits(inMemory)) {
    const std::filesystem::path parent = std::filesystem::path(besidePath).parent_path();
    codesDir = parent.empty() ? "." : parent.string();
  }
  if (!fits(codesDir.empty() ? inMemory : inFile))
    return absl::ResourceExhaustedError(absl::StrFormat(
        "%s needs about %.1f GiB of memory (%.1f GiB with its codes in a file), this machine has %.1f GiB", what,
        gib(inMemory), gib(inFile), haveGiB));
  if (codesDir.empty()) return codesDir;
  std::error_code ec;
  std::filesystem::create_directories(codesDir, ec);  // a failure shows when the file is made there
  // A byte per slot, checked before hours of work (the file's blocks are
  // reserved when it is made, where the file system can).
  const std::filesystem::space_info disk = std::filesystem::space(codesDir, ec);
  if (!ec && disk.available < slots)
    return absl::ResourceExhaustedError(absl::StrFormat("%s takes %.1f GiB of disk for its codes, %s has %.1f GiB free",
                                                        what, gib(slots), codesDir, gib(disk.available)));
  std::fprintf(stderr, "codes in an unnamed file in %s (%.1f GiB of disk while it works)\n", codesDir.c_str(),
               gib(slots));
  return codesDir;
}

// One process's build; `share` null, or this rank's part of a build over
// several (rank 0 reports, every rank says why it failed).
int buildOn(const cli::Arguments& args, tb::BuildShare* share) {
  const int rank = share ? share->rank() : 0, ranks = share ? share->ranks() : 1;
  const auto failHere = [&](const absl::Status& status) {
    return share && !absl::StrContains(status.message(), "rank ")
               ? fail(absl::Status(status.code(), absl::StrCat("rank ", rank, ": ", status.message())))
               : fail(status);
  };
  const std::string variantText = args.text("VARIANT");
  std::string out = args.text("--out"), codesDir = args.text("--codes-dir");
  const int threads = threadsOf(args);
  if (args.has("--codes-dir") && codesDir.empty()) return usage("--codes-dir takes a directory");
  auto variant = Variant::parse(variantText);
  if (!variant.ok()) return fail(variant.status());
  if (out.empty()) out = tb::defaultPath(*variant);
  const tb::SolveEstimate need = tb::estimateSolve(*variant, threads);
  // (Over several ranks each chooses for its own node, and all hear if one cannot.)
  absl::StatusOr<std::string> codesIn = chooseCodesDir(absl::StrCat("building ", variant->name()), need.bytes,
                                                       need.bytesCodesInFile, need.slots, out, codesDir);
  if (share)
    if (absl::Status all = share->agree(codesIn.status()); !all.ok()) return failHere(all);
  if (!codesIn.ok()) return failHere(codesIn.status());
  if (rank == 0) {
    if (ranks > 1)
      std::fprintf(stderr, "building %s on %d ranks of %d threads -> %s\n", variant->name().c_str(), ranks, threads,
                   out.c_str());
    else
      std::fprintf(stderr, "building %s with %d threads -> %s\n", variant->name().c_str(), threads, out.c_str());
  }
  const auto start = Clock::now();
  ProgressLine line;
  tb::BuildOptions options;
  options.threads = threads;
  options.codesDirectory = *codesIn;
  if (rank == 0) options.progress = [&](const std::string& p, uint64_t d, uint64_t t) { line(p, d, t); };
  options.share = share;
  auto counts = tb::build(*variant, out, options);
  line.end();
  if (!counts.ok()) return failHere(counts.status());
  const double wall = seconds(start);
  std::vector<uint64_t> rss{static_cast<uint64_t>(peakRssMiB())}, in{0}, outBytes{0};
#ifdef GOBBLET_TB_MPI
  if (share) {
    auto* mpi = static_cast<tb::MpiShare*>(share);
    rss = mpi->gather(rss[0]);
    in = mpi->gather(mpi->bytesIn());
    outBytes = mpi->gather(mpi->bytesOut());
  }
#endif
  if (rank != 0) return 0;
  std::printf("variant      %s\n", variant->name().c_str());
  printCounts(*counts);
  std::printf("wall time    %.1f s\n", wall);
  if (ranks == 1) {
    std::printf("peak memory  %ld MiB\n", peakRssMiB());
  } else {
    std::printf("ranks        %d of %d threads\n", ranks, threads);
    for (int r = 0; r < ranks; ++r)
      std::printf("rank %-7d peak memory %llu MiB, exchanged %.1f MiB in, %.1f MiB out\n", r,
                  static_cast<unsigned long long>(rss[r]), in[r] / 1048576.0, outBytes[r] / 1048576.0);
  }
  std::error_code ec;
  const uintmax_t bytes = std::filesystem::file_size(out, ec);
  std::printf("file         %s (%llu bytes, %.2f bits per state, %.2f per slot)\n", out.c_str(),
              static_cast<unsigned long long>(bytes),
              8.0 * static_cast<double>(bytes) / static_cast<double>(std::max<uint64_t>(1, counts->states)),
              8.0 * static_cast<double>(bytes) / static_cast<double>(need.slots));
  return 0;
}

// A build, over MPI when mpirun started this process as one of several.
int build(const cli::Arguments& args) {
  const cli::MpiLaunch launch = cli::mpiLaunch();
  if (launch.srunTasksWithoutMpi > 0)
    return fail(absl::FailedPreconditionError(cli::srunWithoutMpiError("gobblet-tb", launch.srunTasksWithoutMpi)));
  const int launched = launch.launched ? launch.size : 1;
  if (launched <= 1) return buildOn(args, nullptr);
#ifdef GOBBLET_TB_MPI
  absl::StatusOr<std::unique_ptr<tb::MpiShare>> share = tb::MpiShare::start();
  if (!share.ok()) return fail(share.status());
  // Every rank must solve the same variant with the same solver: a rank of
  // another variant of the same size made a file of wrong values.
  const absl::StatusOr<Variant> variant = Variant::parse(args.text("VARIANT"));
  if (absl::Status same =
          cli::ranksAgree(absl::StrCat("gobblet-tb build ", variant.ok() ? variant->name() : args.text("VARIANT")));
      !same.ok())
    return fail(same);
  try {
    return buildOn(args, share->get());
  } catch (const std::exception& e) {
    // (Out of memory on this thread: the others could wait for it forever.)
    cli::failure(commandLine(), absl::StrCat("rank ", (*share)->rank(), ": ", e.what(), "; ending every rank"));
    (*share)->abort(1);
  }
#else
  return fail(absl::FailedPreconditionError(
      absl::StrCat("started as one of ", launched,
                   " ranks (mpirun), but this gobblet-tb was built without MPI: each rank would "
                   "build the whole table; install the package gobblet-mpi, or build with Open MPI (libopenmpi-dev)")));
#endif
}

// The variant that estimate solves to measure this machine's speed: big
// enough to time and to leave the caches (about 1.3 s on 2 cores; the
// 0.2 s of 3x3:2,2,1 overstated gobblers' time twofold), small enough to
// wait for.
constexpr const char* kCalibrationVariant = "3x3:2,3,1";
// The same for the 4x4 builder (retrograde4.h): 2 M states, about 0.6 s on
// 2 cores. No state of it is won or lost, so it times the forward pass
// alone and the times are low bounds (4x4:4,1 and 4x4:2,2, which have a
// backward pass, took 1.5 times its time per state).
constexpr const char* kCalibration4x4 = "4x4:3,1";

// What a cluster network is assumed to carry per rank, each way, for the
// time of the exchanges (10 Gb/s Ethernet; nothing here to measure it on).
constexpr double kLinkBytesPerSecond = 1.25e9;

// estimate --ranks: the first line of a build over R ranks (of either
// builder); gives a node's memory in GiB, --memory-per-rank or this
// machine's.
double printRanks(const Variant& variant, const cli::Arguments& args, int threads) {
  const int ranks = static_cast<int>(args.integer("--ranks"));
  std::printf("ranks        %d of %d threads each (mpirun -np %d gobblet-tb build %s --threads %d)\n", ranks, threads,
              ranks, variant.name().c_str(), threads);
  return args.has("--memory-per-rank") ? static_cast<double>(args.integer("--memory-per-rank")) : physicalGiB();
}

// estimate --ranks: the lines of a build over R ranks, each a node of the
// memory --memory-per-rank (else this machine's) and of --threads threads
// at this machine's measured speed.
void printCluster(const Variant& variant, const cli::Arguments& args, int threads, double perState) {
  const int ranks = static_cast<int>(args.integer("--ranks"));
  const tb::ClusterEstimate c = tb::estimateCluster(variant, threads, ranks);
  const tb::SolveEstimate& e = c.perRank;
  const double node = printRanks(variant, args, threads);
  const double inMemory = gib(e.bytes), inFile = gib(e.bytesCodesInFile);
  std::printf(
      "per rank     memory %.2f GiB with the codes in memory (its slices and those it takes at once, every state "
      "open),\n             %.2f GiB with them in a file (+ %.1f GiB of disk: each rank's files reserved whole)\n",
      inMemory, inFile, gib(e.slots));
  if (inMemory <= 0.9 * node)
    std::printf("             with %.0f GiB per rank: the codes in memory, no disk\n", node);
  else if (inFile <= 0.9 * node)
    std::printf("             with %.0f GiB per rank: the codes in a file, %.1f GiB of local disk per rank\n", node,
                gib(e.slots));
  else
    std::printf("             with %.0f GiB per rank: does NOT fit (%.2f GiB needed even with the codes in a file)\n",
                node, inFile);
  const double bytesPerRank = static_cast<double>(c.codeBytesIn + c.codeBytesOut + 2 * c.bitBytes);
  std::printf(
      "exchanged    per rank: %.2f GiB of slices in, %.2f GiB out, %.4f GiB of shared lines OR-ed,\n"
      "             in up to %llu exchanges per pass\n",
      gib(c.codeBytesIn), gib(c.codeBytesOut), gib(c.bitBytes), static_cast<unsigned long long>(c.levels));
  const double compute = perState * static_cast<double>(e.states) * c.criticalShare;
  const double network = ranks > 1 ? bytesPerRank / kLinkBytesPerSecond : 0;
  std::printf(
      "time         %.0f s expected (%.1f h): %.0f s of solving on the slowest rank (%.1f%% of the work: each "
      "level waits\n             for its largest groups) and %.0f s of exchanges at %.2f GB/s per rank "
      "(assumed)\n",
      compute + network, (compute + network) / 3600, compute, 100 * c.criticalShare, network,
      kLinkBytesPerSecond / 1e9);
}

// The same for a 4x4 member, whose ranks each hold their range of the
// numbers (retrograde4.h: estimateCluster4): the states' work split evenly.
void printCluster4(const Variant& variant, const cli::Arguments& args, int threads, double perState) {
  const int ranks = static_cast<int>(args.integer("--ranks"));
  const tb::ClusterEstimate4 c = tb::estimateCluster4(variant, threads, ranks);
  const double node = printRanks(variant, args, threads);
  const double perRank = c.bytesPerRank / 1073741824.0;
  std::printf(
      "per rank     memory %.4g GiB: 1/%d of the codes, counts and bits, message buffers and MPI's own;\n"
      "             with %.0f GiB per rank: %s\n",
      perRank, ranks, node, perRank <= 0.9 * node ? "fits" : "does NOT fit");
  std::printf("exchanged    per rank: %.4g GiB out and about as much in (children and parents of other ranks)\n",
              c.bytesSentPerRank / 1073741824.0);
  const double compute = perState * tb::estimateSolve(variant, threads).wideStates / ranks;
  const double network = c.bytesSentPerRank / kLinkBytesPerSecond;  // as much in as out, at once
  std::printf(
      "time         %.3g s expected (%.3g h): %.3g s of solving (1/%d of the states) and %.3g s of exchanges at "
      "%.2f GB/s each way per rank (assumed)\n",
      compute + network, (compute + network) / 3600, compute, ranks, network, kLinkBytesPerSecond / 1e9);
}

// One block per variant, blank lines between: the machine's speed is
// measured once for all of them.
int estimate(const cli::Arguments& args) {
  const int threads = threadsOf(args);
  if (args.has("--memory-per-rank") && !args.has("--ranks")) return usage("--memory-per-rank goes with --ranks");
  std::vector<Variant> variants;
  for (const std::string& text : args.all("VARIANT")) {
    auto variant = Variant::parse(text);
    if (!variant.ok()) return fail(variant.status());
    variants.push_back(*variant);
  }
  // Time: the builder's work goes with the states; measure its rate here,
  // now (on a loaded machine the figure is the loaded one), once per family
  // asked for (the two builders differ).
  const auto rate = [&](const char* name) -> absl::StatusOr<double> {
    const Variant calibration = *Variant::parse(name);
    const auto start = Clock::now();
    tb::BuildOptions options;
    options.threads = threads;
    if (auto solved = tb::build(calibration, "", options); !solved.ok()) return solved.status();
    return seconds(start) / static_cast<double>(tb::estimateSolve(calibration, threads).states);
  };
  // (--ns-per-state: one figure for both builders, measured elsewhere.)
  const bool given = args.has("--ns-per-state");
  double perState3 = given ? static_cast<double>(args.integer("--ns-per-state")) * 1e-9 : 0, perState4 = perState3;
  const auto source = [&](const char* calibration) {
    return given ? std::string("given") : absl::StrCat("measured on ", calibration, " just now");
  };
  for (const Variant& v : variants) {
    double& perState = v.n == 3 ? perState3 : perState4;
    if (perState > 0) continue;
    const absl::StatusOr<double> r = rate(v.n == 3 ? kCalibrationVariant : kCalibration4x4);
    if (!r.ok()) return fail(r.status());
    perState = *r;
  }
  const auto u = [](uint64_t x) { return static_cast<unsigned long long>(x); };
  for (size_t i = 0; i < variants.size(); ++i) {
    const tb::SolveEstimate e = tb::estimateSolve(variants[i], threads);
    if (i > 0) std::printf("\n");
    std::printf("variant      %s\n", variants[i].name().c_str());
    if (variants[i].n == 4) {
      // The 4x4 builder: codes in memory, one process; the figures may be
      // past 64 bits.
      if (e.slots > 0) {
        std::printf("slots        %llu (a code byte each while solving; the file compresses them)\n", u(e.slots));
        std::printf("states       %llu (numbers that are states, reachable or not)\n", u(e.states));
      } else {
        std::printf("slots        %.4g (too many to number in 64 bits: no tablebase)\n", e.wideSlots);
        std::printf("states       %.4g (numbers that are states, reachable or not)\n", e.wideStates);
      }
      std::printf("memory       %.4g GiB expected peak (codes, counts and bits in memory; this machine has %.1f GiB)\n",
                  e.wideBytes / 1073741824.0, physicalGiB());
      std::printf("time         %.3g s expected with %d threads (%.0f ns per state, %s)\n", perState4 * e.wideStates,
                  threads, perState4 * 1e9, source(kCalibration4x4).c_str());
      if (args.has("--ranks")) printCluster4(variants[i], args, threads, perState4);
      continue;
    }
    const double perState = perState3;
    std::printf("slots        %llu (2 bits each while solving, a byte per open state; the file compresses them)\n",
                u(e.slots));
    std::printf("states       %llu (numbers that are states, reachable or not)\n", u(e.states));
    std::printf(
        "memory       %.2f GiB expected peak (%.2f GiB with the codes in a file; this machine has %.1f GiB;\n"
        "             the file's compressed blocks are held once more while it is written)\n",
        gib(e.bytes), gib(e.bytesCodesInFile), physicalGiB());
    std::printf("time         %.0f s expected with %d threads (%.0f ns per state, %s)\n",
                perState * static_cast<double>(e.states), threads, perState * 1e9, source(kCalibrationVariant).c_str());
    if (args.has("--ranks")) printCluster(variants[i], args, threads, perState);
  }
  return 0;
}

int info(const cli::Arguments& args) {
  const std::string file = args.text("FILE");
  const auto start = Clock::now();
  const absl::StatusOr<tb::FileInfo> inspected = tb::inspect(file);
  if (!inspected.ok()) return fail(inspected.status());
  const auto u = [](uint64_t x) { return static_cast<unsigned long long>(x); };
  std::printf("file         %s\n", file.c_str());
  std::printf("format       version %u\n", inspected->formatVersion);
  std::printf("variant      %s\n", inspected->variant.name().c_str());
  std::printf("entries      %llu\n", u(inspected->entries));
  std::printf("blocks       %llu of %u codes, zstd, dictionary of %u bytes\n", u(inspected->blocks),
              inspected->blockCodes, inspected->dictionaryBytes);
  std::printf("size         %llu bytes (%.2f bits per entry)\n", u(inspected->bytes),
              8.0 * static_cast<double>(inspected->bytes) / static_cast<double>(inspected->entries));
  printCounts(inspected->counts);
  std::printf("checksum     %016llx (checked, every block decoded, in %.2f s)\n", u(inspected->checksum),
              seconds(start));
  return 0;
}

int probe(const cli::Arguments& args) {
  auto table = tb::open(args.text("FILE"));
  if (!table.ok()) return fail(table.status());
  const std::string text = absl::StrJoin(args.all("POSITION"), " ");
  auto board = parsePosition((*table)->variant(), text);
  if (!board.ok()) return fail(board.status());
  const tb::Probe value = (*table)->probe(*board);
  std::printf("position %s: %s\n", positionToString(*board).c_str(), tb::describe(value).c_str());
  if (value.value == tb::Value::kUnknown) {
    std::printf("(not reachable from the start)\n");
    return 1;
  }
  for (const tb::RankedMove& m : tb::rankMoves(**table, *board))
    std::printf("  %s %s\n", moveToString(m.move, board->variant()).c_str(), tb::describe(m.value).c_str());
  return 0;
}

int verify(const cli::Arguments& args) {
  const std::string file = args.text("FILE");
  std::string codesDir = args.text("--codes-dir");
  const int threads = threadsOf(args);
  if (args.has("--codes-dir") && codesDir.empty()) return usage("--codes-dir takes a directory");
  const auto start = Clock::now();
  tb::TableCounts counts;
  const auto codesIn = [&](const tb::FileInfo& info) {
    counts = info.counts;
    return chooseCodesDir(absl::StrCat("verifying ", file), tb::verifyBytes(info.entries, false),
                          tb::verifyBytes(info.entries, true), info.entries, file, codesDir);
  };
  ProgressLine line;
  const absl::Status s = tb::verifyFile(file, threads, codesIn, [&](uint64_t d, uint64_t t) { line("verify", d, t); });
  line.end();
  if (!s.ok()) return fail(s);
  std::printf("verified %s: %llu states, start %s, in %.1f s\n", file.c_str(),
              static_cast<unsigned long long>(counts.states), tb::describe(counts.start).c_str(), seconds(start));
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  return cli::runMain(commandLine(), argc, argv, [](const cli::Arguments& args, const cli::UsageFn&) {
    if (args.command() == "build") return build(args);
    if (args.command() == "estimate") return estimate(args);
    if (args.command() == "info") return info(args);
    if (args.command() == "probe") return probe(args);
    return verify(args);
  });
}
