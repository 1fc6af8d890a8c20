// The board's JSON API (web/api.h) called directly: sessions, moves with their landing squares,
// undo, hint, computer moves, analysis, FEN and PDN, and a clear error for every bad request.
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <catch2/catch.hpp>
#include <cstdio>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "damas/book/book_file.h"
#include "damas/core/json.h"
#include "damas/core/notation.h"
#include "damas/core/pdn.h"
#include "damas/web/api.h"
#include "strict_pdn.h"

using namespace damas;
using namespace damas::web;

namespace {

ApiConfig fast_config() {
  ApiConfig c;
  c.hash_mib = 4;
  c.hint_seconds = 0.05;
  c.default_move_seconds = 0.02;
  return c;
}

struct Answer {
  int status;
  Json json;
};

Answer call(Api& api, const std::string& op, const std::string& body) {
  const ApiResponse r = api.handle({"POST", "/api/" + op, body});
  const Expected<Json> j = parse_json(r.body);
  INFO(r.body);
  REQUIRE(j.has_value());
  if (r.status != 200) {
    REQUIRE(j->find("error"));
    CHECK(j->find("status")->as_number() == r.status);
  }
  return {r.status, *j};
}

std::string session_body(const std::string& id, const std::string& extra = "") {
  return "{\"session\":\"" + id + "\"" + (extra.empty() ? "" : "," + extra) + "}";
}

std::string new_game(Api& api, const std::string& body = "{}") {
  const Answer a = call(api, "new", body);
  REQUIRE(a.status == 200);
  return a.json.find("session")->as_string();
}

std::string str(const Json& j, const char* key) {
  const Json* v = j.find(key);
  REQUIRE(v);
  return v->is_string() ? v->as_string() : v->dump();
}

std::string first_legal(const Json& state) {
  const Json::Array& legal = state.find("legal")->as_array();
  REQUIRE_FALSE(legal.empty());
  return str(legal.front(), "text");
}

}  // namespace

TEST_CASE("web api: a new game has the start position, its seven moves and no result", "[web]") {
  Api api(fast_config());
  const Answer a = call(api, "new", "{}");
  REQUIRE(a.status == 200);
  CHECK(str(a.json, "fen") == "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12");
  CHECK(str(a.json, "side") == "white");
  CHECK(a.json.find("pieces")->as_array().size() == 24);
  CHECK(a.json.find("legal")->as_array().size() == 7);
  std::vector<std::string> texts;
  for (const Json& m : a.json.find("legal")->as_array()) texts.push_back(str(m, "text"));
  std::sort(texts.begin(), texts.end());
  CHECK(texts == std::vector<std::string>{"a3-b4", "c3-b4", "c3-d4", "e3-d4", "e3-f4", "g3-f4", "g3-h4"});
  CHECK_FALSE(a.json.find("must_capture")->as_bool());
  CHECK_FALSE(a.json.find("result")->find("over")->as_bool());
  CHECK(str(a.json, "turn") == "human");
}

TEST_CASE("web api: a multi-capture lists its landing squares route by route", "[web]") {
  Api api(fast_config());
  const Answer a = call(api, "new", R"({"fen":"W:Wc3:Bd4,d6,f6"})");
  REQUIRE(a.status == 200);
  CHECK(a.json.find("must_capture")->as_bool());
  CHECK(a.json.find("capturers")->dump() == R"(["c3"])");
  const Json::Array& legal = a.json.find("legal")->as_array();
  REQUIRE(legal.size() == 2);
  std::vector<std::string> seen;
  for (const Json& m : legal) {
    CHECK(str(m, "from") == "c3");
    seen.push_back(m.find("routes")->dump() + " " + m.find("captured")->dump() + " " + str(m, "text"));
  }
  std::sort(seen.begin(), seen.end());
  CHECK(seen[0] == R"([["e5","c7"]] ["d6","d4"] c3:c7)");
  CHECK(seen[1] == R"([["e5","g7"]] ["f6","d4"] c3:g7)");
}

TEST_CASE("web api: malformed JSON, a non-object and unknown ops are refused", "[web]") {
  Api api(fast_config());
  CHECK(call(api, "new", "{\"mode\":").status == 400);
  CHECK(call(api, "new", "[1]").status == 400);
  CHECK(call(api, "fly", "{}").status == 404);
  CHECK(api.handle({"GET", "/api/new", ""}).status == 405);
  CHECK(api.handle({"POST", "/index.html", ""}).status == 404);
  CHECK(call(api, "new", R"({"mode":"chess"})").status == 400);
  CHECK(call(api, "new", R"({"level":"godlike"})").status == 400);
  CHECK(call(api, "new", R"({"human":"green"})").status == 400);
  CHECK(call(api, "new", R"({"movetime":-1})").status == 400);
  CHECK(call(api, "new", R"({"fen":"W:Wz9"})").status == 422);
  // None of them made a session: the limit of one still allows a game.
  ApiConfig one = fast_config();
  one.max_sessions = 1;
  Api single(one);
  CHECK(call(single, "new", "{\"mode\":").status == 400);
  CHECK(call(single, "new", "{}").status == 200);
}

TEST_CASE("web api: an unknown session is 404 and a missing one 400", "[web]") {
  Api api(fast_config());
  CHECK(call(api, "state", session_body("0123456789abcdef")).status == 404);
  CHECK(call(api, "move", session_body("nope", R"("move":"c3-d4")")).status == 404);
  CHECK(call(api, "state", "{}").status == 400);
  CHECK(call(api, "state", R"({"session":7})").status == 400);
}

TEST_CASE("web api: an illegal or malformed move is refused and changes nothing", "[web]") {
  Api api(fast_config());
  const std::string id = new_game(api);
  const std::string before = api.handle({"POST", "/api/state", session_body(id)}).body;
  CHECK(call(api, "move", session_body(id, R"("move":"c3-c4")")).status == 422);
  CHECK(call(api, "move", session_body(id, R"("move":"a1-b2")")).status == 422);
  CHECK(call(api, "move", session_body(id, R"("move":"22-17")")).status == 200);
  CHECK(call(api, "undo", session_body(id)).status == 200);
  CHECK(call(api, "move", session_body(id, R"("move":7)")).status == 400);
  CHECK(call(api, "move", session_body(id)).status == 400);
  CHECK(api.handle({"POST", "/api/state", session_body(id)}).body == before);
}

TEST_CASE("web api: an oversized body is 413 and changes nothing", "[web]") {
  ApiConfig c = fast_config();
  c.max_body = 1000;
  Api api(c);
  const std::string id = new_game(api);
  const std::string big = session_body(id, "\"move\":\"c3-d4\",\"pad\":\"" + std::string(2000, 'x') + "\"");
  CHECK(call(api, "move", big).status == 413);
  CHECK(call(api, "state", session_body(id)).json.find("moves")->as_array().empty());
}

TEST_CASE("web api: too many sessions is 503 until one closes or idles out", "[web]") {
  ApiConfig c = fast_config();
  c.max_sessions = 2;
  c.idle_expiry = std::chrono::seconds(60);
  auto now = std::make_shared<Clock::time_point>(Clock::now());
  c.clock = [now] { return *now; };
  Api api(c);
  const std::string a = new_game(api);
  const std::string b = new_game(api);
  CHECK(a != b);
  CHECK(call(api, "new", "{}").status == 503);
  CHECK(call(api, "close", session_body(a)).status == 200);
  CHECK(call(api, "state", session_body(a)).status == 404);
  const std::string d = new_game(api);
  CHECK(call(api, "new", "{}").status == 503);
  *now += std::chrono::seconds(30);
  CHECK(call(api, "state", session_body(b)).status == 200);  // b is used, d is not
  *now += std::chrono::seconds(45);
  const std::string e = new_game(api);  // d expired
  CHECK(call(api, "state", session_body(d)).status == 404);
  CHECK(call(api, "state", session_body(b)).status == 200);
  CHECK(call(api, "state", session_body(e)).status == 200);
}

TEST_CASE("web api: two games at once stay independent", "[web]") {
  Api api(fast_config());
  const std::string a = new_game(api, R"({"mode":"computer","level":"easy"})");
  const std::string b = new_game(api, R"({"mode":"computer","level":"beginner","human":"black"})");
  std::atomic<int> failures{0};
  auto play = [&](const std::string& id, int plies) {
    for (int i = 0; i < plies; ++i) {
      const ApiResponse st = api.handle({"POST", "/api/state", session_body(id)});
      const Json s = *parse_json(st.body);
      if (s.find("result")->find("over")->as_bool()) return;
      const bool computer = s.find("turn")->as_string() == "computer";
      const ApiResponse r =
          computer
              ? api.handle({"POST", "/api/engine-move", session_body(id)})
              : api.handle({"POST", "/api/move",
                            session_body(id, "\"move\":\"" +
                                                 s.find("legal")->as_array().front().find("id")->as_string() +
                                                 "\"")});
      if (r.status != 200) ++failures;
    }
  };
  std::thread ta(play, a, 12);
  std::thread tb(play, b, 12);
  ta.join();
  tb.join();
  CHECK(failures == 0);
  const Json sa = call(api, "state", session_body(a)).json;
  const Json sb = call(api, "state", session_body(b)).json;
  CHECK(sa.find("moves")->as_array().size() == 12);
  CHECK(sb.find("moves")->as_array().size() == 12);
  CHECK(str(sa, "level") == "easy");
  CHECK(str(sb, "human") == "black");
}

TEST_CASE("web api: a game against the computer goes to its end with the result and reason", "[web]") {
  Api api(fast_config());
  const std::string id = new_game(api, R"({"mode":"computer","level":"full","movetime":0.01})");
  Json s = call(api, "state", session_body(id)).json;
  for (int ply = 0; ply < 400 && !s.find("result")->find("over")->as_bool(); ++ply) {
    if (str(s, "turn") == "computer") {
      CHECK(call(api, "move", session_body(id, "\"move\":\"" + first_legal(s) + "\"")).status == 409);
      s = call(api, "engine-move", session_body(id)).json;
    } else {
      CHECK(call(api, "engine-move", session_body(id)).status == 409);
      s = call(api, "move", session_body(id, "\"move\":\"" + first_legal(s) + "\"")).json;
    }
    REQUIRE(s.find("result"));
  }
  const Json& result = *s.find("result");
  REQUIRE(result.find("over")->as_bool());
  CHECK_FALSE(str(result, "reason").empty());
  CHECK(str(s, "turn") == "none");
  CHECK(s.find("legal")->as_array().empty());
  CHECK(call(api, "engine-move", session_body(id)).status == 409);
  CHECK(call(api, "hint", session_body(id)).status == 409);
  // The PDN of the finished game reads back to the same moves and result.
  const std::vector<PdnGameOrError> games = read_pdn(str(s, "pdn"));
  REQUIRE(games.size() == 1);
  REQUIRE(games[0].has_value());
  CHECK(games[0]->moves.size() == s.find("moves")->as_array().size());
  CHECK(games[0]->result == str(result, "score"));
  // ... and in a strict PDN 3.0 reader.
  const Expected<std::vector<strict_pdn::Game>> strict = strict_pdn::read(str(s, "pdn"));
  INFO(str(s, "pdn") << (strict ? "" : strict.error()));
  REQUIRE(strict.has_value());
  REQUIRE(strict->size() == 1);
  CHECK(strict->front().moves == games[0]->moves);
  CHECK(strict->front().result == str(result, "score"));
}

TEST_CASE("web api: a capture of the last pieces ends the game with its reason", "[web]") {
  Api api(fast_config());
  const std::string id = new_game(api, R"({"fen":"W:Wc3:Bd4,d6"})");
  const Json s = call(api, "move", session_body(id, R"("move":"c3:c7")")).json;
  CHECK(str(*s.find("result"), "score") == "2-0");
  CHECK(str(*s.find("result"), "reason") == "no pieces left");
  CHECK(str(*s.find("result"), "text") == "White wins (no pieces left)");
  CHECK(call(api, "move", session_body(id, R"("move":"c7-b8")")).status == 409);
}

TEST_CASE("web api: two players reach a draw by threefold repetition", "[web]") {
  Api api(fast_config());
  const std::string id = new_game(api, R"({"fen":"W:WKc1:BKf8"})");
  Json s;
  for (int round = 0; round < 2; ++round)
    for (const char* m : {"c1-d2", "f8-e7", "d2-c1", "e7-f8"})
      s = call(api, "move", session_body(id, std::string("\"move\":\"") + m + "\"")).json;
  CHECK(str(*s.find("result"), "score") == "1-1");
  CHECK(str(*s.find("result"), "reason") == "threefold repetition");
}

TEST_CASE("web api: undo takes back one ply, against the computer back to the person's turn", "[web]") {
  Api api(fast_config());
  const std::string two = new_game(api);
  call(api, "move", session_body(two, R"("move":"c3-d4")"));
  call(api, "move", session_body(two, R"("move":"f6-e5")"));
  Json s = call(api, "undo", session_body(two)).json;
  CHECK(s.find("moves")->as_array().size() == 1);
  CHECK(str(s, "side") == "black");

  const std::string vs = new_game(api, R"({"mode":"computer","level":"beginner"})");
  call(api, "move", session_body(vs, R"("move":"c3-d4")"));
  s = call(api, "engine-move", session_body(vs)).json;
  CHECK(s.find("moves")->as_array().size() == 2);
  s = call(api, "undo", session_body(vs)).json;
  CHECK(s.find("moves")->as_array().empty());
  CHECK(str(s, "turn") == "human");
  CHECK(call(api, "undo", session_body(vs)).status == 409);
}

TEST_CASE("web api: goto moves along the list, a move there replaces the rest", "[web]") {
  Api api(fast_config());
  const std::string id = new_game(api);
  for (const char* m : {"c3-d4", "f6-e5", "d4:f6"})
    call(api, "move", session_body(id, std::string("\"move\":\"") + m + "\""));
  Json s = call(api, "goto", session_body(id, R"("ply":1)")).json;
  CHECK(str(s, "side") == "black");
  CHECK(s.find("moves")->as_array().size() == 3);
  CHECK(s.find("cursor")->as_number() == 1);
  CHECK(call(api, "goto", session_body(id, R"("ply":4)")).status == 400);
  CHECK(call(api, "goto", session_body(id, R"("ply":0.5)")).status == 400);
  s = call(api, "move", session_body(id, R"("move":"b6-a5")")).json;
  CHECK(s.find("moves")->as_array().size() == 2);
  CHECK(str(s.find("moves")->as_array().back(), "text") == "b6-a5");
}

TEST_CASE("web api: hint is a legal move and changes nothing, FEN and PDN round trip", "[web]") {
  Api api(fast_config());
  const std::string id = new_game(api, R"({"fen":"B:W18,K5:BK29,12"})");
  const Json before = call(api, "state", session_body(id)).json;
  const Answer hint = call(api, "hint", session_body(id));
  REQUIRE(hint.status == 200);
  bool legal = false;
  for (const Json& m : before.find("legal")->as_array())
    if (str(m, "id") == str(*hint.json.find("hint"), "id")) legal = true;
  CHECK(legal);
  CHECK(call(api, "state", session_body(id)).json.dump() == before.dump());
  CHECK(str(before, "fen") == "B:WK5,18:B12,K29");
  const std::string fen = str(before, "fen");
  CHECK(str(call(api, "new", "{\"fen\":\"" + fen + "\"}").json, "fen") == fen);
  CHECK(str(call(api, "new", "{\"fen\":\"" + str(before, "fen_algebraic") + "\"}").json, "fen") == fen);

  call(api, "move", session_body(id, "\"move\":\"" + first_legal(before) + "\""));
  const Json after = call(api, "state", session_body(id)).json;
  Json load = Json::object();
  load.set("pdn", Json::string(str(after, "pdn")));
  const Json loaded = call(api, "load-pdn", load.dump()).json;
  CHECK(str(loaded, "fen") == str(after, "fen"));
  CHECK(loaded.find("moves")->dump() == after.find("moves")->dump());
  CHECK(call(api, "load-pdn", R"({"pdn":"1. 22-18 11-15 2. 99-98 *"})").status == 422);
  CHECK(call(api, "load-pdn", R"({"pdn":""})").status == 422);
}

TEST_CASE("web api: analysis streams multi-PV lines until stopped", "[web]") {
  Api api(fast_config());
  std::mutex m;
  std::vector<std::string> events;
  api.set_analysis_sink([&](const std::string&, const std::string& json) {
    std::lock_guard lock(m);
    events.push_back(json);
  });
  const std::string id = new_game(api);
  CHECK(call(api, "analysis-start", session_body(id, R"("multipv":9)")).status == 400);
  REQUIRE(call(api, "analysis-start", session_body(id, R"("multipv":2)")).status == 200);
  Json lines;
  for (int i = 0; i < 200; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    lines = *call(api, "analysis", session_body(id)).json.find("lines");
    if (lines.as_array().size() == 2) break;
  }
  REQUIRE(lines.as_array().size() == 2);
  CHECK(lines.as_array()[0].find("multipv")->as_number() == 1);
  CHECK(lines.as_array()[1].find("multipv")->as_number() == 2);
  CHECK_FALSE(lines.as_array()[0].find("pv")->as_array().empty());
  // White to move: White's view is the engine's.
  CHECK(lines.as_array()[0].find("white_score")->as_number() ==
        lines.as_array()[0].find("score")->as_number());
  CHECK(str(lines.as_array()[0], "white_score_text") == str(lines.as_array()[0], "score_text"));
  const Json stopped = call(api, "analysis-stop", session_body(id)).json;
  CHECK_FALSE(stopped.find("analysing")->as_bool());
  std::lock_guard lock(m);
  REQUIRE(events.size() >= 2);
  CHECK(events.back().find("\"type\":\"stopped\"") != std::string::npos);
  CHECK(events.front().find("\"type\":\"info\"") != std::string::npos);
}

TEST_CASE("web api: the shared engine takes registry options, a bad one is refused", "[web]") {
  Api api(fast_config());
  CHECK(api.set_engine_option("hash", "8").has_value());
  CHECK_FALSE(api.set_engine_option("threads", "0").has_value());
  CHECK_FALSE(api.set_engine_option("no-such-option", "1").has_value());
  const std::string id = new_game(api);
  CHECK(call(api, "hint", session_body(id)).status == 200);
}

namespace {

// White's 4. 17-14 gives a man away (10x17): the review's known blunder.
constexpr const char* kBlunderPdn = "1. 22-18 11-15 2. 18x11 8x15 3. 21-17 9-13 4. 17-14 10x17 5. 25-21 *";

std::string load_blunder_game(Api& api) {
  Json load = Json::object();
  load.set("pdn", Json::string(kBlunderPdn));
  const Answer a = call(api, "load-pdn", load.dump());
  REQUIRE(a.status == 200);
  return str(a.json, "session");
}

// review-step until the review is finished; the last answer.
Json review_to_end(Api& api, const std::string& id) {
  Answer a = call(api, "review-step", session_body(id));
  for (int i = 0; i < 100 && a.status == 200 && !a.json.find("finished")->as_bool(); ++i)
    a = call(api, "review-step", session_body(id));
  REQUIRE(a.status == 200);
  REQUIRE(a.json.find("finished")->as_bool());
  return a.json;
}

// Waits (bounded) until the API's stats show `n` searches running.
bool running_reaches(Api& api, double n) {
  for (int i = 0; i < 20000; ++i) {
    if (call(api, "stats", "{}").json.find("searches_running")->as_number() == n) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return false;
}

}  // namespace

TEST_CASE("web api: a review marks the blunder, position by position, with graph values and counts",
          "[web]") {
  Api api(fast_config());
  const std::string id = load_blunder_game(api);
  const Answer started = call(api, "review-start", session_body(id, R"("depth":5)"));
  REQUIRE(started.status == 200);
  CHECK(started.json.find("total")->as_number() == 10);
  CHECK(started.json.find("done")->as_number() == 0);
  const Answer one = call(api, "review-step", session_body(id));
  CHECK(one.json.find("done")->as_number() == 1);
  CHECK_FALSE(one.json.find("finished")->as_bool());
  const Json done = review_to_end(api, id);
  const Json& review = *done.find("review");
  const Json::Array& plies = review.find("plies")->as_array();
  REQUIRE(plies.size() == 9);
  CHECK(str(plies[6], "text") == "b4-c5");  // 4. 17-14
  CHECK(str(plies[6], "mark") == "blunder");
  CHECK(str(plies[6], "nag") == "??");
  CHECK(plies[6].find("loss")->as_number() >= 1.5);
  CHECK(str(plies[6], "best") != "b4-c5");
  CHECK_FALSE(plies[6].find("best_line")->as_array().empty());
  const Json::Array& evals = review.find("evals")->as_array();
  REQUIRE(evals.size() == 10);
  for (const Json& e : evals)
    CHECK(std::abs(e.find("value")->as_number()) <= review.find("limit")->as_number());
  CHECK(review.find("white")->find("blunders")->as_number() >= 1);
  CHECK(review.find("white")->find("moves")->as_number() == 5);
  CHECK_THAT(str(review, "pdn"), Catch::Contains("17-14??"));
  CHECK(strict_pdn::read(str(review, "pdn")).has_value());
  // The finished review stays with the game and is asked again without searching.
  CHECK(call(api, "review", session_body(id)).json.find("review")->dump() == review.dump());
  // Stepping a finished review is refused.
  CHECK(call(api, "review-step", session_body(id)).status == 409);
}

TEST_CASE("web api: review-line gives each position of the best line at a move", "[web]") {
  Api api(fast_config());
  const std::string id = load_blunder_game(api);
  REQUIRE(call(api, "review-start", session_body(id, R"("depth":4)")).status == 200);
  const Json review = *review_to_end(api, id).find("review");
  const Json& ply7 = review.find("plies")->as_array()[6];
  const Answer line = call(api, "review-line", session_body(id, R"("ply":7)"));
  REQUIRE(line.status == 200);
  const Json::Array& steps = line.json.find("steps")->as_array();
  REQUIRE(steps.size() == ply7.find("best_line")->as_array().size() + 1);
  CHECK(str(steps[0], "side") == "white");
  CHECK(str(steps[1], "text") == str(ply7, "best"));
  CHECK(steps[1].find("last_move") != nullptr);
  // The board's position before the move: the game's cursor does not move.
  const Json state = call(api, "state", session_body(id)).json;
  CHECK(state.find("cursor")->as_number() == 9);
  CHECK(call(api, "review-line", session_body(id, R"("ply":0)")).status == 400);
  CHECK(call(api, "review-line", session_body(id, R"("ply":10)")).status == 400);
}

TEST_CASE("web api: review errors are clear: unknown session, no moves, bad limits, changed game", "[web]") {
  Api api(fast_config());
  CHECK(call(api, "review-start", session_body("nosuch")).status == 404);
  CHECK(call(api, "review-step", session_body("nosuch")).status == 404);
  CHECK(call(api, "review-start", "{}").status == 400);
  const std::string empty = new_game(api);
  const Answer nothing = call(api, "review-start", session_body(empty));
  CHECK(nothing.status == 409);
  CHECK_THAT(str(nothing.json, "error"), Catch::Contains("no moves"));
  CHECK(call(api, "review", session_body(empty)).status == 409);
  CHECK(call(api, "review-line", session_body(empty, R"("ply":1)")).status == 409);
  const std::string id = load_blunder_game(api);
  CHECK(call(api, "review-start", session_body(id, R"("depth":0)")).status == 400);
  CHECK(call(api, "review-start", session_body(id, R"("depth":4.5)")).status == 400);
  CHECK(call(api, "review-start", session_body(id, R"("movetime":100)")).status == 400);
  CHECK(call(api, "review-start", session_body(id, R"("depth":4,"movetime":0.1)")).status == 400);
  CHECK(call(api, "review-step", session_body(id)).status == 409);  // none started
  REQUIRE(call(api, "review-start", session_body(id, R"("depth":3)")).status == 200);
  REQUIRE(call(api, "review-step", session_body(id)).status == 200);
  // A move changes the game: the running review is dropped.
  REQUIRE(call(api, "undo", session_body(id)).status == 200);
  const Answer changed = call(api, "review-step", session_body(id));
  CHECK(changed.status == 409);
  CHECK_THAT(str(changed.json, "error"), Catch::Contains("changed"));
  // Cancel ends a review: the next step is refused.
  REQUIRE(call(api, "review-start", session_body(id, R"("depth":3)")).status == 200);
  const Answer cancelled = call(api, "review-cancel", session_body(id));
  CHECK(cancelled.status == 200);
  CHECK_FALSE(cancelled.json.find("reviewing")->as_bool());
  CHECK(call(api, "review-step", session_body(id)).status == 409);
}

TEST_CASE("web api: other sessions are served between two steps of a review", "[web]") {
  Api api(fast_config());
  const std::string reviewed = load_blunder_game(api);
  const std::string other = new_game(api);
  REQUIRE(call(api, "review-start", session_body(reviewed, R"("depth":4)")).status == 200);
  REQUIRE(call(api, "review-step", session_body(reviewed)).status == 200);
  const Answer hint = call(api, "hint", session_body(other));
  CHECK(hint.status == 200);
  CHECK(call(api, "move", session_body(other, "\"move\":\"c3-d4\"")).status == 200);
  const Json done = review_to_end(api, reviewed);
  CHECK(done.find("review")->find("plies")->as_array().size() == 9);
}

TEST_CASE("web api: cancel stops a review step in its search, a closed session is 404", "[web]") {
  Api api(fast_config());
  const std::string id = load_blunder_game(api);
  REQUIRE(call(api, "review-start", session_body(id, R"("movetime":30)")).status == 200);
  std::atomic<int> status{0};
  std::thread step([&] { status = api.handle({"POST", "/api/review-step", session_body(id)}).status; });
  // Cancel until the step, searching for 30 s, has answered: stopped in its search (200, its
  // result dropped) or, had the cancel come first, refused (409).
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  for (int i = 0; i < 2000 && status == 0; ++i) {
    const Answer cancelled = call(api, "review-cancel", session_body(id));
    REQUIRE(cancelled.status == 200);
    CHECK_FALSE(cancelled.json.find("reviewing")->as_bool());
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  step.join();
  CHECK((status == 200 || status == 409));
  CHECK(call(api, "review", session_body(id)).status == 409);  // nothing finished, nothing running
  CHECK(call(api, "review-step", session_body(id)).status == 409);
  REQUIRE(call(api, "close", session_body(id)).status == 200);
  CHECK(call(api, "review-start", session_body(id)).status == 404);
  CHECK(call(api, "review", session_body(id)).status == 404);
}

TEST_CASE("web api: a game takes the seed or the FMJD-64 laws and is drawn by the ones it has",
          "[web][laws]") {
  Api api(fast_config());
  CHECK(str(call(api, "new", "{}").json, "rules") == "seed");
  CHECK(call(api, "new", "{\"rules\":\"fide\"}").status == 400);
  CHECK(call(api, "new", "{\"rules\":7}").status == 400);
  // Two kings against one: FMJD-64 7.2.8 ends the game after five moves each, the seed's laws do not.
  for (const std::string rules : {"seed", "fmjd64"}) {
    INFO(rules);
    Answer a = call(api, "new", "{\"fen\":\"W:WK29,K32:BK10\",\"rules\":\"" + rules + "\"}");
    REQUIRE(a.status == 200);
    CHECK(str(a.json, "rules") == rules);
    CHECK_THAT(str(a.json, "pdn"), Catch::Contains("[DrawRules \"" + rules + "\"]"));
    const std::string id = str(a.json, "session");
    // Quiet play: each side takes the first move that allows no capture and repeats no position.
    std::vector<std::string> seen{str(a.json, "fen")};
    for (int ply = 0; ply < 10; ++ply) {
      REQUIRE_FALSE(a.json.find("result")->find("over")->as_bool());
      bool played = false;
      for (const Json& m : a.json.find("legal")->as_array()) {
        const Answer next = call(api, "move", session_body(id, "\"move\":\"" + str(m, "text") + "\""));
        REQUIRE(next.status == 200);
        if (!next.json.find("must_capture")->as_bool() &&
            std::find(seen.begin(), seen.end(), str(next.json, "fen")) == seen.end()) {
          a = next;
          seen.push_back(str(a.json, "fen"));
          played = true;
          break;
        }
        REQUIRE(call(api, "undo", session_body(id)).status == 200);
      }
      INFO(str(a.json, "fen") << " ply " << ply);
      REQUIRE(played);
    }
    const Json& result = *a.json.find("result");
    if (rules == "fmjd64") {
      CHECK(result.find("over")->as_bool());
      CHECK(str(result, "score") == "1-1");
      CHECK_THAT(str(result, "reason"), Catch::Contains("7.2.8"));
    } else {
      CHECK_FALSE(result.find("over")->as_bool());
    }
  }
  // A loaded game keeps its DrawRules tag unless the request names the laws.
  const std::string pdn = "[DrawRules \"fmjd64\"]\n[FEN \"W:WK29,K32:BK4\"]\n1. 29-25 *\n";
  CHECK(str(call(api, "load-pdn", "{\"pdn\":" + json_str(pdn).dump() + "}").json, "rules") == "fmjd64");
  CHECK(str(call(api, "load-pdn", "{\"rules\":\"seed\",\"pdn\":" + json_str(pdn).dump() + "}").json,
            "rules") == "seed");
}

TEST_CASE("web api: a search that cannot start in time is a 503 busy answer, a second one of a game 429",
          "[web][queue]") {
  ApiConfig c = fast_config();
  c.search_slots = 1;
  c.queue_wait = std::chrono::milliseconds(30);
  Api api(c);
  // The computer thinks for a while in game a (Black to move after the person's first move).
  const std::string a = new_game(api, R"({"mode":"computer","level":"full","human":"black","movetime":1.5})");
  const std::string b = new_game(api);
  int long_move = 0;  // no Catch assertion off the test's thread
  std::thread thinking([&] { long_move = api.handle({"POST", "/api/engine-move", session_body(a)}).status; });
  REQUIRE(running_reaches(api, 1));
  const Answer busy = call(api, "hint", session_body(b));
  REQUIRE(busy.status == 503);
  CHECK(busy.json.find("busy")->as_bool());
  CHECK(str(busy.json, "error").find("busy") != std::string::npos);
  const Answer twice = call(api, "engine-move", session_body(a));
  REQUIRE(twice.status == 429);
  CHECK(twice.json.find("busy")->as_bool());
  CHECK(call(api, "state", session_body(b)).status == 200);  // what does not search is served
  thinking.join();
  CHECK(long_move == 200);
  CHECK(call(api, "hint", session_body(b)).status == 200);  // the slot is free again
  const Json stats = call(api, "stats", "{}").json;
  CHECK(stats.find("search_slots")->as_number() == 1);
  CHECK(stats.find("searches_refused")->as_number() == 1);
  CHECK(stats.find("sessions")->as_number() == 2);
}

TEST_CASE("web api: two slots serve two games' searches at once, never three", "[web][queue]") {
  ApiConfig c = fast_config();
  c.search_slots = 2;
  c.queue_wait = std::chrono::milliseconds(30);
  Api api(c);
  std::vector<std::string> ids;
  for (int i = 0; i < 3; ++i)
    ids.push_back(new_game(api, R"({"mode":"computer","level":"full","human":"black","movetime":1.5})"));
  std::vector<std::thread> threads;
  std::vector<int> statuses(2, 0);
  for (int i = 0; i < 2; ++i)
    threads.emplace_back([&, i] {  // no Catch assertion off the test's thread
      const auto k = static_cast<std::size_t>(i);
      statuses[k] = api.handle({"POST", "/api/engine-move", session_body(ids[k])}).status;
    });
  REQUIRE(running_reaches(api, 2));
  CHECK(call(api, "engine-move", session_body(ids[2])).status == 503);
  for (std::thread& t : threads) t.join();
  CHECK(statuses == std::vector<int>{200, 200});
}

TEST_CASE("web api: an analysis gives its slot to a waiting search and says stopped", "[web][queue]") {
  ApiConfig c = fast_config();
  c.search_slots = 1;
  c.queue_wait = std::chrono::seconds(60);
  Api api(c);
  std::mutex m;
  std::vector<std::string> events;
  api.set_analysis_sink([&](const std::string& id, const std::string& json) {
    std::lock_guard lock(m);
    if (json.find("\"stopped\"") != std::string::npos) events.push_back(id);
  });
  const std::string a = new_game(api);
  const std::string b = new_game(api);
  REQUIRE(call(api, "analysis-start", session_body(a)).status == 200);
  REQUIRE(running_reaches(api, 1));
  CHECK(call(api, "hint", session_body(b)).status == 200);
  CHECK_FALSE(call(api, "state", session_body(a)).json.find("analysing")->as_bool());
  std::lock_guard lock(m);
  CHECK(events == std::vector<std::string>{a});
}

TEST_CASE("web api: idle sessions expire, their analyses stop, used ones stay", "[web]") {
  ApiConfig c = fast_config();
  c.search_slots = 1;
  c.idle_expiry = std::chrono::seconds(60);
  auto now = std::make_shared<Clock::time_point>(Clock::now());
  c.clock = [now] { return *now; };
  Api api(c);
  const std::string idle = new_game(api);
  const std::string used = new_game(api);
  REQUIRE(call(api, "analysis-start", session_body(idle)).status == 200);
  CHECK(api.expire_idle_sessions() == 0);
  *now += std::chrono::seconds(40);
  CHECK(call(api, "state", session_body(used)).status == 200);
  *now += std::chrono::seconds(40);
  CHECK(api.expire_idle_sessions() == 1);
  CHECK(call(api, "state", session_body(idle)).status == 404);
  CHECK(call(api, "state", session_body(used)).status == 200);
  CHECK(running_reaches(api, 0));  // the expired session's analysis let its slot go
  CHECK(call(api, "hint", session_body(used)).status == 200);
}

TEST_CASE("web api: a thousand games at once by default, the next one refused with 503", "[web]") {
  ApiConfig c = fast_config();
  CHECK(c.max_sessions == 1000);
  Api api(c);
  for (int i = 0; i < 1000; ++i) REQUIRE(call(api, "new", "{}").status == 200);
  const Answer refused = call(api, "new", "{}");
  CHECK(refused.status == 503);
  CHECK(str(refused.json, "error").find("too many games") != std::string::npos);
}

TEST_CASE("web api: the operations that search, review-step among them, are the ones that take a slot",
          "[web][queue]") {
  // The server runs these on the pool of its searches, so they never hold its quick pool.
  for (const char* op : {"hint", "engine-move", "analysis-start", "review-step"})
    CHECK(Api::may_search(std::string("/api/") + op));
  for (const char* op :
       {"new", "load-pdn", "state", "move", "undo", "goto", "analysis", "analysis-stop", "close",
        "review-start", "review-cancel", "review", "review-line", "stats", "nothing"})
    CHECK_FALSE(Api::may_search(std::string("/api/") + op));
  CHECK_FALSE(Api::may_search("/review-step"));
}

TEST_CASE("web api: the opening panel's book moves of the position, and how far the book goes", "[web]") {
  // A book of two positions: the start (22-18 in the book, 21-17 searched) and the one after 22-18.
  const Position start = Position::start();
  const auto move = [](const Position& p, const char* text) { return *parse_any_move(p, text); };
  const Position a = start.after(move(start, "22-18"));
  book::Book b;
  REQUIRE(b.add(book::BookEntry{
      start, 0, {{move(start, "22-18"), 12, 20, 5, true}, {move(start, "21-17"), -4, 14, 0, false}}}));
  REQUIRE(b.add(book::BookEntry{a, 1, {{move(a, "11-15"), -12, 19, 0, false}}}));
  const std::string path = "/tmp/damas-web-opening-" + std::to_string(getpid()) + ".book";
  REQUIRE(book::write_book(path, b));

  Api api(fast_config());
  REQUIRE(api.set_engine_option("book-file", path));
  const std::string id = new_game(api);
  Answer o = call(api, "opening", session_body(id));
  REQUIRE(o.status == 200);
  CHECK(o.json.find("in_book")->as_bool());
  CHECK(o.json.find("ply")->as_number() == 0);
  CHECK(str(o.json, "book").find("2 positions in " + path) != std::string::npos);
  const Json::Array& moves = o.json.find("moves")->as_array();
  REQUIRE(moves.size() == 2);
  CHECK(str(moves[0], "id") == "22-18");  // best first
  CHECK(moves[0].find("white_score")->as_number() == 12);
  CHECK(str(moves[0], "white_score_text") == "+0.12");
  CHECK(moves[0].find("depth")->as_number() == 20);
  CHECK(moves[0].find("in_book")->as_bool());
  CHECK_FALSE(moves[1].find("in_book")->as_bool());
  CHECK(o.json.find("line")->as_array().size() == 1);  // 22-18, then out of the book

  REQUIRE(call(api, "move", session_body(id, "\"move\":\"22-18\"")).status == 200);
  o = call(api, "opening", session_body(id));
  CHECK(o.json.find("ply")->as_number() == 1);
  CHECK(o.json.find("moves")->as_array().front().find("white_score")->as_number() == 12);  // Black's -0.12
  REQUIRE(call(api, "move", session_body(id, "\"move\":\"11-15\"")).status == 200);
  o = call(api, "opening", session_body(id));
  CHECK_FALSE(o.json.find("in_book")->as_bool());
  CHECK(o.json.find("moves")->as_array().empty());
  CHECK(call(api, "opening", session_body("nope")).status == 404);
  // A Russian game's start is never looked up in the Brazilian board's book.
  o = call(api, "opening", session_body(new_game(api, R"({"variant":"russian"})")));
  CHECK_FALSE(o.json.find("in_book")->as_bool());
  CHECK_FALSE(o.json.find("book_loaded")->as_bool());
  CHECK(o.json.find("moves")->as_array().empty());
  CHECK(str(o.json, "book") ==
        "opening book: none for russian draughts here (this board serves brazilian; "
        "damas serve --variant russian plays with its book)");
  std::remove(path.c_str());
}

TEST_CASE("web api: a board serving Russian shows the Russian book in its Opening panel", "[web][russian]") {
  const Position start = Position::start(Variant::Russian);
  book::Book b;
  b.variant = Variant::Russian;
  REQUIRE(b.add(book::BookEntry{start, 0, {{*parse_any_move(start, "22-17"), 1, 30, 0, false}}}));
  const std::string path = "/tmp/damas-web-opening-russian-" + std::to_string(getpid()) + ".book";
  REQUIRE(book::write_book(path, b));
  Api api(fast_config());
  REQUIRE(api.set_engine_option("variant", "russian"));
  REQUIRE(api.set_engine_option("book-file", path));
  Answer o = call(api, "opening", session_body(new_game(api, R"({"variant":"russian"})")));
  REQUIRE(o.status == 200);
  CHECK(o.json.find("in_book")->as_bool());
  CHECK(o.json.find("book_loaded")->as_bool());
  CHECK(str(o.json, "book") == "opening book (russian): 1 positions in " + path + " (book-file)");
  REQUIRE(o.json.find("moves")->as_array().size() == 1);
  CHECK(str(o.json.find("moves")->as_array().front(), "id") == "22-17");
  // A Brazilian game on this board: the Russian book is not its book.
  o = call(api, "opening", session_body(new_game(api, R"({"variant":"brazilian"})")));
  CHECK_FALSE(o.json.find("in_book")->as_bool());
  CHECK_FALSE(o.json.find("book_loaded")->as_bool());
  std::remove(path.c_str());
}

// ---- Russian draughts: the game a session plays follows its variant ---------------------------

namespace {

// The ids (Hub form) of the state's legal moves, sorted.
std::vector<std::string> legal_ids(const Json& state) {
  std::vector<std::string> ids;
  for (const Json& m : state.find("legal")->as_array()) ids.push_back(str(m, "id"));
  std::sort(ids.begin(), ids.end());
  return ids;
}

bool king_on(const Json& state, const std::string& square) {
  for (const Json& p : state.find("pieces")->as_array())
    if (str(p, "square") == square) return p.find("king")->as_bool();
  return false;
}

}  // namespace

TEST_CASE("web api russian: a man crowned mid-capture goes on as a king along its route", "[web][russian]") {
  Api api(fast_config());
  // f6 takes e7, is crowned on d8 and takes b6 across the empty c7 as a king, landing on a5.
  const Answer a = call(api, "new", R"({"fen":"W:W11:B7,9","variant":"russian"})");
  REQUIRE(a.status == 200);
  CHECK(str(a.json, "variant") == "russian");
  CHECK(legal_ids(a.json) == std::vector<std::string>{"11x13x7x9"});
  const Json& move = a.json.find("legal")->as_array().front();
  CHECK(move.find("routes")->dump() == R"([["d8","a5"]])");
  CHECK(str(move, "text") == "f6:a5");  // one route: written short
  const Answer after = call(api, "move", session_body(str(a.json, "session"), R"("move":"f6:d8:a5")"));
  REQUIRE(after.status == 200);
  CHECK(king_on(after.json, "a5"));
  // The Brazilian man stops on d8, uncrowned until the move ends there.
  const Answer brazilian = call(api, "new", R"({"fen":"W:W11:B7,9"})");
  CHECK(str(brazilian.json, "variant") == "brazilian");
  CHECK(legal_ids(brazilian.json) == std::vector<std::string>{"11x2x7"});
}

TEST_CASE("web api russian: a short capture is offered beside the long one", "[web][russian]") {
  Api api(fast_config());
  // c3 takes d4 and f6, or d2 alone: Brazilian's majority rule allows the first only.
  const Answer russian = call(api, "new", R"({"fen":"W:W22:B11,18,26","variant":"russian"})");
  REQUIRE(russian.status == 200);
  CHECK(legal_ids(russian.json) == std::vector<std::string>{"22x31x26", "22x8x11x18"});
  CHECK(russian.json.find("must_capture")->as_bool());
  const Answer brazilian = call(api, "new", R"({"fen":"W:W22:B11,18,26","variant":"brazilian"})");
  CHECK(legal_ids(brazilian.json) == std::vector<std::string>{"22x8x11x18"});
  // The short one is played, and the game goes on.
  const Answer shorter = call(api, "move", session_body(str(russian.json, "session"), R"("move":"c3:e1")"));
  REQUIRE(shorter.status == 200);
  CHECK(str(shorter.json, "side") == "black");
}

TEST_CASE("web api russian: an unknown or malformed variant is a clear 400 and no session",
          "[web][russian]") {
  Api api(fast_config());
  for (const char* body : {R"({"variant":"italian"})", R"({"variant":"Russian"})", R"({"variant":25})"}) {
    INFO(body);
    const Answer a = call(api, "new", body);
    CHECK(a.status == 400);
    CHECK(str(a.json, "error").find("variant") != std::string::npos);
  }
  const Answer italian = call(api, "new", R"({"variant":"italian"})");
  CHECK(
      str(italian.json, "error") ==
      R"(unknown variant "italian": variant must be "brazilian", "russian", "spanish", "portuguese", "pool" or "czech")");
  CHECK(call(api, "load-pdn", R"({"pdn":"1. 22-18 *","variant":"italian"})").status == 400);
  CHECK(call(api, "stats", "{}").json.find("sessions")->as_number() == 0);
}

TEST_CASE("web api russian: the computer, the hint and the review search by Russian rules",
          "[web][russian]") {
  Api api(fast_config());
  // The one Russian move goes on to a5 as a king; a search by Brazilian rules would stop on d8.
  const std::string id =
      new_game(api, R"({"fen":"W:W11,30:B4,7,9","variant":"russian","mode":"computer","human":"black"})");
  const Answer hint = call(api, "hint", session_body(id));
  REQUIRE(hint.status == 200);
  CHECK(str(*hint.json.find("hint"), "id") == "11x13x7x9");
  const Answer played = call(api, "engine-move", session_body(id));
  REQUIRE(played.status == 200);
  CHECK(played.json.find("moves")->as_array().size() == 1);
  CHECK(str(played.json.find("moves")->as_array().front(), "text") == "f6:a5");
  CHECK(str(played.json, "pdn").find("[GameType \"25\"]") != std::string::npos);
  REQUIRE(call(api, "review-start", session_body(id, R"("depth":2)")).status == 200);
  const Json review = *review_to_end(api, id).find("review");
  CHECK(str(review, "pdn").find("[GameType \"25\"]") != std::string::npos);
  CHECK(str(review.find("plies")->as_array().front(), "best") == "f6:a5");
}

TEST_CASE("web api russian: PDN out says GameType 25 and reading it back selects Russian", "[web][russian]") {
  Api api(fast_config());
  const std::string id = new_game(api, R"({"fen":"W:W22:B11,18,26","variant":"russian"})");
  const Answer played = call(api, "move", session_body(id, R"("move":"c3:e1")"));
  REQUIRE(played.status == 200);
  const std::string pdn = str(played.json, "pdn");
  CHECK(pdn.find("[GameType \"25\"]") != std::string::npos);
  Json load = Json::object();
  load.set("pdn", Json::string(pdn));
  const Answer loaded = call(api, "load-pdn", load.dump());
  REQUIRE(loaded.status == 200);
  CHECK(str(loaded.json, "variant") == "russian");
  CHECK(loaded.json.find("moves")->dump() == played.json.find("moves")->dump());
  // The tag decides over the request; a game without one is played by the request's variant.
  load.set("variant", Json::string("brazilian"));
  CHECK(str(call(api, "load-pdn", load.dump()).json, "variant") == "russian");
  Json untagged = Json::object();
  untagged.set("pdn", Json::string("[FEN \"W:W22:B11,18,26\"]\n1. 22x31 *"));
  CHECK(call(api, "load-pdn", untagged.dump()).status == 422);  // not a Brazilian move
  untagged.set("variant", Json::string("russian"));
  const Answer russian = call(api, "load-pdn", untagged.dump());
  REQUIRE(russian.status == 200);
  CHECK(str(russian.json, "variant") == "russian");
}

TEST_CASE("web api russian: the server's variant option is the game of a new board", "[web][russian]") {
  Api api(fast_config());
  REQUIRE(api.set_engine_option("variant", "russian"));
  CHECK(str(call(api, "new", "{}").json, "variant") == "russian");
  CHECK(str(call(api, "new", R"({"variant":"brazilian"})").json, "variant") == "brazilian");
  CHECK(str(call(api, "load-pdn", R"({"pdn":"1. 22-18 *"})").json, "variant") == "russian");
  CHECK_FALSE(api.set_engine_option("variant", "italian").has_value());
}

// ---- The games of the mirrored board (Spanish, Portuguese): the API speaks the game's names ----
namespace {

// Every square the answer names (pieces, legal moves with their routes and captures, capturers,
// the last move, a hint, a best line's steps): the strings under those keys, at any depth.
void collect_squares(const Json& j, bool square, std::vector<std::string>& out) {
  static const std::vector<std::string> kSquareKeys = {"square",   "from",   "to",
                                                       "captured", "routes", "capturers"};
  if (j.is_string() && square) out.push_back(j.as_string());
  if (j.is_array())
    for (const Json& e : j.as_array()) collect_squares(e, square, out);
  if (j.is_object())
    for (const auto& [key, value] : j.as_object())
      if (key != "text" && key != "id")
        collect_squares(value, square || std::count(kSquareKeys.begin(), kSquareKeys.end(), key) > 0, out);
}

std::vector<std::string> named_squares(const Json& answer) {
  std::vector<std::string> out;
  collect_squares(answer, false, out);
  return out;
}

std::vector<std::string> legal_texts(const Json& state) {
  std::vector<std::string> texts;
  for (const Json& m : state.find("legal")->as_array()) texts.push_back(str(m, "text"));
  std::sort(texts.begin(), texts.end());
  return texts;
}

std::string piece_on(const Json& state, const std::string& square) {
  for (const Json& p : state.find("pieces")->as_array())
    if (str(p, "square") == square) return str(p, "color") + (p.find("king")->as_bool() ? " king" : " man");
  return "";
}

}  // namespace

TEST_CASE("web api: games lists every game the engine plays, with its title, board and the draw laws",
          "[web][mirrored]") {
  Api api(fast_config());
  const Answer a = call(api, "games", "{}");
  REQUIRE(a.status == 200);
  const Json::Array& games = a.json.find("games")->as_array();
  REQUIRE(games.size() == kVariantCount);
  for (std::size_t i = 0; i < games.size(); ++i) {
    const Variant v = kVariants[i];
    CHECK(str(games[i], "name") == to_string(v));
    CHECK(str(games[i], "title") == rules::of(v).title);
    CHECK(games[i].find("mirrored_board")->as_bool() == rules::of(v).mirrored_board);
  }
  CHECK(str(games[2], "name") == "spanish");
  CHECK(games[2].find("mirrored_board")->as_bool());
  CHECK_FALSE(games[0].find("mirrored_board")->as_bool());
  CHECK(str(a.json, "default") == "brazilian");
  CHECK(a.json.find("rules")->dump() == R"(["game","seed","fmjd64","portuguese"])");
  REQUIRE(api.set_engine_option("variant", "portuguese"));
  CHECK(str(call(api, "games", "{}").json, "default") == "portuguese");
  CHECK(str(call(api, "new", "{}").json, "variant") == "portuguese");
}

TEST_CASE("web api: the Spanish and Portuguese boards name their own squares: a man on h1, none on a1",
          "[web][mirrored]") {
  Api api(fast_config());
  for (const std::string game : {"spanish", "portuguese"}) {
    INFO(game);
    const Variant v = *parse_variant(game);
    const Answer a = call(api, "new", R"({"variant":")" + game + R"("})");
    REQUIRE(a.status == 200);
    CHECK(str(a.json, "variant") == game);
    CHECK(str(a.json, "title") == rules::of(v).title);
    CHECK(a.json.find("mirrored_board")->as_bool());
    CHECK(piece_on(a.json, "h1") == "white man");
    CHECK(piece_on(a.json, "b1") == "white man");
    CHECK(piece_on(a.json, "a1").empty());
    CHECK(piece_on(a.json, "a8") == "black man");
    CHECK(piece_on(a.json, "h8").empty());
    // The seven first moves from the third rank (b3 d3 f3 h3), with the game's numbers as ids:
    // 1 is h1, right to left and up, so h3 is 9 and g4 13.
    CHECK(legal_texts(a.json) ==
          std::vector<std::string>{"b3-a4", "b3-c4", "d3-c4", "d3-e4", "f3-e4", "f3-g4", "h3-g4"});
    CHECK(legal_ids(a.json) ==
          std::vector<std::string>{"10-13", "10-14", "11-14", "11-15", "12-15", "12-16", "9-13"});
    for (const std::string& sq : named_squares(a.json)) {
      INFO(sq);
      CHECK(parse_square_name(sq, v).has_value());
    }
    // A move sent with the game's names or numbers is played as that game's move.
    const std::string id = str(a.json, "session");
    CHECK(call(api, "move", session_body(id, R"("move":"a3-b4")")).status == 422);  // a light square here
    const Answer named = call(api, "move", session_body(id, R"("move":"h3-g4")"));
    REQUIRE(named.status == 200);
    CHECK(piece_on(named.json, "g4") == "white man");
    CHECK(piece_on(named.json, "h3").empty());
    CHECK(named.json.find("last_move")->dump() == R"({"from":"h3","to":"g4","captured":[]})");
    CHECK(str(named.json.find("moves")->as_array().front(), "text") == "h3-g4");
    // Black answers with the number of its first legal move, and the names follow.
    const Json& reply = named.json.find("legal")->as_array().front();
    const Answer numbered = call(api, "move", session_body(id, R"("move":")" + str(reply, "id") + "\""));
    REQUIRE(numbered.status == 200);
    CHECK(piece_on(numbered.json, str(reply, "to")) == "black man");
    CHECK(numbered.json.find("last_move")->find("to")->as_string() == str(reply, "to"));
  }
}
