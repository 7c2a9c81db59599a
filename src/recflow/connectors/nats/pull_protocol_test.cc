// Tests of the pull protocol's pieces: request bodies, ack subjects of both forms and hostile ones, status codes.
#include "recflow/connectors/nats/pull_protocol.h"

#include <gtest/gtest.h>

namespace recflow::nats {
namespace {

TEST(PullProtocolTest, RequestSubjectAndBody) {
  EXPECT_EQ(PullSubject("SCENES", "evi"), "$JS.API.CONSUMER.MSG.NEXT.SCENES.evi");
  EXPECT_EQ(PullRequestBody(256, 1000, 250), "{\"batch\":256,\"expires\":1000000000,\"idle_heartbeat\":250000000}");
  EXPECT_EQ(PullRequestBody(1, 100, 0), "{\"batch\":1,\"expires\":100000000}");
}

TEST(PullProtocolTest, AckSubjectWithoutDomain) {
  auto m = ParseAckSubject("$JS.ACK.SCENES.evi.2.17.5.1700000000123456789.40");
  ASSERT_TRUE(m.ok()) << m.status().ToString();
  EXPECT_EQ(m->stream, "SCENES");
  EXPECT_EQ(m->consumer, "evi");
  EXPECT_EQ(m->delivered, 2);
  EXPECT_EQ(m->stream_sequence, 17u);
  EXPECT_EQ(m->consumer_sequence, 5u);
  EXPECT_EQ(m->published_ns, 1700000000123456789);
  EXPECT_EQ(m->pending, 40u);
}

TEST(PullProtocolTest, AckSubjectWithDomainAndAccountHash) {
  auto m = ParseAckSubject("$JS.ACK.hub.ACCHASH.SCENES.evi.1.9.9.1700000000000000000.0.rnd");
  ASSERT_TRUE(m.ok()) << m.status().ToString();
  EXPECT_EQ(m->stream, "SCENES");
  EXPECT_EQ(m->consumer, "evi");
  EXPECT_EQ(m->stream_sequence, 9u);
}

TEST(PullProtocolTest, HostileAckSubjectsAreRefused) {
  for (const char* bad : {"", "_INBOX.abc", "$JS.ACK.S.c.1.2.3.4", "$JS.ACK.S.c.1.2.3.4.5.6", "$JS.ACK.S.c.x.2.3.4.5",
                          "$JS.ACK.S.c.0.2.3.4.5", "$JS.ACK.S.c.1.0.3.4.5", "$JS.ACK.S.c.1.-2.3.4.5",
                          "$JS.ACK.S.c.1.2.3.99999999999999999999.5", "$JS.ACK.S.c.1.2.3.9223372036854775808.5",
                          "$JS.ACK..c.1.2.3.4.5", "$JS.ACK.S.c.1.2 .3.4.5", "$JS.NAK.S.c.1.2.3.4.5"}) {
    auto m = ParseAckSubject(bad);
    ASSERT_FALSE(m.ok()) << bad;
    EXPECT_EQ(m.status().code(), StatusCode::kDataError) << bad;
  }
}

TEST(PullProtocolTest, StatusCodes) {
  EXPECT_EQ(*ParsePullStatus("100", "Idle Heartbeat"), PullStatus::kHeartbeat);
  EXPECT_EQ(*ParsePullStatus("404", "No Messages"), PullStatus::kNoMessages);
  EXPECT_EQ(*ParsePullStatus("408", "Request Timeout"), PullStatus::kExpired);
  for (const char* again : {"Exceeded MaxWaiting", "Message Size Exceeds MaxBytes", "Leadership Change", "Server Shutdown"}) {
    EXPECT_EQ(*ParsePullStatus("409", again), PullStatus::kConflict) << again;
  }
  auto other = ParsePullStatus("503", "No Responders");
  ASSERT_FALSE(other.ok());
  EXPECT_NE(other.status().message().find("503"), std::string::npos);
  EXPECT_NE(other.status().message().find("No Responders"), std::string::npos);
}

TEST(PullProtocolTest, A409EveryNewPullWouldGetAgainFailsTheRunNamingIt) {
  for (const char* refused : {"Consumer Deleted", "Consumer is push based", "Exceeded MaxRequestBatch of 100",
                              "Exceeded MaxRequestExpires of 1s", "Exceeded MaxRequestMaxBytes of 1024"}) {
    auto status = ParsePullStatus("409", refused);
    ASSERT_FALSE(status.ok()) << refused;
    EXPECT_EQ(status.status().code(), StatusCode::kIOError) << refused;
    EXPECT_NE(status.status().message().find(std::string("409 ") + refused), std::string::npos) << status.status().ToString();
  }
}

}  // namespace
}  // namespace recflow::nats
