// Builds a small variant's tablebase file (either family: tb::build picks
// the builder) and compares it with the brute-force solver
// (brute_solver.h) state by state: the white-box tablebase tests of both
// families share this check.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "engine/notation.h"
#include "tablebase/code.h"
#include "tablebase/file.h"
#include "tablebase/tablebase.h"
#include "tablebase/verify.h"
#include "tests/support/brute_solver.h"
#include "tests/support/scratch_dir.h"

namespace gobblet::testing {

// The variant's file, built with `threads` into `dir` and opened; null (and
// a test failure) if either fails.
inline std::shared_ptr<const tb::File> buildTestFile(const ScratchDir& dir, const Variant& variant, int threads = 2) {
  std::string name = variant.name();
  for (char& c : name)
    if (c == ':' || c == ',') c = '_';
  const std::string path = dir.file(name + ".gtb");
  tb::BuildOptions options;
  options.threads = threads;
  const auto built = tb::build(variant, path, options);
  EXPECT_TRUE(built.ok()) << built.status();
  if (!built.ok()) return nullptr;
  auto file = tb::File::open(path);
  EXPECT_TRUE(file.ok()) << file.status();
  return file.ok() ? *file : nullptr;
}

inline BruteValue toBrute(tb::Probe p) {
  EXPECT_NE(p.value, tb::Value::kUnknown);
  return BruteValue{p.value == tb::Value::kWin ? 1 : p.value == tb::Value::kLoss ? -1 : 0, p.distance};
}

// The file's counts and start equal the brute-force solver's; each of the 8
// images of every state, and its colour-swapped twin with the other side to
// move (the same state, player-relative), probes to the brute-force value
// of the one image the solver keeps; and the verifier accepts the file.
inline void expectSameAsBruteForce(const Variant& v) {
  SCOPED_TRACE(v.name());
  const BruteSolver brute(v);
  const ScratchDir dir("gobblet_tb");
  auto tb = buildTestFile(dir, v);
  ASSERT_TRUE(tb);
  EXPECT_EQ(tb->header().states, static_cast<uint64_t>(brute.states()));
  EXPECT_EQ(tb->header().terminal, static_cast<uint64_t>(brute.decided()));
  EXPECT_EQ(tb->header().wins, static_cast<uint64_t>(brute.wins()));
  EXPECT_EQ(tb->header().draws, static_cast<uint64_t>(brute.draws()));
  EXPECT_EQ(tb->header().losses, static_cast<uint64_t>(brute.losses()));
  EXPECT_EQ(toBrute(tb::probeOfCode(tb->header().startCode)), brute.start());
  for (size_t i = 0; i < brute.boards().size(); ++i)
    for (int sym = 0; sym < 8; ++sym) {
      const Board b = brute.boards()[i].transformed(sym);
      ASSERT_EQ(toBrute(tb->probe(b)), brute.values()[i]) << positionToString(b) << " symmetry " << sym;
      ASSERT_EQ(toBrute(tb->probe(b.colorSwapped())), brute.values()[i]) << positionToString(b) << " swapped";
    }
  EXPECT_TRUE(tb::verify(*tb, 2).ok());
}

}  // namespace gobblet::testing
