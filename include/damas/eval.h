// Static evaluation. Weights live in one struct so they can be learned and loaded from a file.
#pragma once

#include <string>

#include "damas/expected.h"
#include "damas/position.h"
#include "damas/types.h"

namespace damas {

struct EvalWeights {
  Score man = 100;
  Score king = 300;
  // Further terms are added by the evaluation's owner; every weight is a named field here.
};

// Score of p for the side to move, in 1/100 man. Must not be called with a capture pending
// (the search resolves captures first); never returns a mate score.
Score evaluate(const Position& p, const EvalWeights& w);

// Weights file: one "name value" pair per line, '#' comments. Unknown names are an error.
Expected<EvalWeights> load_weights(const std::string& path);
std::string weights_to_text(const EvalWeights& w);

}  // namespace damas
