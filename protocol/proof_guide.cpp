#include "proof_guide.h"

#include <utility>

#include "search/evaluate.h"
#include "search/wdl.h"

namespace gobblet {

namespace {

// The chance of each move's position for `player` from a static score of
// the position (the side to move's view) and its scale's model.
template <typename Score>
class EvaluationGuide final : public proof::ProofGuide {
 public:
  EvaluationGuide(Score score, ScoreScale scale) : score_(std::move(score)), scale_(scale) {}

  void chances(const Board& board, std::span<const Move> moves, int player, std::span<double> out) const override {
    Board after = board;
    for (size_t i = 0; i < moves.size() && i < out.size(); ++i) {
      after.makeMove(moves[i]);
      const WinDrawLoss wdl = winDrawLoss(score_(after), false, after, scale_);
      out[i] = (after.sideToMove() == player ? wdl.win : wdl.loss) / 1000.0;
      after.unmakeMove(moves[i]);
    }
  }

 private:
  Score score_;
  ScoreScale scale_;
};

template <typename Score>
std::shared_ptr<const proof::ProofGuide> guideOf(Score score, ScoreScale scale) {
  return std::make_shared<EvaluationGuide<Score>>(std::move(score), scale);
}

}  // namespace

std::optional<ProofGuideKind> parseProofGuide(std::string_view word) {
  if (word == "none") return ProofGuideKind::kNone;
  if (word == "eval") return ProofGuideKind::kEval;
  if (word == "net") return ProofGuideKind::kNet;
  return std::nullopt;
}

const char* proofGuideWord(ProofGuideKind kind) {
  switch (kind) {
    case ProofGuideKind::kEval:
      return "eval";
    case ProofGuideKind::kNet:
      return "net";
    case ProofGuideKind::kNone:
      break;
  }
  return "none";
}

std::shared_ptr<const proof::ProofGuide> makeProofGuide(ProofGuideKind kind, const Variant& variant,
                                                        std::shared_ptr<const nnue::Network> net) {
  if (kind == ProofGuideKind::kNone) return nullptr;
  if (kind == ProofGuideKind::kNet && netEvaluates(variant)) {
    if (!net) net = builtInNet();
    if (net) return guideOf([net](const Board& board) { return netEvaluation(*net, board); }, ScoreScale::kNet);
  }
  return guideOf([](const Board& board) { return evaluate(board); }, ScoreScale::kHandWritten);
}

}  // namespace gobblet
