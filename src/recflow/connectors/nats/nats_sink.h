// The NATS JetStream sink: each row published as a JSON message with a Nats-Msg-Id from its origin (window, pane,
// key), each publish acknowledged by the stream before the next batch.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "recflow/columnar/schema.h"
#include "recflow/core/result.h"
#include "recflow/formats/sink.h"

namespace recflow::nats {

/// Where a NATS sink publishes (the `write_nats` step's arguments, docs/streaming.md).
struct NatsSinkOptions {
  std::string url;      ///< nats://host:port
  std::string subject;  ///< the subject every row is published on (a JetStream stream must take it)
  /// When set: the stream that takes `subject`, created when missing (file storage, on `subject`
  /// alone); an existing one is used as it is. Empty: a stream must exist already.
  std::string stream;
  /// The columns that, with the pane columns (window_start, window_end, pane_index) when the
  /// rows have them, identify a row's origin: its Nats-Msg-Id is made of their values, so a row
  /// published again (a restart firing the same pane) is dropped by the stream's duplicate window.
  /// Rows with neither get no Nats-Msg-Id.
  std::vector<std::string> key;
  int64_t timeout_ms = 5000;  ///< the longest wait for one publish's acknowledgement
  /// The run's generation (not a step argument: the runner's, docs/streaming.md "Generations"),
  /// in every Nats-Msg-Id (MessageId).
  int64_t generation = 0;

  /// Defaults.
  static NatsSinkOptions Defaults() { return {}; }
  /// InvalidArgument for a missing url or subject, a subject with wildcards, a stream name with
  /// '.', '*', '>' or spaces, or a timeout < 1 ms.
  Status Validate() const;
};

/// The Nats-Msg-Id of row `row` of `batch` from its pane and `key` columns (indices into the
/// batch's schema; window_start, window_end and pane_index at `pane` when `pane[0]` >= 0) in run
/// generation `generation`: `<subject>|w<start>-<end>|p<pane index>|<the key values as a JSON
/// array>`, with `|g<generation>` after the subject when the generation is not 0 (a restart after
/// a drain fires its windows' panes anew: they are not the drained generation's duplicates).
Result<std::string> MessageId(const std::string& subject, int64_t generation, const RecordBatch& batch, int64_t row,
                              const int pane[3], const std::vector<int>& key);

/// A sink publishing rows of `input` to JetStream: rows rendered as JSON objects (as JSON Lines
/// output writes them) in Consume, published in input order in Emit: a batch's messages are all
/// sent as requests, then Emit waits for the stream's acknowledgement of each (a duplicate
/// acknowledged as such counts as published). It connects when opened, and creates the stream
/// when `options.stream` names a missing one. An error names the server, the subject, the row
/// (its index among the rows the sink took) and its Nats-Msg-Id. Messages are published as the rows arrive — or, when
/// told to hold them (Sink::HoldEpochs: the run commits datasets or files, which a message may name), held until
/// those are committed: per epoch in a stage committing per epoch (Sink::CommitEpoch), otherwise until the run's end
/// (Commit); Abort drops them, so that no message names a file not there yet and a failed run published none. Without
/// a hold, a failed run may have published some, which a rerun publishes again under the same ids.
Result<std::unique_ptr<Sink>> OpenNatsSink(const NatsSinkOptions& options, const SchemaPtr& input);

}  // namespace recflow::nats
