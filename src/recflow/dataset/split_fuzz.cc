// libFuzzer target: arbitrary text parsed as a split (a valid one must survive a JSON round trip unchanged), and
// the same bytes read as a TFRecord file in two record ranges (the start-of-record scan on hostile bytes).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "recflow/dataset/split.h"
#include "recflow/formats/tfrecord/record_reader.h"

namespace {

void ReadRange(const std::shared_ptr<recflow::Buffer>& buffer, int64_t begin, int64_t end) {
  auto reader = recflow::tfrecord::RecordReader::FromBufferRange(buffer, "fuzz", begin, end,
                                                                 recflow::tfrecord::ReaderOptions::Defaults());
  if (!reader.ok()) return;
  std::string_view record;
  int64_t last = -1;
  while (true) {
    auto more = (*reader)->Next(&record);
    if (!more.ok() || !*more) break;
    // Every record read starts inside the range, after the one before.
    const int64_t offset = (*reader)->record_offset();
    if (offset < begin || offset >= end || offset <= last) __builtin_trap();
    last = offset;
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto split = recflow::dataset::ParseSplit(text);
  if (split.ok()) {
    auto again = recflow::dataset::ParseSplit(recflow::dataset::SplitToJson(*split));
    if (!again.ok() || !(*again == *split)) __builtin_trap();
  }
  auto buffer = recflow::Buffer::Wrap(data, static_cast<int64_t>(size));
  const auto half = static_cast<int64_t>(size / 2);
  ReadRange(buffer, 0, half);
  ReadRange(buffer, half, static_cast<int64_t>(size));
  return 0;
}
