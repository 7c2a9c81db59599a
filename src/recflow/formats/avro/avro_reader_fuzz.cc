// libFuzzer target: read arbitrary bytes as an Avro object container file, with AvroReader and as a skipping Source.
#include <cstddef>
#include <cstdint>

#include "recflow/formats/avro/avro_reader.h"
#include "recflow/formats/avro/avro_source.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  auto options = recflow::avro::ReadOptions::Defaults();
  options.batch_rows = 7;
  options.max_block_bytes = int64_t{16} << 20;
  auto buffer = recflow::Buffer::Wrap(data, static_cast<int64_t>(size));
  auto reader = recflow::avro::AvroReader::FromBuffer(buffer, "fuzz", options);
  if (!reader.ok()) return 0;
  while (true) {
    auto batch = (*reader)->Next();
    if (!batch.ok() || !*batch) break;
    if (!(*batch)->ValidateFull().ok()) __builtin_trap();
  }
  options.bad_blocks = recflow::avro::BadBlocksMode::kSkip;
  auto source = recflow::avro::OpenAvroSource(buffer, "fuzz", options);
  if (!source.ok()) return 0;
  while (true) {
    auto unit = (*source)->NextUnit();
    if (!unit.ok() || !*unit) break;
    auto decoded = (*unit)->Decode();
    if (!decoded.ok() || !decoded->batch->ValidateFull().ok()) __builtin_trap();
  }
  return 0;
}
