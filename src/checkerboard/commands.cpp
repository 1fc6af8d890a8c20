// enginecommand: CheckerBoard's own commands, then any engine option by name.
#include <string>
#include <vector>

#include "damas/checkerboard/frontend.h"
#include "damas/core/input_echo.h"
#include "damas/core/notation.h"

namespace damas::checkerboard {
namespace {

constexpr std::string_view kHelp =
    "commands: name | about | help | get gametype | set gametype N (25 Russian, 26 Brazilian) | "
    "get hashsize | set hashsize MiB | get book | set book N (0 off, 1-3 on) | get protocolversion | "
    "set gamehist FEN move move ... | get OPTION | set OPTION VALUE (any damas option: variant, threads, "
    "level, hash, egdb-path, book-file, ...); see protocol/checkerboard.md";

// The book value `get book` answers while damas's book is on: it plays a move within book-margin
// of the best, CheckerBoard's CB_BOOK_GOOD_MOVES.
constexpr int kBookOn = 2;

std::vector<std::string_view> words_of(std::string_view text) {
  std::vector<std::string_view> words;
  std::size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r')) ++i;
    std::size_t j = i;
    while (j < text.size() && text[j] != ' ' && text[j] != '\t' && text[j] != '\n' && text[j] != '\r') ++j;
    if (j > i) words.push_back(text.substr(i, j - i));
    i = j;
  }
  return words;
}

// The text after the first `count` words.
std::string_view rest_after(std::string_view text, const std::vector<std::string_view>& words,
                            std::size_t count) {
  if (words.size() <= count) return {};
  return text.substr(static_cast<std::size_t>(words[count].data() - text.data()));
}

// pydraughts cuts a `set gamehist` over 256 characters to its tail and drops the first token, so
// what arrives is moves (and maybe a FEN) without the command words.
bool looks_like_cut_history(std::string_view text) {
  bool digit = false;
  for (const char c : text) {
    if (c >= '0' && c <= '9') digit = true;
    else if (!((c >= 'a' && c <= 'h') || c == 'x' || c == '-' || c == ':' || c == ',' || c == ' ' ||
               c == 'W' || c == 'B' || c == 'K'))
      return false;
  }
  return digit;
}

CommandReply understood(std::string text) { return {true, std::move(text)}; }
CommandReply refused(std::string text) { return {false, std::move(text)}; }

}  // namespace

CommandReply Frontend::command(std::string_view text) {
  const std::vector<std::string_view> words = words_of(text);
  if (words.empty()) return refused("empty command; 'help' lists the commands");
  const std::string_view first = words[0];
  if (first == "name") return understood("damas " DAMAS_VERSION);
  if (first == "about")
    return understood("damas " DAMAS_VERSION ", an engine for Brazilian and Russian draughts; playing " +
                      std::string(to_string(variant())) +
                      ". protocol/checkerboard.md tells what it answers.");
  if (first == "help") return understood(std::string(kHelp));
  if (first == "get" && words.size() == 2) return get_command(words[1]);
  if (first == "set" && words.size() >= 3) return set_command(words[1], rest_after(text, words, 2));
  if (first == "set" && words.size() == 2 && words[1] == "gamehist") return set_game_history({});
  if (first == "get" || first == "set")
    return refused("use 'get NAME' or 'set NAME VALUE', not '" + echo_input(text) + "'");
  // A `set gamehist` of 257 to 259 characters loses only its "set": the history is whole.
  if (first == "gamehist") return set_game_history(rest_after(text, words, 1));
  if (looks_like_cut_history(text)) {
    history_.reset();
    return refused(
        "game history cut: the client shortened a set gamehist command to its last 256 characters, so it "
        "cannot be used; the history is forgotten and repetitions before this position are not seen");
  }
  return refused("unknown command '" + echo_input(first) + "'; 'help' lists the commands");
}

CommandReply Frontend::get_command(std::string_view name) const {
  const Options& options = engine_.options();
  if (name == "gametype") return understood(std::to_string(rules::of(variant()).pdn_game_type));
  if (name == "hashsize") return understood(options.get(option::kHash));
  if (name == "book") return understood(std::to_string(options.get_bool(option::kBook) ? kBookOn : 0));
  if (name == "protocolversion") return understood("2");
  if (find_option(name)) return understood(options.get(name));
  return refused("unknown option '" + echo_input(name) + "'; 'help' lists the commands");
}

CommandReply Frontend::set_command(std::string_view name, std::string_view value) {
  if (name == "gamehist") return set_game_history(value);
  if (name == "gametype") return set_game_type(value);
  if (name == "book") return set_book(value);
  const std::string_view option_name = name == "hashsize" ? option::kHash : name;
  if (!find_option(option_name))
    return refused("unknown option '" + echo_input(name) + "'; 'help' lists the commands");
  if (const Status s = engine_.set_option(option_name, value); !s) return refused(s.error());
  return understood(std::string(name) + " set to " + engine_.options().get(option_name));
}

namespace {

// "26 (brazilian), 25 (russian), ...": the games of the FMJD board.
std::string game_types_played() {
  std::string list;
  for (const Variant v : kVariants) {
    if (rules::of(v).mirrored_board) continue;
    list += (list.empty() ? "" : ", ") + std::to_string(rules::of(v).pdn_game_type) + " (" +
            std::string(to_string(v)) + ")";
  }
  return list;
}

}  // namespace

CommandReply Frontend::set_game_type(std::string_view value) {
  const std::optional<Variant> game = variant_of_game_type(parse_decimal(value, 3));
  // The API's board is laid out for the FMJD board (board.h); a mirrored game would need its own.
  if (!game || rules::of(*game).mirrored_board)
    return refused("gametype '" + echo_input(value) +
                   "' is not played by damas here: " + game_types_played());
  const Variant v = *game;
  const int type = rules::of(v).pdn_game_type;
  if (const Status s = engine_.set_option(option::kVariant, to_string(v)); !s) return refused(s.error());
  return understood("gametype set to " + std::to_string(type) + " (" + std::string(to_string(v)) + ")");
}

CommandReply Frontend::set_book(std::string_view value) {
  const int book = parse_decimal(value, 1);
  if (book < 0 || book > 3) return refused("book '" + echo_input(value) + "' is not 0 (off) or 1-3 (on)");
  if (const Status s = engine_.set_option(option::kBook, book == 0 ? "false" : "true"); !s)
    return refused(s.error());
  return understood(book == 0 ? "book off" : "book on");
}

CommandReply Frontend::set_game_history(std::string_view text) {
  history_.reset();
  const std::vector<std::string_view> words = words_of(text);
  if (words.empty()) return refused("set gamehist needs a FEN and the moves played from it");
  const Expected<Position> start = parse_fen(words[0], variant());
  if (!start) return refused("bad game history, forgotten: " + start.error());
  const Position first = start->with_variant(variant());
  const Expected<std::vector<Move>> moves = parse_move_list(first, rest_after(text, words, 1));
  if (!moves) return refused("bad game history, forgotten: " + moves.error());
  Position last = first;
  for (const Move& m : *moves) last = last.after(m);
  history_ = History{first, *moves, last};
  return understood("game history: " + std::to_string(moves->size()) + " moves from " + to_fen(first));
}

}  // namespace damas::checkerboard
