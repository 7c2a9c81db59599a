// `recflow convert`: CSV, JSON Lines, Avro and TFRecord in; a sharded, partitioned, committed dataset out.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "recflow/cli/source_flags.h"
#include "recflow/cli/stdout_writer.h"
#include "recflow/core/exec_context.h"
#include "recflow/core/status.h"

namespace recflow::cli {

/// Raw values of `recflow convert`'s flags, as parsed by CLI11.
struct ConvertFlags {
  std::vector<std::string> inputs;
  std::string output;
  std::string to = "tfrecord";
  std::string record_type = "example";
  std::string decimals = "string";
  std::string compression = "none";
  int level = -1;
  int64_t shards = 0;
  int64_t max_records_per_shard = 0;
  int64_t max_bytes_per_shard = 0;
  std::string naming = "beam";
  std::string prefix = "part";
  std::vector<std::string> partition_by;
  std::string mode = "error";
  std::vector<std::string> select;
  int threads = 0;
  bool json = false;
  bool no_progress = false;
  bool no_sync = false;
  SourceFlags source;  ///< input format, schema file, CSV dialect, inference
  std::string bad_rows = "fail";
};

/// Runs the job in `context` (whose threads are --threads): a progress bar on stderr when it is
/// a terminal, the one-line summary on stderr, and with --json the summary as one JSON object on
/// `out`. A stop on the context's token returns Cancelled, saying what was removed.
Status RunConvert(const ExecContext& context, const ConvertFlags& flags, StdoutWriter* out);

}  // namespace recflow::cli
