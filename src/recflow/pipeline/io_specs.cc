// InputSpec and OutputSpec → InputOptions and SinkOptions: formats, dialects, compression, sharding, naming.
#include "recflow/pipeline/io_specs.h"

#include "recflow/core/compression.h"
#include "recflow/core/local_path.h"
#include "recflow/dataset/save_mode.h"
#include "recflow/formats/arrow_ipc/arrow_output_format.h"
#include "recflow/formats/csv/csv_output_format.h"
#include "recflow/formats/jsonl/jsonl_output_format.h"
#include "recflow/formats/schema_json.h"
#include "recflow/formats/tfrecord/tfrecord_output_format.h"

namespace recflow::pipeline {

Result<char> SingleChar(const std::string& what, const std::string& value) {
  if (value == "\\t" || value == "tab") return '\t';
  if (value.size() != 1) return Status::InvalidArgument(what + " must be a single character, got '" + value + "'");
  return value[0];
}

Result<InputOptions> MakeInputOptions(const InputSpec& spec) {
  InputOptions in;
  ASSIGN_OR_RETURN(in.format, ParseInputFormat(spec.from));
  ASSIGN_OR_RETURN(example::RecordType record_type, example::ParseRecordType(spec.record_type));
  SchemaPtr schema;
  if (!spec.schema_file.empty()) {
    ASSIGN_OR_RETURN(const std::string schema_file, LocalPath(spec.schema_file));
    ASSIGN_OR_RETURN(schema, ReadSchemaFile(schema_file));
  }
  if (schema != nullptr && !spec.schema_hints.empty()) {
    return Status::InvalidArgument("schema hints refine an inferred schema: give the types in the schema file instead");
  }
  ASSIGN_OR_RETURN(in.type_hints, ParseSchemaHints(spec.schema_hints));
  if (in.type_hints->num_fields() == 0) in.type_hints = nullptr;
  const bool skip = spec.skip_bad;
  // CSV
  ASSIGN_OR_RETURN(in.csv.dialect.delimiter, SingleChar("the delimiter", spec.delimiter));
  ASSIGN_OR_RETURN(in.csv.dialect.quote, SingleChar("the quote", spec.quote));
  if (!spec.comment.empty()) {
    ASSIGN_OR_RETURN(in.csv.dialect.comment, SingleChar("the comment character", spec.comment));
  }
  in.csv.header = !spec.no_header;
  in.csv.null_values.insert(in.csv.null_values.end(), spec.null_values.begin(), spec.null_values.end());
  in.csv.block_size = spec.block_size;
  in.csv.inference_rows = spec.infer_rows;
  in.csv.schema = schema;
  in.csv.type_hints = in.type_hints;
  in.csv.bad_rows = skip ? csv::BadRowsMode::kSkip : csv::BadRowsMode::kFail;
  RETURN_NOT_OK(in.csv.Validate());
  // JSON Lines
  in.jsonl.block_size = spec.block_size;
  in.jsonl.inference_rows = spec.infer_rows;
  in.jsonl.schema = schema;
  in.jsonl.type_hints = in.type_hints;
  in.jsonl.bad_rows = skip ? jsonl::BadRowsMode::kSkip : jsonl::BadRowsMode::kFail;
  RETURN_NOT_OK(in.jsonl.Validate());
  // TFRecord
  in.tfrecord.record_type = record_type;
  in.tfrecord.inference_records = spec.infer_rows;
  in.tfrecord.schema = schema;
  in.tfrecord.type_hints = in.type_hints;
  in.tfrecord.skip_bad_records = skip;
  in.tfrecord.reader.max_record_bytes = spec.max_record_bytes;
  RETURN_NOT_OK(in.tfrecord.Validate());
  // Avro (its schema is in the file; a schema file does not apply)
  in.avro.bad_blocks = skip ? avro::BadBlocksMode::kSkip : avro::BadBlocksMode::kFail;
  RETURN_NOT_OK(in.avro.Validate());
  return in;
}

namespace {

bool IsArrow(const std::string& format) { return format == "arrow" || format == "feather"; }

Result<dataset::OutputFormatFactory> MakeFormatFactory(const OutputSpec& spec) {
  if (spec.decimals != "string" && spec.format != "tfrecord") {
    return Status::InvalidArgument("decimals '" + spec.decimals + "' is for tfrecord output, not " + spec.format);
  }
  if (spec.format == "tfrecord") {
    ASSIGN_OR_RETURN(example::RecordType type, example::ParseRecordType(spec.record_type));
    example::FeatureOptions features = example::FeatureOptions::Defaults();
    ASSIGN_OR_RETURN(features.decimals, example::ParseDecimalFeatures(spec.decimals));
    return dataset::OutputFormatFactory([type, features](SchemaPtr schema) {
      return tfrecord::MakeTfrecordOutputFormat(std::move(schema), type, features);
    });
  }
  if (spec.format == "jsonl") {
    return dataset::OutputFormatFactory([](SchemaPtr schema) { return jsonl::MakeJsonlOutputFormat(std::move(schema)); });
  }
  if (spec.format == "csv") {
    csv::WriteOptions options = csv::WriteOptions::Defaults();
    ASSIGN_OR_RETURN(options.delimiter, SingleChar("the delimiter", spec.delimiter));
    return dataset::OutputFormatFactory(
        [options](SchemaPtr schema) { return csv::MakeCsvOutputFormat(std::move(schema), options); });
  }
  if (IsArrow(spec.format)) {
    if (spec.compression == "gzip" || spec.compression == "zlib") {
      return Status::InvalidArgument("Arrow files compress their bodies: compression none, lz4 or zstd, not " +
                                     spec.compression);
    }
    arrow_ipc::IpcWriteOptions options;
    ASSIGN_OR_RETURN(options.compression, arrow_ipc::ParseIpcCompression(spec.compression));
    options.level = spec.level < 0 ? 0 : spec.level;
    RETURN_NOT_OK(options.Validate());
    const bool file_format = spec.format == "feather";
    return dataset::OutputFormatFactory([options, file_format](SchemaPtr schema) {
      return arrow_ipc::MakeArrowOutputFormat(std::move(schema), file_format, options);
    });
  }
  return Status::InvalidArgument("unknown output format '" + spec.format + "' (tfrecord, jsonl, csv, arrow, feather)");
}

Result<dataset::Sharding> MakeSharding(const OutputSpec& spec) {
  const int given = (spec.shards > 0) + (spec.max_records_per_shard > 0) + (spec.max_bytes_per_shard > 0);
  if (given > 1) return Status::InvalidArgument("shards, max records per shard and max bytes per shard exclude each other");
  dataset::Sharding sharding;
  if (spec.max_records_per_shard > 0) {
    sharding.kind = dataset::Sharding::Kind::kMaxRecords;
    sharding.value = spec.max_records_per_shard;
  } else if (spec.max_bytes_per_shard > 0) {
    sharding.kind = dataset::Sharding::Kind::kMaxBytes;
    sharding.value = spec.max_bytes_per_shard;
  } else {
    sharding.value = spec.shards > 0 ? spec.shards : 1;
  }
  return sharding;
}

}  // namespace

Result<dataset::SinkOptions> MakeSinkOptions(const OutputSpec& spec) {
  dataset::SinkOptions options = dataset::SinkOptions::Defaults();
  ASSIGN_OR_RETURN(options.output, LocalPath(spec.output));
  ASSIGN_OR_RETURN(options.format, MakeFormatFactory(spec));
  if (!IsArrow(spec.format)) {
    if (spec.compression == "lz4" || spec.compression == "zstd") {
      return Status::InvalidArgument("compression " + spec.compression + " is for Arrow bodies: use it with arrow or feather");
    }
    ASSIGN_OR_RETURN(options.compression, ParseCompression(spec.compression));
  }
  options.level = spec.level;
  ASSIGN_OR_RETURN(options.sharding, MakeSharding(spec));
  if (spec.naming != "beam" && spec.naming != "spark") {
    return Status::InvalidArgument("naming must be beam or spark, not '" + spec.naming + "'");
  }
  options.naming = spec.naming == "spark" ? dataset::ShardNaming::kSpark : dataset::ShardNaming::kBeam;
  options.prefix = spec.prefix;
  options.partition_by = spec.partition_by;
  ASSIGN_OR_RETURN(options.mode, dataset::ParseSaveMode(spec.mode));
  options.sync = spec.sync;
  RETURN_NOT_OK(options.Validate());
  return options;
}

}  // namespace recflow::pipeline
