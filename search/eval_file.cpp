#include "search/eval_file.h"

#include "nnue/network.h"

namespace gobblet {

absl::StatusOr<std::shared_ptr<const nnue::Network>> loadNetFile(const std::string& path) {
  auto net = nnue::loadNetwork(path);
  if (!net.ok()) return net.status();
  return std::shared_ptr<const nnue::Network>(std::move(*net));
}

bool netEvaluates(const Variant& variant) { return nnue::describes(variant); }

std::shared_ptr<const nnue::Network> builtInNet() { return nnue::defaultNetwork(); }

std::string netDescription(const nnue::Network& net) { return net.description; }

uint64_t netFingerprint(const nnue::Network& net) {
  uint64_t hash = 0xcbf29ce484222325ULL;
  for (const char c : nnue::serializeNetwork(net)) hash = (hash ^ static_cast<unsigned char>(c)) * 0x100000001b3ULL;
  return hash == 0 ? 1 : hash;
}

int netEvaluation(const nnue::Network& net, const Board& board) {
  nnue::Accumulator acc;
  nnue::refreshAccumulator(net, board, acc);
  return nnue::evaluate(net, acc, board.sideToMove());
}

}  // namespace gobblet
