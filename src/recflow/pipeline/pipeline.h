// Pipeline: a graph of named transforms over PCollections of record batches, built the way a Beam pipeline is.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "recflow/core/local_filesystem.h"
#include "recflow/dataset/sink_options.h"
#include "recflow/formats/sink.h"
#include "recflow/formats/source.h"
#include "recflow/pipeline/combiner.h"
#include "recflow/pipeline/do_fn.h"
#include "recflow/pipeline/read_input.h"
#include "recflow/pipeline/row_do_fn.h"
#include "recflow/pipeline/window/windowing.h"

namespace recflow::pipeline {

class Pipeline;

/// What a step does with rows it could not process.
struct ErrorPolicy {
  enum class Mode : uint8_t {
    kFail,        ///< the job stops with an error naming the step, the input file and the row
    kSkip,        ///< the row is dropped and counted
    kDeadLetter,  ///< the row is dropped and written, with its error, to `dead_letter` (JSON Lines)
  };
  Mode mode = Mode::kFail;
  /// The JSON Lines file of kDeadLetter (several steps may share one file).
  std::string dead_letter;
};

/// The transforms a pipeline is made of.
enum class NodeKind : uint8_t {
  kRead,             ///< a Source (files, or batches in memory)
  kParDo,            ///< a DoFn (Map, FlatMap, Filter and the built-in ops are ParDos)
  kFlatten,          ///< the rows of several PCollections of one schema
  kGroupByKey,       ///< one row per key, other columns gathered into lists
  kCombinePerKey,    ///< one row per key, with aggregates
  kCombineGlobally,  ///< one row of aggregates over everything
  kWrite,            ///< a dataset (sharded, partitioned, committed)
};

/// "read", "pardo", ... for plans.
std::string_view NodeKindName(NodeKind kind);

/// One aggregate of a combine: `combiner` over input column `column` (empty for count_all),
/// named `output` in the result.
struct Aggregate {
  std::string column;
  std::shared_ptr<const Combiner> combiner;
  std::string output;
};

/// The windows of a PCollection's rows: set by a `window` step (Pipeline::Window), kept by
/// element-wise steps and flattens. A GroupByKey or combine of such rows groups per key and
/// window and outputs the panes its trigger fires (docs/streaming.md); its own output is in no
/// window again.
struct Windowing {
  window::WindowingStrategy strategy;
  /// The column holding each row's event time: integer epoch milliseconds (microseconds when
  /// `event_time_micros`), a timestamp of any unit, or ISO-8601 text.
  std::string event_time;
  bool event_time_micros = false;
};

/// The files a read step reads: its paths and how they are read (dataset::OpenInputs).
struct InputFiles {
  std::vector<std::string> paths;
  dataset::InputOptions options;
};

/// Opens the sink of a write to something other than a dataset (Pipeline::WriteTo) for rows of
/// schema `input` in run generation `generation` (docs/streaming.md, "Generations": 0 but for a
/// checkpointed run restarted after a drain); a sink that identifies its outputs (a broker's
/// message ids) makes them differ between generations.
using SinkFactory = std::function<Result<std::unique_ptr<Sink>>(const SchemaPtr& input, int64_t generation)>;

/// One transform and its inputs.
struct Node {
  int id = 0;
  std::string name;
  NodeKind kind = NodeKind::kRead;
  std::vector<int> inputs;                                ///< main inputs (Flatten: several)
  std::vector<std::pair<std::string, int>> side_inputs;   ///< name → producing node
  SchemaPtr schema;                                       ///< the output's schema (Write: its input's)
  ErrorPolicy on_error;
  std::shared_ptr<ReadInput> input;                       ///< kRead
  /// kRead of files (Pipeline::ReadFiles): what a distributed run cuts into splits; null otherwise.
  std::shared_ptr<const InputFiles> files;
  std::shared_ptr<const DoFn> fn;                         ///< kParDo
  std::vector<std::string> keys;                          ///< kGroupByKey, kCombinePerKey
  std::vector<Aggregate> aggregates;                      ///< kCombine*
  /// kParDo, kFlatten: the windows its rows are in; kGroupByKey, kCombine*: the windows it
  /// groups in (null: none, a batch grouping).
  std::shared_ptr<const Windowing> windowing;
  dataset::SinkOptions sink = dataset::SinkOptions::Defaults();  ///< kWrite of a dataset
  SinkFactory open_sink;  ///< kWrite to another sink (WriteTo): opened per run; null for a dataset
  std::string description;                                ///< one line for plans ("csv labels.csv")
  /// Non-empty for a node of a pipeline built to be planned before its input exists (see
  /// Pipeline::ReadDeferred): why its schema is unknown ("labels.csv: no such file
  /// or directory"). Such a node has no schema, function or sink; its checks wait for the input.
  std::string deferred;
  /// For a deferred node, the id of the deferred read it waits for (its own id for that read).
  int deferred_read = -1;
};

/// A handle on the output of one transform.
class PCollection {
 public:
  PCollection() = default;
  PCollection(Pipeline* pipeline, int node) : pipeline_(pipeline), node_(node) {}
  /// The pipeline it belongs to (nullptr for a default-constructed handle).
  Pipeline* pipeline() const { return pipeline_; }
  /// The producing node's id (-1 when the producing step failed to build).
  int node() const { return node_; }
  /// Its rows' schema (nullptr when the producing step failed to build or is deferred).
  SchemaPtr schema() const;
  /// True when the producing node is deferred (Node::deferred): its schema is not known yet.
  bool deferred() const;

 private:
  Pipeline* pipeline_ = nullptr;
  int node_ = -1;
};

/// Writes a side file (Pipeline::AddSideFile) to `path` on `file_system` from `value`, the value
/// of the node the file is made from.
using SideFileWriter =
    std::function<Status(const SideInputValue& value, FileSystem& file_system, const std::string& path)>;

/// A file a step writes besides its rows (Pipeline::AddSideFile).
struct SideFile {
  std::string path;  ///< where the run commits it
  int node = -1;     ///< the node whose value it is made from
  SideFileWriter write;
};

/// Options of a ParDo step.
struct StepOptions {
  ErrorPolicy on_error;
  /// Side inputs by the name the DoFn looks them up with.
  std::vector<std::pair<std::string, PCollection>> side_inputs;
  /// One line describing the step for plans.
  std::string description;
};

/// A graph of transforms. Build it with the methods below; a step that cannot be built (a
/// missing column, a type error, a duplicate name) records the first such error, which
/// status() returns and which stops planning and running — the graph is checked whole before
/// any data moves.
class Pipeline {
 public:
  /// Reads what `factory` opens; the factory runs once now on file_system(), for the schema, and
  /// the source it opened is the one the first pass reads (see ReadOpened). `on_error` says what happens to
  /// records the source leaves out (a source opened to skip bad records): counted (kSkip) or
  /// written to a dead-letter file; kFail when the source fails on them. `reopenable` false:
  /// the input can be read only once (standard input, a FIFO), the factory never runs again.
  PCollection Read(std::string name, SourceFactory factory, std::string description = "", ErrorPolicy on_error = {},
                   bool reopenable = true);
  /// Read of `files` (InputsFactory of its paths and options), kept on the node (Node::files) so
  /// that a distributed run (recflow.dask) can cut them into splits; otherwise as Read. With
  /// `settled`, the schema an earlier open of the same files gave (a distributed run's driver
  /// passes it to its tasks), and `reopenable`, nothing is opened now: a pass reading the node
  /// opens the files then, and fails (DataError naming the step) when they no longer read with it.
  PCollection ReadFiles(std::string name, InputFiles files, std::string description = "", ErrorPolicy on_error = {},
                        bool reopenable = true, SchemaPtr settled = nullptr);
  /// Reads `source`, already opened on file_system(): the first pass that reads the node on that
  /// file system takes it. `reopen` opens the input again for any other pass (a side input computed first over the same input, a
  /// second run); null when the input can be read only once (standard input, a FIFO), and then
  /// a run that would read it twice fails before reading anything, saying so.
  PCollection ReadOpened(std::string name, std::unique_ptr<Source> source, SourceFactory reopen,
                         std::string description = "", ErrorPolicy on_error = {});
  /// The rows of `batches` (all of `schema`), e.g. for tests.
  PCollection Create(std::string name, SchemaPtr schema, std::vector<std::shared_ptr<RecordBatch>> batches);
  /// Runs `fn` on every batch of `input`.
  PCollection ParDo(std::string name, const PCollection& input, std::shared_ptr<const DoFn> fn,
                    StepOptions options = {});
  /// Per-row function adding `new_fields` (see MakeRowDoFn): Map when it emits one row per
  /// input row, FlatMap when it emits any number.
  PCollection MapRows(std::string name, const PCollection& input, std::vector<FieldPtr> new_fields, RowFunction fn,
                      StepOptions options = {});
  /// Keeps the rows for which `predicate` is true; an error fails only that row.
  PCollection Filter(std::string name, const PCollection& input, std::function<Result<bool>(const RowView&)> predicate,
                     StepOptions options = {});
  /// The rows of every input, in input order; the schemas must be equal.
  PCollection Flatten(std::string name, const std::vector<PCollection>& inputs);
  /// Puts the rows of `input` into the windows `windowing` describes (the rows pass unchanged):
  /// a later GroupByKey or combine groups per key and window. The event-time column must exist
  /// and be an integer, a timestamp or text.
  PCollection Window(std::string name, const PCollection& input, Windowing windowing);
  /// One row per distinct value of the `keys` columns: the keys, then every other column as a
  /// list of its values in input order. Keys appear in order of first appearance. For windowed
  /// rows (Window), one row per fired pane of each key and window, with the window and pane
  /// columns (WindowColumnFields) after the lists; `on_error` says where rows too late for
  /// their window go (dead letters, counted as skipped, or failing the run).
  PCollection GroupByKey(std::string name, const PCollection& input, std::vector<std::string> keys,
                         ErrorPolicy on_error = {});
  /// One row per distinct key: the keys, then one column per aggregate. The combine reads the
  /// earliest PCollection upstream of `input` that has the same rows and the same key and
  /// aggregated columns (see DoFn::WrittenColumns), so it may run in an earlier pass.
  /// Windowed rows: one row per fired pane, as GroupByKey.
  PCollection CombinePerKey(std::string name, const PCollection& input, std::vector<std::string> keys,
                            std::vector<Aggregate> aggregates, ErrorPolicy on_error = {});
  /// One row: one column per aggregate over all rows (read as CombinePerKey reads). Windowed
  /// rows: one row per fired pane, as CombinePerKey with no keys.
  PCollection CombineGlobally(std::string name, const PCollection& input, std::vector<Aggregate> aggregates,
                              ErrorPolicy on_error = {});
  /// Writes `input` as the dataset `options` describes (its format factory, sharding,
  /// partitioning and save mode), committed when the run succeeds.
  void Write(std::string name, const PCollection& input, dataset::SinkOptions options, std::string description = "");
  /// Writes `input` into the sink `open` opens once per run (a message broker's publisher): it
  /// takes the rows as any sink of its stage, is finished and committed after the datasets and
  /// aborted when the run fails.
  void WriteTo(std::string name, const PCollection& input, SinkFactory open, std::string description);

  /// Whether errors name their step ("step 'NAME': ..."; the default). A pipeline whose steps the
  /// user did not write (`recflow convert`'s read → select → write) turns it off so that its
  /// errors read as the command's own; set it before adding steps.
  void set_steps_named_in_errors(bool named) { steps_named_in_errors_ = named; }
  bool steps_named_in_errors() const { return steps_named_in_errors_; }
  /// Marks the pipeline as reading an unbounded input (a directory watch): its runs commit the
  /// writes that take a windowed grouping's panes at each output watermark after which they got
  /// rows (an epoch), not only at the end (see docs/streaming.md, "How an unbounded run commits").
  void set_unbounded() { unbounded_ = true; }
  bool unbounded() const { return unbounded_; }
  /// Marks read step `step` as an unbounded input that acknowledges what it read once the whole run
  /// committed (a broker's consumer): a drain ends it and the run commits at its end, as a bounded
  /// one; it cannot be read again from a checkpoint, so `RunOptions::checkpoint_dir` is refused.
  void add_acknowledged_read(std::string step) { acknowledged_reads_.push_back(std::move(step)); }
  const std::vector<std::string>& acknowledged_reads() const { return acknowledged_reads_; }
  /// True when a drain (SIGINT/SIGTERM) applies: the pipeline reads an unbounded input.
  bool drains() const { return unbounded_ || !acknowledged_reads_.empty(); }
  /// `st` of step `step` as the runner reports it: its code and "step 'STEP': " + its message, or
  /// `st` itself when steps are not named in errors (see set_steps_named_in_errors).
  Status StepStatus(const std::string& step, const Status& st) const;

  /// OK, or the first error met while building.
  const Status& status() const { return status_; }
  /// The nodes, in the order they were added (every node's inputs come before it).
  const std::vector<Node>& nodes() const { return nodes_; }
  /// Node `id`.
  const Node& node(int id) const { return nodes_[static_cast<size_t>(id)]; }

  /// A read whose input does not exist yet (`missing` says so: "labels.csv: no such file or
  /// directory") as a deferred node, so that `recflow plan` can draw a pipeline before an earlier
  /// job has made its input. Steps on it are added with AddDeferred; such a pipeline can be
  /// planned, not run.
  PCollection ReadDeferred(std::string name, SourceFactory factory, std::string description, std::string missing);
  /// Adds a node of `kind` whose input (a main or side input) is deferred: it keeps its place in
  /// the graph and the plan, its schema and checks wait for the input.
  PCollection AddDeferred(std::string name, NodeKind kind, const std::vector<PCollection>& inputs,
                          const std::vector<std::pair<std::string, PCollection>>& side_inputs,
                          std::string description);
  /// True when some node is deferred.
  bool has_deferred() const;

  /// Declares a file a step writes besides its rows (a vocabulary file) as an output of the
  /// run, made from the value of `from` (a node some step takes as a side input): once every
  /// stage ran, the runner calls `write` with that value, the run's file system and
  /// StagedPath(path), and commits the staged file over `path` (dataset::FileCommit) once every
  /// output is committed; it removes it when the run fails or is interrupted (SIGTERM, SIGINT:
  /// dataset::StagingRegistration), so such a run leaves no such file. NotFound when the file's
  /// directory does not exist (the run could not write it).
  Status AddSideFile(std::string path, const PCollection& from, SideFileWriter write);
  /// The files AddSideFile() declared.
  const std::vector<SideFile>& side_files() const { return side_files_; }
  /// Marks the pipeline as having a step that writes files per row through the run
  /// (ProcessContext::run_files: `write_raster`), committed with the run's outputs: a write that
  /// publishes at once (`write_nats`) then holds its messages until they are committed, since a
  /// message may name such a file (see RunPipeline).
  void set_writes_files_per_row() { writes_files_per_row_ = true; }
  bool writes_files_per_row() const { return writes_files_per_row_; }

  /// The file system reads open their input on while the pipeline is built (for its schema):
  /// the one its runs' ExecContext has, so that the first pass reads the source opened then (a
  /// run on another file system opens the input again there). Local unless set; set it before
  /// adding reads.
  void set_file_system(std::shared_ptr<FileSystem> file_system) { file_system_ = std::move(file_system); }
  /// See set_file_system.
  const std::shared_ptr<FileSystem>& file_system() const { return file_system_; }

 private:
  // Adds `node` (its schema and inputs set) unless building already failed or its name is
  // taken; the handle is invalid (node -1) on failure.
  PCollection Add(Node node);
  // Adds a read node of `schema` reading `input` (checks its error policy first).
  PCollection AddRead(std::string name, SchemaPtr schema, std::shared_ptr<ReadInput> input, std::string description,
                      ErrorPolicy on_error);
  // Checks that `input` belongs to this pipeline and built; records an error naming `step`.
  bool CheckInput(const std::string& step, const PCollection& input);
  // The earliest node whose rows are node `id`'s as far as `columns` go: up through ParDos
  // that keep every row and do not write those columns, unless their on_error policy may drop
  // rows.
  int EarliestWithColumns(int id, const std::vector<std::string>& columns) const;
  // The windows of node `id`'s rows (a grouping's output is in none).
  std::shared_ptr<const Windowing> RowWindowing(int id) const;
  // For a grouping `node` of `input`: its windowing, the window and pane fields appended to
  // `fields`, and the event-time column added to `read` (the columns a combine reads); false
  // after recording an error.
  bool WindowGrouping(Node& node, const PCollection& input, std::vector<FieldPtr>* fields,
                      std::vector<std::string>* read);
  // Records `st` (naming step `step`) as the building error unless one came first.
  void Fail(const std::string& step, const Status& st);

  std::vector<Node> nodes_;
  Status status_;
  std::vector<SideFile> side_files_;
  std::shared_ptr<FileSystem> file_system_ = LocalFileSystem::Instance();
  bool steps_named_in_errors_ = true;
  bool unbounded_ = false;
  bool writes_files_per_row_ = false;
  std::vector<std::string> acknowledged_reads_;
};

}  // namespace recflow::pipeline
