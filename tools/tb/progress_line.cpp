#include "progress_line.h"

#include <unistd.h>

#include "absl/strings/str_cat.h"

namespace gobblet {

namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point since) { return std::chrono::duration<double>(Clock::now() - since).count(); }

std::string duration(double s) {
  const int t = static_cast<int>(s + 0.5);
  return t >= 60 ? absl::StrCat(t / 60, "m", t % 60 < 10 ? "0" : "", t % 60, "s") : absl::StrCat(t, "s");
}

}  // namespace

ProgressLine::ProgressLine(FILE* out) : out_(out), terminal_(::isatty(::fileno(out)) == 1) {}

void ProgressLine::operator()(const std::string& phase, uint64_t done, uint64_t total) {
  if (phase != phase_) {
    end();
    phase_ = phase;
    start_ = lastPrint_ = Clock::now();
    done_ = done, total_ = total;
    print(false);
    return;
  }
  done_ = done, total_ = total;
  if (secondsSince(lastPrint_) >= (terminal_ ? kTerminalIntervalSeconds : kLogIntervalSeconds)) print(false);
}

void ProgressLine::end() {
  if (phase_.empty()) return;
  print(true);  // the phase's last state, also when its first report was its last
  if (terminal_) std::fprintf(out_, "\n");
  std::fflush(out_);
  phase_.clear();
}

void ProgressLine::print(bool final) {
  lastPrint_ = Clock::now();
  const double t = secondsSince(start_), f = total_ ? static_cast<double>(done_) / total_ : 1.0;
  const bool settled = t > 1 && f > 0.001;  // no rate or ETA from the first instants
  const std::string rate = settled ? absl::StrCat(static_cast<int>(done_ / t / 1e5) / 10.0) : "?";
  const std::string eta = final ? "0s" : settled ? duration(t / f - t) : "?";
  std::fprintf(out_, "%s%-6s %5.1f%%  %s M entries/s  elapsed %s  ETA %s%s", terminal_ ? "\r" : "", phase_.c_str(),
               100 * f, rate.c_str(), duration(t).c_str(), eta.c_str(), terminal_ ? "   " : "\n");
  std::fflush(out_);
}

}  // namespace gobblet
