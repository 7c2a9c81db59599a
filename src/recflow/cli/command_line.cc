// The command-line grammar of `recflow`: every command's options (CLI11, parsed in this file only), then dispatch.
#include "recflow/cli/command_line.h"

#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/core.h>

#include "recflow/cli/cat_command.h"
#include "recflow/cli/convert_command.h"
#include "recflow/cli/dask_runner.h"
#include "recflow/cli/inspect_command.h"
#include "recflow/cli/run_command.h"
#include "recflow/cli/serve_command.h"
#include "recflow/cli/splits_command.h"
#include "recflow/cli/stdout_writer.h"
#include "recflow/cli/termination.h"
#include "recflow/core/printable.h"
#include "recflow/core/spelling.h"
#include "recflow/formats/builtin/builtin_formats.h"

namespace recflow::cli {

namespace {

/// "auto" and every input word of the registered formats.
std::vector<std::string> InputFormatWords() {
  std::vector<std::string> words{"auto"};
  for (std::string_view word : formats::BuiltinFormats().input_words()) words.emplace_back(word);
  return words;
}

/// Every output word of the registered formats.
std::vector<std::string> OutputFormatWords() {
  std::vector<std::string> words;
  for (std::string_view word : formats::BuiltinFormats().output_words()) words.emplace_back(word);
  return words;
}

void AddSourceFlags(CLI::App* c, SourceFlags* f) {
  c->add_option("--from", f->from, "Input format (default: auto, from each input's content, then its suffix)")
      ->check(CLI::IsMember(InputFormatWords()));
  c->add_option("--schema", f->schema_file, "JSON schema file overriding inference");
  c->add_option("--schema-hint", f->schema_hints,
                "NAME:TYPE overriding the inferred type of one column (repeatable or comma-separated)")
      ->delimiter(',');
  c->add_option("--delimiter", f->delimiter, "CSV field delimiter (one character, or 'tab')");
  c->add_option("--quote", f->quote, "CSV quote character");
  c->add_flag("--no-header", f->no_header, "CSV input has no header row (columns _c0, _c1, ...)");
  c->add_option("--null-values", f->null_values,
                "CSV texts read as null besides the empty field (comma-separated; a quoted \"\" is never null)")
      ->delimiter(',');
  c->add_option("--comment", f->comment, "CSV comment line character");
  c->add_option("--block-size", f->block_size, "Input bytes per parallel unit")->check(CLI::PositiveNumber);
  c->add_option("--infer-rows", f->infer_rows, "Records sampled for type inference")->check(CLI::PositiveNumber);
  c->add_option("--max-record-bytes", f->max_record_bytes,
                "TFRecord: the largest record read, and the most decompressed whole into memory (default 1 GiB; "
                "suffixes K, M, G)")
      ->transform(CLI::AsSizeValue(/*kb_is_1000=*/false));
}

void AddInputFlags(CLI::App* command, InputFlags* flags, bool required = true) {
  command->add_option("PATH", flags->paths, "Files, directories or globs ('-' = stdin)")->required(required);
  command->add_option("--record-type", flags->record_type, "What each record holds")
      ->check(CLI::IsMember({"example", "sequence-example", "sequence_example", "bytes"}))
      ->capture_default_str();
  command->add_option("--compression", flags->compression, "Input compression (auto: detected from its first bytes)")
      ->check(CLI::IsMember({"auto", "none", "gzip", "zlib"}))
      ->capture_default_str();
  command->add_flag("--no-verify", flags->no_verify, "Do not check record data CRCs");
  command->add_flag("--skip-corrupt", flags->skip_corrupt,
                    "Warn about corrupt records, skip them and go on (counted at the end)");
}

CLI::App* AddInspectCommand(CLI::App* app, InspectFlags* flags) {
  CLI::App* cmd = app->add_subcommand(
      "inspect", "Report records, bytes, compression, the inferred schema and per-feature statistics");
  AddInputFlags(cmd, &flags->inputs);
  AddSourceFlags(cmd, &flags->source);
  cmd->add_flag("--json", flags->json, "Print one JSON object instead of tables");
  cmd->add_option("--config", flags->config,
                  "A GDAL configuration option for raster inputs (KEY=VALUE, repeatable; as read_raster's config)")
      ->take_all()
      ->allow_extra_args(false);
  return cmd;
}

/// True when the arguments name splits (--split, --splits-from): the inputs are then optional.
/// Only then: a required positional keeps CLI11 from giving it to a list option before it
/// (`cat --null-values NA rows.csv`).
bool ReadsSplits(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--") break;
    if (arg == "--split" || arg == "--splits-from" || arg.starts_with("--split=") ||
        arg.starts_with("--splits-from=")) {
      return true;
    }
  }
  return false;
}

void AddSplitFlags(CLI::App* command, SplitFlags* flags) {
  command->add_option("--split", flags->splits,
                      "Read only this split (a JSON line `recflow splits` printed) instead of inputs; repeatable");
  command->add_option("--splits-from", flags->splits_from,
                      "Read only the splits in this file (one JSON line each, as `recflow splits` prints; '-' = stdin)");
}

CLI::App* AddSplitsCommand(CLI::App* app, SplitsFlags* flags) {
  CLI::App* cmd = app->add_subcommand(
      "splits", "Print the inputs cut into splits, one JSON line each, for other processes to read with --split");
  AddInputFlags(cmd, &flags->inputs);
  AddSourceFlags(cmd, &flags->source);
  cmd->add_option("--split-size", flags->split_size, "About this many bytes per split (suffixes K, M, G)")
      ->transform(CLI::AsSizeValue(/*kb_is_1000=*/false))
      ->check(CLI::PositiveNumber);
  cmd->footer(
      "A split is a byte range of one file (a record-batch range of an Arrow IPC file) that owns the "
      "records starting inside it; `recflow cat --split` and `recflow convert --split` (or "
      "--splits-from FILE) read exactly those, in any process and any order. A compressed file or "
      "an Arrow IPC stream is one split. A split records the file's size and modification time: "
      "opened after the file changed it fails. CSV splits begin at row starts found by reading "
      "the file once here (a quoted field may hold a newline). See docs/formats/datasets.md.");
  return cmd;
}

CLI::App* AddCatCommand(CLI::App* app, CatFlags* flags, bool reads_splits) {
  CLI::App* cmd = app->add_subcommand("cat", "Print records as JSON Lines (one object per record)");
  AddInputFlags(cmd, &flags->inputs, /*required=*/!reads_splits);
  AddSourceFlags(cmd, &flags->source);
  AddSplitFlags(cmd, &flags->splits);
  cmd->add_option("-n,--limit", flags->limit, "Print at most N records")->check(CLI::NonNegativeNumber);
  cmd->add_flag("--infer-all", flags->infer_all,
                fmt::format("TFRecord: infer the schema from every record (default: {} spread over the "
                            "inputs); other formats infer from --infer-rows rows",
                            kInferenceSample));
  cmd->footer(
      "Values follow the inferred schema: scalars for scalar columns, arrays for lists, null for "
      "missing features. Floats print in the shortest form that round-trips; NaN and infinities as "
      "the strings \"NaN\", \"Infinity\", \"-Infinity\". Bytes print as UTF-8 strings when valid, "
      "else as {\"$base64\": \"...\"}. SequenceExample records print as "
      "{\"context\": {...}, \"feature_lists\": {...}}. Each input's format is recognised by its "
      "content (then its suffix; --from overrides); CSV, JSON Lines, Avro and Arrow inputs and "
      "Hive-partitioned directories are read as convert reads them, partition columns included. On a "
      "fault the records before it are printed, then the fault is reported.");
  return cmd;
}

CLI::App* AddConvertCommand(CLI::App* app, ConvertFlags* f, bool reads_splits) {
  CLI::App* c = app->add_subcommand("convert", "Convert CSV, JSON Lines, Avro, TFRecord or Arrow into a sharded, partitioned dataset");
  c->add_option("INPUT", f->inputs, "Files, directories or globs ('-' = stdin)")->required(!reads_splits);
  AddSplitFlags(c, &f->splits);
  c->add_option("-o,--output", f->output, "Output dataset directory")->required();
  c->add_option("--to", f->to, "Output format (arrow: IPC streams; feather: IPC files)")
      ->check(CLI::IsMember(OutputFormatWords()));
  c->add_option("--record-type", f->record_type, "TFRecord payload, in and out")
      ->check(CLI::IsMember({"example", "sequence-example", "sequence_example", "bytes"}));
  c->add_option("--decimals", f->decimals,
                "TFRecord: decimal columns as exact text (string, the default) or the nearest float")
      ->check(CLI::IsMember({"string", "float"}));
  c->add_option("--compression", f->compression,
                "Output compression: whole files (gzip, zlib) or, for arrow/feather, bodies (lz4, zstd)")
      ->check(CLI::IsMember({"none", "gzip", "zlib", "lz4", "zstd"}));
  c->add_option("--level", f->level, "gzip/zlib level 0..9: 1-2 ISA-L, 0 and 3-9 zlib (-1 = default, 2)")->check(CLI::Range(-1, 9));
  c->add_option("--shards", f->shards, "Files per partition (0: one, or as many as --max-*-per-shard start)")
      ->check(CLI::NonNegativeNumber);
  c->add_option("--max-records-per-shard", f->max_records_per_shard, "Start a new file after N records (0: no limit)")
      ->check(CLI::NonNegativeNumber);
  c->add_option("--max-bytes-per-shard", f->max_bytes_per_shard, "Start a new file before N uncompressed bytes (0: no limit)")
      ->check(CLI::NonNegativeNumber);
  c->add_option("--naming", f->naming, "Shard names: beam (part-00000-of-00004) or spark (part-00000-<uuid>-c000)")
      ->check(CLI::IsMember({"beam", "spark"}));
  c->add_option("--prefix", f->prefix, "Shard file name prefix");
  c->add_option("--partition-by", f->partition_by, "Columns that become key=value/ directories")->delimiter(',');
  c->add_option("--mode", f->mode, "When the output exists")
      ->check(CLI::IsMember({"error", "overwrite", "append", "overwrite-partitions"}));
  c->add_option("--select", f->select, "Columns to keep, in order")->delimiter(',');
  c->add_option("--threads", f->threads, "Worker threads (0: all cores)")->check(CLI::NonNegativeNumber);
  c->add_flag("--json", f->json, "Print the summary as JSON on stdout");
  c->add_flag("--no-progress", f->no_progress, "No progress bar even on a terminal");
  c->add_flag("--no-sync", f->no_sync, "Do not fsync at commit (survives a crash, not a power loss)");
  AddSourceFlags(c, &f->source);
  c->add_option("--bad-rows", f->bad_rows, "fail, skip, or file:PATH (skip and write them as JSON Lines)");
  return c;
}

CLI::App* AddServeCommand(CLI::App* app, ServeFlags* f) {
  CLI::App* c = app->add_subcommand(
      "serve", "Serve the inputs, or a pipeline's output, as Arrow IPC streams: one full pass per connection");
  c->add_option("INPUT", f->inputs,
                "Files, directories or globs of any format recflow reads; or one pipeline file (.yaml), run anew "
                "for each connection")
      ->required();
  c->add_option("--output", f->output, "The pipeline step to serve (default: its one step nothing reads)");
  c->add_option("--set", f->set, "Override a pipeline parameter (KEY=VALUE, repeatable)");
  c->add_option("--threads", f->threads, "Worker threads of each pipeline run (0 = all cores)")
      ->check(CLI::NonNegativeNumber);
  c->add_option("--listen", f->listen, "tcp://HOST:PORT, HOST:PORT, [::1]:PORT, unix:///PATH, fd://N or - (stdout)")
      ->required();
  c->add_option("--batch-size", f->batch_size, "Rows per batch")->check(CLI::PositiveNumber)->capture_default_str();
  c->add_option("--batch-mode", f->batch_mode, "keep_remainder, drop_remainder or auto (batches as they come)")
      ->check(CLI::IsMember({"keep_remainder", "drop_remainder", "auto"}))
      ->capture_default_str();
  c->add_option("--columns", f->columns, "Columns to serve, in order")->delimiter(',');
  c->add_option("--transform", f->transforms, "standard-scale:COL[,COL...] (fitted over a first pass)");
  c->add_option("--compression", f->compression, "Body compression of the streams")
      ->check(CLI::IsMember({"none", "lz4", "zstd"}))
      ->capture_default_str();
  c->add_option("--max-clients", f->max_clients, "Concurrent passes; more connections wait for one")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  c->add_option("--max-waiting", f->max_waiting, "Connections that may wait for a pass; more are refused")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  c->add_option("--wait-timeout-ms", f->wait_timeout_ms, "Refuse a connection that waited this long for a pass")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  c->add_option("--send-timeout-ms", f->send_timeout_ms, "Drop a client that takes no byte for this long")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  c->add_option("--client-memory-mb", f->client_memory_mb,
                "MiB one pass may hold (decoded unit, rows of the next batch, send buffer)")
      ->check(CLI::Range(int64_t{1}, int64_t{1} << 20))
      ->capture_default_str();
  c->add_option("--record-type", f->record_type, "TFRecord payload")
      ->check(CLI::IsMember({"example", "sequence-example", "sequence_example", "bytes"}));
  AddSourceFlags(c, &f->source);
  return c;
}

void AddCommonFlags(CLI::App* c, RunFlags* f) {
  c->add_option("pipeline", f->pipeline, "Pipeline YAML file")->required();
  c->add_option("--set", f->set, "Override a pipeline parameter (KEY=VALUE, repeatable)");
}

CLI::App* AddRunCommand(CLI::App* app, RunFlags* f) {
  CLI::App* c = app->add_subcommand("run", "Run a pipeline written in YAML");
  AddCommonFlags(c, f);
  c->add_option("--threads", f->threads, "Worker threads (0 = all cores)")->check(CLI::NonNegativeNumber);
  c->add_option("--metrics", f->metrics_file, "Write the per-step metrics as JSON to this file");
  c->add_flag("--quiet", f->quiet, "Do not print the metrics table");
  c->add_option("--stop-after-idle", f->stop_after_idle,
                "Drain and end once an unbounded input (watch) saw nothing new for this many seconds "
                "(for the reads that state no stop_after_idle of their own; -1 = never)")
      ->check(CLI::NonNegativeNumber);
  c->add_option("--checkpoint", f->checkpoint,
                "Unbounded run: save the window state and the input's position in this directory at each epoch "
                "commit, and resume from the checkpoint found there");
  c->add_option("--checkpoint-interval", f->checkpoint_interval,
                "Seconds at least between two checkpoints (0 = at every epoch commit)")
      ->check(CLI::NonNegativeNumber);
  c->add_option("--runner", f->runner, "local, or dask: on the Dask cluster of --scheduler (python3 -m recflow.dask)")
      ->check(CLI::IsMember({"local", "dask"}));
  c->add_option("--scheduler", f->scheduler, "--runner dask: the Dask scheduler's address, tcp://HOST:PORT");
  c->add_option("--split-bytes", f->split_bytes, "--runner dask: bytes per task (0 = from the input sizes)")
      ->check(CLI::NonNegativeNumber);
  c->add_option("--partitions", f->partitions,
                "--runner dask: partitions of each grouping's exchange (0 = from the input sizes)")
      ->check(CLI::NonNegativeNumber);
  return c;
}

CLI::App* AddPlanCommand(CLI::App* app, RunFlags* f) {
  CLI::App* c = app->add_subcommand("plan", "Check a YAML pipeline and print its stages");
  AddCommonFlags(c, f);
  c->add_flag("--dot", f->dot, "Print the graph in Graphviz dot");
  return c;
}

CLI::App* AddStepsCommand(CLI::App* app) {
  return app->add_subcommand("steps", "List the ops a YAML pipeline can use, with their main argument");
}

constexpr int kExitOk = 0;
constexpr int kExitError = 1;
constexpr int kExitUsage = 2;

/// Makes --help show the default of every single-valued option of `app` and its commands
/// (`--mode TEXT=error`); flags and lists, whose defaults say nothing, are left out.
void ShowDefaults(CLI::App* app) {
  for (CLI::Option* option : app->get_options()) {
    if (option->get_type_size() > 0 && option->get_items_expected_max() == 1) option->capture_default_str();
  }
  for (CLI::App* sub : app->get_subcommands([](const CLI::App*) { return true; })) ShowDefaults(sub);
}

/// When the first argument is meant as a command but names none, the message (with the command
/// it most likely meant); "" otherwise. CLI11 alone would say "A subcommand is required".
std::string UnknownCommandMessage(const CLI::App& app, int argc, char** argv) {
  if (argc < 2 || argv[1][0] == '-') return "";
  const std::string word = argv[1];
  std::vector<std::string> names;
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) {
    if (sub->get_name() == word) return "";
    names.push_back(sub->get_name());
  }
  const std::string closest = ClosestName(word, names);
  std::string message = "unknown command '" + word + "'";
  if (!closest.empty()) message += "; did you mean '" + closest + "'?";
  std::string all;
  for (const std::string& name : names) all += (all.empty() ? "" : ", ") + name;
  return message + " (commands: " + all + "; recflow --help)";
}

}  // namespace

int RunCommandLine(int argc, char** argv) {
  CLI::App app{"recflow: builds and feeds ML training data (TFRecord, tf.Example, Arrow)", "recflow"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "recflow 0.1.0");
  InspectFlags inspect_flags;
  CatFlags cat_flags;
  ConvertFlags convert_flags;
  ServeFlags serve_flags;
  RunFlags run_flags;
  CLI::App* inspect = AddInspectCommand(&app, &inspect_flags);
  const bool reads_splits = ReadsSplits(argc, argv);
  CLI::App* cat = AddCatCommand(&app, &cat_flags, reads_splits);
  SplitsFlags splits_flags;
  CLI::App* splits = AddSplitsCommand(&app, &splits_flags);
  CLI::App* convert = AddConvertCommand(&app, &convert_flags, reads_splits);
  CLI::App* serve = AddServeCommand(&app, &serve_flags);
  CLI::App* run = AddRunCommand(&app, &run_flags);
  CLI::App* plan = AddPlanCommand(&app, &run_flags);
  CLI::App* steps = AddStepsCommand(&app);
  ShowDefaults(&app);
  if (const std::string unknown = UnknownCommandMessage(app, argc, argv); !unknown.empty()) {
    fmt::print(stderr, "recflow: {}\n", unknown);
    return kExitUsage;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // --help and --version are "errors" with exit code 0; CLI11 prints them itself.
    const int code = app.exit(e);
    return code == 0 ? kExitOk : kExitUsage;
  }

  IgnoreSigpipe();
  StdoutWriter out;
  Status st;
  ExecContext context;
  if (inspect->parsed()) {
    st = RunInspect(inspect_flags, &out);
  } else if (cat->parsed()) {
    st = RunCat(cat_flags, &out);
  } else if (splits->parsed()) {
    st = RunSplits(splits_flags, &out);
  } else if (convert->parsed()) {
    context.stop_token = HandleTerminationSignals().stop;
    context.threads = convert_flags.threads;
    st = RunConvert(context, convert_flags, &out);
  } else if (serve->parsed()) {
    st = RunServe(serve_flags);
  } else if (run->parsed() && run_flags.runner == "local" &&
             (!run_flags.scheduler.empty() || run_flags.split_bytes > 0 || run_flags.partitions > 0)) {
    st = Status::InvalidArgument("--scheduler, --split-bytes and --partitions are options of --runner dask");
  } else if (run->parsed() && run_flags.runner == "dask" &&
             (!run_flags.checkpoint.empty() || run_flags.stop_after_idle >= 0)) {
    st = Status::InvalidArgument("--checkpoint and --stop-after-idle are options of unbounded local runs, not of "
                                 "--runner dask (it runs bounded pipelines)");
  } else if (run->parsed() && run_flags.runner == "dask") {
    st = ExecDaskRun(run_flags);  // returns only when python3 could not be started
  } else if (run->parsed()) {
    const TerminationTokens termination = HandleTerminationSignals();
    context.stop_token = termination.stop;
    context.drain_token = termination.drain;
    context.threads = run_flags.threads;
    st = RunPipelineCommand(context, run_flags, termination.drain_first.get());
  } else if (plan->parsed()) {
    st = RunPlanCommand(run_flags, &out);
  } else if (steps->parsed()) {
    st = RunStepsCommand(&out);
  }
  if (st.ok()) st = out.Flush();
  if (!st.ok()) {
    fmt::print(stderr, "recflow: {}\n", PrintableText(st.ToString()));
    // A command stopped by a signal (whatever error its stop surfaced as) exits as one would.
    if (context.stop_token.signal() > 0) return 128 + context.stop_token.signal();
    return st.code() == StatusCode::kInvalidArgument ? kExitUsage : kExitError;
  }
  return kExitOk;
}

}  // namespace recflow::cli
