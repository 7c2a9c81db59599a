// `recflow serve`: flags → ServeOptions; a Server until a signal, or one pass to a descriptor.
#include "recflow/cli/serve_command.h"

#include <fmt/core.h>
#include <sys/resource.h>

#include "recflow/core/allocator_tuning.h"
#include "recflow/cli/stderr_log.h"
#include "recflow/cli/termination.h"
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

}  // namespace

Status RunServe(const ServeFlags& flags) {
  serve::ServeOptions options = serve::ServeOptions::Defaults();
  options.inputs = flags.inputs;
  ASSIGN_OR_RETURN(options.input_options,
                   dataset::MakeInputOptions(InputSpecOf(flags.source, flags.record_type, /*skip_bad=*/false)));
  options.batch_size = flags.batch_size;
  ASSIGN_OR_RETURN(options.batch_mode, serve::ParseBatchMode(flags.batch_mode));
  options.columns = flags.columns;
  ASSIGN_OR_RETURN(options.standard_scale, ScaledColumns(flags.transforms));
  ASSIGN_OR_RETURN(options.ipc.compression, arrow_ipc::ParseIpcCompression(flags.compression));
  options.client_memory_bytes = flags.client_memory_mb << 20;
  options.connections.max_clients = flags.max_clients;
  options.connections.max_waiting = flags.max_waiting;
  options.connections.wait_timeout_ms = flags.wait_timeout_ms;
  options.connections.send_timeout_ms = flags.send_timeout_ms;
  ASSIGN_OR_RETURN(serve::Endpoint endpoint, serve::ParseEndpoint(flags.listen));
  if (endpoint.kind == serve::Endpoint::Kind::kFd) {
    serve::FdOutputStream out(endpoint.fd, endpoint.ToString(), /*owned=*/false);
    return serve::ServeOnePass(options, &out);
  }
  // Before any thread starts: the first SIGINT or SIGTERM stops the server below, a second one
  // ends the process at once.
  const StopToken stop = HandleTerminationSignals();
  RaiseDescriptorLimit();
  UseOneArena();
  // A stderr nobody reads blocks its lines until a stop signal comes, never the stop itself.
  ASSIGN_OR_RETURN(std::shared_ptr<StderrLog> log, StderrLog::Open());
  options.connections.log = [log](const std::string& line) { log->Write("recflow serve: " + line); };
  ASSIGN_OR_RETURN(auto server, serve::Server::Start(endpoint, std::move(options)));
  log->Write("recflow serve: listening on " + server->endpoint().ToString());
  stop.WaitForStop();
  log->Abandon();
  server->Stop();
  const serve::ServeStats& s = server->stats();
  log->Write(fmt::format("recflow serve: stopped ({} connections, {} full passes, {} dropped, {} refused, {} bytes sent)",
                         s.connections.load(), s.passes.load(), s.dropped.load(), s.refused.load(), s.bytes.load()));
  return Status::OK();
}

}  // namespace recflow::cli
