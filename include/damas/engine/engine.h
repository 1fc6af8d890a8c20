// The Engine facade: the one contract between the protocol front ends (Hub, DXP, tools) and the
// search. Front ends speak text; the engine speaks structs.
//
// Contract:
//   * go() and stop() never block. go() starts a search on a background thread and returns.
//   * Every go() ends with exactly one call of its DoneCallback (normal end, stop(), or a
//     limit), from the search thread. InfoCallbacks come from the search thread too, before
//     done. Callers serialise their own output.
//   * wait() blocks until the current search (if any) has called done.
//   * set_position(), set_option(), new_game() are for an idle engine; called during a search
//     they return an error (Status) or do nothing, never race.
//   * The engine never throws to its caller and never writes to stdout/stderr.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "damas/book/book.h"
#include "damas/core/draw_rules.h"
#include "damas/core/expected.h"
#include "damas/core/move.h"
#include "damas/core/position.h"
#include "damas/core/types.h"
#include "damas/engine/options.h"
#include "damas/search/level.h"
#include "damas/search/limits.h"

namespace damas {

// The endgame databases an engine probes, and how they were chosen (egdb-path).
struct EgdbStatus {
  std::string dir;               // "" when none are in use
  int pieces = 0;                // every position with up to this many pieces (0: none)
  std::string source;            // "egdb-path", "DAMAS_EGDB", "user directory", "installed"; "" when none
  std::string setting = "auto";  // the egdb-path value
  Variant variant = Variant::Brazilian;  // the game whose databases are looked for
  std::vector<std::string> problems;     // slices left out, or why a found directory is not used
  // One line for people: "endgame databases: up to 5 pieces in /usr/share/damas/egdb (installed)".
  std::string text() const;
};

// The opening book the engine plays from (book, book-file), and how it was chosen.
struct BookStatus {
  Variant variant = Variant::Brazilian;  // the game the book is looked for
  std::string path;                      // "" when none is in use
  std::size_t positions = 0;
  std::string source;            // "book-file", "DAMAS_BOOK", "user directory", "installed", "source tree"
  bool enabled = true;           // the book option
  std::string setting = "auto";  // the book-file value
  std::string problem;           // why the book found is not used (damaged, foreign): the engine plays on
  // One line for people: "opening book: 20000 positions in /usr/share/damas/brazilian.book (installed)".
  std::string text() const;
};

// The files named by eval-file, egdb-path and book-file, checked as set_option checks them: for front ends
// that build an engine from Options (Engine(const Options&) keeps the default for a value it
// cannot use), so a bad path is refused with its error instead.
Status check_option_files(const Options& options);

// The settings of one search. They travel with it and change no option of the engine, so the
// clients of one engine (the web's search slots) never rewrite the settings of each other's
// searches. An unset field takes the engine's option of that name.
struct GoParams {
  SearchLimits limits;
  GoMode mode = GoMode::Think;
  std::optional<int> multipv = std::nullopt;  // kept within the multipv option's range
  std::optional<LevelParams> level =
      std::nullopt;  // level_params("easy"); weak levels apply to play, not analysis
  std::optional<DrawRules> draw_rules = std::nullopt;
  std::vector<Move> excluded = {};  // root moves not searched (the book builder's search outside the book)
};

class Engine {
 public:
  Engine();
  explicit Engine(const Options& options);
  ~Engine();  // stops and joins any search
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

  // Validated against the registry (options.h); resizes tables etc. Idle engine only.
  Status set_option(std::string_view name, std::string_view value);
  const Options& options() const;
  // What egdb-path found (the problems of a found directory are not errors: the engine plays on).
  EgdbStatus egdb_status() const;
  // The opening book in use, or why there is none.
  BookStatus book_status() const;
  // The book's moves of a position (none: not in the book, or no book in use).
  std::optional<book::BookEntry> book_entry(const Position& position) const;
  // The book's main line from a position: its best moves while they stay in the book.
  std::vector<Move> book_line(const Position& position) const;

  // Root = start with `moves` played (every move checked for legality). The moves are the game
  // history used for repetition detection. On error nothing changes.
  // `start_plies`: the draw count the start came with (a lidraughts FEN's H; draw_rules.h).
  Status set_position(const Position& start, const std::vector<Move>& moves = {}, int start_plies = 0);
  const Position& position() const;              // the root
  const std::vector<Position>& history() const;  // start .. root (root last)

  void new_game();  // forget everything learned (clears the transposition table)

  void go(const GoParams& params, InfoCallback on_info, DoneCallback on_done);
  // The same with the options' multipv, level and draw rules.
  void go(const SearchLimits& limits, GoMode mode, InfoCallback on_info, DoneCallback on_done);
  void stop();
  void ponder_hit();  // switch a ponder search to the real clock; ignored otherwise
  void wait();
  bool searching() const;

  // Convenience for tools: go() + wait(), returning the result.
  SearchResult search(const GoParams& params, InfoCallback on_info = {});
  SearchResult search(const SearchLimits& limits, GoMode mode = GoMode::Think, InfoCallback on_info = {});

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace damas
