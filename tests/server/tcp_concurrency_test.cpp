// Many concurrent TCP clients against one server process: most play short
// games to the end and check every answer against the rules core; some send
// garbage first (and must still be served correctly); some disconnect in the
// middle of a search. Every well-behaved client must finish its game with
// the right result, and the server must still serve afterwards.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <barrier>
#include <mutex>
#include <thread>

#include "absl/strings/str_split.h"
#include "engine/game.h"
#include "engine/notation.h"
#include "tests/support/engine_client.h"

namespace gobblet {
namespace {

using testing::EngineServer;
using testing::Ms;
using testing::TcpClient;

// ThreadSanitizer slows the server several times over: a smaller crowd,
// and longer waits, check the same interleavings there.
#if defined(__SANITIZE_THREAD__)
constexpr int kScale = 4, kSlowdown = 5;
#else
constexpr int kScale = 1, kSlowdown = 1;
#endif
constexpr int kPlayers = 170 / kScale;     // well-behaved clients
constexpr int kGarbage = 20 / kScale;      // garbage first, then a proper game
constexpr int kDisconnects = 20 / kScale;  // leave in the middle of a search
constexpr int kMaxPlies = 20;

struct Figures {
  std::atomic<int> gamesCompleted{0}, failures{0}, moves{0}, disconnects{0};
  std::atomic<int64_t> maxGoMicros{0}, totalGoMicros{0};
  std::mutex mutex;
  std::vector<std::string> errors;
  void fail(const std::string& why) {
    ++failures;
    std::lock_guard lock(mutex);
    if (errors.size() < 10) errors.push_back(why);
  }
};

// Plays one game against the engine (engine moves for both sides), checking
// each bestmove for legality and the final queries against Game.
bool playGame(TcpClient& c, int id, Figures& f) {
  const NamedVariant& named = kNamedVariants[id % std::size(kNamedVariants)];
  const Variant variant = named.variant;
  c.send("setoption name Variant value " + std::string(named.name));
  c.send("uginewgame");
  Game game{Board(variant)};
  std::string moves;
  for (int ply = 0; ply < kMaxPlies && game.result() == GameResult::kNone; ++ply) {
    c.send("position startpos" + (moves.empty() ? "" : " moves" + moves));
    const auto t0 = testing::Clock::now();
    c.send(id % 2 ? "go depth 2" : "go nodes 300");
    auto best = c.until("bestmove", Ms(30000 * kSlowdown));
    const int64_t us = std::chrono::duration_cast<std::chrono::microseconds>(testing::Clock::now() - t0).count();
    f.totalGoMicros += us;
    for (int64_t m = f.maxGoMicros.load(); us > m && !f.maxGoMicros.compare_exchange_weak(m, us);) {
    }
    if (!best) return f.fail("client " + std::to_string(id) + ": no bestmove"), false;
    const std::vector<std::string> words = absl::StrSplit(*best, ' ');
    if (words.size() < 2 || !game.play(words[1]).ok())
      return f.fail("client " + std::to_string(id) + ": illegal " + *best), false;
    moves += " " + words[1];
    ++f.moves;
  }
  c.send("position startpos" + (moves.empty() ? "" : " moves" + moves));
  c.send("query gameover");
  c.send("query result");
  const auto over = c.line(Ms(10000 * kSlowdown)), result = c.line(Ms(10000 * kSlowdown));
  const std::string expectOver = std::string("response ") + (game.result() != GameResult::kNone ? "true" : "false");
  const std::string expectResult = std::string("response ") + resultWord(game.result());
  if (over != expectOver || result != expectResult)
    return f.fail("client " + std::to_string(id) + ": queries " + over.value_or("?") + " / " + result.value_or("?") +
                  ", expected " + expectOver + " / " + expectResult),
           false;
  return true;
}

TEST(TcpConcurrency, HundredsOfClientsPlayWhileOthersMisbehave) {
  EngineServer server({"--max-sessions", "400", "--max-hash", "4"});
  ASSERT_NE(server.port(), 0);
  const int total = kPlayers + kGarbage + kDisconnects;
  Figures f;
  std::barrier start(total);
  std::vector<std::thread> threads;
  const auto t0 = testing::Clock::now();
  for (int id = 0; id < total; ++id)
    threads.emplace_back([&, id] {
      TcpClient c(server.port());
      start.arrive_and_wait();  // everyone connected before anyone plays
      if (!c.connected()) return f.fail("client " + std::to_string(id) + ": cannot connect");
      c.send("setoption name Hash value 1");
      if (id < kPlayers) {
        if (playGame(c, id, f)) ++f.gamesCompleted;
      } else if (id < kPlayers + kGarbage) {
        c.sendRaw(std::string("\x00\x01\xff\xfe junk", 9) + "\n");
        c.sendRaw(std::string(70 * 1024, '#') + "\n");
        c.send("go depth banana");
        for (int i = 0; i < 3; ++i) {
          auto l = c.until("info string error", Ms(10000 * kSlowdown));
          if (!l) return f.fail("client " + std::to_string(id) + ": garbage not reported");
        }
        if (playGame(c, id, f)) ++f.gamesCompleted;
      } else {
        c.send("go infinite");
        if (!c.until("info depth", Ms(10000 * kSlowdown)))
          return f.fail("client " + std::to_string(id) + ": no search");
        if (id % 2)
          c.abort();
        else
          c.close();
        ++f.disconnects;
      }
    });
  for (auto& t : threads) t.join();
  const double seconds = std::chrono::duration<double>(testing::Clock::now() - t0).count();
  std::printf("tcp concurrency: %d clients (%d players, %d garbage senders, %d disconnecting mid-search)\n", total,
              kPlayers, kGarbage, kDisconnects);
  std::printf("  %d games completed, %d moves, %d disconnects, %d failures in %.2f s\n", f.gamesCompleted.load(),
              f.moves.load(), f.disconnects.load(), f.failures.load(), seconds);
  std::printf("  go -> bestmove: mean %.1f ms, max %.1f ms\n",
              f.moves ? f.totalGoMicros.load() / 1000.0 / f.moves.load() : 0.0, f.maxGoMicros.load() / 1000.0);
  for (const auto& e : f.errors) ADD_FAILURE() << e;
  EXPECT_EQ(f.gamesCompleted.load(), kPlayers + kGarbage);
  EXPECT_EQ(f.disconnects.load(), kDisconnects);
  EXPECT_EQ(f.failures.load(), 0);
  // The server survived and still serves.
  TcpClient after(server.port());
  after.send("isready");
  EXPECT_EQ(after.line(), "readyok");
}

}  // namespace
}  // namespace gobblet
