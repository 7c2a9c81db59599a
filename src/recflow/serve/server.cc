// Server: a pass (MakeFilesPass, or any stream function) served by a ConnectionServer; ServeOnePass: one pass.
#include "recflow/serve/server.h"

#include "recflow/serve/files_pass.h"

namespace recflow::serve {

Result<std::unique_ptr<Server>> Server::Start(const Endpoint& endpoint, ServeOptions options) {
  const ConnectionOptions connections = options.connections;
  ASSIGN_OR_RETURN(std::shared_ptr<const PipelinePass> pass, MakeFilesPass(options, ExecContext::Defaults()));
  return Start(endpoint, connections, [pass](OutputStream* out) { return pass->Stream(out); });
}

Result<std::unique_ptr<Server>> Server::Start(const Endpoint& endpoint, const ConnectionOptions& connections,
                                              StreamFunction stream) {
  ASSIGN_OR_RETURN(auto server, ConnectionServer::Start(endpoint, connections, std::move(stream)));
  return std::unique_ptr<Server>(new Server(std::move(server)));
}

Status ServeOnePass(const ServeOptions& options, OutputStream* out) {
  ASSIGN_OR_RETURN(std::shared_ptr<const PipelinePass> pass, MakeFilesPass(options, ExecContext::Defaults()));
  return pass->Stream(out);
}

}  // namespace recflow::serve
