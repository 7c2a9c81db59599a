// The pull protocol's pieces: request bodies, ack subjects split into tokens (without allocating) and checked, status
// codes.
#include "recflow/connectors/nats/pull_protocol.h"

#include <array>
#include <charconv>

namespace recflow::nats {

namespace {

constexpr int64_t kNanosPerMilli = 1000000;

constexpr size_t kAckTokensRead = 11;  // the tokens of an ack subject read: all of the longest form but its last

// Splits `subject` at its dots into `tokens` (the first kAckTokensRead of them); returns how many it has in all.
// Allocates nothing: it runs for every message a source receives.
size_t SplitTokens(std::string_view subject, std::array<std::string_view, kAckTokensRead>* tokens) {
  size_t count = 0, start = 0;
  while (true) {
    const size_t dot = subject.find('.', start);
    if (count < tokens->size()) (*tokens)[count] = subject.substr(start, dot == std::string_view::npos ? dot : dot - start);
    ++count;
    if (dot == std::string_view::npos) return count;
    start = dot + 1;
  }
}

// A decimal token without sign or leading junk, within uint64.
bool Number(std::string_view token, uint64_t* out) {
  if (token.empty()) return false;
  const auto [end, error] = std::from_chars(token.data(), token.data() + token.size(), *out);
  return error == std::errc() && end == token.data() + token.size();
}

}  // namespace

std::string PullSubject(const std::string& stream, const std::string& consumer) {
  return "$JS.API.CONSUMER.MSG.NEXT." + stream + "." + consumer;
}

std::string PullRequestBody(int64_t batch, int64_t expires_ms, int64_t heartbeat_ms) {
  std::string body = "{\"batch\":" + std::to_string(batch) + ",\"expires\":" + std::to_string(expires_ms * kNanosPerMilli);
  if (heartbeat_ms > 0) body += ",\"idle_heartbeat\":" + std::to_string(heartbeat_ms * kNanosPerMilli);
  return body + "}";
}

Result<MessageMetadata> ParseAckSubject(std::string_view reply) {
  auto bad = [&](const std::string& why) {
    return Status::DataError("'" + std::string(reply.substr(0, 200)) + "' is not a JetStream ack subject: " + why);
  };
  std::array<std::string_view, kAckTokensRead> t;
  const size_t count = SplitTokens(reply, &t);
  if (count < 9 || t[0] != "$JS" || t[1] != "ACK") return bad("it does not start $JS.ACK. with 9 or more tokens");
  // 9 tokens: the form before domains; 11 or more: domain and account hash first.
  if (count == 10) return bad("it has 10 tokens");
  const size_t first = count == 9 ? 2 : 4;
  MessageMetadata m;
  m.stream = t[first];
  m.consumer = t[first + 1];
  if (m.stream.empty() || m.consumer.empty()) return bad("the stream or consumer is empty");
  uint64_t delivered = 0, published = 0;
  if (!Number(t[first + 2], &delivered) || !Number(t[first + 3], &m.stream_sequence) ||
      !Number(t[first + 4], &m.consumer_sequence) || !Number(t[first + 5], &published) ||
      !Number(t[first + 6], &m.pending)) {
    return bad("a count, sequence or time is not a number");
  }
  if (delivered == 0 || delivered > static_cast<uint64_t>(INT64_MAX) || published > static_cast<uint64_t>(INT64_MAX) ||
      m.stream_sequence == 0) {
    return bad("the delivery count, stream sequence or time is out of range");
  }
  m.delivered = static_cast<int64_t>(delivered);
  m.published_ns = static_cast<int64_t>(published);
  return m;
}

Result<PullStatus> ParsePullStatus(std::string_view status, std::string_view description) {
  if (status == "100") return PullStatus::kHeartbeat;
  if (status == "404") return PullStatus::kNoMessages;
  if (status == "408") return PullStatus::kExpired;
  if (status == "409") {
    // Refusals of the consumer or of the pull itself: pulling again would be refused again, at once, forever.
    for (std::string_view fatal : {"Consumer Deleted", "Consumer is push based", "Exceeded MaxRequestBatch",
                                   "Exceeded MaxRequestExpires", "Exceeded MaxRequestMaxBytes"}) {
      if (description.starts_with(fatal)) {
        return Status::IOError("the server refused the pull: 409 " + std::string(description.substr(0, 200)));
      }
    }
    return PullStatus::kConflict;
  }
  return Status::DataError("a pull received status '" + std::string(status.substr(0, 16)) + "' (" +
                           std::string(description.substr(0, 200)) + ")");
}

}  // namespace recflow::nats
