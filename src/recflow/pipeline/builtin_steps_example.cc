// Built-in step to_example: the columns of an image-classification tf.Example with the conventional feature names
// (image/encoded, image/format, image/height, image/width, image/channels, image/class/label, image/filename) plus
// any extra columns; `write` with format tfrecord then serializes them.
#include "recflow/columnar/element_access.h"
#include "recflow/formats/image/image_codec.h"
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

class ToExampleDoFn final : public DoFn {
 public:
  explicit ToExampleDoFn(ExampleSpec spec) : spec_(std::move(spec)) {}

  Result<SchemaPtr> OutputSchema(const SchemaPtr& input) const override {
    std::vector<FieldPtr> fields = {Field::Make("image/encoded", binary()), Field::Make("image/format", utf8()),
                                    Field::Make("image/height", int64()), Field::Make("image/width", int64()),
                                    Field::Make("image/channels", int64())};
    ASSIGN_OR_RETURN(int image, Column(*input, spec_.image));
    RETURN_NOT_OK(ops::ImagePixelType(*input->field(image)->type()).status());
    if (!spec_.encoded.empty()) {
      ASSIGN_OR_RETURN(int encoded, Column(*input, spec_.encoded));
      if (!input->field(encoded)->type()->is_binary_like()) return Status::TypeError("'" + spec_.encoded + "' is not bytes");
    }
    if (!spec_.label.empty()) {
      ASSIGN_OR_RETURN(int label, Column(*input, spec_.label));
      const DataType& type = *input->field(label)->type();
      if (type.is_integer()) {
        fields.push_back(Field::Make("image/class/label", int64()));
      } else if (type.id() == TypeId::kUtf8) {
        fields.push_back(Field::Make("image/class/text", utf8()));
      } else {
        return Status::TypeError("label '" + spec_.label + "' must be an integer or text column, not " + type.ToString());
      }
    }
    if (!spec_.filename.empty()) {
      ASSIGN_OR_RETURN(int filename, Column(*input, spec_.filename));
      fields.push_back(input->field(filename)->WithName("image/filename"));
    }
    for (const std::string& name : spec_.extra) {
      ASSIGN_OR_RETURN(int extra, Column(*input, name));
      fields.push_back(input->field(extra));
    }
    return Schema::Make(std::move(fields));
  }

  Result<DoFnOutput> Process(const RecordBatch& input, ProcessContext& ctx) const override {
    ASSIGN_OR_RETURN(SchemaPtr schema, OutputSchema(input.schema()));
    const int64_t n = input.num_rows();
    const auto& images = input.column_data(input.schema()->GetFieldIndex(spec_.image));
    std::shared_ptr<ArrayData> encoded;
    if (spec_.encoded.empty()) {
      ASSIGN_OR_RETURN(encoded, ops::EncodeImages(images, spec_.format, spec_.quality, ctx.row_errors()));
    } else {
      encoded = input.column_data(input.schema()->GetFieldIndex(spec_.encoded));
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
      ASSIGN_OR_RETURN(image::Image img, reader.Get(i));
      const std::string_view bytes = BinaryValue(*encoded, i);
      const image::ImageFormat sniffed =
          image::Sniff(std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()));
      RETURN_NOT_OK(format.Append(sniffed == image::ImageFormat::kJpeg ? "jpeg" : "png"));
      RETURN_NOT_OK(height.Append(img.height()));
      RETURN_NOT_OK(width.Append(img.width()));
      RETURN_NOT_OK(channels.Append(img.channels()));
    }
    std::vector<std::shared_ptr<ArrayData>> columns = {encoded};
    for (ArrayBuilder* b : std::initializer_list<ArrayBuilder*>{&format, &height, &width, &channels}) {
      ASSIGN_OR_RETURN(auto column, b->Finish());
      columns.push_back(std::move(column));
    }
    if (!spec_.label.empty()) {
      const auto& label = input.column_data(input.schema()->GetFieldIndex(spec_.label));
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
    if (!spec_.filename.empty()) columns.push_back(input.column_data(input.schema()->GetFieldIndex(spec_.filename)));
    for (const std::string& name : spec_.extra) columns.push_back(input.column_data(input.schema()->GetFieldIndex(name)));
    ASSIGN_OR_RETURN(auto batch, RecordBatch::Make(schema, n, std::move(columns)));
    return DoFnOutput{std::move(batch), {}};
  }

 private:
  static Result<int> Column(const Schema& schema, const std::string& name) {
    const int index = schema.GetFieldIndex(name);
    if (index < 0) return Status::NotFound("no column '" + name + "' in " + schema.ToString());
    return index;
  }

  ExampleSpec spec_;
};

Result<std::optional<PCollection>> BuildToExample(StepContext& ctx) {
  StepArgs& a = *ctx.args;
  ExampleSpec spec;
  ASSIGN_OR_RETURN(spec.image, a.String("image", "image"));
  ASSIGN_OR_RETURN(spec.encoded, a.String("encoded", ""));
  ASSIGN_OR_RETURN(std::string format, a.String("format", "png"));
  if (format == "jpeg" || format == "jpg") {
    spec.format = image::ImageFormat::kJpeg;
  } else if (format != "png") {
    return a.Error("format", "must be png or jpeg, not '" + format + "'");
  }
  ASSIGN_OR_RETURN(int64_t quality, a.Int("quality", spec.format == image::ImageFormat::kPng ? 6 : 95));
  spec.quality = static_cast<int>(quality);
  ASSIGN_OR_RETURN(spec.label, a.String("label", ""));
  ASSIGN_OR_RETURN(spec.filename, a.String("filename", ""));
  ASSIGN_OR_RETURN(spec.extra, a.StringList("extra"));
  return ctx.pipeline->ParDo(ctx.name, ctx.input(), std::make_shared<ToExampleDoFn>(std::move(spec)), ctx.options);
}

}  // namespace

void AddExampleSteps(StepRegistry* registry) {
  (void)registry->Add(StepType{"to_example",
                               "image/encoded, image/format, image/height, image/width, image/channels, "
                               "image/class/label, image/filename and extra columns for a tf.Example",
                               "", 1, 1, BuildToExample});
}

}  // namespace recflow::pipeline
