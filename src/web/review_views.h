// The JSON views of a game's review (review/review.h): its progress, the graph's values and marks,
// and the positions of the engine's line at a move.
#pragma once

#include <cstddef>
#include <string>

#include "damas/core/json.h"
#include "damas/review/review.h"
#include "session_store.h"

namespace damas::web {

// A review of a game is still about it when the game has the same start and moves.
bool same_game(const Game& a, const Game& b);
// reviewing, done, total, finished and, once finished, the review.
Json review_progress_json(const std::string& id, const Session& s);
// The position before move `ply` (1-based), then each position of the engine's line from there.
Json review_line_json(const std::string& id, const review::GameReview& r, std::size_t ply);

}  // namespace damas::web
