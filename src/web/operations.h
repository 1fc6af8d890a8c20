// The operations of the board's API, each declared once with what it needs: Quick ones answer
// from the sessions at once, SearchSlot ones may wait in the search queue and search. The server
// chooses its thread pool from this table (Api::may_search).
#pragma once

#include <string_view>

#include "api_error.h"
#include "api_state.h"

namespace damas::web {

enum class Need { Quick, SearchSlot };

struct Operation {
  std::string_view name;  // POST /api/<name>
  Need need;
  Answer (*run)(ApiState& state, const Json& body);
};

// The operation of that name, or nullptr.
const Operation* find_operation(std::string_view name);

// The handlers of the table, by concern.
Answer op_games(ApiState& state, const Json& body);
Answer op_new(ApiState& state, const Json& body);
Answer op_load_pdn(ApiState& state, const Json& body);
Answer op_state(ApiState& state, const Json& body);
Answer op_move(ApiState& state, const Json& body);
Answer op_undo(ApiState& state, const Json& body);
Answer op_goto(ApiState& state, const Json& body);
Answer op_close(ApiState& state, const Json& body);
Answer op_stats(ApiState& state, const Json& body);
Answer op_hint(ApiState& state, const Json& body);
Answer op_engine_move(ApiState& state, const Json& body);
Answer op_analysis_start(ApiState& state, const Json& body);
Answer op_analysis(ApiState& state, const Json& body);
Answer op_analysis_stop(ApiState& state, const Json& body);
Answer op_review_start(ApiState& state, const Json& body);
Answer op_review_step(ApiState& state, const Json& body);
Answer op_review_cancel(ApiState& state, const Json& body);
Answer op_review(ApiState& state, const Json& body);
Answer op_review_line(ApiState& state, const Json& body);
Answer op_opening(ApiState& state, const Json& body);

}  // namespace damas::web
