// LogQueue: log lines handed to a callback on a thread of their own, so a slow or blocked log never holds up who logs.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "recflow/core/result.h"

namespace recflow::serve {

/// A bounded queue of log lines drained by one thread that calls the callback for each, in
/// order. Push never waits: a line that finds the queue full is dropped and counted, and once
/// the queue has emptied a line says how many were dropped. So a callback that
/// blocks (stderr a pipe nobody reads) stalls only the log, never the threads that log nor a
/// server's Stop(). Thread-safe.
class LogQueue {
 public:
  /// Starts the thread that calls `sink` (an IOError when the thread cannot start). At most
  /// `capacity` lines wait for it.
  static Result<std::unique_ptr<LogQueue>> Start(std::function<void(const std::string&)> sink, size_t capacity);
  /// Delivers the lines queued, then joins the thread: waits for the callback to return.
  ~LogQueue();
  LogQueue(const LogQueue&) = delete;
  LogQueue& operator=(const LogQueue&) = delete;

  /// Queues `line`, or drops it when `capacity` lines wait already. Never blocks, never throws.
  void Push(std::string line) noexcept;
  /// Lines dropped so far.
  int64_t dropped() const;

 private:
  LogQueue(std::function<void(const std::string&)> sink, size_t capacity)
      : sink_(std::move(sink)), capacity_(capacity) {}
  /// The thread: delivers lines until the queue is closed and empty.
  void Drain();

  std::function<void(const std::string&)> sink_;
  size_t capacity_;
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<std::string> lines_;  // guarded by mutex_
  int64_t dropped_ = 0;            // guarded
  int64_t dropped_told_ = 0;       // guarded: drops already reported in a line
  bool closed_ = false;            // guarded
  std::thread thread_;
};

}  // namespace recflow::serve
