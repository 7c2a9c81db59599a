// Benchmarks tf.Example decode into columns and encode from columns against libprotobuf's generated messages, on
// TensorFlow-written mnist and taxi records.
#include <benchmark/benchmark.h>
#include <google/protobuf/arena.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "example.pb.h"
#include "recflow/formats/example/decoder.h"
#include "recflow/formats/example/encoder.h"
#include "recflow/formats/example/schema_inference.h"
#include "recflow/formats/tfrecord/record_reader.h"
#include "recflow/testing/testdata.h"

namespace recflow {
namespace {

using example::RecordType;

// The records of one file, with what every benchmark needs prepared outside the timed loop.
struct Corpus {
  std::vector<std::string> records;
  int64_t bytes = 0;
  SchemaPtr schema;                       // inferred from every record
  std::shared_ptr<RecordBatch> batch;     // every record, decoded by recflow
  std::vector<oracle::Example> messages;  // every record, parsed by libprotobuf
};

Result<std::unique_ptr<Corpus>> ReadCorpus(const std::string& path) {
  auto corpus = std::make_unique<Corpus>();
  ASSIGN_OR_RETURN(auto reader, tfrecord::RecordReader::Open(path, tfrecord::ReaderOptions::Defaults()));
  example::SchemaInferrer inferrer(RecordType::kExample);
  std::string_view record;
  while (true) {
    ASSIGN_OR_RETURN(bool more, reader->Next(&record));
    if (!more) break;
    RETURN_NOT_OK(inferrer.Observe(record));
    corpus->records.emplace_back(record);
    corpus->bytes += static_cast<int64_t>(record.size());
  }
  corpus->schema = inferrer.Finish();
  ASSIGN_OR_RETURN(auto decoder, example::Decoder::Make(corpus->schema, RecordType::kExample));
  for (const std::string& r : corpus->records) {
    RETURN_NOT_OK(decoder->Append(r));
    if (!corpus->messages.emplace_back().ParseFromString(r)) return Status::DataError("libprotobuf rejects a record");
  }
  ASSIGN_OR_RETURN(corpus->batch, decoder->Finish());
  return corpus;
}

// The corpus of a file under testdata/tfrecord/tfx, read once; nullptr (and *error set) when
// the file is missing or unreadable.
const Corpus* LoadCorpus(const std::string& name, std::string* error) {
  static std::map<std::string, std::unique_ptr<Corpus>> cache;
  static std::map<std::string, std::string> errors;
  if (!cache.count(name) && !errors.count(name)) {
    const std::string path = (testing::TestdataDir() / "tfrecord" / "tfx" / name).string();
    auto corpus = testing::HaveTestdata() ? ReadCorpus(path)
                                          : Result<std::unique_ptr<Corpus>>(Status::IOError("no shared testdata"));
    if (corpus.ok()) {
      cache[name] = std::move(corpus).ValueUnsafe();
    } else {
      errors[name] = "skipped: cannot read " + path + ": " + corpus.status().ToString();
    }
  }
  *error = errors.count(name) ? errors[name] : "";
  return cache.count(name) ? cache[name].get() : nullptr;
}

void SetCounters(benchmark::State& state, const Corpus& corpus) {
  state.SetBytesProcessed(state.iterations() * corpus.bytes);
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(corpus.records.size()));
}

// recflow: every record into the columns of the inferred schema (one RecordBatch per pass).
void BM_RecflowDecode(benchmark::State& state, const std::string& file) {
  std::string error;
  const Corpus* corpus = LoadCorpus(file, &error);
  if (corpus == nullptr) return state.SkipWithError(error.c_str());
  auto decoder = example::Decoder::Make(corpus->schema, RecordType::kExample);
  if (!decoder.ok()) return state.SkipWithError(decoder.status().ToString().c_str());
  for (auto _ : state) {
    for (const std::string& record : corpus->records) {
      Status st = (*decoder)->Append(record);
      if (!st.ok()) return state.SkipWithError(st.ToString().c_str());
    }
    auto batch = (*decoder)->Finish();
    benchmark::DoNotOptimize(batch);
  }
  SetCounters(state, *corpus);
}

// libprotobuf: every record into a generated message on an arena, reset per pass. The arena's
// first block is reused, so steady-state passes allocate nothing from the heap.
void BM_ProtobufDecode(benchmark::State& state, const std::string& file) {
  std::string error;
  const Corpus* corpus = LoadCorpus(file, &error);
  if (corpus == nullptr) return state.SkipWithError(error.c_str());
  std::vector<char> block(static_cast<size_t>(corpus->bytes) * 4 + (1 << 20));
  google::protobuf::ArenaOptions options;
  options.initial_block = block.data();
  options.initial_block_size = block.size();
  google::protobuf::Arena arena(options);
  for (auto _ : state) {
    for (const std::string& record : corpus->records) {
      auto* message = google::protobuf::Arena::CreateMessage<oracle::Example>(&arena);
      if (!message->ParseFromString(record)) return state.SkipWithError("libprotobuf rejects a record");
    }
    arena.Reset();
  }
  SetCounters(state, *corpus);
}

// recflow: every row of the decoded batch back into a serialized record.
void BM_RecflowEncode(benchmark::State& state, const std::string& file) {
  std::string error;
  const Corpus* corpus = LoadCorpus(file, &error);
  if (corpus == nullptr) return state.SkipWithError(error.c_str());
  auto encoder = example::Encoder::Make(corpus->schema, RecordType::kExample);
  if (!encoder.ok()) return state.SkipWithError(encoder.status().ToString().c_str());
  std::string out;
  for (auto _ : state) {
    for (int64_t row = 0; row < corpus->batch->num_rows(); ++row) {
      Status st = (*encoder)->Encode(*corpus->batch, row, &out);
      if (!st.ok()) return state.SkipWithError(st.ToString().c_str());
      benchmark::DoNotOptimize(out.data());
    }
  }
  SetCounters(state, *corpus);
}

// libprotobuf: SerializeToString of every pre-built message.
void BM_ProtobufEncode(benchmark::State& state, const std::string& file) {
  std::string error;
  const Corpus* corpus = LoadCorpus(file, &error);
  if (corpus == nullptr) return state.SkipWithError(error.c_str());
  std::string out;
  for (auto _ : state) {
    for (const oracle::Example& message : corpus->messages) {
      message.SerializeToString(&out);
      benchmark::DoNotOptimize(out.data());
    }
  }
  SetCounters(state, *corpus);
}

const std::string kMnist = "mnist.tfrecord";
const std::string kTaxi = "taxi-train-00000-of-00012.tfrecord.gz";

BENCHMARK_CAPTURE(BM_RecflowDecode, mnist, kMnist);
BENCHMARK_CAPTURE(BM_ProtobufDecode, mnist, kMnist);
BENCHMARK_CAPTURE(BM_RecflowDecode, taxi, kTaxi);
BENCHMARK_CAPTURE(BM_ProtobufDecode, taxi, kTaxi);
BENCHMARK_CAPTURE(BM_RecflowEncode, mnist, kMnist);
BENCHMARK_CAPTURE(BM_ProtobufEncode, mnist, kMnist);
BENCHMARK_CAPTURE(BM_RecflowEncode, taxi, kTaxi);
BENCHMARK_CAPTURE(BM_ProtobufEncode, taxi, kTaxi);

}  // namespace
}  // namespace recflow
