// StopSource / StopToken: requests, the signal they name, the point of no return, and requests from another thread.
#include "recflow/core/stop_token.h"

#include <gtest/gtest.h>
#include <signal.h>

#include <thread>

namespace recflow {
namespace {

TEST(StopTokenTest, ADefaultTokenNeverStops) {
  const StopToken token;
  EXPECT_FALSE(token.stop_requested());
  EXPECT_TRUE(token.Poll().ok());
  EXPECT_EQ(token.signal(), 0);
  EXPECT_TRUE(token.PassPointOfNoReturn().ok());
}

TEST(StopTokenTest, ARequestReachesEveryTokenAndNamesItsSignal) {
  StopSource source;
  const StopToken a = source.token();
  const StopToken b = a;
  EXPECT_FALSE(a.stop_requested());
  EXPECT_TRUE(source.RequestStop(SIGTERM));
  EXPECT_FALSE(source.RequestStop(SIGINT)) << "the first request wins";
  for (const StopToken& token : {a, b, source.token()}) {
    EXPECT_TRUE(token.stop_requested());
    EXPECT_EQ(token.signal(), SIGTERM);
    EXPECT_EQ(token.Poll().code(), StatusCode::kCancelled);
    EXPECT_EQ(token.Poll().message(), "interrupted by SIGTERM");
  }
  StopSource plain;
  EXPECT_TRUE(plain.RequestStop());
  EXPECT_EQ(plain.token().Poll().message(), "cancelled");
  EXPECT_EQ(plain.token().signal(), 0);
}

TEST(StopTokenTest, WaitForStopReturnsOnceAnotherThreadRequestsIt) {
  StopSource source;
  const StopToken token = source.token();
  std::thread waiter([&] { token.WaitForStop(); });
  EXPECT_TRUE(source.RequestStop(SIGTERM));
  waiter.join();  // a lost wake-up hangs here (ctest's timeout bounds it)
  token.WaitForStop();  // returns at once after the request
  EXPECT_EQ(token.signal(), SIGTERM);
}

TEST(StopTokenTest, PastThePointOfNoReturnRequestsAreRefused) {
  StopSource source;
  EXPECT_TRUE(source.token().PassPointOfNoReturn().ok());
  EXPECT_FALSE(source.RequestStop(SIGINT)) << "the job commits: the requester must not wait for a stop";
  EXPECT_FALSE(source.token().stop_requested());
  EXPECT_TRUE(source.token().PassPointOfNoReturn().ok());
}

TEST(StopTokenTest, AStopBeforeThePointOfNoReturnCancelsIt) {
  StopSource source;
  ASSERT_TRUE(source.RequestStop(SIGINT));
  const Status st = source.token().PassPointOfNoReturn();
  EXPECT_EQ(st.code(), StatusCode::kCancelled);
  EXPECT_EQ(st.message(), "interrupted by SIGINT");
}

TEST(StopTokenTest, ExactlyOneOfARequestAndThePointOfNoReturnWins) {
  for (int trial = 0; trial < 200; ++trial) {
    StopSource source;
    bool requested = false;
    std::thread requester([&] { requested = source.RequestStop(SIGTERM); });
    const Status passed = source.token().PassPointOfNoReturn();
    requester.join();
    EXPECT_NE(requested, passed.ok()) << "trial " << trial;
  }
}

}  // namespace
}  // namespace recflow
