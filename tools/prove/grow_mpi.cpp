#include "grow_mpi.h"

#include <mpi.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "engine/canonical.h"
#include "engine/notation.h"
#include "tools/command_line/mpi_agree.h"
#include "grow_command.h"

namespace gobblet::prove_program {

namespace {

constexpr int kJobTag = 1, kResultTag = 2;

// Sends `text` to `to` with `tag` (blocking; messages are small beside a proof's work).
void sendText(int to, int tag, const std::string& text) {
  MPI_Send(text.data(), static_cast<int>(text.size()), MPI_CHAR, to, tag, MPI_COMM_WORLD);
}

// Receives a message of `tag` whose arrival `status` announced.
std::string receiveText(MPI_Status status, int tag) {
  int count = 0;
  MPI_Get_count(&status, MPI_CHAR, &count);
  std::string text(static_cast<size_t>(count), '\0');
  MPI_Recv(text.data(), count, MPI_CHAR, status.MPI_SOURCE, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  return text;
}

// A test hook: GOBBLET_GROW_TEST_RANK=R:garbage makes rank R send a result
// whose certificate has a byte changed; R:die makes it exit at once.
std::string testFault(int rank) {
  const char* hook = std::getenv("GOBBLET_GROW_TEST_RANK");
  if (hook == nullptr) return "";
  const std::vector<std::string> parts = absl::StrSplit(hook, ':');
  int r;
  if (parts.size() != 2 || !absl::SimpleAtoi(parts[0], &r) || r != rank) return "";
  return parts[1];
}

// A proving rank: positions from rank 0 until it says stop.
int work(const GrowRequest& request, int rank) {  // (the budget comes with each job)
  const std::string fault = testFault(rank);
  // Opened at the first position: rank 0 has made the file by then.
  absl::StatusOr<std::unique_ptr<proof::ProofDatabase>> database = absl::UnavailableError("not open yet");
  for (;;) {
    MPI_Status status;
    for (int arrived = 0;;) {  // (polled: a blocking probe spins a core that rank 0 may need)
      MPI_Iprobe(0, kJobTag, MPI_COMM_WORLD, &arrived, &status);
      if (arrived) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    const std::string job = receiveText(status, kJobTag);
    if (job.empty()) return 0;
    // "<seq> <nodes> <hash MiB> <position>"
    const std::vector<std::string> f = absl::StrSplit(job, absl::MaxSplits(' ', 3));
    const std::string seq = f[0];
    uint64_t nodes = 0, hash = 0;
    const auto error = [&](absl::string_view why) { sendText(0, kResultTag, absl::StrCat(seq, " error ", why)); };
    if (!database.ok()) database = proof::ProofDatabase::open(request.db, proof::ProofDatabase::Mode::kRead);
    if (!database.ok()) {
      error(
          absl::StrCat("cannot read the database (every rank reads the file rank 0 writes: it must be on a "
                       "filesystem they all see): ",
                       database.status().message()));
      continue;
    }
    if (auto refreshed = (*database)->refresh(); !refreshed.ok()) {
      error(refreshed.message());
      continue;
    }
    if (f.size() != 4 || !absl::SimpleAtoi(f[1], &nodes) || !absl::SimpleAtoi(f[2], &hash)) {
      error("a job that does not read");
      continue;
    }
    auto position = parsePosition((*database)->variant(), f[3]);
    if (!position.ok()) {
      error(position.status().message());
      continue;
    }
    if (fault == "die") _exit(3);
    auto attempt = proof::attemptGrowItem(*position, database->get(), nodes, static_cast<size_t>(hash));
    if (!attempt.ok()) {
      error(attempt.status().message());
      continue;
    }
    std::string result = absl::StrCat(seq, " ", proof::outcomeWord(attempt->outcome), " ", attempt->nodes, "\n");
    if (attempt->certificate) {
      auto bytes = proof::encodeCertificate(*attempt->certificate);
      if (!bytes.ok()) {
        error(bytes.status().message());
        continue;
      }
      if (fault == "garbage") (*bytes)[bytes->size() / 2] ^= 1;
      result += *bytes;
    }
    sendText(0, kResultTag, result);
  }
}

// Rank 0's reading of a result from `rank`, which was handed `item`.
absl::StatusOr<proof::GrowAttempt> readResult(const std::string& text, const proof::GrowItem& item,
                                              const Variant& variant) {
  const size_t newline = text.find('\n');
  const std::string head = text.substr(0, newline);
  const std::vector<std::string> f = absl::StrSplit(head, absl::MaxSplits(' ', 2));
  uint64_t seq;
  if (f.size() < 2 || !absl::SimpleAtoi(f[0], &seq)) return absl::DataLossError("a result that does not read");
  if (seq != item.seq)
    return absl::DataLossError(absl::StrCat("a result for position number ", seq, ", handed number ", item.seq));
  if (f[1] == "error") return absl::AbortedError(f.size() > 2 ? f[2] : "an error");
  proof::GrowAttempt attempt;
  if (f.size() != 3 || !absl::SimpleAtoi(f[2], &attempt.nodes) || newline == std::string::npos)
    return absl::DataLossError("a result that does not read");
  const std::string& word = f[1];
  attempt.outcome = word == "win"    ? proof::Outcome::kWin
                    : word == "loss" ? proof::Outcome::kLoss
                    : word == "draw" ? proof::Outcome::kDraw
                                     : proof::Outcome::kUnknown;
  if (attempt.outcome == proof::Outcome::kUnknown && word != "unknown")
    return absl::DataLossError("a result with the outcome \"" + word.substr(0, 16) + "\"");
  const bool proved = attempt.outcome == proof::Outcome::kWin || attempt.outcome == proof::Outcome::kLoss;
  const std::string bytes = text.substr(newline + 1);
  if (!proved) {
    if (!bytes.empty()) return absl::DataLossError("a certificate with a result that is not a win or a loss");
    return attempt;
  }
  std::istringstream in(bytes);
  auto certificate = proof::readCertificate(in);
  if (!certificate.ok())
    return absl::DataLossError(absl::StrCat("a certificate that does not read: ", certificate.status().message()));
  auto root = parsePosition(variant, certificate->position);
  if (!root.ok() || certificate->variant != variant.name() || canonicalBoard(*root) != item.position)
    return absl::DataLossError(
        absl::StrCat("a certificate of ", certificate->position, ", handed ", positionToString(item.position)));
  if ((certificate->winner == 0) != (attempt.outcome == proof::Outcome::kWin))
    return absl::DataLossError("a certificate whose winner is not the result's");
  attempt.certificate = std::move(*certificate);
  return attempt;
}

// Rank 0: hands out the positions, stores the results.
int coordinate(GrowRun& run, int ranks) {
  std::vector<int> idle;
  for (int r = ranks - 1; r >= 1; --r) idle.push_back(r);
  std::map<int, proof::GrowItem> busy;
  absl::Status failed;
  bool handing = true;
  while (failed.ok()) {
    while (handing && !idle.empty()) {
      if (run.stopping()) {
        handing = false;
        break;
      }
      std::optional<proof::GrowItem> item = run.frontier().next();
      if (!item) break;
      if (run.settleKnown(*item)) continue;
      const int to = idle.back();
      idle.pop_back();
      sendText(to, kJobTag,
               absl::StrCat(item->seq, " ", run.budget().nodes, " ", run.budget().hashMiB, " ",
                            positionToString(item->position)));
      busy.emplace(to, *item);
    }
    if (busy.empty()) break;
    int arrived = 0;
    MPI_Status status;
    MPI_Iprobe(MPI_ANY_SOURCE, kResultTag, MPI_COMM_WORLD, &arrived, &status);
    if (!arrived) {
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
      continue;
    }
    const int from = status.MPI_SOURCE;
    const std::string text = receiveText(status, kResultTag);
    const auto handed = busy.find(from);
    if (handed == busy.end()) {
      failed = absl::DataLossError(absl::StrCat("rank ", from, " sent a result when it had no position"));
      break;
    }
    const proof::GrowItem item = handed->second;
    busy.erase(handed);
    idle.push_back(from);
    auto attempt = readResult(text, item, run.frontier().variant());
    if (attempt.ok()) {
      if (absl::Status stored = run.settle(item, *attempt); !stored.ok()) attempt = stored;
    }
    if (!attempt.ok())
      failed = absl::Status(attempt.status().code(),
                            absl::StrCat("rank ", from, ", position ", positionToString(item.position), ": ",
                                         attempt.status().message()));
  }
  const absl::Status saved = run.finish(!failed.ok());
  if (!failed.ok()) {
    growFailure(absl::StrCat(failed.message(),
                             "; the database holds every proof stored before, the frontier is "
                             "saved: ending every rank"));
    std::fflush(stderr);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  for (int r = 1; r < ranks; ++r) sendText(r, kJobTag, "");
  if (!saved.ok()) return growFailure(saved.message());
  const int signal = gGrowSignal.load();
  return signal != 0 ? 128 + signal : 0;
}

}  // namespace

int runGrowRanks(const cli::Arguments& args, const cli::UsageFn& usage) {
  int provided = 0;
  int argc = 0;
  char** argv = nullptr;
  if (MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS)
    return growFailure("MPI does not start");
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  catchGrowSignals();  // a rank stops when rank 0 says so; rank 0 after the positions under way
  auto request = readGrowRequest(args);
  int status = 0;
  // Every rank must run the same build on the same database and budget.
  const std::string what = request.ok() ? absl::StrCat("gobblet-prove grow --db ", request->db) : "a bad command line";
  if (absl::Status same = cli::ranksAgree(what); !same.ok()) {
    status = rank == 0 ? growFailure(same.message()) : 1;
  } else if (!request.ok()) {
    status = rank == 0 ? usage(request.status().message()) : 2;
  } else if (rank != 0) {
    status = work(*request, rank);
  } else {
    auto run = openGrowRun(*request);
    if (!run.ok()) {
      status = usage(run.status().message());
      for (int r = 1; r < ranks; ++r) sendText(r, kJobTag, "");
    } else {
      status = coordinate(**run, ranks);
    }
  }
  MPI_Finalize();
  return status;
}

}  // namespace gobblet::prove_program
