// libFuzzer target: parse arbitrary bytes as an IDX file and read every batch.
#include <cstddef>
#include <cstdint>

#include "recflow/formats/idx/idx_reader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  auto file = recflow::idx::IdxFile::FromBuffer(recflow::Buffer::Wrap(data, static_cast<int64_t>(size)), "fuzz");
  if (!file.ok()) return 0;
  auto reader = recflow::idx::IdxReader::Make({*file}, recflow::idx::IdxReaderOptions::Defaults());
  if (!reader.ok()) return 0;
  while (true) {
    auto batch = (*reader)->Next();
    if (!batch.ok() || !*batch) break;
  }
  return 0;
}
