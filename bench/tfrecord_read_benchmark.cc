// TFRecord framing + CRC32C reading from memory (RecordReader::FromBuffer) next to memcpy.
#include <benchmark/benchmark.h>

#include <cstring>
#include <map>
#include <random>
#include <vector>

#include "recflow/formats/tfrecord/record_reader.h"
#include "recflow/formats/tfrecord/record_writer.h"

namespace {

using recflow::Buffer;
using recflow::tfrecord::ReaderOptions;
using recflow::tfrecord::RecordReader;

constexpr int64_t kFileBytes = int64_t{64} << 20;

/// An uncompressed TFRecord file of about 64 MiB whose records all hold `record_size` random bytes.
const std::shared_ptr<Buffer>& FileOfRecords(int64_t record_size) {
  static std::map<int64_t, std::shared_ptr<Buffer>> files;
  std::shared_ptr<Buffer>& file = files[record_size];
  if (file != nullptr) return file;
  auto sink = std::make_unique<recflow::BufferOutputStream>();
  recflow::BufferOutputStream* raw = sink.get();
  auto writer = recflow::tfrecord::RecordWriter::Make(std::move(sink), recflow::tfrecord::WriterOptions::Defaults());
  std::mt19937_64 rng(record_size);
  std::string record(static_cast<size_t>(record_size), '\0');
  while ((*writer)->bytes_written() < kFileBytes) {
    for (char& c : record) c = static_cast<char>(rng());
    if (!(*writer)->Write(record).ok()) std::abort();
  }
  if (!(*writer)->Close().ok()) std::abort();
  file = raw->Finish();
  return file;
}

void ReadRecords(benchmark::State& state, bool verify_crc) {
  const std::shared_ptr<Buffer>& file = FileOfRecords(state.range(0));
  ReaderOptions options = ReaderOptions::Defaults();
  options.verify_crc = verify_crc;
  int64_t records = 0;
  for (auto _ : state) {
    auto reader = RecordReader::FromBuffer(file, "bench", options);
    std::string_view record;
    for (;;) {
      auto more = (*reader)->Next(&record);
      if (!more.ok()) {
        state.SkipWithError(more.status().ToString().c_str());
        return;
      }
      if (!*more) break;
      benchmark::DoNotOptimize(record.data());
    }
    records = (*reader)->record_index() + 1;
  }
  state.SetBytesProcessed(state.iterations() * file->size());
  state.counters["records/s"] = benchmark::Counter(static_cast<double>(records * state.iterations()),
                                                   benchmark::Counter::kIsRate);
}

/// Framing with both CRCs checked (the default).
void BM_TfrecordRead(benchmark::State& state) { ReadRecords(state, true); }
/// Framing with the length CRC only (verify_crc = false).
void BM_TfrecordReadNoDataCrc(benchmark::State& state) { ReadRecords(state, false); }

/// memcpy of the same file, the upper bound for touching every byte once.
void BM_Memcpy(benchmark::State& state) {
  const std::shared_ptr<Buffer>& file = FileOfRecords(state.range(0));
  std::vector<uint8_t> target(static_cast<size_t>(file->size()));
  uint8_t* out = target.data();
  for (auto _ : state) {
    std::memcpy(out, file->data(), static_cast<size_t>(file->size()));
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(state.iterations() * file->size());
}

// Record sizes: small features, a typical tf.Example, an MNIST image as 784 floats.
BENCHMARK(BM_TfrecordRead)->Arg(100)->Arg(1024)->Arg(3 * 1024)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_TfrecordReadNoDataCrc)->Arg(100)->Arg(1024)->Arg(3 * 1024)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Memcpy)->Arg(100)->Arg(1024)->Arg(3 * 1024)->Unit(benchmark::kMillisecond);

}  // namespace
