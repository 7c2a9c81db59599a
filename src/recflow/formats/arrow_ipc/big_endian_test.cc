// Big-endian bodies: every uncompressed golden stream, rewritten big-endian in test code, decodes to the same batches.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "recflow/columnar/equals.h"
#include "recflow/core/io.h"
#include "recflow/formats/arrow_ipc/batch_layout.h"
#include "recflow/formats/arrow_ipc/flatbuf_internal.h"
#include "recflow/formats/arrow_ipc/ipc_stream_reader.h"
#include "recflow/formats/arrow_ipc/message_reader.h"
#include "recflow/testing/testdata.h"

namespace recflow::arrow_ipc {
namespace {

namespace fs = std::filesystem;

/// The integers making up one value of each buffer, written out from the spec independently of
/// the reader: {} for bitmaps and bytes (nothing to swap).
using Parts = std::vector<int>;

void AppendShapes(const FieldDesc& field, MetadataVersion version, std::vector<Parts>& out) {
  const TypeDesc& t = field.type;
  if (field.dictionary) {
    const int width = field.dictionary->index_type.bit_width / 8;
    out.push_back({});
    out.push_back(width > 1 ? Parts{width} : Parts{});
    return;
  }
  switch (t.id) {
    case TypeId::kNull: return;
    case TypeId::kBool:
    case TypeId::kFixedSizeBinary: out.insert(out.end(), {{}, {}}); return;
    case TypeId::kInt: out.insert(out.end(), {{}, t.bit_width > 8 ? Parts{t.bit_width / 8} : Parts{}}); return;
    case TypeId::kFloatingPoint: {
      const int width = t.precision == FloatPrecision::kHalf ? 2 : t.precision == FloatPrecision::kSingle ? 4 : 8;
      out.insert(out.end(), {{}, {width}});
      return;
    }
    case TypeId::kDecimal: out.insert(out.end(), {{}, {t.bit_width / 8}}); return;  // one 16/32-byte integer
    case TypeId::kDate: out.insert(out.end(), {{}, {t.date_unit == DateUnit::kDay ? 4 : 8}}); return;
    case TypeId::kTime: out.insert(out.end(), {{}, {t.bit_width / 8}}); return;
    case TypeId::kTimestamp:
    case TypeId::kDuration: out.insert(out.end(), {{}, {8}}); return;
    case TypeId::kInterval:
      out.push_back({});
      out.push_back(t.interval_unit == IntervalUnit::kYearMonth ? Parts{4}
                    : t.interval_unit == IntervalUnit::kDayTime ? Parts{4, 4}
                                                                : Parts{4, 4, 8});
      return;
    case TypeId::kBinary:
    case TypeId::kUtf8: out.insert(out.end(), {{}, {4}, {}}); return;
    case TypeId::kLargeBinary:
    case TypeId::kLargeUtf8: out.insert(out.end(), {{}, {8}, {}}); return;
    case TypeId::kList:
    case TypeId::kMap: out.insert(out.end(), {{}, {4}}); break;
    case TypeId::kLargeList: out.insert(out.end(), {{}, {8}}); break;
    case TypeId::kFixedSizeList:
    case TypeId::kStruct: out.push_back({}); break;
    case TypeId::kUnion:
      if (version < MetadataVersion::kV5) out.push_back({});
      out.push_back({});
      if (t.union_mode == UnionMode::kDense) out.push_back({4});
      break;
  }
  for (const FieldDesc& child : field.children) AppendShapes(child, version, out);
}

/// Reverses the bytes of each integer of each value of a buffer, in place.
void SwapBuffer(char* data, int64_t length, const Parts& parts) {
  int size = 0;
  for (const int p : parts) size += p;
  if (size == 0) return;
  for (int64_t v = 0; v + size <= length; v += size) {
    char* at = data + v;
    for (const int p : parts) {
      std::reverse(at, at + p);
      at += p;
    }
  }
}

/// The schema message (at offset 0) with its Schema.endianness set to Big: the flatbuffer gets 8
/// more bytes holding the value, and the vtable slot of field 0 (endianness) points there.
std::string BigEndianSchemaMessage(const std::string& stream, const Message& schema_message) {
  const int64_t metadata_size = schema_message.framed_metadata_size - 8;
  std::string metadata = stream.substr(8, static_cast<size_t>(metadata_size));
  const auto* schema = fb::GetMessage(metadata.data())->header_as_Schema();
  EXPECT_NE(schema, nullptr);
  const auto table_at = reinterpret_cast<const char*>(schema) - metadata.data();
  int32_t to_vtable = 0;
  std::memcpy(&to_vtable, metadata.data() + table_at, 4);
  const int64_t vtable_at = table_at - to_vtable;
  uint16_t vtable_size = 0;
  std::memcpy(&vtable_size, metadata.data() + vtable_at, 2);
  EXPECT_GE(vtable_size, 6);  // has a slot for field 0
  const auto field_at = static_cast<uint16_t>(metadata_size - table_at);
  std::memcpy(metadata.data() + vtable_at + 4, &field_at, 2);
  const int16_t big = static_cast<int16_t>(fb::Endianness::Big);
  metadata.append(reinterpret_cast<const char*>(&big), 2);
  metadata.append(6, '\0');
  const auto length = static_cast<int32_t>(metadata.size());
  return std::string("\xFF\xFF\xFF\xFF", 4) + std::string(reinterpret_cast<const char*>(&length), 4) + metadata;
}

/// `stream` (little-endian, uncompressed) rewritten big-endian.
std::string ToBigEndian(const std::string& stream) {
  std::string swapped = stream;
  auto messages = MessageReader::FromBuffer(*Buffer::CopyOf({reinterpret_cast<const uint8_t*>(stream.data()), stream.size()}), "le");
  EXPECT_TRUE(messages.ok());
  auto first = (*messages)->Next();
  EXPECT_TRUE(first.ok() && first->has_value());
  const Message schema_message = **first;
  auto schema = ReadSchema(schema_message);
  EXPECT_TRUE(schema.ok());
  while (true) {
    auto next = (*messages)->Next();
    EXPECT_TRUE(next.ok()) << next.status().ToString();
    if (!next.ok() || !next->has_value()) break;
    auto batch = DescribeBatchMessage(*schema, std::move(**next));
    EXPECT_TRUE(batch.ok()) << batch.status().ToString();
    std::vector<Parts> shapes;
    const RecordBatchDesc* desc = nullptr;
    if (batch->dictionary) {
      auto values = DictionaryValueField(*schema, batch->dictionary->id, batch->message);
      AppendShapes(*values, batch->message.version, shapes);
      desc = &batch->dictionary->data;
    } else {
      for (const FieldDesc& field : schema->fields) AppendShapes(field, batch->message.version, shapes);
      desc = &*batch->record_batch;
    }
    EXPECT_EQ(shapes.size(), desc->buffers.size());
    for (size_t i = 0; i < shapes.size() && i < desc->buffers.size(); ++i) {
      SwapBuffer(swapped.data() + batch->message.body_offset + desc->buffers[i].offset, desc->buffers[i].length,
                 shapes[i]);
    }
  }
  return BigEndianSchemaMessage(stream, schema_message) +
         swapped.substr(static_cast<size_t>(schema_message.framed_metadata_size));
}

std::vector<std::shared_ptr<RecordBatch>> ReadAll(const std::string& bytes, bool expect_big) {
  auto reader = IpcStreamReader::Open(Buffer::FromString(bytes), "stream");
  EXPECT_TRUE(reader.ok()) << reader.status().ToString();
  if (!reader.ok()) return {};
  EXPECT_EQ((*reader)->decoding_schema().desc.endianness, expect_big ? Endianness::kBig : Endianness::kLittle);
  std::vector<std::shared_ptr<RecordBatch>> out;
  while (true) {
    auto batch = (*reader)->Next();
    EXPECT_TRUE(batch.ok()) << batch.status().ToString();
    if (!batch.ok() || *batch == nullptr) return out;
    out.push_back(*batch);
  }
}

TEST(ArrowIpcBigEndian, SwappedGoldenStreamsDecodeToTheSameBatches) {
  RECFLOW_REQUIRE_TESTDATA();
  const fs::path root = recflow::testing::TestdataDir() / "arrow-integration";
  int cases = 0;
  int64_t swapped_values = 0;
  for (const char* dir : {"1.0.0-littleendian", "4.0.0-shareddict"}) {
    for (const auto& entry : fs::directory_iterator(root / dir)) {
      if (entry.path().extension() != ".stream") continue;
      SCOPED_TRACE(entry.path().string());
      auto bytes = ReadWholeFile(entry.path().string());
      ASSERT_TRUE(bytes.ok());
      const std::string little((*bytes)->view());
      const std::string big = ToBigEndian(little);
      ASSERT_EQ(big.size(), little.size() + 8);
      const auto expected = ReadAll(little, false);
      const auto got = ReadAll(big, true);
      ASSERT_EQ(got.size(), expected.size());
      for (size_t b = 0; b < got.size(); ++b) {
        for (int c = 0; c < got[b]->num_columns(); ++c) {
          EXPECT_TRUE(ArrayEquals(*got[b]->column_data(c), *expected[b]->column_data(c)))
              << "batch " << b << " column " << c;
        }
        swapped_values += got[b]->num_rows() * got[b]->num_columns();
      }
      ++cases;
    }
  }
  EXPECT_EQ(cases, 23);
  EXPECT_GT(swapped_values, 1000);
}

}  // namespace
}  // namespace recflow::arrow_ipc
