// StreamClient: a socket, a FileInputStream over it, and an IpcStreamReader; a refusal becomes an error.
#include "recflow/serve/stream_client.h"

#include "recflow/core/io.h"
#include "recflow/serve/endpoint.h"
#include "recflow/serve/refusal.h"

namespace recflow::serve {

Result<std::unique_ptr<StreamClient>> StreamClient::Connect(std::string_view endpoint) {
  ASSIGN_OR_RETURN(Endpoint parsed, ParseEndpoint(endpoint));
  ASSIGN_OR_RETURN(int fd, serve::Connect(parsed));
  std::unique_ptr<InputStream> in = FileInputStream::FromFd(fd, parsed.ToString(), /*owned=*/true);
  ASSIGN_OR_RETURN(auto reader, arrow_ipc::IpcStreamReader::Open(std::move(in)));
  RETURN_NOT_OK(RefusalOf(*reader->schema(), parsed.ToString()));
  return std::unique_ptr<StreamClient>(new StreamClient(std::move(reader)));
}

}  // namespace recflow::serve
