// Shared helpers for the rules tests.
#pragma once

#include <catch2/catch.hpp>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "damas/core/movegen.h"
#include "damas/core/notation.h"

namespace damas::testing {

// A FEN in game v's squares (its own numbering), a position of that game.
inline Position fen(std::string_view text, Variant v = Variant::Brazilian) {
  const Expected<Position> p = parse_fen(text, v);
  INFO(std::string(text) << (p ? "" : ": " + p.error()));
  REQUIRE(p.has_value());
  return p.value();
}

// The legal moves of a position as Hub strings (in the position's game's numbering).
inline std::set<std::string> legal_moves(const Position& p) {
  MoveList list;
  generate_legal_moves(p, list);
  std::set<std::string> out;
  for (const Move& m : list) out.insert(to_hub_move(p, m));
  REQUIRE(out.size() == list.size());  // no duplicates in the list itself
  REQUIRE(count_legal_moves(p) == static_cast<int>(list.size()));
  REQUIRE(has_legal_move(p) == !list.empty());
  return out;
}

// The move of p written as text (any notation damas reads); the test fails when it is not legal.
inline Move move(const Position& p, std::string_view text) {
  const Expected<Move> m = parse_any_move(p, text);
  INFO(std::string(text) << (m ? "" : ": " + m.error()));
  REQUIRE(m.has_value());
  return m.value();
}

// The position after the moves, from the initial position.
inline Position after(std::string_view moves) {
  Position p = Position::start();
  const Expected<std::vector<Move>> list = parse_move_list(p, moves);
  INFO(std::string(moves) << (list ? "" : ": " + list.error()));
  REQUIRE(list.has_value());
  for (const Move& m : list.value()) p = p.after(m);
  return p;
}

inline std::set<std::string> legal_moves(const std::string& fen_text) { return legal_moves(fen(fen_text)); }

}  // namespace damas::testing
