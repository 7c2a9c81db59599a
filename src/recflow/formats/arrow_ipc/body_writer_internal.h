// Laying out arrays as an IPC message body: field nodes, buffers at offset 0, padding, compression.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "recflow/columnar/array_data.h"
#include "recflow/core/result.h"
#include "recflow/formats/arrow_ipc/flatbuf_internal.h"

namespace recflow::arrow_ipc {

/// Per-buffer compression of a body, as the spec's BodyCompression defines it.
enum class BodyCodec : uint8_t { kNone, kLz4Frame, kZstd };

/// The body of one RecordBatch (or DictionaryBatch) message being written.
class BodyWriter {
 public:
  /// `level`: the codec's level (0 = its default).
  BodyWriter(BodyCodec codec, int level) : codec_(codec), level_(level) {}

  /// Appends the nodes and buffers of `data` (any offset: sliced arrays are written from
  /// offset 0, their validity bits shifted and their offsets rebased) and of its children.
  /// Dictionary values are not written (they go in DictionaryBatch messages).
  Status AppendArray(const ArrayData& data);

  const std::vector<fb::FieldNode>& nodes() const { return nodes_; }
  const std::vector<fb::Buffer>& buffers() const { return buffers_; }
  /// The body: every buffer padded to 8 bytes.
  const std::string& body() const { return body_; }
  BodyCodec codec() const { return codec_; }

 private:
  Status AppendBuffer(const uint8_t* data, int64_t size);
  Status AppendBits(const uint8_t* bits, int64_t offset, int64_t length);
  template <typename Offset>
  Status AppendRebasedOffsets(const ArrayData& data, int64_t* first, int64_t* last);

  BodyCodec codec_;
  int level_;
  std::vector<fb::FieldNode> nodes_;
  std::vector<fb::Buffer> buffers_;
  std::string body_;
  std::string scratch_;
};

}  // namespace recflow::arrow_ipc
