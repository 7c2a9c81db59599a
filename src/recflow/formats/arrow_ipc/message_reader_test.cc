// Unit tests of the metadata layer on hand-built messages: framing, schema conversion, batch headers and layouts.
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "recflow/core/io.h"
#include "recflow/formats/arrow_ipc/batch_layout.h"
#include "recflow/formats/arrow_ipc/message_reader.h"
#include "recflow/formats/arrow_ipc/schema_desc.h"
#include "recflow/formats/arrow_ipc/stream_reader.h"
#include "recflow/formats/arrow_ipc/test_messages_internal.h"

namespace recflow::arrow_ipc {
namespace {

using testing::EndOfStream;
using testing::FinishSchemaMessage;
using testing::Frame;
using testing::MakeField;

std::shared_ptr<Buffer> Bytes(const std::string& s) { return Buffer::FromString(s); }

Result<std::optional<Message>> FirstMessage(const std::string& bytes) {
  ASSIGN_OR_RETURN(auto reader, MessageReader::FromBuffer(Bytes(bytes), "test.arrows"));
  return reader->Next();
}

Result<SchemaDesc> SchemaOf(flatbuffers::FlatBufferBuilder& fbb) {
  ASSIGN_OR_RETURN(std::optional<Message> message, FirstMessage(Frame(fbb)));
  if (!message) return Status::Internal("no message");
  return ReadSchema(*message);
}

void ExpectDataError(const Status& status, const std::string& needle) {
  EXPECT_EQ(status.code(), StatusCode::kDataError) << status.ToString();
  EXPECT_NE(status.ToString().find(needle), std::string::npos) << status.ToString();
  EXPECT_EQ(status.context().file, "test.arrows");
  EXPECT_GE(status.context().offset, 0);
}

TEST(ArrowIpcMessageReader, ReadsSchemaMessageWithBothFramings) {
  for (const bool legacy : {false, true}) {
    flatbuffers::FlatBufferBuilder fbb;
    auto field = MakeField(fbb, "x", fb::Type::Int, fb::CreateInt(fbb, 16, false).Union());
    FinishSchemaMessage(fbb, {field}, fb::MetadataVersion::V4);
    auto reader = MessageReader::FromBuffer(Bytes(Frame(fbb, "", legacy) + EndOfStream()), "test.arrows");
    ASSERT_TRUE(reader.ok());
    auto message = (*reader)->Next();
    ASSERT_TRUE(message.ok()) << message.status().ToString();
    ASSERT_TRUE(message->has_value());
    EXPECT_EQ((*message)->legacy_framing, legacy);
    EXPECT_EQ((*message)->version, MetadataVersion::kV4);
    EXPECT_EQ((*message)->type, MessageType::kSchema);
    EXPECT_EQ((*message)->framed_metadata_size % 8, 0);
    EXPECT_EQ(reinterpret_cast<uintptr_t>((*message)->metadata->data()) % 8, 0u);
    auto schema = ReadSchema(**message);
    ASSERT_TRUE(schema.ok()) << schema.status().ToString();
    ASSERT_EQ(schema->fields.size(), 1u);
    EXPECT_EQ(TypeToString(schema->fields[0].type), "uint16");
    auto end = (*reader)->Next();
    ASSERT_TRUE(end.ok());
    EXPECT_FALSE(end->has_value());
    EXPECT_TRUE((*reader)->saw_end_of_stream_marker());
  }
}

TEST(ArrowIpcMessageReader, CleanEndWithoutMarker) {
  auto message = FirstMessage("");
  ASSERT_TRUE(message.ok());
  EXPECT_FALSE(message->has_value());
}

TEST(ArrowIpcMessageReader, StreamAndBufferSourcesAgree) {
  const std::string bytes = testing::Int32SchemaMessage() +
                            testing::RecordBatchMessage(3, {{3, 0}}, {{0, 0}, {0, 12}}, 16) + EndOfStream();
  auto stream = MessageReader::FromStream(std::make_unique<BufferInputStream>(Bytes(bytes), "test.arrows"));
  auto buffer = MessageReader::FromBuffer(Bytes(bytes), "test.arrows");
  ASSERT_TRUE(stream.ok() && buffer.ok());
  for (int i = 0; i < 3; ++i) {
    auto a = (*stream)->Next();
    auto b = (*buffer)->Next();
    ASSERT_TRUE(a.ok() && b.ok());
    ASSERT_EQ(a->has_value(), b->has_value());
    if (!a->has_value()) break;
    EXPECT_EQ((*a)->offset, (*b)->offset);
    EXPECT_EQ((*a)->body_offset, (*b)->body_offset);
    EXPECT_TRUE((*a)->metadata->Equals(*(*b)->metadata));
    EXPECT_TRUE((*a)->body->Equals(*(*b)->body));
  }
}

TEST(ArrowIpcMessageReader, FramingErrorsNameFileAndOffset) {
  const std::string schema = testing::Int32SchemaMessage();
  ExpectDataError(FirstMessage("\xFF\xFF").status(), "truncated message length prefix");
  ExpectDataError(FirstMessage(std::string("\xFF\xFF\xFF\xFF\x10", 5)).status(), "continuation marker");
  ExpectDataError(FirstMessage(std::string("\xFF\xFF\xFF\xFF\xF0\xFF\xFF\xFF", 8)).status(), "out of range");
  // A huge declared length is refused before anything is allocated.
  ExpectDataError(FirstMessage(std::string("\xFF\xFF\xFF\xFF\xFF\xFF\xFF\x7F", 8)).status(), "out of range");
  ExpectDataError(FirstMessage(schema.substr(0, schema.size() - 3)).status(), "truncated message metadata");
  std::string garbage = std::string("\xFF\xFF\xFF\xFF\x10\0\0\0", 8) + std::string(16, 'z');
  ExpectDataError(FirstMessage(garbage).status(), "not a valid Message flatbuffer");
  const std::string batch = testing::RecordBatchMessage(1, {{1, 0}}, {{0, 0}, {0, 4}}, 8);
  auto truncated_body = FirstMessage(batch.substr(0, batch.size() - 1));
  ExpectDataError(truncated_body.status(), "truncated message body");
  EXPECT_GT(truncated_body.status().context().offset, 8);
}

TEST(ArrowIpcMessageReader, HugeBodyLengthIsNotAllocated) {
  flatbuffers::FlatBufferBuilder fbb;
  auto batch = fb::CreateRecordBatchDirect(fbb, 0);
  fbb.Finish(fb::CreateMessage(fbb, fb::MetadataVersion::V5, fb::MessageHeader::RecordBatch, batch.Union(),
                               int64_t{1} << 39));
  // Through a stream the reader reads in bounded chunks; it fails on the missing bytes.
  auto reader = MessageReader::FromStream(std::make_unique<BufferInputStream>(Bytes(Frame(fbb)), "test.arrows"));
  ASSERT_TRUE(reader.ok());
  ExpectDataError((*reader)->Next().status(), "truncated message body");
  MessageReaderOptions options;
  options.max_body_bytes = 1024;
  auto limited = MessageReader::FromBuffer(Bytes(Frame(fbb)), "test.arrows", 0, options);
  ASSERT_TRUE(limited.ok());
  ExpectDataError((*limited)->Next().status(), "exceeds the limit");
}

TEST(ArrowIpcMessageReader, UnknownVersionAndHeaderType) {
  {
    flatbuffers::FlatBufferBuilder fbb;
    auto schema = fb::CreateSchemaDirect(fbb);
    fbb.Finish(fb::CreateMessage(fbb, static_cast<fb::MetadataVersion>(9), fb::MessageHeader::Schema, schema.Union()));
    ExpectDataError(FirstMessage(Frame(fbb)).status(), "unknown metadata version 9");
  }
  {
    flatbuffers::FlatBufferBuilder fbb;
    auto schema = fb::CreateSchemaDirect(fbb);
    fbb.Finish(fb::CreateMessage(fbb, fb::MetadataVersion::V5, static_cast<fb::MessageHeader>(9), schema.Union()));
    ExpectDataError(FirstMessage(Frame(fbb)).status(), "unknown message header type 9");
  }
  {
    flatbuffers::FlatBufferBuilder fbb;
    fbb.Finish(fb::CreateMessage(fbb, fb::MetadataVersion::V5, fb::MessageHeader::Schema, 0));
    ExpectDataError(FirstMessage(Frame(fbb)).status(), "no header");
  }
  EXPECT_EQ(MessageReaderOptions{.max_metadata_bytes = 0}.Validate().code(), StatusCode::kInvalidArgument);
}

TEST(ArrowIpcSchema, ConvertsEveryTypeFamily) {
  flatbuffers::FlatBufferBuilder fbb;
  std::vector<flatbuffers::Offset<fb::Field>> fields;
  fields.push_back(MakeField(fbb, "ts", fb::Type::Timestamp,
                             fb::CreateTimestampDirect(fbb, fb::TimeUnit::MICROSECOND, "UTC").Union()));
  fields.push_back(MakeField(fbb, "t", fb::Type::Time, fb::CreateTime(fbb, fb::TimeUnit::NANOSECOND, 64).Union()));
  fields.push_back(MakeField(fbb, "d", fb::Type::Decimal, fb::CreateDecimal(fbb, 40, 2, 256).Union()));
  fields.push_back(MakeField(fbb, "iv", fb::Type::Interval,
                             fb::CreateInterval(fbb, fb::IntervalUnit::MONTH_DAY_NANO).Union()));
  fields.push_back(MakeField(fbb, "h", fb::Type::FloatingPoint, fb::CreateFloatingPoint(fbb, fb::Precision::HALF).Union()));
  auto item = MakeField(fbb, "item", fb::Type::Utf8, fb::CreateUtf8(fbb).Union());
  fields.push_back(MakeField(fbb, "fsl", fb::Type::FixedSizeList, fb::CreateFixedSizeList(fbb, 3).Union(), {item}));
  auto a = MakeField(fbb, "a", fb::Type::Null, fb::CreateNull(fbb).Union());
  auto b = MakeField(fbb, "b", fb::Type::Bool, fb::CreateBool(fbb).Union());
  std::vector<int32_t> ids = {5, 9};
  fields.push_back(MakeField(fbb, "u", fb::Type::Union,
                             fb::CreateUnionDirect(fbb, fb::UnionMode::Dense, &ids).Union(), {a, b}));
  fields.push_back(MakeField(fbb, "sv", fb::Type::Utf8View, fb::CreateUtf8View(fbb).Union()));
  fields.push_back(MakeField(fbb, "bv", fb::Type::BinaryView, fb::CreateBinaryView(fbb).Union()));
  auto view_item = MakeField(fbb, "item", fb::Type::Int, fb::CreateInt(fbb, 16, true).Union());
  fields.push_back(MakeField(fbb, "lv", fb::Type::ListView, fb::CreateListView(fbb).Union(), {view_item}));
  fields.push_back(MakeField(fbb, "llv", fb::Type::LargeListView, fb::CreateLargeListView(fbb).Union(), {view_item}));
  auto run_ends = MakeField(fbb, "run_ends", fb::Type::Int, fb::CreateInt(fbb, 64, true).Union());
  auto values = MakeField(fbb, "values", fb::Type::Utf8, fb::CreateUtf8(fbb).Union());
  fields.push_back(MakeField(fbb, "ree", fb::Type::RunEndEncoded, fb::CreateRunEndEncoded(fbb).Union(),
                             {run_ends, values}));
  fields.push_back(MakeField(fbb, "d32", fb::Type::Decimal, fb::CreateDecimal(fbb, 9, 2, 32).Union()));
  auto dict = fb::CreateDictionaryEncoding(fbb, 7, 0, true);
  fields.push_back(MakeField(fbb, "cat", fb::Type::LargeUtf8, fb::CreateLargeUtf8(fbb).Union(), {}, dict));
  FinishSchemaMessage(fbb, fields);
  auto schema = SchemaOf(fbb);
  ASSERT_TRUE(schema.ok()) << schema.status().ToString();
  std::vector<std::string> rendered;
  for (const FieldDesc& f : schema->fields) rendered.push_back(TypeToString(f.type));
  EXPECT_EQ(rendered, (std::vector<std::string>{"timestamp[us, UTC]", "time64[ns]", "decimal256(40, 2)",
                                                "interval[month_day_nano]", "float16", "fixed_size_list[3]",
                                                "dense_union[5, 9]", "utf8_view", "binary_view", "list_view",
                                                "large_list_view", "run_end_encoded", "decimal32(9, 2)",
                                                "large_utf8"}));
  const FieldDesc& cat = schema->fields.back();
  ASSERT_TRUE(cat.dictionary.has_value());
  EXPECT_EQ(cat.dictionary->id, 7);
  EXPECT_TRUE(cat.dictionary->ordered);
  EXPECT_EQ(TypeToString(cat.dictionary->index_type), "int32");  // absent index type
}

Status SchemaErrorOf(fb::Type type_type, std::function<flatbuffers::Offset<void>(flatbuffers::FlatBufferBuilder&)> make,
                     int num_children = 0) {
  flatbuffers::FlatBufferBuilder fbb;
  std::vector<flatbuffers::Offset<fb::Field>> children;
  for (int i = 0; i < num_children; ++i) {
    children.push_back(MakeField(fbb, "c", fb::Type::Bool, fb::CreateBool(fbb).Union()));
  }
  auto type = make(fbb);
  FinishSchemaMessage(fbb, {MakeField(fbb, "f", type_type, type, children)});
  return SchemaOf(fbb).status();
}

TEST(ArrowIpcSchema, InvalidTypesAreDataErrors) {
  using B = flatbuffers::FlatBufferBuilder;
  ExpectDataError(SchemaErrorOf(fb::Type::Int, [](B& b) { return fb::CreateInt(b, 12, true).Union(); }),
                  "int bit width 12");
  ExpectDataError(SchemaErrorOf(fb::Type::Time, [](B& b) { return fb::CreateTime(b, fb::TimeUnit::SECOND, 64).Union(); }),
                  "time bit width");
  ExpectDataError(
      SchemaErrorOf(fb::Type::Time, [](B& b) { return fb::CreateTime(b, static_cast<fb::TimeUnit>(7), 64).Union(); }),
      "unknown time unit");
  ExpectDataError(SchemaErrorOf(fb::Type::Decimal, [](B& b) { return fb::CreateDecimal(b, 10, 2, 16).Union(); }),
                  "decimal bit width 16 is not 32, 64, 128 or 256");
  ExpectDataError(SchemaErrorOf(fb::Type::Decimal, [](B& b) { return fb::CreateDecimal(b, 10, 2, 32).Union(); }),
                  "decimal precision 10 is out of range");
  ExpectDataError(SchemaErrorOf(fb::Type::FloatingPoint,
                                [](B& b) { return fb::CreateFloatingPoint(b, static_cast<fb::Precision>(3)).Union(); }),
                  "unknown floating point precision");
  ExpectDataError(SchemaErrorOf(fb::Type::Union,
                                [](B& b) { return fb::CreateUnion(b, static_cast<fb::UnionMode>(2)).Union(); }),
                  "unknown union mode");
  ExpectDataError(SchemaErrorOf(static_cast<fb::Type>(40), [](B& b) { return fb::CreateNull(b).Union(); }),
                  "unknown type id 40");
  ExpectDataError(SchemaErrorOf(fb::Type::Utf8View, [](B& b) { return fb::CreateUtf8View(b).Union(); }, 1),
                  "expected 0");
  ExpectDataError(SchemaErrorOf(fb::Type::ListView, [](B& b) { return fb::CreateListView(b).Union(); }, 2),
                  "expected 1");
  ExpectDataError(SchemaErrorOf(fb::Type::RunEndEncoded, [](B& b) { return fb::CreateRunEndEncoded(b).Union(); }, 1),
                  "expected 2");
  ExpectDataError(SchemaErrorOf(fb::Type::List, [](B& b) { return fb::CreateList(b).Union(); }, 2), "expected 1");
  ExpectDataError(SchemaErrorOf(fb::Type::Int, [](B& b) { return fb::CreateInt(b, 8, true).Union(); }, 1),
                  "expected 0");
  ExpectDataError(SchemaErrorOf(fb::Type::Map, [](B& b) { return fb::CreateMap(b).Union(); }, 1), "key and value");
}

std::string NestedListSchema(int depth) {
  flatbuffers::FlatBufferBuilder fbb;
  auto field = MakeField(fbb, "leaf", fb::Type::Bool, fb::CreateBool(fbb).Union());
  for (int i = 1; i < depth; ++i) field = MakeField(fbb, "l", fb::Type::List, fb::CreateList(fbb).Union(), {field});
  FinishSchemaMessage(fbb, {field});
  return Frame(fbb);
}

TEST(ArrowIpcSchema, NestingDepthIsCapped) {
  auto ok = FirstMessage(NestedListSchema(kMaxFieldDepth));
  ASSERT_TRUE(ok.ok()) << ok.status().ToString();
  EXPECT_TRUE(ReadSchema(**ok).ok());
  auto deep = FirstMessage(NestedListSchema(kMaxFieldDepth + 1));
  ASSERT_TRUE(deep.ok()) << deep.status().ToString();
  ExpectDataError(ReadSchema(**deep).status(), "nest deeper");
  // Far deeper: the flatbuffers verifier's depth limit refuses it before any recursion of ours.
  ExpectDataError(FirstMessage(NestedListSchema(10 * kMaxFieldDepth)).status(), "not a valid Message flatbuffer");
}

TEST(ArrowIpcBatch, RecordBatchHeaderIsChecked) {
  auto ok = FirstMessage(testing::RecordBatchMessage(3, {{3, 1}}, {{0, 1}, {8, 12}}, 24, 1));
  ASSERT_TRUE(ok.ok()) << ok.status().ToString();
  auto batch = ReadRecordBatch(**ok);
  ASSERT_TRUE(batch.ok()) << batch.status().ToString();
  EXPECT_EQ(batch->length, 3);
  EXPECT_EQ(batch->compression, CompressionCodec::kZstd);
  EXPECT_EQ(batch->buffers[1], (BufferDesc{8, 12}));
  ExpectDataError(ReadSchema(**ok).status(), "expected a schema message");

  const auto error_of = [](const std::string& bytes) {
    auto message = FirstMessage(bytes);
    if (!message.ok()) return message.status();
    return ReadRecordBatch(**message).status();
  };
  ExpectDataError(error_of(testing::RecordBatchMessage(3, {{3, 1}}, {{0, 1}, {8, 17}}, 24)), "outside the body");
  ExpectDataError(error_of(testing::RecordBatchMessage(3, {{3, 1}}, {{INT64_MAX, 2}}, 24)), "outside the body");
  ExpectDataError(error_of(testing::RecordBatchMessage(3, {{3, 1}}, {{-8, 2}}, 24)), "outside the body");
  ExpectDataError(error_of(testing::RecordBatchMessage(3, {{3, 4}}, {}, 0)), "null count 4");
  ExpectDataError(error_of(testing::RecordBatchMessage(-1, {}, {}, 0)), "negative record batch length");
  ExpectDataError(error_of(testing::RecordBatchMessage(0, {}, {}, 0, 5)), "unknown body compression codec 5");
}

FieldDesc Field(const std::string& name, TypeId id, std::vector<FieldDesc> children = {}) {
  FieldDesc field;
  field.name = name;
  field.type.id = id;
  field.children = std::move(children);
  return field;
}

TEST(ArrowIpcBatch, LayoutFollowsTheSpec) {
  FieldDesc i32 = Field("i", TypeId::kInt);
  i32.type.bit_width = 32;
  i32.type.is_signed = true;
  const FieldDesc s = Field("s", TypeId::kUtf8);
  const FieldDesc n = Field("n", TypeId::kNull);
  const FieldDesc list = Field("l", TypeId::kList, {s});
  const FieldDesc st = Field("st", TypeId::kStruct, {i32, n});
  const FieldDesc sparse = Field("u", TypeId::kUnion, {i32});
  FieldDesc dense = sparse;
  dense.type.union_mode = UnionMode::kDense;
  FieldDesc dict_list = list;
  dict_list.dictionary = DictionaryDesc{1, i32.type, false};
  const std::vector<FieldDesc> fields = {i32, s, n, list, st, sparse, dense, dict_list};
  const BatchLayout v5 = ComputeBatchLayout(fields, MetadataVersion::kV5);
  // nodes: 1 + 1 + 1 + 2 + 3 + 2 + 2 + 1; buffers: 2 + 3 + 0 + (2+3) + (1+2+0) + (1+2) + (2+2) + 2.
  EXPECT_EQ(v5.num_nodes, 13);
  EXPECT_EQ(v5.num_buffers, 22);
  EXPECT_EQ(v5.column_nodes, (std::vector<int64_t>{0, 1, 2, 3, 5, 8, 10, 12}));
  // Before V5 unions carry a validity bitmap too.
  EXPECT_EQ(ComputeBatchLayout(fields, MetadataVersion::kV4).num_buffers, 24);
}

TEST(ArrowIpcStream, BatchesAreCheckedAgainstTheSchema) {
  const std::string good = testing::RecordBatchMessage(3, {{3, 0}}, {{0, 0}, {0, 12}}, 16);
  const std::string bad = testing::RecordBatchMessage(3, {{3, 0}}, {{0, 12}}, 16);
  auto reader = StreamReader::Open(Bytes(testing::Int32SchemaMessage() + good + bad + EndOfStream()), "test.arrows");
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  auto first = (*reader)->Next();
  ASSERT_TRUE(first.ok()) << first.status().ToString();
  ASSERT_TRUE(first->has_value() && (*first)->record_batch.has_value());
  EXPECT_EQ((*first)->record_batch->length, 3);
  ExpectDataError((*reader)->Next().status(), "the schema needs 1 and 2");

  ExpectDataError(StreamReader::Open(Bytes(good), "test.arrows").status(), "expected a schema message");
  ExpectDataError(StreamReader::Open(Bytes(EndOfStream()), "test.arrows").status(), "before its schema");
}

}  // namespace
}  // namespace recflow::arrow_ipc
