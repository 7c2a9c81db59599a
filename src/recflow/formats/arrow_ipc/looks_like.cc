// LooksLikeStream / LooksLikeFile: the framing, then the Schema message's flatbuffer header read with bounds checks.
#include "recflow/formats/arrow_ipc/looks_like.h"

#include <cstring>
#include <utility>
#include <vector>

#include "recflow/formats/arrow_ipc/flatbuf_internal.h"

namespace recflow::arrow_ipc {
namespace {

/// What the bytes of a message's metadata say.
enum class Verdict : uint8_t { kMessage, kNotAMessage, kTooShort };

/// Which first messages an input may start with.
enum class First : uint8_t {
  kSchema,  ///< a stream: the schema, whose body is empty
  kAny,     ///< a file: Arrow JS writes its first dictionary or record batch there, the schema only in the footer
};

template <typename T>
T Load(std::string_view bytes, int64_t at) {
  T value;
  std::memcpy(&value, bytes.data() + at, sizeof(T));
  return value;
}

/// Reads the Message table of a metadata flatbuffer of `length` bytes, of which `bytes` (a
/// prefix) are at hand, checking every position against both before reading it.
Verdict CheckMessageTable(std::string_view bytes, int64_t length, First first) {
  const auto have = static_cast<int64_t>(bytes.size());
  const auto within = [&](int64_t at, int64_t size) { return at >= 0 && size <= length - at; };
  if (have < 4) return Verdict::kTooShort;
  const int64_t table = Load<uint32_t>(bytes, 0);
  if (table < 4 || table % 4 != 0 || !within(table, 4)) return Verdict::kNotAMessage;
  if (table + 4 > have) return Verdict::kTooShort;
  const int64_t vtable = table - Load<int32_t>(bytes, table);
  if (vtable % 2 != 0 || !within(vtable, 4)) return Verdict::kNotAMessage;
  if (vtable + 4 > have) return Verdict::kTooShort;
  const int64_t vtable_size = Load<uint16_t>(bytes, vtable);
  const int64_t table_size = Load<uint16_t>(bytes, vtable + 2);
  if (vtable_size < 4 || vtable_size % 2 != 0 || !within(vtable, vtable_size) || table_size < 4 ||
      !within(table, table_size)) {
    return Verdict::kNotAMessage;
  }
  // Message: 0 version (short), 1 header_type (ubyte), 2 header (offset), 3 bodyLength (long).
  constexpr int kFields = 4;
  if (vtable + 4 + 2 * kFields > have || table + table_size > have) return Verdict::kTooShort;
  int64_t field_at[kFields] = {};
  for (int f = 0; f < kFields; ++f) {
    const int64_t slot = 4 + 2 * f;
    field_at[f] = slot < vtable_size ? Load<uint16_t>(bytes, vtable + slot) : 0;
  }
  const auto fits = [&](int f, int64_t size) { return field_at[f] >= 4 && field_at[f] + size <= table_size; };
  if (field_at[0] != 0) {
    if (!fits(0, 2)) return Verdict::kNotAMessage;
    const auto version = Load<int16_t>(bytes, table + field_at[0]);
    if (version < 0 || version > static_cast<int16_t>(fb::MetadataVersion::V5)) return Verdict::kNotAMessage;
  }
  if (!fits(1, 1)) return Verdict::kNotAMessage;
  const auto header_type = Load<uint8_t>(bytes, table + field_at[1]);
  const auto last_type = first == First::kSchema ? fb::MessageHeader::Schema : fb::MessageHeader::RecordBatch;
  if (header_type < static_cast<uint8_t>(fb::MessageHeader::Schema) || header_type > static_cast<uint8_t>(last_type)) {
    return Verdict::kNotAMessage;
  }
  if (!fits(2, 4)) return Verdict::kNotAMessage;
  const int64_t header = table + field_at[2] + Load<uint32_t>(bytes, table + field_at[2]);
  if (!within(header, 4)) return Verdict::kNotAMessage;
  if (field_at[3] != 0) {  // a schema's body is empty
    if (!fits(3, 8)) return Verdict::kNotAMessage;
    const auto body_length = Load<int64_t>(bytes, table + field_at[3]);
    if (body_length < 0 || (body_length != 0 && header_type == static_cast<uint8_t>(fb::MessageHeader::Schema))) {
      return Verdict::kNotAMessage;
    }
  }
  if (have < length) return Verdict::kMessage;  // as far as the head shows
  auto verifier = MakeVerifier(reinterpret_cast<const uint8_t*>(bytes.data()), length);
  return fb::VerifyMessageBuffer(verifier) ? Verdict::kMessage : Verdict::kNotAMessage;
}

/// The framing of the stream `head` starts, with what its first message's header says.
std::pair<StreamFraming, Verdict> CheckStream(std::string_view head, First first) {
  if (head.size() < 4) return {StreamFraming::kNotAStream, Verdict::kTooShort};
  StreamFraming framing = StreamFraming::kLegacy;
  int64_t prefix = 4;
  if (Load<uint32_t>(head, 0) == kContinuationMarker) {
    framing = StreamFraming::kContinuation;
    prefix = 8;
    if (head.size() < 8) return {framing, Verdict::kTooShort};
  }
  const int32_t length = Load<int32_t>(head, prefix - 4);
  if (length <= 0 || length > kMaxMetadataBytes) return {framing, Verdict::kNotAMessage};
  std::string_view metadata = head.substr(static_cast<size_t>(prefix));
  if (static_cast<int64_t>(metadata.size()) > length) metadata = metadata.substr(0, static_cast<size_t>(length));
  if (!metadata.empty() && reinterpret_cast<uintptr_t>(metadata.data()) % 8 != 0) {
    // flatbuffers reads its scalars in place: give it the metadata 8-byte aligned, as written.
    std::vector<uint64_t> aligned((metadata.size() + 7) / 8);
    std::memcpy(aligned.data(), metadata.data(), metadata.size());
    return {framing,
            CheckMessageTable({reinterpret_cast<const char*>(aligned.data()), metadata.size()}, length, first)};
  }
  return {framing, CheckMessageTable(metadata, length, first)};
}

}  // namespace

StreamFraming LooksLikeStream(std::string_view head) {
  const auto [framing, verdict] = CheckStream(head, First::kSchema);
  return verdict == Verdict::kMessage ? framing : StreamFraming::kNotAStream;
}

bool LooksLikeFile(std::string_view head) {
  if (head.size() < static_cast<size_t>(kFileHeaderSize) || head.substr(0, kFileMagic.size()) != kFileMagic ||
      head[6] != '\0' || head[7] != '\0') {
    return false;
  }
  return CheckStream(head.substr(static_cast<size_t>(kFileHeaderSize)), First::kAny).second != Verdict::kNotAMessage;
}

}  // namespace recflow::arrow_ipc
