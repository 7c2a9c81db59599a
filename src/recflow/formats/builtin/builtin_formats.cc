// BuiltinFormats: the one place that links the format folders' registration functions to the registry.
#include "recflow/formats/builtin/builtin_formats.h"

#include <cstdio>
#include <cstdlib>

#include "recflow/formats/arrow_ipc/arrow_format.h"
#include "recflow/formats/avro/avro_format.h"
#include "recflow/formats/csv/csv_format.h"
#include "recflow/formats/jsonl/jsonl_format.h"
#include "recflow/formats/tfrecord/tfrecord_format.h"

namespace recflow::formats {

namespace {

/// Each format folder's registration function. Explicit calls, not static self-registering
/// objects: a static library drops an object file nothing references, with its registrar.
constexpr Status (*kRegistrations[])(FormatRegistry*) = {
    tfrecord::RegisterTfrecordFormat, csv::RegisterCsvFormat, jsonl::RegisterJsonlFormat,
    avro::RegisterAvroFormat,         arrow_ipc::RegisterArrowFormat,
};

FormatRegistry* MakeBuiltinFormats() {
  auto* registry = new FormatRegistry();
  // The built-in words and contents are distinct (format_registry_test checks them): a clash
  // is a programming error caught by every test run.
  const Status status = RegisterBuiltinFormats(registry);
  if (!status.ok()) {
    std::fprintf(stderr, "recflow: %s\n", status.ToString().c_str());
    std::abort();
  }
  return registry;
}

}  // namespace

Status RegisterBuiltinFormats(FormatRegistry* registry) {
  for (auto* add : kRegistrations) RETURN_NOT_OK(add(registry));
  return Status::OK();
}

const FormatRegistry& BuiltinFormats() {
  static const FormatRegistry* const registry = MakeBuiltinFormats();
  return *registry;
}

}  // namespace recflow::formats
