// Fair use of the engines the board's sessions share: at most `slots` searches run at once; the
// other requests wait in arrival order, each session at most once; a request that cannot start
// within max_wait is refused as busy instead of hanging. An analysis (an endless search) holds its
// slot only while nobody waits: a waiting request asks the oldest analysis to stop, and the slot
// passes on when the analysis ends.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

namespace damas::web {

struct QueueConfig {
  std::size_t slots = 1;                      // searches at once
  std::chrono::milliseconds max_wait{10000};  // longest wait for a slot before "busy"
  std::size_t max_waiting = 128;              // more waiting requests are refused at once
};

struct QueueStats {
  std::size_t running = 0;
  std::size_t waiting = 0;
  std::uint64_t served = 0;   // slots handed out
  std::uint64_t refused = 0;  // busy answers
  std::chrono::microseconds longest_wait{0};
};

class SearchQueue;

// A slot, held until the lease is destroyed or released.
class SearchLease {
 public:
  SearchLease(SearchLease&& other) noexcept;
  SearchLease& operator=(SearchLease&& other) noexcept;
  SearchLease(const SearchLease&) = delete;
  SearchLease& operator=(const SearchLease&) = delete;
  ~SearchLease();
  std::size_t slot() const { return slot_; }
  // An analysis: `stop` is called (once, never with a queue lock held) when a request waits.
  void make_preemptible(std::function<void()> stop);
  void release();

 private:
  friend class SearchQueue;
  SearchLease(SearchQueue* queue, std::size_t slot) : queue_(queue), slot_(slot) {}
  SearchQueue* queue_;
  std::size_t slot_;
};

enum class QueueRefusal {
  SessionBusy,  // the session already has a search running or waiting
  Busy,         // no slot within max_wait, or too many waiting
  Closed,       // the queue is shutting down
};

struct QueueTicket {
  std::optional<SearchLease> lease;
  QueueRefusal refusal = QueueRefusal::Busy;  // when there is no lease
  std::string message;
};

class SearchQueue {
 public:
  explicit SearchQueue(QueueConfig config);
  ~SearchQueue();
  SearchQueue(const SearchQueue&) = delete;
  SearchQueue& operator=(const SearchQueue&) = delete;

  // Blocks until this request gets a slot (in arrival order) or is refused.
  QueueTicket acquire(const std::string& session);
  // Refuses every waiting and later request (shutting down); slots held stay held until released.
  void close();
  QueueStats stats() const;
  // A request refused before it reached the queue (the server's bound on waiting requests).
  void count_refused();
  const QueueConfig& config() const;

 private:
  friend class SearchLease;
  void release(std::size_t slot);
  void set_preempt(std::size_t slot, std::function<void()> stop);
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace damas::web
