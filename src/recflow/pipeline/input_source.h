// OpenInputs: command-line inputs (files, directories, globs; CSV, JSON Lines, TFRecord, Avro, Arrow) as one
// Source, with Hive partition directories turned back into columns.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "recflow/core/local_filesystem.h"
#include "recflow/core/result.h"
#include "recflow/formats/avro/read_options.h"
#include "recflow/formats/csv/read_options.h"
#include "recflow/formats/jsonl/read_options.h"
#include "recflow/formats/source.h"
#include "recflow/formats/tfrecord/tfrecord_source.h"
#include "recflow/pipeline/input_detection.h"

namespace recflow::pipeline {

/// How each input file is read.
struct InputOptions {
  /// The format of every file, or kAuto to detect it (all files must agree).
  InputFormat format = InputFormat::kAuto;
  csv::ReadOptions csv = csv::ReadOptions::Defaults();
  jsonl::ReadOptions jsonl = jsonl::ReadOptions::Defaults();
  tfrecord::SourceOptions tfrecord = tfrecord::SourceOptions::Defaults();
  avro::ReadOptions avro = avro::ReadOptions::Defaults();
  /// Column types overriding inference (also set in the csv, jsonl and tfrecord options); Avro
  /// and Arrow files carry their own schema and refuse hints. Null: none.
  SchemaPtr type_hints;
  /// Where the files are opened (the readers' own file_system options are set from it);
  /// "-", standard input, is always the process's own.
  std::shared_ptr<FileSystem> file_system = LocalFileSystem::Instance();
};

/// Reads `inputs` (as DetectInputs found them; options.format is not looked at again) one file
/// after the other as a single Source, each file once, with the codec detection found (unless
/// options.tfrecord.reader names one). The schema comes from the first file (explicit or
/// inferred); later files are read with that schema, every column nullable when it was inferred
/// and there are several files (a later file may hold nulls). Several TFRecord files whose schema
/// is inferred are sampled together first, so each must be a regular file (a pipe among them is
/// an InvalidArgument error: it cannot be read twice). Files with partition values get those
/// columns appended. Inputs with `empty_dataset_schema` read as zero rows of those columns.
Result<std::unique_ptr<Source>> OpenInputs(const ResolvedInputs& inputs, const InputOptions& options);

/// DetectInputs(args, options.format) on options.file_system, then OpenInputs on what it found.
Result<std::unique_ptr<Source>> OpenInputs(const std::vector<std::string>& args, const InputOptions& options);

}  // namespace recflow::pipeline
