#include "damas/web/search_queue.h"

#include <algorithm>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <vector>

namespace damas::web {

struct SearchQueue::Impl {
  struct Slot {
    bool busy = false;
    std::string session;
    std::function<void()> preempt;  // set while an analysis holds the slot
    bool preempt_asked = false;
  };
  struct Waiter {
    std::string session;
    std::optional<std::size_t> granted;
  };

  explicit Impl(QueueConfig c) : config(c), slots(std::max<std::size_t>(1, c.slots)) {}

  // Hands free slots to the first waiters (mutex held).
  void dispatch() {
    for (std::size_t i = 0; i < slots.size() && !waiting.empty(); ++i) {
      if (slots[i].busy) continue;
      Waiter* w = waiting.front();
      waiting.pop_front();
      take(i, w->session);
      w->granted = i;
    }
  }

  void take(std::size_t i, const std::string& session) {
    slots[i] = Slot{true, session, {}, false};
    ++stats.served;
  }

  // The stop calls of analyses to ask now: one for each waiter not yet covered (mutex held).
  std::vector<std::function<void()>> preemptions() {
    std::size_t asked = 0;
    for (const Slot& s : slots) asked += s.busy && s.preempt_asked ? 1 : 0;
    std::vector<std::function<void()>> calls;
    for (Slot& s : slots) {
      if (asked + calls.size() >= waiting.size()) break;
      if (s.busy && s.preempt && !s.preempt_asked) {
        s.preempt_asked = true;
        calls.push_back(s.preempt);
      }
    }
    return calls;
  }

  bool session_busy(const std::string& session) const {
    for (const Slot& s : slots)
      if (s.busy && s.session == session) return true;
    return std::any_of(waiting.begin(), waiting.end(),
                       [&](const Waiter* w) { return w->session == session; });
  }

  QueueTicket refuse(QueueRefusal why, std::string message) {
    if (why == QueueRefusal::Busy) ++stats.refused;
    return QueueTicket{std::nullopt, why, std::move(message)};
  }

  QueueConfig config;
  mutable std::mutex mutex;
  std::condition_variable changed;
  std::vector<Slot> slots;
  std::deque<Waiter*> waiting;  // arrival order; each lives on its caller's stack
  QueueStats stats;
  bool closed = false;
};

SearchLease::SearchLease(SearchLease&& other) noexcept : queue_(other.queue_), slot_(other.slot_) {
  other.queue_ = nullptr;
}

SearchLease& SearchLease::operator=(SearchLease&& other) noexcept {
  if (this != &other) {
    release();
    queue_ = other.queue_;
    slot_ = other.slot_;
    other.queue_ = nullptr;
  }
  return *this;
}

SearchLease::~SearchLease() { release(); }

void SearchLease::make_preemptible(std::function<void()> stop) {
  if (queue_) queue_->set_preempt(slot_, std::move(stop));
}

void SearchLease::release() {
  if (queue_) queue_->release(slot_);
  queue_ = nullptr;
}

SearchQueue::SearchQueue(QueueConfig config) : impl_(std::make_unique<Impl>(config)) {}

SearchQueue::~SearchQueue() { close(); }

const QueueConfig& SearchQueue::config() const { return impl_->config; }

QueueTicket SearchQueue::acquire(const std::string& session) {
  Impl& q = *impl_;
  const auto arrived = std::chrono::steady_clock::now();
  std::unique_lock lock(q.mutex);
  if (q.closed) return q.refuse(QueueRefusal::Closed, "the server is stopping");
  if (q.session_busy(session))
    return q.refuse(QueueRefusal::SessionBusy, "this game already has a search running or waiting");
  if (q.waiting.empty())
    for (std::size_t i = 0; i < q.slots.size(); ++i)
      if (!q.slots[i].busy) {
        q.take(i, session);
        return QueueTicket{SearchLease(this, i), QueueRefusal::Busy, ""};
      }
  if (q.waiting.size() >= q.config.max_waiting)
    return q.refuse(QueueRefusal::Busy, "the engine is busy: " + std::to_string(q.waiting.size()) +
                                            " requests are waiting already; try again in a moment");
  Impl::Waiter me{session, std::nullopt};
  q.waiting.push_back(&me);
  const auto deadline = arrived + q.config.max_wait;
  while (!me.granted && !q.closed) {
    if (std::vector<std::function<void()>> calls = q.preemptions(); !calls.empty()) {
      lock.unlock();
      for (const auto& stop : calls) stop();
      lock.lock();
      continue;
    }
    if (q.changed.wait_until(lock, deadline) == std::cv_status::timeout && !me.granted) break;
  }
  const auto waited =
      std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - arrived);
  q.stats.longest_wait = std::max(q.stats.longest_wait, waited);
  if (me.granted) return QueueTicket{SearchLease(this, *me.granted), QueueRefusal::Busy, ""};
  q.waiting.erase(std::find(q.waiting.begin(), q.waiting.end(), &me));
  if (q.closed) return q.refuse(QueueRefusal::Closed, "the server is stopping");
  return q.refuse(QueueRefusal::Busy, "the engine is busy with other games: no search could start within " +
                                          std::to_string(q.config.max_wait.count()) + " ms; try again");
}

void SearchQueue::release(std::size_t slot) {
  Impl& q = *impl_;
  {
    std::lock_guard lock(q.mutex);
    q.slots[slot] = Impl::Slot{};
    q.dispatch();
  }
  q.changed.notify_all();
}

void SearchQueue::set_preempt(std::size_t slot, std::function<void()> stop) {
  Impl& q = *impl_;
  std::vector<std::function<void()>> calls;
  {
    std::lock_guard lock(q.mutex);
    q.slots[slot].preempt = std::move(stop);
    calls = q.preemptions();
  }
  for (const auto& call : calls) call();
}

void SearchQueue::close() {
  Impl& q = *impl_;
  {
    std::lock_guard lock(q.mutex);
    q.closed = true;
  }
  q.changed.notify_all();
}

void SearchQueue::count_refused() {
  std::lock_guard lock(impl_->mutex);
  ++impl_->stats.refused;
}

QueueStats SearchQueue::stats() const {
  std::lock_guard lock(impl_->mutex);
  QueueStats s = impl_->stats;
  s.waiting = impl_->waiting.size();
  s.running = static_cast<std::size_t>(std::count_if(impl_->slots.begin(), impl_->slots.end(),
                                                     [](const Impl::Slot& slot) { return slot.busy; }));
  return s;
}

}  // namespace damas::web
