#include "search/eval_file.h"

#include "nnue/network.h"

namespace gobblet {

absl::StatusOr<std::shared_ptr<const nnue::Network>> loadNetFile(const std::string& path) {
  auto net = nnue::loadNetwork(path);
  if (!net.ok()) return net.status();
  return std::shared_ptr<const nnue::Network>(std::move(*net));
}

std::shared_ptr<const nnue::Network> builtInNet() { return nnue::defaultNetwork(); }

std::string netDescription(const nnue::Network& net) { return net.description; }

int netEvaluation(const nnue::Network& net, const Board& board) {
  nnue::Accumulator acc;
  nnue::refreshAccumulator(net, board, acc);
  return nnue::evaluate(net, acc, board.sideToMove());
}

}  // namespace gobblet
