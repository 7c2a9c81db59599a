// The NATS source: pulls issued by hand on the consumer's inbox, payloads decoded into rows, the per-subject watermark
// after each pull's messages, the messages held until a durable checkpoint covering them or Committed() acknowledges
// them.
#include "recflow/connectors/nats/nats_source.h"

#include <nats/nats.h>

#include <algorithm>
#include <chrono>
#include <deque>
#include <mutex>
#include <optional>
#include <vector>

#include "recflow/columnar/builder.h"
#include "recflow/columnar/element_access.h"
#include "recflow/connectors/nats/consumer_backlog.h"
#include "recflow/connectors/nats/held_messages.h"
#include "recflow/connectors/nats/jetstream_admin.h"
#include "recflow/connectors/nats/nats_connection.h"
#include "recflow/connectors/nats/pull_protocol.h"
#include "recflow/connectors/nats/sequence_ranges.h"
#include "recflow/connectors/nats/subject_watermarks.h"
#include "recflow/formats/checkpointed_source.h"
#include "recflow/formats/jsonl/json_object_decoder.h"
#include "recflow/pipeline/window_columns.h"

namespace recflow::nats {

Status NatsSourceOptions::Validate() const {
  if (url.empty()) return Status::InvalidArgument("url: missing (nats://host:port)");
  if (stream.empty() || consumer.empty()) return Status::InvalidArgument("stream and consumer: both are needed");
  for (const std::string* name : {&stream, &consumer}) {
    if (name->find_first_of(".*> \t") != std::string::npos) {
      return Status::InvalidArgument("'" + *name + "': stream and consumer names have no '.', '*', '>' or spaces");
    }
  }
  if (payload == nullptr || payload->num_fields() == 0) return Status::InvalidArgument("schema: missing (the payload's columns)");
  for (const char* added : {kSubjectColumn, kSequenceColumn, kPublishedColumn}) {
    if (payload->GetFieldIndex(added) >= 0) return Status::InvalidArgument(std::string("schema: ") + added + " is a column the source adds");
  }
  if (!event_time.empty()) {
    const int column = payload->GetFieldIndex(event_time);
    if (column < 0 || !payload->field(column)->type()->is_integer()) {
      return Status::InvalidArgument("event_time: '" + event_time + "' is not an integer column of the schema (epoch milliseconds)");
    }
  }
  if (batch < 1 || batch > 1000000) return Status::InvalidArgument("batch: must be 1 to 1000000 messages");
  if (expires_ms < 100) return Status::InvalidArgument("expires: must be at least 100ms");
  if (out_of_orderness_ms < 0) return Status::InvalidArgument("out_of_orderness: must not be negative");
  if (ack_wait_ms < 1000) return Status::InvalidArgument("ack_wait: must be at least 1s");
  if (max_ack_pending < 1) return Status::InvalidArgument("max_ack_pending: must be at least 1");
  return Status::OK();
}

SchemaPtr NatsRowSchema(const NatsSourceOptions& options) {
  std::vector<FieldPtr> fields = options.payload->fields();
  fields.push_back(Field::Make(kSubjectColumn, utf8(), false));
  fields.push_back(Field::Make(kSequenceColumn, int64(), false));
  fields.push_back(Field::Make(kPublishedColumn, int64(), false));
  const int marked = options.event_time.empty() ? static_cast<int>(fields.size()) - 1
                                                : options.payload->GetFieldIndex(options.event_time);
  fields[static_cast<size_t>(marked)] = fields[static_cast<size_t>(marked)]->WithMetadata(
      std::make_shared<const KeyValueMetadata>(std::vector<std::pair<std::string, std::string>>{{pipeline::kEventTimeMetadataKey, "ms"}}));
  return Schema::Make(std::move(fields));
}

namespace {

constexpr int64_t kWaitSliceMs = 200;     // longest wait for a message before the run gets control back
constexpr size_t kDestroyBurst = 2048;    // messages read kept until they are destroyed together,
constexpr int64_t kDestroyBurstBytes = 4 << 20;  // or until their payloads reach this many bytes
constexpr int64_t kPullGraceMs = 2000;    // a pull with no end status this long after it expired is taken as lost
constexpr int64_t kAckTimeoutMs = 30000;  // the longest wait for the confirmation of a run's acknowledgements
constexpr int64_t kNakFlushMs = 5000;     // the longest wait for the server to take a stopped run's -NAKs
constexpr int64_t kGiveBackMs = 2000;     // the longest wait for the end of the pull outstanding when reading ended
constexpr int64_t kNanosPerMilli = 1000000;
constexpr int kSettleRounds = 8;          // the most pulls Settle makes
constexpr size_t kMarksKept = 4096;       // watermark tokens whose positions PositionAt can still give

int64_t NowMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
}

using MsgPtr = std::unique_ptr<natsMsg, decltype(&natsMsg_Destroy)>;

class NatsSource final : public Source, public CheckpointedSource {
 public:
  NatsSource(NatsSourceOptions options, SchemaPtr schema, std::unique_ptr<jsonl::JsonObjectDecoder> decoder)
      : options_(std::move(options)),
        schema_(std::move(schema)),
        name_(options_.url + "/" + options_.stream),
        decoder_(std::move(decoder)),
        watermarks_(options_.out_of_orderness_ms, options_.idle_ms) {}

  ~NatsSource() override {
    if (connection_ == nullptr) return;
    GiveBackPull();
    inbox_sub_.reset();
    std::lock_guard<std::mutex> lock(held_mutex_);
    if (held_.empty()) return;
    // Not committed: every held message is delivered again at once (not after AckWait).
    held_.ForEach([&](uint64_t, const char* reply) { (void)connection_->Publish(reply, "-NAK"); });
    (void)connection_->Flush(kNakFlushMs);
  }

  const SchemaPtr& schema() const override { return schema_; }
  const std::string& name() const override { return name_; }
  bool unbounded() const override { return true; }

  Result<std::unique_ptr<SourceUnit>> NextUnit() override {
    if (!error_.ok()) return error_;
    auto unit = Next();
    if (!unit.ok()) error_ = unit.status();
    return unit;
  }

  Status Committed() override {
    if (connection_ != nullptr) GiveBackPull();
    // The held messages are taken whole (a caught-up run holds every message it read until here).
    HeldMessages acked;
    uint64_t last_acked = 0;
    {
      std::lock_guard<std::mutex> lock(held_mutex_);
      if (held_.empty()) return Status::OK();
      last_acked = released_.last();  // acknowledged at checkpoints
      std::swap(acked, held_);
    }
    acked.ForEach([&](uint64_t sequence, const char*) { last_acked = std::max(last_acked, sequence); });
    RETURN_NOT_OK(AckSync(acked));
    return Settle(acked, last_acked);
  }

  std::optional<std::vector<std::string>> PositionAt(int64_t watermark) override {
    std::lock_guard<std::mutex> lock(position_mutex_);
    // Asked in order: the marks up to this one are folded into what is covered, and forgotten.
    while (!marks_.empty() && marks_.front().watermark <= watermark) FoldOldestMark();
    if (covered_at_ != watermark) return std::nullopt;
    return covered_.ToEntries();
  }

  std::vector<std::string> Position() const override {
    std::lock_guard<std::mutex> lock(position_mutex_);
    SequenceRanges all = covered_;
    for (const Mark& mark : marks_) {
      for (uint64_t sequence : mark.sequences) all.Add(sequence);
    }
    for (uint64_t sequence : unmarked_) all.Add(sequence);
    return all.ToEntries();
  }

  Status Resume(const std::vector<std::string>& position) override {
    auto covered = SequenceRanges::FromEntries(position);
    if (!covered.ok()) return covered.status();
    {
      std::lock_guard<std::mutex> lock(held_mutex_);
      released_ = *covered;
    }
    std::lock_guard<std::mutex> lock(position_mutex_);
    covered_ = std::move(covered).ValueUnsafe();
    return Status::OK();
  }

  Status Checkpointed(const std::vector<std::string>& position) override {
    auto covered = SequenceRanges::FromEntries(position);
    if (!covered.ok()) {
      return Status::Internal(name_ + ": a position it gave does not parse: " + covered.status().message());
    }
    // The held messages the position covers are acknowledged now (AckSync, the double ack), from this thread:
    // what the run holds, and each "+WPI" round, stay bounded by the open checkpoints. One of them delivered again
    // later is dropped (Receive).
    HeldMessages acked;
    {
      std::lock_guard<std::mutex> lock(held_mutex_);
      released_ = std::move(covered).ValueUnsafe();
      acked = held_.TakeIf([&](uint64_t sequence) { return released_.Contains(sequence); });
    }
    RETURN_NOT_OK(AckSync(acked));
    return CoverAckFloor();
  }

 private:
  // Once a checkpoint's acknowledgements are confirmed: every stream sequence at or below the consumer's ack floor is
  // acknowledged (by this run at a durable checkpoint, or by an earlier one) or not the consumer's (another subject of
  // the stream), so the positions given from now on cover them all as one range "1-FLOOR". Without it a filter subject
  // on a stream shared with other subjects leaves a range per hole in the position, and the checkpoint grows with the
  // run. Asked of the server only when the position has holes to close.
  Status CoverAckFloor() {
    {
      std::lock_guard<std::mutex> lock(position_mutex_);
      if (covered_.range_count() < 2) return Status::OK();
    }
    ASSIGN_OR_RETURN(ConsumerState now, GetConsumerState(*connection_, options_));
    {
      std::lock_guard<std::mutex> lock(held_mutex_);
      released_.CoverThrough(now.ack_floor_sequence);
    }
    std::lock_guard<std::mutex> lock(position_mutex_);
    covered_.CoverThrough(now.ack_floor_sequence);
    return Status::OK();
  }

  // AckSync for the whole set in one round trip: every "+ACK" but the last goes out plain, the last is a request the
  // server answers once it processed it. The server takes one consumer's acknowledgements from one connection in
  // order (a queue per consumer), so that reply confirms every one before it.
  Status AckSync(const HeldMessages& messages) {
    if (messages.empty()) return Status::OK();
    ASSIGN_OR_RETURN(const std::string confirmation, connection_->NewInbox());
    ASSIGN_OR_RETURN(NatsConnection::Subscription sub, connection_->SubscribeSync(confirmation));
    size_t left = messages.size();
    Status published;
    messages.ForEach([&](uint64_t, const char* reply) {
      if (published.ok()) published = connection_->Publish(reply, "+ACK", --left == 0 ? confirmation.c_str() : nullptr);
    });
    RETURN_NOT_OK(published);
    natsMsg* msg = nullptr;
    const natsStatus s = natsSubscription_NextMsg(&msg, sub.get(), kAckTimeoutMs);
    if (s == NATS_TIMEOUT) {
      return Status::IOError(name_ + ": the acknowledgement of " + std::to_string(messages.size()) +
                             " messages not confirmed within " + std::to_string(kAckTimeoutMs) + " ms");
    }
    RETURN_NOT_OK(NatsStatus(s, name_ + ": acknowledging"));
    natsMsg_Destroy(msg);
    return Status::OK();
  }

  // After the acknowledgements: nats-server 2.9, after deliveries to the pulls of a killed run, can leave the
  // consumer's delivered sequence behind messages this run received and acknowledged (seen in the 20 x 100 000
  // kill trials: every message received and acknowledged, the delivered sequence 99 992, so the ack floor stayed
  // there and the server would deliver the last 8 again to the next run). Those are pulled again here and
  // acknowledged; any other message is given back (-NAK). Ends once the delivered sequence is past the last
  // message acknowledged, a pull brings nothing this run acknowledged, or after kSettleRounds pulls.
  Status Settle(const HeldMessages& acked, uint64_t last_acked) {
    auto was_acked = [&](uint64_t sequence) {
      std::lock_guard<std::mutex> lock(held_mutex_);
      return acked.Contains(sequence) || released_.Contains(sequence);
    };
    for (int round = 0; round < kSettleRounds; ++round) {
      ASSIGN_OR_RETURN(ConsumerState now, GetConsumerState(*connection_, options_));
      if (now.delivered_sequence >= last_acked) return Status::OK();
      RETURN_NOT_OK(Pull());
      HeldMessages again;
      ReadPullUntil(pull_deadline_, [&](const char* reply, uint64_t sequence) {
        if (was_acked(sequence)) {
          again.Hold(sequence, reply);
        } else {
          (void)connection_->Publish(reply, "-NAK");
        }
      });
      pulling_ = false;
      if (again.empty()) return Status::OK();
      RETURN_NOT_OK(AckSync(again));
    }
    return Status::OK();
  }

  Result<std::unique_ptr<SourceUnit>> Next() {
    if (ended_) return std::unique_ptr<SourceUnit>();
    if (connection_ == nullptr) RETURN_NOT_OK(Connect());
    int64_t now = NowMs();  // taken again after each wait, each pull and each request (the rest takes microseconds)
    const int64_t slice_end = now + kWaitSliceMs;
    while (true) {
      // Caught up or idle long enough ends the input at once, not when the pull ends (it may wait until it expires).
      const bool ends = (options_.until_caught_up && backlog_->caught_up()) ||
                        (options_.stop_after_idle_ms >= 0 && NowMs() - last_message_ms_ >= options_.stop_after_idle_ms);
      if (ends) {
        if (records_in_unit_ > 0) return TakeUnit();
        ended_ = true;
        return std::unique_ptr<SourceUnit>();
      }
      if (!pulling_) {
        if (pull_was_empty_ && !backlog_->caught_up()) {  // nothing new: is less owed than counted?
          ASSIGN_OR_RETURN(ConsumerState state, GetConsumerState(*connection_, options_));
          backlog_->Resync(state, held_count());
          pull_was_empty_ = false;
          now = NowMs();
          continue;
        }
        // The next pull goes out before the last one's rows are handed on: its messages come while the run works.
        RETURN_NOT_OK(Pull());
        if (records_in_unit_ > 0) return TakeUnit();
        now = NowMs();
      }
      if (connection_->reconnects() != reconnects_seen_) {  // the pull ended with the old connection: issue it again
        reconnects_seen_ = connection_->reconnects();
        pulling_ = false;
        continue;
      }
      if (now >= next_progress_ms_) {
        RETURN_NOT_OK(ReportProgress(now));
        now = NowMs();
      }
      if (now >= slice_end) return TakeUnit();  // with no rows, it only gives the run control (and the watermark)
      natsMsg* raw = nullptr;
      const natsStatus s = natsSubscription_NextMsg(&raw, inbox_sub_.get(), std::max<int64_t>(1, slice_end - now));
      now = NowMs();
      if (s == NATS_TIMEOUT) {
        if (now > pull_deadline_) pulling_ = false;  // lost (a reconnect): pull again
        continue;
      }
      if (s != NATS_OK) return NatsStatus(s, name_ + ": waiting for messages");  // the text built only for an error
      // Destroyed in bursts: nats.c hands each destroyed message to its collector thread, waking it when it sleeps,
      // which cost a wake-up per message (a sixth of the read's CPU) when each was destroyed as it was read.
      if (received_.size() == kDestroyBurst || received_bytes_ >= kDestroyBurstBytes) {
        received_.clear();
        received_bytes_ = 0;
      }
      received_.emplace_back(raw, natsMsg_Destroy);
      received_bytes_ += natsMsg_GetDataLength(raw);
      RETURN_NOT_OK(Receive(raw, now));
      if (!pulling_) continue;  // the pull ended: the next one is issued first (above)
      RETURN_NOT_OK(PullAheadOnceDelivered());
      if (rows_ >= options_.batch) return TakeUnit();
    }
  }

  Status Connect() {
    ASSIGN_OR_RETURN(connection_, NatsConnection::Connect(options_.url));
    RETURN_NOT_OK(EnsureConsumer(*connection_, options_));
    ASSIGN_OR_RETURN(inbox_, connection_->NewInbox());
    ASSIGN_OR_RETURN(inbox_sub_, connection_->SubscribeSync(inbox_));  // at most one pull's messages wait in it
    ASSIGN_OR_RETURN(ConsumerState start, GetConsumerState(*connection_, options_));
    ASSIGN_OR_RETURN(uint64_t stream_last, GetStreamLastSequence(*connection_, options_));
    backlog_.emplace(start, stream_last);
    last_message_ms_ = NowMs();
    progress_interval_ms_ = std::max<int64_t>(1, start.ack_wait_ms / 2);
    next_progress_ms_ = NowMs() + progress_interval_ms_;
    return Status::OK();
  }

  // Tells the server the run is still working on every message it holds ("+WPI" restarts each one's AckWait), so
  // none is delivered again while held: the server delivers due redeliveries before new messages, and a run holding
  // more than its pulls can take again within AckWait would receive only its own messages, over and over.
  Status ReportProgress(int64_t now) {
    std::lock_guard<std::mutex> lock(held_mutex_);
    Status published;
    held_.ForEach([&](uint64_t, const char* reply) {
      if (published.ok()) published = connection_->Publish(reply, "+WPI");
    });
    next_progress_ms_ = now + progress_interval_ms_;
    return published;
  }

  // Gives back with -NAK what the outstanding pull brings after the run stopped reading (a drain ended the input),
  // waiting for the pull to end (at most kGiveBackMs: a long `expires` is not waited for), so the next run gets
  // those messages at once rather than after their AckWait. Deliveries of held messages are left to Committed's
  // "+ACK" or the destructor's "-NAK".
  void GiveBackPull() {
    ReadPullUntil(std::min(pull_deadline_, NowMs() + kGiveBackMs), [&](const char* reply, uint64_t sequence) {
      std::lock_guard<std::mutex> lock(held_mutex_);
      if (!held_.Contains(sequence)) (void)connection_->Publish(reply, "-NAK");
    });
  }

  // Reads what the outstanding pull brings until it ends (a status other than a heartbeat, or its batch) or
  // `deadline` (epoch ms), calling `each` with each message's ack subject and stream sequence.
  template <typename Fn>
  void ReadPullUntil(int64_t deadline, Fn each) {
    while (pulling_ && inbox_sub_ != nullptr) {
      const int64_t left = deadline - NowMs();
      natsMsg* raw = nullptr;
      if (left <= 0 || natsSubscription_NextMsg(&raw, inbox_sub_.get(), left) != NATS_OK) return;
      MsgPtr msg(raw, natsMsg_Destroy);
      const char* status = nullptr;
      if (natsMsg_GetDataLength(msg.get()) == 0 && natsMsgHeader_Get(msg.get(), "Status", &status) == NATS_OK &&
          status != nullptr) {
        auto kind = ParsePullStatus(status, "");
        if (!kind.ok() || *kind != PullStatus::kHeartbeat) CountPullEnd();
        continue;
      }
      const char* reply = natsMsg_GetReply(msg.get());
      auto meta = ParseAckSubject(reply != nullptr ? reply : "");
      if (++pull_received_ >= pull_batch_) pulling_ = false;
      if (meta.ok()) each(reply, meta->stream_sequence);
    }
  }

  // Issues the next pull request, `coming` messages of the one before still to be read from the inbox. A run that ends
  // once caught up asks for no more than it is owed, so that its last pull ends with its last message rather than when
  // it expires (the end waits for the outstanding pull).
  Status Pull(int64_t coming = 0) {
    const int64_t heartbeat = options_.expires_ms / 4 >= 50 ? options_.expires_ms / 4 : 0;
    pull_batch_ = options_.batch;
    const int64_t owed = backlog_->owed() - coming;
    if (options_.until_caught_up && owed > 0) pull_batch_ = std::min(pull_batch_, owed);
    RETURN_NOT_OK(connection_->Publish(PullSubject(options_.stream, options_.consumer).c_str(),
                                       PullRequestBody(pull_batch_, options_.expires_ms, heartbeat), inbox_.c_str()));
    pulling_ = true;
    pull_was_empty_ = true;
    pull_received_ = 0;
    pull_deadline_ = NowMs() + options_.expires_ms + kPullGraceMs;
    return Status::OK();
  }

  // Issues the next pull as soon as every message of the outstanding one has arrived (they wait in the inbox), so that
  // the server delivers the next batch while the run decodes this one rather than after: the server still has one
  // pull to serve at a time, the next waiting at most for the last one's end. The server serves a consumer's pulls in
  // order, so the inbox holds the earlier pull's messages first: counted, they tell the two apart (the new pull's
  // count starts at minus the earlier one's rest). A status in the inbox counted as a message only issues the next pull
  // early, to wait behind the last at the server.
  Status PullAheadOnceDelivered() {
    if (pull_received_ < 0) return Status::OK();  // one pull ahead at most
    const int64_t rest = pull_batch_ - pull_received_;
    int queued = 0;
    if (natsSubscription_GetPending(inbox_sub_.get(), &queued, nullptr) != NATS_OK || queued < rest) return Status::OK();
    if (options_.until_caught_up && backlog_->owed() - rest <= 0) return Status::OK();  // the last pull: nothing more owed
    RETURN_NOT_OK(Pull(rest));
    pull_received_ = -rest;
    return Status::OK();
  }

  // A status ending a pull arrived: the earlier pull's when it has messages to come (it ended short), else the latest's.
  void CountPullEnd() {
    if (pull_received_ < 0) {
      pull_received_ = 0;
    } else {
      pulling_ = false;
    }
  }

  // One message of the inbox, received at `now`: a status, or a message to decode and hold.
  Status Receive(natsMsg* msg, int64_t now) {
    pull_deadline_ = now + options_.expires_ms + kPullGraceMs;  // the pull is alive
    const char* status = nullptr;
    if (natsMsg_GetDataLength(msg) == 0 && natsMsgHeader_Get(msg, "Status", &status) == NATS_OK && status != nullptr) {
      const char* description = "";
      (void)natsMsgHeader_Get(msg, "Description", &description);
      auto kind = ParsePullStatus(status, description != nullptr ? description : "");
      if (!kind.ok()) return Status(kind.status().code(), name_ + ", consumer " + options_.consumer + ": " + kind.status().message());
      if (*kind != PullStatus::kHeartbeat) CountPullEnd();
      return Status::OK();
    }
    const char* reply = natsMsg_GetReply(msg);
    auto meta = ParseAckSubject(reply != nullptr ? reply : "");
    if (!meta.ok()) return meta.status().WithFile(name_);
    if (++pull_received_ >= pull_batch_) pulling_ = false;
    {
      std::lock_guard<std::mutex> lock(held_mutex_);
      if (released_.Contains(meta->stream_sequence)) {
        // A durable checkpoint covers it (delivered again: the run that read it died before its acknowledgement, or
        // the acknowledgement crossed the redelivery): dropped, and acknowledged again.
        backlog_->Received(meta->stream_sequence);
        return connection_->Publish(reply, "+ACK");
      }
      // Delivered again while held (AckWait passed): acknowledged with its latest subject.
      if (!held_.Hold(meta->stream_sequence, reply)) return Status::OK();
    }
    pull_was_empty_ = false;
    last_message_ms_ = now;
    backlog_->Received(meta->stream_sequence);
    unit_sequences_.push_back(meta->stream_sequence);
    const char* subject = natsMsg_GetSubject(msg);
    const std::string_view payload(natsMsg_GetData(msg), static_cast<size_t>(natsMsg_GetDataLength(msg)));
    bytes_ += static_cast<int64_t>(payload.size());
    const int64_t published_ms = meta->published_ns / kNanosPerMilli;
    Status decoded = decoder_->Append(payload);
    if (!decoded.ok()) {
      if (decoded.code() != StatusCode::kDataError) return decoded;
      Status error = Status::DataError("subject " + std::string(subject) + ", stream sequence " +
                                       std::to_string(meta->stream_sequence) + ": " + decoded.message())
                         .WithFile(name_)
                         .WithRecord(records_in_unit_);
      if (!decoded.context().field.empty()) error = error.WithField(decoded.context().field);
      if (!options_.skip_bad) return error;
      skipped_.push_back(SkippedRecord{std::string(payload), std::move(error)});
      ++records_in_unit_;
      return Status::OK();
    }
    RETURN_NOT_OK(subjects_.Append(subject));
    RETURN_NOT_OK(sequences_.Append(static_cast<int64_t>(meta->stream_sequence)));
    RETURN_NOT_OK(published_.Append(published_ms));
    ++rows_;
    ++records_in_unit_;
    return Status::OK();
  }

  // The rows decoded since the last unit, followed by the watermark when it moved.
  Result<std::unique_ptr<SourceUnit>> TakeUnit() {
    ASSIGN_OR_RETURN(auto payload, decoder_->Finish());
    std::vector<std::shared_ptr<ArrayData>> columns = payload->columns();
    for (ArrayBuilder* builder : std::initializer_list<ArrayBuilder*>{&subjects_, &sequences_, &published_}) {
      ASSIGN_OR_RETURN(auto column, builder->Finish());
      columns.push_back(std::move(column));
    }
    auto batch = std::make_shared<RecordBatch>(schema_, rows_, std::move(columns));
    const int published = schema_->num_fields() - 1;
    const int event_column = options_.event_time.empty() ? published : options_.payload->GetFieldIndex(options_.event_time);
    const ArrayData& times = *batch->column_data(event_column);
    const ArrayData& subjects = *batch->column_data(published - 2);
    const int64_t now = NowMs();
    for (int64_t row = 0; row < batch->num_rows(); ++row) {
      if (IsValidAt(times, row)) watermarks_.Observe(BinaryValue(subjects, row), IntegerValue(times, row), now);
    }
    DecodedUnit decoded{std::move(batch), std::move(skipped_), records_in_unit_};
    skipped_.clear();
    rows_ = 0;
    records_in_unit_ = 0;
    const int64_t bytes = bytes_;
    bytes_ = 0;
    std::optional<FlowToken> token = WatermarkToken(now);
    MarkPosition(token);
    return MakeDecodedUnit(std::move(decoded), bytes, token);
  }

  // The messages of the unit being handed on were read before `token` (when there is one): PositionAt its time covers
  // them and every one before.
  void MarkPosition(const std::optional<FlowToken>& token) {
    std::lock_guard<std::mutex> lock(position_mutex_);
    unmarked_.insert(unmarked_.end(), unit_sequences_.begin(), unit_sequences_.end());
    unit_sequences_.clear();
    if (!token.has_value()) return;
    marks_.push_back(Mark{token->time, std::move(unmarked_)});
    unmarked_.clear();
    if (marks_.size() > kMarksKept) FoldOldestMark();  // a run without checkpoints never asks
  }

  // With position_mutex_ held: the oldest mark's messages join what is covered, which is then the position at its time.
  void FoldOldestMark() {
    for (uint64_t sequence : marks_.front().sequences) covered_.Add(sequence);
    covered_at_ = marks_.front().watermark;
    marks_.pop_front();
  }

  // The messages held now.
  int64_t held_count() {
    std::lock_guard<std::mutex> lock(held_mutex_);
    return static_cast<int64_t>(held_.size());
  }

  std::optional<FlowToken> WatermarkToken(int64_t now) {
    if (backlog_->earlier_owed() > 0) return std::nullopt;
    const Millis watermark = watermarks_.Current(now);
    if (watermark <= sent_watermark_) return std::nullopt;
    sent_watermark_ = watermark;
    return FlowToken{FlowToken::Kind::kWatermark, watermark};
  }

  NatsSourceOptions options_;
  SchemaPtr schema_;
  std::string name_;
  std::unique_ptr<jsonl::JsonObjectDecoder> decoder_;
  SubjectWatermarks watermarks_;
  Millis sent_watermark_ = pipeline::window::kMinTime;
  std::unique_ptr<NatsConnection> connection_;
  std::string inbox_;
  NatsConnection::Subscription inbox_sub_{nullptr, natsSubscription_Destroy};
  std::vector<MsgPtr> received_;     // messages read, destroyed kDestroyBurst at a time (or kDestroyBurstBytes)
  int64_t received_bytes_ = 0;       // their payloads' bytes
  bool pulling_ = false;             // a pull is outstanding
  bool pull_was_empty_ = false;      // the last pull delivered no message this run did not hold already
  int64_t pull_batch_ = 0;           // the messages the outstanding pull asked for
  // Messages of the outstanding pull received; negative while the pull before it (pulled ahead of) has that many to come.
  int64_t pull_received_ = 0;
  int64_t pull_deadline_ = 0;
  int64_t reconnects_seen_ = 0;
  bool ended_ = false;
  int64_t last_message_ms_ = 0;  // when the last new message came (or the connection was made)
  // What the run owes its consumer as it was at the start. The watermark waits while an earlier run's
  // unacknowledged messages are still to be delivered again: their event times are unknown, and the redelivery
  // comes in no particular order.
  std::optional<ConsumerBacklog> backlog_;
  int64_t progress_interval_ms_ = 0;  // half the consumer's AckWait
  int64_t next_progress_ms_ = 0;
  // The unit being filled.
  BinaryBuilder subjects_{utf8()};
  NumericBuilder<int64_t> sequences_;
  NumericBuilder<int64_t> published_;
  int64_t rows_ = 0;
  int64_t records_in_unit_ = 0;
  int64_t bytes_ = 0;
  std::vector<SkippedRecord> skipped_;
  std::vector<uint64_t> unit_sequences_;  // the stream sequences of the messages in it
  // Guards held_ and released_: a checkpoint's acknowledgements are sent from the thread that wrote it.
  std::mutex held_mutex_;
  // Every message read and not acknowledged yet: its stream sequence and latest ack subject.
  HeldMessages held_;
  // What a durable checkpoint covers (a resumed one's position, then each durable one's): never held, dropped when
  // delivered again.
  SequenceRanges released_;
  // The positions (docs/streaming.md, "Checkpoints"): the messages read before each watermark token handed on.
  struct Mark {
    Millis watermark;
    std::vector<uint64_t> sequences;  // read after the token before
  };
  mutable std::mutex position_mutex_;  // guards what follows (the merging thread asks for positions)
  SequenceRanges covered_;             // read before the token of time covered_at_ (and a resumed position)
  Millis covered_at_ = pipeline::window::kMinTime;
  std::deque<Mark> marks_;             // the later tokens
  std::vector<uint64_t> unmarked_;     // read after the last token
  Status error_;
};

}  // namespace

Result<std::unique_ptr<Source>> OpenNatsSource(NatsSourceOptions options) {
  RETURN_NOT_OK(options.Validate());
  ASSIGN_OR_RETURN(auto decoder, jsonl::JsonObjectDecoder::Make(options.payload));
  SchemaPtr schema = NatsRowSchema(options);
  return std::unique_ptr<Source>(std::make_unique<NatsSource>(std::move(options), std::move(schema), std::move(decoder)));
}

}  // namespace recflow::nats
