// Fuzz target: OpenTestStream on arbitrary bytes (hostile action lines), every unit decoded — errors only, no crash.
#include <cstddef>
#include <cstdint>

#include "recflow/core/memory_filesystem.h"
#include "recflow/pipeline/test_stream_source.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  recflow::MemoryFileSystem fs;
  {
    auto out = fs.OpenOutputStream("/stream.jsonl");
    if (!out.ok() || !(*out)->Write(data, static_cast<int64_t>(size)).ok() || !(*out)->Close().ok()) return 0;
  }
  auto source = recflow::pipeline::OpenTestStream(fs, "/stream.jsonl");
  if (!source.ok()) return 0;
  while (true) {
    auto unit = (*source)->NextUnit();
    if (!unit.ok() || *unit == nullptr) break;
    (void)(*unit)->token();
    (void)recflow::DecodeUnit(**unit);
  }
  return 0;
}
