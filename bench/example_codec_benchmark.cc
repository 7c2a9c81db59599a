// Benchmarks tf.Example / SequenceExample decode into columns and encode from columns against libprotobuf's
// generated messages (its two fastest uses), on every TFX file of the shared testdata and a map-heavy Example set.
#include <benchmark/benchmark.h>
#include <google/protobuf/arena.h>
#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>

#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "example.pb.h"
#include "recflow/core/buffer.h"
#include "recflow/formats/example/decoder.h"
#include "recflow/formats/example/encoder.h"
#include "recflow/formats/example/schema_inference.h"
#include "recflow/formats/tfrecord/read_records.h"
#include "recflow/testing/testdata.h"

namespace recflow {
namespace {

using example::RecordType;

// The records of one corpus, with what every benchmark needs prepared outside the timed loop.
struct Corpus {
  RecordType type = RecordType::kExample;
  std::vector<std::string> records;
  int64_t bytes = 0;
  SchemaPtr schema;                    // inferred from every record
  std::shared_ptr<RecordBatch> batch;  // every record, decoded by recflow
};

// The message class libprotobuf parses a record of `type` into.
template <typename Message>
bool ParsesAs(RecordType type) {
  return std::is_same_v<Message, oracle::SequenceExample> == (type == RecordType::kSequenceExample);
}

// Infers the schema, decodes every record once and checks that libprotobuf parses each.
Result<std::unique_ptr<Corpus>> Prepare(RecordType type, std::vector<std::string> records) {
  auto corpus = std::make_unique<Corpus>();
  corpus->type = type;
  corpus->records = std::move(records);
  example::SchemaInferrer inferrer(type);
  for (const std::string& r : corpus->records) {
    RETURN_NOT_OK(inferrer.Observe(r));
    corpus->bytes += static_cast<int64_t>(r.size());
    const bool parsed = type == RecordType::kSequenceExample ? oracle::SequenceExample().ParseFromString(r)
                                                             : oracle::Example().ParseFromString(r);
    if (!parsed) return Status::DataError("libprotobuf rejects a record");
  }
  corpus->schema = inferrer.Finish();
  ASSIGN_OR_RETURN(auto decoder, example::Decoder::Make(corpus->schema, type));
  for (const std::string& r : corpus->records) RETURN_NOT_OK(decoder->Append(r));
  ASSIGN_OR_RETURN(corpus->batch, decoder->Finish());
  return corpus;
}

// 1000 Examples of 100 features each (40 int64 and 40 float scalars, 20 short strings), the
// shape of a wide ranking / recommendation record, serialized by libprotobuf (keys sorted).
std::vector<std::string> MapHeavyRecords() {
  std::vector<std::string> records;
  uint64_t state = 0x9e3779b97f4a7c15u;
  auto next = [&state] {
    state = state * 6364136223846793005u + 1442695040888963407u;
    return state >> 33;
  };
  char name[16];
  for (int r = 0; r < 1000; ++r) {
    oracle::Example e;
    auto* map = e.mutable_features()->mutable_feature();
    for (int f = 0; f < 100; ++f) {
      std::snprintf(name, sizeof(name), "feature_%03d", f);
      oracle::Feature& feature = (*map)[name];
      if (f < 40) {
        feature.mutable_int64_list()->add_value(static_cast<int64_t>(next() % 100000));
      } else if (f < 80) {
        feature.mutable_float_list()->add_value(static_cast<float>(next() % 10000) / 7.0f);
      } else {
        feature.mutable_bytes_list()->add_value("token" + std::to_string(next() % 1000));
      }
    }
    std::string out;
    google::protobuf::io::StringOutputStream stream(&out);
    google::protobuf::io::CodedOutputStream coded(&stream);
    coded.SetSerializationDeterministic(true);
    e.SerializeToCodedStream(&coded);
    coded.Trim();
    records.push_back(std::string(out.data(), static_cast<size_t>(coded.ByteCount())));
  }
  return records;
}

const std::string kMapHeavy = "map-heavy";

// mnist's records with image_class dropped from every other one: a file alternating between two
// layouts (the label present, the label missing), reserialized by libprotobuf.
Result<std::vector<std::string>> AlternatingRecords(const std::vector<std::string>& mnist) {
  std::vector<std::string> records;
  for (size_t i = 0; i < mnist.size(); ++i) {
    oracle::Example e;
    if (!e.ParseFromString(mnist[i])) return Status::DataError("libprotobuf rejects an mnist record");
    if (i % 2 == 1 && e.mutable_features()->mutable_feature()->erase("image_class") != 1) {
      return Status::DataError("an mnist record without image_class");
    }
    records.push_back(e.SerializeAsString());
  }
  return records;
}

const std::string kMnist = "mnist.tfrecord";
const std::string kAlternating = "mnist-alternating";

// The records repeated until there are at least 1000 (one batch of a tiny file would time the
// batch's Finish, not the decode).
std::vector<std::string> AtLeast1000(std::vector<std::string> records) {
  const size_t n = records.size();
  for (size_t i = 0; n > 0 && records.size() < 1000; ++i) records.push_back(records[i % n]);
  return records;
}

// The corpus `name` (a file under testdata/tfrecord/tfx, kMapHeavy or kAlternating), read once; nullptr
// (and *error set) when the file is missing or unreadable.
const Corpus* LoadCorpus(const std::string& name, std::string* error) {
  static std::map<std::string, std::unique_ptr<Corpus>> cache;
  static std::map<std::string, std::string> errors;
  if (!cache.count(name) && !errors.count(name)) {
    const std::string path = (testing::TestdataDir() / "tfrecord" / "tfx" / (name == kAlternating ? kMnist : name)).string();
    const RecordType type =
        name.find("sequence") != std::string::npos ? RecordType::kSequenceExample : RecordType::kExample;
    Result<std::unique_ptr<Corpus>> corpus = Status::IOError("no shared testdata");
    if (name == kMapHeavy) {
      corpus = Prepare(type, MapHeavyRecords());
    } else if (testing::HaveTestdata()) {
      auto records = tfrecord::ReadRecords(path);
      if (records.ok() && name == kAlternating) records = AlternatingRecords(*records);
      corpus = records.ok() ? Prepare(type, AtLeast1000(std::move(records).ValueUnsafe()))
                            : Result<std::unique_ptr<Corpus>>(records.status());
    }
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
  auto decoder = example::Decoder::Make(corpus->schema, corpus->type);
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

// libprotobuf, one message reused for every record (ParseFromString clears it and keeps the
// memory of its repeated fields and map nodes).
template <typename Message>
void ProtobufReused(benchmark::State& state, const std::string& file) {
  std::string error;
  const Corpus* corpus = LoadCorpus(file, &error);
  if (corpus == nullptr) return state.SkipWithError(error.c_str());
  if (!ParsesAs<Message>(corpus->type)) return state.SkipWithError("wrong message type");
  Message message;
  for (auto _ : state) {
    for (const std::string& record : corpus->records) {
      if (!message.ParseFromString(record)) return state.SkipWithError("libprotobuf rejects a record");
      benchmark::DoNotOptimize(&message);
    }
  }
  SetCounters(state, *corpus);
}

// libprotobuf, a fresh message per record on an arena that is reset every 1000 records (its
// first block is reused, so steady-state passes allocate nothing from the heap).
template <typename Message>
void ProtobufArena(benchmark::State& state, const std::string& file) {
  std::string error;
  const Corpus* corpus = LoadCorpus(file, &error);
  if (corpus == nullptr) return state.SkipWithError(error.c_str());
  if (!ParsesAs<Message>(corpus->type)) return state.SkipWithError("wrong message type");
  std::vector<char> block(1 << 24);
  google::protobuf::ArenaOptions options;
  options.initial_block = block.data();
  options.initial_block_size = block.size();
  google::protobuf::Arena arena(options);
  int in_arena = 0;
  for (auto _ : state) {
    for (const std::string& record : corpus->records) {
      auto* message = google::protobuf::Arena::CreateMessage<Message>(&arena);
      if (!message->ParseFromString(record)) return state.SkipWithError("libprotobuf rejects a record");
      benchmark::DoNotOptimize(message);
      if (++in_arena == 1000) {
        arena.Reset();
        in_arena = 0;
      }
    }
  }
  SetCounters(state, *corpus);
}

void BM_ProtobufDecodeReused(benchmark::State& state, const std::string& file) {
  ProtobufReused<oracle::Example>(state, file);
}
void BM_ProtobufDecodeArena(benchmark::State& state, const std::string& file) {
  ProtobufArena<oracle::Example>(state, file);
}
void BM_ProtobufSeqDecodeReused(benchmark::State& state, const std::string& file) {
  ProtobufReused<oracle::SequenceExample>(state, file);
}
void BM_ProtobufSeqDecodeArena(benchmark::State& state, const std::string& file) {
  ProtobufArena<oracle::SequenceExample>(state, file);
}

// The cache-resident floor (unfair to a decoder, which writes each batch into new column
// buffers): every record's bytes copied once into one buffer that stays warm across passes.
void BM_Memcpy(benchmark::State& state, const std::string& file) {
  std::string error;
  const Corpus* corpus = LoadCorpus(file, &error);
  if (corpus == nullptr) return state.SkipWithError(error.c_str());
  std::vector<char> out(static_cast<size_t>(corpus->bytes));
  for (auto _ : state) {
    char* p = out.data();
    for (const std::string& record : corpus->records) {
      std::memcpy(p, record.data(), record.size());
      p += record.size();
    }
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  SetCounters(state, *corpus);
}

// What the decoder writes into its columns, as plain copies: per record, in record order, each
// list's offset, its values (the record's own bytes where they stand there verbatim, as packed
// floats do; else the decoded values) and each scalar's value, appended to output buffer `to`.
struct ColumnCopies {
  struct Copy {
    size_t to;
    const void* from;
    size_t size;
  };
  std::vector<int64_t> sizes;  // of each output buffer: the decoded buffer's bytes
  std::vector<Copy> copies;
};

// The copies of the corpus's decoded batch (fixed-width columns and lists of them, no nulls:
// mnist's); false for a batch of other columns.
bool PlanColumnCopies(const Corpus& corpus, ColumnCopies* plan) {
  struct Column {
    size_t offsets = 0, values = 0;  // output buffers
    const int32_t* list_offsets = nullptr;  // null: a scalar column
    const uint8_t* decoded = nullptr;       // the values
    size_t width = 0;
  };
  std::vector<Column> columns;
  const int64_t rows = corpus.batch->num_rows();
  for (int c = 0; c < corpus.batch->num_columns(); ++c) {
    const ArrayData& data = *corpus.batch->column_data(c);
    const bool list = data.type->id() == TypeId::kList;
    const ArrayData& values = list ? *data.children[0] : data;
    if (data.null_count != 0 || values.null_count != 0 || values.type->bit_width() % 8 != 0 ||
        values.type->bit_width() == 0) {
      return false;
    }
    Column column;
    column.width = static_cast<size_t>(values.type->bit_width() / 8);
    column.decoded = values.buffers[1]->data();
    if (list) {
      column.list_offsets = reinterpret_cast<const int32_t*>(data.buffers[1]->data());
      column.offsets = plan->sizes.size();
      plan->sizes.push_back((rows + 1) * 4);
    }
    column.values = plan->sizes.size();
    plan->sizes.push_back(values.length * static_cast<int64_t>(column.width));
    columns.push_back(column);
  }
  for (const Column& column : columns) {
    if (column.list_offsets != nullptr) plan->copies.push_back({column.offsets, column.list_offsets, 4});
  }
  for (int64_t row = 0; row < rows; ++row) {
    const std::string& record = corpus.records[static_cast<size_t>(row)];
    for (const Column& column : columns) {
      const int64_t first = column.list_offsets ? column.list_offsets[row] : row;
      const int64_t last = column.list_offsets ? column.list_offsets[row + 1] : row + 1;
      const void* decoded = column.decoded + first * static_cast<int64_t>(column.width);
      const size_t size = static_cast<size_t>(last - first) * column.width;
      const void* verbatim = column.list_offsets ? ::memmem(record.data(), record.size(), decoded, size) : nullptr;
      if (column.list_offsets) plan->copies.push_back({column.offsets, column.list_offsets + row + 1, 4});
      plan->copies.push_back({column.values, verbatim != nullptr ? verbatim : decoded, size});
    }
  }
  return true;
}

// The fair floor for a decode into columns: the ColumnCopies of every record into buffers of the
// decoded size, allocated as the decoder's builders allocate them — a BufferBuilder per buffer,
// kept across passes, whose first growth after Finish takes the finished size at once from the
// memory pool — and handed out with each pass, so every pass writes into memory it just got.
void BM_MemcpyIntoNewColumns(benchmark::State& state, const std::string& file) {
  std::string error;
  const Corpus* corpus = LoadCorpus(file, &error);
  if (corpus == nullptr) return state.SkipWithError(error.c_str());
  ColumnCopies plan;
  if (!PlanColumnCopies(*corpus, &plan)) return state.SkipWithError("columns other than fixed-width values and lists");
  std::vector<BufferBuilder> builders(plan.sizes.size());
  for (auto _ : state) {
    for (size_t b = 0; b < builders.size(); ++b) {
      if (!builders[b].Reserve(plan.sizes[b]).ok()) return state.SkipWithError("out of memory");
    }
    for (const ColumnCopies::Copy& copy : plan.copies) {
      builders[copy.to].UnsafeAppend(copy.from, static_cast<int64_t>(copy.size));
    }
    std::vector<std::shared_ptr<Buffer>> columns;
    for (BufferBuilder& builder : builders) columns.push_back(builder.Finish());
    benchmark::DoNotOptimize(columns.data());
    benchmark::ClobberMemory();
  }
  SetCounters(state, *corpus);
}

// recflow: every row of the decoded batch back into a serialized record.
void BM_RecflowEncode(benchmark::State& state, const std::string& file) {
  std::string error;
  const Corpus* corpus = LoadCorpus(file, &error);
  if (corpus == nullptr) return state.SkipWithError(error.c_str());
  auto encoder = example::Encoder::Make(corpus->schema, corpus->type);
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

// libprotobuf: SerializeToString of every record, parsed into messages outside the loop.
void BM_ProtobufEncode(benchmark::State& state, const std::string& file) {
  std::string error;
  const Corpus* corpus = LoadCorpus(file, &error);
  if (corpus == nullptr) return state.SkipWithError(error.c_str());
  if (corpus->type != RecordType::kExample) return state.SkipWithError("wrong message type");
  std::vector<oracle::Example> messages(corpus->records.size());
  for (size_t i = 0; i < messages.size(); ++i) messages[i].ParseFromString(corpus->records[i]);
  std::string out;
  for (auto _ : state) {
    for (const oracle::Example& message : messages) {
      message.SerializeToString(&out);
      benchmark::DoNotOptimize(out.data());
    }
  }
  SetCounters(state, *corpus);
}

const std::string kTaxi = "taxi-train-00000-of-00012.tfrecord.gz";
const std::string kPenguinTrain = "penguin-train.tfrecord.gz";
const std::string kPenguinEval = "penguin-eval.tfrecord.gz";
const std::string kSequence = "transform-sequence-example.tfrecord.gz";

#define RECFLOW_DECODE_BENCHMARKS(name, file)              \
  BENCHMARK_CAPTURE(BM_RecflowDecode, name, file);         \
  BENCHMARK_CAPTURE(BM_ProtobufDecodeReused, name, file);  \
  BENCHMARK_CAPTURE(BM_ProtobufDecodeArena, name, file)

RECFLOW_DECODE_BENCHMARKS(mnist, kMnist);
BENCHMARK_CAPTURE(BM_Memcpy, mnist, kMnist);
BENCHMARK_CAPTURE(BM_MemcpyIntoNewColumns, mnist, kMnist);
RECFLOW_DECODE_BENCHMARKS(mnist_alternating, kAlternating);
RECFLOW_DECODE_BENCHMARKS(taxi, kTaxi);
RECFLOW_DECODE_BENCHMARKS(penguin_train, kPenguinTrain);
RECFLOW_DECODE_BENCHMARKS(penguin_eval, kPenguinEval);
RECFLOW_DECODE_BENCHMARKS(map_heavy, kMapHeavy);
BENCHMARK_CAPTURE(BM_RecflowDecode, sequence, kSequence);
BENCHMARK_CAPTURE(BM_ProtobufSeqDecodeReused, sequence, kSequence);
BENCHMARK_CAPTURE(BM_ProtobufSeqDecodeArena, sequence, kSequence);
BENCHMARK_CAPTURE(BM_RecflowEncode, mnist, kMnist);
BENCHMARK_CAPTURE(BM_ProtobufEncode, mnist, kMnist);
BENCHMARK_CAPTURE(BM_RecflowEncode, taxi, kTaxi);
BENCHMARK_CAPTURE(BM_ProtobufEncode, taxi, kTaxi);

}  // namespace
}  // namespace recflow
