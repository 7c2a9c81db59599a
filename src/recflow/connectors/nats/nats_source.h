// The NATS JetStream source: a durable pull consumer's messages as rows (JSON payloads), a watermark per subject, acks
// only once the run committed or a durable checkpoint covers them.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "recflow/columnar/schema.h"
#include "recflow/core/result.h"
#include "recflow/formats/source.h"

namespace recflow::nats {

/// The columns a NATS source adds after the payload's: the message's subject, its stream
/// sequence and the time the stream stored it (epoch milliseconds).
inline constexpr const char* kSubjectColumn = "nats_subject";
inline constexpr const char* kSequenceColumn = "nats_sequence";
inline constexpr const char* kPublishedColumn = "nats_published";

/// What a NATS source reads and how (the `nats` step's arguments, docs/streaming.md).
struct NatsSourceOptions {
  std::string url;       ///< nats://host:port
  std::string stream;    ///< the JetStream stream
  std::string consumer;  ///< the durable pull consumer
  /// The consumer's filter subject (and the stream's subject when the stream is created); empty:
  /// every subject of the stream.
  std::string subject;
  /// The payload's columns: each message is one JSON object (keys not in the schema ignored,
  /// missing ones null).
  SchemaPtr payload;
  /// The payload column holding the event time (integer epoch milliseconds); empty: the time the
  /// stream stored the message (nats_published).
  std::string event_time;
  /// How much older than its subject's latest an event may be and still be on time (ms).
  int64_t out_of_orderness_ms = 0;
  /// A subject silent this long (processing time, ms) no longer holds the watermark back; < 0: never.
  int64_t idle_ms = -1;
  int64_t batch = 256;        ///< messages per pull request
  int64_t expires_ms = 1000;  ///< a pull request's expiry (it waits this long for messages)
  /// Create the stream and the consumer when they do not exist (otherwise they must).
  bool create = true;
  int64_t ack_wait_ms = 600000;     ///< the consumer's AckWait when created
  int64_t max_ack_pending = 100000; ///< the consumer's MaxAckPending when created
  /// End the input once the run received every message its consumer had for it when the run
  /// connected: those not delivered yet and those an earlier run left unacknowledged (counted
  /// by stream sequence, redeliveries of held messages not counted; messages published later are
  /// not waited for). Otherwise the input never ends.
  bool until_caught_up = false;
  /// End the input once no new message came for this long (ms, processing time, counted from
  /// the connection): the run then drains and commits as at any end; < 0: never.
  int64_t stop_after_idle_ms = -1;
  /// Bad payloads are left out as skipped records (the read's on_error) instead of failing.
  bool skip_bad = false;

  /// Defaults.
  static NatsSourceOptions Defaults() { return {}; }
  /// InvalidArgument for a missing url, stream, consumer or payload, an event_time that is not
  /// an integer column of the payload, a payload column named like the added ones, or counts
  /// and times out of range.
  Status Validate() const;
};

/// The rows' schema: the payload's columns, then nats_subject (utf8), nats_sequence (int64) and
/// nats_published (int64), the event-time column marked (pipeline::kEventTimeMetadataKey).
SchemaPtr NatsRowSchema(const NatsSourceOptions& options);

/// A source reading the consumer `options` names. It connects on the first NextUnit (so a
/// pipeline is planned without a server), creating the stream and consumer when asked. Units are
/// the messages of one pull (the next pull issued once they all arrived), each followed by the watermark when
/// it moved; an empty unit every 200 ms while nothing arrives, so the run sees its stop and drain
/// tokens (the source is unbounded: a drain ends it, and the run then acknowledges what it read).
/// The source restarts the AckWait of every message it holds ("+WPI") every half AckWait while
/// it is read; messages delivered again all the same (AckWait passed) are dropped by stream
/// sequence. While an earlier run's unacknowledged messages (a killed run's, delivered again
/// after their AckWait, in no particular order) are still to come, the watermark stays where it
/// is. Every
/// message read is acknowledged (AckSync) by Committed(), after the run committed; a source
/// destroyed without it negatively acknowledges them, so they are delivered again at once.
/// The source is a CheckpointedSource: its position as of a watermark token is the stream
/// sequences of the messages it handed on before the token, as ranges ("FIRST-LAST" entries);
/// once a checkpoint is durable (Checkpointed) the held messages its position covers are
/// acknowledged (AckSync) then, and a message a durable or resumed position covers that is
/// delivered again is dropped and acknowledged again. Once those acknowledgements are confirmed,
/// later positions cover every sequence up to the consumer's ack floor as one range (a filter
/// subject's holes below it closed), so a position stays a few ranges however long the run.
/// A payload that is not a JSON object of the schema is a DataError naming the server and
/// stream (as the file), the subject, the stream sequence and the reason.
Result<std::unique_ptr<Source>> OpenNatsSource(NatsSourceOptions options);

}  // namespace recflow::nats
