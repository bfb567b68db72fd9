// gobblet.Score: a search's score with its point of view (as python-chess's
// PovScore). The engine scores from the side to move's view; a Score keeps
// that side (`turn`) and the player whose view its numbers are (`player`),
// so that pov(p) turns it to any player's view and `relative` back.
#pragma once

#include <string>

#include "search/search.h"

namespace gobblet::python {

class Score {
 public:
  // `relative`: from the view of `turn` (1 or 2), the side to move.
  Score(const SearchScore& relative, int turn) : relative_(relative), turn_(turn), player_(turn) {}

  // From player `player`'s view (1 or 2; else ValueError): the same score,
  // negated for the other player, its bound turned (a lower bound for one
  // side is an upper bound for the other).
  Score pov(int player) const;
  Score relative() const { return pov(turn_); }

  // The numbers, from `player`'s view.
  const char* kind() const { return relative_.isMate ? "mate" : "cp"; }
  int value() const;
  const char* bound() const;
  bool isMate() const { return relative_.isMate; }
  int turn() const { return turn_; }
  int player() const { return player_; }
  // As the protocol writes it after `score` (scoreWords), from `player`'s view.
  std::string text() const;

  friend bool operator==(const Score& a, const Score& b) {
    return a.player_ == b.player_ && a.turn_ == b.turn_ && a.relative_.isMate == b.relative_.isMate &&
           a.relative_.value == b.relative_.value && a.relative_.bound == b.relative_.bound;
  }

 private:
  SearchScore seen() const;  // relative_ from player_'s view

  SearchScore relative_;
  int turn_;
  int player_;
};

}  // namespace gobblet::python
