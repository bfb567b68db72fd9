#include "host_yield.h"

#include <utility>

namespace gobblet {

namespace {
std::function<void(YieldKind)>& hostYield() {
  static std::function<void(YieldKind)> yield;
  return yield;
}
}  // namespace

void setHostYield(std::function<void(YieldKind)> yield) { hostYield() = std::move(yield); }

void yieldToHost(YieldKind kind) {
  if (const auto& yield = hostYield()) yield(kind);
}

bool hostYieldInstalled() { return static_cast<bool>(hostYield()); }

}  // namespace gobblet
