// The move picker's bands and the move history that feeds them.
#include <catch2/catch.hpp>

#include <algorithm>
#include <set>
#include <vector>

#include "damas/core/movegen.h"
#include "damas/search/history.h"
#include "damas/search/move_picker.h"
#include "rules_helpers.h"

using namespace damas;

namespace {

MoveList moves_of(const Position& p) {
  MoveList list;
  generate_legal_moves(p, list);
  return list;
}

std::vector<PickedMove> pick_all(MovePicker& picker) {
  std::vector<PickedMove> out;
  while (const std::optional<PickedMove> m = picker.next()) out.push_back(*m);
  return out;
}

// The opponent's moves that led to a node: any two distinct moves will do as countermove keys.
Move opponent_move(int n) { return moves_of(Position::start().after(moves_of(Position::start())[0]))[n]; }

}  // namespace

TEST_CASE("move picker: hash move, killers, countermove, then history, each move once", "[search]") {
  const Position pos = Position::start();
  const MoveList legal = moves_of(pos);
  REQUIRE(legal.size() == 7);
  const Move hash = legal[6], killer_old = legal[1], killer_new = legal[2], counter = legal[3],
             worst = legal[4];
  MoveHistory history;
  // The countermove of opponent_move(0), stored at another ply than the killers.
  history.note_played(0, opponent_move(0));
  history.reward_cut(pos, std::vector<Move>{counter}, 4, 1);
  // The killers of ply 3, cut after opponent_move(1); `worst` was tried before a cut and lost history.
  history.note_played(2, opponent_move(1));
  history.reward_cut(pos, std::vector<Move>{worst, killer_old}, 4, 3);
  history.reward_cut(pos, std::vector<Move>{killer_new}, 4, 3);
  history.note_played(2, opponent_move(0));
  REQUIRE(history.score(pos.side_to_move(), worst) < 0);

  MoveList moves = legal;
  MovePicker picker(pos, moves, MoveTag::of(hash), history, 3);
  const std::vector<PickedMove> picked = pick_all(picker);
  REQUIRE(picked.size() == legal.size());
  CHECK(picked[0].move == hash);
  CHECK(picked[0].band == Band::Hash);
  CHECK(picked[1].move == killer_new);
  CHECK(picked[2].move == killer_old);
  CHECK((picked[1].band == Band::Killer && picked[2].band == Band::Killer));
  CHECK(picked[3].move == counter);
  CHECK(picked[3].band == Band::Countermove);
  CHECK(picked.back().move == worst);
  std::set<std::pair<int, int>> seen;
  for (std::size_t i = 0; i < picked.size(); ++i) {
    CHECK(picked[i].index == i);
    CHECK(picker.picked()[i] == picked[i].move);
    seen.insert({picked[i].move.from.bit, picked[i].move.to.bit});
    if (i > 3) CHECK(picked[i].band == Band::History);
    if (i > 0) CHECK(picked[i].band <= picked[i - 1].band);
  }
  CHECK(seen.size() == legal.size());
  CHECK_FALSE(picker.next().has_value());
}

TEST_CASE("move picker: the countermove belongs to the opponent's move, after another it is history",
          "[search]") {
  const Position pos = Position::start();
  const MoveList legal = moves_of(pos);
  MoveHistory history;
  history.note_played(0, opponent_move(0));
  history.reward_cut(pos, std::vector<Move>{legal[3]}, 4, 1);
  REQUIRE(history.countermove(pos, 1) != nullptr);
  CHECK(*history.countermove(pos, 1) == legal[3]);
  CHECK(history.countermove(pos, 0) == nullptr);  // the root has no previous move
  // At a node of another ply (no killers there) after the same opponent's move: the countermove.
  history.note_played(2, opponent_move(0));
  MoveList moves = legal;
  MovePicker same(pos, moves, MoveTag{}, history, 3);
  const std::vector<PickedMove> after_same = pick_all(same);
  CHECK(after_same[0].move == legal[3]);
  CHECK(after_same[0].band == Band::Countermove);
  // After the opponent's other move the slot holds no legal move: legal[3] is ordered by history.
  history.note_played(2, opponent_move(1));
  moves = legal;
  MovePicker picker(pos, moves, MoveTag{}, history, 3);
  const std::vector<PickedMove> picked = pick_all(picker);
  REQUIRE(picked.size() == legal.size());
  CHECK(picked[0].move == legal[3]);  // the best history
  for (const PickedMove& m : picked) CHECK(m.band == Band::History);
}

TEST_CASE("move picker: a capture position is all Capture band but the hash move", "[search]") {
  // The man on 22 takes 17 or 18.
  const Position pos = testing::fen("W:W22:B17,18");
  MoveList moves = moves_of(pos);
  REQUIRE(moves.size() >= 2);
  REQUIRE(moves[0].is_capture());
  const Move hash = moves[moves.size() - 1];
  MovePicker picker(pos, moves, MoveTag::of(hash), MoveHistory{}, 0);
  const std::vector<PickedMove> picked = pick_all(picker);
  CHECK(picked[0].move == hash);
  CHECK(picked[0].band == Band::Hash);
  for (std::size_t i = 1; i < picked.size(); ++i) CHECK(picked[i].band == Band::Capture);
}

TEST_CASE("move history: values saturate within the limit both ways", "[search]") {
  const Position pos = Position::start();
  const MoveList legal = moves_of(pos);
  MoveHistory history;
  for (int i = 0; i < 1000; ++i) history.reward_cut(pos, std::vector<Move>{legal[0], legal[1]}, 20, 5);
  const int gained = history.score(pos.side_to_move(), legal[1]);
  const int lost = history.score(pos.side_to_move(), legal[0]);
  CHECK(gained > MoveHistory::kLimit / 2);
  CHECK(gained <= MoveHistory::kLimit);
  CHECK(lost < -MoveHistory::kLimit / 2);
  CHECK(lost >= -MoveHistory::kLimit);
  CHECK(history.killers(5)[0] == legal[1]);
  // A capture that cuts is no killer and changes no history.
  const Position capture_pos = testing::fen("W:W22:B17,18");
  const MoveList captures = moves_of(capture_pos);
  history.reward_cut(capture_pos, std::vector<Move>{captures[0]}, 20, 5);
  CHECK(history.killers(5)[0] == legal[1]);
}
