// gobblet-tb: build, inspect, probe and verify 3x3 tablebases.
//
//   gobblet-tb build [VARIANT] [--out FILE] [--threads N]
//   gobblet-tb info FILE
//   gobblet-tb probe FILE POSITION
//   gobblet-tb verify FILE [--threads N]
//
// VARIANT defaults to gobblers, FILE for build to the default location
// (Tablebase::defaultPath). Progress goes to standard error, results to
// standard output. Exit status 0 on success, 1 on failure, 2 on bad usage.
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "engine/movegen.h"
#include "engine/notation.h"
#include "search/retrograde.h"
#include "search/tablebase_file.h"
#include "search/tablebase_verify.h"

namespace {

using namespace gobblet;
using Clock = std::chrono::steady_clock;

int usage(const std::string& why) {
  std::fprintf(stderr,
               "error: %s\nusage: gobblet-tb build [VARIANT] [--out FILE] [--threads N]\n"
               "       gobblet-tb info FILE\n"
               "       gobblet-tb probe FILE POSITION\n"
               "       gobblet-tb verify FILE [--threads N]\n",
               why.c_str());
  return 2;
}

int fail(const absl::Status& status) {
  std::fprintf(stderr, "error: %s\n", std::string(status.message()).c_str());
  return 1;
}

double seconds(Clock::time_point since) { return std::chrono::duration<double>(Clock::now() - since).count(); }

std::string duration(double s) {
  const int t = static_cast<int>(s + 0.5);
  return t >= 60 ? absl::StrCat(t / 60, "m", t % 60 < 10 ? "0" : "", t % 60, "s") : absl::StrCat(t, "s");
}

long peakRssMiB() {
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  return ru.ru_maxrss / 1024;
}

std::string valueText(uint8_t code) {
  if (code == tbcode::kNone) return "unknown";
  if (code == tbcode::kDraw) return "draw";
  return absl::StrCat(tbcode::isWin(code) ? "win" : "loss", " in ", tbcode::distance(code));
}

// Progress line for one phase: percentage, rate, time left.
class ProgressLine {
 public:
  void operator()(const std::string& phase, uint64_t done, uint64_t total) {
    if (phase != phase_) {
      if (!phase_.empty()) std::fprintf(stderr, "\n");
      phase_ = phase;
      start_ = Clock::now();
    }
    const double t = seconds(start_), f = total ? static_cast<double>(done) / total : 1.0;
    const bool settled = t > 1 && f > 0.001;  // no rate or ETA from the first instants
    std::fprintf(stderr, "\r%-6s %5.1f%%  %s M entries/s  elapsed %s  ETA %s   ", phase.c_str(), 100 * f,
                 settled ? absl::StrCat(static_cast<int>(done / t / 1e5) / 10.0).c_str() : "?",
                 duration(t).c_str(), settled ? duration(t / f - t).c_str() : "?");
    std::fflush(stderr);
  }
  void end() {
    if (!phase_.empty()) std::fprintf(stderr, "\n");
    phase_.clear();
  }

 private:
  std::string phase_;
  Clock::time_point start_;
};

bool parseThreads(const std::string& text, int* threads) {
  return absl::SimpleAtoi(text, threads) && *threads >= 1 && *threads <= 256;
}

// The counts block that build and info both print, from the builder's
// statistics or from a file's header.
void printCounts(uint64_t states, uint64_t terminal, uint64_t wins, uint64_t draws, uint64_t losses,
                 uint8_t startCode, int maxDistance) {
  const auto u = [](uint64_t x) { return static_cast<unsigned long long>(x); };
  std::printf("states       %llu\n", u(states));
  std::printf("won or lost  %llu\n", u(wins + losses));
  std::printf("game over    %llu\n", u(terminal));
  std::printf("wins         %llu\ndraws        %llu\nlosses       %llu\n", u(wins), u(draws), u(losses));
  std::printf("start        %s\n", valueText(startCode).c_str());
  std::printf("longest      %d plies\n", maxDistance);
}

int build(const std::vector<std::string>& args) {
  std::string variantText = "gobblers", out;
  int threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  bool haveVariant = false;
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--out" && i + 1 < args.size()) {
      out = args[++i];
    } else if (args[i] == "--threads" && i + 1 < args.size()) {
      if (!parseThreads(args[++i], &threads)) return usage("--threads takes a number 1..256");
    } else if (!haveVariant && args[i].rfind("--", 0) != 0) {
      variantText = args[i];
      haveVariant = true;
    } else {
      return usage(absl::StrCat("unexpected argument '", args[i], "'"));
    }
  }
  auto variant = Variant::parse(variantText);
  if (!variant.ok()) return fail(variant.status());
  if (variant->n != 3) return usage("only the 3x3 family (gobblers, tictactoe, 3x3:S,P,M) has a tablebase");
  if (out.empty()) out = Tablebase::defaultPath(*variant);
  // The builder keeps four bytes per slot of the numbering in memory.
  const double needGiB = 4.0 * static_cast<double>(TablebaseIndex(*variant).size()) / (1 << 30);
  const double haveGiB = static_cast<double>(sysconf(_SC_PHYS_PAGES)) * sysconf(_SC_PAGESIZE) / (1 << 30);
  if (needGiB > 0.9 * haveGiB) {
    std::fprintf(stderr, "error: building %s needs about %.1f GiB of memory, this machine has %.1f GiB\n",
                 variant->name().c_str(), needGiB, haveGiB);
    return 1;
  }

  std::fprintf(stderr, "building %s with %d threads -> %s\n", variant->name().c_str(), threads, out.c_str());
  const auto start = Clock::now();
  ProgressLine line;
  auto result = solveRetrograde(*variant, threads, [&](const std::string& p, uint64_t d, uint64_t t) { line(p, d, t); });
  line.end();
  if (!result.ok()) return fail(result.status());
  const double solved = seconds(start);
  if (absl::Status s = writeTablebaseFile(out, *variant, *result); !s.ok()) return fail(s);
  const RetrogradeStats& st = result->stats;
  std::printf("variant      %s\n", variant->name().c_str());
  printCounts(st.states, st.terminal, st.wins, st.draws, st.losses, st.start, st.maxDistance);
  std::printf("solve time   %.1f s\nwall time    %.1f s\n", solved, seconds(start));
  std::printf("peak memory  %ld MiB\n", peakRssMiB());
  std::printf("file         %s (%llu bytes)\n", out.c_str(),
              static_cast<unsigned long long>(sizeof(TbHeader) + result->codes.size()));
  return 0;
}

int info(const std::vector<std::string>& args) {
  if (args.size() != 1) return usage("info takes one FILE");
  const auto start = Clock::now();
  auto tb = TablebaseFile::open(args[0]);
  if (!tb.ok()) return fail(tb.status());
  const TbHeader& h = (*tb)->header();
  std::printf("file         %s\n", args[0].c_str());
  std::printf("format       version %u\n", h.version);
  std::printf("variant      %s\n", (*tb)->variant().name().c_str());
  std::printf("entries      %llu\n", static_cast<unsigned long long>(h.entries));
  printCounts(h.states, h.terminal, h.wins, h.draws, h.losses, h.startCode, h.maxDistance);
  std::printf("checksum     %016llx (checked in %.2f s)\n", static_cast<unsigned long long>(h.checksum),
              seconds(start));
  return 0;
}

int probe(const std::vector<std::string>& args) {
  if (args.size() < 2) return usage("probe takes FILE and POSITION");
  auto tb = TablebaseFile::open(args[0]);
  if (!tb.ok()) return fail(tb.status());
  std::string text = args[1];
  for (size_t i = 2; i < args.size(); ++i) text += " " + args[i];
  auto board = parsePosition((*tb)->variant(), text);
  if (!board.ok()) return fail(board.status());
  TbState st;
  if (!(*tb)->index().toState(*board, &st)) return fail(absl::InvalidArgumentError("position breaks the piece counts"));
  const uint8_t code = (*tb)->codeOf(st);
  std::printf("position %s: %s\n", positionToString(*board).c_str(), valueText(code).c_str());
  if (code == tbcode::kNone) {
    std::printf("(not reachable from the start)\n");
    return 1;
  }
  // Each move, valued for the mover: a child lost in d is a win in d+1.
  struct Line {
    Move move;
    int rank;  // larger is better for the mover
    std::string text;
  };
  std::vector<Line> lines;
  MoveList moves;
  generateMoves(*board, moves);
  for (Move m : moves) {
    Board b = *board;
    b.makeMove(m);
    TbState cs;
    const uint8_t c = (*tb)->index().toState(b, &cs) ? (*tb)->codeOf(cs) : tbcode::kNone;
    int rank;
    std::string value;
    if (tbcode::isLoss(c)) {
      rank = 1000 - tbcode::distance(c);
      value = absl::StrCat("win in ", tbcode::distance(c) + 1);
    } else if (tbcode::isWin(c)) {
      rank = -1000 + tbcode::distance(c);
      value = absl::StrCat("loss in ", tbcode::distance(c) + 1);
    } else {
      rank = 0;
      value = c == tbcode::kDraw ? "draw" : "unknown";
    }
    lines.push_back({m, rank, absl::StrCat(moveToString(m, board->variant()), " ", value)});
  }
  std::stable_sort(lines.begin(), lines.end(), [](const Line& a, const Line& b) { return a.rank > b.rank; });
  for (const Line& l : lines) std::printf("  %s\n", l.text.c_str());
  return 0;
}

int verify(const std::vector<std::string>& args) {
  std::string file;
  int threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--threads" && i + 1 < args.size()) {
      if (!parseThreads(args[++i], &threads)) return usage("--threads takes a number 1..256");
    } else if (file.empty()) {
      file = args[i];
    } else {
      return usage(absl::StrCat("unexpected argument '", args[i], "'"));
    }
  }
  if (file.empty()) return usage("verify takes a FILE");
  const auto start = Clock::now();
  auto tb = TablebaseFile::open(file);
  if (!tb.ok()) return fail(tb.status());
  ProgressLine line;
  const absl::Status s = verifyTablebase(**tb, threads, [&](uint64_t d, uint64_t t) { line("verify", d, t); });
  line.end();
  if (!s.ok()) return fail(s);
  std::printf("verified %s: %llu states, start %s, in %.1f s\n", file.c_str(),
              static_cast<unsigned long long>((*tb)->header().states), valueText((*tb)->header().startCode).c_str(),
              seconds(start));
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) return usage("no command");
  const std::string command = argv[1];
  const std::vector<std::string> args(argv + 2, argv + argc);
  if (command == "build") return build(args);
  if (command == "info") return info(args);
  if (command == "probe") return probe(args);
  if (command == "verify") return verify(args);
  if (command == "-h" || command == "--help") return usage("help requested"), 0;
  return usage(absl::StrCat("unknown command '", command, "'"));
}
