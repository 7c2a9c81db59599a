// ConnectionServer: the accept loop (admission, waiting, refusals, lingering close) and the worker pool.
#include "recflow/serve/connection_server.h"

#include <fcntl.h>
#include <malloc.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <mutex>
#include <new>
#include <system_error>
#include <thread>
#include <vector>

#include "recflow/serve/lingering_close.h"
#include "recflow/serve/log_queue.h"
#include "recflow/serve/refusal.h"
#include "recflow/serve/socket_stream.h"

namespace recflow::serve {

namespace {

using Clock = std::chrono::steady_clock;

/// Connections accepted in one go before the loop looks at its other work.
constexpr int kAcceptBurst = 64;
/// How long accepting pauses when the process is out of descriptors.
constexpr auto kDescriptorPause = std::chrono::milliseconds(100);
/// Log lines that may wait for a slow log callback; more are dropped and counted.
constexpr size_t kLogQueueLines = 4096;

/// Milliseconds from `now` until `when` for poll (-1: no deadline; 0 when past).
int PollTimeout(Clock::time_point when, Clock::time_point now) {
  if (when == Clock::time_point::max()) return -1;
  const auto left = std::chrono::ceil<std::chrono::milliseconds>(when - now).count();
  return static_cast<int>(std::clamp<int64_t>(left, 0, 1 << 30));
}

/// `stream` into `out`, then `out` closed (what is gathered sent), with an exception from
/// either turned into a status: a pass that runs out of memory drops its client, not the server.
Status RunStream(const StreamFunction& stream, FdOutputStream* out) {
  try {
    RETURN_NOT_OK(stream(out));
    return out->Close();  // the descriptor stays open
  } catch (const std::bad_alloc&) {
    return Status::OutOfMemory("out of memory while sending the pass");
  } catch (const std::exception& e) {
    return Status::Internal(std::string("the pass failed: ") + e.what());
  } catch (...) {
    return Status::Internal("the pass failed with an unknown exception");
  }
}

}  // namespace

Status ConnectionOptions::Validate() const {
  if (max_clients < 1) return Status::InvalidArgument("max_clients must be at least 1");
  if (max_waiting < 0) return Status::InvalidArgument("max_waiting must not be negative");
  if (wait_timeout_ms < 1) return Status::InvalidArgument("wait_timeout_ms must be at least 1");
  if (send_timeout_ms < 1) return Status::InvalidArgument("send_timeout_ms must be at least 1");
  return Status::OK();
}

struct ConnectionServer::Impl {
  /// An accepted connection not yet given to a worker.
  struct Waiting {
    int fd;
    int64_t number;
    Clock::time_point since;
  };

  ConnectionOptions options;
  StreamFunction stream;
  Endpoint endpoint;
  int listen_fd = -1;
  int wake[2] = {-1, -1};  // a pipe: writing wakes the accept loop (a finished stream, Stop)
  std::thread acceptor;
  ServeStats stats;
  std::unique_ptr<LogQueue> log_queue;  // null when there is no log callback

  std::mutex mutex;
  std::condition_variable work;       // waiting gained a connection, or stopping
  std::deque<Waiting> waiting;        // guarded by mutex, oldest first
  std::vector<int> running_fds;       // guarded: the sockets of running streams (Stop shuts them down)
  std::vector<int> finished;          // guarded: whole streams for the accept loop to close lingering
  std::vector<std::thread> workers;   // guarded; only the accept loop adds
  int idle_workers = 0;               // guarded
  int running = 0;                    // guarded
  int peak_since_trim = 0;            // guarded: most streams running since memory was last trimmed
  bool stopping = false;              // guarded

  void Log(std::string line) const {
    if (log_queue != nullptr) log_queue->Push(std::move(line));
  }

  /// Starts a worker thread (std::system_error when the system has none to give).
  std::thread StartWorker() {
    std::function<void()> body = [this] { WorkerLoop(); };
    return options.start_thread ? options.start_thread(std::move(body)) : std::thread(std::move(body));
  }

  void Wake() {
    const char byte = 1;
    (void)!::write(wake[1], &byte, 1);
  }

  static std::string Name(int64_t number) { return "client " + std::to_string(number); }

  std::chrono::milliseconds WaitTimeout() const { return std::chrono::milliseconds(options.wait_timeout_ms); }

  /// "passes running: R of M, connections waiting: W of N" for `busy` connections running or
  /// waiting (a waiting one that a free worker is about to take counts as running).
  std::string Load(int busy) const {
    const int started = std::min(busy, options.max_clients);
    return "passes running: " + std::to_string(started) + " of " + std::to_string(options.max_clients) +
           ", connections waiting: " + std::to_string(busy - started) + " of " + std::to_string(options.max_waiting);
  }

  /// Sends `reason` as a refusal and ends the connection with a lingering close, as a whole
  /// stream ends (when the server stops, the close at once discards the client's input first,
  /// so it is a FIN after the refusal, not a reset that could throw the refusal away).
  void Refuse(int fd, int64_t number, const std::string& reason, LingeringClose* lingering) {
    ++stats.refused;
    const Result<std::shared_ptr<Buffer>> refusal = EncodeRefusal(reason);
    // A fresh socket's buffer holds the few hundred bytes; if not, the client gets EOF only.
    if (refusal.ok()) (void)!::send(fd, (*refusal)->data(), (*refusal)->size(), MSG_NOSIGNAL | MSG_DONTWAIT);
    ::shutdown(fd, SHUT_WR);
    lingering->Add(fd);
    Log(Name(number) + ": refused: " + reason);
  }

  /// A new connection: starts at once when a worker is free, else waits or is refused.
  void Admit(int fd, int64_t number, LingeringClose* lingering) {
    std::string refusal;
    bool waits = false;
    {
      std::lock_guard<std::mutex> lock(mutex);
      const int queued = static_cast<int>(waiting.size());
      if (stopping) {
        refusal = "the server is stopping";
      } else if (queued >= options.max_clients - running + options.max_waiting) {
        refusal = "the server is busy (" + Load(running + queued) + "); try again later";
      } else {
        bool started = true;
        if (idle_workers < queued + 1 && static_cast<int>(workers.size()) < options.max_clients) {
          try {
            workers.reserve(workers.size() + 1);  // so the push below cannot throw with a thread in hand
            workers.push_back(StartWorker());
          } catch (const std::exception& e) {
            started = false;
            refusal = std::string("the server cannot start a pass (") + e.what() + "); try again later";
          }
        }
        if (started) {
          waiting.push_back({fd, number, Clock::now()});
          waits = running + queued + 1 > options.max_clients;
          work.notify_one();
        }
      }
    }
    if (!refusal.empty()) return Refuse(fd, number, refusal, lingering);
    Log(Name(number) + (waits ? ": connected, waiting for a free pass" : ": connected"));
  }

  /// Refuses the connections that waited longer than the wait timeout.
  void ExpireWaiting(Clock::time_point now, LingeringClose* lingering) {
    std::vector<Waiting> expired;
    std::string load;
    {
      std::lock_guard<std::mutex> lock(mutex);
      while (!waiting.empty() && waiting.front().since + WaitTimeout() <= now) {
        expired.push_back(waiting.front());
        waiting.pop_front();
      }
      load = Load(running + static_cast<int>(waiting.size()));
    }
    for (const Waiting& w : expired) {
      Refuse(w.fd, w.number,
             "the server is busy: no pass free after waiting " + std::to_string(options.wait_timeout_ms) + " ms (" +
                 load + "); try again later",
             lingering);
    }
  }

  /// Accepts until woken by Stop(); then refuses the connections still waiting. Never logs
  /// under the lock: a blocked log must not keep a finishing client from its end of stream.
  void AcceptLoop() {
    LingeringClose lingering{std::chrono::milliseconds(options.send_timeout_ms)};
    int64_t number = 0;
    Clock::time_point accept_paused_until = Clock::time_point::min();
    std::vector<pollfd> fds;
    while (true) {
      Clock::time_point now = Clock::now();
      const bool accepting = now >= accept_paused_until;
      fds.clear();
      fds.push_back({wake[0], POLLIN, 0});
      fds.push_back({listen_fd, static_cast<short>(accepting ? POLLIN : 0), 0});
      lingering.AppendPollFds(&fds);
      Clock::time_point next = lingering.next_check();
      if (!accepting) next = std::min(next, accept_paused_until);
      {
        std::lock_guard<std::mutex> lock(mutex);
        if (!waiting.empty()) next = std::min(next, waiting.front().since + WaitTimeout());
      }
      if (::poll(fds.data(), fds.size(), PollTimeout(next, now)) < 0 && errno != EINTR) {
        Log(std::string("accept loop: poll failed: ") + std::strerror(errno));  // revents stay 0
      }
      now = Clock::now();
      if (fds[0].revents != 0) {
        char sink[64];
        while (::read(wake[0], sink, sizeof(sink)) > 0) {
        }
      }
      std::vector<int> done;
      {
        std::lock_guard<std::mutex> lock(mutex);
        if (stopping) break;
        done.swap(finished);
      }
      lingering.Service(std::span<const pollfd>(fds).subspan(2), now);
      for (int fd : done) lingering.Add(fd);
      ExpireWaiting(now, &lingering);
      for (int i = 0; i < kAcceptBurst && (fds[1].revents & POLLIN) != 0; ++i) {
        const int fd = ::accept4(listen_fd, nullptr, nullptr, SOCK_CLOEXEC);
        if (fd < 0) {
          if (errno == EMFILE || errno == ENFILE) {
            accept_paused_until = now + kDescriptorPause;
            Log("out of file descriptors: accepting again in " + std::to_string(kDescriptorPause.count()) + " ms");
          }
          break;
        }
        ++stats.connections;
        Admit(fd, ++number, &lingering);
      }
    }
    std::deque<Waiting> left;
    {
      std::lock_guard<std::mutex> lock(mutex);
      left.swap(waiting);
    }
    for (const Waiting& w : left) Refuse(w.fd, w.number, "the server is stopping", &lingering);
  }  // lingering closes what it holds

  /// Takes waiting connections one after the other until the server stops.
  void WorkerLoop() {
    std::unique_lock<std::mutex> lock(mutex);
    while (true) {
      ++idle_workers;
      work.wait(lock, [&] { return stopping || !waiting.empty(); });
      --idle_workers;
      if (stopping) return;
      const Waiting client = waiting.front();
      waiting.pop_front();
      ++running;
      peak_since_trim = std::max(peak_since_trim, running);
      running_fds.push_back(client.fd);
      lock.unlock();
      Serve(client);
      lock.lock();
    }
  }

  /// One connection: the stream; then FIN and a lingering close for a whole stream, a reset for
  /// a dropped one; then the counters and the log line.
  void Serve(const Waiting& client) {
    const std::string name = Name(client.number);
    Status st;
    int64_t sent;
    {
      FdOutputStream out(client.fd, name, /*owned=*/false, options.send_timeout_ms);
      st = RunStream(stream, &out);
      sent = out.position();
    }
    if (st.ok()) ::shutdown(client.fd, SHUT_WR);  // the client reads EOF now
    bool trim;
    {
      std::lock_guard<std::mutex> lock(mutex);  // Stop() shuts down the sockets it sees, never a closed one
      running_fds.erase(std::find(running_fds.begin(), running_fds.end(), client.fd));
      --running;
      if (st.ok()) {
        finished.push_back(client.fd);
      } else {
        AbortConnection(client.fd);
      }
      trim = running * 2 <= peak_since_trim;
      if (trim) peak_since_trim = running;
    }
    if (st.ok()) Wake();
    if (trim) malloc_trim(0);  // free pages of every arena go back to the system
    stats.bytes += sent;
    ++(st.ok() ? stats.passes : stats.dropped);
    if (st.ok()) {
      Log(name + ": pass complete, " + std::to_string(sent) + " bytes");
    } else {
      Log(name + ": dropped after " + std::to_string(sent) + " bytes: " + st.ToString());
    }
  }
};

ConnectionServer::ConnectionServer(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

ConnectionServer::~ConnectionServer() { Stop(); }

Result<std::unique_ptr<ConnectionServer>> ConnectionServer::Start(const Endpoint& endpoint, ConnectionOptions options,
                                                                  StreamFunction stream) {
  RETURN_NOT_OK(options.Validate());
  auto impl = std::make_unique<Impl>();
  impl->options = std::move(options);
  impl->stream = std::move(stream);
  if (impl->options.log) {
    ASSIGN_OR_RETURN(impl->log_queue, LogQueue::Start(impl->options.log, kLogQueueLines));
  }
  ASSIGN_OR_RETURN(impl->listen_fd, Listen(endpoint, 1024));
  auto bound = BoundEndpoint(endpoint, impl->listen_fd);
  Status ready = bound.status();
  if (ready.ok() && (::fcntl(impl->listen_fd, F_SETFL, O_NONBLOCK) != 0 ||
                     ::pipe2(impl->wake, O_CLOEXEC | O_NONBLOCK) != 0)) {
    ready = Status::IOError(endpoint.ToString() + ": cannot set up the accept loop: " + std::strerror(errno));
  }
  if (ready.ok()) {
    impl->endpoint = *bound;
    try {
      Impl* raw = impl.get();
      impl->acceptor = std::thread([raw] { raw->AcceptLoop(); });
    } catch (const std::system_error& e) {
      ready = Status::IOError(endpoint.ToString() + ": cannot start the accept loop: " + e.what());
    }
  }
  if (!ready.ok()) {  // nothing of this server is left behind: no descriptor, no socket file
    ::close(impl->listen_fd);
    for (int fd : impl->wake) {
      if (fd >= 0) ::close(fd);
    }
    if (endpoint.kind == Endpoint::Kind::kUnix) ::unlink(endpoint.path.c_str());
    return ready;
  }
  return std::unique_ptr<ConnectionServer>(new ConnectionServer(std::move(impl)));
}

const Endpoint& ConnectionServer::endpoint() const { return impl_->endpoint; }
const ServeStats& ConnectionServer::stats() const { return impl_->stats; }

void ConnectionServer::Stop() {
  Impl& s = *impl_;
  {
    std::lock_guard<std::mutex> lock(s.mutex);
    if (s.stopping) return;
    s.stopping = true;
    for (int fd : s.running_fds) ::shutdown(fd, SHUT_RDWR);  // their blocked sends fail at once
  }
  s.work.notify_all();
  s.Wake();
  if (s.acceptor.joinable()) s.acceptor.join();
  for (std::thread& worker : s.workers) worker.join();  // no one adds workers once the acceptor is gone
  for (int fd : s.finished) CloseDiscardingInput(fd);    // streams that ended after the accept loop
  s.finished.clear();
  ::close(s.listen_fd);
  ::close(s.wake[0]);
  ::close(s.wake[1]);
  if (s.endpoint.kind == Endpoint::Kind::kUnix) ::unlink(s.endpoint.path.c_str());
}

}  // namespace recflow::serve
