#include "protocol/worker_transport.h"

#include <chrono>
#include <utility>

#include "engine/line_buffer.h"

namespace gobblet {

namespace {

// A working search gives the worker its turn at most this often: often
// enough that `stop` takes effect at once for a person, rarely enough that
// the turns cost little (each unwinds and rewinds the search's stack).
constexpr int64_t kWorkingYieldNs = 20'000'000;

int64_t nowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// Would handling this line during a job wait for the job to end?
bool waitsForTheJob(const std::string& line) {
  const absl::StatusOr<Command> c = parseCommand(line);
  return c.ok() && (c->kind == CommandKind::kGo || c->kind == CommandKind::kNewGame || c->kind == CommandKind::kQuit);
}

}  // namespace

WorkerTransport::WorkerTransport(TakeLine take, Session::Output output, Yield yield, SessionConfig config)
    : take_(std::move(take)), yield_(std::move(yield)), session_(std::move(output), std::move(config)) {
  setHostYield([this](YieldKind kind) { yieldToWorker(kind); });
}

bool WorkerTransport::run() {
  while (!quit_) {
    std::optional<std::string> line;
    if (!waiting_.empty()) {
      line = std::move(waiting_.front());
      waiting_.pop_front();
    } else {
      line = take_();
    }
    if (!line) break;
    handle(*line);
  }
  return !quit_;
}

void WorkerTransport::handle(const std::string& line) {
  inJob_ = true;
  handleNow(line);
  inJob_ = false;
}

void WorkerTransport::handleNow(const std::string& line) {
  if (line.size() > kMaxLineBytes)
    session_.reportOverlongLine(kMaxLineBytes);  // as the other transports do
  else if (!session_.handleLine(line))
    quit_ = true;
}

void WorkerTransport::yieldToWorker(YieldKind kind) {
  if (!inJob_ || quit_) return;
  const int64_t now = nowNs();
  if (kind == YieldKind::kWorking && now - lastYieldNs_ < kWorkingYieldNs) return;
  yield_(kind);
  lastYieldNs_ = nowNs();
  while (std::optional<std::string> line = take_()) waiting_.push_back(std::move(*line));
  // In order: what the native engine's input thread would handle while the
  // job runs is handled now; the first line that would wait for the job
  // stops it, and it and every line after it wait until the job has ended.
  while (!waiting_.empty() && !quit_) {
    if (waitsForTheJob(waiting_.front())) {
      session_.handleLine("stop");
      return;
    }
    const std::string line = std::move(waiting_.front());
    waiting_.pop_front();
    handleNow(line);
  }
}

}  // namespace gobblet
