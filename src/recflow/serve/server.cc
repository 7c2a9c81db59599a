// Server: the pass (inputs → columns → scale → rebatch → IPC), the accept loop and client threads.
#include "recflow/serve/server.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <list>
#include <mutex>
#include <thread>

#include "recflow/serve/socket_stream.h"
#include "recflow/serve/standard_scaler.h"

namespace recflow::serve {

namespace {

/// One pass over the inputs: decoded batches (units in order), the chosen columns.
class Pass {
 public:
  static Result<std::unique_ptr<Pass>> Open(const ServeOptions& options) {
    auto pass = std::unique_ptr<Pass>(new Pass());
    ASSIGN_OR_RETURN(pass->source_, pipeline::OpenInputs(options.inputs, options.input_options));
    const Schema& schema = *pass->source_->schema();
    std::vector<FieldPtr> fields;
    for (const std::string& name : options.columns) {
      const int index = schema.GetFieldIndex(name);
      if (index < 0) return Status::InvalidArgument("no column '" + name + "' in " + schema.ToString());
      pass->projection_.push_back(index);
      fields.push_back(schema.field(index));
    }
    pass->schema_ = options.columns.empty() ? pass->source_->schema() : Schema::Make(std::move(fields));
    return pass;
  }

  const SchemaPtr& schema() const { return schema_; }

  /// The next non-empty batch of the pass, or nullptr at its end.
  Result<std::shared_ptr<RecordBatch>> Next() {
    while (true) {
      ASSIGN_OR_RETURN(std::unique_ptr<SourceUnit> unit, source_->NextUnit());
      if (unit == nullptr) return std::shared_ptr<RecordBatch>();
      ASSIGN_OR_RETURN(DecodedUnit decoded, unit->Decode());
      if (decoded.batch->num_rows() == 0) continue;
      if (projection_.empty()) return decoded.batch;
      std::vector<std::shared_ptr<ArrayData>> columns;
      for (int index : projection_) columns.push_back(decoded.batch->column_data(index));
      return RecordBatch::Make(schema_, decoded.batch->num_rows(), std::move(columns));
    }
  }

 private:
  std::unique_ptr<Source> source_;
  std::vector<int> projection_;
  SchemaPtr schema_;
};

/// Fits the scaler over a first pass (nullptr when nothing is to be scaled).
Result<std::shared_ptr<const StandardScaler>> FitScaler(const ServeOptions& options) {
  if (options.standard_scale.empty()) return std::shared_ptr<const StandardScaler>();
  ASSIGN_OR_RETURN(auto pass, Pass::Open(options));
  ASSIGN_OR_RETURN(auto scaler, StandardScaler::Fit(*pass->schema(), options.standard_scale, [&] { return pass->Next(); }));
  return std::shared_ptr<const StandardScaler>(std::move(scaler));
}

/// Streams one pass to `out` with a fitted (or no) scaler.
Status StreamPass(const ServeOptions& options, const StandardScaler* scaler, OutputStream* out) {
  ASSIGN_OR_RETURN(auto pass, Pass::Open(options));
  const SchemaPtr schema = scaler != nullptr ? scaler->output_schema() : pass->schema();
  ASSIGN_OR_RETURN(auto writer, arrow_ipc::IpcWriter::OpenStream(out, schema, options.ipc));
  Rebatcher rebatcher(options.batch_size, options.batch_mode);
  while (true) {
    ASSIGN_OR_RETURN(std::shared_ptr<RecordBatch> batch, pass->Next());
    if (batch == nullptr) break;
    if (scaler != nullptr) {
      ASSIGN_OR_RETURN(batch, scaler->Apply(*batch));
    }
    ASSIGN_OR_RETURN(auto ready, rebatcher.Add(std::move(batch)));
    for (const auto& b : ready) RETURN_NOT_OK(writer->Write(*b));
  }
  ASSIGN_OR_RETURN(auto rest, rebatcher.Finish());
  for (const auto& b : rest) RETURN_NOT_OK(writer->Write(*b));
  return writer->Finish();  // which flushes
}

}  // namespace

Status ServeOptions::Validate() const {
  if (batch_mode != BatchMode::kAuto && batch_size < 1) return Status::InvalidArgument("batch size must be at least 1");
  if (max_clients < 1) return Status::InvalidArgument("max_clients must be at least 1");
  if (inputs.empty()) return Status::InvalidArgument("nothing to serve");
  return ipc.Validate();
}

Status ServeOnePass(const ServeOptions& options, OutputStream* out) {
  RETURN_NOT_OK(options.Validate());
  ASSIGN_OR_RETURN(auto scaler, FitScaler(options));
  return StreamPass(options, scaler.get(), out);
}

struct Server::Impl {
  ServeOptions options;
  std::shared_ptr<const StandardScaler> scaler;
  Endpoint endpoint;
  int listen_fd = -1;
  int wake[2] = {-1, -1};  // a pipe: writing wakes the accept loop to stop
  std::thread acceptor;
  ServeStats stats;
  std::mutex mutex;
  struct Client {
    int fd;
    std::thread thread;
    bool done = false;
  };
  std::list<Client> clients;  // guarded by mutex
  bool stopping = false;      // guarded by mutex

  void Log(const std::string& line) const {
    if (options.log) options.log(line);
  }

  /// One connection: the pass, then the end of the connection, then the log line. The socket
  /// is closed before anything can block (a log line to a full stderr pipe, the lock), so the
  /// client reads EOF right after the end-of-stream marker.
  void Serve(Client* client, int64_t number) {
    const std::string name = "client " + std::to_string(number);
    Status st;
    int64_t sent;
    {
      FdOutputStream out(client->fd, name, /*owned=*/false, options.send_timeout_ms);
      st = StreamPass(options, scaler.get(), &out);
      sent = out.position();
    }  // the stream is done with the descriptor (nothing gathered left) before it is closed
    stats.bytes += sent;
    ++(st.ok() ? stats.passes : stats.dropped);
    EndConnection(client);
    if (st.ok()) {
      Log(name + ": pass complete, " + std::to_string(sent) + " bytes");
    } else {
      Log(name + ": dropped after " + std::to_string(sent) + " bytes: " + st.ToString());
    }
    std::lock_guard<std::mutex> lock(mutex);
    client->done = true;
  }

  /// Sends FIN after the last byte, discards what the client sent (closing a socket with unread
  /// input sends RST, which would throw away the unsent tail of the stream) and closes it.
  void EndConnection(Client* client) {
    ::shutdown(client->fd, SHUT_WR);
    char sink[16384];
    for (int i = 0; i < 64 && ::recv(client->fd, sink, sizeof(sink), MSG_DONTWAIT) > 0; ++i) {
    }
    std::lock_guard<std::mutex> lock(mutex);  // Stop() shuts down the fds it sees, never a closed one
    ::close(client->fd);
    client->fd = -1;
  }

  /// Joins the threads of finished clients (under the lock).
  void Reap() {
    for (auto it = clients.begin(); it != clients.end();) {
      if (it->done) {
        it->thread.join();
        it = clients.erase(it);
      } else {
        ++it;
      }
    }
  }

  /// Accepts until woken by Stop(). Never logs under the lock: a blocked log must not keep a
  /// finishing client from closing its connection.
  void AcceptLoop() {
    int64_t number = 0;
    while (true) {
      pollfd fds[2] = {{listen_fd, POLLIN, 0}, {wake[0], POLLIN, 0}};
      if (::poll(fds, 2, 1000) < 0 && errno != EINTR) break;
      if (fds[1].revents != 0) break;
      bool full;
      {
        std::lock_guard<std::mutex> lock(mutex);
        Reap();
        full = static_cast<int>(clients.size()) >= options.max_clients;
      }
      if ((fds[0].revents & POLLIN) == 0) continue;
      const int fd = ::accept4(listen_fd, nullptr, nullptr, SOCK_CLOEXEC);
      if (fd < 0) continue;
      ++stats.connections;
      ++number;
      if (full) {  // only this thread adds clients, so the count has not grown since
        ++stats.dropped;
        ::close(fd);
        Log("client " + std::to_string(number) + ": refused, " + std::to_string(options.max_clients) + " passes running");
        continue;
      }
      Log("client " + std::to_string(number) + ": connected");
      std::lock_guard<std::mutex> lock(mutex);
      clients.push_back({fd, std::thread(), false});
      Client* client = &clients.back();
      client->thread = std::thread([this, client, number] { Serve(client, number); });
    }
  }
};

Server::Server(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

Server::~Server() { Stop(); }

Result<std::unique_ptr<Server>> Server::Start(const Endpoint& endpoint, ServeOptions options) {
  RETURN_NOT_OK(options.Validate());
  auto impl = std::make_unique<Impl>();
  ASSIGN_OR_RETURN(impl->scaler, FitScaler(options));
  // Inputs and columns are checked before binding (fitting the scaler opened them already).
  if (impl->scaler == nullptr) RETURN_NOT_OK(Pass::Open(options).status());
  impl->options = std::move(options);
  ASSIGN_OR_RETURN(impl->listen_fd, Listen(endpoint, 128));
  auto bound = BoundEndpoint(endpoint, impl->listen_fd);
  if (!bound.ok() || ::pipe2(impl->wake, O_CLOEXEC) != 0) {
    ::close(impl->listen_fd);
    return bound.ok() ? Status::IOError("pipe failed") : bound.status();
  }
  impl->endpoint = *bound;
  Impl* raw = impl.get();
  impl->acceptor = std::thread([raw] { raw->AcceptLoop(); });
  return std::unique_ptr<Server>(new Server(std::move(impl)));
}

const Endpoint& Server::endpoint() const { return impl_->endpoint; }
const ServeStats& Server::stats() const { return impl_->stats; }

void Server::Stop() {
  Impl& s = *impl_;
  {
    std::lock_guard<std::mutex> lock(s.mutex);
    if (s.stopping) return;
    s.stopping = true;
  }
  const char byte = 1;
  (void)!::write(s.wake[1], &byte, 1);
  if (s.acceptor.joinable()) s.acceptor.join();
  {
    // Abort running passes: their blocked sends fail once the sockets shut down.
    std::lock_guard<std::mutex> lock(s.mutex);
    for (auto& client : s.clients) {
      if (client.fd >= 0) ::shutdown(client.fd, SHUT_RDWR);
    }
  }
  for (auto& client : s.clients) client.thread.join();
  s.clients.clear();
  ::close(s.listen_fd);
  ::close(s.wake[0]);
  ::close(s.wake[1]);
  if (s.endpoint.kind == Endpoint::Kind::kUnix) ::unlink(s.endpoint.path.c_str());
}

}  // namespace recflow::serve
