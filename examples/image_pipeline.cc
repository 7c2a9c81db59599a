// Example: the Beam article's pipeline written with recflow's C++ pipeline API — read a CSV of image paths and
// labels, load each image (a per-row function, as the article's LoadImage DoFn), decode and resize it (built-in
// kernels as batch DoFns), build tf.Examples and write sharded GZIP TFRecords; then the per-step metrics.
//
//   recflow-image-pipeline LABELS.csv IMAGE_DIR OUTPUT_DIR
#include <cstdio>
#include <string>

#include "recflow/dataset/io_specs.h"
#include "recflow/ops/columns/select.h"
#include "recflow/ops/image/image_column.h"
#include "recflow/ops/image/image_kernels.h"
#include "recflow/pipeline/column_do_fn.h"
#include "recflow/pipeline/local_runner.h"

namespace {

using namespace recflow;
using namespace recflow::pipeline;

Status Run(const std::string& labels, const std::string& image_dir, const std::string& output) {
  Pipeline p;

  // ReadCSV: `path,label` rows, cut into blocks of about 1500 rows that all cores share.
  dataset::InputSpec input;
  input.block_size = 32 * 1024;
  ASSIGN_OR_RETURN(dataset::InputOptions options, dataset::MakeInputOptions(input, p.file_system()));
  PCollection rows = p.Read("ReadCSV", InputsFactory({labels}, options));

  // LoadImage: one row in, one row out with the file's bytes; a missing file fails that row only.
  StepOptions skip_bad;
  skip_bad.on_error.mode = ErrorPolicy::Mode::kSkip;
  PCollection loaded = p.MapRows(
      "LoadImage", rows, {Field::Make("png", binary())},
      [image_dir](const RowView& row, RowEmitter& out) -> Status {
        ASSIGN_OR_RETURN(RowValue path, row.Get("path"));
        ASSIGN_OR_RETURN(auto bytes, row.file_system().ReadWholeFile(image_dir + "/" + std::get<std::string>(path)));
        out.Emit({std::string(bytes->view())});
        return Status::OK();
      },
      skip_bad);

  // DecodeAndResize: the image kernels over whole columns.
  PCollection images = p.ParDo(
      "DecodeAndResize", loaded,
      MakeColumnDoFn({ColumnJob{"png", ops::ImageField("image", image::PixelType::kUInt8),
                                [](const std::shared_ptr<ArrayData>& png, ProcessContext& ctx)
                                    -> Result<std::shared_ptr<ArrayData>> {
                                  ASSIGN_OR_RETURN(auto decoded, ops::DecodeImages(png, image::DecodeOptions::Defaults(),
                                                                                   ctx.row_errors()));
                                  return ops::ResizeImages(decoded, 32, 32, ops::ResizeMethod::kBilinear,
                                                           ctx.row_errors());
                                }},
                      ColumnJob{"image", Field::Make("image_png", binary()),
                                [](const std::shared_ptr<ArrayData>& image, ProcessContext& ctx) {
                                  return ops::EncodeImages(image, image::ImageFormat::kPng, 6, ctx.row_errors());
                                }}}),
      skip_bad);

  // WriteTFRecord: tf.Example features from the columns, 8 GZIP shards.
  PCollection examples = p.ParDo("SelectFeatures", images,
                                 MakeBatchDoFn([](const RecordBatch& batch) {
                                   return ops::Select(batch, {"image_png", "label"});
                                 }));
  dataset::OutputSpec spec;
  spec.output = output;
  spec.compression = "gzip";
  spec.shards = 8;
  spec.mode = "overwrite";
  ASSIGN_OR_RETURN(dataset::SinkOptions sink, dataset::MakeSinkOptions(spec));
  p.Write("WriteTFRecord", examples, std::move(sink));

  RETURN_NOT_OK(p.status());
  RunMetrics metrics;
  ASSIGN_OR_RETURN(RunResult result, RunPipeline(ExecContext::Defaults(), p, RunOptions::Defaults(), &metrics));
  std::fputs(metrics.Table().c_str(), stdout);
  std::printf("%lld examples in %lld files\n", static_cast<long long>(result.writes[0].second.records),
              static_cast<long long>(result.writes[0].second.files));
  return Status::OK();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: %s LABELS.csv IMAGE_DIR OUTPUT_DIR\n", argv[0]);
    return 2;
  }
  const recflow::Status st = Run(argv[1], argv[2], argv[3]);
  if (!st.ok()) {
    std::fprintf(stderr, "%s\n", st.ToString().c_str());
    return 1;
  }
  return 0;
}
