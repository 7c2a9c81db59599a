// libFuzzer target: arbitrary bytes as the head of an input, sniffed under a few names.
#include <cstddef>
#include <cstdint>

#include "recflow/formats/builtin/builtin_formats.h"
#include "recflow/formats/sniff.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const recflow::formats::SniffRules sniffers = recflow::formats::BuiltinFormats().sniff_rules();
  for (const char* name : {"fuzz", "fuzz.csv", "fuzz.tfrecord.gz"}) {
    const recflow::formats::Sniffed sniffed = recflow::formats::Sniff(name, {data, size}, sniffers);
    (void)recflow::formats::CheckReadable(name, sniffed);
  }
  return 0;
}
