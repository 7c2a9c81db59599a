// Arrow's newer types through IPC: every sample round-trips (plain, compressed, big-endian); hand-built view, list view and run-end encoded batches decode; hostile ones are located DataErrors.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "recflow/columnar/equals.h"
#include "recflow/columnar/pretty_print.h"
#include "recflow/core/io.h"
#include "recflow/formats/arrow_ipc/big_endian_test_util_internal.h"
#include "recflow/formats/arrow_ipc/ipc_stream_reader.h"
#include "recflow/formats/arrow_ipc/ipc_writer.h"
#include "recflow/formats/arrow_ipc/read_all_test_util_internal.h"
#include "recflow/formats/arrow_ipc/test_messages_internal.h"
#include "recflow/testing/sample_arrays.h"

namespace recflow::arrow_ipc {
namespace {

using testing::Body;
using testing::Bytes;
using Compression = IpcWriteOptions::Compression;

/// `data` as one column of a batch, written by IpcWriter twice as a stream or a file.
std::string Written(const std::shared_ptr<ArrayData>& data, bool file, Compression compression) {
  auto schema = Schema::Make({Field::Make("c", data->type, true)});
  auto batch = *RecordBatch::Make(schema, data->length, {data});
  BufferOutputStream out;
  IpcWriteOptions options = IpcWriteOptions::Defaults();
  options.compression = compression;
  auto writer = file ? IpcWriter::OpenFile(&out, schema, options) : IpcWriter::OpenStream(&out, schema, options);
  EXPECT_TRUE(writer.ok()) << writer.status().ToString();
  for (int i = 0; i < 2; ++i) EXPECT_TRUE((*writer)->Write(*batch).ok());
  EXPECT_TRUE((*writer)->Finish().ok());
  return std::string(out.Finish()->view());
}

/// The batches of a stream or file, decoded; an error fails the test.
std::vector<std::shared_ptr<RecordBatch>> ReadBack(const std::string& bytes, bool file) {
  auto batches = testing::ReadAllBatches(Buffer::FromString(bytes), file ? "file" : "stream", file);
  EXPECT_TRUE(batches.ok()) << batches.status().ToString();
  return batches.ok() ? *batches : std::vector<std::shared_ptr<RecordBatch>>();
}

void ExpectEqualTwice(const std::vector<std::shared_ptr<RecordBatch>>& batches, const ArrayData& want) {
  ASSERT_EQ(batches.size(), 2u);
  for (const auto& batch : batches) {
    EXPECT_TRUE(ArrayEquals(*batch->column_data(0), want))
        << "got " << ArrayToString(*batch->column_data(0)) << ", want " << ArrayToString(want);
  }
}

TEST(ArrowIpcNewerTypes, EverySampleRoundTripsPlainCompressedAndBigEndian) {
  for (const auto& [name, data] : recflow::testing::SampleArrays()) {
    SCOPED_TRACE(name);
    for (const bool file : {false, true}) {
      for (const auto compression : {Compression::kNone, Compression::kLz4Frame, Compression::kZstd}) {
        ExpectEqualTwice(ReadBack(Written(data, file, compression), file), *data);
      }
      const std::string plain = Written(data, file, Compression::kNone);
      const std::string big = file ? testing::ToBigEndianFile(plain) : testing::ToBigEndian(plain);
      ExpectEqualTwice(ReadBack(big, file), *data);
    }
  }
}

/// One column field of `type_type` / `type` with `children`.
std::string SchemaOf(fb::Type type_type, flatbuffers::Offset<void> (*type)(flatbuffers::FlatBufferBuilder&),
                     const std::vector<std::pair<std::string, fb::Type>>& children = {}) {
  flatbuffers::FlatBufferBuilder fbb;
  std::vector<flatbuffers::Offset<fb::Field>> child_fields;
  for (const auto& [name, child_type] : children) {
    const auto table = child_type == fb::Type::Int ? fb::CreateInt(fbb, 32, true).Union() : fb::CreateUtf8(fbb).Union();
    child_fields.push_back(fb::CreateFieldDirect(fbb, name.c_str(), name != "run_ends", child_type, table));
  }
  auto field = testing::MakeField(fbb, "c", type_type, type(fbb), child_fields);
  testing::FinishSchemaMessage(fbb, {field});
  return testing::Frame(fbb);
}

Result<std::string> ReadColumn(const std::string& stream) {
  ASSIGN_OR_RETURN(auto reader, IpcStreamReader::Open(Buffer::FromString(stream), "hand.arrows"));
  ASSIGN_OR_RETURN(auto batch, reader->Next());
  if (batch == nullptr) return Status::DataError("no batch");
  return ArrayToString(*batch->column_data(0));
}

/// A stream of `schema` and one batch, with the end-of-stream marker.
std::string StreamOf(const std::string& schema, int64_t length, const std::vector<fb::FieldNode>& nodes,
                     const Body& body, const std::vector<int64_t>& counts = {}) {
  return schema + testing::BatchMessage(length, nodes, body, -1, -1, false, fb::MetadataVersion::V5, counts) +
         testing::EndOfStream();
}

/// Binary views as the spec lays them out: [size, inline bytes] or [size, prefix, buffer, offset].
std::string View(const std::string& bytes, int32_t buffer = 0, int32_t offset = 0) {
  std::string view(16, '\0');
  const auto size = static_cast<int32_t>(bytes.size());
  std::memcpy(view.data(), &size, 4);
  if (size <= 12) {
    std::memcpy(view.data() + 4, bytes.data(), bytes.size());
  } else {
    std::memcpy(view.data() + 4, bytes.data(), 4);
    std::memcpy(view.data() + 8, &buffer, 4);
    std::memcpy(view.data() + 12, &offset, 4);
  }
  return view;
}

TEST(ArrowIpcNewerTypes, HandBuiltBinaryViewsWithVariadicBuffers) {
  const std::string schema =
      SchemaOf(fb::Type::Utf8View, [](flatbuffers::FlatBufferBuilder& fbb) { return fb::CreateUtf8View(fbb).Union(); });
  const auto stream = [&](const std::string& views, const std::vector<int64_t>& counts, int data_buffers) {
    Body body;
    body.Add("");
    body.Add(views);
    body.Add("xxa string of some length");
    if (data_buffers > 1) body.Add("second buffer's bytes");
    return StreamOf(schema, 3, {fb::FieldNode(3, 0)}, body, counts);
  };
  const std::string good = View("inline") + View("a string of some length", 0, 2) + View("second buffer", 1, 0);
  EXPECT_EQ(ReadColumn(stream(good, {2}, 2)).ValueOrDie(),
            R"(["inline", "a string of some length", "second buffer"])");

  const auto expect_error = [](const Result<std::string>& read, const std::string& needle) {
    ASSERT_FALSE(read.ok());
    EXPECT_EQ(read.status().code(), StatusCode::kDataError);
    EXPECT_NE(read.status().message().find(needle), std::string::npos) << read.status().ToString();
    EXPECT_EQ(read.status().context().file, "hand.arrows");
    EXPECT_GT(read.status().context().offset, 0);
  };
  // A view past the end of its buffer, into a buffer that is not there, counts that do not fit.
  expect_error(ReadColumn(stream(View("x") + View("a string of some length", 0, 9) + View("y"), {1}, 1)),
               "outside data buffer 0");
  expect_error(ReadColumn(stream(good, {1}, 1)), "points to data buffer 1 of 1");
  expect_error(ReadColumn(stream(good, {}, 2)), "0 variadic buffer counts; the schema has 1");
  expect_error(ReadColumn(stream(good, {3}, 2)), "field nodes and 4 buffers; the schema needs 1 and 5");
  expect_error(ReadColumn(stream(good, {-1}, 2)), "variadic buffer count 0 (-1)");
  expect_error(ReadColumn(stream(good, {1 << 30}, 2)), "more than the batch's 4 buffers");
}

TEST(ArrowIpcNewerTypes, HandBuiltListViews) {
  const std::string schema = SchemaOf(
      fb::Type::ListView, [](flatbuffers::FlatBufferBuilder& fbb) { return fb::CreateListView(fbb).Union(); },
      {{"item", fb::Type::Int}});
  const auto stream = [&](std::vector<int32_t> offsets, std::vector<int32_t> sizes) {
    Body body;
    body.Add(std::string(1, '\x05'));  // validity 101
    body.Add(Bytes(offsets));
    body.Add(Bytes(sizes));
    body.Add("");
    body.Add(Bytes(std::vector<int32_t>{10, 20, 30, 40}));
    return StreamOf(schema, 3, {fb::FieldNode(3, 1), fb::FieldNode(4, 0)}, body);
  };
  EXPECT_EQ(ReadColumn(stream({2, 0, 0}, {2, 0, 3})).ValueOrDie(), "[[30, 40], null, [10, 20, 30]]");
  auto outside = ReadColumn(stream({2, 0, 3}, {2, 0, 2}));
  ASSERT_FALSE(outside.ok());
  EXPECT_NE(outside.status().message().find("element 2 has offset 3 and size 2, outside the child of 4"),
            std::string::npos)
      << outside.status().ToString();
  EXPECT_EQ(outside.status().context().field, "c");
  auto null_outside = ReadColumn(stream({2, 7, 0}, {2, 0, 3}));
  ASSERT_FALSE(null_outside.ok());
  EXPECT_NE(null_outside.status().message().find("element 1 has offset 7"), std::string::npos);
}

TEST(ArrowIpcNewerTypes, HandBuiltRunEndEncoded) {
  const std::string schema = SchemaOf(
      fb::Type::RunEndEncoded, [](flatbuffers::FlatBufferBuilder& fbb) { return fb::CreateRunEndEncoded(fbb).Union(); },
      {{"run_ends", fb::Type::Int}, {"values", fb::Type::Utf8}});
  const auto stream = [&](std::vector<int32_t> ends, int64_t length, int64_t null_count = 0) {
    Body body;  // no buffers for the run-end encoded array itself
    body.Add("");
    body.Add(Bytes(ends));
    body.Add(std::string(1, '\x05'));  // values valid, null, valid
    body.Add(Bytes(std::vector<int32_t>{0, 3, 3, 7}));
    body.Add("catbird");
    return StreamOf(schema, length, {fb::FieldNode(length, null_count), fb::FieldNode(3, 0), fb::FieldNode(3, 1)},
                    body);
  };
  EXPECT_EQ(ReadColumn(stream({2, 3, 5}, 5)).ValueOrDie(), R"(["cat", "cat", null, "bird", "bird"])");
  auto repeated = ReadColumn(stream({2, 2, 5}, 5));
  ASSERT_FALSE(repeated.ok());
  EXPECT_NE(repeated.status().message().find("run end 1 (2) is not above the one before (2)"), std::string::npos)
      << repeated.status().ToString();
  auto short_runs = ReadColumn(stream({2, 3, 4}, 5));
  ASSERT_FALSE(short_runs.ok());
  EXPECT_NE(short_runs.status().message().find("the runs end before offset + length 5"), std::string::npos);
  auto own_nulls = ReadColumn(stream({2, 3, 5}, 5, 1));
  ASSERT_FALSE(own_nulls.ok());
  EXPECT_NE(own_nulls.status().message().find("has a null count of its own"), std::string::npos);

  // Run ends of a type the format does not allow: refused with the schema.
  flatbuffers::FlatBufferBuilder fbb;
  std::vector<flatbuffers::Offset<fb::Field>> children = {
      fb::CreateFieldDirect(fbb, "run_ends", false, fb::Type::Int, fb::CreateInt(fbb, 8, true).Union()),
      fb::CreateFieldDirect(fbb, "values", true, fb::Type::Utf8, fb::CreateUtf8(fbb).Union())};
  testing::FinishSchemaMessage(fbb, {testing::MakeField(fbb, "c", fb::Type::RunEndEncoded,
                                                        fb::CreateRunEndEncoded(fbb).Union(), children)});
  auto bad_schema = IpcStreamReader::Open(Buffer::FromString(testing::Frame(fbb) + testing::EndOfStream()), "hand.arrows");
  ASSERT_FALSE(bad_schema.ok());
  EXPECT_NE(bad_schema.status().message().find("run ends of type int8, not int16, int32 or int64"), std::string::npos)
      << bad_schema.status().ToString();
}

}  // namespace
}  // namespace recflow::arrow_ipc
