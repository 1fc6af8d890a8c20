// Database wins checked against the draw laws (egdb.h: wins_inside_laws).
#include <cstdint>
#include <map>
#include <optional>
#include <tuple>

#include "damas/core/movegen.h"
#include "damas/core/types.h"
#include "damas/egdb/egdb.h"

namespace damas::egdb {
namespace {

// Every ply of the shortest win lowers the distance by one, so no line repeats a position and
// the search ends; a node is remembered with its counters, which decide its fate as much as the
// pieces do. The tree of a long 6-piece win can hold millions of such nodes: past the budget the
// check gives up (out_of_budget) rather than run for hours.
class LawCheck {
 public:
  LawCheck(const Database& db, DrawRules rules, std::uint64_t node_budget)
      : db_(db), rules_(rules), node_budget_(node_budget) {}

  bool out_of_budget() const { return nodes_ > node_budget_; }

  // The side to move wins in `plies` by the databases.
  bool winner_wins(const Position& p, const DrawCounters& c, int plies) {
    const auto key = memo_key(p, c);
    if (const auto it = winner_memo_.find(key); it != winner_memo_.end()) return it->second;
    if (++nodes_ > node_budget_) return false;
    bool wins = false;
    MoveList moves;
    generate_legal_moves(p, moves);
    for (const Move& m : moves) {
      const Position child = p.after(m);
      const std::optional<Value> v = db_.probe(child);
      if (!v || v->wdl != Wdl::Loss || v->plies != plies - 1) continue;  // not a shortest win
      const DrawCounters next = advance(c, p, child);
      if (ended_by_law(child, next)) continue;
      if (v->plies == 0 || defender_loses(child, next, plies - 1)) {
        wins = true;
        break;
      }
    }
    if (!out_of_budget()) winner_memo_.emplace(key, wins);
    return wins;
  }

 private:
  // The side to move loses in `plies` by the databases, whatever it plays.
  bool defender_loses(const Position& p, const DrawCounters& c, int plies) {
    const auto key = memo_key(p, c);
    if (const auto it = defender_memo_.find(key); it != defender_memo_.end()) return it->second;
    const bool loses = every_reply_loses(p, c, plies);
    if (!out_of_budget()) defender_memo_.emplace(key, loses);
    return loses;
  }
  bool every_reply_loses(const Position& p, const DrawCounters& c, int plies) {
    MoveList moves;
    generate_legal_moves(p, moves);
    for (const Move& m : moves) {
      const Position child = p.after(m);
      const std::optional<Value> v = db_.probe(child);
      if (!v || v->wdl != Wdl::Win || v->plies > plies - 1) return false;
      const DrawCounters next = advance(c, p, child);
      if (ended_by_law(child, next) || !winner_wins(child, next, v->plies)) return false;
    }
    return true;
  }

  DrawCounters advance(const DrawCounters& c, const Position& before, const Position& after) const {
    return advance_counters(rules_, c, before, after);
  }
  // As the referee (core/game.h): no legal move loses before any law draws.
  bool ended_by_law(const Position& p, const DrawCounters& c) const {
    return drawn_by_law(p, rules_, c) && has_legal_move(p);
  }
  std::tuple<Key, int, int, int> memo_key(const Position& p, const DrawCounters& c) const {
    if (rules_ == DrawRules::Seed) return {p.key(), p.reversible_plies(), 0, 0};
    return {p.key(), c.plies, c.lone_king_diagonal[0] | c.rio << 8, c.lone_king_diagonal[1]};
  }

  const Database& db_;
  const DrawRules rules_;
  const std::uint64_t node_budget_;
  std::uint64_t nodes_ = 0;
  std::map<std::tuple<Key, int, int, int>, bool> winner_memo_;
  std::map<std::tuple<Key, int, int, int>, bool> defender_memo_;
};

}  // namespace

std::optional<bool> wins_inside_laws(const Database& db, const Position& p, DrawRules rules,
                                     const DrawCounters& counters, std::uint64_t node_budget) {
  const std::optional<Value> v = db.probe(p);
  if (!v || v->wdl != Wdl::Win) return false;
  if (drawn_by_law(p, rules, counters)) return false;
  LawCheck check(db, rules, node_budget);
  const bool wins = check.winner_wins(p, counters, v->plies);
  if (check.out_of_budget()) return std::nullopt;
  return wins;
}

}  // namespace damas::egdb
