#include "tools/datagen/self_play.h"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <map>
#include <system_error>
#include <mutex>
#include <random>
#include <thread>
#include <unordered_set>

#include "absl/strings/str_cat.h"
#include "match/openings.h"
#include "search/eval_file.h"
#include "search/tactics.h"

namespace gobblet::datagen {
namespace {

// The seed of game `game`'s opening generator (splitmix64 of both).
uint64_t gameSeed(uint64_t seed, uint64_t game) {
  uint64_t z = seed + 0x9E3779B97F4A7C15ull * (game + 1);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

int8_t resultFor(GameResult result, int player) {
  if (result == GameResult::kPlayer1Wins) return player == 0 ? 1 : -1;
  if (result == GameResult::kPlayer2Wins) return player == 1 ? 1 : -1;
  return 0;
}

// The search of one move. A `stop` set while it searches ends the search
// at once (Cancelled): the search runs on its own thread, and this one,
// waiting for its move, passes the stop on to it.
absl::StatusOr<Search::Result> searchMove(Search& search, const Game& game, const SearchLimits& limits,
                                          const std::atomic<bool>* stop) {
  if (!stop) return search.searchSync(game, limits);
  std::mutex mutex;
  std::condition_variable answered;
  bool done = false;
  Search::Result result;
  SearchCallbacks callbacks;
  callbacks.onInfo = [&result](const SearchInfo& info) { result.info = info; };
  callbacks.onError = [&result](const std::string& error) { result.error = error; };
  callbacks.onBestMove = [&](Move best, Move) {
    std::lock_guard lock(mutex);
    result.best = best;
    done = true;
    answered.notify_all();
  };
  search.go(game, limits, std::move(callbacks));
  for (;;) {
    std::unique_lock lock(mutex);
    if (answered.wait_for(lock, std::chrono::milliseconds(20), [&done] { return done; })) break;
    lock.unlock();
    if (stop->load()) search.stop();
  }
  search.wait();
  if (stop->load()) return absl::CancelledError("stopped");
  return result;
}

}  // namespace

absl::StatusOr<PlayedGame> playGame(const DataSettings& settings, uint64_t game, Search& search,
                                    const std::atomic<bool>* stop) {
  std::mt19937_64 rng(gameSeed(settings.seed, game));
  auto opening = match::randomOpening(settings.variant, static_cast<int>(settings.randomPlies), rng, "datagen");
  if (!opening.ok()) return opening.status();
  Game played(opening->start);
  for (Move m : opening->moves) played.play(m);

  SearchLimits limits;
  limits.nodes = settings.nodes;
  limits.depth = static_cast<int>(settings.depth);
  search.newGame();
  PlayedGame out;
  while (played.result() == GameResult::kNone) {
    if (played.moves().size() >= settings.plyLimit) {
      out.reachedPlyLimit = true;
      break;
    }
    if (stop && stop->load()) return absl::CancelledError("stopped");
    auto move = searchMove(search, played, limits, stop);
    if (!move.ok()) return move.status();
    const Search::Result& searched = *move;
    if (searched.best.isNone())
      return absl::InternalError(
          absl::StrCat("game ", game, ": the search gave no move", searched.error.empty() ? "" : ": ", searched.error));
    PositionRecord r;
    Board board = played.position();
    setPosition(r, board);
    const SearchScore& score = searched.info.score;
    r.score = static_cast<int16_t>(std::clamp(score.value, -32000, 32000));
    r.flags = static_cast<uint8_t>((score.isMate ? PositionRecord::kDecided : 0) |
                                   (isQuiet(board) ? PositionRecord::kQuiet : 0));
    r.depth = static_cast<uint8_t>(std::clamp(searched.info.depth, 0, 255));
    r.ply = static_cast<uint16_t>(played.moves().size());
    r.game = static_cast<uint32_t>(game);
    r.bestMove = searched.best.raw();
    out.records.push_back(r);
    out.keys.push_back(played.position().key());
    played.play(searched.best);
  }
  out.result = out.reachedPlyLimit ? GameResult::kDraw : played.result();
  for (PositionRecord& r : out.records) r.result = resultFor(out.result, r.sideToMove);
  return out;
}

absl::StatusOr<Progress> generate(TrainingDataWriter& writer, const GenerateOptions& options) {
  const auto began = std::chrono::steady_clock::now();
  const DataSettings settings = writer.settings();
  if ((options.net ? netFingerprint(*options.net) : 0) != settings.net)
    return absl::InvalidArgumentError("the net given is not the one the file's settings name");
  if (options.net && !netEvaluates(settings.variant))
    return absl::InvalidArgumentError(absl::StrCat("a net evaluates 4x4 Gobblet only, not ", settings.variant.name()));
  Progress progress;
  progress.gamesFinished = writer.gamesFinished();
  progress.records = writer.records();
  if (progress.gamesFinished >= options.games) return progress;

  std::unordered_set<uint64_t> written(writer.existingKeys().begin(), writer.existingKeys().end());
  std::mutex mutex;
  std::condition_variable changed;
  std::map<uint64_t, absl::StatusOr<PlayedGame>> done;  // played, not yet written
  uint64_t nextGame = writer.gamesFinished();
  bool ending = false;  // the writer failed or stop was asked: workers take no more games
  // Games may run at most this far ahead of the one to write (bounds `done`).
  const uint64_t window = 4 * static_cast<uint64_t>(std::max(options.threads, 1));

  auto stopAsked = [&options] { return options.stop && options.stop->load(); };
  auto worker = [&] {
    Search search;
    SearchOptions searchOptions;
    searchOptions.threads = 1;
    searchOptions.hashMiB = static_cast<int>(settings.hashMiB);
    searchOptions.net = options.net;
    const absl::Status set = search.setOptions(searchOptions);
    for (;;) {
      uint64_t game;
      {
        std::unique_lock lock(mutex);
        changed.wait(lock,
                     [&] { return ending || nextGame >= options.games || nextGame < progress.gamesFinished + window; });
        if (ending || nextGame >= options.games) return;
        game = nextGame++;
      }
      absl::StatusOr<PlayedGame> played = set.ok() ? playGame(settings, game, search, options.stop) : set;
      std::lock_guard lock(mutex);
      done.emplace(game, std::move(played));
      changed.notify_all();
    }
  };
  std::vector<std::thread> workers;
  absl::Status failure;
  for (int i = 0; i < std::max(options.threads, 1); ++i) {
    try {
      workers.emplace_back(worker);
    } catch (const std::system_error& e) {
      // Fewer threads than asked play the same games; none is a failure.
      if (workers.empty()) return absl::ResourceExhaustedError(absl::StrCat("the system refused a thread: ", e.what()));
      break;
    }
  }

  for (;;) {
    std::unique_lock lock(mutex);
    changed.wait_for(lock, std::chrono::milliseconds(100),
                     [&] { return done.count(progress.gamesFinished) > 0 || stopAsked(); });
    if (stopAsked()) {
      progress.stopped = true;
      break;
    }
    auto it = done.find(progress.gamesFinished);
    if (it == done.end()) continue;
    absl::StatusOr<PlayedGame> played = std::move(it->second);
    done.erase(it);
    lock.unlock();
    if (!played.ok()) {
      failure = played.status();
      break;
    }
    std::vector<PositionRecord> fresh;
    for (size_t i = 0; i < played->records.size(); ++i) {
      if (!written.insert(played->keys[i]).second) {
        ++progress.duplicates;
        continue;
      }
      fresh.push_back(played->records[i]);
      if (played->records[i].flags & PositionRecord::kDecided) ++progress.decided;
    }
    if (absl::Status appended = writer.appendGame(fresh); !appended.ok()) {
      failure = appended;
      break;
    }
    if (played->result == GameResult::kPlayer1Wins)
      ++progress.wins[0];
    else if (played->result == GameResult::kPlayer2Wins)
      ++progress.wins[1];
    else
      ++progress.draws;
    lock.lock();
    progress.gamesFinished = writer.gamesFinished();
    progress.records = writer.records();
    changed.notify_all();
    lock.unlock();
    progress.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
    if (options.onProgress) options.onProgress(progress);
    if (progress.gamesFinished >= options.games) break;
  }
  {
    std::lock_guard lock(mutex);
    ending = true;
    changed.notify_all();
  }
  for (std::thread& t : workers) t.join();
  progress.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
  if (!failure.ok()) return failure;
  return progress;
}

}  // namespace gobblet::datagen
