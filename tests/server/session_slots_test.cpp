// SessionSlots (server/session_slots.h): the count of connections, given
// back whatever happens to a connection, also when making it fails.
#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <new>
#include <vector>

#include "server/session_slots.h"

namespace gobblet {
namespace {

using Connection = std::shared_ptr<ClientConnection>;

TEST(SessionSlots, AConnectionThatCannotBeMadeGivesItsSlotBack) {
  for (const bool token : {false, true}) {
    SessionSlots slots(/*maxSessions=*/2, /*maxPendingAuth=*/2, token);
    for (int attempt = 0; attempt < 5; ++attempt)  // more than the slots: each must come back
      EXPECT_THROW(
          slots.add([](std::function<bool()>, std::function<void()>) -> Connection { throw std::bad_alloc(); }),
          std::bad_alloc);
    EXPECT_EQ(slots.active() + slots.pending(), 0) << "token " << token;

    // The slots are all there: two connections made and counted.
    std::vector<std::function<void()>> closers;
    std::vector<std::function<bool()>> admitters;
    const auto keep = [&](std::function<bool()> admit, std::function<void()> onClosed) {
      admitters.push_back(std::move(admit));
      closers.push_back(std::move(onClosed));
      return Connection();
    };
    slots.add(keep);
    slots.add(keep);
    ASSERT_EQ(closers.size(), 2u);
    for (auto& admit : admitters) EXPECT_TRUE(admit());
    EXPECT_EQ(slots.active(), 2);
    if (!token) {
      slots.add(keep);
      EXPECT_EQ(closers.size(), 2u) << "full: a third is not made";
    }
    closers[0]();
    EXPECT_EQ(slots.active(), 1);
  }
}

}  // namespace
}  // namespace gobblet
