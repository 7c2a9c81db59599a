// Server: a PassPlan served by a ConnectionServer; ServeOnePass: one pass of a PassPlan.
#include "recflow/serve/server.h"

#include "recflow/serve/pass.h"

namespace recflow::serve {

Result<std::unique_ptr<Server>> Server::Start(const Endpoint& endpoint, ServeOptions options) {
  const ConnectionOptions connections = options.connections;
  ASSIGN_OR_RETURN(std::shared_ptr<const PassPlan> plan, PassPlan::Make(std::move(options)));
  return Start(endpoint, connections, [plan](OutputStream* out) { return plan->Stream(out); });
}

Result<std::unique_ptr<Server>> Server::Start(const Endpoint& endpoint, const ConnectionOptions& connections,
                                              StreamFunction stream) {
  ASSIGN_OR_RETURN(auto server, ConnectionServer::Start(endpoint, connections, std::move(stream)));
  return std::unique_ptr<Server>(new Server(std::move(server)));
}

Status ServeOnePass(const ServeOptions& options, OutputStream* out) {
  ASSIGN_OR_RETURN(std::shared_ptr<const PassPlan> plan, PassPlan::Make(options));
  return plan->Stream(out);
}

}  // namespace recflow::serve
