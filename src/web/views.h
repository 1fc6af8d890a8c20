// The JSON views of the board's API: positions, moves with their landing squares, a session's
// game (the state answer), search lines. protocol/web-api.md describes every field.
#pragma once

#include <string>
#include <vector>

#include "damas/core/game.h"
#include "damas/core/json.h"
#include "damas/engine/engine.h"
#include "session_store.h"

namespace damas::web {

std::string color_name(Color c);
// Squares by their names on game v's board (core/game_squares.h: the mirrored board of Spanish and
// Portuguese has its own), never the internal board's.
Json square_json(Square s, Variant v);
Json square_list(Bitboard b, Variant v);
// {from, to, captured} of a move played in game v.
Json last_move_json(const Move& m, Variant v);
Json move_json(const Position& p, const Move& m);
Json pieces_json(const Position& p);
Json result_json(const Game& g);
// The state of a session: its position, legal moves, move list, result, PDN.
Json state_json(const std::string& id, const Session& s);
// The PV in algebraic notation, cut at the first move that is not legal.
Json pv_json(Position p, const std::vector<Move>& pv);
// An analysis event {"type": "info", ...} of a search from `root`.
Json info_json(const std::string& id, const Position& root, const SearchInfo& info);

}  // namespace damas::web
