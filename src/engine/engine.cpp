#include "damas/engine/engine.h"

#include <algorithm>
#include <condition_variable>
#include <cstdlib>
#include <deque>
#include <memory>
#include <mutex>
#include <random>
#include <span>
#include <thread>

#include "data_files.h"

#include "damas/book/choice.h"
#include "damas/core/movegen.h"
#include "damas/core/platform.h"
#include "damas/eval/eval.h"
#include "damas/eval/learned.h"
#include "damas/search/level.h"
#include "damas/search/search.h"
#include "damas/search/tt.h"

namespace damas {
namespace {

struct Job {
  SearchRequest request;
  InfoCallback on_info;
  DoneCallback on_done;
  std::int64_t go_ns = 0;
  bool cancelled = false;   // stopped before it started: answer at once
  bool ponder_hit = false;  // ponder_hit() arrived before it started
  std::int64_t ponder_hit_ns = 0;
  std::optional<book::BookMove> book_move;  // answered from the book, without a search
  std::shared_ptr<const book::Book> book;   // the book it came from
};

std::uint64_t fresh_seed() {
  std::random_device rd;
  return (std::uint64_t{rd()} << 32) ^ rd();
}

}  // namespace

struct Engine::Impl {
  Options options;
  EvalWeights weights;
  std::shared_ptr<const egdb::Database> egdb;
  std::shared_ptr<const LearnedWeights> learned_file;  // eval-file's network; null: the built-in one
  std::shared_ptr<const LearnedWeights> builtin_learned =
      std::make_shared<const LearnedWeights>(builtin_learned_weights());
  LevelParams level;
  std::vector<Position> history{Position::start()};
  int start_plies = 0;  // the draw count history.front() came with (set_position)
  TranspositionTable tt{1};
  SearchControl control;
  std::uint64_t seed_base = fresh_seed();
  std::uint64_t searches = 0;

  mutable std::mutex mutex;
  std::condition_variable cv;
  std::deque<Job> jobs;
  bool running = false;    // a job is between its start and the return of its done callback
  bool finishing = false;  // its done callback is running
  GoMode running_mode = GoMode::Think;
  bool quit = false;
  std::thread thread;

  Impl() {
    thread = std::thread([this] { loop(); });
  }

  bool busy() const { return running || !jobs.empty(); }
  // Changes (position, options, new game) are refused during a search, except from the done
  // callback of the last queued one: that search is over and its threads are joined.
  bool busy_for_change() const { return (running && !(finishing && on_search_thread())) || !jobs.empty(); }
  bool on_search_thread() const { return std::this_thread::get_id() == thread.get_id(); }

  EgdbStatus egdb_status;
  std::shared_ptr<const book::Book> book;
  BookStatus book_status;

  Status apply_option(std::string_view name, std::string_view value);
  Status use_egdb(const Options& next);
  Status use_book(const Options& next);
  std::optional<book::BookMove> book_move(const GoParams& params, const SearchRequest& request) const;
  Status use_eval_file(const std::string& path);
  SearchRequest request(const GoParams& params);
  void loop();
};

Status Engine::Impl::apply_option(std::string_view name, std::string_view value) {
  // Each variant has its own databases.
  if (name == option::kEgdbPath || name == option::kEgdbPieces || name == option::kVariant) {
    if (name == option::kVariant && learned_file)
      if (const std::optional<Variant> v = parse_variant(value))
        if (Status s = check_network_game(*learned_file, options.get(option::kEvalFile), *v,
                                          "set eval-file to \"\" before changing the variant");
            !s)
          return s;
    Options next = options;
    if (Status s = next.set(name, value); !s) return s;
    if (Status s = use_egdb(next); !s) return s;
    // Each game has its own book too (read again only when the game changes); a book that cannot
    // be used is reported, not refused.
    if (name == option::kVariant && options.variant() != book_status.variant) return use_book(options);
    return Ok{};
  }
  if (name == option::kBook || name == option::kBookFile) {
    Options next = options;
    if (Status s = next.set(name, value); !s) return s;
    return use_book(next);
  }
  if (name == option::kEvalFile) return use_eval_file(std::string(value));
  if (name == option::kHash) {
    // Memory is committed when the table is cleared: a table larger than half the machine's RAM
    // would get the process killed instead of an error.
    const auto ram_mib = static_cast<std::int64_t>(platform::physical_memory_bytes() >> 20);
    const std::int64_t requested = std::atoll(std::string(value).c_str());
    if (ram_mib > 0) {
      if (requested > ram_mib / 2)
        return Error{"hash " + std::string(value) + " MiB is more than half of this machine's " +
                     std::to_string(ram_mib) + " MiB of memory"};
    }
  }
  if (Status s = options.set(name, value); !s) return s;
  if (name == option::kHash) {
    const auto mib = static_cast<std::size_t>(options.get_int(option::kHash));
    if (mib != tt.size_mib()) tt.resize(mib);
  } else if (name == option::kLevel) {
    if (std::optional<LevelParams> l = level_params(value)) level = *l;
  }
  return Ok{};
}

Status Engine::Impl::use_egdb(const Options& next) {
  Expected<LoadedEgdb> loaded = load_egdb(next);
  if (!loaded) return Error{loaded.error()};
  options = next;
  egdb = std::move(loaded->database);
  egdb_status = std::move(loaded->status);
  return Ok{};
}

Status Engine::Impl::use_book(const Options& next) {
  Expected<LoadedBook> loaded = load_book(next);
  if (!loaded) return Error{loaded.error()};
  options = next;
  book = std::move(loaded->book);
  book_status = std::move(loaded->status);
  return Ok{};
}

// A bad file is an error and the current weights stay.
Status Engine::Impl::use_eval_file(const std::string& path) {
  Expected<EvalFile> loaded = read_eval_file(path);
  if (!loaded) return Error{loaded.error()};
  if (loaded->learned)
    if (Status s =
            check_network_game(*loaded->learned, path, options.variant(), "set the variant before eval-file");
        !s)
      return s;
  if (Status s = options.set(option::kEvalFile, path); !s) return s;
  weights = loaded->classic;
  learned_file = loaded->learned;
  return Ok{};
}

// The book's move for a search, when it gives one: play (think) only, in a position of the book
// no deeper than book-ply and the level's cap, picked within book-margin by the search's seed.
std::optional<book::BookMove> Engine::Impl::book_move(const GoParams& p, const SearchRequest& r) const {
  if (!book || p.mode != GoMode::Think || r.root.variant() != book->variant) return std::nullopt;
  int max_ply = static_cast<int>(options.get_int(option::kBookPly));
  const LevelParams lv = p.level.value_or(level);
  if (lv.book_ply > 0) max_ply = std::min(max_ply, lv.book_ply);
  const auto margin = static_cast<Score>(options.get_int(option::kBookMargin));
  return book::choose_move(*book, r.root, {max_ply, margin, r.seed ^ 0xB00C5EEDULL});
}

namespace {

// A move from the book, reported as a search would report it, marked as the book's.
SearchResult answer_from_book(const book::Book& book, const Position& root, const book::BookMove& m,
                              const InfoCallback& on_info, std::int64_t go_ns) {
  SearchResult r;
  r.best = m.move;
  r.ponder = book::expected_reply(book, root, m.move);
  r.score = m.score;
  r.depth = m.depth;
  r.pv = {m.move};
  if (!r.ponder.is_null()) r.pv.push_back(r.ponder);
  r.seconds = static_cast<double>(SearchControl::now_ns() - go_ns) / 1e9;
  if (on_info) {
    SearchInfo info;
    info.depth = m.depth;
    info.score = m.score;
    info.seconds = r.seconds;
    info.pv = r.pv;
    info.book = true;
    on_info(info);
  }
  return r;
}

}  // namespace

void Engine::Impl::loop() {
  std::unique_lock lock(mutex);
  while (true) {
    cv.wait(lock, [this] { return quit || !jobs.empty(); });
    if (jobs.empty()) return;  // quit with nothing left to answer
    Job job = std::move(jobs.front());
    jobs.pop_front();
    running = true;
    running_mode = job.request.mode;
    control.stop.store(job.cancelled || quit, std::memory_order_relaxed);
    const bool pondering = job.request.mode == GoMode::Ponder && !job.ponder_hit;
    control.pondering.store(pondering, std::memory_order_relaxed);
    control.clock_start_ns.store(job.ponder_hit ? job.ponder_hit_ns : job.go_ns, std::memory_order_relaxed);
    lock.unlock();

    SearchResult result =
        job.book_move ? answer_from_book(*job.book, job.request.root, *job.book_move, job.on_info, job.go_ns)
                      : run_search(job.request, tt, control, job.on_info);
    lock.lock();
    finishing = true;
    lock.unlock();
    if (job.on_done) job.on_done(result);

    lock.lock();
    finishing = false;
    running = false;
    cv.notify_all();
  }
}

Engine::Engine() : impl_(std::make_unique<Impl>()) {
  impl_->apply_option(option::kHash, impl_->options.get(option::kHash));
  impl_->use_egdb(impl_->options);
  impl_->use_book(impl_->options);
}

Engine::Engine(const Options& options) : impl_(std::make_unique<Impl>()) {
  for (const OptionSpec& spec : option_specs()) {
    // The book is read once, below, with both of its options.
    if (spec.name == option::kBook || spec.name == option::kBookFile) {
      (void)impl_->options.set(spec.name, options.get(spec.name));
      continue;
    }
    // A value the engine cannot use (e.g. a missing weights file) keeps the default.
    impl_->apply_option(spec.name, options.get(spec.name));
  }
  // A book file it cannot use: the found book (or none), as for any other option.
  if (!impl_->use_book(impl_->options)) {
    (void)impl_->options.set(option::kBookFile, "auto");
    impl_->use_book(impl_->options);
  }
}

Engine::~Engine() {
  {
    std::lock_guard lock(impl_->mutex);
    impl_->quit = true;
    impl_->control.stop.store(true, std::memory_order_relaxed);
    for (Job& j : impl_->jobs) j.cancelled = true;
  }
  impl_->cv.notify_all();
  if (impl_->thread.joinable()) {
    if (impl_->on_search_thread()) impl_->thread.detach();
    else impl_->thread.join();
  }
}

Status Engine::set_option(std::string_view name, std::string_view value) {
  std::lock_guard lock(impl_->mutex);
  if (impl_->busy_for_change())
    return Error{"cannot change option " + std::string(name) + " during a search"};
  return impl_->apply_option(name, value);
}

const Options& Engine::options() const { return impl_->options; }

EgdbStatus Engine::egdb_status() const {
  std::lock_guard lock(impl_->mutex);
  return impl_->egdb_status;
}

BookStatus Engine::book_status() const {
  std::lock_guard lock(impl_->mutex);
  return impl_->book_status;
}

std::optional<book::BookEntry> Engine::book_entry(const Position& position) const {
  std::lock_guard lock(impl_->mutex);
  if (!impl_->book) return std::nullopt;
  const book::BookEntry* e = impl_->book->find(position);
  return e ? std::optional<book::BookEntry>(*e) : std::nullopt;
}

std::vector<Move> Engine::book_line(const Position& position) const {
  std::lock_guard lock(impl_->mutex);
  return impl_->book ? book::main_line(*impl_->book, position) : std::vector<Move>{};
}

Status Engine::set_position(const Position& start, const std::vector<Move>& moves, int start_plies) {
  std::vector<Position> history{start};
  history.reserve(moves.size() + 1);
  for (std::size_t i = 0; i < moves.size(); ++i) {
    if (!is_legal(history.back(), moves[i]))
      return Error{"move " + std::to_string(i + 1) + " of the move list is not legal"};
    history.push_back(history.back().after(moves[i]));
  }
  std::lock_guard lock(impl_->mutex);
  if (impl_->busy_for_change()) return Error{"cannot set the position during a search"};
  impl_->history = std::move(history);
  impl_->start_plies = start_plies;
  return Ok{};
}

const Position& Engine::position() const { return impl_->history.back(); }
const std::vector<Position>& Engine::history() const { return impl_->history; }

void Engine::new_game() {
  std::lock_guard lock(impl_->mutex);
  if (impl_->busy_for_change()) return;
  impl_->tt.clear();
}

// Called with the mutex held: the options and tables of this moment go with the search.
SearchRequest Engine::Impl::request(const GoParams& p) {
  SearchRequest r;
  r.root = history.back();
  for (std::size_t i = 0; i + 1 < history.size(); ++i) r.history.push_back(history[i].key());
  r.draw_rules = p.draw_rules.value_or(
      parse_draw_rules(options.get(option::kDrawRules), r.root.variant()).value_or(DrawRules::Seed));
  r.root_draw = counters_of(r.draw_rules, history, start_plies);
  r.limits = p.limits;
  r.mode = p.mode;
  r.threads = static_cast<int>(options.get_int(option::kThreads));
  r.move_overhead = static_cast<double>(options.get_int(option::kMoveOverhead)) / 1000.0;
  r.weights = weights;
  // The databases are one game's (probe() refuses the others too); not even their cache is made.
  if (egdb && r.root.variant() == egdb->variant()) r.egdb = egdb;
  if (options.get(option::kEval) == "learned") r.learned = learned_file ? learned_file : builtin_learned;
  // Analysis shows the engine's real opinion; weak levels apply to play only.
  if (p.mode != GoMode::Analyze) r.level = p.level.value_or(level);
  const OptionSpec& multipv = *find_option(option::kMultiPv);
  const std::int64_t lines = p.multipv ? std::clamp<std::int64_t>(*p.multipv, multipv.min, multipv.max)
                                       : options.get_int(option::kMultiPv);
  r.multipv = std::max(static_cast<int>(lines), r.level.candidates);
  // A fixed seed repeats exactly (the search mixes in the position); 0 varies every search.
  const auto fixed_seed = static_cast<std::uint64_t>(options.get_int(option::kSeed));
  r.seed = fixed_seed ? fixed_seed * 0xD6E8FEB86659FD93ULL : seed_base + 0x9E3779B97F4A7C15ULL * ++searches;
  r.tuning = options.tuning();
  r.excluded = p.excluded;
  return r;
}

void Engine::go(const SearchLimits& limits, GoMode mode, InfoCallback on_info, DoneCallback on_done) {
  go(GoParams{limits, mode, std::nullopt, std::nullopt, std::nullopt, {}}, std::move(on_info),
     std::move(on_done));
}

void Engine::go(const GoParams& params, InfoCallback on_info, DoneCallback on_done) {
  const std::int64_t now = SearchControl::now_ns();
  std::lock_guard lock(impl_->mutex);
  Impl& e = *impl_;
  Job job;
  job.request = e.request(params);
  job.book_move = e.book_move(params, job.request);
  if (job.book_move) job.book = e.book;
  job.on_info = std::move(on_info);
  job.on_done = std::move(on_done);
  job.go_ns = now;
  // A new search supersedes whatever is running or queued; each still gets its done.
  if (e.busy()) {
    e.control.stop.store(true, std::memory_order_relaxed);
    for (Job& j : e.jobs) j.cancelled = true;
  }
  e.jobs.push_back(std::move(job));
  e.cv.notify_all();
}

void Engine::stop() {
  std::lock_guard lock(impl_->mutex);
  impl_->control.stop.store(true, std::memory_order_relaxed);
  for (Job& j : impl_->jobs) j.cancelled = true;
}

void Engine::ponder_hit() {
  const std::int64_t now = SearchControl::now_ns();
  std::lock_guard lock(impl_->mutex);
  Impl& e = *impl_;
  if (!e.jobs.empty()) {
    Job& last = e.jobs.back();
    if (last.request.mode == GoMode::Ponder && !last.ponder_hit) {
      last.ponder_hit = true;
      last.ponder_hit_ns = now;
    }
    return;
  }
  if (e.running && e.running_mode == GoMode::Ponder && e.control.pondering.load(std::memory_order_relaxed)) {
    e.control.clock_start_ns.store(now, std::memory_order_relaxed);
    e.control.pondering.store(false, std::memory_order_relaxed);
  }
}

void Engine::wait() {
  if (impl_->on_search_thread()) return;  // from a callback: the search is ending anyway
  std::unique_lock lock(impl_->mutex);
  impl_->cv.wait(lock, [this] { return !impl_->busy(); });
}

bool Engine::searching() const {
  std::lock_guard lock(impl_->mutex);
  return impl_->busy();
}

SearchResult Engine::search(const GoParams& params, InfoCallback on_info) {
  SearchResult result;
  go(params, std::move(on_info), [&result](const SearchResult& r) { result = r; });
  wait();
  return result;
}

SearchResult Engine::search(const SearchLimits& limits, GoMode mode, InfoCallback on_info) {
  return search(GoParams{limits, mode, std::nullopt, std::nullopt, std::nullopt, {}}, std::move(on_info));
}

}  // namespace damas
