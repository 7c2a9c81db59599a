// The CSV format's registry entry: its words, its read options from the generic settings, its opener and output.
#pragma once

#include <string>

#include "recflow/core/result.h"
#include "recflow/formats/registry/format_registry.h"

namespace recflow::csv {

/// `value` as one dialect character ("tab" and "\t" are a tab); InvalidArgument naming `what`
/// otherwise.
Result<char> DialectChar(const std::string& what, const std::string& value);

/// Registers "csv": reads CSV content (Sniff's text guess or a .csv/.tsv suffix) with the
/// words "delimiter", "quote", "comment", "header" (true/false) and "null_values"; writes
/// CSV files ("csv", word "delimiter").
Status RegisterCsvFormat(formats::FormatRegistry* registry);

}  // namespace recflow::csv
