// LogQueue: the draining thread, and drops counted and reported when the queue is full.
#include "recflow/serve/log_queue.h"

#include <system_error>

namespace recflow::serve {

Result<std::unique_ptr<LogQueue>> LogQueue::Start(std::function<void(const std::string&)> sink, size_t capacity) {
  std::unique_ptr<LogQueue> queue(new LogQueue(std::move(sink), capacity));
  try {
    queue->thread_ = std::thread([raw = queue.get()] { raw->Drain(); });
  } catch (const std::system_error& e) {
    return Status::IOError(std::string("cannot start the log thread: ") + e.what());
  }
  return queue;
}

LogQueue::~LogQueue() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    closed_ = true;
  }
  changed_.notify_all();
  thread_.join();
}

void LogQueue::Push(std::string line) noexcept {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    try {
      if (lines_.size() < capacity_) {
        lines_.push_back(std::move(line));
      } else {
        ++dropped_;
      }
    } catch (...) {  // out of memory: a dropped line, not a dead server
      ++dropped_;
    }
  }
  changed_.notify_one();
}

int64_t LogQueue::dropped() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return dropped_;
}

void LogQueue::Drain() {
  std::unique_lock<std::mutex> lock(mutex_);
  while (true) {
    changed_.wait(lock, [&] { return closed_ || !lines_.empty() || dropped_ > dropped_told_; });
    std::string line;
    if (!lines_.empty()) {
      line = std::move(lines_.front());
      lines_.pop_front();
    } else if (dropped_ > dropped_told_) {  // the queue emptied after drops: say how many
      line = std::to_string(dropped_ - dropped_told_) + " log lines dropped: the log did not keep up";
      dropped_told_ = dropped_;
    } else {
      return;  // closed, all delivered
    }
    lock.unlock();
    try {
      sink_(line);
    } catch (...) {  // a failing log loses its line, nothing else
    }
    lock.lock();
  }
}

}  // namespace recflow::serve
