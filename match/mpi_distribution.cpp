#include "match/mpi_distribution.h"

#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <exception>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <thread>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "engine/game.h"
#include "engine/notation.h"
#include "engine/parallel_for.h"

namespace gobblet::match {

namespace {

enum Tag : int { kRequest = 1, kAssign = 2, kResult = 3, kDone = 4 };

void send(const std::string& text, int to, Tag tag) {
  MPI_Send(text.data(), static_cast<int>(text.size()), MPI_CHAR, to, tag, MPI_COMM_WORLD);
}

// Receives the message `status` announced.
std::string receive(const MPI_Status& status) {
  int count = 0;
  MPI_Get_count(&status, MPI_CHAR, &count);
  std::string text(static_cast<size_t>(count), '\0');
  MPI_Recv(text.data(), count, MPI_CHAR, status.MPI_SOURCE, status.MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  return text;
}

// A game as it travels to a worker: number, players, the opening's label,
// start position and moves, a line each.
std::string encodeGame(const DealtGame& dealt, const Variant& variant) {
  std::vector<std::string> moves;
  for (Move m : dealt.opening.moves) moves.push_back(moveToString(m, variant));
  return absl::StrCat(dealt.game.number, "\n", dealt.game.player1, "\n", dealt.game.player2, "\n", dealt.opening.label,
                      "\n", positionToString(dealt.opening.start), "\n", absl::StrJoin(moves, " "));
}

absl::StatusOr<DealtGame> decodeGame(const std::string& text, const Variant& variant, int engines) {
  const std::vector<std::string> lines = absl::StrSplit(text, '\n');
  const auto bad = [&](absl::string_view why) {
    return absl::InternalError(absl::StrCat("a game from rank 0 does not read (", why, ")"));
  };
  if (lines.size() != 6) return bad("not six lines");
  DealtGame dealt;
  if (!absl::SimpleAtoi(lines[0], &dealt.game.number) || !absl::SimpleAtoi(lines[1], &dealt.game.player1) ||
      !absl::SimpleAtoi(lines[2], &dealt.game.player2) || dealt.game.player1 < 0 || dealt.game.player1 >= engines ||
      dealt.game.player2 < 0 || dealt.game.player2 >= engines)
    return bad("number or players");
  auto start = parsePosition(variant, lines[4]);
  if (!start.ok()) return bad(start.status().message());
  Game game(*start);
  for (absl::string_view move : absl::StrSplit(lines[5], ' ', absl::SkipEmpty()))
    if (auto status = game.play(std::string_view(move.data(), move.size())); !status.ok()) return bad(status.message());
  dealt.opening = Opening{lines[3], *start, game.moves()};
  return dealt;
}

// What game_runner.cpp writes for PGN records: both players' limits.
std::string limitsText(const TournamentSettings& settings, const ScheduledGame& game) {
  const std::string a = settings.engines[game.player1].limits.describe(),
                    b = settings.engines[game.player2].limits.describe();
  return a == b ? a : absl::StrCat(a, " | ", b);
}

}  // namespace

absl::StatusOr<std::unique_ptr<MpiSession>> MpiSession::start(int& argc, char**& argv, Agreement agreement) {
  int provided = MPI_THREAD_SINGLE;
  if (MPI_Init_thread(&argc, &argv, MPI_THREAD_SERIALIZED, &provided) != MPI_SUCCESS)
    return absl::UnavailableError("MPI_Init_thread failed");
  std::unique_ptr<MpiSession> session(new MpiSession());
  session->agreement_ = std::move(agreement);
  MPI_Comm_rank(MPI_COMM_WORLD, &session->rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &session->size_);
  if (provided < MPI_THREAD_SERIALIZED && session->size_ > 1)
    return absl::UnavailableError(
        "the MPI library does not let threads take turns (MPI_THREAD_SERIALIZED), which the workers need");
  return session;
}

MpiSession::~MpiSession() {
  // Ended by an exception no one caught first: the other ranks may be
  // waiting for this one, and MPI_Finalize could wait for them.
  if (std::uncaught_exceptions() > 0) MPI_Abort(MPI_COMM_WORLD, 1);
  MPI_Finalize();
}

void MpiSession::abort(int code) {
  MPI_Abort(MPI_COMM_WORLD, code);
  std::abort();  // (MPI_Abort does not return)
}

absl::Status MpiSession::serve(const TournamentSettings* settings, GameDealer* dealer, const GameCallback* onGame) {
  std::map<int, ScheduledGame> underWay;  // by number
  absl::Status trouble;
  int done = 0;
  auto pause = std::chrono::microseconds(50);
  while (done < size_ - 1) {
    int ready = 0;
    MPI_Status status;
    MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &ready, &status);
    if (!ready) {
      // Quick answers while messages flow, at most 1 ms late when idle.
      std::this_thread::sleep_for(pause);
      pause = std::min(pause * 2, std::chrono::microseconds(1000));
      continue;
    }
    pause = std::chrono::microseconds(50);
    const std::string text = receive(status);
    const int from = status.MPI_SOURCE;
    if (status.MPI_TAG == kRequest) {
      std::optional<DealtGame> dealt = dealer != nullptr ? dealer->next() : std::nullopt;
      if (dealt) underWay[dealt->game.number] = dealt->game;
      send(dealt ? encodeGame(*dealt, settings->variant) : std::string(), from, kAssign);
    } else if (status.MPI_TAG == kResult) {
      auto record = parseRecord(text);
      const auto it = record.ok() ? underWay.find(record->number) : underWay.end();
      if (it == underWay.end()) {
        if (trouble.ok())
          trouble = absl::InternalError(absl::StrCat("rank ", from,
                                                     " sent a result that does not read or was not "
                                                     "handed out: ",
                                                     record.ok() ? text : record.status().message()));
        continue;
      }
      record->timeControl = limitsText(*settings, it->second);
      const TournamentState& state = dealer->finish(it->second, *record);
      underWay.erase(it);
      if (*onGame)
        if (absl::Status told = (*onGame)(*record, state); !told.ok()) dealer->fail(std::move(told));
    } else if (status.MPI_TAG == kDone) {
      ++done;
    }
  }
  return trouble;
}

absl::StatusOr<TournamentState> MpiSession::coordinate(const TournamentSettings& settings, const GameCallback& onGame) {
  auto dealer = GameDealer::create(settings);
  if (!dealer.ok()) {
    dismiss();
    return dealer.status();
  }
  if (absl::Status status = serve(&settings, dealer->get(), &onGame); !status.ok()) return status;
  if (!(*dealer)->failure().ok()) return (*dealer)->failure();
  return (*dealer)->state();
}

void MpiSession::dismiss() { (void)serve(nullptr, nullptr, nullptr); }

absl::Status MpiSession::work(const TournamentSettings& settings) {
  std::mutex mpi;  // the threads take turns at MPI
  absl::Status trouble;
  auto worker = [&] {
    WorkerEngines engines(settings);
    while (true) {
      std::string text;
      {
        std::lock_guard lock(mpi);
        if (!trouble.ok()) break;
        send("", 0, kRequest);
        MPI_Status status;
        MPI_Probe(0, kAssign, MPI_COMM_WORLD, &status);
        text = receive(status);
      }
      if (text.empty()) break;  // no game left
      auto dealt = decodeGame(text, settings.variant, static_cast<int>(settings.engines.size()));
      if (!dealt.ok()) {
        std::lock_guard lock(mpi);
        trouble = dealt.status();
        break;
      }
      const GameRecord record = engines.play(dealt->game, dealt->opening);
      std::lock_guard lock(mpi);
      send(formatRecord(record), 0, kResult);
    }
  };
  parallelFor(std::max(settings.concurrency, 0), settings.concurrency, [&](int, uint64_t) { worker(); });
  send("", 0, kDone);
  return trouble;
}

}  // namespace gobblet::match
