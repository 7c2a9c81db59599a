// Test helpers for the Avro reader: write container files with the Avro C writer, read them back.
#pragma once

#include <avro.h>
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "recflow/testing/drain.h"
#include "recflow/columnar/array.h"
#include "recflow/formats/avro/avro_reader.h"

/// Asserts that an Avro C call returned 0, printing the library's message otherwise.
#define AVRO_OK(expr) ASSERT_EQ((expr), 0) << #expr << ": " << avro_strerror()

namespace recflow::avro::testing {

/// Writes records of one schema to an Avro object container file with the Avro C library.
class TestWriter {
 public:
  /// Creates `path` with the schema given as JSON, the codec and the block size (0 = default).
  TestWriter(const std::string& path, const std::string& schema_json, const char* codec = "null",
             size_t block_size = 0) {
    ok_ = avro_schema_from_json_length(schema_json.data(), schema_json.size(), &schema_) == 0 &&
          (iface_ = avro_generic_class_from_schema(schema_)) != nullptr &&
          avro_generic_value_new(iface_, &record_) == 0 &&
          avro_file_writer_create_with_codec(path.c_str(), schema_, &writer_, codec, block_size) == 0;
  }
  ~TestWriter() {
    Close();
    avro_value_decref(&record_);
    avro_value_iface_decref(iface_);
    avro_schema_decref(schema_);
  }
  TestWriter(const TestWriter&) = delete;
  TestWriter& operator=(const TestWriter&) = delete;

  /// False when the schema, the codec or the file was refused (see avro_strerror()).
  bool ok() const { return ok_; }
  /// The record to fill, reset to its default state.
  avro_value_t* record() {
    avro_value_reset(&record_);
    return &record_;
  }
  /// Field `name` of the record being filled.
  avro_value_t field(const char* name) {
    avro_value_t f;
    avro_value_get_by_name(&record_, name, &f, nullptr);
    return f;
  }
  /// Appends the record; 0 on success.
  int Append() { return avro_file_writer_append_value(writer_, &record_); }
  /// Flushes and closes the file (idempotent); 0 on success.
  int Close() {
    if (writer_ == nullptr) return 0;
    const int rc = avro_file_writer_close(writer_);
    writer_ = nullptr;
    return rc;
  }

 private:
  bool ok_ = false;
  avro_schema_t schema_ = nullptr;
  avro_value_iface_t* iface_ = nullptr;
  avro_value_t record_{};
  avro_file_writer_t writer_ = nullptr;
};

/// Reads every batch of the file at `path`, checking each with ValidateFull().
inline Result<std::vector<std::shared_ptr<RecordBatch>>> ReadAll(const std::string& path, int64_t batch_rows = 65536) {
  auto options = ReadOptions::Defaults();
  options.batch_rows = batch_rows;
  ASSIGN_OR_RETURN(auto reader, AvroReader::Open(path, options));
  return ::recflow::testing::DrainReader(*reader);
}

/// Cell `row` of a utf8/binary column; "<null>" for null.
inline std::string Str(const std::shared_ptr<ArrayData>& column, int64_t row) {
  BinaryArray a(column);
  return a.IsNull(row) ? "<null>" : std::string(a.GetView(row));
}

}  // namespace recflow::avro::testing
