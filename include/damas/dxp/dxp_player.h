// Who chooses our moves in a DXP session: an interface, so that session and transport tests
// can use a fake, and the adapter over the real Engine facade.
#pragma once

#include <functional>

#include "damas/core/game.h"
#include "damas/engine/engine.h"

namespace damas::dxp {

class Player {
 public:
  using Done = std::function<void(const SearchResult&)>;
  virtual ~Player() = default;
  virtual void new_game() = 0;
  // Searches the game's current position (its moves are the history). `done` is called exactly
  // once, from any thread, even after stop().
  virtual void start(const Game& game, const SearchLimits& limits, Done done) = 0;
  virtual void stop() = 0;  // the current search ends soon
  virtual void wait() = 0;  // blocks until no search runs
};

class EnginePlayer final : public Player {
 public:
  explicit EnginePlayer(Engine& engine) : engine_(engine) {}
  void new_game() override;
  void start(const Game& game, const SearchLimits& limits, Done done) override;
  void stop() override;
  void wait() override;

 private:
  Engine& engine_;
};

}  // namespace damas::dxp
