// The range arithmetic every FormatSplitter shares: even byte cuts, ranges between cuts, range checks.
#include "recflow/formats/registry/format_splitter.h"

namespace recflow::formats {

std::string_view SplitUnitName(SplitUnit unit) { return unit == SplitUnit::kBatches ? "batches" : "bytes"; }

std::string FileRange::ToString() const {
  return std::string(SplitUnitName(unit)) + " [" + std::to_string(begin) + ", " + std::to_string(end) + ")";
}

std::vector<int64_t> EvenCuts(int64_t size, int64_t target_bytes) {
  std::vector<int64_t> cuts;
  for (int64_t at = target_bytes; at < size; at += target_bytes) cuts.push_back(at);
  return cuts;
}

std::vector<FileRange> ByteRangesBetween(int64_t size, const std::vector<int64_t>& cuts) {
  std::vector<FileRange> ranges;
  int64_t begin = 0;
  for (const int64_t cut : cuts) {
    if (cut <= begin) continue;
    ranges.push_back({SplitUnit::kBytes, begin, cut});
    begin = cut;
  }
  if (begin < size || begin == 0) ranges.push_back({SplitUnit::kBytes, begin, size});
  return ranges;
}

std::vector<FileRange> EvenByteRanges(int64_t size, int64_t target_bytes) {
  return ByteRangesBetween(size, EvenCuts(size, target_bytes));
}

Result<std::vector<FileRange>> EvenByteSplitter::Plan(const MappedFile& file, int64_t target_bytes,
                                                      const FormatReadOptions& options) const {
  return EvenByteRanges(file.data->size(), target_bytes);
}

Status CheckByteRange(const MappedFile& file, const FileRange& range) {
  if (range.unit != SplitUnit::kBytes) {
    return Status::InvalidArgument("bad split: " + range.ToString() +
                                   ": files of this format are split by bytes, not record batches")
        .WithFile(file.path);
  }
  if (range.end <= file.data->size()) return Status::OK();
  return Status::InvalidArgument("split " + range.ToString() + " ends beyond the file's " +
                                 std::to_string(file.data->size()) + " bytes")
      .WithFile(file.path);
}

Status CheckWholeFileRange(const MappedFile& file, const FileRange& range, std::string_view what) {
  if (range.unit == SplitUnit::kBytes && range.begin == 0 && range.end == file.data->size()) return Status::OK();
  return Status::InvalidArgument("split " + range.ToString() + " of " + std::string(what) +
                                 ": such a file is read whole, as one split of bytes [0, " +
                                 std::to_string(file.data->size()) + ")")
      .WithFile(file.path);
}

}  // namespace recflow::formats
