#include "api_state.h"

#include <algorithm>
#include <thread>

#include "views.h"

namespace damas::web {
namespace {

QueueConfig queue_config(const ApiConfig& c) {
  const std::size_t cores = std::max(1U, std::thread::hardware_concurrency());
  return QueueConfig{c.search_slots ? c.search_slots : cores, c.queue_wait, c.max_waiting};
}

ApiConfig with_clock(ApiConfig c) {
  if (!c.clock) c.clock = [] { return Clock::now(); };
  return c;
}

}  // namespace

ApiState::ApiState(ApiConfig c)
    : config(with_clock(std::move(c))),
      sessions({config.max_sessions, config.idle_expiry, config.clock,
                [this](Session& s) { request_stop(s.analysis_generation); }}),
      queue(queue_config(config)) {
  for (std::size_t i = 0; i < queue.config().slots; ++i) {
    engines.push_back(std::make_unique<Engine>());
    (void)engines.back()->set_option(option::kHash, std::to_string(config.hash_mib));
  }
}

Variant ApiState::default_variant() const { return engines.front()->options().variant(); }

Result<std::string> ApiState::lookup(const Json& body) {
  std::lock_guard lock(mutex);
  const Result<SessionStore::Found> f = sessions.find(body);
  if (!f) return f.error();
  return f->id;
}

void ApiState::request_stop(std::uint64_t generation) {
  const auto it = analyses.find(generation);
  if (it == analyses.end() || it->second.ended) return;
  it->second.stop_requested = true;
  engines[it->second.slot]->stop();
}

void ApiState::stop_analysis_of(const std::string& id) {
  std::unique_lock lock(mutex);
  const Session* s = sessions.get(id);
  if (!s) return;
  const std::uint64_t generation = s->analysis_generation;
  request_stop(generation);
  analysis_ended.wait(lock, [&] { return analyses.count(generation) == 0; });
}

void ApiState::end_analysis(std::uint64_t generation, SearchLease& lease) {
  std::string id;
  {
    std::lock_guard lock(mutex);
    Analysis& a = analyses.at(generation);
    a.ended = true;
    id = a.session;
  }
  lease.release();
  if (sink) {
    Json j = Json::object();
    j.set("type", json_str("stopped"));
    j.set("session", json_str(id));
    sink(id, j.dump());
  }
  {
    std::lock_guard lock(mutex);
    analyses.erase(generation);
    if (Session* s = sessions.get(id); s && s->analysis_generation == generation) {
      s->analysing = false;
      s->analysis_generation = 0;
    }
  }
  analysis_ended.notify_all();
}

void ApiState::on_info(const std::string& id, std::uint64_t generation, const Position& root,
                       const SearchInfo& info) {
  Json j = info_json(id, root, info);
  {
    std::lock_guard lock(mutex);
    Session* s = sessions.get(id);
    if (!s || s->analysis_generation != generation) return;
    std::vector<AnalysisLine>& lines = s->analysis;
    bool replaced = false;
    for (AnalysisLine& l : lines)
      if (l.multipv == info.multipv_index) {
        l.json = j;
        replaced = true;
      }
    if (!replaced) lines.push_back({info.multipv_index, j});
    std::sort(lines.begin(), lines.end(),
              [](const AnalysisLine& a, const AnalysisLine& b) { return a.multipv < b.multipv; });
  }
  if (sink) sink(id, j.dump());
}

Answer change_session(ApiState& state, const Json& body, const SessionChange& change) {
  const Result<std::string> first = state.lookup(body);
  if (!first) return first.error();
  state.stop_analysis_of(*first);
  return with_session(state, body, change);
}

Answer with_session(ApiState& state, const Json& body, const SessionChange& read) {
  std::lock_guard lock(state.mutex);
  const Result<SessionStore::Found> f = state.sessions.find(body);
  if (!f) return f.error();
  return read(f->id, *f->session);
}

}  // namespace damas::web
