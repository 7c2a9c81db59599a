// libFuzzer target: arbitrary bytes as a TFRecord input (auto-detected codec), read to the end.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "recflow/formats/tfrecord/record_reader.h"

namespace {

void ReadToEnd(recflow::Result<std::unique_ptr<recflow::tfrecord::RecordReader>> reader) {
  if (!reader.ok()) return;
  std::string_view record;
  for (;;) {
    recflow::Result<bool> more = (*reader)->Next(&record);
    if (!more.ok() || !*more) return;
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using recflow::tfrecord::ReaderOptions;
  using recflow::tfrecord::RecordReader;
  auto buffer = recflow::Buffer::Wrap(data, static_cast<int64_t>(size));
  for (bool skip_corrupt : {false, true}) {
    ReaderOptions options = ReaderOptions::Defaults();
    options.skip_corrupt = skip_corrupt;
    ReadToEnd(RecordReader::FromBuffer(buffer, "fuzz.tfrecord", options));
    ReadToEnd(RecordReader::FromStream(std::make_unique<recflow::BufferInputStream>(buffer, "fuzz"), options));
  }
  return 0;
}
