// Built-in step to_example: the columns of an image-classification tf.Example with the conventional feature names
// (image/encoded, image/format, image/height, image/width, image/channels, image/class/label, image/filename) plus
// any extra columns; `write` with format tfrecord then serializes them.
#include "recflow/columnar/element_access.h"
#include "recflow/formats/image/image_codec.h"
#include "recflow/ops/columns/planned_schema.h"
#include "recflow/ops/image/image_column.h"
#include "recflow/ops/image/image_kernels.h"
#include "recflow/pipeline/builtin_steps_internal.h"

namespace recflow::pipeline {

namespace {

struct ExampleSpec {
  std::string image;       // decoded image column (dimensions; encoded when `encoded` is empty)
  std::string encoded;     // optional: bytes column stored as image/encoded as they are
  image::ImageFormat format = image::ImageFormat::kPng;
  int quality = 6;
  std::string label;       // optional: integer column → image/class/label, text → image/class/text
  std::string filename;    // optional
  std::vector<std::string> extra;
};

// An ExampleSpec resolved against the step's input schema: column indices and the output schema.
struct ExamplePlan {
  SchemaPtr input;
  SchemaPtr output;
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

Result<ExamplePlan> PlanExample(const ExampleSpec& spec, SchemaPtr input) {
  ExamplePlan plan;
  std::vector<FieldPtr> fields = {Field::Make("image/encoded", binary()), Field::Make("image/format", utf8()),
                                  Field::Make("image/height", int64()), Field::Make("image/width", int64()),
                                  Field::Make("image/channels", int64())};
  ASSIGN_OR_RETURN(plan.image, Column(*input, spec.image));
  RETURN_NOT_OK(ops::ImagePixelType(*input->field(plan.image)->type()).status());
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
    } else {
      return Status::TypeError("label '" + spec.label + "' must be an integer or text column, not " + type.ToString());
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
  ExampleSpec spec_;
  ExamplePlan plan_;
};

Result<std::optional<PCollection>> BuildToExample(StepContext& ctx) {
  StepArgs& a = *ctx.args;
  ExampleSpec spec;
  ASSIGN_OR_RETURN(spec.image, a.String("image", "image"));
  ASSIGN_OR_RETURN(spec.encoded, a.String("encoded", ""));
  ASSIGN_OR_RETURN(ImageEncoding encoding, ReadImageEncoding(a));
  spec.format = encoding.format;
  spec.quality = encoding.quality;
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
                               "image/class/label, image/filename and extra columns for a tf.Example",
                               "", 1, 1, BuildToExample});
}

}  // namespace recflow::pipeline
