// ReadInput: the build-time source handed to the first pass, the factory to every later one.
#include "recflow/pipeline/read_input.h"

namespace recflow::pipeline {

namespace {

// InvalidArgument: `input` (a source's name) can be read only once, and `why` it would be read again.
Status ReadOnceError(const std::string& input, const std::string& why) {
  return Status::InvalidArgument("its input " + (input == "-" ? std::string("standard input") : input) +
                                 " can be read only once (it is not a regular file) and " + why +
                                 "; save it to a file to read it again");
}

}  // namespace

SourceFactory InputsFactory(std::vector<std::string> paths, dataset::InputOptions options) {
  return [paths = std::move(paths), options = std::move(options)](const std::shared_ptr<FileSystem>& file_system) {
    dataset::InputOptions on = options;
    on.settings.file_system = file_system;
    return dataset::OpenInputs(paths, on);
  };
}

SourceFactory SettledFactory(SourceFactory factory, SchemaPtr schema, std::string step) {
  return [factory = std::move(factory), schema = std::move(schema),
          step = std::move(step)](const std::shared_ptr<FileSystem>& file_system) -> Result<std::unique_ptr<Source>> {
    ASSIGN_OR_RETURN(std::unique_ptr<Source> source, factory(file_system));
    if (!source->schema()->Equals(*schema, true)) {
      return Status::DataError("step '" + step + "' reads " + source->name() + " with the schema " +
                               source->schema()->ToString() + " now, not the one settled before: " +
                               schema->ToString());
    }
    return source;
  };
}

ReadInput::ReadInput(std::unique_ptr<Source> opened, std::shared_ptr<FileSystem> opened_on, SourceFactory reopen,
                     std::string name)
    : opened_(std::move(opened)),
      opened_on_(std::move(opened_on)),
      reopen_(std::move(reopen)),
      name_(std::move(name)) {}

Status ReadInput::CheckPasses(int passes) {
  if (reopen_ != nullptr || passes <= 0) return Status::OK();
  std::lock_guard<std::mutex> lock(mutex_);
  if (opened_ == nullptr) return ReadOnceError(name_, "an earlier run read it");
  if (passes > 1) {
    return ReadOnceError(name_, "the pipeline reads it in " + std::to_string(passes) +
                                    " passes (a step fitted over it reads it before the pass that applies it)");
  }
  return Status::OK();
}

Result<std::unique_ptr<Source>> ReadInput::Open(const std::shared_ptr<FileSystem>& file_system) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (opened_ != nullptr && opened_on_ == file_system) return std::move(opened_);
    if (opened_ != nullptr && reopen_ == nullptr) {
      return ReadOnceError(name_, "the pipeline was built on the " + std::string(opened_on_->type_name()) +
                                      " file system but runs on the " + std::string(file_system->type_name()) + " one");
    }
  }
  if (reopen_ == nullptr) return ReadOnceError(name_, "was read already");
  return reopen_(file_system);
}

}  // namespace recflow::pipeline
