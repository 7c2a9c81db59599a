// Test support: rewrites a little-endian, uncompressed IPC stream or file as big-endian, its buffers swapped from the spec's layouts.
#include "recflow/formats/arrow_ipc/big_endian_test_util_internal.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <span>
#include <vector>

#include "recflow/core/buffer.h"
#include "recflow/formats/arrow_ipc/batch_layout.h"
#include "recflow/formats/arrow_ipc/batch_message.h"
#include "recflow/formats/arrow_ipc/flatbuf_internal.h"
#include "recflow/formats/arrow_ipc/message_reader.h"
#include "recflow/formats/arrow_ipc/schema_desc.h"

namespace recflow::arrow_ipc::testing {
namespace {

/// The integers making up one value of each buffer, written out from the spec independently of
/// the reader: {} for bitmaps and bytes (nothing to swap), kViews for binary views.
using Parts = std::vector<int>;
/// Binary views: the int32 size, then for sizes above 12 the int32 buffer index and offset.
const Parts kViews = {-16};

/// The buffer shapes of `field` in the walk's order; `counts` are the batch's variadic buffer
/// counts, consumed by the view arrays.
void AppendShapes(const FieldDesc& field, MetadataVersion version, std::span<const int64_t>& counts,
                  std::vector<Parts>& out) {
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
    case TypeId::kDecimal: out.insert(out.end(), {{}, {t.bit_width / 8}}); return;  // one 4- to 32-byte integer
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
    case TypeId::kListView: out.insert(out.end(), {{}, {4}, {4}}); break;
    case TypeId::kLargeListView: out.insert(out.end(), {{}, {8}, {8}}); break;
    case TypeId::kRunEndEncoded: break;
    case TypeId::kBinaryView:
    case TypeId::kUtf8View: {
      out.insert(out.end(), {{}, kViews});
      EXPECT_FALSE(counts.empty());
      if (counts.empty()) return;
      out.insert(out.end(), static_cast<size_t>(counts.front()), Parts{});
      counts = counts.subspan(1);
      return;
    }
    case TypeId::kFixedSizeList:
    case TypeId::kStruct: out.push_back({}); break;
    case TypeId::kUnion:
      if (version < MetadataVersion::kV5) out.push_back({});
      out.push_back({});
      if (t.union_mode == UnionMode::kDense) out.push_back({4});
      break;
  }
  for (const FieldDesc& child : field.children) AppendShapes(child, version, counts, out);
}

/// Reverses the bytes of each integer of each value of a buffer, in place.
void SwapBuffer(char* data, int64_t length, const Parts& parts) {
  if (parts == kViews) {
    for (int64_t v = 0; v + 16 <= length; v += 16) {
      int32_t size = 0;
      std::memcpy(&size, data + v, 4);  // still little-endian: read before it is swapped
      std::reverse(data + v, data + v + 4);
      if (size > 12) {
        std::reverse(data + v + 8, data + v + 12);
        std::reverse(data + v + 12, data + v + 16);
      }
    }
    return;
  }
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

/// Sets Schema.endianness to Big in `flatbuffer` (a Message or a Footer) whose Schema table is
/// `schema`. Writers share one vtable among tables of the same shape (the Schema's may serve a
/// DictionaryEncoding too), so the Schema table gets a copy of its vtable, appended to the
/// flatbuffer with the value behind it, whose slot of field 0 (endianness) points at the value.
void SetBigEndian(std::string& flatbuffer, const fb::Schema* schema) {
  EXPECT_NE(schema, nullptr);
  if (schema == nullptr) return;
  const auto size = static_cast<int64_t>(flatbuffer.size());
  const auto table_at = reinterpret_cast<const char*>(schema) - flatbuffer.data();
  int32_t to_vtable = 0;
  std::memcpy(&to_vtable, flatbuffer.data() + table_at, 4);
  uint16_t vtable_size = 0;
  std::memcpy(&vtable_size, flatbuffer.data() + table_at - to_vtable, 2);
  std::string vtable = flatbuffer.substr(static_cast<size_t>(table_at - to_vtable), vtable_size);
  if (vtable.size() < 6) vtable.resize(6, '\0');  // room for the slot of field 0
  const auto new_size = static_cast<uint16_t>(vtable.size());
  std::memcpy(vtable.data(), &new_size, 2);
  const auto field_at = static_cast<uint16_t>(size + static_cast<int64_t>(vtable.size()) - table_at);
  std::memcpy(vtable.data() + 4, &field_at, 2);
  const auto to_copy = static_cast<int32_t>(table_at - size);  // negative: the copy follows the table
  std::memcpy(flatbuffer.data() + table_at, &to_copy, 4);
  const int16_t big = static_cast<int16_t>(fb::Endianness::Big);
  flatbuffer += vtable;
  flatbuffer.append(reinterpret_cast<const char*>(&big), 2);
  while (flatbuffer.size() % 8 != 0) flatbuffer.push_back('\0');
}

/// The schema message (at offset 0) with its Schema.endianness set to Big.
std::string BigEndianSchemaMessage(const std::string& stream, const Message& schema_message) {
  const int64_t metadata_size = schema_message.framed_metadata_size - 8;  // a multiple of 8
  std::string metadata = stream.substr(8, static_cast<size_t>(metadata_size));
  SetBigEndian(metadata, fb::GetMessage(metadata.data())->header_as_Schema());
  const auto length = static_cast<int32_t>(metadata.size());
  return std::string("\xFF\xFF\xFF\xFF", 4) + std::string(reinterpret_cast<const char*>(&length), 4) + metadata;
}

/// Adds `delta` to the offset of each of `blocks`, which lie in `bytes`.
void ShiftBlocks(std::string& bytes, const flatbuffers::Vector<const fb::Block*>* blocks, int64_t delta) {
  if (blocks == nullptr) return;
  for (const fb::Block* block : *blocks) {
    const auto at = static_cast<size_t>(reinterpret_cast<const char*>(block) - bytes.data());
    const int64_t offset = block->offset() + delta;
    std::memcpy(bytes.data() + at, &offset, sizeof(offset));  // Block.offset is its first member
  }
}

}  // namespace

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
    const RecordBatchDesc* desc = batch->dictionary ? &batch->dictionary->data : &*batch->record_batch;
    std::span<const int64_t> counts = desc->variadic_buffer_counts;
    if (batch->dictionary) {
      auto values = DictionaryValueField(*schema, batch->dictionary->id, batch->message);
      AppendShapes(*values, batch->message.version, counts, shapes);
    } else {
      for (const FieldDesc& field : schema->fields) AppendShapes(field, batch->message.version, counts, shapes);
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

std::string ToBigEndianFile(const std::string& file) {
  constexpr size_t kHeader = 8;   // "ARROW1" and padding
  constexpr size_t kTrailer = 10;  // int32 footer length and "ARROW1"
  EXPECT_GT(file.size(), kHeader + kTrailer);
  int32_t footer_length = 0;
  std::memcpy(&footer_length, file.data() + file.size() - kTrailer, 4);
  const size_t footer_at = file.size() - kTrailer - static_cast<size_t>(footer_length);
  // The messages between the header and the footer are a stream (the end-of-stream marker included).
  const std::string stream = file.substr(kHeader, footer_at - kHeader);
  const std::string big_stream = ToBigEndian(stream);
  std::string footer = file.substr(footer_at, static_cast<size_t>(footer_length));
  const fb::Footer* parsed = fb::GetFooter(footer.data());
  // Every block follows the schema message, which grew.
  const auto grown = static_cast<int64_t>(big_stream.size()) - static_cast<int64_t>(stream.size());
  ShiftBlocks(footer, parsed->dictionaries(), grown);
  ShiftBlocks(footer, parsed->recordBatches(), grown);
  SetBigEndian(footer, parsed->schema());
  const auto length = static_cast<int32_t>(footer.size());
  return file.substr(0, kHeader) + big_stream + footer + std::string(reinterpret_cast<const char*>(&length), 4) +
         "ARROW1";
}

}  // namespace recflow::arrow_ipc::testing
