// The NATS sink: JSON and ids made in parallel in Consume, requests to the stream's subject in order in Emit (or, when
// held, once the epoch or the run committed), the PubAck or error of each read.
#include "recflow/connectors/nats/nats_sink.h"

#include <nats/nats.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <deque>

#include "recflow/connectors/nats/jetstream_admin.h"
#include "recflow/connectors/nats/nats_connection.h"
#include "recflow/formats/jsonl/json_writer.h"
#include "recflow/formats/jsonl/row_json.h"

namespace recflow::nats {

Status NatsSinkOptions::Validate() const {
  if (url.empty()) return Status::InvalidArgument("url: missing (nats://host:port)");
  if (subject.empty()) return Status::InvalidArgument("subject: missing");
  if (subject.find_first_of("*> \t") != std::string::npos) {
    return Status::InvalidArgument("subject: '" + subject + "' has a wildcard or a space; rows go to one subject");
  }
  if (stream.find_first_of(".*> \t") != std::string::npos) {
    return Status::InvalidArgument("stream: '" + stream + "' has a '.', '*', '>' or a space");
  }
  if (timeout_ms < 1) return Status::InvalidArgument("timeout: must be at least 1ms");
  return Status::OK();
}

Result<std::string> MessageId(const std::string& subject, int64_t generation, const RecordBatch& batch, int64_t row,
                              const int pane[3], const std::vector<int>& key) {
  std::string id = subject;
  if (generation != 0) id += "|g" + std::to_string(generation);
  jsonl::JsonWriter writer(&id);
  if (pane[0] >= 0) {
    id += "|w";
    RETURN_NOT_OK(jsonl::WriteJsonValue(*batch.schema()->field(pane[0]), *batch.column_data(pane[0]), row, &writer));
    id += "-";
    jsonl::JsonWriter end(&id);
    RETURN_NOT_OK(jsonl::WriteJsonValue(*batch.schema()->field(pane[1]), *batch.column_data(pane[1]), row, &end));
    id += "|p";
    jsonl::JsonWriter index(&id);
    RETURN_NOT_OK(jsonl::WriteJsonValue(*batch.schema()->field(pane[2]), *batch.column_data(pane[2]), row, &index));
  }
  id += "|";
  jsonl::JsonWriter keys(&id);
  keys.BeginArray();
  for (int column : key) RETURN_NOT_OK(jsonl::WriteJsonValue(*batch.schema()->field(column), *batch.column_data(column), row, &keys));
  keys.EndArray();
  return id;
}

namespace {

// One batch's messages, rendered.
struct Messages final : SinkPartial {
  std::vector<std::string> payloads;
  std::vector<std::string> ids;  // empty when rows have no id
};

class NatsSink final : public Sink {
 public:
  NatsSink(NatsSinkOptions options, SchemaPtr input, std::unique_ptr<NatsConnection> connection, std::vector<int> key,
           std::array<int, 3> pane)
      : options_(std::move(options)),
        input_(std::move(input)),
        connection_(std::move(connection)),
        renderer_(*input_, false),
        key_(std::move(key)),
        pane_(pane) {}
  // Subscribes to the inbox the stream's acknowledgements come to.
  Status Subscribe() {
    ASSIGN_OR_RETURN(inbox_, connection_->NewInbox());
    ASSIGN_OR_RETURN(replies_, connection_->SubscribeSync(inbox_ + ".>"));
    return Status::OK();
  }

  Result<std::unique_ptr<SinkPartial>> Consume(SinkLocalState*, const std::shared_ptr<RecordBatch>& batch) const override {
    auto messages = std::make_unique<Messages>();
    const bool ids = pane_[0] >= 0 || !key_.empty();
    for (int64_t row = 0; row < batch->num_rows(); ++row) {
      std::string& payload = messages->payloads.emplace_back();
      jsonl::JsonWriter writer(&payload);
      Status st = renderer_.Render(*batch, row, &writer);
      if (!st.ok()) return st.WithRecord(row);
      if (!ids) continue;
      ASSIGN_OR_RETURN(std::string id, MessageId(options_.subject, options_.generation, *batch, row, pane_.data(), key_));
      messages->ids.push_back(std::move(id));
    }
    return std::unique_ptr<SinkPartial>(std::move(messages));
  }

  Status Merge(SinkPartial*) override { return Status::OK(); }

  Status Emit(SinkPartial* partial) override {
    auto& messages = static_cast<Messages&>(*partial);
    if (!hold_) return Publish(messages);
    held_.push_back(std::move(messages));
    return Status::OK();
  }

  void HoldEpochs() override { hold_ = true; }

  // The epoch's messages, batch by batch in the order they were emitted; dropped once acknowledged.
  Status CommitEpoch() override {
    for (; !held_.empty(); held_.pop_front()) RETURN_NOT_OK(Publish(held_.front()));
    return Status::OK();
  }

  Status Commit() override { return CommitEpoch(); }

  Status Abort() override {
    held_.clear();
    return Status::OK();
  }

 private:
  static constexpr int kResends = 3;  // times the unacknowledged messages of a batch with ids are sent again

  // Publishes `messages` and waits for the stream's acknowledgement of each.
  Status Publish(const Messages& messages) {
    const size_t n = messages.payloads.size();
    // Every message is a request with a reply subject of its own (<inbox>.<batch>.<i>); all are sent, then the
    // stream's acknowledgements are read, in any order. A message with a Nats-Msg-Id not acknowledged within the
    // timeout is sent again (at most kResends times): one published as the server went down is lost with the
    // connection, and the stream's duplicate window drops a copy that did arrive (its acknowledgement says so).
    const std::string prefix = inbox_ + "." + std::to_string(batches_++) + ".";
    for (size_t i = 0; i < n; ++i) RETURN_NOT_OK(Failed(i, messages, Send(messages, i, prefix + std::to_string(i))));
    std::vector<bool> confirmed(n, false);
    int resends = 0;
    for (size_t received = 0; received < n;) {
      natsMsg* raw = nullptr;
      const natsStatus s = natsSubscription_NextMsg(&raw, replies_.get(), options_.timeout_ms);
      if (s == NATS_TIMEOUT && !messages.ids.empty() && resends < kResends) {
        ++resends;
        for (size_t i = 0; i < n; ++i) {
          if (!confirmed[i]) RETURN_NOT_OK(Failed(i, messages, Send(messages, i, prefix + std::to_string(i))));
        }
        continue;
      }
      if (s == NATS_TIMEOUT || s == NATS_NO_RESPONDERS) {
        // nats.c reads a "no responders" status (503) as this error, without the message: the rows share one subject,
        // so the first row not confirmed yet is named.
        const size_t first = static_cast<size_t>(std::find(confirmed.begin(), confirmed.end(), false) - confirmed.begin());
        return Failed(first, messages, Status::IOError(s == NATS_TIMEOUT ? "no acknowledgement within " + std::to_string(options_.timeout_ms) + " ms"
                                                                         : std::string("no JetStream stream takes the subject")));
      }
      RETURN_NOT_OK(NatsStatus(s, options_.url + ": waiting for acknowledgements on " + options_.subject));
      std::unique_ptr<natsMsg, decltype(&natsMsg_Destroy)> reply(raw, natsMsg_Destroy);
      const std::string_view subject = natsMsg_GetSubject(reply.get());
      if (!subject.starts_with(prefix)) continue;  // a late reply to an earlier batch's request
      size_t i = 0;
      const std::string_view index = subject.substr(prefix.size());
      if (std::from_chars(index.data(), index.data() + index.size(), i).ec != std::errc() || i >= n || confirmed[i]) continue;
      confirmed[i] = true;
      ++received;
      const std::string_view ack(natsMsg_GetData(reply.get()), static_cast<size_t>(natsMsg_GetDataLength(reply.get())));
      RETURN_NOT_OK(Failed(i, messages, JetStreamApiError(ack, "the stream refused it")));
    }
    published_ += static_cast<int64_t>(n);
    return Status::OK();
  }

  // Publishes message `i` of `messages` with reply subject `reply`.
  Status Send(const Messages& messages, size_t i, const std::string& reply) {
    const std::string& payload = messages.payloads[i];
    natsMsg* raw = nullptr;
    RETURN_NOT_OK(NatsStatus(natsMsg_Create(&raw, options_.subject.c_str(), reply.c_str(), payload.data(),
                                            static_cast<int>(payload.size())), "message"));
    std::unique_ptr<natsMsg, decltype(&natsMsg_Destroy)> msg(raw, natsMsg_Destroy);
    if (!messages.ids.empty()) {
      RETURN_NOT_OK(NatsStatus(natsMsgHeader_Set(msg.get(), "Nats-Msg-Id", messages.ids[i].c_str()), "message header"));
    }
    return NatsStatus(natsConnection_PublishMsg(connection_->get(), msg.get()), "publish");
  }

  // `st` (when not OK) naming the server, the subject, row `i` of this batch among all the sink's rows, and its id.
  Status Failed(size_t i, const Messages& messages, const Status& st) const {
    if (st.ok()) return st;
    const std::string id = messages.ids.empty() ? "" : " (Nats-Msg-Id " + messages.ids[i] + ")";
    return Status(st.code(), options_.url + ": publishing row " + std::to_string(published_ + static_cast<int64_t>(i)) +
                                 " on " + options_.subject + id + ": " + st.message());
  }

  NatsSinkOptions options_;
  SchemaPtr input_;
  std::unique_ptr<NatsConnection> connection_;
  jsonl::RowJsonRenderer renderer_;
  std::vector<int> key_;
  std::array<int, 3> pane_;
  std::string inbox_;                   // replies to batch b's message i come to <inbox_>.<b>.<i>
  NatsConnection::Subscription replies_{nullptr, natsSubscription_Destroy};  // on <inbox_>.>
  int64_t batches_ = 0;
  int64_t published_ = 0;
  bool hold_ = false;           // HoldEpochs: Emit keeps the messages in held_ until CommitEpoch
  std::deque<Messages> held_;   // the current epoch's messages, per batch
};

}  // namespace

Result<std::unique_ptr<Sink>> OpenNatsSink(const NatsSinkOptions& options, const SchemaPtr& input) {
  RETURN_NOT_OK(options.Validate());
  std::vector<int> key;
  for (const std::string& name : options.key) {
    const int column = input->GetFieldIndex(name);
    if (column < 0) return Status::InvalidArgument("key: the rows have no column '" + name + "'");
    key.push_back(column);
  }
  std::array<int, 3> pane{input->GetFieldIndex("window_start"), input->GetFieldIndex("window_end"),
                          input->GetFieldIndex("pane_index")};
  if (pane[0] < 0 || pane[1] < 0 || pane[2] < 0) pane = {-1, -1, -1};
  ASSIGN_OR_RETURN(auto connection, NatsConnection::Connect(options.url));
  if (!options.stream.empty()) RETURN_NOT_OK(EnsureStream(*connection, options.stream, options.subject, /*create=*/true));
  auto sink = std::make_unique<NatsSink>(options, input, std::move(connection), std::move(key), pane);
  RETURN_NOT_OK(sink->Subscribe());
  return std::unique_ptr<Sink>(std::move(sink));
}

}  // namespace recflow::nats
