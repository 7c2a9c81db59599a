// MakeSplits: cuts every target_bytes, CSV cuts moved to row starts, Arrow files cut between record batches.
#include "recflow/dataset/split_plan.h"

#include "recflow/columnar/utf8.h"
#include "recflow/core/buffer.h"
#include "recflow/formats/arrow_ipc/file_reader.h"
#include "recflow/formats/csv/row_boundary.h"

namespace recflow::dataset {

namespace {

/// `stamped` (a file's split with its size and time) with `unit` range [begin, end).
Split MakeSplit(const Split& stamped, SplitUnit unit, int64_t begin, int64_t end) {
  Split split = stamped;
  split.unit = unit;
  split.begin = begin;
  split.end = end;
  return split;
}

/// The cut positions t, 2t, ... below `size`.
std::vector<int64_t> Cuts(int64_t size, int64_t target) {
  std::vector<int64_t> cuts;
  for (int64_t at = target; at < size; at += target) cuts.push_back(at);
  return cuts;
}

/// Byte splits between 0, the ascending `cuts` and the file's size, empty ones dropped unless
/// the file is empty.
void AddByteSplits(const Split& stamped, const std::vector<int64_t>& cuts,
                   std::vector<Split>* out) {
  int64_t begin = 0;
  for (const int64_t cut : cuts) {
    if (cut <= begin) continue;
    out->push_back(MakeSplit(stamped, SplitUnit::kBytes, begin, cut));
    begin = cut;
  }
  if (begin < stamped.file_size || begin == 0) {
    out->push_back(MakeSplit(stamped, SplitUnit::kBytes, begin, stamped.file_size));
  }
}

Status AddArrowFileSplits(const Split& stamped, int64_t target, std::vector<Split>* out) {
  ASSIGN_OR_RETURN(auto footer, arrow_ipc::FileReader::OpenFile(stamped.path));
  const int batches = footer->num_record_batches();
  int first = 0;
  int64_t bytes = 0;
  for (int i = 0; i < batches; ++i) {
    const arrow_ipc::FileBlock& block = footer->record_batch_block(i);
    bytes += block.metadata_length + block.body_length;
    if (bytes >= target || i + 1 == batches) {
      out->push_back(MakeSplit(stamped, SplitUnit::kBatches, first, i + 1));
      first = i + 1;
      bytes = 0;
    }
  }
  if (batches == 0) out->push_back(MakeSplit(stamped, SplitUnit::kBatches, 0, 0));
  return Status::OK();
}

Status AddSplits(const SplitInput& input, const SplitOptions& options, std::vector<Split>* out) {
  if (input.path == "-") {
    return Status::InvalidArgument("standard input cannot be split (it is read once, front to back): save it to a file");
  }
  if (!IsValidUtf8(input.path)) {
    return Status::InvalidArgument("a split names its file in JSON, which needs a UTF-8 path").WithFile(input.path);
  }
  Split stamped;
  stamped.path = input.path;
  stamped.format = input.format;
  stamped.compression = input.compression;
  stamped.partition = input.partition;
  RETURN_NOT_OK(StampSplitFile(&stamped));
  const int64_t size = stamped.file_size;
  if (input.format == "arrow" && input.arrow_file) return AddArrowFileSplits(stamped, options.target_bytes, out);
  if (input.compression != "none" || input.format == "arrow") {
    out->push_back(MakeSplit(stamped, SplitUnit::kBytes, 0, size));
    return Status::OK();
  }
  if (input.format == "tfrecord" || input.format == "jsonl" || input.format == "avro") {
    AddByteSplits(stamped, Cuts(size, options.target_bytes), out);
    return Status::OK();
  }
  if (input.format != "csv") {
    return Status::InvalidArgument("cannot split format '" + input.format + "'").WithFile(input.path);
  }
  const std::vector<int64_t> cuts = Cuts(size, options.target_bytes);
  if (cuts.empty()) {
    AddByteSplits(stamped, cuts, out);
    return Status::OK();
  }
  Result<std::shared_ptr<Buffer>> mapped = Buffer::MapFile(input.path);
  if (!mapped.ok()) return mapped.status().WithFile(input.path);
  if ((*mapped)->size() != size) {
    return Status::DataError("the file changed while it was being split").WithFile(input.path);
  }
  AddByteSplits(stamped, csv::RowStartsAtOrAfter((*mapped)->view(), options.csv_dialect, cuts), out);
  return Status::OK();
}

}  // namespace

Status SplitOptions::Validate() const {
  if (target_bytes < 1) return Status::InvalidArgument("the split size must be at least 1 byte");
  return Status::OK();
}

Result<std::vector<Split>> MakeSplits(const std::vector<SplitInput>& inputs, const SplitOptions& options) {
  RETURN_NOT_OK(options.Validate());
  std::vector<Split> splits;
  for (const SplitInput& input : inputs) RETURN_NOT_OK(AddSplits(input, options, &splits));
  return splits;
}

}  // namespace recflow::dataset
