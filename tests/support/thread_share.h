// A build over ranks (tablebase.h: BuildShare) without MPI: the ranks are
// threads of a test, exchanging through shared memory, so that the split
// of the builders is tested wherever the tests run (mpi_build_test runs
// the real thing under mpirun).
#pragma once

#include <algorithm>
#include <barrier>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "tablebase/file.h"
#include "tablebase/retrograde4.h"
#include "tablebase/tablebase.h"

namespace gobblet::tb {

// What the ranks of one solve share: a barrier, and each rank's arrays
// while an exchange runs.
struct World {
  explicit World(int n) : ranks(n), sync(n), words(n), bytes(n), failing(n), toEach(n), mail(n * n) {}
  int ranks;
  std::barrier<> sync;
  std::vector<uint64_t*> words;
  std::vector<uint8_t*> bytes;
  std::vector<int> failing;
  std::vector<const std::vector<std::vector<uint64_t>>*> toEach;
  // mail[from * ranks + to]: the messages sent and not yet taken. A send
  // waits until its message is taken, as a large MPI_Send does.
  std::vector<std::deque<std::vector<uint8_t>>> mail;
  std::mutex mailLock;
  std::condition_variable mailMoved;
  uint64_t wordsOred = 0, bytesShared = 0;  // by rank 0, for the test
  // A bad message: at this call of exchangeWords (counted from 1; 0:
  // never) rank 1 receives a word fewer than the others sent it.
  int shortExchange = 0;
};

// A rank of a World. `failAt`: the call of agree() at which this rank
// reports a failure of its own (0: never).
class ThreadShare : public BuildShare {
 public:
  ThreadShare(World& world, int rank, int failAt = 0) : world_(world), rank_(rank), failAt_(failAt) {}
  int rank() const override { return rank_; }
  int ranks() const override { return world_.ranks; }
  absl::Status orWords(uint64_t* words, const std::vector<Range>& ranges) override {
    world_.words[rank_] = words;
    world_.sync.arrive_and_wait();
    if (rank_ == 0)
      for (const Range& r : ranges)
        for (uint64_t w = r.offset; w < r.offset + r.size; ++w) {
          uint64_t v = 0;
          for (uint64_t* other : world_.words) v |= other[w];
          for (uint64_t* other : world_.words) other[w] = v;
          ++world_.wordsOred;
        }
    world_.sync.arrive_and_wait();
    return absl::OkStatus();
  }
  absl::Status shareBytes(uint8_t* bytes, const std::vector<Range>& ranges) override {
    world_.bytes[rank_] = bytes;
    world_.sync.arrive_and_wait();  // every owner's bytes are final and in place
    for (const Range& r : ranges) {
      if (r.owner != rank_) std::copy_n(world_.bytes[r.owner] + r.offset, r.size, bytes + r.offset);
      if (rank_ == 0) world_.bytesShared += r.size;
    }
    world_.sync.arrive_and_wait();
    return absl::OkStatus();
  }
  absl::Status agree(const absl::Status& given) override {
    absl::Status mine = given;
    if (++calls_ == failAt_) mine = absl::InternalError(absl::StrCat("rank ", rank_, " fails"));
    world_.failing[rank_] = mine.ok() ? world_.ranks : rank_;
    world_.sync.arrive_and_wait();
    const int lowest = *std::min_element(world_.failing.begin(), world_.failing.end());
    world_.sync.arrive_and_wait();
    if (!mine.ok()) return mine;
    if (lowest < world_.ranks) return absl::AbortedError(absl::StrCat("rank ", lowest, " failed"));
    return absl::OkStatus();
  }
  absl::Status reduceWords(uint64_t* values, size_t n, Reduce op) override {
    world_.words[rank_] = values;
    world_.sync.arrive_and_wait();
    std::vector<uint64_t> result(n, 0);
    for (size_t i = 0; i < n; ++i)
      for (uint64_t* other : world_.words)
        result[i] = op == Reduce::kSum ? result[i] + other[i] : std::max(result[i], other[i]);
    world_.sync.arrive_and_wait();  // every rank has read every rank's values
    std::copy(result.begin(), result.end(), values);
    return absl::OkStatus();
  }
  absl::Status exchangeWords(const std::vector<std::vector<uint64_t>>& toEach,
                             std::vector<uint64_t>* received) override {
    world_.toEach[rank_] = &toEach;
    world_.sync.arrive_and_wait();
    received->clear();
    for (int r = 0; r < world_.ranks; ++r)
      if (r != rank_)
        received->insert(received->end(), (*world_.toEach[r])[rank_].begin(), (*world_.toEach[r])[rank_].end());
    world_.sync.arrive_and_wait();
    if (++exchanges_ == world_.shortExchange && rank_ == 1 && !received->empty()) received->pop_back();
    return absl::OkStatus();
  }
  absl::Status sendBytes(int to, const uint8_t* bytes, uint64_t size) override {
    std::unique_lock lock(world_.mailLock);
    auto& box = world_.mail[rank_ * world_.ranks + to];
    box.emplace_back(bytes, bytes + size);
    world_.mailMoved.notify_all();
    const size_t mine = box.size();  // taken once the box holds fewer (messages leave from the front)
    world_.mailMoved.wait(lock, [&] { return box.size() < mine; });
    return absl::OkStatus();
  }
  absl::Status receiveBytes(int from, uint8_t* bytes, uint64_t size) override {
    std::unique_lock lock(world_.mailLock);
    auto& box = world_.mail[from * world_.ranks + rank_];
    world_.mailMoved.wait(lock, [&] { return !box.empty(); });
    if (box.front().size() != size)
      return absl::InternalError(absl::StrCat("rank ", rank_, " expected ", size, " bytes, got ", box.front().size()));
    std::copy(box.front().begin(), box.front().end(), bytes);
    box.pop_front();
    world_.mailMoved.notify_all();
    return absl::OkStatus();
  }

 private:
  World& world_;
  int rank_, failAt_, calls_ = 0, exchanges_ = 0;
};

// Runs part(share) on `ranks` threads, each a rank of one World; every
// rank's answer, in rank order.
template <typename Result, typename Part>
std::vector<Result> onRanks(int ranks, Part&& part, int shortExchange = 0) {
  World world(ranks);
  world.shortExchange = shortExchange;
  std::vector<Result> results;
  for (int r = 0; r < ranks; ++r) results.emplace_back(absl::UnknownError("not run"));
  std::vector<std::thread> pool;
  for (int r = 0; r < ranks; ++r)
    pool.emplace_back([&, r] {
      ThreadShare share(world, r);
      results[r] = part(share);
    });
  for (auto& t : pool) t.join();
  return results;
}

// A member of the 4x4 family built over `ranks` thread ranks into `path`
// (solve4Part in rounds of `roundWords`, then writeFileOfRanks in batches
// of `batchBlocks`): each rank's part, or the first error.
inline std::vector<absl::StatusOr<SolvedPart>> build4OnRanks(const Variant& v, int ranks, const std::string& path,
                                                             uint64_t roundWords = kRoundWords,
                                                             uint64_t batchBlocks = kWriteBatchBlocks) {
  return onRanks<absl::StatusOr<SolvedPart>>(ranks, [&](ThreadShare& share) -> absl::StatusOr<SolvedPart> {
    absl::StatusOr<SolvedPart> part = solve4Part(v, 1 + share.rank() % 2, share, {}, roundWords);
    if (!part.ok()) return part.status();
    if (absl::Status s = writeFileOfRanks(path, v, *part, 2, share, batchBlocks); !s.ok()) return s;
    return part;
  });
}

}  // namespace gobblet::tb
