// Encoder: sizes every Feature of a row first, then writes the record once into the output string.
#include "recflow/formats/example/encoder.h"

#include <cstring>
#include <vector>

#include "recflow/columnar/bit_util.h"
#include "recflow/columnar/element_access.h"
#include "recflow/formats/example/column_layout_internal.h"
#include "recflow/formats/example/leaf_writer_internal.h"
#include "recflow/formats/example/message_internal.h"

namespace recflow::example {

namespace {

struct ColumnPlan {
  std::string name;
  ColumnShape shape;
  bool feature_list;  // kSequenceExample feature_lists (else Example features / context)
};

bool IsNullAt(const ArrayData& d, int64_t i) { return !IsValidAt(d, i); }

// The child range [begin, end) of list i (list, large_list or fixed_size_list).
void ListRange(const ArrayData& list, int64_t i, int64_t* begin, int64_t* end) {
  const ChildRange range = recflow::ListRange(list, i);
  *begin = range.start;
  *end = range.start + range.length;
}

}  // namespace

class EncoderImpl {
 public:
  EncoderImpl(SchemaPtr schema, RecordType type) : schema_(std::move(schema)), type_(type) {}

  Status Init() {
    if (type_ == RecordType::kByteArray) {
      if (schema_->num_fields() != 1 || !schema_->field(0)->type()->is_binary_like()) {
        return Status::TypeError("the bytes record type needs a schema of one binary or utf8 column");
      }
      return Status::OK();
    }
    for (const FieldPtr& field : schema_->fields()) {
      ASSIGN_OR_RETURN(ColumnLayout layout, LayoutOf(*field, type_));
      ColumnPlan plan{field->name(), layout.shape, layout.feature_list};
      if (plan.feature_list) {
        has_feature_lists_ = true;
      } else {
        has_context_ = true;
      }
      plans_.push_back(std::move(plan));
    }
    return Status::OK();
  }

  Status Encode(const RecordBatch& batch, int64_t row, std::string* out) {
    if (batch.schema().get() != schema_.get() && !batch.schema()->Equals(*schema_)) {
      return Status::InvalidArgument("Encoder: the batch schema differs from the encoder's");
    }
    if (row < 0 || row >= batch.num_rows()) return Status::InvalidArgument("Encoder: row out of range");
    if (type_ == RecordType::kByteArray) return EncodeRaw(batch, row, out);

    // Pass 1: the size of every Feature (payloads queued in payloads_), entry and map.
    payloads_.clear();
    feature_sizes_.assign(plans_.size(), -1);
    first_payload_.resize(plans_.size());
    int64_t context_size = 0;
    int64_t lists_size = 0;
    for (size_t c = 0; c < plans_.size(); ++c) {
      const ColumnPlan& plan = plans_[c];
      first_payload_[c] = payloads_.size();
      Status st = SizeColumn(plan, *batch.column_data(static_cast<int>(c)), row, &feature_sizes_[c]);
      if (!st.ok()) [[unlikely]] return st.WithField(plan.name);
      if (feature_sizes_[c] < 0) continue;
      const int64_t entry = wire::LengthDelimitedSize(static_cast<int64_t>(plan.name.size())) +
                            wire::LengthDelimitedSize(feature_sizes_[c]);
      (plan.feature_list ? lists_size : context_size) += wire::LengthDelimitedSize(entry);
    }
    int64_t total = 0;
    if (type_ == RecordType::kExample || has_context_) total += wire::LengthDelimitedSize(context_size);
    if (has_feature_lists_) total += wire::LengthDelimitedSize(lists_size);

    // Pass 2: write everything once.
    out->resize(static_cast<size_t>(total));
    uint8_t* p = reinterpret_cast<uint8_t*>(out->data());
    if (type_ == RecordType::kExample || has_context_) {
      p = wire::WriteLengthHeader(p, static_cast<uint8_t>(msg::kExampleFeatures), static_cast<uint64_t>(context_size));
      p = WriteMap(p, batch, row, false);
    }
    if (has_feature_lists_) {
      p = wire::WriteLengthHeader(p, static_cast<uint8_t>(msg::kSeqFeatureLists), static_cast<uint64_t>(lists_size));
      p = WriteMap(p, batch, row, true);
    }
    ++stats_.records;
    stats_.bytes += total;
    return Status::OK();
  }

  const EncodeStats& stats() const { return stats_; }
  const SchemaPtr& schema() const { return schema_; }

 private:
  Status EncodeRaw(const RecordBatch& batch, int64_t row, std::string* out) {
    const ArrayData& d = *batch.column_data(0);
    if (IsNullAt(d, row)) {
      return Status::DataError("a null value cannot be written as a raw record").WithField(schema_->field(0)->name());
    }
    const int32_t* offsets = d.GetValues<int32_t>(1);
    const char* data = d.buffers[2] ? reinterpret_cast<const char*>(d.buffers[2]->data()) : "";
    out->assign(data + offsets[row], static_cast<size_t>(offsets[row + 1] - offsets[row]));
    ++stats_.records;
    stats_.bytes += static_cast<int64_t>(out->size());
    return Status::OK();
  }

  // Size of the Feature message holding values [begin, end) of `leaf`; queues its payload.
  Status SizeFeature(const LeafWriter& w, int64_t begin, int64_t end, int64_t* size) {
    int64_t payload;
    RETURN_NOT_OK(w.PayloadSize(begin, end, &payload));
    payloads_.push_back(payload);
    *size = wire::LengthDelimitedSize(w.MessageSize(end - begin, payload));
    return Status::OK();
  }

  // Size of the column's Feature (or FeatureList) for `row`, or -1 when it is omitted (null).
  Status SizeColumn(const ColumnPlan& plan, const ArrayData& d, int64_t row, int64_t* size) {
    *size = -1;
    if (plan.shape == ColumnShape::kNull || IsNullAt(d, row)) return Status::OK();
    if (plan.shape == ColumnShape::kScalar) return SizeFeature(LeafWriter(d), row, row + 1, size);
    int64_t begin, end;
    ListRange(d, row, &begin, &end);
    const ArrayData& child = *d.children[0];
    if (plan.shape == ColumnShape::kList) return SizeFeature(LeafWriter(child), begin, end, size);
    // FeatureList: one Feature per step; a null step is a Feature with no kind.
    const LeafWriter w(*child.children[0]);
    int64_t total = 0;
    for (int64_t s = begin; s < end; ++s) {
      int64_t feature = 0;
      if (IsNullAt(child, s)) {
        payloads_.push_back(-1);
      } else {
        int64_t b, e;
        ListRange(child, s, &b, &e);
        RETURN_NOT_OK(SizeFeature(w, b, e, &feature));
      }
      total += wire::LengthDelimitedSize(feature);
    }
    *size = total;
    return Status::OK();
  }

  // Writes a Feature message body (its oneof member and list) with the next queued payload.
  uint8_t* WriteFeatureBody(uint8_t* p, const LeafWriter& w, int64_t begin, int64_t end) {
    const int64_t payload = payloads_[next_payload_++];
    const int64_t list_size = w.MessageSize(end - begin, payload);
    p = wire::WriteLengthHeader(p, static_cast<uint8_t>(msg::FeatureKindTag(w.kind())),
                                static_cast<uint64_t>(list_size));
    return w.Write(p, begin, end, payload, &stats_.narrowed_doubles);
  }

  // Writes the column's Feature / FeatureList body for `row` (sized by SizeColumn).
  uint8_t* WriteColumn(uint8_t* p, const ColumnPlan& plan, const ArrayData& d, int64_t row) {
    if (plan.shape == ColumnShape::kScalar) return WriteFeatureBody(p, LeafWriter(d), row, row + 1);
    int64_t begin, end;
    ListRange(d, row, &begin, &end);
    const ArrayData& child = *d.children[0];
    if (plan.shape == ColumnShape::kList) return WriteFeatureBody(p, LeafWriter(child), begin, end);
    const LeafWriter w(*child.children[0]);
    for (int64_t s = begin; s < end; ++s) {
      const int64_t payload = payloads_[next_payload_];
      if (payload < 0) {
        ++next_payload_;
        p = wire::WriteLengthHeader(p, static_cast<uint8_t>(msg::kFeatureListFeature), 0);
        continue;
      }
      int64_t b, e;
      ListRange(child, s, &b, &e);
      const int64_t feature = wire::LengthDelimitedSize(w.MessageSize(e - b, payload));
      p = wire::WriteLengthHeader(p, static_cast<uint8_t>(msg::kFeatureListFeature), static_cast<uint64_t>(feature));
      p = WriteFeatureBody(p, w, b, e);
    }
    return p;
  }

  // Writes the entries of the Features (context) or FeatureLists map, in schema order.
  uint8_t* WriteMap(uint8_t* p, const RecordBatch& batch, int64_t row, bool feature_lists) {
    for (size_t c = 0; c < plans_.size(); ++c) {
      const ColumnPlan& plan = plans_[c];
      const int64_t feature = feature_sizes_[c];
      if (plan.feature_list != feature_lists || feature < 0) continue;
      const int64_t name = static_cast<int64_t>(plan.name.size());
      const int64_t entry = wire::LengthDelimitedSize(name) + wire::LengthDelimitedSize(feature);
      p = wire::WriteLengthHeader(p, static_cast<uint8_t>(msg::kMapEntry), static_cast<uint64_t>(entry));
      p = wire::WriteLengthHeader(p, static_cast<uint8_t>(msg::kEntryKey), static_cast<uint64_t>(name));
      if (name > 0) std::memcpy(p, plan.name.data(), static_cast<size_t>(name));
      p += name;
      p = wire::WriteLengthHeader(p, static_cast<uint8_t>(msg::kEntryValue), static_cast<uint64_t>(feature));
      next_payload_ = first_payload_[c];
      p = WriteColumn(p, plan, *batch.column_data(static_cast<int>(c)), row);
    }
    return p;
  }

  SchemaPtr schema_;
  RecordType type_;
  std::vector<ColumnPlan> plans_;
  bool has_context_ = false;
  bool has_feature_lists_ = false;
  EncodeStats stats_;
  std::vector<int64_t> payloads_;       // pass 1 → pass 2, in write order
  std::vector<int64_t> feature_sizes_;  // per column, -1 when omitted
  std::vector<size_t> first_payload_;   // per column, its first entry in payloads_
  size_t next_payload_ = 0;
};

Result<std::unique_ptr<Encoder>> Encoder::Make(SchemaPtr schema, RecordType type) {
  if (!schema) return Status::InvalidArgument("Encoder::Make: null schema");
  auto impl = std::make_unique<EncoderImpl>(std::move(schema), type);
  RETURN_NOT_OK(impl->Init());
  return std::unique_ptr<Encoder>(new Encoder(std::move(impl)));
}

Encoder::Encoder(std::unique_ptr<EncoderImpl> impl) : impl_(std::move(impl)) {}
Encoder::~Encoder() = default;
Status Encoder::Encode(const RecordBatch& batch, int64_t row, std::string* out) {
  return impl_->Encode(batch, row, out);
}
const EncodeStats& Encoder::stats() const { return impl_->stats(); }
const SchemaPtr& Encoder::schema() const { return impl_->schema(); }

}  // namespace recflow::example
