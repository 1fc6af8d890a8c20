// `damas match` arguments: -engine/-each key=value words, -openings, -sprt, -draw, -resign, ...
#include "damas/cli/match_args.h"

#include <cmath>
#include <cstdlib>
#include <map>
#include <set>

#include "damas/cli/cli.h"
#include "damas/core/text_lines.h"
#include "damas/engine/options.h"

namespace damas::cli {

namespace {

struct KeyValue {
  std::string key;
  std::string value;
};

Expected<KeyValue> split_word(const std::string& option, const std::string& word) {
  const std::size_t eq = word.find('=');
  if (eq == std::string::npos || eq == 0)
    return Error{"-" + option + ": \"" + word + "\" is not of the form key=value"};
  return KeyValue{word.substr(0, eq), word.substr(eq + 1)};
}

Expected<double> to_number(const std::string& what, const std::string& text, double min, double max) {
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (text.empty() || end != text.c_str() + text.size() || !std::isfinite(v) || v < min || v > max)
    return Error{what + ": \"" + text + "\" is not a number from " + std::to_string(min) + " to " +
                 std::to_string(max)};
  return v;
}

Expected<int> to_int(const std::string& what, const std::string& text, int min, int max) {
  const Expected<double> v = to_number(what, text, min, max);
  if (!v) return Error{v.error()};
  if (*v != std::floor(*v)) return Error{what + ": \"" + text + "\" is not a whole number"};
  return static_cast<int>(*v);
}

std::vector<std::string> split_spaces(const std::string& text) {
  std::vector<std::string> out;
  std::string word;
  for (char c : text + " ") {
    if (c != ' ' && c != '\t') word += c;
    else if (!word.empty()) out.push_back(std::exchange(word, {}));
  }
  return out;
}

// One key of -engine or -each.
Status apply_engine_key(MatchEngine& e, const KeyValue& kv, const std::string& option) {
  const std::string what = "-" + option + " " + kv.key;
  const std::string& v = kv.value;
  if (kv.key == "cmd") e.spec.process.command = v;
  else if (kv.key == "args") e.spec.process.args = split_spaces(v);
  else if (kv.key == "name") e.spec.name = v;
  else if (kv.key == "dir") e.spec.process.dir = v;
  else if (kv.key == "proto") {
    if (v != "hub") return Error{what + ": only proto=hub is spoken"};
  } else if (kv.key.rfind("option.", 0) == 0 && kv.key.size() > 7) {
    e.spec.options.emplace_back(kv.key.substr(7), v);
  } else if (kv.key == "numbering") {
    const std::optional<Numbering> numbering = parse_numbering(v);
    if (!numbering) return Error{what + ": \"" + v + "\" (expected standard or a1)"};
    e.spec.numbering = *numbering;
  } else if (kv.key == "tc") {
    Expected<TimeControl> tc = parse_time_control(v);
    if (!tc) return Error{what + ": " + tc.error()};
    e.tc = *tc;
  } else if (kv.key == "st") {
    const Expected<double> t = to_number(what, v, 0.001, 1e5);
    if (!t) return Error{t.error()};
    e.tc = TimeControl{TimeControl::Kind::MoveTime, 0, 0, 0, *t, 0, 0};
  } else if (kv.key == "depth") {
    const Expected<int> d = to_int(what, v, 1, 1000);
    if (!d) return Error{d.error()};
    e.tc = TimeControl{TimeControl::Kind::Depth, 0, 0, 0, 0, *d, 0};
  } else if (kv.key == "nodes") {
    const Expected<double> n = to_number(what, v, 1, 1e15);
    if (!n || *n != std::floor(*n)) return Error{what + ": \"" + v + "\" is not a node count"};
    e.tc = TimeControl{TimeControl::Kind::Nodes, 0, 0, 0, 0, 0, static_cast<std::uint64_t>(*n)};
  } else if (kv.key == "timemargin") {
    const Expected<double> ms = to_number(what, v, 0, 1e7);
    if (!ms) return Error{ms.error()};
    e.margin = *ms / 1000;
  } else if (kv.key == "timeout") {
    const Expected<double> s = to_number(what, v, 0.001, 1e6);
    if (!s) return Error{s.error()};
    e.timeout = *s;
  } else if (kv.key == "starttimeout") {
    const Expected<double> s = to_number(what, v, 0.001, 1e4);
    if (!s) return Error{s.error()};
    e.spec.start_timeout = *s;
  } else {
    return Error{what +
                 ": unknown key (cmd args name dir proto option.NAME numbering tc st depth nodes "
                 "timemargin timeout starttimeout)"};
  }
  return Ok{};
}

Status apply_words(MatchEngine& e, const std::vector<std::string>& words, const std::string& option) {
  for (const std::string& w : words) {
    Expected<KeyValue> kv = split_word(option, w);
    if (!kv) return Error{kv.error()};
    if (Status s = apply_engine_key(e, *kv, option); !s) return s;
  }
  return Ok{};
}

// key=value words of an option into a map, refusing keys not in `allowed`.
Expected<std::map<std::string, std::string>> key_values(const OptionGroup& g,
                                                        const std::set<std::string>& allowed) {
  std::map<std::string, std::string> out;
  for (const std::string& w : g.words) {
    Expected<KeyValue> kv = split_word(g.name, w);
    if (!kv) return Error{kv.error()};
    if (!allowed.count(kv->key)) {
      std::string keys;
      for (const std::string& k : allowed) {
        if (!keys.empty()) keys += ' ';
        keys += k;
      }
      return Error{"-" + g.name + ": unknown key \"" + kv->key + "\" (expected " + keys + ")"};
    }
    out[kv->key] = kv->value;
  }
  return out;
}

Expected<std::string> single_word(const OptionGroup& g) {
  if (g.words.size() != 1) return Error{"-" + g.name + " takes one value"};
  return g.words[0];
}

Status no_words(const OptionGroup& g) {
  if (!g.words.empty()) return Error{"-" + g.name + " takes no value (got \"" + g.words[0] + "\")"};
  return Ok{};
}

Status read_openings(HubMatchSpec& spec, const OptionGroup& g) {
  Expected<std::map<std::string, std::string>> kv =
      key_values(g, {"file", "format", "order", "start", "plies", "policy"});
  if (!kv) return Error{kv.error()};
  auto& m = kv.value();
  if (!m.count("file")) return Error{"-openings needs file=PATH"};
  OpeningFormat format = OpeningFormat::Auto;
  if (m.count("format")) {
    const std::optional<OpeningFormat> f = parse_opening_format(m["format"]);
    if (!f) return Error{"-openings format: \"" + m["format"] + "\" (expected fen, pdn or moves)"};
    format = *f;
  }
  if (m.count("order")) {
    if (m["order"] != "random" && m["order"] != "sequential")
      return Error{"-openings order: \"" + m["order"] + "\" (expected random or sequential)"};
    spec.random_order = m["order"] == "random";
  }
  if (m.count("start")) {
    const Expected<int> start = to_int("-openings start", m["start"], 1, 100000000);
    if (!start) return Error{start.error()};
    spec.opening_start = *start;
  }
  Expected<std::vector<Opening>> openings = load_openings(m["file"], format, spec.variant);
  if (!openings) return Error{"-openings: " + openings.error()};
  spec.openings = std::move(openings).value();
  return Ok{};
}

Status read_sprt(HubMatchSpec& spec, const OptionGroup& g) {
  Expected<std::map<std::string, std::string>> kv = key_values(g, {"elo0", "elo1", "alpha", "beta"});
  if (!kv) return Error{kv.error()};
  SprtConfig c;
  for (auto& [key, value] : kv.value()) {
    const bool elo = key == "elo0" || key == "elo1";
    const Expected<double> v = to_number("-sprt " + key, value, elo ? -1000 : 1e-9, elo ? 1000 : 0.5);
    if (!v) return Error{v.error()};
    (key == "elo0" ? c.elo0 : key == "elo1" ? c.elo1 : key == "alpha" ? c.alpha : c.beta) = *v;
  }
  if (!(c.elo0 < c.elo1)) return Error{"-sprt: elo0 must be below elo1"};
  spec.sprt = c;
  return Ok{};
}

Status read_adjudication(HubMatchSpec& spec, const OptionGroup& g) {
  const bool draw = g.name == "draw";
  Expected<std::map<std::string, std::string>> kv =
      key_values(g, draw ? std::set<std::string>{"movenumber", "movecount", "score"}
                         : std::set<std::string>{"movecount", "score"});
  if (!kv) return Error{kv.error()};
  auto& m = kv.value();
  if (!m.count("movecount") || !m.count("score")) return Error{"-" + g.name + " needs movecount= and score="};
  const Expected<int> count = to_int("-" + g.name + " movecount", m["movecount"], 1, 10000);
  const Expected<int> score = to_int("-" + g.name + " score", m["score"], 0, 100000);
  const Expected<int> number =
      to_int("-draw movenumber", m.count("movenumber") ? m["movenumber"] : "0", 0, 10000);
  for (const Expected<int>* v : {&count, &score, &number})
    if (!*v) return Error{v->error()};
  if (draw) spec.draw = DrawAdjudication{*number, *count, *score};
  else spec.resign = ResignAdjudication{*count, *score};
  return Ok{};
}

Status read_count(const OptionGroup& g, int min, int max, int& out) {
  Expected<std::string> w = single_word(g);
  if (!w) return Error{w.error()};
  const Expected<int> v = to_int("-" + g.name, *w, min, max);
  if (!v) return Error{v.error()};
  out = *v;
  return Ok{};
}

Status read_text(const OptionGroup& g, std::string& out) {
  Expected<std::string> w = single_word(g);
  if (!w) return Error{w.error()};
  out = *w;
  return Ok{};
}

Status apply_group(HubMatchSpec& spec, const OptionGroup& g) {
  const std::string& n = g.name;
  if (n == "rounds") return read_count(g, 1, 100000000, spec.rounds);
  if (n == "games") return read_count(g, 1, 1000, spec.games);
  if (n == "concurrency") return read_count(g, 1, 256, spec.concurrency);
  if (n == "maxmoves") return read_count(g, 1, 100000, spec.max_moves);
  if (n == "srand") {
    int seed = 0;
    if (Status s = read_count(g, 0, 2147483647, seed); !s) return s;
    spec.seed = static_cast<std::uint64_t>(seed);
    return Ok{};
  }
  if (n == "repeat" || n == "norepeat" || n == "recover" || n == "debug" || n == "resume") {
    if (Status s = no_words(g); !s) return s;
    if (n == "repeat" || n == "norepeat") spec.repeat = n == "repeat";
    if (n == "recover") spec.recover = true;
    if (n == "resume") spec.resume = true;
    if (n == "debug") spec.debug = true;
    return Ok{};
  }
  if (n == "pdnout" || n == "pgnout") return read_text(g, spec.pdn_path);
  if (n == "log") return read_text(g, spec.log_path);
  if (n == "event") return read_text(g, spec.event);
  if (n == "openings") return read_openings(spec, g);
  if (n == "sprt") return read_sprt(spec, g);
  if (n == "draw" || n == "resign") return read_adjudication(spec, g);
  if (n == "draw-rules") {
    std::string text;
    if (Status s = read_text(g, text); !s) return s;
    const std::optional<DrawRules> rules = parse_draw_rules(text);
    if (!rules) return Error{"-draw-rules takes seed, fmjd64 or portuguese, not \"" + text + "\""};
    spec.draw_rules = *rules;
    return Ok{};
  }
  return Ok{};  // -engine, -each and -variant are read by the caller
}

Status read_variant(HubMatchSpec& spec, const OptionGroup& g) {
  std::string text;
  if (Status s = read_text(g, text); !s) return s;
  const std::optional<Variant> variant = parse_variant(text);
  if (!variant)
    return Error{"-variant takes " + find_option(option::kVariant)->values_text() + ", not \"" + text + "\""};
  spec.variant = *variant;
  return Ok{};
}

std::string base_name(const std::string& path) {
  const std::size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// Names from cmd when not given; repeated names get "-2", "-3" so results and PDN stay readable.
void name_engines(std::vector<MatchEngine>& engines) {
  std::map<std::string, int> seen;
  for (MatchEngine& e : engines) {
    if (e.spec.name.empty()) e.spec.name = base_name(e.spec.process.command);
    const int n = ++seen[e.spec.name];
    if (n > 1) {
      e.spec.name += '-';
      e.spec.name += std::to_string(n);
    }
  }
}

bool gives_limit(const std::vector<std::string>& words) {
  for (const std::string& w : words)
    for (const char* key : {"tc=", "st=", "depth=", "nodes="})
      if (w.rfind(key, 0) == 0) return true;
  return false;
}

}  // namespace

Expected<HubMatchSpec> match_spec_from_groups(const std::vector<OptionGroup>& groups) {
  HubMatchSpec spec;
  std::vector<std::string> each;
  std::vector<const OptionGroup*> engines;
  // The game first: the openings are read as its positions wherever -variant stands.
  for (const OptionGroup& g : groups)
    if (g.name == "variant")
      if (Status s = read_variant(spec, g); !s) return Error{s.error()};
  bool openings_given = false;
  for (const OptionGroup& g : groups) {
    if (g.name == "each") each.insert(each.end(), g.words.begin(), g.words.end());
    else if (g.name == "engine") engines.push_back(&g);
    else if (Status s = apply_group(spec, g); !s) return Error{s.error()};
    openings_given = openings_given || g.name == "openings";
  }
  // Without -openings, the game's own (match/openings.h default_openings_file).
  if (!openings_given) {
    Expected<std::vector<Opening>> openings =
        load_openings(data_file(default_openings_file(spec.variant)), OpeningFormat::Auto, spec.variant);
    if (!openings)
      return Error{"the default openings of " + std::string(to_string(spec.variant)) + ": " +
                   openings.error() + " (give -openings file=F)"};
    spec.openings = std::move(openings).value();
  }
  for (const OptionGroup* g : engines) {
    MatchEngine e;
    if (Status s = apply_words(e, each, "each"); !s) return Error{s.error()};
    if (Status s = apply_words(e, g->words, "engine"); !s) return Error{s.error()};
    if (e.spec.process.command.empty()) return Error{"-engine needs cmd=PATH"};
    if (!gives_limit(each) && !gives_limit(g->words))
      return Error{"-engine " + e.spec.process.command +
                   ": no limit per move (-each tc=10+0.1, st=, depth= or nodes=)"};
    spec.engines.push_back(std::move(e));
  }
  if (spec.engines.size() < 2) return Error{"give at least two -engine options"};
  if (spec.sprt && spec.engines.size() != 2) return Error{"-sprt needs exactly two engines"};
  name_engines(spec.engines);
  if (Status s = check_match_variant(spec); !s) return Error{s.error()};
  return spec;
}

}  // namespace damas::cli
