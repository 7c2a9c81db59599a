// The dataset factory's reading: discovered inputs (any registered format) as one Source with one schema, each file
// through its format's FileOpener, Hive partition directories turned back into columns.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "recflow/core/result.h"
#include "recflow/dataset/dataset_factory.h"
#include "recflow/formats/builtin/builtin_formats.h"
#include "recflow/formats/registry/format_descriptor.h"
#include "recflow/formats/source.h"

namespace recflow::dataset {

/// How each input file is read.
struct InputOptions {
  /// The format of every file, or nullptr to detect it (all files must agree).
  const formats::FormatDescriptor* format = nullptr;
  /// What each format's read options are parsed from: the generic settings and format words.
  formats::ReadSettings settings;
  /// Each format's parsed read options (MakeInputOptions parses every registered format's, so a
  /// bad value fails before anything is read). A format without an entry has its options parsed
  /// from `settings` when its first file is opened.
  std::map<const formats::FormatDescriptor*, std::shared_ptr<const formats::FormatReadOptions>> read_options;
  /// The formats a split's format name is looked up in (OpenSplit). Never null.
  const formats::FormatRegistry* registry = &formats::BuiltinFormats();
};

/// `format`'s read options for a read with `options`: its entry in options.read_options, else
/// parsed from options.settings (InvalidArgument for a bad value).
Result<std::shared_ptr<const formats::FormatReadOptions>> ReadOptionsFor(const InputOptions& options,
                                                                          const formats::FormatDescriptor& format);

/// Reads `inputs` (as DetectInputs found them; options.format is not looked at again) one file
/// after the other as a single Source, each file once, through its format's FileOpener on
/// options.settings.file_system (with the
/// codec detection found, unless the format's options name one). The schema comes from the first
/// file (explicit or inferred); later files are read with that schema, every column nullable when
/// it was inferred and there are several files (a later file may hold nulls). Several files whose
/// schema is inferred are sampled together first when their format does so
/// (FileOpener::SampleSchema: TFRecord, whose files must then be regular files: a pipe among them
/// is an InvalidArgument error, it cannot be read twice). Files with partition values get those
/// columns appended. Inputs with `empty_dataset_schema` read as zero rows of those columns.
Result<std::unique_ptr<Source>> OpenInputs(const ResolvedInputs& inputs, const InputOptions& options);

/// DetectInputs(args, options.format) on options.settings.file_system, then OpenInputs on what it found.
Result<std::unique_ptr<Source>> OpenInputs(const std::vector<std::string>& args, const InputOptions& options);

}  // namespace recflow::dataset
