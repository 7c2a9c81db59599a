// Example: convert an MNIST-style IDX images + labels pair into a GZIP TFRecord of tf.Examples.
//
//   recflow-idx-to-tfrecord IMAGES.idx3[.gz] LABELS.idx1[.gz] OUTPUT.tfrecord.gz
//
// Each record is a tf.Example with `image` (BytesList: the raw 28x28 uint8 pixels) and `label`
// (Int64List). It shows the three steps of the C++ API: a format reader producing RecordBatches,
// the Example Encoder turning rows into serialized records, and the TFRecord RecordWriter.
#include <cstdio>
#include <string>

#include "recflow/core/local_filesystem.h"
#include "recflow/formats/example/encoder.h"
#include "recflow/formats/idx/idx_reader.h"
#include "recflow/formats/tfrecord/record_writer.h"

namespace {

recflow::Status Convert(const std::string& images, const std::string& labels, const std::string& output) {
  using namespace recflow;
  // 1. Read the IDX pair (files of the local file system) as batches of {image: binary, label: int64}.
  FileSystem& local = *LocalFileSystem::Instance();
  ASSIGN_OR_RETURN(auto reader, idx::IdxReader::OpenPair(images, labels, idx::IdxReaderOptions::Defaults(), local));

  // 2. An encoder from that schema to tf.Example records.
  ASSIGN_OR_RETURN(auto encoder, example::Encoder::Make(reader->schema(), example::RecordType::kExample));

  // 3. A GZIP-compressed TFRecord writer.
  tfrecord::WriterOptions options = tfrecord::WriterOptions::Defaults();
  options.compression = Compression::kGzip;
  ASSIGN_OR_RETURN(auto writer, tfrecord::RecordWriter::Open(output, options, local));

  std::string record;
  while (true) {
    ASSIGN_OR_RETURN(auto batch, reader->Next());
    if (!batch) break;
    for (int64_t row = 0; row < batch->num_rows(); ++row) {
      RETURN_NOT_OK(encoder->Encode(*batch, row, &record));
      RETURN_NOT_OK(writer->Write(record));
    }
  }
  RETURN_NOT_OK(writer->Close());
  std::printf("wrote %lld records (%lld bytes before compression) to %s\n",
              static_cast<long long>(writer->records_written()), static_cast<long long>(writer->bytes_written()),
              output.c_str());
  return Status::OK();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: %s IMAGES.idx3[.gz] LABELS.idx1[.gz] OUTPUT.tfrecord.gz\n", argv[0]);
    return 2;
  }
  const recflow::Status st = Convert(argv[1], argv[2], argv[3]);
  if (!st.ok()) {
    std::fprintf(stderr, "%s: %s\n", argv[0], st.ToString().c_str());
    return 1;
  }
  return 0;
}
