// CheckArrowStreamHead: the first Message of an Arrow IPC stream, checked as far as the head reaches.
#include "recflow/formats/sniff_arrow_internal.h"

#include <cstring>

#include "recflow/formats/arrow_ipc/fbs/message_generated.h"
#include "recflow/formats/arrow_ipc/framing.h"

namespace recflow::formats::internal {

namespace {

namespace fb = ::org::apache::arrow::flatbuf;

template <typename T>
bool LoadAt(std::span<const uint8_t> bytes, int64_t at, T* out) {
  if (at < 0 || at + static_cast<int64_t>(sizeof(T)) > static_cast<int64_t>(bytes.size())) return false;
  std::memcpy(out, bytes.data() + at, sizeof(T));  // little-endian hosts only, as the readers
  return true;
}

/// The byte offset in the table of the field in vtable slot `slot` (0 when absent), or -1 when
/// the vtable is not in `bytes`.
int64_t FieldOffset(std::span<const uint8_t> bytes, int64_t vtable, uint16_t vtable_size, int slot) {
  const int64_t entry = 4 + 2 * slot;
  if (entry + 2 > vtable_size) return 0;
  uint16_t offset = 0;
  if (!LoadAt(bytes, vtable + entry, &offset)) return -1;
  return offset;
}

/// True when `message` (the head of a flatbuffer of `declared` bytes) is a Schema Message.
bool LooksLikeSchemaMessage(std::span<const uint8_t> message, int64_t declared) {
  if (declared < 12 || declared > arrow_ipc::kMaxMetadataBytes) return false;
  if (static_cast<int64_t>(message.size()) > declared) message = message.first(static_cast<size_t>(declared));
  uint32_t root = 0;
  if (!LoadAt(message, 0, &root) || root % 4 != 0 || root < 4 || root >= declared) return false;
  int32_t to_vtable = 0;
  if (!LoadAt(message, root, &to_vtable)) return false;
  const int64_t vtable = static_cast<int64_t>(root) - to_vtable;
  uint16_t vtable_size = 0, table_size = 0;
  if (vtable < 4 || vtable % 2 != 0 || !LoadAt(message, vtable, &vtable_size) ||
      !LoadAt(message, vtable + 2, &table_size)) {
    return false;
  }
  if (vtable_size < 4 || vtable_size % 2 != 0 || vtable + vtable_size > declared || table_size < 4 ||
      root + table_size > declared) {
    return false;
  }
  // Message: version (slot 0, int16), header_type (slot 1, uint8), header (slot 2, offset).
  const int64_t version_at = FieldOffset(message, vtable, vtable_size, 0);
  const int64_t type_at = FieldOffset(message, vtable, vtable_size, 1);
  const int64_t header_at = FieldOffset(message, vtable, vtable_size, 2);
  if (version_at < 0 || type_at <= 0 || header_at <= 0) return false;
  int16_t version = 0;  // absent: the default, V1
  if (version_at > 0 && !LoadAt(message, root + version_at, &version)) return false;
  uint8_t type = 0;
  if (!LoadAt(message, root + type_at, &type)) return false;
  if (version < static_cast<int16_t>(fb::MetadataVersion::MIN) || version > static_cast<int16_t>(fb::MetadataVersion::MAX) ||
      type != static_cast<uint8_t>(fb::MessageHeader::Schema)) {
    return false;
  }
  if (static_cast<int64_t>(message.size()) < declared) return true;  // checked as far as the head goes
  flatbuffers::Verifier verifier(message.data(), message.size(), arrow_ipc::kMaxFlatbufferDepth,
                                 arrow_ipc::kMaxFlatbufferTables);
  return fb::VerifyMessageBuffer(verifier);
}

}  // namespace

ArrowStreamHead CheckArrowStreamHead(std::span<const uint8_t> head) {
  uint32_t first = 0;
  if (!LoadAt(head, 0, &first)) return ArrowStreamHead::kNone;
  if (first == arrow_ipc::kContinuationMarker) {
    int32_t length = 0;
    if (!LoadAt(head, 4, &length)) return ArrowStreamHead::kNone;
    return LooksLikeSchemaMessage(head.subspan(8), length) ? ArrowStreamHead::kCurrent : ArrowStreamHead::kNone;
  }
  const auto length = static_cast<int32_t>(first);
  return LooksLikeSchemaMessage(head.subspan(4), length) ? ArrowStreamHead::kLegacy : ArrowStreamHead::kNone;
}

}  // namespace recflow::formats::internal
