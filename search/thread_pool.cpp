#include "thread_pool.h"

#include <cassert>
#include <new>
#include <string>
#include <system_error>

#include "host_yield.h"

namespace gobblet {

ThreadPool::~ThreadPool() { endThreadsFrom(0); }

absl::Status ThreadPool::resize(int threads) {
  assert(threads >= 1);
  if constexpr (!kHasThreads) {
    std::lock_guard lock(mutex_);
    slots_.resize(1);
    return absl::OkStatus();
  }
  if (threads < size()) endThreadsFrom(threads);
  std::lock_guard lock(mutex_);
  // Slots live in a vector that may grow: a thread finds its slot by index
  // under the mutex, never by a reference kept across a wait.
  // A thread that cannot be made (std::system_error; std::bad_alloc for
  // its state) ends the growth: the pool keeps the threads it has.
  std::string refusal;
  try {
    slots_.resize(static_cast<size_t>(threads));
    threads_.reserve(static_cast<size_t>(threads));  // push_back cannot throw with a thread in hand
    while (size() < threads) {
      const int slot = size();
      std::function<void()> work = [this, slot] { loop(slot); };
      threads_.push_back(start_ ? start_(std::move(work)) : std::thread(std::move(work)));
    }
  } catch (const std::system_error& e) {
    refusal = e.what();
  } catch (const std::bad_alloc& e) {
    refusal = e.what();
  }
  if (refusal.empty()) return absl::OkStatus();
  slots_.resize(threads_.size());  // no thread will ever take the others
  return absl::ResourceExhaustedError("the system refused a thread (" + refusal + "): " + std::to_string(size()) +
                                      " of " + std::to_string(threads) + " started");
}

void ThreadPool::endThreadsFrom(int first) {
  {
    std::lock_guard lock(mutex_);
    for (size_t i = static_cast<size_t>(first); i < slots_.size(); ++i) {
      assert(!slots_[i].busy);
      slots_[i].quit = true;
    }
  }
  wake_.notify_all();
  for (size_t i = static_cast<size_t>(first); i < threads_.size(); ++i) threads_[i].join();
  threads_.resize(static_cast<size_t>(first));
  std::lock_guard lock(mutex_);
  slots_.resize(static_cast<size_t>(first));
}

void ThreadPool::start(int slot, std::function<void()> job) {
  if constexpr (!kHasThreads) {
    assert(slot == 0);
    job();
    return;
  }
  {
    std::lock_guard lock(mutex_);
    assert(slot >= 0 && slot < static_cast<int>(slots_.size()) && !slots_[slot].busy);
    slots_[slot].job = std::move(job);
    slots_[slot].busy = true;
  }
  wake_.notify_all();
}

void ThreadPool::waitFor(int slot) {
  std::unique_lock lock(mutex_);
  done_.wait(lock, [&] { return slot >= static_cast<int>(slots_.size()) || !slots_[slot].busy; });
}

void ThreadPool::loop(int slot) {
  std::unique_lock lock(mutex_);
  for (;;) {
    wake_.wait(lock, [&] { return slots_[slot].quit || slots_[slot].job; });
    if (slots_[slot].quit) return;
    std::function<void()> job = std::move(slots_[slot].job);
    slots_[slot].job = nullptr;
    lock.unlock();
    job();
    job = nullptr;  // what it holds goes before the slot is free again
    lock.lock();
    slots_[slot].busy = false;
    done_.notify_all();
  }
}

}  // namespace gobblet
