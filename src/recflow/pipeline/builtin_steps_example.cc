// Built-in step to_example: the columns of an image-classification tf.Example with the conventional feature names
// (image/encoded, image/format, image/height, image/width, image/channels, image/class/label, image/filename) plus
// any extra columns, from an image column or a float32 HWC tensor (raster chips: image/format raw, image/dtype,
// image/shape); `write` with format tfrecord then serializes them.
#include <array>
#include <memory>

#include "recflow/columnar/element_access.h"
#include "recflow/formats/image/image_codec.h"
#include "recflow/ops/columns/planned_schema.h"
#include "recflow/ops/image/image_column.h"
#include "recflow/ops/image/image_kernels.h"
#include "recflow/pipeline/builtin_steps_internal.h"

namespace recflow::pipeline {

namespace {

struct ExampleSpec {
  std::string tensor;      // optional: float32 HWC bytes (chips' pixels), stored raw as image/encoded; else `image`
  std::vector<std::string> shape;  // with `tensor`: its height, width and channels columns
  std::string image;       // decoded image column (dimensions; encoded when `encoded` is empty)
  std::string encoded;     // optional: bytes column stored as image/encoded as they are
  image::ImageFormat format = image::ImageFormat::kPng;
  int quality = 6;
  std::string label;       // optional: integer → image/class/label, text → image/class/text, float → image/label
  std::string filename;    // optional
  std::vector<std::string> extra;
};

// An ExampleSpec resolved against the step's input schema: column indices and the output schema.
struct ExamplePlan {
  SchemaPtr input;
  SchemaPtr output;
  int tensor = -1;    // -1: an image column
  std::array<int, 3> shape{-1, -1, -1};
  int image = -1;
  int encoded = -1;   // -1: encode `image`
  int label = -1;     // -1: no label
  int filename = -1;  // -1: no filename
  std::vector<int> extra;
};

// The index of column `name` of `schema`; NotFound listing the columns otherwise.
Result<int> Column(const Schema& schema, const std::string& name) {
  const int index = schema.GetFieldIndex(name);
  if (index < 0) return Status::NotFound("no column '" + name + "' in " + schema.ToString());
  return index;
}

// The tensor column and its shape columns of `spec` in `input`, and the tensor's features (image/dtype, image/shape)
// appended to `fields`.
Status PlanTensor(const ExampleSpec& spec, const Schema& input, ExamplePlan* plan, std::vector<FieldPtr>* fields) {
  ASSIGN_OR_RETURN(plan->tensor, Column(input, spec.tensor));
  if (!input.field(plan->tensor)->type()->is_binary_like()) return Status::TypeError("'" + spec.tensor + "' is not bytes");
  if (spec.shape.size() != 3) return Status::InvalidArgument("shape names 3 columns: height, width, channels");
  for (size_t i = 0; i < 3; ++i) {
    ASSIGN_OR_RETURN(plan->shape[i], Column(input, spec.shape[i]));
    if (!input.field(plan->shape[i])->type()->is_integer()) {
      return Status::TypeError("shape column '" + spec.shape[i] + "' is not an integer column");
    }
  }
  (*fields)[0] = input.field(plan->tensor)->WithName("image/encoded");
  fields->insert(fields->begin() + 2, Field::Make("image/dtype", utf8()));
  fields->insert(fields->begin() + 3, Field::Make("image/shape", list(int64())));
  return Status::OK();
}

Result<ExamplePlan> PlanExample(const ExampleSpec& spec, SchemaPtr input) {
  ExamplePlan plan;
  std::vector<FieldPtr> fields = {Field::Make("image/encoded", binary()), Field::Make("image/format", utf8()),
                                  Field::Make("image/height", int64()), Field::Make("image/width", int64()),
                                  Field::Make("image/channels", int64())};
  if (!spec.tensor.empty()) {
    RETURN_NOT_OK(PlanTensor(spec, *input, &plan, &fields));
  } else {
    ASSIGN_OR_RETURN(plan.image, Column(*input, spec.image));
    RETURN_NOT_OK(ops::ImagePixelType(*input->field(plan.image)->type()).status());
  }
  if (!spec.encoded.empty()) {
    ASSIGN_OR_RETURN(plan.encoded, Column(*input, spec.encoded));
    if (!input->field(plan.encoded)->type()->is_binary_like()) return Status::TypeError("'" + spec.encoded + "' is not bytes");
  }
  if (!spec.label.empty()) {
    ASSIGN_OR_RETURN(plan.label, Column(*input, spec.label));
    const DataType& type = *input->field(plan.label)->type();
    if (type.is_integer()) {
      fields.push_back(Field::Make("image/class/label", int64()));
    } else if (type.id() == TypeId::kUtf8) {
      fields.push_back(Field::Make("image/class/text", utf8()));
    } else if (type.id() == TypeId::kFloat32 || type.id() == TypeId::kFloat64) {
      fields.push_back(input->field(plan.label)->WithName("image/label"));
    } else {
      return Status::TypeError("label '" + spec.label + "' must be an integer, float or text column, not " +
                               type.ToString());
    }
  }
  if (!spec.filename.empty()) {
    ASSIGN_OR_RETURN(plan.filename, Column(*input, spec.filename));
    fields.push_back(input->field(plan.filename)->WithName("image/filename"));
  }
  for (const std::string& name : spec.extra) {
    ASSIGN_OR_RETURN(int extra, Column(*input, name));
    plan.extra.push_back(extra);
    fields.push_back(input->field(extra));
  }
  plan.input = std::move(input);
  plan.output = Schema::Make(std::move(fields));
  return plan;
}

class ToExampleDoFn final : public DoFn {
 public:
  ToExampleDoFn(ExampleSpec spec, ExamplePlan plan) : spec_(std::move(spec)), plan_(std::move(plan)) {}

  Result<SchemaPtr> OutputSchema(const SchemaPtr& input) const override {
    RETURN_NOT_OK(ops::CheckPlannedSchema(*plan_.input, *input, "to_example"));
    return plan_.output;
  }

  // The runner hands it batches of the planned input schema (it checks every step's output).
  Result<DoFnOutput> Process(const RecordBatch& input, ProcessContext& ctx) const override {
    const int64_t n = input.num_rows();
    std::vector<std::shared_ptr<ArrayData>> columns;
    if (plan_.tensor >= 0) {
      ASSIGN_OR_RETURN(columns, TensorColumns(input, ctx));
    } else {
      ASSIGN_OR_RETURN(columns, ImageColumns(input, ctx));
    }
    if (plan_.label >= 0) {
      const auto& label = input.column_data(plan_.label);
      if (label->type->is_integer()) {
        Int64Builder labels;
        for (int64_t i = 0; i < n; ++i) {
          RETURN_NOT_OK(!IsValidAt(*label, i) ? labels.AppendNull() : labels.Append(IntegerValue(*label, i)));
        }
        ASSIGN_OR_RETURN(auto column, labels.Finish());
        columns.push_back(std::move(column));
      } else {
        columns.push_back(label);
      }
    }
    if (plan_.filename >= 0) columns.push_back(input.column_data(plan_.filename));
    for (const int extra : plan_.extra) columns.push_back(input.column_data(extra));
    ASSIGN_OR_RETURN(auto batch, RecordBatch::Make(plan_.output, n, std::move(columns)));
    return DoFnOutput{std::move(batch), {}};
  }

 private:
  // image/encoded (the image encoded, or the `encoded` column), image/format, image/height, image/width and
  // image/channels of an image column.
  Result<std::vector<std::shared_ptr<ArrayData>>> ImageColumns(const RecordBatch& input, ProcessContext& ctx) const {
    const int64_t n = input.num_rows();
    const auto& images = input.column_data(plan_.image);
    std::shared_ptr<ArrayData> encoded;
    if (plan_.encoded < 0) {
      ASSIGN_OR_RETURN(encoded, ops::EncodeImages(images, spec_.format, spec_.quality, ctx.row_errors()));
    } else {
      encoded = input.column_data(plan_.encoded);
    }
    ASSIGN_OR_RETURN(ops::ImageColumnReader reader, ops::ImageColumnReader::Make(images));
    BinaryBuilder format(utf8());
    Int64Builder height, width, channels;
    for (int64_t i = 0; i < n; ++i) {
      if (reader.IsNull(i) || !IsValidAt(*encoded, i)) {
        ctx.row_errors().Add(i, Status::DataError("no image in column '" + spec_.image + "'"));
        RETURN_NOT_OK(format.AppendNull());
        RETURN_NOT_OK(height.AppendNull());
        RETURN_NOT_OK(width.AppendNull());
        RETURN_NOT_OK(channels.AppendNull());
        continue;
      }
      auto img = reader.Get(i);
      if (!img.ok()) return img.status().WithRecord(i);
      const std::string_view bytes = BinaryValue(*encoded, i);
      const image::ImageFormat sniffed =
          image::Sniff(std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()));
      RETURN_NOT_OK(format.Append(image::ImageFormatName(sniffed)));
      RETURN_NOT_OK(height.Append(img->height()));
      RETURN_NOT_OK(width.Append(img->width()));
      RETURN_NOT_OK(channels.Append(img->channels()));
    }
    std::vector<std::shared_ptr<ArrayData>> columns = {encoded};
    for (ArrayBuilder* b : std::initializer_list<ArrayBuilder*>{&format, &height, &width, &channels}) {
      ASSIGN_OR_RETURN(auto column, b->Finish());
      columns.push_back(std::move(column));
    }
    return columns;
  }

  // image/encoded (the tensor's bytes as they are), image/format (raw), image/dtype (float32), image/shape
  // ([height, width, channels]), image/height, image/width and image/channels of a float32 HWC tensor column; a row
  // whose bytes are not height × width × channels float32 values is a row error.
  Result<std::vector<std::shared_ptr<ArrayData>>> TensorColumns(const RecordBatch& input, ProcessContext& ctx) const {
    const int64_t n = input.num_rows();
    const auto& tensor = input.column_data(plan_.tensor);
    BinaryBuilder format(utf8()), dtype(utf8());
    auto shape_values = std::make_unique<Int64Builder>();
    Int64Builder* dims_builder = shape_values.get();
    ListBuilder shape(list(int64()), std::move(shape_values));
    std::array<Int64Builder, 3> dims;
    for (int64_t i = 0; i < n; ++i) {
      std::array<int64_t, 3> d{};
      bool valid = IsValidAt(*tensor, i);
      for (size_t k = 0; k < 3 && valid; ++k) {
        const ArrayData& column = *input.column_data(plan_.shape[k]);
        valid = IsValidAt(column, i);
        if (valid) d[k] = IntegerValue(column, i);
      }
      int64_t bytes = 0;
      const bool sized = valid && d[0] >= 1 && d[1] >= 1 && d[2] >= 1 && !__builtin_mul_overflow(d[0], d[1], &bytes) &&
                         !__builtin_mul_overflow(bytes, d[2] * 4, &bytes) &&
                         bytes == static_cast<int64_t>(BinaryValue(*tensor, i).size());
      if (!sized) {
        ctx.row_errors().Add(
            i, Status::DataError(valid ? "tensor '" + spec_.tensor + "' holds " +
                                             std::to_string(BinaryValue(*tensor, i).size()) + " bytes, not " +
                                             spec_.shape[0] + " × " + spec_.shape[1] + " × " + spec_.shape[2] + " (" +
                                             std::to_string(d[0]) + " × " + std::to_string(d[1]) + " × " +
                                             std::to_string(d[2]) + ") float32 values"
                                       : "no tensor in column '" + spec_.tensor + "' or its shape columns"));
        for (ArrayBuilder* b : std::initializer_list<ArrayBuilder*>{&format, &dtype, &shape, &dims[0], &dims[1], &dims[2]}) {
          RETURN_NOT_OK(b->AppendNull());
        }
        continue;
      }
      RETURN_NOT_OK(format.Append("raw"));
      RETURN_NOT_OK(dtype.Append("float32"));
      RETURN_NOT_OK(shape.Append());
      for (size_t k = 0; k < 3; ++k) {
        RETURN_NOT_OK(dims_builder->Append(d[k]));
        RETURN_NOT_OK(dims[k].Append(d[k]));
      }
    }
    std::vector<std::shared_ptr<ArrayData>> columns = {tensor};
    for (ArrayBuilder* b : std::initializer_list<ArrayBuilder*>{&format, &dtype, &shape, &dims[0], &dims[1], &dims[2]}) {
      ASSIGN_OR_RETURN(auto column, b->Finish());
      columns.push_back(std::move(column));
    }
    return columns;
  }

  ExampleSpec spec_;
  ExamplePlan plan_;
};

Result<std::optional<PCollection>> BuildToExample(StepContext& ctx) {
  StepArgs& a = *ctx.args;
  ExampleSpec spec;
  ASSIGN_OR_RETURN(spec.tensor, a.String("tensor", ""));
  if (!spec.tensor.empty()) {
    if (a.Has("shape")) {
      ASSIGN_OR_RETURN(spec.shape, a.StringList("shape"));
    } else {
      spec.shape = {"height", "width", "channels"};
    }
  } else {
    ASSIGN_OR_RETURN(spec.image, a.String("image", "image"));
    ASSIGN_OR_RETURN(spec.encoded, a.String("encoded", ""));
    ASSIGN_OR_RETURN(ImageEncoding encoding, ReadImageEncoding(a));
    spec.format = encoding.format;
    spec.quality = encoding.quality;
  }
  ASSIGN_OR_RETURN(spec.label, a.String("label", ""));
  ASSIGN_OR_RETURN(spec.filename, a.String("filename", ""));
  ASSIGN_OR_RETURN(spec.extra, a.StringList("extra"));
  ASSIGN_OR_RETURN(ExamplePlan plan, PlanExample(spec, ctx.input().schema()));
  return ctx.pipeline->ParDo(ctx.name, ctx.input(), std::make_shared<ToExampleDoFn>(std::move(spec), std::move(plan)),
                             ctx.options);
}

}  // namespace

void AddExampleSteps(StepRegistry* registry) {
  (void)registry->Add(StepType{"to_example",
                               "image/encoded, image/format, image/height, image/width, image/channels, "
                               "image/class/label, image/filename and extra columns for a tf.Example, from an image "
                               "or a float32 HWC tensor (chips: image/dtype, image/shape)",
                               "", 1, 1, BuildToExample});
}

}  // namespace recflow::pipeline
