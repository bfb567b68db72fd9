// perft_count VARIANT POSITION DEPTH: the number of leaf positions DEPTH
// plies below POSITION ("startpos" for the variant's start), with the
// gobblet::rules library of an installed gobblet.
//   perft_count gobblet startpos 4          -> 406560
//   perft_count gobblers "[sL]2/1M1/3 2" 3
#include <cstdio>
#include <cstdlib>
#include <string>

#include "engine/notation.h"
#include "engine/perft.h"
#include "engine/variant.h"

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: perft_count VARIANT POSITION|startpos DEPTH\n");
    return 2;
  }
  const absl::StatusOr<gobblet::Variant> variant = gobblet::Variant::parse(argv[1]);
  if (!variant.ok()) {
    std::fprintf(stderr, "perft_count: %s\n", std::string(variant.status().message()).c_str());
    return 2;
  }
  absl::StatusOr<gobblet::Board> board = std::string(argv[2]) == "startpos"
                                             ? absl::StatusOr<gobblet::Board>(gobblet::Board(*variant))
                                             : gobblet::parsePosition(*variant, argv[2]);
  if (!board.ok()) {
    std::fprintf(stderr, "perft_count: %s\n", std::string(board.status().message()).c_str());
    return 2;
  }
  char* end = nullptr;
  const long depth = std::strtol(argv[3], &end, 10);
  if (*argv[3] == '\0' || *end != '\0' || depth < 0 || depth > gobblet::kMaxPerftDepth) {
    std::fprintf(stderr, "perft_count: DEPTH must be 0..%d\n", gobblet::kMaxPerftDepth);
    return 2;
  }
  std::printf("%llu\n", static_cast<unsigned long long>(gobblet::perft(*board, static_cast<int>(depth))));
  return 0;
}
