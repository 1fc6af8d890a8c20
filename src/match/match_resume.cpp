#include "match_resume.h"

#include <algorithm>
#include <filesystem>
#include <system_error>

#include "damas/core/text_lines.h"
#include "damas/match/match_record.h"

namespace damas {

namespace {

using Placed = std::vector<std::vector<std::optional<HubGame>>>;  // per job and game: read back

const std::string& name_of(const HubMatchSpec& spec, int engine) {
  return spec.engines[static_cast<std::size_t>(engine)].spec.name;
}

bool is_scheduled_as(const HubMatchSpec& spec, const RecordedGame& r, const ScheduledGame& g) {
  if (r.round != g.round || r.white != name_of(spec, g.white) || r.black != name_of(spec, g.black))
    return false;
  if (g.opening < 0) return r.start == Position::start(spec.variant);
  const Opening& o = spec.openings[static_cast<std::size_t>(g.opening)];
  return r.start == o.start && r.moves.size() >= o.moves.size() &&
         std::equal(o.moves.begin(), o.moves.end(), r.moves.begin());
}

// The recorded game as the match reports it. "time forfeit by NAME: detail" in its Termination
// tag is a failure, charged to the loser.
Expected<HubGame> recorded_report(const HubMatchSpec& spec, const RecordedGame& r, const ScheduledGame& g) {
  const std::string tc = time_control_tag(spec.engines[static_cast<std::size_t>(g.white)].tc,
                                          spec.engines[static_cast<std::size_t>(g.black)].tc);
  if (r.time_control != tc)
    return Error{"played at " + r.time_control + ", this match is " + tc +
                 " (resume with the same -each tc)"};
  HubGame h = g.as_hub_game();
  h.result = r.result;
  h.termination = r.termination;
  h.plies = static_cast<int>(r.moves.size());
  h.pdn = r.text;
  for (int f = 1; f < static_cast<int>(Failure::kCount); ++f) {
    const std::string prefix = to_string(static_cast<Failure>(f)) + " by ";
    if (r.termination.rfind(prefix, 0) != 0 || r.result == GameResult::Draw) continue;
    h.failure = static_cast<Failure>(f);
    h.failed_engine = r.result == GameResult::WhiteWins ? g.black : g.white;
    h.termination = to_string(h.failure);
    const std::string rest = r.termination.substr(prefix.size());
    const std::string who = name_of(spec, h.failed_engine) + ": ";
    h.detail = rest.rfind(who, 0) == 0 ? rest.substr(who.size()) : rest;
  }
  return h;
}

// Each recorded game at its place in the schedule, or why one has none.
Status place(const HubMatchSpec& spec, const std::vector<Job>& jobs, const RecordedMatch& record,
             Placed& done) {
  done.assign(jobs.size(), {});
  for (std::size_t j = 0; j < jobs.size(); ++j) done[j].resize(jobs[j].size());
  for (const RecordedGame& r : record.games) {
    Status placed = Error{line_location(spec.pdn_path, r.line) + "round " + std::to_string(r.round) + ", " +
                          r.white + " - " + r.black +
                          " is not a game of this match (resume with the interrupted match's command line)"};
    for (std::size_t j = 0; j < jobs.size() && !placed; ++j)
      for (std::size_t k = 0; k < jobs[j].size() && !placed; ++k)
        if (!done[j][k] && is_scheduled_as(spec, r, jobs[j][k])) {
          Expected<HubGame> h = recorded_report(spec, r, jobs[j][k]);
          if (!h) return Error{line_location(spec.pdn_path, r.line) + h.error()};
          done[j][k] = std::move(*h);
          placed = Ok{};
        }
    if (!placed) return placed;
  }
  return Ok{};
}

// The placed games out of `jobs`, in schedule order, each with the points of its pair's first game
// when it closes a pair; the game left of a pair half played now closes it.
std::vector<ResumedGame> take_out(std::vector<Job>& jobs, const Placed& done) {
  std::vector<ResumedGame> games;
  for (std::size_t j = 0; j < jobs.size(); ++j) {
    Job& job = jobs[j];
    for (std::size_t k = 0; k < job.size(); ++k) {
      if (!done[j][k]) continue;
      // The pair's other game: the one before (this closes the pair) or the one after.
      const std::size_t other = job[k].closes_pair ? k - 1 : k + 1;
      const bool paired = job[k].closes_pair || (other < job.size() && job[other].closes_pair);
      std::optional<double> pair_first;
      if (paired && job[k].closes_pair && done[j][other]) pair_first = done[j][other]->points(0);
      if (paired && !done[j][other]) {
        job[other].partner_points = done[j][k]->points(0);
        job[other].closes_pair = true;  // the game still to play completes the pair
      }
      games.push_back({*done[j][k], pair_first});
    }
    Job left;
    for (std::size_t k = 0; k < job.size(); ++k)
      if (!done[j][k]) left.push_back(job[k]);
    job = std::move(left);
  }
  std::erase_if(jobs, [](const Job& job) { return job.empty(); });
  return games;
}

}  // namespace

Expected<ResumedMatch> resume_match(const HubMatchSpec& spec, std::vector<Job>& jobs) {
  ResumedMatch resumed;
  std::error_code ec;
  if (!std::filesystem::exists(spec.pdn_path, ec)) return resumed;  // nothing played yet
  Expected<std::string> text = read_text_file(spec.pdn_path, "PDN file");
  if (!text) return Error{text.error()};
  Expected<RecordedMatch> record = read_match_record(*text, spec.pdn_path);
  if (!record) return Error{record.error()};
  Placed done;
  if (Status s = place(spec, jobs, *record, done); !s) return Error{s.error()};
  for (RecordedGame& r : record.value().games) resumed.texts.push_back(std::move(r.text));
  resumed.games = take_out(jobs, done);
  resumed.dropped_line = record->dropped_line;
  return resumed;
}

}  // namespace damas
