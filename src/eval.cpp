#include "damas/eval.h"

#include <fstream>
#include <sstream>

namespace damas {

// Placeholder material count; the evaluation owner replaces this file.
Score evaluate(const Position& p, const EvalWeights& w) {
  const Color us = p.side_to_move();
  const Color them = ~us;
  return w.man * (popcount(p.men(us)) - popcount(p.men(them))) +
         w.king * (popcount(p.kings(us)) - popcount(p.kings(them)));
}

Expected<EvalWeights> load_weights(const std::string& path) {
  std::ifstream in(path);
  if (!in) return Error{"cannot open weights file " + path};
  EvalWeights w;
  std::string line;
  int line_number = 0;
  while (std::getline(in, line)) {
    ++line_number;
    if (const auto hash = line.find('#'); hash != std::string::npos) line.resize(hash);
    std::istringstream fields(line);
    std::string name;
    long value = 0;
    if (!(fields >> name)) continue;
    if (!(fields >> value)) return Error{path + ":" + std::to_string(line_number) + ": missing value"};
    if (name == "man") w.man = static_cast<Score>(value);
    else if (name == "king") w.king = static_cast<Score>(value);
    else return Error{path + ":" + std::to_string(line_number) + ": unknown weight " + name};
  }
  return w;
}

std::string weights_to_text(const EvalWeights& w) {
  return "man " + std::to_string(w.man) + "\nking " + std::to_string(w.king) + "\n";
}

}  // namespace damas
