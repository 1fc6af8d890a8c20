#include <catch2/catch.hpp>

#include <cmath>
#include <set>

#include "damas/core/movegen.h"
#include "damas/core/notation.h"
#include "damas/core/pdn.h"
#include "damas/engine/options.h"
#include "damas/match/selfplay.h"
#include "strict_pdn.h"

using namespace damas;

TEST_CASE("Elo from a score follows the logistic model", "[selfplay][elo]") {
  CHECK(elo_from_score(0.5) == Approx(0.0).margin(1e-9));
  CHECK(elo_from_score(0.75) == Approx(400.0 * std::log10(3.0)));
  CHECK(elo_from_score(0.25) == Approx(-elo_from_score(0.75)));
  CHECK(std::isinf(elo_from_score(1.0)));
  CHECK(elo_from_score(0.0) < 0);
  CHECK(std::isinf(elo_from_score(0.0)));
}

TEST_CASE("Elo interval uses the trinomial variance", "[selfplay][elo]") {
  // 60 wins, 20 draws, 20 losses: score 0.7, per-game variance 0.16, standard error 0.04.
  const EloEstimate e = elo_estimate(60, 20, 20);
  CHECK(e.score == Approx(0.7));
  CHECK(e.elo == Approx(elo_from_score(0.7)));
  CHECK(e.elo == Approx(147.19).margin(0.01));
  CHECK(e.lower == Approx(elo_from_score(0.7 - 1.959964 * 0.04)));
  CHECK(e.upper == Approx(elo_from_score(0.7 + 1.959964 * 0.04)));
  CHECK(e.lower < e.elo);
  CHECK(e.elo < e.upper);

  // Mirror image: the loser's view is the negation.
  const EloEstimate m = elo_estimate(20, 20, 60);
  CHECK(m.elo == Approx(-e.elo));
  CHECK(m.lower == Approx(-e.upper));

  // Draws narrow the interval compared with the same score from wins and losses.
  const EloEstimate drawn = elo_estimate(10, 80, 10);
  const EloEstimate decisive = elo_estimate(50, 0, 50);
  CHECK(drawn.elo == Approx(0.0).margin(1e-9));
  CHECK(decisive.elo == Approx(0.0).margin(1e-9));
  CHECK(drawn.upper - drawn.lower < decisive.upper - decisive.lower);

  // More games, same proportions: a narrower interval.
  const EloEstimate more = elo_estimate(600, 200, 200);
  CHECK(more.upper - more.lower < e.upper - e.lower);

  // No games: nothing is known.
  const EloEstimate none = elo_estimate(0, 0, 0);
  CHECK(std::isinf(none.lower));
  CHECK(std::isinf(none.upper));
  CHECK(format_elo(e).find("+147.2") == 0);
}

TEST_CASE("option lists are checked against the registry", "[selfplay]") {
  const Expected<OptionList> ok = parse_option_list("level=hard, hash=16 eval-file=x.txt");
  REQUIRE(ok.has_value());
  REQUIRE(ok->size() == 3);
  CHECK((*ok)[0] == std::pair<std::string, std::string>{"level", "hard"});
  CHECK((*ok)[2].second == "x.txt");
  CHECK(parse_option_list("").has_value());
  CHECK_FALSE(parse_option_list("level=bogus").has_value());
  CHECK_FALSE(parse_option_list("no-such-option=1").has_value());
  CHECK_FALSE(parse_option_list("level").has_value());
  CHECK_FALSE(parse_option_list("=hard").has_value());
  // The selective-search switches, as in `damas selfplay --a "lmr=false"`.
  CHECK(parse_option_list("lmr=false probcut=false time-use=150").has_value());
  CHECK(parse_option_list("lmr=true,threat-extension=true").has_value());
  CHECK_FALSE(parse_option_list("lmr=no").has_value());
}

TEST_CASE("openings are parsed and checked for legality", "[selfplay]") {
  const Expected<std::vector<Opening>> ok = parse_openings("# comment\n22-18 11-15\n\n23-19 9-14 # note\n");
  REQUIRE(ok.has_value());
  REQUIRE(ok->size() == 2);
  CHECK((*ok)[0].moves.size() == 2);
  CHECK((*ok)[1].text == "23-19 9-14");
  const Expected<std::vector<Opening>> bad = parse_openings("22-18\n22-18 22-17\n", "f");
  REQUIRE_FALSE(bad.has_value());
  CHECK(bad.error().find("f:2") != std::string::npos);
  CHECK_FALSE(parse_openings("# nothing\n").has_value());
  // A FEN line is an opening too (the DXP initiator reads the same files).
  const Expected<std::vector<Opening>> fen = parse_openings("W:W18,21:B6 # a custom start\n22-18\n");
  REQUIRE(fen.has_value());
  REQUIRE(fen->size() == 2);
  CHECK((*fen)[0].moves.empty());
  CHECK(to_fen((*fen)[0].position()) == "W:W18,21:B6");
  CHECK(to_hub_position((*fen)[1].position()) ==
        to_hub_position(Position::start().after((*fen)[1].moves[0])));
  CHECK_FALSE(parse_openings("W:W99:B1\n").has_value());
  CHECK_FALSE(load_openings("/nonexistent/openings.txt").has_value());
}

TEST_CASE("the bundled openings are distinct and legal", "[selfplay]") {
  const Expected<std::vector<Opening>> openings =
      load_openings(std::string(DAMAS_SOURCE_DIR) + "/bench/openings.txt");
  REQUIRE(openings.has_value());
  CHECK(openings->size() >= 30);
  CHECK(openings->size() <= 60);
  std::set<std::string> seen;
  for (const Opening& o : *openings) {
    CHECK(o.moves.size() >= 2);
    CHECK(o.moves.size() <= 4);
    Position p = Position::start();
    for (const Move& m : o.moves) p = p.after(m);
    CHECK(seen.insert(std::to_string(p.key())).second);  // no two openings reach the same position
  }
}

TEST_CASE("a short match keeps its books", "[selfplay]") {
  MatchConfig config;
  const Expected<std::vector<Opening>> openings = parse_openings("22-18 11-15\n24-20 10-14\n");
  REQUIRE(openings.has_value());
  config.openings = *openings;
  config.options_a = {{"hash", "1"}};
  config.options_b = {{"hash", "1"}};
  config.limits.depth = 2;
  config.concurrency = 2;
  int callbacks = 0;
  const Expected<MatchResult> r = run_match(config, [&](const GameRecord&, const MatchResult& so_far) {
    ++callbacks;
    CHECK(so_far.wins + so_far.draws + so_far.losses == callbacks);
  });
  REQUIRE(r.has_value());
  CHECK(callbacks == 4);
  REQUIRE(r->games.size() == 4);
  CHECK(r->wins + r->draws + r->losses == 4);
  double points = 0;
  for (std::size_t i = 0; i < r->games.size(); ++i) {
    const GameRecord& g = r->games[i];
    CHECK(g.index == static_cast<int>(i));
    CHECK(g.opening == static_cast<int>(i / 2));
    CHECK(g.a_is_white == (i % 2 == 0));
    CHECK(g.result != GameResult::Ongoing);
    CHECK(g.reason != GameEndReason::None);
    CHECK(g.reason != GameEndReason::Adjudication);  // no ply limit was set
    CHECK(g.plies > 2);
    // Every move after the opening (two plies) with its engine and search: A moves White's in even games.
    REQUIRE(static_cast<int>(g.played.size()) == g.plies - 2);
    for (std::size_t ply = 0; ply < g.played.size(); ++ply) {
      CHECK(g.played[ply].by_a == ((ply % 2 == 0) == g.a_is_white));
      CHECK(!g.played[ply].move.is_null());
    }
    CHECK(g.pdn.find(to_string(g.result)) != std::string::npos);
    // The PDN is standard: a strict PDN 3.0 reader replays it with our reader's moves.
    const Expected<std::vector<strict_pdn::Game>> strict = strict_pdn::read(g.pdn);
    INFO(g.pdn << (strict ? "" : strict.error()));
    REQUIRE(strict.has_value());
    REQUIRE(strict->size() == 1);
    CHECK(static_cast<int>(strict->front().moves.size()) == g.plies);
    CHECK(strict->front().result == to_string(g.result));
    const std::vector<PdnGameOrError> ours = read_pdn(g.pdn);
    REQUIRE(ours.size() == 1);
    REQUIRE(ours[0].has_value());
    CHECK(strict->front().moves == ours[0]->moves);
    points += g.a_points();
  }
  CHECK(points == Approx(r->wins + 0.5 * r->draws));
  // The two openings give two colour-reversed pairs, scored by the shared Elo code (match/elo.h).
  const Pentanomial pairs = r->pentanomial();
  CHECK(pairs.pairs() == 2);
  CHECK(pairs.score() == Approx(points / 4));
}

TEST_CASE("the ply limit adjudicates a draw", "[selfplay]") {
  MatchConfig config;
  config.openings = *parse_openings("23-19 9-14\n");
  config.options_a = {{"hash", "1"}};
  config.options_b = {{"hash", "1"}};
  config.limits.depth = 1;
  config.max_plies = 12;
  config.games = 3;  // cycles the openings; the third game repeats the first
  const Expected<MatchResult> r = run_match(config);
  REQUIRE(r.has_value());
  REQUIRE(r->games.size() == 3);
  for (const GameRecord& g : r->games) {
    CHECK(g.opening == 0);
    if (g.reason == GameEndReason::Adjudication) {
      CHECK(g.plies == 12);
      CHECK(g.result == GameResult::Draw);
    } else {
      CHECK(g.plies < 12);
    }
  }
  CHECK(r->wins + r->draws + r->losses == 3);
}

TEST_CASE("a refused engine option is an error, not a crash", "[selfplay]") {
  MatchConfig config;
  config.openings = *parse_openings("23-19 9-14\n");
  config.options_a = {{"eval-file", "/nonexistent/weights.txt"}};
  config.limits.depth = 1;
  const Expected<MatchResult> r = run_match(config);
  REQUIRE_FALSE(r.has_value());
  CHECK(r.error().find("engine A") != std::string::npos);
  config.options_a.clear();
  config.concurrency = 0;
  CHECK_FALSE(run_match(config).has_value());
}

TEST_CASE("openings: FEN lines may carry a ballot name and use algebraic squares", "[selfplay]") {
  const Expected<std::vector<Opening>> ok = parse_openings(
      "B:Wa1,e3,g3,c5,c1,e1,g1,b2,d2,f2,h2,a3:Ba5,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8 | 1-I cd4 ba5 dc5\n");
  REQUIRE(ok.has_value());
  REQUIRE(ok->size() == 1);
  CHECK((*ok)[0].start.side_to_move() == Color::Black);
  CHECK(popcount((*ok)[0].start.pieces(Color::White)) == 12);
  const Expected<std::vector<Opening>> bad = parse_openings("W:Wa1,b1:Bh8 | broken\n", "f");
  REQUIRE_FALSE(bad.has_value());
  CHECK_THAT(bad.error(), Catch::StartsWith("f:1: ") && Catch::Contains("b1"));
}

TEST_CASE("openings: pydraughts' JSON ballot files are read", "[selfplay]") {
  const Expected<std::vector<Opening>> ok = parse_openings(
      "{\n  \"all\": {\"1-I cd4 ba5 dc5\": "
      "\"B:Wa1,e3,g3,c5,c1,e1,g1,b2,d2,f2,h2,a3:Ba5,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8\", "
      "\"1-III gh4 hg5\": "
      "\"W:Wa1,c3,e3,h4,c1,e1,g1,b2,d2,f2,h2,a3:Bg5,b6,d6,f6,a7,c7,e7,g7,b8,d8,f8,h8\"}\n}\n",
      "ballots.json");
  REQUIRE(ok.has_value());
  REQUIRE(ok->size() == 2);
  CHECK_THAT((*ok)[1].text, Catch::EndsWith("| 1-III gh4 hg5"));
  CHECK((*ok)[1].start.side_to_move() == Color::White);
  const Expected<std::vector<Opening>> bad = parse_openings("{\"x\": \"W:Wi9:Bh8\"}", "b.json");
  REQUIRE_FALSE(bad.has_value());
  CHECK_THAT(bad.error(), Catch::StartsWith("b.json: ballot \"x\": ") && Catch::Contains("i9"));
  CHECK_FALSE(parse_openings("{\"x\": \"W:Wa1", "c.json").has_value());
  // Malformed JSON is refused by the strict reader, with the file named, not guessed around.
  const Expected<std::vector<Opening>> comma =
      parse_openings("{\"all\": {\"x\": \"W:Wa1,c3:Bh8\",}}", "d.json");
  REQUIRE_FALSE(comma.has_value());
  CHECK_THAT(comma.error(), Catch::StartsWith("d.json: "));
  CHECK_FALSE(parse_openings("{\"all\": {\"x\": \"W:Wa1,c3:Bh8\"}", "e.json").has_value());
  // The file the issue names, when the shared folder is there: 150 ballots.
  const Expected<std::vector<Opening>> shared =
      load_openings(std::string(DAMAS_SHARED_DIR) + "/openings/fmjd64-150-ballots.json");
  if (shared) CHECK(shared->size() == 150);
}

TEST_CASE("openings (russian): FEN, move and PDN openings are positions of the game asked",
          "[selfplay][russian]") {
  const Expected<std::vector<Opening>> lines = parse_openings("22-18 11-15\nW:W18,21:B6 | a custom start\n",
                                                              "o", OpeningFormat::Auto, Variant::Russian);
  REQUIRE(lines.has_value());
  REQUIRE(lines->size() == 2);
  CHECK((*lines)[0].start == Position::start(Variant::Russian));
  CHECK((*lines)[1].start.variant() == Variant::Russian);
  // A PDN game is read by the rules its GameType names: 11x13 (crowned on d8, on as a king) is
  // Russian only; a game of another game than the one asked is refused.
  const std::string russian_game = "[GameType \"25\"]\n[FEN \"W:W11,30:B4,7,9\"]\n1. 11x13 *\n";
  const Expected<std::vector<Opening>> pdn =
      parse_openings(russian_game, "r.pdn", OpeningFormat::Pdn, Variant::Russian);
  REQUIRE(pdn.has_value());
  REQUIRE(pdn->front().moves.size() == 1);
  CHECK(pdn->front().start.variant() == Variant::Russian);
  const Expected<std::vector<Opening>> foreign =
      parse_openings("[Event \"b\"]\n1. 22-18 *\n", "b.pdn", OpeningFormat::Pdn, Variant::Russian);
  REQUIRE_FALSE(foreign.has_value());
  CHECK_THAT(foreign.error(), Catch::Contains("b.pdn:1: a game of brazilian (its GameType), not of russian"));
  CHECK_FALSE(parse_openings(russian_game, "r.pdn", OpeningFormat::Pdn).has_value());
}

TEST_CASE("selfplay (russian): the referee and both engines play Russian rules, the PDN says GameType 25",
          "[selfplay][russian]") {
  MatchConfig config;
  config.variant = Variant::Russian;
  // 11x13 is the only legal move by Russian rules (the man crowned on d8 goes on as a king).
  config.openings =
      *parse_openings("W:W11,30:B4,7,9 | crowned mid-capture\n", "o", OpeningFormat::Fen, Variant::Russian);
  config.options_a = {{"hash", "1"}, {"variant", "russian"}};
  config.options_b = {{"hash", "1"}};
  config.limits.depth = 2;
  const Expected<MatchResult> r = run_match(config);
  REQUIRE(r.has_value());
  REQUIRE(r->games.size() == 2);
  for (const GameRecord& g : r->games) {
    INFO(g.pdn);
    REQUIRE(!g.played.empty());
    CHECK(to_hub_move(g.played[0].move) == "11x13x7x9");
    CHECK(g.result != GameResult::Ongoing);
    CHECK(g.pdn.find("[GameType \"25\"]") != std::string::npos);
    const std::vector<PdnGameOrError> read = read_pdn(g.pdn);
    REQUIRE(read.size() == 1);
    REQUIRE(read[0].has_value());
    CHECK(static_cast<int>(read[0]->moves.size()) == g.plies);
  }
}

TEST_CASE("selfplay (russian): an option list or opening of another game is refused", "[selfplay][russian]") {
  MatchConfig config;
  config.variant = Variant::Russian;
  config.openings = *parse_openings("22-18 11-15\n", "o", OpeningFormat::Auto, Variant::Russian);
  config.options_b = {{"variant", "brazilian"}};
  config.limits.depth = 1;
  Expected<MatchResult> r = run_match(config);
  REQUIRE_FALSE(r.has_value());
  CHECK_THAT(r.error(), Catch::Contains("engine B: variant=brazilian contradicts the game played, russian"));
  config.options_b.clear();
  config.openings = *parse_openings("22-18 11-15\n");
  r = run_match(config);
  REQUIRE_FALSE(r.has_value());
  CHECK_THAT(r.error(), Catch::Contains("opening 1 is a position of brazilian"));
}

TEST_CASE("an in-process engine plays the referee's game, and an option list of another is refused",
          "[selfplay][russian]") {
  // The tools that play Brazilian only (safety) refuse variant=russian rather than playing
  // Brazilian under it.
  Engine engine;
  const Expected<OptionList> russian = parse_option_list("variant=russian level=hard");
  REQUIRE(russian.has_value());
  const Status refused = configure_in_process_engine(engine, *russian, DrawRules::Seed, Variant::Brazilian);
  REQUIRE_FALSE(refused.has_value());
  CHECK_THAT(refused.error(), Catch::Contains("variant=russian contradicts the game played, brazilian"));
  // The game is set even when the list does not name it.
  REQUIRE(configure_in_process_engine(engine, {}, DrawRules::Seed, Variant::Russian).has_value());
  CHECK(engine.options().variant() == Variant::Russian);
  REQUIRE(configure_in_process_engine(engine, *russian, DrawRules::Fmjd64, Variant::Russian).has_value());
  CHECK(engine.options().get(option::kLevel) == "hard");
}

TEST_CASE("selfplay: Spanish, Portuguese, Pool and Czech from their default openings, legal moves to the end",
          "[selfplay]") {
  for (const Variant v : {Variant::Spanish, Variant::Portuguese, Variant::Pool, Variant::Czech}) {
    INFO(to_string(v));
    const Expected<std::vector<Opening>> openings = load_openings(
        std::string(DAMAS_SOURCE_DIR) + "/bench/" + default_openings_file(v), OpeningFormat::Auto, v);
    REQUIRE(openings.has_value());
    MatchConfig config;
    config.variant = v;
    config.openings = {(*openings)[0]};
    config.options_a = {{"hash", "1"}};
    config.options_b = {{"hash", "1"}, {"eval", "classic"}};
    config.limits.depth = 2;
    const Expected<MatchResult> r = run_match(config);
    REQUIRE(r.has_value());
    REQUIRE(r->games.size() == 2);
    for (const GameRecord& g : r->games) {
      INFO(g.pdn);
      CHECK(g.result != GameResult::Ongoing);
      CHECK(g.reason != GameEndReason::None);
      CHECK(g.reason != GameEndReason::Adjudication);  // played to its end by the game's laws
      // Every move the engines played is legal in the game, replayed from the opening.
      Position p = (*openings)[0].position();
      REQUIRE(static_cast<int>(g.played.size()) == g.plies - 4);
      for (const PlayedMove& played : g.played) {
        MoveList legal;
        generate_legal_moves(p, legal);
        CHECK(legal.contains(played.move));
        p = p.after(played.move);
      }
      const std::vector<PdnGameOrError> read = read_pdn(g.pdn);  // by its GameType's rules
      REQUIRE(read.size() == 1);
      REQUIRE(read[0].has_value());
      CHECK(read[0]->start.variant() == v);
      CHECK(static_cast<int>(read[0]->moves.size()) == g.plies);
    }
  }
}
