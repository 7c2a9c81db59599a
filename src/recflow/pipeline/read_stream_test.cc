// ReadIntoStream over real files (TensorFlow's TFRecords, Apache Arrow's integration files, a CSV) run by RunStage into
// an exported C stream: what a consumer reads — through the StreamReader importer and through a plain C loop walking the
// ArrowArray structs — equals a direct read, in order, on 1 and 4 threads; a consumer that does not pull holds the
// stage to its units in flight; releasing the stream early cancels the stage; a decoding error reaches get_next naming
// file, offset and record as the direct read does; a stop requested on the stream's stop source by its caller ends it
// with the stage's Cancelled.
#include <gtest/gtest.h>

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <functional>
#include <future>
#include <string>
#include <vector>

#include "recflow/columnar/c_stream.h"
#include "recflow/core/local_filesystem.h"
#include "recflow/dataset/dataset_source.h"
#include "recflow/formats/source_test_util.h"
#include "recflow/formats/tfrecord/record_reader.h"
#include "recflow/formats/tfrecord/record_writer.h"
#include "recflow/formats/tfrecord/tfrecord_source.h"
#include "recflow/pipeline/scan.h"
#include "recflow/pipeline/read_stream.h"
#include "recflow/testing/testdata.h"

namespace recflow::pipeline {
namespace {

using SourcePtr = std::shared_ptr<Source>;

// How the stage of a stream ended, kept by the test past the stream.
struct StageRecord {
  Status status;
};

// ReadIntoStream(source, stage_options), recording how it ended.
StreamRun StageOver(SourcePtr source, std::shared_ptr<StageRecord> record = std::make_shared<StageRecord>(),
                    StageOptions stage_options = StageOptions()) {
  return [run = ReadIntoStream(std::move(source), stage_options), record](const ExecContext& context, Sink* sink) {
    record->status = run(context, sink);
    return record->status;
  };
}

// A file detected and opened through the format registry's openers (the dataset factory).
SourcePtr OpenThroughRegistry(const std::string& path, int64_t block_size = int64_t{1} << 20) {
  dataset::InputOptions options;
  options.settings.block_size = block_size;
  auto source = dataset::OpenInputs(std::vector<std::string>{path}, options);
  EXPECT_TRUE(source.ok()) << path << ": " << source.status().ToString();
  return source.ok() ? SourcePtr(std::move(*source)) : nullptr;
}

// A TFRecord of tf.Examples cut into units of about `unit_bytes` (many units from a small file),
// its schema inferred from the first 10 records (inferred records make the first unit).
SourcePtr OpenTfrecord(const std::string& path, int64_t unit_bytes) {
  tfrecord::SourceOptions options;
  options.unit_bytes = unit_bytes;
  options.inference_records = 10;
  auto source = tfrecord::OpenTfrecordSource(path, options);
  EXPECT_TRUE(source.ok()) << path << ": " << source.status().ToString();
  return source.ok() ? SourcePtr(std::move(*source)) : nullptr;
}

// The batches of a direct in-process read, zero-row ones left out (the stream passes none on).
std::vector<std::shared_ptr<RecordBatch>> DirectBatches(Source& source) {
  auto units = testing::DecodeAllUnits(source);
  EXPECT_TRUE(units.ok()) << units.status().ToString();
  std::vector<std::shared_ptr<RecordBatch>> batches;
  if (!units.ok()) return batches;
  for (auto& unit : *units) {
    if (unit.batch->num_rows() > 0) batches.push_back(unit.batch);
  }
  return batches;
}

ArrowArrayStream Export(const SchemaPtr& schema, StreamRun run, int threads, int64_t max_batches = 4,
                        std::function<void()> on_full = nullptr, StopSource stop = StopSource()) {
  ExecContext context;
  context.threads = threads;
  CStreamOptions options;
  options.max_batches = max_batches;
  options.on_full = std::move(on_full);
  ArrowArrayStream stream{};
  const Status st = ExportRunStream(context, schema, std::move(run), options, &stream, std::move(stop));
  EXPECT_TRUE(st.ok()) << st.ToString();
  return stream;
}

// ---- a plain C consumer: walks ArrowSchema / ArrowArray structs, no recflow importer ----

// One array's fields as the C Data Interface lays them out, from an ArrowArray or (for the
// direct read) from recflow's ArrayData, which has the same layout.
struct RawArray {
  int64_t length = 0;
  int64_t offset = 0;
  std::vector<const uint8_t*> buffers;
  std::vector<RawArray> children;
};

RawArray FromC(const ArrowArray& array) {
  RawArray raw{array.length, array.offset, {}, {}};
  for (int64_t b = 0; b < array.n_buffers; ++b) raw.buffers.push_back(static_cast<const uint8_t*>(array.buffers[b]));
  for (int64_t c = 0; c < array.n_children; ++c) raw.children.push_back(FromC(*array.children[c]));
  return raw;
}

RawArray FromRecflow(const ArrayData& data) {
  RawArray raw{data.length, data.offset, {}, {}};
  for (const auto& buffer : data.buffers) raw.buffers.push_back(buffer != nullptr ? buffer->data() : nullptr);
  for (const auto& child : data.children) raw.children.push_back(FromRecflow(*child));
  return raw;
}

// A field's format string and its children's, read from the ArrowSchema struct.
struct RawType {
  std::string format;
  std::vector<RawType> children;
};

RawType TypeOf(const ArrowSchema& schema) {
  RawType type{schema.format, {}};
  for (int64_t c = 0; c < schema.n_children; ++c) type.children.push_back(TypeOf(*schema.children[c]));
  return type;
}

bool Bit(const uint8_t* bits, int64_t i) { return (bits[i / 8] >> (i % 8)) & 1; }

std::string Hex(const uint8_t* bytes, int64_t n) {
  static const char kDigits[] = "0123456789abcdef";
  std::string out;
  for (int64_t i = 0; i < n; ++i) {
    out += kDigits[bytes[i] >> 4];
    out += kDigits[bytes[i] & 15];
  }
  return out;
}

// The value in slot `i` (offset applied by the caller) as text: fixed-width values as their
// bytes in hex, booleans as 0/1, binary and utf8 as hex of their bytes, lists as [a,b].
std::string ValueText(const RawType& type, const RawArray& array, int64_t slot) {
  if (array.buffers.size() > 0 && array.buffers[0] != nullptr && !Bit(array.buffers[0], slot)) return "null";
  const std::string& f = type.format;
  if (f == "b") return Bit(array.buffers[1], slot) ? "1" : "0";
  if (f == "u" || f == "z") {
    const auto* offsets = reinterpret_cast<const int32_t*>(array.buffers[1]);
    return Hex(array.buffers[2] + offsets[slot], offsets[slot + 1] - offsets[slot]);
  }
  if (f == "+l") {
    const auto* offsets = reinterpret_cast<const int32_t*>(array.buffers[1]);
    const RawArray& values = array.children[0];
    std::string out = "[";
    for (int32_t v = offsets[slot]; v < offsets[slot + 1]; ++v) {
      out += (v > offsets[slot] ? "," : "") + ValueText(type.children[0], values, values.offset + v);
    }
    return out + "]";
  }
  int64_t width = 0;
  if (f == "c" || f == "C") width = 1;
  if (f == "s" || f == "S") width = 2;
  if (f == "i" || f == "I" || f == "f") width = 4;
  if (f == "l" || f == "L" || f == "g") width = 8;
  if (f.rfind("w:", 0) == 0) width = std::stoll(f.substr(2));
  if (width == 0) return "<format " + f + " not walked>";
  return Hex(array.buffers[1] + slot * width, width);
}

// Every value of a record batch (a "+s" struct array), column by column, appended to `columns`.
void AppendValues(const RawType& schema, const RawArray& batch, std::vector<std::string>* columns) {
  columns->resize(schema.children.size());
  for (size_t c = 0; c < schema.children.size(); ++c) {
    const RawArray& column = batch.children[c];
    for (int64_t i = 0; i < batch.length; ++i) {
      (*columns)[c] += ValueText(schema.children[c], column, column.offset + batch.offset + i) + " ";
    }
  }
}

// The plain C consumer loop: get_schema, then get_next until the end, walking and releasing
// each array; the stream released at the end.
std::vector<std::string> ConsumeRaw(ArrowArrayStream* stream, RawType* type, int64_t* batches) {
  ArrowSchema schema{};
  EXPECT_EQ(stream->get_schema(stream, &schema), 0);
  *type = TypeOf(schema);
  schema.release(&schema);
  std::vector<std::string> columns;
  *batches = 0;
  while (true) {
    ArrowArray array{};
    const int code = stream->get_next(stream, &array);
    EXPECT_EQ(code, 0) << (stream->get_last_error(stream) ? stream->get_last_error(stream) : "");
    if (code != 0 || array.release == nullptr) break;
    AppendValues(*type, FromC(array), &columns);
    ++*batches;
    array.release(&array);
    EXPECT_EQ(array.release, nullptr);
  }
  stream->release(stream);
  return columns;
}

// ---- the cases ----

struct FileCase {
  std::string name;
  SourcePtr (*open)();  // a fresh source each call
};

std::string Data(const std::string& relative) { return (recflow::testing::TestdataDir() / relative).string(); }
std::string ArrowFile(const std::string& name) {
  return Data("arrow-integration/1.0.0-littleendian/generated_" + name + ".arrow_file");
}

std::vector<FileCase> Cases() {
  return {
      {"mnist_tfrecord_registry", [] { return OpenThroughRegistry(Data("tfrecord/tfx/mnist.tfrecord")); }},
      {"mnist_tfrecord_small_units", [] { return OpenTfrecord(Data("tfrecord/tfx/mnist.tfrecord"), 32 << 10); }},
      {"penguin_tfrecord_gzip", [] { return OpenThroughRegistry(Data("tfrecord/tfx/penguin-train.tfrecord.gz")); }},
      {"penguins_csv_small_blocks",
       [] { return OpenThroughRegistry(Data("csv/penguins_processed.csv"), /*block_size=*/512); }},
      {"arrow_primitive", [] { return OpenThroughRegistry(ArrowFile("primitive")); }},
      {"arrow_nested", [] { return OpenThroughRegistry(ArrowFile("nested")); }},
      {"arrow_dictionary", [] { return OpenThroughRegistry(ArrowFile("dictionary")); }},
      {"arrow_decimal", [] { return OpenThroughRegistry(ArrowFile("decimal")); }},
      {"arrow_zerolength", [] { return OpenThroughRegistry(ArrowFile("primitive_zerolength")); }},
      {"arrow_stream_union", [] {
         return OpenThroughRegistry(Data("arrow-integration/1.0.0-littleendian/generated_union.stream"));
       }},
  };
}

class ReadStreamTest : public ::testing::TestWithParam<int> {};

TEST_P(ReadStreamTest, TheImporterReadsWhatADirectReadGivesInOrder) {
  RECFLOW_REQUIRE_TESTDATA();
  for (const FileCase& file : Cases()) {
    SCOPED_TRACE(file.name);
    SourcePtr direct_source = file.open();
    SourcePtr stream_source = file.open();
    ASSERT_NE(direct_source, nullptr);
    ASSERT_NE(stream_source, nullptr);
    const auto expected = DirectBatches(*direct_source);
    ArrowArrayStream stream = Export(stream_source->schema(), StageOver(stream_source), GetParam());
    auto reader = c_data::StreamReader::Open(&stream);
    ASSERT_TRUE(reader.ok()) << reader.status().ToString();
    EXPECT_TRUE((*reader)->schema()->Equals(*stream_source->schema()));
    size_t n = 0;
    while (true) {
      auto batch = (*reader)->Next();
      ASSERT_TRUE(batch.ok()) << batch.status().ToString();
      if (*batch == nullptr) break;
      ASSERT_LT(n, expected.size());
      EXPECT_TRUE((*batch)->Equals(*expected[n])) << "batch " << n;
      ++n;
    }
    EXPECT_EQ(n, expected.size());
  }
}

// The opener of the case named `name`.
SourcePtr (*OpenerOf(const std::string& name))() {
  for (const FileCase& file : Cases()) {
    if (file.name == name) return file.open;
  }
  ADD_FAILURE() << "no case " << name;
  return [] { return SourcePtr(); };
}

// The values of recflow's own `batches` as the plain C loop prints them (same layout, walked
// from ArrayData).
std::vector<std::string> ValuesOf(const RawType& type, const std::vector<std::shared_ptr<RecordBatch>>& batches) {
  std::vector<std::string> columns;
  for (const auto& batch : batches) {
    RawArray raw{batch->num_rows(), 0, {nullptr}, {}};
    for (const auto& column : batch->columns()) raw.children.push_back(FromRecflow(*column));
    AppendValues(type, raw, &columns);
  }
  return columns;
}

void ExpectSameValues(const RawType& type, const std::vector<std::string>& streamed,
                      const std::vector<std::string>& direct) {
  ASSERT_EQ(streamed.size(), direct.size());
  for (size_t c = 0; c < direct.size(); ++c) {
    EXPECT_EQ(streamed[c].find("not walked"), std::string::npos) << type.children[c].format;
    EXPECT_EQ(streamed[c], direct[c]) << "column " << c << " (" << type.children[c].format << ")";
  }
}

TEST_P(ReadStreamTest, APlainCLoopReadsTheValuesOfADirectRead) {
  RECFLOW_REQUIRE_TESTDATA();
  for (const char* name : {"mnist_tfrecord_small_units", "penguins_csv_small_blocks", "arrow_primitive"}) {
    SCOPED_TRACE(name);
    SourcePtr direct_source = OpenerOf(name)();
    SourcePtr stream_source = OpenerOf(name)();
    ASSERT_NE(direct_source, nullptr);
    ASSERT_NE(stream_source, nullptr);
    ArrowArrayStream stream = Export(stream_source->schema(), StageOver(stream_source), GetParam());
    RawType type;
    int64_t batches = 0;
    const std::vector<std::string> streamed = ConsumeRaw(&stream, &type, &batches);
    EXPECT_EQ(stream.release, nullptr);
    const auto expected = DirectBatches(*direct_source);
    EXPECT_EQ(batches, static_cast<int64_t>(expected.size()));
    ExpectSameValues(type, streamed, ValuesOf(type, expected));
  }
}

TEST_P(ReadStreamTest, ArraysHeldPastReleaseOutliveTheRunAndItsSource) {
  RECFLOW_REQUIRE_TESTDATA();
  for (const char* name : {"mnist_tfrecord_small_units", "arrow_primitive"}) {
    SCOPED_TRACE(name);
    SourcePtr direct_source = OpenerOf(name)();
    ASSERT_NE(direct_source, nullptr);
    const auto expected = DirectBatches(*direct_source);
    ArrowArrayStream stream{};
    {
      SourcePtr stream_source = OpenerOf(name)();
      ASSERT_NE(stream_source, nullptr);
      const SchemaPtr schema = stream_source->schema();
      stream = Export(schema, StageOver(std::move(stream_source)), GetParam());
    }  // the run holds the source alone now
    ArrowSchema schema{};
    ASSERT_EQ(stream.get_schema(&stream, &schema), 0);
    const RawType type = TypeOf(schema);
    schema.release(&schema);
    std::vector<ArrowArray> held(2);
    for (ArrowArray& array : held) {
      ASSERT_EQ(stream.get_next(&stream, &array), 0);
      ASSERT_NE(array.release, nullptr);
    }
    stream.release(&stream);  // the run is cancelled or done, its thread joined, the source gone
    std::vector<std::string> streamed;
    for (ArrowArray& array : held) {
      AppendValues(type, FromC(array), &streamed);
      array.release(&array);
    }
    ExpectSameValues(type, streamed, ValuesOf(type, {expected[0], expected[1]}));
  }
}

TEST_P(ReadStreamTest, ReleasingTheStreamEarlyCancelsTheStage) {
  RECFLOW_REQUIRE_TESTDATA();
  SourcePtr source = OpenTfrecord(Data("tfrecord/tfx/mnist.tfrecord"), 32 << 10);  // about 100 units
  ASSERT_NE(source, nullptr);
  auto record = std::make_shared<StageRecord>();
  ArrowArrayStream stream = Export(source->schema(), StageOver(source, record), GetParam(), /*max_batches=*/1);
  auto reader = c_data::StreamReader::Open(&stream);
  ASSERT_TRUE(reader.ok());
  int64_t rows = 0;
  for (int i = 0; i < 2; ++i) {
    auto batch = (*reader)->Next();
    ASSERT_TRUE(batch.ok());
    ASSERT_NE(*batch, nullptr);
    rows += (*batch)->num_rows();
  }
  reader->reset();  // the consumer breaks out of its loop: returns once the stage has
  EXPECT_EQ(record->status.code(), StatusCode::kCancelled) << record->status.ToString();
  EXPECT_LT(rows, 1000);
}

TEST_P(ReadStreamTest, AStopOnTheCallersSourceEndsTheStreamWithTheStagesCancelled) {
  RECFLOW_REQUIRE_TESTDATA();
  SourcePtr source = OpenTfrecord(Data("tfrecord/tfx/mnist.tfrecord"), 32 << 10);  // about 100 units
  ASSERT_NE(source, nullptr);
  auto record = std::make_shared<StageRecord>();
  StopSource stop;  // what a Python read keeps to stop the run while its consumer waits in get_next
  ArrowArrayStream stream =
      Export(source->schema(), StageOver(source, record), GetParam(), /*max_batches=*/1, nullptr, stop);
  auto reader = c_data::StreamReader::Open(&stream);
  ASSERT_TRUE(reader.ok());
  auto first = (*reader)->Next();
  ASSERT_TRUE(first.ok() && *first != nullptr);
  ASSERT_TRUE(stop.RequestStop(SIGINT));
  int64_t rows = (*first)->num_rows();
  Result<std::shared_ptr<RecordBatch>> next = (*reader)->Next();
  for (; next.ok() && *next != nullptr; next = (*reader)->Next()) rows += (*next)->num_rows();
  ASSERT_FALSE(next.ok()) << "the stream ended as if the stage had read everything";
  EXPECT_NE(next.status().message().find("interrupted by SIGINT"), std::string::npos) << next.status().ToString();
  EXPECT_EQ(record->status.code(), StatusCode::kCancelled) << record->status.ToString();
  EXPECT_LT(rows, 1000);
}

TEST_P(ReadStreamTest, AConsumerThatDoesNotPullHoldsTheStageBack) {
  RECFLOW_REQUIRE_TESTDATA();
  SourcePtr source = OpenTfrecord(Data("tfrecord/tfx/mnist.tfrecord"), 32 << 10);  // about 100 units
  ASSERT_NE(source, nullptr);
  const SchemaPtr schema = source->schema();
  StageProgress progress;
  StageOptions stage_options;
  stage_options.progress = &progress;
  auto record = std::make_shared<StageRecord>();
  std::promise<void> full;
  std::atomic<bool> once{false};
  ArrowArrayStream stream = Export(schema, StageOver(std::move(source), record, stage_options), GetParam(),
                                   /*max_batches=*/1, [&] {
                                     if (!once.exchange(true)) full.set_value();
                                   });
  full.get_future().get();  // the stage's Emit waits: one batch queued, none pulled
  stream.release(&stream);  // the stage read nothing after the stop; its thread is joined
  EXPECT_EQ(record->status.code(), StatusCode::kCancelled);
  // Units read are either in the stage (at most 2 × threads + 2 in flight) or queued (1).
  EXPECT_LE(progress.units_read.load(), 2 * GetParam() + 2 + 1);
  EXPECT_GE(progress.units_read.load(), 2);
}

// mnist.tfrecord rewritten with record `bad` replaced by bytes that are no tf.Example (its
// framing and CRCs valid): the error comes from a parallel decode.
std::string WriteWithBadRecord(const recflow::testing::ScratchDir& scratch, int64_t bad) {
  const std::string path = scratch.File("mnist-bad.tfrecord");
  auto reader = tfrecord::RecordReader::Open(Data("tfrecord/tfx/mnist.tfrecord"), tfrecord::ReaderOptions::Defaults());
  auto writer = tfrecord::RecordWriter::Open(path, tfrecord::WriterOptions::Defaults(),
                                             *LocalFileSystem::Instance());
  EXPECT_TRUE(reader.ok() && writer.ok());
  std::string_view record;
  for (int64_t i = 0;; ++i) {
    auto more = (*reader)->Next(&record);
    EXPECT_TRUE(more.ok());
    if (!more.ok() || !*more) break;
    EXPECT_TRUE((*writer)->Write(i == bad ? std::string_view("\x0a\xff\xff\xff\xff\x0f", 6) : record).ok());
  }
  EXPECT_TRUE((*writer)->Close().ok());
  return path;
}

TEST_P(ReadStreamTest, ADecodingErrorReachesGetNextNamingFileOffsetAndRecord) {
  RECFLOW_REQUIRE_TESTDATA();
  recflow::testing::ScratchDir scratch;
  const std::string path = WriteWithBadRecord(scratch, /*bad=*/617);
  ExecContext direct_context;
  direct_context.threads = GetParam();
  SourcePtr direct_source = OpenTfrecord(path, 32 << 10);
  ASSERT_NE(direct_source, nullptr);
  const auto direct = ScanSource(direct_context, direct_source.get());
  ASSERT_FALSE(direct.ok());
  EXPECT_EQ(direct.status().context().file, path);
  EXPECT_EQ(direct.status().context().record, 617);
  EXPECT_GE(direct.status().context().offset, 0);

  SourcePtr source = OpenTfrecord(path, 32 << 10);
  ASSERT_NE(source, nullptr);
  ArrowArrayStream stream = Export(source->schema(), StageOver(source), GetParam());
  int code = 0;
  int64_t batches = 0;
  while (code == 0) {
    ArrowArray array{};
    code = stream.get_next(&stream, &array);
    ASSERT_TRUE(code != 0 || array.release != nullptr) << "the stream ended without the error";
    if (code == 0) {
      ++batches;
      array.release(&array);
    }
  }
  EXPECT_EQ(code, EIO);
  EXPECT_LT(batches, 1000 / 10);  // the records from 617 on never came
  ASSERT_NE(stream.get_last_error(&stream), nullptr);
  EXPECT_EQ(std::string(stream.get_last_error(&stream)), direct.status().ToString());
  stream.release(&stream);
}

INSTANTIATE_TEST_SUITE_P(Threads, ReadStreamTest, ::testing::Values(1, 4),
                         [](const ::testing::TestParamInfo<int>& info) {
                           return std::to_string(info.param) + "_threads";
                         });

}  // namespace
}  // namespace recflow::pipeline
