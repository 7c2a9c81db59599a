// JetStream administration: STREAM.INFO/CREATE, CONSUMER.INFO/DURABLE.CREATE as JSON requests, their errors and the consumer's state read.
#include "recflow/connectors/nats/jetstream_admin.h"

#include <simdjson.h>

#include <algorithm>

#include "recflow/formats/jsonl/json_writer.h"

namespace recflow::nats {

namespace {

constexpr int64_t kApiTimeoutMs = 5000;
constexpr int64_t kNanosPerMilli = 1000000;
constexpr int64_t kStreamNotFound = 10059;
constexpr int64_t kConsumerNotFound = 10014;

// The API request `subject` with `body`; the reply's JSON error as a status naming `what`.
Result<std::string> Api(NatsConnection& connection, const std::string& subject, const std::string& body,
                        const std::string& what, int64_t* err_code) {
  ASSIGN_OR_RETURN(std::string reply, connection.Request(subject, body, kApiTimeoutMs));
  RETURN_NOT_OK(JetStreamApiError(reply, connection.url() + ": " + what, err_code));
  return reply;
}

std::string StreamConfig(const std::string& stream, const std::string& subject) {
  std::string out;
  jsonl::JsonWriter w(&out);
  w.BeginObject();
  w.Key("name");
  w.String(stream);
  w.Key("subjects");
  w.BeginArray();
  w.String(subject.empty() ? ">" : subject);
  w.EndArray();
  w.Key("storage");
  w.String("file");
  w.EndObject();
  return out;
}

std::string ConsumerConfig(const NatsSourceOptions& o) {
  std::string out;
  jsonl::JsonWriter w(&out);
  w.BeginObject();
  w.Key("stream_name");
  w.String(o.stream);
  w.Key("config");
  w.BeginObject();
  w.Key("durable_name");
  w.String(o.consumer);
  w.Key("deliver_policy");
  w.String("all");
  w.Key("ack_policy");
  w.String("explicit");
  w.Key("ack_wait");
  w.Int(o.ack_wait_ms * kNanosPerMilli);
  w.Key("max_ack_pending");
  w.Int(o.max_ack_pending);
  w.Key("max_deliver");
  w.Int(-1);
  if (!o.subject.empty()) {
    w.Key("filter_subject");
    w.String(o.subject);
  }
  w.EndObject();
  w.EndObject();
  return out;
}

}  // namespace

Status EnsureStream(NatsConnection& connection, const std::string& stream, const std::string& subject, bool create) {
  const std::string what = "stream " + stream;
  int64_t code = 0;
  Result<std::string> info = Api(connection, "$JS.API.STREAM.INFO." + stream, "", what, &code);
  if (info.ok()) return Status::OK();
  if (code != kStreamNotFound || !create) return info.status();
  return Api(connection, "$JS.API.STREAM.CREATE." + stream, StreamConfig(stream, subject), "creating " + what, nullptr)
      .status();
}

Status EnsureConsumer(NatsConnection& connection, const NatsSourceOptions& options) {
  RETURN_NOT_OK(EnsureStream(connection, options.stream, options.subject, options.create));
  const std::string consumer = "stream " + options.stream + ", consumer " + options.consumer;
  int64_t code = 0;
  Result<std::string> info = Api(connection, "$JS.API.CONSUMER.INFO." + options.stream + "." + options.consumer, "", consumer, &code);
  if (info.ok()) return Status::OK();
  if (code != kConsumerNotFound || !options.create) return info.status();
  return Api(connection, "$JS.API.CONSUMER.DURABLE.CREATE." + options.stream + "." + options.consumer,
             ConsumerConfig(options), "creating " + consumer, nullptr).status();
}

Result<ConsumerState> GetConsumerState(NatsConnection& connection, const NatsSourceOptions& options) {
  const std::string what = "stream " + options.stream + ", consumer " + options.consumer;
  ASSIGN_OR_RETURN(std::string reply, Api(connection, "$JS.API.CONSUMER.INFO." + options.stream + "." + options.consumer,
                                          "", what, nullptr));
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  ConsumerState state;
  int64_t ack_wait_ns = 0;
  if (parser.parse(reply).get(doc) != simdjson::SUCCESS || doc["num_pending"].get(state.pending) != simdjson::SUCCESS ||
      doc["num_ack_pending"].get(state.ack_pending) != simdjson::SUCCESS ||
      doc["delivered"]["stream_seq"].get(state.delivered_sequence) != simdjson::SUCCESS ||
      doc["ack_floor"]["stream_seq"].get(state.ack_floor_sequence) != simdjson::SUCCESS ||
      doc["config"]["ack_wait"].get(ack_wait_ns) != simdjson::SUCCESS || state.pending < 0 || state.ack_pending < 0 ||
      ack_wait_ns <= 0) {
    return Status::DataError(connection.url() + ": " + what +
                             ": the consumer's info lacks num_pending, num_ack_pending, delivered.stream_seq, "
                             "ack_floor.stream_seq or config.ack_wait");
  }
  state.ack_wait_ms = std::max<int64_t>(1, ack_wait_ns / kNanosPerMilli);
  return state;
}

Result<uint64_t> GetStreamLastSequence(NatsConnection& connection, const NatsSourceOptions& options) {
  const std::string what = "stream " + options.stream;
  ASSIGN_OR_RETURN(std::string reply, Api(connection, "$JS.API.STREAM.INFO." + options.stream, "", what, nullptr));
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  uint64_t last = 0;
  if (parser.parse(reply).get(doc) != simdjson::SUCCESS || doc["state"]["last_seq"].get(last) != simdjson::SUCCESS) {
    return Status::DataError(connection.url() + ": " + what + ": the stream's info lacks state.last_seq");
  }
  return last;
}

}  // namespace recflow::nats
