// Laying out arrays as an IPC message body: field nodes, buffers at offset 0, padding, compression.
#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
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
  /// offset 0, their validity bits shifted and their offsets rebased; list views keep their
  /// offsets into the whole child, views their data buffers; run-end encoded arrays keep the
  /// runs they use, their ends rebased) and of its children. Dictionary values are not written
  /// (they go in DictionaryBatch messages).
  Status AppendArray(const ArrayData& data);

  const std::vector<fb::FieldNode>& nodes() const { return nodes_; }
  const std::vector<fb::Buffer>& buffers() const { return buffers_; }
  /// The data buffers of each binary / utf8 view array appended, in order.
  const std::vector<int64_t>& variadic_buffer_counts() const { return variadic_buffer_counts_; }
  /// The body as pieces, every buffer padded to 8 bytes: views of the arrays' own buffers where
  /// they are written as they are (valid while those arrays live), else of `owned()`.
  const std::vector<std::string_view>& pieces() const { return pieces_; }
  /// The bytes made here (shifted bits, rebased offsets, compressed buffers); moving the writer
  /// keeps their addresses (and those of the arrays it made).
  std::deque<std::string>& owned() { return owned_; }
  /// The arrays made here (a sliced run-end encoded array's compacted runs) that pieces point into.
  std::vector<std::shared_ptr<ArrayData>>& made() { return made_; }
  /// Total bytes of the pieces.
  int64_t body_length() const { return body_length_; }
  BodyCodec codec() const { return codec_; }

 private:
  Status AppendBuffer(const uint8_t* data, int64_t size);
  /// Appends bytes made here (moved into owned()).
  Status AppendOwned(std::string bytes);
  Status AppendBits(const uint8_t* bits, int64_t offset, int64_t length);
  template <typename Offset>
  Status AppendRebasedOffsets(const ArrayData& data, int64_t* first, int64_t* last);
  Status AppendViews(const ArrayData& data);

  BodyCodec codec_;
  int level_;
  std::vector<fb::FieldNode> nodes_;
  std::vector<fb::Buffer> buffers_;
  std::vector<int64_t> variadic_buffer_counts_;
  std::vector<std::string_view> pieces_;
  std::deque<std::string> owned_;
  std::vector<std::shared_ptr<ArrayData>> made_;  // arrays made here (compacted runs) that pieces point into
  int64_t body_length_ = 0;
};

}  // namespace recflow::arrow_ipc
