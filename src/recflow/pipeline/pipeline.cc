// Pipeline: building the graph, with every step's output schema derived and checked as it is added.
#include "recflow/pipeline/pipeline.h"

#include <algorithm>
#include <filesystem>
#include <set>

#include "recflow/dataset/dataset_sink.h"
#include "recflow/formats/batch_source.h"

namespace recflow::pipeline {

std::string_view NodeKindName(NodeKind kind) {
  switch (kind) {
    case NodeKind::kRead: return "read";
    case NodeKind::kParDo: return "pardo";
    case NodeKind::kFlatten: return "flatten";
    case NodeKind::kGroupByKey: return "group_by_key";
    case NodeKind::kCombinePerKey: return "combine_per_key";
    case NodeKind::kCombineGlobally: return "combine_globally";
    case NodeKind::kWrite: return "write";
  }
  return "?";
}

SchemaPtr PCollection::schema() const {
  if (pipeline_ == nullptr || node_ < 0) return nullptr;
  return pipeline_->node(node_).schema;
}

bool PCollection::deferred() const {
  return pipeline_ != nullptr && node_ >= 0 && !pipeline_->node(node_).deferred.empty();
}

namespace {

// The index of column `name` of `schema`, or NotFound listing the columns.
Result<int> ColumnIndex(const Schema& schema, const std::string& name) {
  const int index = schema.GetFieldIndex(name);
  if (index >= 0) return index;
  std::string names;
  for (const FieldPtr& f : schema.fields()) names += (names.empty() ? "" : ", ") + f->name();
  return Status::NotFound("no column '" + name + "' (columns: " + names + ")");
}

// The key fields of `schema` named `keys`: scalar columns only.
Result<std::vector<FieldPtr>> KeyFields(const Schema& schema, const std::vector<std::string>& keys) {
  if (keys.empty()) return Status::InvalidArgument("no key columns");
  std::vector<FieldPtr> fields;
  std::set<std::string> seen;
  for (const std::string& key : keys) {
    ASSIGN_OR_RETURN(int index, ColumnIndex(schema, key));
    if (!seen.insert(key).second) return Status::InvalidArgument("key column '" + key + "' is named twice");
    const FieldPtr& field = schema.field(index);
    if (field->type()->is_nested()) {
      return Status::TypeError("key column '" + key + "' is " + field->type()->ToString() + "; keys must be scalars");
    }
    fields.push_back(field);
  }
  return fields;
}

// The output fields of `aggregates` over `schema`.
Result<std::vector<FieldPtr>> AggregateFields(const Schema& schema, const std::vector<Aggregate>& aggregates) {
  if (aggregates.empty()) return Status::InvalidArgument("no aggregates");
  std::vector<FieldPtr> fields;
  for (const Aggregate& a : aggregates) {
    if (a.combiner == nullptr) return Status::InvalidArgument("aggregate '" + a.output + "' has no combiner");
    if (a.output.empty()) return Status::InvalidArgument("an aggregate of '" + a.column + "' has no output name");
    DataTypePtr input = null();
    if (!a.column.empty()) {
      ASSIGN_OR_RETURN(int index, ColumnIndex(schema, a.column));
      input = schema.field(index)->type();
    } else if (a.combiner->name() != "count_all") {
      return Status::InvalidArgument("aggregate '" + a.output + "' (" + a.combiner->name() + ") names no column");
    }
    auto type = a.combiner->OutputType(*input);
    if (!type.ok()) return type.status().WithField(a.column);
    fields.push_back(Field::Make(a.output, *type));
  }
  return fields;
}

}  // namespace

PCollection Pipeline::Read(std::string name, SourceFactory factory, std::string description, ErrorPolicy on_error,
                           bool reopenable) {
  auto source = factory(file_system_);
  if (!source.ok()) {
    Fail(name, source.status());
    return PCollection(this, -1);
  }
  if (!reopenable) factory = nullptr;
  return ReadOpened(std::move(name), std::move(source).ValueUnsafe(), std::move(factory), std::move(description),
                    std::move(on_error));
}

PCollection Pipeline::ReadFiles(std::string name, InputFiles files, std::string description, ErrorPolicy on_error,
                                bool reopenable, SchemaPtr settled) {
  SourceFactory factory = InputsFactory(files.paths, files.options);
  PCollection read(this, -1);
  if (settled != nullptr && reopenable) {
    auto input = std::make_shared<ReadInput>(nullptr, file_system_, SettledFactory(std::move(factory), settled, name),
                                             description);
    read = AddRead(std::move(name), std::move(settled), std::move(input), std::move(description), std::move(on_error));
  } else {
    read = Read(std::move(name), std::move(factory), std::move(description), std::move(on_error), reopenable);
  }
  if (read.node() >= 0) nodes_[static_cast<size_t>(read.node())].files = std::make_shared<const InputFiles>(std::move(files));
  return read;
}

PCollection Pipeline::ReadOpened(std::string name, std::unique_ptr<Source> source, SourceFactory reopen,
                                 std::string description, ErrorPolicy on_error) {
  const SchemaPtr schema = source->schema();
  const std::string input = source->name();
  if (description.empty()) description = input;
  return AddRead(std::move(name), schema,
                 std::make_shared<ReadInput>(std::move(source), file_system_, std::move(reopen), input),
                 std::move(description), std::move(on_error));
}

PCollection Pipeline::AddRead(std::string name, SchemaPtr schema, std::shared_ptr<ReadInput> input,
                              std::string description, ErrorPolicy on_error) {
  Node node;
  node.name = std::move(name);
  node.kind = NodeKind::kRead;
  node.description = std::move(description);
  node.on_error = std::move(on_error);
  if (node.on_error.mode == ErrorPolicy::Mode::kDeadLetter && node.on_error.dead_letter.empty()) {
    Fail(node.name, Status::InvalidArgument("on_error dead_letter needs a file"));
    return PCollection(this, -1);
  }
  node.schema = std::move(schema);
  node.input = std::move(input);
  return Add(std::move(node));
}

PCollection Pipeline::Create(std::string name, SchemaPtr schema, std::vector<std::shared_ptr<RecordBatch>> batches) {
  for (const auto& batch : batches) {
    if (!batch->schema()->Equals(*schema)) {
      Fail(name, Status::InvalidArgument("a batch's schema " + batch->schema()->ToString() + " is not " +
                                         schema->ToString()));
      return PCollection(this, -1);
    }
  }
  auto shared = std::make_shared<const std::vector<std::shared_ptr<RecordBatch>>>(std::move(batches));
  const std::string source_name = name;
  return Read(
      std::move(name),
      [source_name, schema, shared](const std::shared_ptr<FileSystem>&) -> Result<std::unique_ptr<Source>> {
        return MakeBatchSource(source_name, schema, shared);
      },
      std::to_string(shared->size()) + " batches in memory");
}

PCollection Pipeline::ParDo(std::string name, const PCollection& input, std::shared_ptr<const DoFn> fn,
                            StepOptions options) {
  if (!CheckInput(name, input)) return PCollection(this, -1);
  Node node;
  node.name = std::move(name);
  node.kind = NodeKind::kParDo;
  node.inputs = {input.node()};
  node.on_error = std::move(options.on_error);
  node.description = std::move(options.description);
  for (auto& [side_name, side] : options.side_inputs) {
    if (!CheckInput(node.name, side)) return PCollection(this, -1);
    node.side_inputs.emplace_back(side_name, side.node());
  }
  if (node.on_error.mode == ErrorPolicy::Mode::kDeadLetter && node.on_error.dead_letter.empty()) {
    Fail(node.name, Status::InvalidArgument("on_error dead_letter needs a file"));
    return PCollection(this, -1);
  }
  auto schema = fn->OutputSchema(input.schema());
  if (!schema.ok()) {
    Fail(node.name, schema.status());
    return PCollection(this, -1);
  }
  node.schema = *schema;
  node.fn = std::move(fn);
  node.windowing = RowWindowing(input.node());
  return Add(std::move(node));
}

PCollection Pipeline::MapRows(std::string name, const PCollection& input, std::vector<FieldPtr> new_fields,
                              RowFunction fn, StepOptions options) {
  return ParDo(std::move(name), input, MakeRowDoFn(std::move(new_fields), std::move(fn)), std::move(options));
}

PCollection Pipeline::Filter(std::string name, const PCollection& input,
                             std::function<Result<bool>(const RowView&)> predicate, StepOptions options) {
  auto keep = [predicate = std::move(predicate)](const RowView& row, RowEmitter& out) -> Status {
    ASSIGN_OR_RETURN(bool kept, predicate(row));
    if (kept) out.Emit({});
    return Status::OK();
  };
  return MapRows(std::move(name), input, {}, std::move(keep), std::move(options));
}

PCollection Pipeline::Flatten(std::string name, const std::vector<PCollection>& inputs) {
  if (inputs.empty()) {
    Fail(name, Status::InvalidArgument("flatten needs at least one input"));
    return PCollection(this, -1);
  }
  Node node;
  node.name = std::move(name);
  node.kind = NodeKind::kFlatten;
  for (const PCollection& input : inputs) {
    if (!CheckInput(node.name, input)) return PCollection(this, -1);
    if (!input.schema()->Equals(*inputs[0].schema())) {
      Fail(node.name, Status::TypeError("inputs differ: " + inputs[0].schema()->ToString() + " vs " +
                                        input.schema()->ToString()));
      return PCollection(this, -1);
    }
    if (RowWindowing(input.node()) != RowWindowing(inputs[0].node())) {
      Fail(node.name, Status::InvalidArgument("inputs are in different windows (window them after the flatten)"));
      return PCollection(this, -1);
    }
    node.inputs.push_back(input.node());
  }
  node.schema = inputs[0].schema();
  node.windowing = RowWindowing(inputs[0].node());
  return Add(std::move(node));
}

PCollection Pipeline::GroupByKey(std::string name, const PCollection& input, std::vector<std::string> keys,
                                 ErrorPolicy on_error) {
  if (!CheckInput(name, input)) return PCollection(this, -1);
  auto key_fields = KeyFields(*input.schema(), keys);
  if (!key_fields.ok()) {
    Fail(name, key_fields.status());
    return PCollection(this, -1);
  }
  std::vector<FieldPtr> fields = *key_fields;
  for (const FieldPtr& field : input.schema()->fields()) {
    if (std::find(keys.begin(), keys.end(), field->name()) == keys.end()) {
      fields.push_back(Field::Make(field->name(), list(field), false));
    }
  }
  Node node;
  node.name = std::move(name);
  node.kind = NodeKind::kGroupByKey;
  node.on_error = std::move(on_error);
  if (!WindowGrouping(node, input, &fields, nullptr)) return PCollection(this, -1);
  node.inputs = {input.node()};
  node.keys = std::move(keys);
  node.schema = Schema::Make(std::move(fields));
  return Add(std::move(node));
}

int Pipeline::EarliestWithColumns(int id, const std::vector<std::string>& columns) const {
  for (;;) {
    const Node& n = nodes_[static_cast<size_t>(id)];
    if (n.kind != NodeKind::kParDo || n.on_error.mode != ErrorPolicy::Mode::kFail) return id;
    const std::optional<std::vector<std::string>> written = n.fn->WrittenColumns();
    if (!written) return id;
    for (const std::string& column : columns) {
      if (std::find(written->begin(), written->end(), column) != written->end()) return id;
    }
    id = n.inputs[0];
  }
}

PCollection Pipeline::CombinePerKey(std::string name, const PCollection& input, std::vector<std::string> keys,
                                    std::vector<Aggregate> aggregates, ErrorPolicy on_error) {
  if (!CheckInput(name, input)) return PCollection(this, -1);
  auto key_fields = KeyFields(*input.schema(), keys);
  auto aggregate_fields = key_fields.ok() ? AggregateFields(*input.schema(), aggregates) : key_fields.status();
  if (!aggregate_fields.ok()) {
    Fail(name, aggregate_fields.status());
    return PCollection(this, -1);
  }
  std::vector<FieldPtr> fields = *key_fields;
  fields.insert(fields.end(), aggregate_fields->begin(), aggregate_fields->end());
  Node node;
  node.name = std::move(name);
  node.kind = NodeKind::kCombinePerKey;
  node.on_error = std::move(on_error);
  std::vector<std::string> read = keys;
  for (const Aggregate& a : aggregates) read.push_back(a.column);
  if (!WindowGrouping(node, input, &fields, &read)) return PCollection(this, -1);
  node.inputs = {EarliestWithColumns(input.node(), read)};
  node.keys = std::move(keys);
  node.aggregates = std::move(aggregates);
  node.schema = Schema::Make(std::move(fields));
  return Add(std::move(node));
}

PCollection Pipeline::CombineGlobally(std::string name, const PCollection& input, std::vector<Aggregate> aggregates,
                                      ErrorPolicy on_error) {
  if (!CheckInput(name, input)) return PCollection(this, -1);
  auto fields = AggregateFields(*input.schema(), aggregates);
  if (!fields.ok()) {
    Fail(name, fields.status());
    return PCollection(this, -1);
  }
  Node node;
  node.name = std::move(name);
  node.kind = NodeKind::kCombineGlobally;
  node.on_error = std::move(on_error);
  std::vector<std::string> read;
  for (const Aggregate& a : aggregates) read.push_back(a.column);
  if (!WindowGrouping(node, input, &*fields, &read)) return PCollection(this, -1);
  node.inputs = {EarliestWithColumns(input.node(), read)};
  node.aggregates = std::move(aggregates);
  node.schema = Schema::Make(std::move(*fields));
  return Add(std::move(node));
}

void Pipeline::Write(std::string name, const PCollection& input, dataset::SinkOptions options,
                     std::string description) {
  if (!CheckInput(name, input)) return;
  // Everything the sink would refuse at run time (a column the format cannot write, say an
  // image struct without encode_image) fails here, so `plan` catches it.
  const Status st = dataset::MakeDatasetLayout(options, input.schema()).status();
  if (!st.ok()) {
    Fail(name, st);
    return;
  }
  Node node;
  node.name = std::move(name);
  node.kind = NodeKind::kWrite;
  node.inputs = {input.node()};
  node.schema = input.schema();
  node.description = description.empty() ? options.output : std::move(description);
  node.sink = std::move(options);
  Add(std::move(node));
}

void Pipeline::WriteTo(std::string name, const PCollection& input, SinkFactory open, std::string description) {
  if (!CheckInput(name, input)) return;
  Node node;
  node.name = std::move(name);
  node.kind = NodeKind::kWrite;
  node.inputs = {input.node()};
  node.schema = input.schema();
  node.description = std::move(description);
  node.open_sink = std::move(open);
  Add(std::move(node));
}

namespace {

/// Makes `node` wait for the read `input` waits for, unless it waits for one already.
void Inherit(const Node& input, Node* node) {
  if (node->deferred.empty() && !input.deferred.empty()) {
    node->deferred = input.deferred;
    node->deferred_read = input.deferred_read;
  }
}

}  // namespace

PCollection Pipeline::ReadDeferred(std::string name, SourceFactory factory, std::string description,
                                   std::string missing) {
  Node node;
  node.name = std::move(name);
  node.kind = NodeKind::kRead;
  node.description = std::move(description);
  node.deferred = std::move(missing);
  node.deferred_read = static_cast<int>(nodes_.size());  // the id Add gives it
  node.input = std::make_shared<ReadInput>(nullptr, file_system_, std::move(factory), node.description);
  return Add(std::move(node));
}

PCollection Pipeline::AddDeferred(std::string name, NodeKind kind, const std::vector<PCollection>& inputs,
                                  const std::vector<std::pair<std::string, PCollection>>& side_inputs,
                                  std::string description) {
  Node node;
  node.name = std::move(name);
  node.kind = kind;
  node.description = std::move(description);
  for (const PCollection& input : inputs) {
    if (!CheckInput(node.name, input)) return PCollection(this, -1);
    node.inputs.push_back(input.node());
    Inherit(this->node(input.node()), &node);
  }
  for (const auto& [side_name, side] : side_inputs) {
    if (!CheckInput(node.name, side)) return PCollection(this, -1);
    node.side_inputs.emplace_back(side_name, side.node());
    Inherit(this->node(side.node()), &node);
  }
  if (node.deferred.empty()) {
    Fail(node.name, Status::Internal("AddDeferred on inputs that are not deferred"));
    return PCollection(this, -1);
  }
  return Add(std::move(node));
}

bool Pipeline::has_deferred() const {
  return std::any_of(nodes_.begin(), nodes_.end(), [](const Node& n) { return !n.deferred.empty(); });
}

Status Pipeline::AddSideFile(std::string path, const PCollection& from, SideFileWriter write) {
  const std::string parent = std::filesystem::path(path).parent_path().string();
  if (!parent.empty()) {
    const Result<FileInfo> info = file_system_->GetTargetInfo(parent);
    if (!info.ok() || !info->is_directory()) {
      return Status::NotFound("directory " + parent + " does not exist (create it before the run)");
    }
  }
  side_files_.push_back(SideFile{std::move(path), from.node(), std::move(write)});
  return Status::OK();
}

PCollection Pipeline::Add(Node node) {
  if (!status_.ok()) return PCollection(this, -1);
  for (const Node& existing : nodes_) {
    if (existing.name == node.name) {
      Fail(node.name, Status::InvalidArgument("another step is already named '" + node.name + "'"));
      return PCollection(this, -1);
    }
  }
  node.id = static_cast<int>(nodes_.size());
  nodes_.push_back(std::move(node));
  return PCollection(this, nodes_.back().id);
}

bool Pipeline::CheckInput(const std::string& step, const PCollection& input) {
  if (!status_.ok()) return false;
  if (input.pipeline() != this || input.node() < 0) {
    Fail(step, Status::InvalidArgument(input.pipeline() == this || input.pipeline() == nullptr
                                           ? "its input did not build"
                                           : "its input belongs to another pipeline"));
    return false;
  }
  return true;
}

void Pipeline::Fail(const std::string& step, const Status& st) {
  if (status_.ok()) status_ = StepStatus(step, st);
}

Status Pipeline::StepStatus(const std::string& step, const Status& st) const {
  return st.ok() || !steps_named_in_errors_ ? st : st.WithPrefix("step '" + step + "': ");
}

}  // namespace recflow::pipeline
