// libFuzzer target: read arbitrary bytes as a CSV file with inference, with large and tiny blocks.
#include <cstddef>
#include <cstdint>

#include "recflow/formats/csv/csv_reader.h"

namespace {

void ReadAll(const uint8_t* data, size_t size, int64_t block_size, bool header) {
  auto options = recflow::csv::ReadOptions::Defaults();
  options.block_size = block_size;
  options.batch_rows = 7;
  options.header = header;
  options.bad_rows = recflow::formats::BadRowsMode::kSkip;
  options.dialect.comment = '#';
  auto reader = recflow::csv::CsvReader::FromBuffer(recflow::Buffer::Wrap(data, static_cast<int64_t>(size)), "fuzz",
                                                    options);
  if (!reader.ok()) return;
  while (true) {
    auto batch = (*reader)->Next();
    if (!batch.ok() || !*batch) break;
    if (!(*batch)->ValidateFull().ok()) __builtin_trap();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  ReadAll(data, size, int64_t{1} << 20, true);
  ReadAll(data, size, 3, false);
  return 0;
}
