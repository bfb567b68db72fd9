// The net (search/nnue/): the built-in net parses; a net file reads back as
// written and every damaged, cut, forged or foreign file is refused with
// its reason; the lazy accumulators of a search's walk are the refreshed
// ones; the evaluation is colour-blind; the search plays with the net. The
// arithmetic itself: nnue_kernels_test.cpp.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <future>
#include <functional>
#include <random>
#include <vector>

#include "engine/movegen.h"
#include "engine/notation.h"
#include "search/eval_file.h"
#include "search/nnue/accumulator_stack.h"
#include "search/nnue/network.h"
#include "search/nnue/unit_order.h"
#include "search/search.h"
#include "tests/support/scratch_dir.h"
#include "tests/support/whole_file.h"
#include "tests/support/paths.h"
#include "tests/support/random_positions.h"
#include "tests/search/random_net.h"

namespace gobblet::nnue {
namespace {

TEST(NnueNetwork, TheBuiltInNetParsesAndSaysWhatMadeIt) {
  const std::shared_ptr<const Network> net = builtInNet();
  ASSERT_NE(net, nullptr);
  EXPECT_NE(netDescription(*net).find("tools/nnue/train.py"), std::string::npos) << netDescription(*net);
  EXPECT_EQ(serializeNetwork(*net),
            std::string(readWholeFile(gobblet::testing::sourceDir() + "/search/nnue/default.gnn")));
}

// The positions of random games of 4x4 Gobblet (a fixed seed).
std::vector<Board> randomPositions(int games, unsigned seed) {
  return testing::randomGamePositions(Variant::gobblet(), games, 50, seed);
}

int evaluationOf(const Network& net, const Board& board) {
  Accumulator acc;
  refreshAccumulator(net, board, acc);
  return evaluate(net, acc, board.sideToMove());
}

// A parsed net has its hidden units in another order (unit_order.h): it
// writes back the same bytes and evaluates every position alike.
TEST(NnueNetwork, AFileReadsBackAsWritten) {
  const auto net = randomNet(1);
  const std::string bytes = serializeNetwork(*net);
  auto back = parseNetwork(bytes, "t.gnn");
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_NE((*back)->fileUnit, fileOrder()) << "parsing orders the units";
  EXPECT_EQ((*back)->b1, net->b1);
  EXPECT_EQ((*back)->b2, net->b2);
  EXPECT_EQ((*back)->w2, net->w2);
  EXPECT_EQ((*back)->description, net->description);
  EXPECT_EQ(serializeNetwork(**back), bytes);
  for (const Board& board : randomPositions(20, 3))
    ASSERT_EQ(evaluationOf(**back, board), evaluationOf(*net, board)) << positionToString(board);
}

// Any order of the hidden units changes no evaluation and no byte of the
// file; unitsByActivity's order is one, and in it fewer groups of four
// inputs hold an active unit than in the file's (the groups the hidden
// layer meets).
TEST(NnueNetwork, TheUnitsOrderChangesNoEvaluation) {
  const std::shared_ptr<const Network> builtIn = builtInNet();
  ASSERT_NE(builtIn, nullptr);
  const std::string bytes = serializeNetwork(*builtIn);
  std::mt19937_64 rng(8);
  for (int trial = 0; trial < 3; ++trial) {
    auto net = randomNet(40 + trial);
    const auto original = std::make_unique<Network>(*net);
    UnitOrder order = fileOrder();
    std::shuffle(order.begin(), order.end(), rng);
    reorderHiddenUnits(*net, order);
    EXPECT_EQ(serializeNetwork(*net), serializeNetwork(*original));
    for (const Board& board : randomPositions(10, 50 + trial))
      ASSERT_EQ(evaluationOf(*net, board), evaluationOf(*original, board)) << positionToString(board);
  }

  // The built-in net in the file's order, and as parsed (sorted).
  auto inFileOrder = std::make_unique<Network>(*builtIn);
  UnitOrder back;
  for (int p = 0; p < kHidden; ++p) back[builtIn->fileUnit[p]] = static_cast<uint8_t>(p);
  reorderHiddenUnits(*inFileOrder, back);
  ASSERT_EQ(inFileOrder->fileUnit, fileOrder());
  EXPECT_EQ(serializeNetwork(*inFileOrder), bytes);
  EXPECT_EQ(unitsByActivity(*inFileOrder), builtIn->fileUnit) << "parsing sorts the units by activity";
  const auto groupsMet = [](const Network& net, const std::vector<Board>& boards) {
    long met = 0;
    for (const Board& board : boards) {
      Accumulator acc;
      refreshAccumulator(net, board, acc);
      for (const auto& row : acc.values)
        for (int i = 0; i < kHidden; i += 4)
          met += std::any_of(row.begin() + i, row.begin() + i + 4, [](int16_t v) { return v > 0; });
    }
    return met;
  };
  const std::vector<Board> boards = randomPositions(40, 77);
  const long sorted = groupsMet(*builtIn, boards), unsorted = groupsMet(*inFileOrder, boards);
  std::printf("groups of four with an active unit: %ld in the file's order, %ld sorted (%zu positions)\n", unsorted,
              sorted, boards.size());
  EXPECT_LT(sorted * 10, unsorted * 9) << "at least a tenth fewer";
  for (const Board& board : boards) ASSERT_EQ(evaluationOf(*builtIn, board), evaluationOf(*inFileOrder, board));
}

TEST(NnueNetwork, DamagedCutForgedAndForeignFilesAreRefusedWithTheReason) {
  const std::string good = serializeNetwork(*randomNet(2));
  auto refusal = [](const std::string& bytes) {
    auto parsed = parseNetwork(bytes, "bad.gnn");
    EXPECT_FALSE(parsed.ok());
    return std::string(parsed.status().message());
  };
  auto with = [&good](size_t at, char value) {
    std::string bytes = good;
    bytes[at] = value;
    return bytes;
  };
  EXPECT_NE(refusal("").find("not a gobblet net"), std::string::npos);
  EXPECT_NE(refusal(with(0, 'X')).find("not a gobblet net"), std::string::npos);
  EXPECT_NE(refusal(with(8, 2)).find("net format version 2"), std::string::npos);
  EXPECT_NE(refusal(with(16, 64)).find("a 288x64x32 net; this engine runs 288x128x32"), std::string::npos);
  EXPECT_NE(refusal(with(24, 'X')).find("a net for 'Xobblet'"), std::string::npos);
  EXPECT_NE(refusal(with(48, 1)).find("bytes of weights"), std::string::npos);
  EXPECT_NE(refusal(good.substr(0, good.size() - 1)).find("cut short"), std::string::npos);
  EXPECT_NE(refusal(good + "x").find("bytes after the weights"), std::string::npos);
  EXPECT_NE(refusal(with(good.size() - 3, static_cast<char>(good[good.size() - 3] ^ 1))).find("checksum"),
            std::string::npos);
  std::string longText = good;
  longText[57] = 8;  // a description of 2048 + its own bytes
  EXPECT_NE(refusal(longText).find("description of"), std::string::npos);
  // Weights whose sum could overflow an accumulator, with a correct checksum.
  auto big = randomNet(3);
  for (int f = 0; f < kFeatures; ++f) big->w0[f * kHidden + 5] = 1000;
  EXPECT_NE(refusal(serializeNetwork(*big)).find("hidden unit 5 could overflow"), std::string::npos);

  // Biases that could overflow the int32 sums, with a correct checksum.
  for (const int32_t b2 : {INT32_MAX, INT32_MIN, kMaxOutputBias + 1}) {
    auto extreme = randomNet(12);
    extreme->b2 = b2;
    EXPECT_NE(refusal(serializeNetwork(*extreme)).find("output bias"), std::string::npos) << b2;
  }
  auto hiddenBias = randomNet(13);
  hiddenBias->b1[7] = -kMaxHiddenBias - 1;
  EXPECT_NE(refusal(serializeNetwork(*hiddenBias)).find("hidden bias 7"), std::string::npos);

  testing::ScratchDir dir;
  EXPECT_EQ(loadNetFile(dir.file("none.gnn")).status().code(), absl::StatusCode::kNotFound);
  writeWholeFile(dir.file("huge.gnn"), good + std::string(kMaxNetFileBytes, '\0'));
  auto huge = loadNetFile(dir.file("huge.gnn"));
  ASSERT_FALSE(huge.ok());
  EXPECT_NE(huge.status().message().find("larger than"), std::string::npos) << huge.status();
  writeWholeFile(dir.file("good.gnn"), good);
  EXPECT_TRUE(loadNetFile(dir.file("good.gnn")).ok());
}

// A FIFO (or anything but a regular file) named as a net is refused at
// once: opening it must not wait for a writer (EvalFile is set on the
// engine's input thread). If the load blocks, the FIFO's writing end is
// opened to release it, and the test fails.
TEST(NnueNetwork, AFifoOrADirectoryIsRefusedWithoutBlocking) {
  testing::ScratchDir dir("nnue_fifo");
  const std::string fifo = dir.file("fifo.gnn");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  for (const std::string& path : {fifo, dir.path()}) {
    auto pending = std::async(std::launch::async, [&path] { return loadNetFile(path).status(); });
    if (pending.wait_for(std::chrono::seconds(10)) != std::future_status::ready) {
      ADD_FAILURE() << "loadNetFile('" << path << "') blocked";
      const int writer = ::open(path.c_str(), O_WRONLY | O_NONBLOCK);
      if (writer >= 0) ::close(writer);
    }
    const absl::Status status = pending.get();
    EXPECT_NE(status.message().find("not a regular file"), std::string::npos) << status;
  }
}

// The lazy accumulators along a search's walk: from random roots (drops
// and board moves), moves and passes are pushed, taken back and others
// pushed from the same ply, and the accumulators are asked for at random
// nodes only (so that a request computes several plies, or none): each is
// the refreshed one of its position.
TEST(NnueAccumulatorStack, TheLazyAccumulatorsAreTheRefreshedOnes) {
  const auto net = randomNet(8);
  std::mt19937_64 rng(9);
  constexpr int kMaxPly = 12;
  int checked = 0, passes = 0, boardMoves = 0;
  for (int walk = 0; walk < 30; ++walk) {
    Board root(Variant::gobblet());
    for (int ply = static_cast<int>(rng() % 24); ply > 0 && root.winner() == kNoWinner; --ply) {
      MoveList list;
      generateMoves(root, list);
      root.makeMove(list[static_cast<int>(rng() % static_cast<uint64_t>(list.size()))]);
    }
    if (root.winner() != kNoWinner) continue;
    AccumulatorStack stack;
    stack.start(*net, root, kMaxPly);
    std::function<void(const Board&, int)> visit = [&](const Board& board, int ply) {
      if (rng() % 3 == 0) {
        Accumulator fresh;
        refreshAccumulator(*net, board, fresh);
        ASSERT_EQ(stack.at(ply, board).values, fresh.values) << "walk " << walk << " ply " << ply;
        ++checked;
      }
      if (ply == kMaxPly || board.winner() != kNoWinner) return;
      MoveList list;
      generateMoves(board, list);
      for (int child = 1 + static_cast<int>(rng() % 2); child > 0 && list.size() > 0; --child) {
        Board next = board;
        if (rng() % 8 == 0) {  // a pass, as the null move makes
          stack.push(ply, board, Move::none());
          next.setSideToMove(board.sideToMove() ^ 1);
          ++passes;
        } else {
          const Move m = list[static_cast<int>(rng() % static_cast<uint64_t>(list.size()))];
          stack.push(ply, board, m);
          next.makeMove(m);
          boardMoves += !m.isDrop();
        }
        visit(next, ply + 1);
      }
    };
    visit(root, 0);
  }
  EXPECT_GT(checked, 300);
  EXPECT_GT(passes, 30);
  EXPECT_GT(boardMoves, 100);
}

TEST(NnueEvaluation, APositionAndItsColourSwapEvaluateAlike) {
  const auto net = randomNet(6);
  std::mt19937_64 rng(7);
  Board board(Variant::gobblet());
  int differentFromZero = 0;
  for (int ply = 0; ply < 30 && board.winner() == kNoWinner; ++ply) {
    MoveList list;
    generateMoves(board, list);
    board.makeMove(list[static_cast<int>(rng() % static_cast<uint64_t>(list.size()))]);
    const int value = netEvaluation(*net, board);
    EXPECT_EQ(value, netEvaluation(*net, board.colorSwapped())) << ply;
    differentFromZero += value != 0;
  }
  EXPECT_GT(differentFromZero, 10);
}

TEST(NnueSearch, TheSearchPlaysWithTheNetAndItsScoresAreTheNets) {
  Search search;
  SearchOptions options;
  options.net = builtInNet();
  ASSERT_TRUE(search.setOptions(options).ok());
  Game game{Board(Variant::gobblet())};
  const Search::Result r = search.searchSync(game, SearchLimits{.depth = 1});
  ASSERT_FALSE(r.best.isNone());
  // Depth 1 over the root's moves: the best score is the best of the net's
  // (negated) evaluations of the positions after them (no threats at the start).
  int best = -100000;
  MoveList list;
  generateMoves(game.position(), list);
  for (Move m : list) {
    Board after = game.position();
    after.makeMove(m);
    best = std::max(best, -netEvaluation(*options.net, after));
  }
  EXPECT_EQ(r.info.score.value, best);
  // Without the net, the hand-written evaluation's.
  options.net = nullptr;
  ASSERT_TRUE(search.setOptions(options).ok());
  EXPECT_NE(search.searchSync(game, SearchLimits{.depth = 1}).info.score.value, best);
}

// A net whose every value is extreme (the largest output bias a file may
// hold, and position-dependent sums far past any real evaluation): the
// search sees values clamped within +-kMaxEvaluation, so it ends at once at
// depth 1 after a move, and reports no score beyond the evaluation's range
// and no win, whatever the depth.
TEST(NnueSearch, AnExtremeNetGivesClampedValuesAndTheSearchEnds) {
  // 0, 1: the output bias at its bounds; 2: output weights at their bounds,
  // of alternating signs (values of about +-1,600,000 that differ by position).
  for (int kind = 0; kind < 3; ++kind) {
    auto extreme = randomNet(14);
    extreme->b2 = kind == 0 ? kMaxOutputBias : kind == 1 ? -kMaxOutputBias : 0;
    for (int j = 0; j < kL1; ++j)
      extreme->w2[j] = static_cast<int16_t>(kind == 0 ? 32767 : kind == 1 ? -32767 : j % 2 ? 32767 : -32767);
    auto parsed = parseNetwork(serializeNetwork(*extreme), "extreme.gnn");
    ASSERT_TRUE(parsed.ok()) << parsed.status();
    std::shared_ptr<const Network> net = std::move(*parsed);
    Board start(Variant::gobblet());
    if (kind < 2) {
      EXPECT_EQ(netEvaluation(*net, start), kind == 0 ? kMaxEvaluation : -kMaxEvaluation);
    }
    Search search;
    SearchOptions options;
    options.net = net;
    ASSERT_TRUE(search.setOptions(options).ok());
    Game game{start};
    for (const int depth : {5, 1}) {
      // The node limit only guards the test: the search must end by depth.
      const Search::Result r = search.searchSync(game, SearchLimits{.depth = depth, .nodes = 5'000'000});
      EXPECT_FALSE(r.best.isNone());
      EXPECT_EQ(r.info.depth, depth) << "net " << kind;
      EXPECT_FALSE(r.info.score.isMate) << "net " << kind << " depth " << depth << " " << r.info.score.value;
      EXPECT_LE(std::abs(r.info.score.value), kMaxEvaluation) << "net " << kind << " depth " << depth;
      EXPECT_LT(r.info.nodes, 5'000'000u) << "net " << kind << " depth " << depth;
      MoveList list;
      generateMoves(game.position(), list);
      game.play(list[0]);
    }
  }
}

}  // namespace
}  // namespace gobblet::nnue
