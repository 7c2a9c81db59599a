// `recflow serve`: flags → the stream of a pass over input files or of a pipeline run; a Server until a signal, or
// one stream to a descriptor.
#include "recflow/cli/serve_command.h"

#include <fmt/core.h>
#include <sys/resource.h>

#include "recflow/cli/pipeline_file.h"
#include "recflow/core/allocator_tuning.h"
#include "recflow/cli/stderr_log.h"
#include "recflow/cli/termination.h"
#include "recflow/serve/files_pass.h"
#include "recflow/serve/pipeline_pass.h"
#include "recflow/serve/server.h"
#include "recflow/serve/socket_stream.h"

namespace recflow::cli {

namespace {

/// Parses `standard-scale:a,b` transforms into the columns to scale.
Result<std::vector<std::string>> ScaledColumns(const std::vector<std::string>& transforms) {
  std::vector<std::string> columns;
  for (const std::string& t : transforms) {
    constexpr std::string_view kPrefix = "standard-scale:";
    if (!t.starts_with(kPrefix) || t.size() == kPrefix.size()) {
      return Status::InvalidArgument("unknown transform '" + t + "' (standard-scale:COL[,COL...])");
    }
    std::string_view rest = std::string_view(t).substr(kPrefix.size());
    while (!rest.empty()) {
      const size_t comma = std::min(rest.find(','), rest.size());
      columns.emplace_back(rest.substr(0, comma));
      rest.remove_prefix(std::min(comma + 1, rest.size()));
    }
  }
  return columns;
}

/// Lets the server hold as many connections as the system allows: the soft limit on open
/// descriptors (often 1024) is raised to the hard one.
void RaiseDescriptorLimit() {
  rlimit limit{};
  if (::getrlimit(RLIMIT_NOFILE, &limit) != 0 || limit.rlim_cur >= limit.rlim_max) return;
  limit.rlim_cur = limit.rlim_max;
  ::setrlimit(RLIMIT_NOFILE, &limit);
}

/// What every pass of `flags` writes: batches, compression and the client memory cap.
Result<serve::PassOptions> PassOptionsOf(const ServeFlags& flags) {
  serve::PassOptions pass;
  pass.stream.batch_rows = flags.batch_size;
  ASSIGN_OR_RETURN(pass.stream.batch_mode, ParseBatchMode(flags.batch_mode));
  ASSIGN_OR_RETURN(pass.stream.ipc.compression, arrow_ipc::ParseIpcCompression(flags.compression));
  pass.client_memory_bytes = flags.client_memory_mb << 20;
  return pass;
}

/// The pass of the input files (FILES...): read, select the columns, scale (fitted once, here).
Result<std::shared_ptr<const serve::PipelinePass>> FilesPass(const ServeFlags& flags, const ExecContext& context) {
  if (!flags.output.empty() || !flags.set.empty()) {
    return Status::InvalidArgument("--output and --set choose a step and parameters of a pipeline file (.yaml)");
  }
  serve::ServeOptions options = serve::ServeOptions::Defaults();
  options.inputs = flags.inputs;
  ASSIGN_OR_RETURN(options.input_options,
                   dataset::MakeInputOptions(InputSpecOf(flags.source, flags.record_type, /*skip_bad=*/false),
                                             context.file_system));
  ASSIGN_OR_RETURN(const serve::PassOptions pass, PassOptionsOf(flags));
  options.batch_size = pass.stream.batch_rows;
  options.batch_mode = pass.stream.batch_mode;
  options.ipc = pass.stream.ipc;
  options.client_memory_bytes = pass.client_memory_bytes;
  options.columns = flags.columns;
  ASSIGN_OR_RETURN(options.standard_scale, ScaledColumns(flags.transforms));
  return serve::MakeFilesPass(options, context);
}

/// The pass of the pipeline file flags.inputs[0]: its step --output (or its one unread step).
Result<std::shared_ptr<const serve::PipelinePass>> PipelineFilePass(const ServeFlags& flags,
                                                                    const ExecContext& context) {
  if (flags.inputs.size() != 1) return Status::InvalidArgument("serve takes one pipeline file, or input files");
  if (!flags.columns.empty() || !flags.transforms.empty()) {
    return Status::InvalidArgument("--columns and --transform apply to input files; a pipeline says it with its "
                                   "select and standard_scale steps");
  }
  pipeline::YamlLoadOptions load;
  load.file_system = context.file_system;
  ASSIGN_OR_RETURN(pipeline::YamlPipeline loaded, LoadPipelineFile(flags.inputs[0], flags.set, load));
  ASSIGN_OR_RETURN(const serve::PassOptions pass, PassOptionsOf(flags));
  return serve::PipelinePass::Make(std::move(loaded.pipeline), flags.output, pass, context);
}

/// The pass `flags` ask for, its runs executing with --threads.
Result<std::shared_ptr<const serve::PipelinePass>> MakePass(const ServeFlags& flags) {
  ExecContext context;
  context.threads = flags.threads;
  return flags.inputs.size() == 1 && IsPipelineFile(flags.inputs[0]) ? PipelineFilePass(flags, context)
                                                                      : FilesPass(flags, context);
}

}  // namespace

Status RunServe(const ServeFlags& flags) {
  ASSIGN_OR_RETURN(serve::Endpoint endpoint, serve::ParseEndpoint(flags.listen));
  if (endpoint.kind == serve::Endpoint::Kind::kFd) {
    ASSIGN_OR_RETURN(auto pass, MakePass(flags));
    serve::FdOutputStream out(endpoint.fd, endpoint.ToString(), /*owned=*/false);
    return pass->Stream(&out);
  }
  // Before any thread starts: the first SIGINT or SIGTERM stops the server below (and the
  // runs in flight), a second one ends the process at once.
  const StopToken stop = HandleTerminationSignals().stop;
  ASSIGN_OR_RETURN(auto pass, MakePass(flags));
  serve::ConnectionOptions connections;
  connections.max_clients = flags.max_clients;
  connections.max_waiting = flags.max_waiting;
  connections.wait_timeout_ms = flags.wait_timeout_ms;
  connections.send_timeout_ms = flags.send_timeout_ms;
  RaiseDescriptorLimit();
  UseOneArena();
  // A stderr nobody reads blocks its lines until a stop signal comes, never the stop itself.
  ASSIGN_OR_RETURN(std::shared_ptr<StderrLog> log, StderrLog::Open());
  connections.log = [log](const std::string& line) { log->Write("recflow serve: " + line); };
  ASSIGN_OR_RETURN(auto server, serve::Server::Start(endpoint, connections,
                                                    [pass](OutputStream* out) { return pass->Stream(out); }));
  log->Write("recflow serve: listening on " + server->endpoint().ToString());
  if (IsPipelineFile(flags.inputs[0])) {
    log->Write("recflow serve: each connection runs " + flags.inputs[0] + " and gets step '" + pass->step() + "'");
  }
  stop.WaitForStop();
  log->Abandon();
  pass->StopRuns(stop.signal());
  server->Stop();
  const serve::ServeStats& s = server->stats();
  log->Write(fmt::format("recflow serve: stopped ({} connections, {} full passes, {} dropped, {} refused, {} bytes sent)",
                         s.connections.load(), s.passes.load(), s.dropped.load(), s.refused.load(), s.bytes.load()));
  return Status::OK();
}

}  // namespace recflow::cli
