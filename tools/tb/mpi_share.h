// gobblet-tb build under mpirun: the tablebase library's BuildShare
// (tablebase/tablebase.h) over MPI. Compiled only when CMake finds MPI
// (tools/tb/CMakeLists.txt); a gobblet-tb without MPI refuses to run as one
// of several ranks (tools/command_line/mpi_launch.h) instead of building the
// whole table once per rank.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "tablebase/tablebase.h"

namespace gobblet::tb {

#ifdef GOBBLET_TB_MPI
// MPI_COMM_WORLD as a BuildShare. The exchanges go through a staging
// buffer of at most kStageBytes (the ranges of a level are packed into it,
// so a level of thousands of small slices costs a few messages, and a
// range of 40 GB is sent in pieces MPI's int counts can hold):
//   orWords     MPI_Allreduce(MPI_BOR) of the packed words;
//   shareBytes  per owner, MPI_Bcast of its packed ranges from it;
//   agree       MPI_Allreduce(MPI_MIN) of "the lowest failing rank".
class MpiShare : public BuildShare {
 public:
  static constexpr uint64_t kStageBytes = uint64_t{64} << 20;
  // MPI_Init_thread (MPI_THREAD_FUNNELED: the solver's threads never call
  // MPI); MPI_Finalize when destroyed. An error if MPI cannot start.
  static absl::StatusOr<std::unique_ptr<MpiShare>> start();
  ~MpiShare() override;

  int rank() const override { return rank_; }
  int ranks() const override { return ranks_; }
  absl::Status orWords(uint64_t* words, const std::vector<Range>& ranges) override;
  absl::Status shareBytes(uint8_t* bytes, const std::vector<Range>& ranges) override;
  absl::Status agree(const absl::Status& mine) override;
  absl::Status reduceWords(uint64_t* values, size_t n, Reduce op) override;  // MPI_Allreduce
  // MPI_Alltoall of the counts, then MPI_Isend and MPI_Irecv of each
  // rank's words (tag 1) straight from and into their vectors.
  absl::Status exchangeWords(const std::vector<std::vector<uint64_t>>& toEach,
                             std::vector<uint64_t>* received) override;
  // MPI_Send / MPI_Recv (tag 0), in pieces of at most 1 GiB.
  absl::Status sendBytes(int to, const uint8_t* bytes, uint64_t size) override;
  absl::Status receiveBytes(int from, uint8_t* bytes, uint64_t size) override;

  // Payload bytes this rank sent and received in the exchanges (a word
  // OR-ed counts once each way; a broadcast range counts once out on its
  // owner, once in on each other rank). MPI's own traffic (a ring or a
  // tree forwarding pieces) is not counted.
  uint64_t bytesOut() const { return out_; }
  uint64_t bytesIn() const { return in_; }
  // `value` of every rank, on every rank (for the summary: memory and
  // bytes per rank).
  std::vector<uint64_t> gather(uint64_t value);
  // Ends every rank at once after an error the others cannot hear of
  // (MPI_Abort): an exception on the calling thread.
  [[noreturn]] void abort(int code);

 private:
  MpiShare(int rank, int ranks) : rank_(rank), ranks_(ranks) {}
  int rank_, ranks_;
  int agreements_ = 0;  // calls of agree(), for GOBBLET_TB_TEST_FAIL_RANK
  int failRank_ = -1;   // GOBBLET_TB_TEST_FAIL_RANK: this rank fails at its fourth agreement, in the
                        // middle of the solve (a 3x3 build: after the output path and the codes array, the
                        // second exchange of slices; a 4x4 build: the parts solved, before the file)
  int killRank_ = -1;   // GOBBLET_TB_TEST_KILL_RANK: this rank dies of SIGKILL there instead
  uint64_t out_ = 0, in_ = 0;
  std::vector<uint8_t> stage_;
};
#endif

}  // namespace gobblet::tb
