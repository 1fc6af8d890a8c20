#include "damas/book/builder.h"

#include <algorithm>
#include <limits>
#include <optional>
#include <utility>

namespace damas::book {
namespace {

constexpr Score kNoCost = std::numeric_limits<Score>::max();
constexpr int kMaxStoredDepth = 255;

BookMove leaf_move(const SearchAnswer& a) { return BookMove{a.best, a.score, a.depth, 0, false}; }

}  // namespace

Score backed_up(Score child_value) {
  Score s = -child_value;
  if (is_win_score(s)) --s;
  else if (is_loss_score(s)) ++s;
  return s;
}

// One pass over the book: the positions reachable from the initial one through book moves, parents
// before children, with the minimax values, the depth behind them, and the cheapest line to each.
struct Builder::Tree {
  std::vector<std::vector<std::optional<std::size_t>>> child;  // per entry and move
  std::vector<std::size_t> order;
  std::vector<Score> value;
  std::vector<int> depth;
  std::vector<Score> cost;
  std::vector<std::pair<std::size_t, std::size_t>> parent;  // (entry, move) of the cheapest line
  std::vector<int> ply;

  void back_up(Book& book);
  void find_lines(Book& book);
};

Expected<Builder> Builder::resume(Book book) {
  if (book.size() > 0 && !book.index_of(Position::start(book.variant)))
    return Error{"the book does not hold the initial position: it was not made by damas book build"};
  const BuildSettings& s = book.settings;
  if (s.max_ply < 1 || s.margin < 0 || s.ply_cost < 0) return Error{"bad build settings"};
  return Builder(std::move(book));
}

namespace {

// Each move's position in the book, for the moves in it.
std::vector<std::vector<std::optional<std::size_t>>> children(const Book& book) {
  std::vector<std::vector<std::optional<std::size_t>>> child(book.size());
  for (std::size_t i = 0; i < book.size(); ++i) {
    const BookEntry& e = book.entry(i);
    for (const BookMove& m : e.moves)
      child[i].push_back(m.in_book ? book.index_of(e.position.after(m.move)) : std::nullopt);
  }
  return child;
}

// The positions reachable from `root` through book moves, children before parents (depth-first
// post-order, iterative).
std::vector<std::size_t> post_order(const std::vector<std::vector<std::optional<std::size_t>>>& child,
                                    std::size_t root) {
  std::vector<std::size_t> order;
  std::vector<bool> seen(child.size(), false);
  std::vector<std::pair<std::size_t, std::size_t>> stack{{root, 0}};
  seen[root] = true;
  while (!stack.empty()) {
    auto& [node, next] = stack.back();
    if (next == child[node].size()) {
      order.push_back(node);
      stack.pop_back();
      continue;
    }
    const std::optional<std::size_t> c = child[node][next++];
    if (c && !seen[*c]) {
      seen[*c] = true;
      stack.push_back({*c, 0});
    }
  }
  return order;
}

}  // namespace

// Children first: every book move gets the backed-up value of its position.
void Builder::Tree::back_up(Book& book) {
  value.assign(book.size(), 0);
  depth.assign(book.size(), 0);
  for (auto it = order.rbegin(); it != order.rend(); ++it) {
    BookEntry& e = book.entry(*it);
    for (std::size_t k = 0; k < e.moves.size(); ++k) {
      if (!child[*it][k]) continue;
      e.moves[k].score = backed_up(value[*child[*it][k]]);
      e.moves[k].depth = std::min(kMaxStoredDepth, depth[*child[*it][k]] + 1);
    }
    value[*it] = best_score(e);
    const auto best = std::find_if(e.moves.begin(), e.moves.end(),
                                   [&](const BookMove& m) { return m.score == value[*it]; });
    depth[*it] = best == e.moves.end() ? 0 : best->depth;
  }
}

// Parents first: the fewest plies to each position, and its cheapest line through moves within
// the margin.
void Builder::Tree::find_lines(Book& book) {
  const std::size_t n = book.size();
  cost.assign(n, kNoCost);
  parent.assign(n, {n, 0});
  ply.assign(n, std::numeric_limits<int>::max());
  cost[order.front()] = 0;
  ply[order.front()] = 0;
  for (const std::size_t i : order) {
    BookEntry& e = book.entry(i);
    e.ply = ply[i];
    for (std::size_t k = 0; k < e.moves.size(); ++k) {
      if (!child[i][k]) continue;
      const std::size_t c = *child[i][k];
      ply[c] = std::min(ply[c], ply[i] + 1);
      const Score lost = value[i] - e.moves[k].score;
      if (cost[i] == kNoCost || lost > book.settings.margin) continue;
      if (cost[i] + lost + book.settings.ply_cost < cost[c]) {
        cost[c] = cost[i] + lost + book.settings.ply_cost;
        parent[c] = {i, k};
      }
    }
  }
}

Builder::Tree Builder::evaluate() {
  Tree t;
  t.child = children(book_);
  t.order = post_order(t.child, *book_.index_of(Position::start(book_.variant)));
  std::reverse(t.order.begin(), t.order.end());
  t.back_up(book_);
  t.find_lines(book_);
  return t;
}

std::optional<Builder::Candidate> Builder::cheapest(const Tree& t) const {
  std::optional<Candidate> best;
  for (const std::size_t i : t.order) {
    const BookEntry& e = book_.entry(i);
    if (t.cost[i] == kNoCost || t.ply[i] >= book_.settings.max_ply || e.position.kings() != 0) continue;
    for (std::size_t k = 0; k < e.moves.size(); ++k) {
      const Score lost = t.value[i] - e.moves[k].score;
      if (e.moves[k].in_book || lost > book_.settings.margin) continue;
      const Score cost = t.cost[i] + lost + book_.settings.ply_cost;
      if (!best || cost < best->cost || (cost == best->cost && i < best->entry)) best = Candidate{i, k, cost};
    }
  }
  return best;
}

// The move becomes a book move (its position searched when new), the position it left is searched
// again for its best move outside the book, and the line to it counts one more expansion.
void Builder::expand(const Candidate& c, const Tree& t, const LeafSearch& search) {
  const Position position = book_.entry(c.entry).position;
  const Position next = position.after(book_.entry(c.entry).moves[c.move].move);
  if (!book_.index_of(next)) {
    const SearchAnswer a = search(next, {});
    BookEntry added{next, t.ply[c.entry] + 1, {}};
    if (!a.best.is_null()) added.moves.push_back(leaf_move(a));
    (void)book_.add(std::move(added));  // not in the book: cannot fail
  }
  BookEntry& e = book_.entry(c.entry);
  e.moves[c.move].in_book = true;
  ++e.moves[c.move].expansions;
  std::vector<Move> in_book;
  for (const BookMove& m : e.moves) in_book.push_back(m.move);
  const SearchAnswer rest = search(position, in_book);
  if (!rest.best.is_null()) book_.entry(c.entry).moves.push_back(leaf_move(rest));
  for (std::size_t i = c.entry; t.parent[i].first < t.parent.size();) {
    const auto [from, move] = t.parent[i];
    ++book_.entry(from).moves[move].expansions;
    i = from;
  }
}

StepReport Builder::step(const LeafSearch& search) {
  if (book_.size() == 0) {
    const Position start = Position::start(book_.variant);
    const SearchAnswer a = search(start, {});
    BookEntry root{start, 0, {}};
    if (!a.best.is_null()) root.moves.push_back(leaf_move(a));
    (void)book_.add(std::move(root));
    return StepReport{true, 0, 0};
  }
  Tree t = evaluate();
  const std::optional<Candidate> c = cheapest(t);
  if (!c) return StepReport{};
  expand(*c, t, search);
  evaluate();  // the book's scores and plies up to date for whoever reads or saves it
  return StepReport{true, t.ply[c->entry] + 1, c->cost};
}

}  // namespace damas::book
