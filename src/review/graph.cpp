#include "damas/review/graph.h"

#include <cstdio>

namespace damas::review {
namespace {

constexpr double kWidth = 720;
constexpr double kHeight = 300;
constexpr double kLeft = 40;  // room for the scale
constexpr double kRight = 10;
constexpr double kTop = 30;
constexpr double kPlotHeight = 200;

std::string escaped(const std::string& text) {
  std::string out;
  for (const char c : text) {
    if (c == '&') out += "&amp;";
    else if (c == '<') out += "&lt;";
    else if (c == '>') out += "&gt;";
    else if (c == '"') out += "&quot;";
    else out += c;
  }
  return out;
}

std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", v);
  return buf;
}

double x_of(std::size_t i, std::size_t positions) {
  const double span = kWidth - kLeft - kRight;
  return kLeft + (positions > 1 ? span * static_cast<double>(i) / static_cast<double>(positions - 1) : 0.0);
}

double y_of(double value) { return kTop + kPlotHeight / 2 - value / kGraphLimit * (kPlotHeight / 2); }

std::string side_line(const char* name, const SideSummary& s) {
  char buf[160];
  std::snprintf(buf, sizeof buf, "%s: %d inaccuracies, %d mistakes, %d blunders, average loss %.2f per move",
                name, s.inaccuracies, s.mistakes, s.blunders, s.average_loss);
  return buf;
}

std::string text_at(double x, double y, const std::string& text, const char* extra = "") {
  return "<text x=\"" + num(x) + "\" y=\"" + num(y) + "\"" + extra + ">" + escaped(text) + "</text>\n";
}

}  // namespace

std::string graph_svg(const GameReview& review, const std::string& title) {
  const std::size_t n = review.evals.size();
  std::string svg =
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" +
      num(kWidth) + "\" height=\"" + num(kHeight) + "\" viewBox=\"0 0 " + num(kWidth) + " " + num(kHeight) +
      "\" font-family=\"sans-serif\" font-size=\"12\">\n";
  svg += "<title>" + escaped(title) + "</title>\n";
  svg += "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n";
  svg += text_at(kLeft, 18, title, " font-weight=\"bold\"");
  // White's share light from the bottom edge up to the curve: all light at +3, all dark at -3.
  svg += "<rect x=\"" + num(kLeft) + "\" y=\"" + num(kTop) + "\" width=\"" + num(kWidth - kLeft - kRight) +
         "\" height=\"" + num(kPlotHeight) + "\" fill=\"#3a3a3a\"/>\n";
  const std::string bottom = num(y_of(-kGraphLimit));
  std::string area = std::string("M").append(num(x_of(0, n))).append(",").append(bottom);
  std::string line;
  for (std::size_t i = 0; i < n; ++i) {
    const std::string point = num(x_of(i, n)) + "," + num(y_of(graph_value(review.evals[i])));
    area += " L" + point;
    line.append(i ? " L" : "M").append(point);
  }
  area += " L" + num(x_of(n ? n - 1 : 0, n)) + "," + bottom + " Z";
  svg += "<path class=\"advantage\" d=\"" + area + "\" fill=\"#f5f0e1\"/>\n";
  svg += "<path class=\"evaluation\" d=\"" + line +
         "\" fill=\"none\" stroke=\"#1560b0\" stroke-width=\"1.5\"/>\n";
  svg += "<line x1=\"" + num(kLeft) + "\" y1=\"" + num(y_of(0)) + "\" x2=\"" + num(kWidth - kRight) +
         "\" y2=\"" + num(y_of(0)) + "\" stroke=\"#999999\" stroke-dasharray=\"4 3\"/>\n";
  for (const double v : {kGraphLimit, 0.0, -kGraphLimit})
    svg += text_at(4, y_of(v) + 4, std::string(v > 0 ? "+" : "").append(num(v)));
  for (std::size_t i = 0; i < review.plies.size(); ++i) {
    const PlyReview& p = review.plies[i];
    if (p.mark == Mark::None) continue;
    // The dot sits on the position after the marked move.
    svg += "<circle class=\"mark " + std::string(mark_style(p.mark).name) + "\" data-ply=\"" +
           std::to_string(i + 1) + "\" cx=\"" + num(x_of(i + 1, n)) + "\" cy=\"" +
           num(y_of(graph_value(review.evals[i + 1]))) + "\" r=\"4.5\" fill=\"" +
           std::string(mark_style(p.mark).colour) + "\" stroke=\"#000000\"/>\n";
  }
  svg += text_at(kLeft, kTop + kPlotHeight + 24, side_line("White", review.white));
  svg += text_at(kLeft, kTop + kPlotHeight + 42, side_line("Black", review.black));
  svg += text_at(kLeft, kTop + kPlotHeight + 60,
                 "White's advantage in men (clamped at 3); dots: inaccuracy, mistake, blunder",
                 " fill=\"#555555\"");
  svg += "</svg>\n";
  return svg;
}

}  // namespace damas::review
