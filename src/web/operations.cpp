#include "operations.h"

namespace damas::web {

const Operation* find_operation(std::string_view name) {
  static constexpr Operation kOperations[] = {
      {"games", Need::Quick, &op_games},
      {"new", Need::Quick, &op_new},
      {"load-pdn", Need::Quick, &op_load_pdn},
      {"state", Need::Quick, &op_state},
      {"move", Need::Quick, &op_move},
      {"undo", Need::Quick, &op_undo},
      {"goto", Need::Quick, &op_goto},
      {"hint", Need::SearchSlot, &op_hint},
      {"engine-move", Need::SearchSlot, &op_engine_move},
      {"analysis-start", Need::SearchSlot, &op_analysis_start},
      {"analysis", Need::Quick, &op_analysis},
      {"analysis-stop", Need::Quick, &op_analysis_stop},
      {"close", Need::Quick, &op_close},
      {"review-start", Need::Quick, &op_review_start},
      {"review-step", Need::SearchSlot, &op_review_step},
      {"review-cancel", Need::Quick, &op_review_cancel},
      {"review", Need::Quick, &op_review},
      {"review-line", Need::Quick, &op_review_line},
      {"stats", Need::Quick, &op_stats},
      {"opening", Need::Quick, &op_opening},
  };
  for (const Operation& op : kOperations)
    if (op.name == name) return &op;
  return nullptr;
}

}  // namespace damas::web
