// Row functions: rows processed in parallel chunks, each chunk building its own new columns, then joined in order.
#include "recflow/pipeline/row_do_fn.h"

#include <algorithm>

#include <oneapi/tbb/parallel_for.h>

#include "recflow/columnar/concatenate.h"
#include "recflow/columnar/element_access.h"
#include "recflow/columnar/take.h"

namespace recflow::pipeline {

Result<RowValue> RowView::Get(int column) const {
  if (column < 0 || column >= batch_.num_columns()) {
    return Status::InvalidArgument("column index " + std::to_string(column) + " out of range");
  }
  auto value = ReadRowValue(*batch_.column_data(column), row_);
  if (!value.ok()) return value.status().WithField(batch_.schema()->field(column)->name());
  return value;
}

Result<RowValue> RowView::Get(std::string_view column) const {
  const int index = batch_.schema()->GetFieldIndex(column);
  if (index < 0) return Status::NotFound("no column '" + std::string(column) + "'");
  return Get(index);
}

bool RowView::IsNull(int column) const { return !IsValidAt(*batch_.column_data(column), row_); }

Result<std::string_view> RowView::Bytes(int column) const {
  if (column < 0 || column >= batch_.num_columns()) {
    return Status::InvalidArgument("column index " + std::to_string(column) + " out of range");
  }
  const FieldPtr& field = batch_.schema()->field(column);
  if (!HoldsBytes(*field->type())) {
    return Status::TypeError("column '" + field->name() + "' is " + field->type()->ToString() + ", not bytes");
  }
  if (IsNull(column)) return Status::DataError("column '" + field->name() + "' is null");
  return BinaryValue(*batch_.column_data(column), row_);
}

Result<std::vector<std::string_view>> RowView::BytesList(int column) const {
  if (column < 0 || column >= batch_.num_columns()) {
    return Status::InvalidArgument("column index " + std::to_string(column) + " out of range");
  }
  const FieldPtr& field = batch_.schema()->field(column);
  const ArrayData& data = *batch_.column_data(column);
  if (data.type->id() != TypeId::kList || data.children.empty() || !HoldsBytes(*data.children[0]->type)) {
    return Status::TypeError("column '" + field->name() + "' is " + field->type()->ToString() +
                             ", not a list of bytes");
  }
  if (IsNull(column)) return Status::DataError("column '" + field->name() + "' is null");
  const ChildRange range = ListRange(data, row_);
  const ArrayData& child = *data.children[0];
  std::vector<std::string_view> out;
  out.reserve(static_cast<size_t>(range.length));
  for (int64_t k = 0; k < range.length; ++k) {
    if (!IsValidAt(child, range.start + k)) {
      return Status::DataError("column '" + field->name() + "': element " + std::to_string(k) + " is null");
    }
    out.push_back(BinaryValue(child, range.start + k));
  }
  return out;
}

namespace {

// A batch is cut into at most kMaxChunks chunks of at least kMinChunkRows rows: enough pieces
// for every idle worker to help with costly rows (loading an image), few enough that cheap
// rows do not drown in per-chunk builders.
constexpr int64_t kMinChunkRows = 8;
constexpr int64_t kMaxChunks = 64;

// The new columns, parents and failures of one chunk of input rows.
struct ChunkOutput {
  std::vector<std::unique_ptr<ArrayBuilder>> builders;
  std::vector<int64_t> parents;
  std::vector<ops::RowError> errors;
  Status status;
};

class RowDoFn final : public DoFn {
 public:
  RowDoFn(std::vector<FieldPtr> new_fields, RowFunction fn) : new_fields_(std::move(new_fields)), fn_(std::move(fn)) {}

  Result<SchemaPtr> OutputSchema(const SchemaPtr& input) const override {
    std::vector<FieldPtr> fields = input->fields();
    for (const FieldPtr& field : new_fields_) {
      Status st = CheckRowValueType(*field->type());
      if (!st.ok()) return st.WithField(field->name());
      const int existing = input->GetFieldIndex(field->name());
      if (existing >= 0) {
        fields[static_cast<size_t>(existing)] = field;
      } else {
        fields.push_back(field);
      }
    }
    return Schema::Make(std::move(fields), input->metadata());
  }

  Result<DoFnOutput> Process(const RecordBatch& input, ProcessContext& ctx) const override {
    const SchemaPtr& schema = ctx.output_schema();
    const int64_t rows = input.num_rows();
    const int64_t chunk_rows = std::max(kMinChunkRows, (rows + kMaxChunks - 1) / kMaxChunks);
    const int64_t chunks = (rows + chunk_rows - 1) / chunk_rows;
    std::vector<ChunkOutput> outputs(static_cast<size_t>(chunks));
    tbb::parallel_for(int64_t{0}, chunks, [&](int64_t c) {
      outputs[static_cast<size_t>(c)] = RunChunk(input, ctx, c * chunk_rows, std::min(rows, (c + 1) * chunk_rows));
    });
    DoFnOutput out;
    std::vector<std::vector<std::shared_ptr<ArrayData>>> pieces(new_fields_.size());
    for (ChunkOutput& chunk : outputs) {
      RETURN_NOT_OK(chunk.status);
      for (ops::RowError& error : chunk.errors) ctx.row_errors().Add(error.row, std::move(error.status));
      out.parents.insert(out.parents.end(), chunk.parents.begin(), chunk.parents.end());
      for (size_t f = 0; f < new_fields_.size(); ++f) {
        ASSIGN_OR_RETURN(auto piece, chunk.builders[f]->Finish());
        pieces[f].push_back(std::move(piece));
      }
    }
    bool identity = static_cast<int64_t>(out.parents.size()) == rows;
    for (int64_t i = 0; identity && i < rows; ++i) identity = out.parents[static_cast<size_t>(i)] == i;
    std::shared_ptr<RecordBatch> carried;
    if (identity) {
      out.parents.clear();
      carried = std::make_shared<RecordBatch>(input);
    } else {
      ASSIGN_OR_RETURN(carried, TakeRows(input, out.parents));
    }
    std::vector<std::shared_ptr<ArrayData>> columns = carried->columns();
    for (size_t f = 0; f < new_fields_.size(); ++f) {
      std::shared_ptr<ArrayData> column;
      if (pieces[f].empty()) {
        ASSIGN_OR_RETURN(column, MakeEmptyArray(new_fields_[f]->type()));
      } else if (pieces[f].size() == 1) {
        column = pieces[f][0];
      } else {
        ASSIGN_OR_RETURN(column, Concatenate(pieces[f]));
      }
      const int index = schema->GetFieldIndex(new_fields_[f]->name());
      if (index < static_cast<int>(columns.size())) {
        columns[static_cast<size_t>(index)] = std::move(column);
      } else {
        columns.push_back(std::move(column));
      }
    }
    ASSIGN_OR_RETURN(out.batch, RecordBatch::Make(schema, static_cast<int64_t>(carried->num_rows()), std::move(columns)));
    return out;
  }

 private:
  // Runs fn_ on rows [begin, end); a row whose function fails or whose values do not convert is
  // a row error, and a failure to append names its row as the error's record.
  ChunkOutput RunChunk(const RecordBatch& input, const ProcessContext& ctx, int64_t begin, int64_t end) const {
    ChunkOutput out;
    for (const FieldPtr& field : new_fields_) {
      auto builder = MakeBuilder(field->type());
      if (!builder.ok()) {
        out.status = builder.status();
        return out;
      }
      out.builders.push_back(std::move(builder).ValueUnsafe());
    }
    RowEmitter emitter;
    std::vector<ConvertedValue> converted;
    for (int64_t row = begin; row < end; ++row) {
      emitter.Clear();
      Status st = fn_(RowView(input, row, ctx.RowKey(row), &ctx.run_files()), emitter);
      if (st.ok()) st = Convert(emitter.rows(), &converted);
      if (!st.ok()) {
        out.errors.push_back(ops::RowError{row, std::move(st)});
        continue;
      }
      for (size_t k = 0; k < converted.size(); ++k) {
        out.status = AppendConverted(out.builders[k % new_fields_.size()].get(), converted[k]);
        if (!out.status.ok()) {
          out.status = out.status.WithRecord(row);
          return out;
        }
      }
      out.parents.insert(out.parents.end(), emitter.rows().size(), row);
    }
    return out;
  }

  // `rows` (one value per new column each) converted for the new columns, one row after the
  // other, into `converted`; an error names the column.
  Status Convert(const std::vector<std::vector<RowValue>>& rows, std::vector<ConvertedValue>* converted) const {
    converted->clear();
    for (const std::vector<RowValue>& values : rows) {
      if (values.size() != new_fields_.size()) {
        return Status::InvalidArgument("a row function emitted " + std::to_string(values.size()) + " values for " +
                                       std::to_string(new_fields_.size()) + " new columns");
      }
      for (size_t f = 0; f < new_fields_.size(); ++f) {
        auto value = ConvertRowValue(*new_fields_[f]->type(), values[f]);
        if (!value.ok()) return value.status().WithField(new_fields_[f]->name());
        converted->push_back(*value);
      }
    }
    return Status::OK();
  }

  std::vector<FieldPtr> new_fields_;
  RowFunction fn_;
};

}  // namespace

std::shared_ptr<const DoFn> MakeRowDoFn(std::vector<FieldPtr> new_fields, RowFunction fn) {
  return std::make_shared<RowDoFn>(std::move(new_fields), std::move(fn));
}

}  // namespace recflow::pipeline
