// Engine::searchBlocking(): the search of go() as one call that returns the
// best move and the last line; stop() from another thread ends it, also a
// stop() that comes while its search is starting; a decided position
// answers at once, whatever the limits; ponder, and a game without a
// position, are refused.
#include <gtest/gtest.h>

#include <atomic>
#include <future>
#include <system_error>
#include <thread>
#include <vector>

#include "engine/movegen.h"
#include "protocol/engine.h"
#include "protocol/score_words.h"  // (the scores compared)

namespace gobblet {
namespace {

SearchLimits depthLimit(int depth) {
  SearchLimits limits;
  limits.depth = depth;
  return limits;
}

bool isLegalMove(const Board& board, Move move) {
  MoveList moves;
  generateMoves(board, moves);
  for (Move m : moves)
    if (m == move) return true;
  return false;
}

// The same answer as go() with the same limits (one thread, a fresh engine
// each: the search is deterministic), with go()'s last line and every line
// go() reports passed to onInfo as well.
TEST(EngineSearchBlocking, AnswersAsGoDoesWithTheLastLine) {
  std::promise<std::pair<Move, Move>> goAnswer;
  SearchInfo goLast;
  {
    Engine engine(EngineLimits{}, nullptr);
    ASSERT_TRUE(engine.setPosition(std::nullopt, {"X@b2"}).ok());
    SearchCallbacks callbacks;
    callbacks.onInfo = [&goLast](const SearchInfo& info) { goLast = info; };
    callbacks.onBestMove = [&goAnswer](Move best, Move ponder) { goAnswer.set_value({best, ponder}); };
    engine.go(depthLimit(4), std::move(callbacks));
    goAnswer.get_future().wait();
  }  // (closed: every callback has been made)

  Engine engine(EngineLimits{}, nullptr);
  ASSERT_TRUE(engine.setPosition(std::nullopt, {"X@b2"}).ok());
  std::vector<SearchInfo> seen;
  const absl::StatusOr<SearchResult> result =
      engine.searchBlocking(depthLimit(4), [&seen](const SearchInfo& info) { seen.push_back(info); });
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_FALSE(engine.busy()) << "the search has ended when the call returns";
  ASSERT_FALSE(result->best.isNone());
  EXPECT_TRUE(isLegalMove(engine.game().position(), result->best));
  EXPECT_TRUE(result->warnings.empty());

  const SearchInfo& last = result->info;
  EXPECT_TRUE(last.isFinal);
  EXPECT_EQ(last.depth, 4);
  EXPECT_GT(last.nodes, 0u);
  EXPECT_EQ(last.wdl.win + last.wdl.draw + last.wdl.loss, 1000);
  ASSERT_FALSE(last.pv.empty());
  EXPECT_EQ(last.pv.front(), result->best);
  // go()'s answer and its last line, move for move and node for node.
  ASSERT_FALSE(goLast.pv.empty());
  EXPECT_EQ(result->best, goLast.pv.front());
  EXPECT_EQ(last.nodes, goLast.nodes);
  EXPECT_EQ(scoreWords(last.score), scoreWords(goLast.score));
  EXPECT_EQ(last.pv, goLast.pv);

  ASSERT_FALSE(seen.empty());
  EXPECT_TRUE(seen.back().isFinal) << "onInfo sees the last line too";
  EXPECT_EQ(seen.back().nodes, last.nodes);
  ASSERT_EQ(result->lines.size(), 1u);  // MultiPV 1
  EXPECT_EQ(result->lines[0].depth, 4);
  EXPECT_FALSE(result->lines[0].isFinal);
}

TEST(EngineSearchBlocking, KeepsTheLatestLineOfEachMultiPvRank) {
  Engine engine(EngineLimits{}, nullptr);
  ASSERT_TRUE(engine.setOption("MultiPV", "3", true).ok());
  ASSERT_TRUE(engine.setPosition(std::nullopt, {}).ok());
  const absl::StatusOr<SearchResult> result = engine.searchBlocking(depthLimit(3));
  ASSERT_TRUE(result.ok()) << result.status();
  ASSERT_EQ(result->lines.size(), 3u);
  std::vector<Move> firstMoves;
  for (size_t k = 0; k < result->lines.size(); ++k) {
    const SearchInfo& line = result->lines[k];
    EXPECT_EQ(line.multiPv, static_cast<int>(k) + 1);
    EXPECT_EQ(line.depth, 3);
    ASSERT_FALSE(line.pv.empty());
    firstMoves.push_back(line.pv.front());
  }
  EXPECT_EQ(firstMoves[0], result->best);
  EXPECT_NE(firstMoves[0], firstMoves[1]);
  EXPECT_NE(firstMoves[1], firstMoves[2]);
  EXPECT_NE(firstMoves[0], firstMoves[2]);
}

// An infinite search ends at a stop() from another thread, with its best move.
TEST(EngineSearchBlocking, AStopFromAnotherThreadEndsAnInfiniteSearch) {
  Engine engine(EngineLimits{}, nullptr);
  ASSERT_TRUE(engine.setPosition(std::nullopt, {}).ok());
  std::promise<void> firstLine;
  std::atomic<bool> told{false};
  std::thread stopper([&] {
    firstLine.get_future().wait();
    engine.stop();
  });
  SearchLimits limits;
  limits.infinite = true;
  const absl::StatusOr<SearchResult> result = engine.searchBlocking(limits, [&](const SearchInfo&) {
    if (!told.exchange(true)) firstLine.set_value();
  });
  stopper.join();
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_FALSE(result->best.isNone());
  EXPECT_TRUE(result->info.isFinal);
  EXPECT_GE(result->info.depth, 1);
}

// A stop() that comes after the call began but before its search started
// is kept: the infinite search ends. (The stop comes from the hook that
// makes the search's threads, which runs inside the call just before the
// search starts.)
TEST(EngineSearchBlocking, AStopWhileTheSearchStartsIsKept) {
  Engine* engineSeen = nullptr;
  EngineLimits limits;
  std::atomic<int> stopsSent{0};
  limits.startThread = [&engineSeen, &stopsSent](std::function<void()> work) {
    if (engineSeen && stopsSent.fetch_add(1) == 0) engineSeen->stop();
    return std::thread(std::move(work));
  };
  Engine engine(limits, nullptr);
  engineSeen = &engine;
  ASSERT_TRUE(engine.setPosition(std::nullopt, {}).ok());
  SearchLimits infinite;
  infinite.infinite = true;
  const absl::StatusOr<SearchResult> result = engine.searchBlocking(infinite);
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(stopsSent.load(), 1) << "the search's thread was made elsewhere: the test tests nothing";
  EXPECT_FALSE(engine.busy());
}

TEST(EngineSearchBlocking, ADecidedPositionAnswersAtOnceWhateverTheLimits) {
  Engine engine(EngineLimits{}, nullptr);
  ASSERT_TRUE(engine.setOption("Variant", "tictactoe", true).ok());
  ASSERT_TRUE(engine.setPosition(std::nullopt, {"S@a1", "S@a2", "S@b1", "S@b2", "S@c1"}).ok());  // a line
  SearchLimits infinite;
  infinite.infinite = true;
  const absl::StatusOr<SearchResult> result = engine.searchBlocking(infinite);
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_TRUE(result->best.isNone());
  EXPECT_TRUE(result->ponder.isNone());
  EXPECT_TRUE(result->info.pv.empty());
  EXPECT_TRUE(result->lines.empty());
}

TEST(EngineSearchBlocking, PonderAndAMissingPositionAreRefused) {
  Engine engine(EngineLimits{}, nullptr);
  ASSERT_TRUE(engine.setPosition(std::nullopt, {}).ok());
  SearchLimits ponder;
  ponder.ponder = true;
  const absl::StatusOr<SearchResult> pondering = engine.searchBlocking(ponder);
  EXPECT_EQ(pondering.status().code(), absl::StatusCode::kInvalidArgument) << pondering.status();
  EXPECT_FALSE(engine.busy());

  EXPECT_FALSE(engine.setPosition(std::nullopt, {"X@z9"}).ok());
  const absl::StatusOr<SearchResult> refused = engine.searchBlocking(depthLimit(2));
  EXPECT_EQ(refused.status().code(), absl::StatusCode::kFailedPrecondition) << refused.status();
  EXPECT_NE(refused.status().message().find("no position"), std::string_view::npos) << refused.status();
}

// A search that go() started is ended first, and still gets its one best move.
TEST(EngineSearchBlocking, EndsASearchThatGoStarted) {
  Engine engine(EngineLimits{}, nullptr);
  ASSERT_TRUE(engine.setPosition(std::nullopt, {}).ok());
  std::atomic<int> goAnswers{0};
  SearchCallbacks callbacks;
  callbacks.onBestMove = [&goAnswers](Move, Move) { ++goAnswers; };
  SearchLimits infinite;
  infinite.infinite = true;
  engine.go(infinite, std::move(callbacks));
  const absl::StatusOr<SearchResult> result = engine.searchBlocking(depthLimit(2));
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(goAnswers.load(), 1);
  EXPECT_FALSE(result->best.isNone());
  EXPECT_EQ(result->info.depth, 2);
}

// A thread the system refuses: no search, the best move none, and why.
TEST(EngineSearchBlocking, ARefusedThreadIsAWarningAndNoMove) {
  EngineLimits limits;
  limits.startThread = [](std::function<void()>) -> std::thread {
    throw std::system_error(std::make_error_code(std::errc::resource_unavailable_try_again));
  };
  std::vector<std::string> notices;
  Engine engine(limits, [&notices](NoticeKind, const std::string& text) { notices.push_back(text); });
  ASSERT_TRUE(engine.setPosition(std::nullopt, {}).ok());
  const absl::StatusOr<SearchResult> result = engine.searchBlocking(depthLimit(2));
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_TRUE(result->best.isNone());
  ASSERT_FALSE(result->warnings.empty());
  EXPECT_NE(result->warnings.back().find("no search"), std::string::npos) << result->warnings.back();
}

}  // namespace
}  // namespace gobblet
