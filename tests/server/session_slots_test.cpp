// SessionSlots (server/session_slots.h): the count of connections, given
// back whatever happens to a connection, also when making it fails.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <future>
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

// A connection destroyed while it is made (its constructor threw after
// ClientConnection's, whose destructor calls onClosed) gave its slot back
// from inside add(), which held the lock: a deadlock. Now the slot comes
// back once, and add() rethrows.
TEST(SessionSlots, AConnectionDestroyedWhileMadeGivesItsSlotBackOnce) {
  for (const bool token : {false, true}) {
    SessionSlots slots(/*maxSessions=*/2, /*maxPendingAuth=*/2, token);
    auto attempt = std::async(std::launch::async, [&slots] {
      for (int i = 0; i < 5; ++i)
        EXPECT_THROW(slots.add([](std::function<bool()>, std::function<void()> onClosed) -> Connection {
          onClosed();  // what ~ClientConnection does as the exception unwinds
          throw std::bad_alloc();
        }),
                     std::bad_alloc);
    });
    if (attempt.wait_for(std::chrono::seconds(30)) != std::future_status::ready) {
      std::fprintf(stderr, "add() deadlocked (token %d)\n", token ? 1 : 0);
      std::_Exit(1);  // the thread cannot be joined
    }
    EXPECT_EQ(slots.active() + slots.pending(), 0) << "token " << token;
    // Both slots are still there (none was given back twice, none lost).
    int made = 0;
    for (int i = 0; i < 2; ++i)
      slots.add([&](std::function<bool()> admit, std::function<void()>) {
        made += admit() ? 1 : 0;
        return Connection();
      });
    EXPECT_EQ(made, 2);
    EXPECT_EQ(slots.active(), 2);
  }
}

}  // namespace
}  // namespace gobblet
