// The bare libnats JetStream consume loop bench/nats_throughput.py compares recflow's NATS source with: pulls issued by
// hand as the connector issues them, each payload's JSON parsed, each message acknowledged.
//
// Usage: recflow-nats-peer URL STREAM CONSUMER N BATCH [at-end]  ->  {"messages": N, "seconds": S}
// Creates the durable pull consumer CONSUMER (explicit acks, everything) on STREAM, then reads N messages: one pull
// ($JS.API.CONSUMER.MSG.NEXT request, BATCH messages, 1 s expiry) outstanding at a time on its own inbox, every
// payload parsed with simdjson (key, value, ts read), every message acknowledged with a plain "+ACK" as it is read, or
// with `at-end` all once the last was read (their ack subjects kept until then, as a run committing at its end must).
// The time runs from the first pull to the server's reply to a flush after the last acknowledgement.
#include <nats/nats.h>
#include <simdjson.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

namespace {

int Fail(const char* what, natsStatus s) {
  std::fprintf(stderr, "recflow-nats-peer: %s: %s\n", what, natsStatus_GetText(s));
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 6 && !(argc == 7 && std::string_view(argv[6]) == "at-end")) {
    std::fprintf(stderr, "usage: recflow-nats-peer URL STREAM CONSUMER N BATCH [at-end]\n");
    return 2;
  }
  const bool at_end = argc == 7;
  const std::string url = argv[1], stream = argv[2], consumer = argv[3];
  const int64_t n = std::atoll(argv[4]), batch = std::atoll(argv[5]);
  natsConnection* nc = nullptr;
  natsStatus s = natsConnection_ConnectTo(&nc, url.c_str());
  if (s != NATS_OK) return Fail("connect", s);
  const std::string config = "{\"stream_name\":\"" + stream + "\",\"config\":{\"durable_name\":\"" + consumer +
                             "\",\"deliver_policy\":\"all\",\"ack_policy\":\"explicit\",\"max_ack_pending\":-1}}";
  natsMsg* reply = nullptr;
  s = natsConnection_RequestString(&reply, nc, ("$JS.API.CONSUMER.DURABLE.CREATE." + stream + "." + consumer).c_str(),
                                   config.c_str(), 5000);
  if (s != NATS_OK) return Fail("creating the consumer", s);
  natsMsg_Destroy(reply);
  natsInbox* inbox = nullptr;
  natsInbox_Create(&inbox);
  natsSubscription* sub = nullptr;
  if ((s = natsConnection_SubscribeSync(&sub, nc, inbox)) != NATS_OK) return Fail("subscribe", s);
  natsSubscription_SetPendingLimits(sub, -1, -1);
  const std::string next = "$JS.API.CONSUMER.MSG.NEXT." + stream + "." + consumer;
  const std::string body = "{\"batch\":" + std::to_string(batch) + ",\"expires\":1000000000}";
  simdjson::ondemand::parser parser;
  simdjson::padded_string payload;
  int64_t seen = 0, checksum = 0;
  std::vector<std::string> held;  // at-end: the ack subjects of the messages read
  const auto started = std::chrono::steady_clock::now();
  while (seen < n) {
    if ((s = natsConnection_PublishRequestString(nc, next.c_str(), inbox, body.c_str())) != NATS_OK) return Fail("pull", s);
    for (int64_t received = 0; received < batch && seen < n;) {
      natsMsg* msg = nullptr;
      if ((s = natsSubscription_NextMsg(&msg, sub, 5000)) != NATS_OK) return Fail("waiting for messages", s);
      const char* status = nullptr;
      if (natsMsg_GetDataLength(msg) == 0 && natsMsgHeader_Get(msg, "Status", &status) == NATS_OK) {
        const bool heartbeat = std::string_view(status) == "100";
        natsMsg_Destroy(msg);
        if (heartbeat) continue;
        break;  // 404/408/409: this pull ended
      }
      payload = simdjson::padded_string(natsMsg_GetData(msg), static_cast<size_t>(natsMsg_GetDataLength(msg)));
      auto doc = parser.iterate(payload);
      std::string_view key;
      int64_t value = 0, ts = 0;
      if (doc["key"].get_string().get(key) || doc["value"].get_int64().get(value) || doc["ts"].get_int64().get(ts)) {
        std::fprintf(stderr, "recflow-nats-peer: a payload is not {key, value, ts}\n");
        return 1;
      }
      checksum += value + static_cast<int64_t>(key.size()) + (ts & 1);
      if (at_end) {
        held.emplace_back(natsMsg_GetReply(msg));
      } else {
        natsConnection_PublishString(nc, natsMsg_GetReply(msg), "+ACK");
      }
      natsMsg_Destroy(msg);
      ++received;
      ++seen;
    }
  }
  for (const std::string& reply : held) natsConnection_PublishString(nc, reply.c_str(), "+ACK");
  if ((s = natsConnection_FlushTimeout(nc, 30000)) != NATS_OK) return Fail("flush", s);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  std::printf("{\"messages\": %lld, \"seconds\": %.6f, \"checksum\": %lld}\n", static_cast<long long>(seen), seconds,
              static_cast<long long>(checksum));
  natsSubscription_Destroy(sub);
  natsInbox_Destroy(inbox);
  natsConnection_Destroy(nc);
  return 0;
}
