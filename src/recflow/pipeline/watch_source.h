// The watch source: an unbounded input of the files that appear in a directory, each read once when it is complete,
// with a live watermark from an event-time column and the clock.
#pragma once

#include <memory>
#include <string>

#include "recflow/core/clock.h"
#include "recflow/core/filesystem.h"
#include "recflow/dataset/dataset_source.h"
#include "recflow/formats/live_watermark.h"
#include "recflow/formats/source.h"

namespace recflow::pipeline {

/// What a watch source reads and how it keeps time.
struct WatchOptions {
  /// The directory watched. A file counts once it is there under a name not starting with `.`
  /// (writers make it under a hidden name and rename it in, atomically); it is read once, in
  /// name order with the others found at the same time.
  std::string dir;
  /// How each file is read (format, schema file, format words), as a `read` reads it.
  dataset::InputOptions input;
  /// The event-time column (integer epoch milliseconds, a timestamp or ISO-8601 text).
  std::string event_time;
  /// The watermark: the latest event time less an allowance; idle after no file for a while.
  LiveWatermarkOptions watermark;
  /// How often the directory is listed when no file is waiting (milliseconds, > 0).
  int64_t poll_ms = 200;
  /// The input ends once no new file came for this long (milliseconds of processing time; the
  /// run then drains: every window fires and the outputs are committed); negative: never.
  int64_t stop_after_idle = -1;
  /// Processing time (outlives the source).
  const Clock* clock = Clock::System();
};

/// Opens a watch of `options.dir` on `fs`; its rows have `schema` (every file must have it), the
/// event-time column marked (kEventTimeMetadataKey). Each unit holds a block of one file, decoded
/// on the reading thread (so the watermark after it knows its event times), followed by units of
/// no rows carrying the tokens LiveWatermark gives (the clock, then the watermark) — queued when
/// the next block or the file's end is read, so a file's last tokens come between files; while no
/// file is waiting, a unit of tokens every poll, so a stop or a drain is seen within a poll.
/// Errors name the file and, for an event time, its record (the stage counts records from the
/// start of the watch). The source is unbounded and a CheckpointedSource: the position as of a
/// watermark given between two files is the names of the files read before it, in order;
/// resumed, it never reads those again.
Result<std::unique_ptr<Source>> OpenWatch(std::shared_ptr<FileSystem> fs, WatchOptions options, SchemaPtr schema);

/// The schema a watch of `options.dir` reads: the first complete file's, with the event-time
/// column marked; InvalidArgument when the directory has none yet and no schema file is given
/// (`schema_file`, empty: none).
Result<SchemaPtr> WatchSchema(const std::shared_ptr<FileSystem>& fs, const WatchOptions& options,
                              const std::string& schema_file);

}  // namespace recflow::pipeline
