#include "damas/match/openings.h"

#include "damas/core/json.h"
#include "damas/core/movegen.h"
#include "damas/core/notation.h"
#include "damas/core/pdn.h"
#include "damas/core/text_lines.h"

namespace damas {

namespace {

bool looks_like_fen(std::string_view text) {
  return text.size() > 1 && (text[0] == 'W' || text[0] == 'B') && text[1] == ':';
}

// "FEN" or "FEN | name".
Expected<Opening> parse_fen_line(std::string_view text, Variant variant) {
  const std::size_t bar = text.find('|');
  const std::string_view fen = trim(text.substr(0, bar));
  Expected<Position> start = parse_fen(fen, variant);
  if (!start) return Error{start.error()};
  Opening opening{*start, {}, std::string(text), "", fen_draw_plies(fen)};
  if (bar != std::string_view::npos) opening.name = std::string(trim(text.substr(bar + 1)));
  return opening;
}

Expected<Opening> parse_moves_line(std::string_view text, Variant variant) {
  const Position start = Position::start(variant);
  Expected<std::vector<Move>> moves = parse_move_list(start, text);
  if (!moves) return Error{moves.error()};
  return Opening{start, std::move(moves).value(), std::string(text), ""};
}

// A game's moves were read by the rules its GameType names, so one of another game is refused
// rather than given the match's rules.
Expected<std::vector<Opening>> parse_pdn_openings(std::string_view text, const std::string& source,
                                                  Variant variant) {
  std::vector<Opening> out;
  for (PdnGameOrError& game : read_pdn(text)) {
    if (!game) return Error{source + ": " + game.error()};
    if (game->start.variant() != variant)
      return Error{line_location(source, game->first_line) + "a game of " +
                   std::string(to_string(game->start.variant())) + " (its GameType), not of " +
                   std::string(to_string(variant))};
    Opening opening{game->start, game->moves, "", "", game->start_plies};
    opening.name = game->tag("Opening").value_or(game->tag("Event").value_or(""));
    opening.text = opening.name.empty() ? "game at line " + std::to_string(game->first_line) : opening.name;
    out.push_back(std::move(opening));
  }
  return out;
}

// Every member of `value` (at any depth) whose value is a FEN string: (name, FEN), in order.
void collect_fen_members(const Json& value, std::vector<std::pair<std::string, std::string>>& out) {
  if (value.is_array())
    for (const Json& item : value.as_array()) collect_fen_members(item, out);
  if (!value.is_object()) return;
  for (const auto& [key, member] : value.as_object()) {
    if (member.is_string() && looks_like_fen(member.as_string())) out.emplace_back(key, member.as_string());
    else collect_fen_members(member, out);
  }
}

// pydraughts' ballot files: {"all": {"1-I cd4 ba5 dc5": "B:Wa1,e3,...:Ba5,...", ...}}: every
// member whose value is a FEN is an opening, named by its key. The strict reader refuses a
// malformed file.
Expected<std::vector<Opening>> parse_json_ballots(std::string_view text, const std::string& source,
                                                  Variant variant) {
  JsonLimits limits;
  limits.max_bytes = std::size_t{16} << 20;
  const Expected<Json> json = parse_json(text, limits);
  if (!json) return Error{source + ": " + json.error()};
  std::vector<std::pair<std::string, std::string>> members;
  collect_fen_members(*json, members);
  std::vector<Opening> out;
  for (const auto& [name, fen] : members) {
    Expected<Position> start = parse_fen(fen, variant);
    if (!start) return Error{source + ": ballot \"" + name + "\": " + start.error()};
    out.push_back(Opening{*start, {}, fen + " | " + name, name});
  }
  if (out.empty()) return Error{source + ": no openings"};
  return out;
}

}  // namespace

std::optional<OpeningFormat> parse_opening_format(std::string_view text) {
  if (text == "auto") return OpeningFormat::Auto;
  if (text == "fen" || text == "epd") return OpeningFormat::Fen;
  if (text == "moves") return OpeningFormat::Moves;
  if (text == "pdn" || text == "pgn") return OpeningFormat::Pdn;
  return std::nullopt;
}

Position Opening::position() const {
  Position p = start;
  for (const Move& m : moves) p = p.after(m);
  return p;
}

Expected<std::vector<Opening>> parse_openings(std::string_view text, const std::string& source,
                                              OpeningFormat format, Variant variant) {
  if (const std::string_view t = trim(text);
      (format == OpeningFormat::Auto || format == OpeningFormat::Fen) && !t.empty() && t.front() == '{')
    return parse_json_ballots(t, source, variant);
  std::vector<Opening> out;
  if (format == OpeningFormat::Pdn) {
    Expected<std::vector<Opening>> games = parse_pdn_openings(text, source, variant);
    if (!games) return games;
    out = std::move(games).value();
  } else {
    for (const DataLine& line : data_lines(text)) {
      const bool fen =
          format == OpeningFormat::Fen || (format == OpeningFormat::Auto && looks_like_fen(line.text));
      Expected<Opening> opening =
          fen ? parse_fen_line(line.text, variant) : parse_moves_line(line.text, variant);
      if (!opening) return Error{line_location(source, line.number) + opening.error()};
      if (!has_legal_move(opening->position()))
        return Error{line_location(source, line.number) + "the side to move has no legal move"};
      out.push_back(std::move(opening).value());
    }
  }
  if (out.empty()) return Error{source + ": no openings"};
  return out;
}

Expected<std::vector<Opening>> load_openings(const std::string& path, OpeningFormat format, Variant variant) {
  Expected<std::string> text = read_text_file(path, "openings file");
  if (!text) return Error{text.error()};
  return parse_openings(*text, path, format, variant);
}

std::string default_openings_file(Variant variant) {
  if (variant == Variant::Brazilian) return "openings.txt";
  if (variant == Variant::Russian) return "fmjd64-150-ballots.txt";
  return "openings-" + std::string(to_string(variant)) + ".txt";
}

}  // namespace damas
