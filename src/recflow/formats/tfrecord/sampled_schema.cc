// InferSampledSchema: an even share of the remaining sample budget from each file in turn.
#include "recflow/formats/tfrecord/sampled_schema.h"

#include <algorithm>

#include "recflow/formats/example/schema_inference.h"

namespace recflow::tfrecord {

Result<SampledSchema> InferSampledSchema(size_t num_files, const ReaderOpener& open, example::RecordType type,
                                         int64_t sample, bool skip_undecodable) {
  SampledSchema result;
  example::SchemaInferrer inferrer(type);
  int64_t budget = sample;
  for (size_t k = 0; k < num_files; ++k) {
    const auto files_left = static_cast<int64_t>(num_files - k);
    const int64_t share = sample == INT64_MAX ? INT64_MAX : budget / files_left + (budget % files_left != 0);
    ASSIGN_OR_RETURN(std::unique_ptr<RecordReader> reader, open(k));
    std::string_view record;
    int64_t taken = 0;
    while (taken < share) {
      Result<bool> more = reader->Next(&record);
      // A fault (bad framing, corrupt compressed data) ends the file's sample: the records
      // before it are read, and the fault reported, by whoever reads the file next.
      if (!more.ok() && more.status().code() == StatusCode::kDataError) {
        result.complete = false;
        break;
      }
      RETURN_NOT_OK(more.status());
      if (!*more) break;
      Status st = inferrer.Observe(record);
      if (!st.ok()) {
        if (skip_undecodable) continue;
        return st.WithFile(reader->name()).WithRecord(reader->record_index()).WithOffset(reader->record_offset());
      }
      ++taken;
    }
    // Reading on to learn whether the file had more records could fail on a record the caller
    // never reaches, so a full share counts as a partial sample.
    if (taken == share) result.complete = false;
    budget -= std::min(budget, taken);
  }
  // A record after the sample may lack a feature the sample always had: valid data must not fail.
  result.schema = result.complete ? inferrer.Finish() : inferrer.Finish()->WithAllNullable();
  return result;
}

}  // namespace recflow::tfrecord
