// libFuzzer target: read arbitrary bytes as JSON Lines with inference, with large and tiny blocks.
#include <cstddef>
#include <cstdint>

#include "recflow/formats/jsonl/jsonl_reader.h"

namespace {

void ReadAll(const uint8_t* data, size_t size, int64_t block_size, int max_depth) {
  auto options = recflow::jsonl::ReadOptions::Defaults();
  options.block_size = block_size;
  options.batch_rows = 7;
  options.max_depth = max_depth;
  options.bad_rows = recflow::formats::BadRowsMode::kSkip;
  auto reader = recflow::jsonl::JsonlReader::FromBuffer(recflow::Buffer::Wrap(data, static_cast<int64_t>(size)),
                                                        "fuzz", options);
  if (!reader.ok()) return;
  while (true) {
    auto batch = (*reader)->Next();
    if (!batch.ok() || !*batch) break;
    if (!(*batch)->ValidateFull().ok()) __builtin_trap();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  ReadAll(data, size, int64_t{1} << 20, 64);
  ReadAll(data, size, 3, 4);
  return 0;
}
