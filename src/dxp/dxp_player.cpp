#include "damas/dxp/dxp_player.h"

namespace damas::dxp {

void EnginePlayer::new_game() {
  engine_.stop();
  engine_.wait();
  engine_.new_game();
}

void EnginePlayer::start(const Game& game, const SearchLimits& limits, Done done) {
  // A stopped search may still be finishing; the engine takes a position only when idle.
  engine_.stop();
  engine_.wait();
  if (Status s = engine_.set_position(game.start(), game.moves()); !s) {
    done(SearchResult{});  // the session falls back to a legal move
    return;
  }
  engine_.go(limits, GoMode::Think, {}, std::move(done));
}

void EnginePlayer::stop() { engine_.stop(); }

void EnginePlayer::wait() { engine_.wait(); }

}  // namespace damas::dxp
