#include "server/session_reaper.h"

#include "server/process_memory.h"

namespace gobblet {

SessionReaper::SessionReaper() : thread_([this] { run(); }) {}

SessionReaper::~SessionReaper() {
  {
    std::lock_guard lock(mutex_);
    quit_ = true;
  }
  wake_.notify_one();
  thread_.join();
}

void SessionReaper::retire(std::unique_ptr<Session> session, std::function<void()> then) {
  {
    std::lock_guard lock(mutex_);
    jobs_.push_back({std::move(session), std::move(then)});
  }
  wake_.notify_one();
}

void SessionReaper::run() {
  for (;;) {
    Job job;
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [this] { return quit_ || !jobs_.empty(); });
      if (jobs_.empty()) return;  // quit_ and nothing left
      job = std::move(jobs_.front());
      jobs_.pop_front();
    }
    if (job.session) job.session->close();
    job.session.reset();
    if (job.then) job.then();
    bool drained = false;
    {
      std::lock_guard lock(mutex_);
      drained = jobs_.empty();
    }
    // What the sessions freed below mapLargeBlocksApart()'s bound stays in
    // glibc's arenas until trimmed: once no session waits, it goes back.
    if (drained) returnFreedMemory();
  }
}

}  // namespace gobblet
