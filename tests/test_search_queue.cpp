// The board's search queue (web/search_queue.h): at most `slots` searches at once, the others in
// arrival order, one per session, a busy answer after max_wait, analyses giving way to waiters.
// Arrival order is made certain by waiting for the queue to count each waiter, never by sleeping.
#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "damas/web/search_queue.h"

using namespace damas::web;
using namespace std::chrono_literals;

namespace {

// Waits (bounded) until the queue has `n` waiting requests.
bool waiting_reaches(const SearchQueue& q, std::size_t n) {
  for (int i = 0; i < 20000; ++i) {
    if (q.stats().waiting == n) return true;
    std::this_thread::sleep_for(1ms);
  }
  return false;
}

}  // namespace

TEST_CASE("search queue: waiting requests are served in arrival order", "[web][queue]") {
  SearchQueue q(QueueConfig{1, 60s, 16});
  QueueTicket first = q.acquire("a");
  REQUIRE(first.lease);
  std::mutex m;
  std::vector<std::string> order;
  std::vector<std::thread> threads;
  for (const std::string name : {"b", "c", "d", "e"}) {
    threads.emplace_back([&q, &m, &order, name] {  // no Catch assertion off the test's thread
      QueueTicket t = q.acquire(name);
      std::lock_guard lock(m);
      order.push_back(t.lease ? name : "refused");
    });
    REQUIRE(waiting_reaches(q, order.size() + threads.size()));
  }
  CHECK(q.stats().running == 1);
  first.lease->release();
  for (std::thread& t : threads) t.join();
  CHECK(order == std::vector<std::string>{"b", "c", "d", "e"});
  CHECK(q.stats().served == 5);
  CHECK(q.stats().running == 0);
}

TEST_CASE("search queue: no more searches at once than the slots", "[web][queue]") {
  SearchQueue q(QueueConfig{3, 60s, 64});
  std::atomic<int> running{0};
  std::atomic<int> most{0};
  std::vector<std::thread> threads;
  for (int i = 0; i < 12; ++i)
    threads.emplace_back([&, i] {
      QueueTicket t = q.acquire(std::to_string(i));
      if (!t.lease) return;
      const int now = ++running;
      int seen = most.load();
      while (now > seen && !most.compare_exchange_weak(seen, now)) {}
      std::this_thread::sleep_for(2ms);
      --running;
    });
  for (std::thread& t : threads) t.join();
  CHECK(most.load() <= 3);
  CHECK(most.load() >= 1);
  CHECK(q.stats().served == 12);
}

TEST_CASE("search queue: a session with a search running or waiting does not queue a second",
          "[web][queue]") {
  SearchQueue q(QueueConfig{1, 60s, 16});
  QueueTicket held = q.acquire("a");
  REQUIRE(held.lease);
  const QueueTicket again = q.acquire("a");
  CHECK_FALSE(again.lease);
  CHECK(again.refusal == QueueRefusal::SessionBusy);
  std::atomic<bool> served{false};
  std::thread waiter([&q, &served] { served = q.acquire("b").lease.has_value(); });
  REQUIRE(waiting_reaches(q, 1));
  const QueueTicket twice = q.acquire("b");
  CHECK_FALSE(twice.lease);
  CHECK(twice.refusal == QueueRefusal::SessionBusy);
  CHECK(twice.message.find("already") != std::string::npos);
  CHECK(q.stats().waiting == 1);  // still one
  held.lease->release();
  waiter.join();
  CHECK(served);
}

TEST_CASE("search queue: a request that cannot start within max_wait is answered busy", "[web][queue]") {
  SearchQueue q(QueueConfig{1, 20ms, 1});
  QueueTicket held = q.acquire("a");
  REQUIRE(held.lease);
  const QueueTicket late = q.acquire("b");
  CHECK_FALSE(late.lease);
  CHECK(late.refusal == QueueRefusal::Busy);
  CHECK(late.message.find("busy") != std::string::npos);
  CHECK(q.stats().waiting == 0);  // it left the line
  CHECK(q.stats().refused == 1);
  CHECK(q.stats().longest_wait >= 20ms);
}

TEST_CASE("search queue: too many waiting is busy at once", "[web][queue]") {
  SearchQueue q(QueueConfig{1, 60s, 1});
  QueueTicket held = q.acquire("a");
  std::atomic<bool> served{false};
  std::thread waiter([&q, &served] { served = q.acquire("b").lease.has_value(); });
  REQUIRE(waiting_reaches(q, 1));
  const QueueTicket full = q.acquire("c");
  CHECK_FALSE(full.lease);
  CHECK(full.refusal == QueueRefusal::Busy);
  held.lease->release();
  waiter.join();
  CHECK(served);
}

TEST_CASE("search queue: an analysis is asked to stop when a request waits, and its slot passes on",
          "[web][queue]") {
  SearchQueue q(QueueConfig{1, 60s, 16});
  QueueTicket analysis = q.acquire("a");
  REQUIRE(analysis.lease);
  std::atomic<int> asked{0};
  analysis.lease->make_preemptible([&asked] { ++asked; });
  CHECK(asked == 0);  // nobody waits yet
  std::atomic<bool> served{false};
  std::thread waiter([&] {
    QueueTicket t = q.acquire("b");
    served = t.lease.has_value();
  });
  // The analysis ends when asked (as an engine's done callback would release it).
  for (int i = 0; i < 20000 && asked == 0; ++i) std::this_thread::sleep_for(1ms);
  REQUIRE(asked == 1);
  analysis.lease->release();
  waiter.join();
  CHECK(served);
  CHECK(asked == 1);
}

TEST_CASE("search queue: closing refuses the waiting and later requests", "[web][queue]") {
  SearchQueue q(QueueConfig{1, 60s, 16});
  QueueTicket held = q.acquire("a");
  std::atomic<bool> refused{false};
  std::thread waiter([&] { refused = q.acquire("b").refusal == QueueRefusal::Closed; });
  REQUIRE(waiting_reaches(q, 1));
  q.close();
  waiter.join();
  CHECK(refused);
  CHECK(q.acquire("c").refusal == QueueRefusal::Closed);
}
