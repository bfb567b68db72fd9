// Tablebase tests: the builder against the independent brute-force solver
// (tests/support/brute_solver.h) state by state on small variants, the
// index and the builder's move generator against the rules core, symmetry
// invariance, the file format (refusal of wrong, truncated and corrupt
// files) and the independent verifier.
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <tuple>
#include <numeric>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "engine/movegen.h"
#include "engine/notation.h"
#include "tablebase/compare.h"
#include "tablebase/retrograde.h"
#include "tablebase/moves.h"
#include "tablebase/tablebase.h"
#include "tablebase/file.h"
#include "tablebase/index.h"
#include "tablebase/packed_codes.h"
#include "tablebase/verify.h"
#include "tests/support/engine_client.h"
#include "tests/support/brute_solver.h"
#include "tests/support/scratch_dir.h"
#include "tests/support/tablebase_vs_brute.h"
#include "tests/support/whole_file.h"
#include "tests/support/paths.h"
#include "tests/support/sanitizers.h"

namespace gobblet::tb {
namespace {

using testing::BruteSolver;
using testing::BruteValue;
using testing::buildTestFile;
using testing::expectSameAsBruteForce;
using testing::ScratchDir;

// Builds `variant` into a file of `dir` and opens it.
// ---- The index ---------------------------------------------------------------

// Every canonical number decodes to a state that numbers back to it, and
// the 8 images of the state share the number.
// build() takes 1 to kMaxBuildThreads threads, as gobblet-tb and Python do;
// beyond, an error before any work (100,000 aborted the Python interpreter).
TEST(TablebaseBuild, ThreadsOutOfRangeAreRefusedBeforeAnyWork) {
  const Variant variant = *Variant::parse("tictactoe");
  for (int threads : {0, -1, kMaxBuildThreads + 1, 100000}) {
    BuildOptions options;
    options.threads = threads;
    const absl::StatusOr<TableCounts> built = build(variant, "", options);
    ASSERT_FALSE(built.ok()) << threads;
    EXPECT_EQ(built.status().message(), "threads " + std::to_string(threads) + ": from 1 to 256");
  }
  BuildOptions options;
  options.threads = kMaxBuildThreads;
  EXPECT_TRUE(build(variant, "", options).ok());
}

TEST(TablebaseIndex, RoundTripAndSymmetry) {
  for (const char* name : {"tictactoe", "3x3:2,2,1", "3x3:3,1,1"}) {
    const Variant v = *Variant::parse(name);
    const Index index(v);
    const Geometry& g = geometry(3);
    uint64_t canonical = 0;
    for (int s = 0; s < static_cast<int>(index.slices().size()); ++s) {
      const auto& sl = index.slices()[s];
      for (uint64_t i = 0; i < sl.size; i += 7) {
        State st;
        if (!index.stateAt(s, i, &st)) continue;
        ++canonical;
        ASSERT_EQ(index.indexOf(st), sl.offset + i);
        ASSERT_EQ(index.sliceOfIndex(sl.offset + i), s);
        for (int sym = 0; sym < 8; ++sym) {
          State t;
          for (int z = 0; z < 3; ++z) {
            t.ours[z] = g.transform(sym, st.ours[z]);
            t.theirs[z] = g.transform(sym, st.theirs[z]);
          }
          ASSERT_EQ(index.indexOf(t), sl.offset + i) << name << " symmetry " << sym;
        }
        State back;
        ASSERT_TRUE(index.toState(index.toBoard(st), &back));
        ASSERT_EQ(back, st);
      }
    }
    EXPECT_GT(canonical, 0u) << name;
  }
}

// decodeInRow, which keeps a row's lead and x layers between calls, decodes
// what decode does, going through the numbers in order, skipping some, or
// backwards, and from slice to slice; a row whose lead it says makes no
// holes holds none.
TEST(TablebaseIndex, DecodeInRowIsDecode) {
  for (const char* name : {"tictactoe", "3x3:2,2,1", "3x3:3,1,1", "gobblers"}) {
    const Index index(*Variant::parse(name));
    for (const int64_t step : {int64_t{1}, int64_t{37}, int64_t{-37}}) {
      Index::Row row;
      uint64_t holeRows = 0, mixedRows = 0, rows = 0, holes = 0, numbers = 0;
      for (int s = 0; s < static_cast<int>(index.slices().size()); ++s) {
        const auto& sl = index.slices()[s];
        // gobblers: its largest slices in part (one number in 64 rows).
        const uint64_t size = std::string(name) == "gobblers" ? std::min<uint64_t>(sl.size, 64ull * sl.ny) : sl.size;
        for (uint64_t k = 0; k < size; k += static_cast<uint64_t>(std::abs(step))) {
          const uint64_t i = step > 0 ? k : size - 1 - k;
          State byRow, st;
          const uint32_t before = row.row;
          index.decodeInRow(s, i, &row, &byRow);
          index.decode(s, i, &st);
          ASSERT_EQ(byRow, st) << name << " slice " << s << " number " << i;
          const bool hole = !index.isCanonical(s, st, sl.offset + i);
          ASSERT_EQ(index.isHoleInRow(row), hole) << name << " slice " << s << " number " << i;
          holes += hole;
          ++numbers;
          if (row.row != before) {
            ++rows;
            holeRows += row.allHoles;
            mixedRows += row.ySyms != 0;
          }
        }
      }
      // Every kind of row and number met (tictactoe has one layer, its
      // lead: no holes).
      if (std::string(name) == "tictactoe") {
        EXPECT_EQ(holes, 0u);
        continue;
      }
      EXPECT_GT(holes, 0u) << name;
      EXPECT_LT(holes, numbers) << name;
      EXPECT_GT(holeRows, 0u) << name;
      EXPECT_GT(mixedRows, 0u) << name;
      EXPECT_LT(holeRows + mixedRows, rows) << name;
    }
  }
}

// The exact count of states of the numbering (Burnside, no decoding) is
// the number of numbers that decode to canonical states.
TEST(TablebaseIndex, StatesCountMatchesTheCanonicalNumbers) {
  for (const char* name : {"tictactoe", "3x3:2,2,1", "3x3:3,1,1", "3x3:2,2,0"}) {
    const Index index(*Variant::parse(name));
    uint64_t all = 0;
    for (int s = 0; s < static_cast<int>(index.slices().size()); ++s) {
      uint64_t canonical = 0;
      for (uint64_t i = 0; i < index.slices()[s].size; ++i) {
        State st;
        canonical += index.stateAt(s, i, &st);
      }
      ASSERT_EQ(index.statesIn(s), canonical) << name << " slice " << s;
      all += canonical;
    }
    EXPECT_EQ(index.states(), all) << name;
  }
  EXPECT_LT(Index(Variant::gobblers()).states(), Index(Variant::gobblers()).size()) << "symmetric leads leave holes";
}

// orbitSize is the number of distinct images of a state under the 8
// symmetries, counted here by transforming every mask.
TEST(TablebaseIndex, OrbitSizeCountsTheDistinctImages) {
  const Geometry& g = geometry(3);
  for (const char* name : {"gobblers", "tictactoe", "3x3:2,2,1"}) {
    const Index index(*Variant::parse(name));
    std::mt19937_64 rng(11);
    std::set<int> sizesSeen;
    for (int k = 0; k < 20000; ++k) {
      const uint64_t x = rng() % index.size();
      const int slice = index.sliceOfIndex(x);
      State st;
      if (!index.stateAt(slice, x - index.slices()[slice].offset, &st)) continue;
      std::set<std::array<Mask, 6>> images;
      for (int sym = 0; sym < 8; ++sym) {
        std::array<Mask, 6> image;
        for (int s = 0; s < 3; ++s) {
          image[2 * s] = g.transform(sym, st.ours[s]);
          image[2 * s + 1] = g.transform(sym, st.theirs[s]);
        }
        images.insert(image);
      }
      ASSERT_EQ(index.orbitSize(st), static_cast<int>(images.size())) << name << " number " << x;
      sizesSeen.insert(index.orbitSize(st));
    }
    EXPECT_GE(sizesSeen.size(), 2u) << name << ": symmetric and asymmetric states both met";
  }
}

// The numbering of gobblers: 729 slices, fewer than 2^29 numbers.
TEST(TablebaseIndex, GobblersCodeArrayFitsTheBuilderBudget) {
  const Index index(Variant::gobblers());
  EXPECT_EQ(index.slices().size(), 729u);  // (0..2 pieces) ^ (3 sizes x 2 players)
  EXPECT_LE(index.size(), 512ull << 20);
}

// ---- The builder's move generator against the rules core ----------------------

std::set<uint64_t> childrenByRulesCore(const Index& index, Board b) {
  std::set<uint64_t> out;
  MoveList moves;
  generateMoves(b, moves);
  for (Move m : moves) {
    b.makeMove(m);
    State st;
    EXPECT_TRUE(index.toState(b, &st));
    out.insert(index.indexOf(st));
    b.unmakeMove(m);
  }
  return out;
}

TEST(RetrogradeMoves, MatchTheRulesCoreOnRandomGames) {
  for (const char* name : {"gobblers", "3x3:2,3,1", "tictactoe", "3x3:3,1,0"}) {
    const Variant v = *Variant::parse(name);
    const Index index(v);
    const MoveRules rules(v);
    std::mt19937 rng(7);
    for (int game = 0; game < 200; ++game) {
      Board b(v);
      for (int ply = 0; ply < 30; ++ply) {
        State st;
        ASSERT_TRUE(index.toState(b, &st));
        // Outcome.
        const int w = b.winner();
        ASSERT_EQ(outcome(rules, st), w == kNoWinner ? 0 : w == b.sideToMove() ? 1 : -1);
        if (w != kNoWinner) break;
        // Children, as canonical numbers.
        std::set<uint64_t> mine;
        forEachChild(rules, st, [&](const State& c, bool, int over) {
          mine.insert(index.indexOf(c));
          ASSERT_EQ(over, outcome(rules, c)) << name << " " << positionToString(b);
        });
        ASSERT_EQ(mine, childrenByRulesCore(index, b)) << name << " " << positionToString(b);
        // Each child lists this state among its parents.
        const uint64_t self = index.indexOf(st);
        forEachChild(rules, st, [&](const State& c, bool, int) {
          bool found = false;
          forEachParent(rules, c, [&](const State& p, bool, int over) {
            found |= index.indexOf(p) == self;
            ASSERT_EQ(over, outcome(rules, p)) << name << " " << positionToString(b);
            // Every parent, over or not, has c among its children (if it goes on).
            if (over == 0) {
              const uint64_t child = index.indexOf(c);
              bool leadsHere = false;
              forEachChild(rules, p, [&](const State& pc, bool, int) { leadsHere |= index.indexOf(pc) == child; });
              ASSERT_TRUE(leadsHere) << name << " " << positionToString(b);
            }
          });
          ASSERT_TRUE(found) << name << " " << positionToString(b);
        });
        MoveList moves;
        generateMoves(b, moves);
        if (moves.empty()) break;
        b.makeMove(moves[static_cast<int>(rng() % moves.size())]);
      }
    }
  }
}

// Calls check(name, index, rules, state) for every state of four small
// variants (placing and moving, one to three sizes) and for every 499th
// number of gobblers (under a sanitizer every 4th and every 1996th:
// tests/support/sanitizers.h); stops at the first fatal failure.
template <typename Check>
void forSampledStates(Check&& check) {
  for (const auto& [name, step] : std::vector<std::pair<const char*, uint64_t>>{
           {"3x3:1,4,1", 1}, {"3x3:2,2,1", 1}, {"3x3:2,3,0", 1}, {"3x3:3,1,1", 1}, {"gobblers", 499}}) {
    const Index index(*Variant::parse(name));
    const MoveRules rules(index.variant());
    for (int slice = 0; slice < static_cast<int>(index.slices().size()); ++slice) {
      for (uint64_t i = 0; i < index.slices()[slice].size; i += step * testing::kSanitizerStride) {
        State st;
        if (!index.stateAt(slice, i, &st)) continue;
        check(name, index, rules, st);
        if (::testing::Test::HasFatalFailure()) return;
      }
    }
  }
}

// hasWinInOne, found from masks, says what a walk over the children says.
TEST(RetrogradeMoves, WinInOneMatchesTheChildren) {
  std::map<std::string, std::pair<uint64_t, uint64_t>> asked;  // variant -> states asked, wins in 1
  forSampledStates([&](const char* name, const Index& index, const MoveRules& rules, const State& st) {
    if (outcome(rules, st) != 0) return;
    bool byChildren = false;
    forEachChild(rules, st, [&](const State&, bool, int over) { return byChildren = over < 0; });
    ASSERT_EQ(hasWinInOne(rules, st), byChildren) << name << " " << positionToString(index.toBoard(st));
    ++asked[name].first;
    asked[name].second += byChildren;
  });
  ASSERT_EQ(asked.size(), 5u);
  for (const auto& [name, counts] : asked) {
    EXPECT_GT(counts.second, 0u) << name;
    EXPECT_LT(counts.second, counts.first) << name;
  }
}

// The mask-level walks' `shown` and `over` are what the child or parent
// they name shows, and its outcome.
TEST(RetrogradeMoves, WalksShowWhatTheNeighbourShows) {
  std::map<std::string, uint64_t> asked;
  forSampledStates([&](const char* name, const Index& index, const MoveRules& rules, const State& st) {
    auto same = [](const Visible& a, const Visible& b) { return a.ours == b.ours && a.theirs == b.theirs; };
    if (outcome(rules, st) == 0)
      forEachMove(rules, st, [&](int size, Mask to, Mask from, int over, const Visible& shown) {
        const State c = childOf(st, size, to, from);
        ASSERT_TRUE(same(shown, visible(c))) << name << " " << positionToString(index.toBoard(st));
        ASSERT_EQ(over, outcome(rules, c)) << name << " " << positionToString(index.toBoard(st));
        ++asked[name];
      });
    forEachUnmove(rules, st, [&](int size, Mask to, Mask from, int over, const Visible& shown) {
      const State p = parentOf(st, size, to, from);
      ASSERT_TRUE(same(shown, visible(p))) << name << " " << positionToString(index.toBoard(st));
      ASSERT_EQ(over, outcome(rules, p)) << name << " " << positionToString(index.toBoard(st));
      ++asked[name];
    });
  });
  ASSERT_EQ(asked.size(), 5u);
}

// forEachLiveParent emits forEachParent's parents that are games going on,
// in its order (among the states, finished games, whose parents are mostly
// over).
TEST(RetrogradeMoves, LiveParentsAreTheParentsNotOver) {
  std::map<std::string, uint64_t> overParents;
  forSampledStates([&](const char* name, const Index& index, const MoveRules& rules, const State& st) {
    std::vector<std::pair<State, bool>> all, live;
    forEachParent(rules, st, [&](const State& p, bool placed, int over) {
      if (over == 0) all.emplace_back(p, placed);
      overParents[name] += over != 0;
    });
    forEachLiveParent(rules, st, [&](const State& p, bool placed, int over) {
      ASSERT_EQ(over, 0);
      live.emplace_back(p, placed);
    });
    ASSERT_EQ(live, all) << name << " " << positionToString(index.toBoard(st));
  });
  ASSERT_EQ(overParents.size(), 5u);
  for (const auto& [name, count] : overParents) EXPECT_GT(count, 0u) << name;
}

// The live walks of one kind (the placements' found from masks by
// livePlacementUnmoves) emit the un-moves of that kind that forEachUnmove
// emits with over == 0, in its order, showing the same.
TEST(RetrogradeMoves, LiveWalksOfOneKindAreItsLiveUnmoves) {
  using Unmove = std::tuple<int, Mask, Mask, Mask, Mask>;  // size, to, from, what the parent shows
  std::map<std::string, std::array<uint64_t, 2>> asked;    // variant -> live un-moves by placement, by board move
  forSampledStates([&](const char* name, const Index& index, const MoveRules& rules, const State& st) {
    std::array<std::vector<Unmove>, 2> all, live;
    forEachUnmove(rules, st, [&](int size, Mask to, Mask from, int over, const Visible& shown) {
      if (over == 0) all[from != 0].emplace_back(size, to, from, shown.ours, shown.theirs);
    });
    auto into = [&](std::vector<Unmove>& list) {
      return [&](int size, Mask to, Mask from, int over, const Visible& shown) {
        EXPECT_EQ(over, 0);
        list.emplace_back(size, to, from, shown.ours, shown.theirs);
      };
    };
    forEachUnmove<true, kPlacements>(rules, st, into(live[0]));
    forEachUnmove<true, kBoardMoves>(rules, st, into(live[1]));
    for (int kind = 0; kind < 2; ++kind) {
      ASSERT_EQ(live[kind], all[kind]) << name << " " << kind << " " << positionToString(index.toBoard(st));
      asked[name][kind] += live[kind].size();
    }
  });
  ASSERT_EQ(asked.size(), 5u);
  for (const auto& [name, counts] : asked) {
    EXPECT_GT(counts[0], 0u) << name;
    if (Variant::parse(name)->moving) {
      EXPECT_GT(counts[1], 0u) << name;
    }
  }
}

// firstLiveUnmove names the piece of the first parent of its kind (by
// placement, by board move) that forEachLiveParent emits, and there is one
// exactly when it emits one.
TEST(RetrogradeMoves, FirstLiveUnmoveIsTheWalksFirst) {
  // variant -> with a parent by placement, without, with one by board move, without
  std::map<std::string, std::array<uint64_t, 4>> asked;
  forSampledStates([&](const char* name, const Index& index, const MoveRules& rules, const State& st) {
    for (const bool placement : {true, false}) {
      std::optional<State> first;
      forEachLiveParent(rules, st, [&](const State& p, bool placed, int) {
        if (placed == placement) first = p;
        return placed == placement;
      });
      int size = -1;
      Mask to = 0, from = 0;
      const bool found = placement ? firstLiveUnmove<kPlacements>(rules, st, &size, &to, &from)
                                   : firstLiveUnmove<kBoardMoves>(rules, st, &size, &to, &from);
      ASSERT_EQ(found, first.has_value()) << name << " " << positionToString(index.toBoard(st));
      ++asked[name][(placement ? 0 : 2) + (first ? 0 : 1)];
      if (!first) continue;
      ASSERT_EQ(from == 0, placement);
      State p{st.theirs, st.ours};
      p.ours[size] ^= static_cast<Mask>(to | from);
      ASSERT_EQ(p, *first) << name << " " << positionToString(index.toBoard(st));
    }
  });
  ASSERT_EQ(asked.size(), 5u);
  for (const auto& [name, counts] : asked) {
    EXPECT_GT(counts[0], 0u) << name;
    EXPECT_GT(counts[1], 0u) << name;
    if (Variant::parse(name)->moving) {
      EXPECT_GT(counts[2], 0u) << name;
    }
    EXPECT_GT(counts[3], 0u) << name;
  }
}

// The verifier numbers the children of a state by the rules core's moves as
// the rules core's board reaches them (Board::makeMove, Index::toState and
// indexOf), for every legal move of random games: drops, drops over
// pieces, and board moves that uncover a piece among them. A move that
// would break the piece counts or stack two pieces of one size numbers
// nothing.
TEST(VerifyNumberChildren, MatchesTheRulesCoreBoard) {
  for (const char* name : {"gobblers", "3x3:2,3,1", "tictactoe", "3x3:3,1,0"}) {
    const Variant v = *Variant::parse(name);
    const Index index(v);
    std::mt19937 rng(17);
    int uncovering = 0;
    for (int game = 0; game < 200; ++game) {
      Board b(v);
      for (int ply = 0; ply < 30 && b.winner() == kNoWinner; ++ply) {
        State st;
        ASSERT_TRUE(index.toState(b, &st));
        MoveList moves;
        generateMoves(b, moves);
        if (moves.empty()) break;
        std::array<uint64_t, MoveList::kCapacity> children;
        numberChildren(index, st, moves, [&](int i, uint64_t child) { children[i] = child; });
        for (int i = 0; i < moves.size(); ++i) {
          const Move m = moves[i];
          bool covers = false;
          for (int s = 0; s < m.size(); ++s) covers |= (b.sizeMask(s) & bit(m.from())) != 0;
          uncovering += !m.isDrop() && covers;
          b.makeMove(m);
          State child;
          ASSERT_TRUE(index.toState(b, &child));
          b.unmakeMove(m);
          ASSERT_EQ(children[i], index.indexOf(child))
              << name << " " << positionToString(b) << " " << moveToString(m, v);
        }
        b.makeMove(moves[static_cast<int>(rng() % moves.size())]);
      }
    }
    if (v.moving && v.sizes > 1) {
      EXPECT_GT(uncovering, 0) << name;
    }
  }
  // Moves no rules core makes: a drop of a size whose pieces are all on
  // the board, one onto the opponent's piece of the same size, one of a
  // size the variant lacks, one off the board.
  const Index index(Variant::ticTacToe());
  State st;
  st.ours[0] = 0b000011111;
  st.theirs[0] = 0b011100000;
  MoveList moves;
  moves.push(Move::drop(0, 8));
  moves.push(Move::boardMove(0, 0, 5));
  moves.push(Move::boardMove(2, 0, 8));
  moves.push(Move::boardMove(0, 0, 12));
  uint64_t children[4];
  numberChildren(index, st, moves, [&](int i, uint64_t child) { children[i] = child; });
  for (uint64_t child : children) EXPECT_EQ(child, kNoChild);
}

// The builder counts moves instead of distinct children, weighted by orbit
// sizes (retrograde.cpp, solveGroup): for a state P and each orbit [C] of
// its children, |[P]| * (moves of P into [C]) must equal
// |[C]| * (un-moves of C's canonical state into [P]).
TEST(RetrogradeMoves, MovesAndUnMovesBalanceByOrbitSize) {
  for (const char* name : {"gobblers", "3x3:2,3,1", "3x3:1,4,1"}) {
    const Variant v = *Variant::parse(name);
    const Index index(v);
    const MoveRules rules(v);
    std::mt19937 rng(13);
    int symmetricMet = 0;
    for (int game = 0; game < 100; ++game) {
      State st{};
      for (int ply = 0; ply < 30 && outcome(rules, st) == 0; ++ply) {
        const uint64_t self = index.indexOf(st);
        std::map<uint64_t, int> moves;  // child's number -> moves into its orbit
        std::vector<State> children;
        forEachChild(rules, st, [&](const State& c, bool, int) {
          ++moves[index.indexOf(c)];
          children.push_back(c);
        });
        if (children.empty()) break;
        for (const auto& [child, m] : moves) {
          const int slice = index.sliceOfIndex(child);
          State canonical;
          ASSERT_TRUE(index.stateAt(slice, child - index.slices()[slice].offset, &canonical));
          int unMoves = 0;
          forEachParent(rules, canonical, [&](const State& p, bool, int) { unMoves += index.indexOf(p) == self; });
          ASSERT_EQ(index.orbitSize(st) * m, index.orbitSize(canonical) * unMoves) << name << " number " << self;
          symmetricMet += index.orbitSize(st) != index.orbitSize(canonical);
        }
        st = children[rng() % children.size()];
      }
    }
    EXPECT_GT(symmetricMet, 0) << name << ": states and children of different orbit sizes met";
  }
}

// ---- The solution against brute force ------------------------------------------

TEST(Retrograde, TicTacToeContract) {
  const ScratchDir dir("gobblet_tb");
  auto tb = buildTestFile(dir, Variant::ticTacToe());
  ASSERT_TRUE(tb);
  EXPECT_EQ(tb->header().states, 765u);
  EXPECT_EQ(tb->header().dictionaryBytes, 0u) << "three blocks are too few to train a dictionary on";
  EXPECT_EQ(tb->header().wins + tb->header().losses, 614u);
  EXPECT_EQ(tb->header().startCode, kDrawCode);
}

TEST(Retrograde, TicTacToeMatchesBruteForce) { expectSameAsBruteForce(Variant::ticTacToe()); }
TEST(Retrograde, OneSizeMovingMatchesBruteForce) { expectSameAsBruteForce(*Variant::parse("3x3:1,3,1")); }
TEST(Retrograde, AllDrawsMatchBruteForce) {
  expectSameAsBruteForce(*Variant::parse("3x3:1,2,1"));
  expectSameAsBruteForce(*Variant::parse("3x3:2,1,1"));
}
TEST(Retrograde, TwoSizesPlacingMatchesBruteForce) { expectSameAsBruteForce(*Variant::parse("3x3:2,2,0")); }
TEST(Retrograde, TwoSizesMovingMatchesBruteForce) { expectSameAsBruteForce(*Variant::parse("3x3:2,2,1")); }
TEST(Retrograde, ThreeSizesMatchesBruteForce) { expectSameAsBruteForce(*Variant::parse("3x3:3,1,1")); }

TEST(Retrograde, ThreadCountDoesNotChangeTheResult) {
  const Variant v = *Variant::parse("3x3:2,2,1");
  auto one = solve(v, 1), three = solve(v, 3);
  ASSERT_TRUE(one.ok() && three.ok());
  EXPECT_TRUE(one->codes == three->codes);
  // Every group solved by all threads together (the path of gobblers'
  // largest groups), on 2 and 3 threads.
  for (int threads : {2, 3}) {
    auto shared = solve(v, threads, {}, 1);
    ASSERT_TRUE(shared.ok());
    EXPECT_TRUE(one->codes == shared->codes) << threads << " threads";
  }
}

// The codes kept in a file (the builder's way for variants whose codes do
// not fit in memory) are the codes kept in memory, on the shared path and
// the one-group-per-thread path; the file has no name, so nothing is left
// in its directory, and a directory that is not there is a clear error.
TEST(Retrograde, CodesInAFileAreTheCodesInMemory) {
  const Variant v = *Variant::parse("3x3:2,2,1");
  const ScratchDir dir("gobblet_tb_codes");
  auto memory = solve(v, 2);
  ASSERT_TRUE(memory.ok());
  EXPECT_FALSE(memory->codes.backedByFile());
  for (uint64_t shared : {kSharedGroupSize, uint64_t{1}}) {
    auto inFile = solve(v, 2, {}, shared, dir.path());
    ASSERT_TRUE(inFile.ok()) << inFile.status();
    EXPECT_TRUE(inFile->codes.backedByFile());
    EXPECT_TRUE(memory->codes == inFile->codes) << "shared group size " << shared;
    EXPECT_EQ(inFile->stats.states, memory->stats.states);
    EXPECT_EQ(inFile->stats.start, memory->stats.start);
    EXPECT_EQ(inFile->stats.maxDistance, memory->stats.maxDistance);
    EXPECT_TRUE(std::filesystem::is_empty(dir.path()));
  }
  // The estimate with the codes in a file counts fewer bytes: the codes in
  // hand are a few groups', not every slot's (gobblers: estimated only).
  const SolveEstimate e = estimateSolve(Variant::gobblers(), 2);
  EXPECT_LT(e.bytesCodesInFile, e.bytes);
  EXPECT_GE(e.bytesCodesInFile, e.slots / PackedCodes::kPerLine * 8 + e.largestGroup);
  auto missing = solve(v, 1, {}, kSharedGroupSize, dir.file("not-there"));
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(std::string(missing.status().message()).find("not-there"), std::string::npos) << missing.status();
}

// The packed codes against a plain array of symbols: marking once (by
// number, or by runs of numbers), the
// states and the open numbers of any 64 numbers, the open ranks of every number (and one past
// the last), and the stored symbols of any range.
TEST(PackedCodes, MatchAPlainArrayOfSymbols) {
  for (uint64_t n : {uint64_t{1}, uint64_t{255}, uint64_t{256}, uint64_t{5000}}) {
    SCOPED_TRACE(n);
    auto packed = PackedCodes::create(n, "");
    ASSERT_TRUE(packed.ok()) << packed.status();
    std::mt19937_64 rng(n);
    std::vector<uint8_t> plain(n, PackedCodes::kNone);
    for (uint64_t x = 0; x < n; ++x) {
      const uint64_t r = rng() % 10;
      plain[x] = r < 5 ? PackedCodes::kNone : r < 8 ? PackedCodes::kRuled : PackedCodes::kOpen;
    }
    std::vector<uint64_t> order(n);
    std::iota(order.begin(), order.end(), 0);
    std::shuffle(order.begin(), order.end(), rng);
    for (uint64_t x : order)
      if (plain[x] != PackedCodes::kNone) {
        EXPECT_TRUE(packed->mark(x, plain[x]));
        EXPECT_FALSE(packed->mark(x, PackedCodes::kOpen));  // set already: unchanged
      }
    for (uint64_t x = 0; x < n; ++x) ASSERT_EQ(packed->symbol(x), plain[x]) << x;
    // The same marks by markIn, over runs of 1 to 64 numbers in any order
    // (bits past a run's end set: they mark nothing).
    auto byRuns = PackedCodes::create(n, "");
    ASSERT_TRUE(byRuns.ok()) << byRuns.status();
    std::vector<std::pair<uint64_t, uint64_t>> runs;  // first, count
    for (uint64_t first = 0; first < n;) {
      const uint64_t count = std::min<uint64_t>(n - first, 1 + rng() % 64);
      runs.emplace_back(first, count);
      first += count;
    }
    std::shuffle(runs.begin(), runs.end(), rng);
    for (const auto& [first, count] : runs) {
      uint64_t reached = count < 64 ? ~uint64_t{0} << count : 0, open = reached;
      for (uint64_t i = 0; i < count; ++i) {
        reached |= uint64_t{plain[first + i] != PackedCodes::kNone} << i;
        open |= uint64_t{plain[first + i] == PackedCodes::kOpen} << i;
      }
      byRuns->markIn(first, count, reached, open);
    }
    for (uint64_t x = 0; x < n; ++x) ASSERT_EQ(byRuns->symbol(x), plain[x]) << x;
    // Pages made writable ahead change no symbol.
    for (int k = 0; k < 20; ++k) {
      const uint64_t first = rng() % n;
      byRuns->prepareSymbols(first, rng() % (n - first + 1));
    }
    byRuns->prepareSymbols(0, n);
    for (uint64_t x = 0; x < n; ++x) ASSERT_EQ(byRuns->symbol(x), plain[x]) << x;
    for (int k = 0; k < 200; ++k) {
      const uint64_t first = rng() % n, count = 1 + rng() % std::min<uint64_t>(64, n - first);
      uint64_t states = 0, opens = 0;
      for (uint64_t i = 0; i < count; ++i) {
        states |= uint64_t{plain[first + i] != PackedCodes::kNone} << i;
        opens |= uint64_t{plain[first + i] == PackedCodes::kOpen} << i;
      }
      ASSERT_EQ(packed->statesIn(first, count), states) << first << " " << count;
      ASSERT_EQ(packed->openIn(first, count), opens) << first << " " << count;
    }
    ASSERT_TRUE(packed->indexOpen("").ok());
    uint64_t open = 0;
    for (uint64_t x = 0; x <= n; ++x) {
      ASSERT_EQ(packed->openRank(x), open) << x;
      if (x < n && plain[x] == PackedCodes::kOpen) {
        EXPECT_EQ(packed->openBytes()[open], kNoState);
        packed->openBytes()[open] = static_cast<uint8_t>(5 + open % 100);
        ++open;
      }
    }
    EXPECT_EQ(packed->openCount(), open);
    packed->prepareOpen(0, open);  // (changes no open byte)
    std::vector<uint8_t> stored(n);
    for (uint64_t x = 0, r = 0; x < n; ++x)
      stored[x] = plain[x] == PackedCodes::kNone    ? kNoState
                  : plain[x] == PackedCodes::kRuled ? kRuledSymbol
                                                    : static_cast<uint8_t>(5 + r++ % 100);
    for (uint64_t x = 0; x < n; ++x) ASSERT_EQ(packed->storedSymbol(x), stored[x]) << x;
    for (int k = 0; k < 50; ++k) {
      const uint64_t first = rng() % n, count = rng() % (n - first + 1);
      std::vector<uint8_t> got(count);
      packed->storedSymbols(first, count, got.data());
      ASSERT_TRUE(std::equal(got.begin(), got.end(), stored.begin() + static_cast<std::ptrdiff_t>(first)));
    }
  }
}

// The builder's packed codes and the same codes a byte a number (solve())
// make one file, byte for byte, with the same counts; in memory or with
// the codes in files.
TEST(Retrograde, PackedAndUnpackedCodesWriteOneFile) {
  const ScratchDir dir("gobblet_tb_packed");
  for (const char* name : {"3x3:2,2,1", "3x3:3,1,1"}) {
    SCOPED_TRACE(name);
    const Variant v = *Variant::parse(name);
    auto packed = solvePacked(v, 2);
    auto inFiles = solvePacked(v, 2, {}, 1, dir.path());
    auto plain = solve(v, 2);
    ASSERT_TRUE(packed.ok() && inFiles.ok() && plain.ok());
    ASSERT_TRUE(writeFile(dir.file("packed.gtb"), v, *packed).ok());
    ASSERT_TRUE(writeFile(dir.file("in-files.gtb"), v, *inFiles).ok());
    ASSERT_TRUE(writeFile(dir.file("plain.gtb"), v, *plain).ok());
    EXPECT_EQ(readWholeFile(dir.file("packed.gtb")), readWholeFile(dir.file("plain.gtb")));
    EXPECT_EQ(readWholeFile(dir.file("in-files.gtb")), readWholeFile(dir.file("plain.gtb")));
    for (const PackedSolution* p : {&*packed, &*inFiles}) {
      EXPECT_EQ(p->stats.states, plain->stats.states);
      EXPECT_EQ(p->stats.terminal, plain->stats.terminal);
      EXPECT_EQ(p->stats.wins, plain->stats.wins);
      EXPECT_EQ(p->stats.draws, plain->stats.draws);
      EXPECT_EQ(p->stats.losses, plain->stats.losses);
      EXPECT_EQ(p->stats.start, plain->stats.start);
      EXPECT_EQ(p->stats.maxDistance, plain->stats.maxDistance);
    }
    // The counts themselves, from the codes a byte a number.
    SolveStats counted;
    for (uint8_t c : plain->codes)
      if (c != kNoState) countState(counted, c);
    EXPECT_EQ(counted.states, plain->stats.states);
    EXPECT_EQ(counted.terminal, plain->stats.terminal);
    EXPECT_EQ(counted.wins, plain->stats.wins);
    EXPECT_EQ(counted.losses, plain->stats.losses);
    EXPECT_EQ(counted.maxDistance, plain->stats.maxDistance);
  }
}

TEST(Retrograde, RefusesFourByFour) { EXPECT_FALSE(solve(Variant::gobblet(), 1).ok()); }

TEST(Tablebase, ProbeOfAnotherVariantIsUnknown) {
  const ScratchDir dir("gobblet_tb");
  auto tb = buildTestFile(dir, Variant::ticTacToe());
  ASSERT_TRUE(tb);
  EXPECT_EQ(tb->probe(Board(Variant::gobblers())).value, Value::kUnknown);
  EXPECT_EQ(tb->probe(Board(Variant::ticTacToe())).value, Value::kDraw);
}

// ---- File format ---------------------------------------------------------------

class TablebaseFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    tb_ = buildTestFile(dir_, variant_);
    ASSERT_TRUE(tb_);
    bytes_ = readWholeFile(tb_->path());
    ASSERT_EQ(bytes_.size(), sizeof(FileHeader) + tb_->compressedBytes());
  }
  // The variant solved again, changed by `edit` (its codes and counts),
  // written with a checksum that matches, and opened: a forged file.
  template <class Edit>
  std::shared_ptr<const File> openForgedSolution(Edit edit) {
    auto solved = solve(variant_, 1);
    EXPECT_TRUE(solved.ok());
    if (!solved.ok()) return nullptr;
    edit(*solved);
    const std::string path = dir_.file("forged" + std::to_string(forged_++) + ".gtb");
    EXPECT_TRUE(writeFile(path, variant_, *solved).ok());
    auto tb = File::open(path);
    EXPECT_TRUE(tb.ok()) << tb.status();
    return tb.ok() ? *tb : nullptr;
  }
  // The offset in the file of the block table's entry b.
  size_t tableEntry(uint64_t b) const { return sizeof(FileHeader) + paddedDictionaryBytes(tb_->header()) + 8 * b; }
  // The offset in the file of block b's frame.
  size_t frameOffset(uint64_t b) const {
    uint64_t offset;
    std::memcpy(&offset, bytes_.data() + tableEntry(b), 8);
    const uint64_t blocks = (tb_->header().entries + tb_->header().blockCodes - 1) / tb_->header().blockCodes;
    return tableEntry(blocks + 1) + offset;
  }
  // Writes `bytes` to a new file and returns open()'s error text.
  std::string openError(const std::string& bytes) {
    const std::string path = dir_.file("damaged.gtb");
    writeWholeFile(path, bytes);
    auto tb = File::open(path);
    return tb.ok() ? "" : std::string(tb.status().message());
  }
  // `bytes` with the header's checksum recomputed to match them (a forged file).
  static std::string forgeChecksum(std::string bytes) {
    FileHeader h;
    std::memcpy(&h, bytes.data(), sizeof h);
    h.checksum = 0;
    const uint64_t seed = checksumOf(reinterpret_cast<const uint8_t*>(&h), sizeof h);
    h.checksum = checksumOf(reinterpret_cast<const uint8_t*>(bytes.data()) + sizeof h, bytes.size() - sizeof h, seed);
    std::memcpy(bytes.data(), &h, sizeof h);
    return bytes;
  }
  const Variant variant_ = *Variant::parse("3x3:2,2,0");
  ScratchDir dir_{"gobblet_tb"};  // declared first: removed after tb_ is unmapped
  std::shared_ptr<const File> tb_;
  std::string bytes_;
  int forged_ = 0;
};

TEST_F(TablebaseFileTest, ReopensIdentically) {
  auto again = File::open(tb_->path());
  ASSERT_TRUE(again.ok());
  EXPECT_EQ((*again)->header().checksum, tb_->header().checksum);
  EXPECT_EQ((*again)->variant(), *Variant::parse("3x3:2,2,0"));
}

TEST_F(TablebaseFileTest, RefusesMissingFile) {
  auto tb = open(dir_.file("no-such-file.gtb"));
  ASSERT_FALSE(tb.ok());
  EXPECT_NE(std::string(tb.status().message()).find("does not exist"), std::string::npos);
}

TEST_F(TablebaseFileTest, RefusesTruncatedFile) {
  EXPECT_NE(openError(bytes_.substr(0, bytes_.size() - 1)).find("truncated"), std::string::npos);
  EXPECT_NE(openError(bytes_.substr(0, 100)).find("truncated"), std::string::npos);
  EXPECT_NE(openError("").find("truncated"), std::string::npos);
  EXPECT_NE(openError(bytes_ + "x").find("too long"), std::string::npos);
}

TEST_F(TablebaseFileTest, RefusesCorruptFile) {
  std::string bad = bytes_;
  bad[sizeof(FileHeader) + bad.size() / 2 - 64] ^= 0x10;
  EXPECT_NE(openError(bad).find("checksum"), std::string::npos);
  bad = bytes_;
  bad[40] ^= 1;  // a count in the header
  EXPECT_NE(openError(bad).find("checksum"), std::string::npos);
}

TEST_F(TablebaseFileTest, RefusesWrongFile) {
  std::string bad = bytes_;
  bad[0] = 'X';
  EXPECT_NE(openError(bad).find("magic"), std::string::npos);
  bad = bytes_;
  bad[8] = 99;  // version
  EXPECT_NE(openError(bad).find("format version 99, this program reads versions 2 to 3"), std::string::npos)
      << openError(bad);
  bad = bytes_;
  bad[8] = 1;  // the uncompressed format of before
  EXPECT_NE(openError(bad).find("format version 1, this program reads versions 2 to 3 (rebuild it"), std::string::npos)
      << openError(bad);
  bad = bytes_;
  bad[12] = 64;  // header size
  EXPECT_NE(openError(bad).find("header size 64, expected 128"), std::string::npos) << openError(bad);
  bad = bytes_;
  bad[18] = 7;  // per_size of another variant: the size no longer matches
  EXPECT_NE(openError(bad).find("entries"), std::string::npos);
  bad = bytes_;
  bad[16] = 4;  // n
  EXPECT_NE(openError(bad).find("variant"), std::string::npos);
  EXPECT_NE(openError(std::string(4096, '\0')).find("magic"), std::string::npos);
}

// A file of format version 2 (the codes stored as they are, blocks of
// 1,024: 3x3:2,2,0 as gobblet-tb wrote it before version 3) is still read,
// value for value as the solution and a version-3 file of today; the
// version-3 file stores 2, 3 and 4 as one symbol (code.h), so it is smaller.
TEST(TablebaseFileFormat, Version2FilesAreStillRead) {
  const Variant v = *Variant::parse("3x3:2,2,0");
  auto old = File::open(gobblet::testing::sourceDir() + "/tests/tablebase/data/3x3-2-2-0-version2.gtb");
  ASSERT_TRUE(old.ok()) << old.status();
  EXPECT_EQ((*old)->header().version, 2u);
  EXPECT_EQ((*old)->header().blockCodes, 1024u);
  auto solved = solve(v, 1);
  ASSERT_TRUE(solved.ok());
  ASSERT_TRUE(*(*old)->decodeAll() == solved->codes);
  uint64_t ruled = 0;
  for (uint64_t x = 0; x < solved->codes.size(); ++x) {
    ASSERT_EQ((*old)->codeAt(x), solved->codes[x]) << x;
    ruled += storedSymbol(solved->codes[x]) == kRuledSymbol && solved->codes[x] != kRuledSymbol;
  }
  EXPECT_GT(ruled, 1000u) << "this variant should have losses in 0 and wins in 1";
  const ScratchDir dir("gobblet_tb_v2");
  ASSERT_TRUE(writeFile(dir.file("now.gtb"), v, *solved).ok());
  auto now = File::open(dir.file("now.gtb"));
  ASSERT_TRUE(now.ok()) << now.status();
  EXPECT_EQ((*now)->header().version, kFormatVersion);
  const absl::StatusOr<FileComparison> same = compareFiles(**old, **now, 2);
  ASSERT_TRUE(same.ok()) << same.status();
  EXPECT_EQ(same->differing, 0u) << describeComparison(*same);
  EXPECT_EQ(same->numbers, solved->codes.size());
  EXPECT_LT((*now)->compressedBytes(), (*old)->compressedBytes());
}

// The compressed layout: every probe answers what the solution holds, the
// file is a fraction of a byte per number, and a forged block table or
// frame (checksum recomputed) is refused when the file is opened, not met
// by a probe later.
TEST_F(TablebaseFileTest, BlocksDecodeToTheSolution) {
  auto solved = solve(variant_, 1);
  ASSERT_TRUE(solved.ok());
  ASSERT_TRUE(*tb_->decodeAll() == solved->codes);
  {
    const ScratchDir codes("gobblet_tb_decoded");
    auto inFile = tb_->decodeAll(codes.path());
    ASSERT_TRUE(inFile.ok()) << inFile.status();
    EXPECT_TRUE(inFile->backedByFile());
    EXPECT_TRUE(*inFile == solved->codes);
  }
  EXPECT_GT(tb_->header().dictionaryBytes, 0u) << "this fixture should exercise the dictionary";
  for (uint64_t x = 0; x < solved->codes.size(); x += 7) ASSERT_EQ(tb_->codeAt(x), solved->codes[x]) << x;
  for (uint64_t x = solved->codes.size(); x-- > 0;) ASSERT_EQ(tb_->codeAt(x), solved->codes[x]) << x;
  EXPECT_EQ(tb_->header().blockCodes, kBlockCodes);
  EXPECT_LT(tb_->compressedBytes(), solved->codes.size() / 2);

  std::string bad = bytes_;
  bad[tableEntry(1)] = static_cast<char>(0xff);  // block 0 ends past the frames
  bad[tableEntry(1) + 7] = static_cast<char>(0x7f);
  EXPECT_NE(openError(forgeChecksum(bad)).find("block 0 of the block table"), std::string::npos)
      << openError(forgeChecksum(bad));
  bad = bytes_;
  bad[frameOffset(1)] ^= 0x55;  // block 1's frame loses its magic number
  EXPECT_NE(openError(forgeChecksum(bad)).find("block 1 does not decode"), std::string::npos)
      << openError(forgeChecksum(bad));
  bad = bytes_;
  const uint64_t blocks = (tb_->header().entries + kBlockCodes - 1) / kBlockCodes;
  const uint64_t claimed = uint64_t{1} << 40;  // a terabyte of frames, which the file would then have to hold
  std::memcpy(bad.data() + tableEntry(blocks), &claimed, 8);
  EXPECT_NE(openError(forgeChecksum(bad)).find("claims 1099511627776 bytes of frames"), std::string::npos)
      << openError(forgeChecksum(bad));
  bad = bytes_;
  bad[20] = 0, bad[21] = 0, bad[22] = 0, bad[23] = 0x7f;  // codes per block
  EXPECT_NE(openError(forgeChecksum(bad)).find("codes per block"), std::string::npos) << openError(forgeChecksum(bad));
}

// Each thread keeps the last block it decoded: probes that alternate
// between two files (the second forged to differ at every tested number),
// and a file opened after another was dropped, each read their own codes;
// and four threads probing at once all read the solution.
TEST_F(TablebaseFileTest, DecodedBlocksAreKeptPerFileAndPerThread) {
  auto solved = solve(variant_, 1);
  ASSERT_TRUE(solved.ok());
  const CodeArray& codes = solved->codes;
  auto other = openForgedSolution([](Solution& s) {
    for (uint8_t& c : s.codes) c = c == kDrawCode ? winCode(5) : kDrawCode;
  });
  ASSERT_TRUE(other);
  for (uint64_t x = 0; x < codes.size(); x += 13) {
    ASSERT_EQ(tb_->codeAt(x), codes[x]) << x;
    ASSERT_EQ(other->codeAt(x), codes[x] == kDrawCode ? winCode(5) : kDrawCode) << x;
  }
  const uint64_t x = codes.size() / 2;
  ASSERT_EQ(other->codeAt(x), codes[x] == kDrawCode ? winCode(5) : kDrawCode);
  other.reset();  // its block stays in this thread's buffer
  auto again = File::open(tb_->path());
  ASSERT_TRUE(again.ok());
  EXPECT_EQ((*again)->codeAt(x), codes[x]);

  std::atomic<int> wrong{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      for (uint64_t y = static_cast<uint64_t>(t); y < codes.size(); y += 3)
        if (tb_->codeAt(y) != codes[y]) ++wrong;
    });
  for (auto& th : threads) th.join();
  EXPECT_EQ(wrong.load(), 0);
}

// Bytes of the dictionary, block table and frames changed at random (the
// checksum recomputed each time, so that the checks behind it are reached):
// each file is refused with a message or opens, and then every probe
// answers (runs under the sanitizers with the fast tests).
TEST_F(TablebaseFileTest, RandomDamageBehindTheChecksumIsRefusedOrHarmless) {
  std::mt19937_64 rng(2026);
  int refused = 0, opened = 0;
  const Board start(variant_);
  for (int trial = 0; trial < 300; ++trial) {
    std::string bad = bytes_;
    const int flips = 1 + static_cast<int>(rng() % 4);
    for (int i = 0; i < flips; ++i)
      bad[sizeof(FileHeader) + rng() % (bad.size() - sizeof(FileHeader))] ^= static_cast<char>(1 + rng() % 255);
    const std::string path = dir_.file("random.gtb");
    writeWholeFile(path, forgeChecksum(bad));
    auto tb = File::open(path);
    if (!tb.ok()) {
      ++refused;
      EXPECT_FALSE(tb.status().message().empty());
      continue;
    }
    ++opened;
    for (uint64_t x = 0; x < (*tb)->header().entries; x += 97) (void)(*tb)->codeAt(x);
    (void)(*tb)->probe(start);
  }
  std::printf("random damage: %d refused, %d opened\n", refused, opened);
  EXPECT_GT(refused, 0);
}

// A file whose checksum was recomputed over a wrong value opens, and the
// verifier (which re-derives every value from the moves) catches it.
TEST_F(TablebaseFileTest, VerifyCatchesAWrongValue) {
  ASSERT_TRUE(verify(*tb_, 2).ok());
  for (uint8_t replacement : {kDrawCode, winCode(3), lossCode(1), kNoState}) {
    // The first won-in-1 state: change its value.
    auto tampered = openForgedSolution([replacement](Solution& s) {
      const auto at = std::find(s.codes.begin(), s.codes.end(), winCode(1));
      ASSERT_NE(at, s.codes.end());
      *at = replacement;
    });
    ASSERT_TRUE(tampered);
    const absl::Status s = verify(*tampered, 2);
    EXPECT_FALSE(s.ok()) << "replacement code " << int(replacement);
    // The same with the decoded codes in a file (3x3:3,3,x's way).
    const ScratchDir codes("gobblet_tb_verify");
    EXPECT_FALSE(verify(*tampered, 2, {}, codes.path()).ok()) << "replacement code " << int(replacement);
  }
  const ScratchDir codes("gobblet_tb_verify");
  EXPECT_TRUE(verify(*tb_, 2, {}, codes.path()).ok());
}

// A file of no states at all, whose header says so (start "unknown"):
// every local check holds vacuously, but the start must be stored.
TEST_F(TablebaseFileTest, VerifyRefusesAnEmptyFile) {
  auto tb = openForgedSolution([](Solution& s) {
    std::fill(s.codes.begin(), s.codes.end(), kNoState);
    s.stats = SolveStats{};
  });
  ASSERT_TRUE(tb);
  const absl::Status s = verify(*tb, 2);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(std::string(s.message()).find("start"), std::string::npos) << s;
}

// A state no game reaches, stored with the value its moves give it and
// counted in the header: only the walk from the start can tell.
TEST_F(TablebaseFileTest, VerifyRefusesAnUnreachableState) {
  // The first canonical number not stored whose position is a finished
  // game (no moves, so no child to check): its value is fixed by the rules.
  const Index& index = tb_->index();
  uint64_t at = 0;
  uint8_t code = kNoState;
  for (int s = 0; s < static_cast<int>(index.slices().size()) && !at; ++s)
    for (uint64_t i = 0; i < index.slices()[s].size && !at; ++i) {
      State st;
      if (tb_->codeAt(index.slices()[s].offset + i) != kNoState || !index.stateAt(s, i, &st)) continue;
      const Board b = index.toBoard(st);
      if (b.winner() == kNoWinner) continue;
      at = index.slices()[s].offset + i;
      code = b.winner() == b.sideToMove() ? winCode(0) : lossCode(0);
    }
  ASSERT_NE(at, 0u) << "no unreachable finished game in this variant";
  auto tb = openForgedSolution([at, code](Solution& s) {
    s.codes[at] = code;
    ++s.stats.states, ++s.stats.terminal;
    ++(isWinCode(code) ? s.stats.wins : s.stats.losses);
  });
  ASSERT_TRUE(tb);
  const absl::Status s = verify(*tb, 2);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(std::string(s.message()).find("not reachable"), std::string::npos) << s;
}

TEST_F(TablebaseFileTest, OpenSharesOneMappingPerPath) {
  auto a = open(tb_->path());
  auto b = open(tb_->path());
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(a->get(), b->get());
}

// The cache holds a path's copy only while the path names the file it was
// loaded from: a file rebuilt and renamed over it is loaded afresh, and one
// that became unreadable is an error again (the old copy stays valid for
// whoever holds it).
TEST_F(TablebaseFileTest, OpenLoadsARebuiltFileAfresh) {
  auto first = open(tb_->path());
  ASSERT_TRUE(first.ok());
  auto solved = solve(*Variant::parse("3x3:2,2,0"), 1);
  ASSERT_TRUE(solved.ok());
  ASSERT_TRUE(writeFile(tb_->path(), *Variant::parse("3x3:2,2,0"), *solved).ok());  // a new inode
  auto second = open(tb_->path());
  ASSERT_TRUE(second.ok()) << second.status();
  EXPECT_NE(first->get(), second->get());
  writeWholeFile(tb_->path(), "not a tablebase");
  EXPECT_FALSE(open(tb_->path()).ok());
  EXPECT_EQ((*first)->probe(Board((*first)->variant())).value, (*second)->probe(Board((*second)->variant())).value);
}

// A broken file is read once: opening the same file again answers its
// refusal from the cache without reading it (otherwise every new session
// reads, copies and checksums a broken gobblers-size file again, 84 MB and
// ~90 ms under the cache's lock). A file rewritten in place (a new
// modification time) or replaced (a new inode) is read again, and a good
// one then loads.
TEST_F(TablebaseFileTest, OpenReadsABrokenFileOnceUntilItChanges) {
  const std::string path = dir_.file("broken.gtb");
  std::string broken = bytes_;
  broken[sizeof(FileHeader) + broken.size() / 2 - 64] ^= 0x10;  // found by the checksum, after reading it all
  writeWholeFile(path, broken);
  const uint64_t reads = File::filesOpened();
  auto first = open(path);
  ASSERT_FALSE(first.ok());
  EXPECT_NE(std::string(first.status().message()).find("checksum"), std::string::npos) << first.status();
  EXPECT_EQ(File::filesOpened(), reads + 1);
  auto again = open(path);
  EXPECT_EQ(again.status(), first.status());
  EXPECT_EQ(File::filesOpened(), reads + 1) << "the same broken file was read again";

  // Rewritten in place (same inode, same size), its modification time a
  // second later: another file, read again.
  broken = bytes_;
  broken[0] = 'X';
  const auto modified = std::filesystem::last_write_time(path);
  writeWholeFile(path, broken);
  std::filesystem::last_write_time(path, modified + std::chrono::seconds(1));
  auto rewritten = open(path);
  ASSERT_FALSE(rewritten.ok());
  EXPECT_NE(std::string(rewritten.status().message()).find("magic"), std::string::npos) << rewritten.status();
  EXPECT_EQ(File::filesOpened(), reads + 2);
  EXPECT_FALSE(open(path).ok());
  EXPECT_EQ(File::filesOpened(), reads + 2);

  // Repaired: a good file renamed over it (a new inode) loads, once.
  writeWholeFile(path + ".new", bytes_);
  ASSERT_EQ(std::rename((path + ".new").c_str(), path.c_str()), 0);
  auto repaired = open(path);
  ASSERT_TRUE(repaired.ok()) << repaired.status();
  EXPECT_EQ(File::filesOpened(), reads + 3);
  auto shared = open(path);
  ASSERT_TRUE(shared.ok());
  EXPECT_EQ(shared->get(), repaired->get());
  EXPECT_EQ(File::filesOpened(), reads + 3);
}

// Writers of the same file at the same time (two builds of one variant)
// never share a temporary file: every write succeeds and the file that
// stays is complete.
TEST(TablebaseFileWrite, ConcurrentWritersOfOneFile) {
  const Variant v = *Variant::parse("3x3:2,2,1");
  auto solved = solve(v, 1);
  ASSERT_TRUE(solved.ok());
  const ScratchDir dir("gobblet_tb");
  const std::string path = dir.file("shared.gtb");
  std::atomic<int> failures{0};
  std::vector<std::thread> writers;
  for (int t = 0; t < 4; ++t)
    writers.emplace_back([&] {
      for (int i = 0; i < 16; ++i)
        if (!writeFile(path, v, *solved).ok()) ++failures;
    });
  for (auto& w : writers) w.join();
  EXPECT_EQ(failures.load(), 0);
  auto tb = File::open(path);
  ASSERT_TRUE(tb.ok()) << tb.status();
  EXPECT_EQ((*tb)->header().states, solved->stats.states);
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir.file("")), {}), 1) << "a temporary file was left";
}

// Two processes of this test binary running file tests at the same time
// (ctest -j, or two ctest runs) do not touch each other's files.
TEST(TablebaseFileWrite, ParallelTestProcessesDoNotCollide) {
  const std::string self = gobblet::testing::binDir() + "/tablebase_test";
  const std::string command =
      "a() { '" + self + "' --gtest_filter=TablebaseFileTest.RefusesTruncatedFile >/dev/null 2>&1; }; " + "b() { '" +
      self + "' --gtest_filter=TablebaseFileTest.RefusesWrongFile >/dev/null 2>&1; }; " +
      "for i in 1 2 3 4; do a & pa=$!; b & pb=$!; wait $pa || exit 1; wait $pb || exit 1; done";
  const int status = std::system(command.c_str());
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0) << "a test process failed when run alongside another";
}

// The blocks are compressed by several threads, each a run of blocks: the
// file is the same for any thread count (also more threads than blocks).
TEST(TablebaseFileWrite, ThreadCountDoesNotChangeTheFile) {
  const ScratchDir dir("gobblet_tb");
  for (const char* name : {"3x3:2,3,1", "tictactoe"}) {
    const Variant v = *Variant::parse(name);
    auto solved = solve(v, 2);
    ASSERT_TRUE(solved.ok());
    std::string first;
    for (int threads : {1, 2, 3, 1000}) {
      const std::string path = dir.file(absl::StrCat("t", threads, ".gtb"));
      ASSERT_TRUE(writeFile(path, v, *solved, threads).ok()) << name << " " << threads;
      const std::string bytes = readWholeFile(path);
      ASSERT_FALSE(bytes.empty());
      if (first.empty()) first = bytes;
      EXPECT_EQ(bytes, first) << name << ": " << threads << " threads";
      ASSERT_TRUE(File::open(path).ok()) << name << " " << threads;
    }
  }
}

// ---- The engine's --tablebase-dir flag, through the real binary --------------------

// `gobblet --tablebase-dir DIR` finds the variant's file in DIR, on stdin
// and in every TCP session, over GOBBLET_TB_DIR; without the flag the same
// engine finds nothing.
TEST(TablebaseEngine, TablebaseDirFlagOverridesTheDefaultLocation) {
  const ScratchDir dir("gobblet_tb");
  const std::string tablebases = dir.file("tb"), empty = dir.file("empty");
  std::filesystem::create_directories(tablebases);
  std::filesystem::create_directories(empty);
  setenv("GOBBLET_TB_DIR", empty.c_str(), 1);  // what the engine would use without the flag
  const Variant v = Variant::ticTacToe();
  const std::string file = tablebases + "/" + std::filesystem::path(defaultPath(v)).filename().string();
  auto solved = solve(v, 1);
  ASSERT_TRUE(solved.ok());
  ASSERT_TRUE(writeFile(file, v, *solved).ok());
  const std::string loaded = "loaded for " + v.name();  // the engine shortens long paths

  // The lines the engine prints up to readyok, after choosing tic-tac-toe.
  auto linesUntilReady = [](auto& send, auto& until) {
    std::vector<std::string> seen;
    send("setoption name Variant value tictactoe");
    send("isready");
    EXPECT_TRUE(until("readyok", &seen)) << ::testing::PrintToString(seen);
    return seen;
  };
  auto has = [](const std::vector<std::string>& lines, const std::string& text) {
    for (const auto& l : lines)
      if (l.find(text) != std::string::npos) return true;
    return false;
  };
  {
    testing::EngineProcess engine;  // control: the environment's (empty) folder
    auto send = [&](const std::string& l) { engine.send(l); };
    auto until = [&](const std::string& p, std::vector<std::string>* seen) {
      return engine.until(p, testing::Ms(10000), seen);
    };
    const auto lines = linesUntilReady(send, until);
    EXPECT_FALSE(has(lines, loaded));
  }
  {
    testing::EngineProcess engine({"--tablebase-dir", tablebases});
    auto send = [&](const std::string& l) { engine.send(l); };
    auto until = [&](const std::string& p, std::vector<std::string>* seen) {
      return engine.until(p, testing::Ms(10000), seen);
    };
    EXPECT_TRUE(has(linesUntilReady(send, until), loaded)) << "stdin session";
  }
  {
    testing::EngineServer server({"--tablebase-dir", tablebases});
    ASSERT_NE(server.port(), 0);
    for (int session = 0; session < 2; ++session) {
      testing::TcpClient client(server.port());
      auto send = [&](const std::string& l) { client.send(l); };
      auto until = [&](const std::string& p, std::vector<std::string>* seen) {
        return client.until(p, testing::Ms(10000), seen).has_value();
      };
      EXPECT_TRUE(has(linesUntilReady(send, until), loaded)) << "TCP session " << session;
    }
  }
  unsetenv("GOBBLET_TB_DIR");

  // A folder that does not exist is a usage error, not a silent default.
  testing::EngineProcess bad({"--tablebase-dir", dir.file("missing")});
  std::vector<std::string> err;
  bad.err().readUntil("gobblet: --tablebase-dir", testing::Ms(5000), &err);
  ASSERT_TRUE(bad.waitExit(testing::Ms(5000)));
  EXPECT_EQ(WEXITSTATUS(bad.exitStatus()), 2);
  EXPECT_TRUE(has(err, "is not a directory"));
}

TEST(Tablebase, DefaultPathFollowsTheEnvironment) {
  setenv("GOBBLET_TB_DIR", "/some/dir", 1);
  EXPECT_EQ(defaultPath(Variant::gobblers()), "/some/dir/gobblers.gtb");
  EXPECT_EQ(defaultPath(*Variant::parse("3x3:2,2,1")), "/some/dir/3x3-2-2-1.gtb");
  unsetenv("GOBBLET_TB_DIR");
  setenv("XDG_DATA_HOME", "/xdg", 1);
  EXPECT_EQ(defaultPath(Variant::gobblers()), "/xdg/gobblet/gobblers.gtb");
  unsetenv("XDG_DATA_HOME");
  setenv("HOME", "/home/me", 1);
  EXPECT_EQ(defaultPath(Variant::gobblers()), "/home/me/.local/share/gobblet/gobblers.gtb");
}

}  // namespace
}  // namespace gobblet::tb
