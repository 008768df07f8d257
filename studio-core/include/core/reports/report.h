#pragma once
// Reports: a decision, a comparison (one decision or a whole suite run) or a bench run, handed to
// someone who never opens Decision Studio. One document value (Report) is built from the same
// result values the views show; four writers read only that value:
//
//   HTML  one self-contained file: styles and charts inline (SVG), no script, light and dark
//         colour schemes, printable;
//   PDF   A4 or Letter, vector charts, header and footer with page numbers, tables that break
//         across pages with their header repeated (Qt's PDF writer);
//   CSV   RFC 4180, UTF-8 with a byte-order mark, one row per item and question;
//   JSON  the full data with "report_version" (the schema is described in the README).
//
// Charts are values too (ReportChart, core/reports/chart.h). The HTML's SVG, the PDF's pages and
// the Studio's preview paint them as the Qt Charts chart the Studio's views show
// (charts/qt_chart.h: one definition of every chart). Nothing here reads a secret: an endpoint
// appears only as Backend::describe() gives it.
//
// HTML, PDF and the page preview paint text and Qt Charts (QGraphicsWidgets), so they need a
// QApplication (the CLI makes one on the offscreen platform: ensure_gui_application); CSV and JSON
// need nothing.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/comparison/compare.h"
#include "core/decide/decision.h"
#include "core/evaluation/eval_report.h"
#include "core/evaluation/eval_runner.h"
#include "core/evaluation/eval_score.h"
#include "core/evaluation/eval_suite.h"
#include "core/images/images.h"
#include "core/policy/schema.h"
#include "core/reports/chart.h"

class QImage;
class QPainter;
class QRectF;

namespace core::report {

inline constexpr int kReportVersion = 1;

enum class Format { Html, Pdf, Csv, Json };
std::string_view to_string(Format format);                  // "html", "pdf", "csv", "json"
std::optional<Format> parse_format(std::string_view text);  // the names above, and "htm"
// What -o and --format accept, for error messages.
inline constexpr std::string_view kAcceptedFormats =
    "html (.html, .htm), pdf (.pdf), csv (.csv), json (.json)";
// The format `path` asks for: `override_format` when given, else the file's extension. Errors
// (BadInput) name the path or the value and the accepted formats.
Result<Format> format_for_path(const std::string& path,
                               const std::optional<std::string>& override_format);

enum class PageSize { A4, Letter };
std::optional<PageSize> parse_page_size(std::string_view text);  // "a4", "letter"

// When, with what program and on what endpoint a report was made.
struct Provenance {
    std::string created_at;  // ISO 8601, UTC
    std::string program;     // "dgem decide", "Decision Studio", ...
    std::string version;     // the program version
    std::string endpoint;    // Backend::describe(): never a token or key
    std::string model;
};
// created_at = now; version = this build's.
Provenance make_provenance(std::string program, std::string endpoint, std::string model);

// ---- the document ----------------------------------------------------------------------

// One question of a decision: every label's bar with its error bar, and the noise draws.
struct QuestionBlock {
    std::string id;
    std::string type;  // noul, choice, score
    std::string instructions;
    std::vector<std::string> labels, alternatives, descriptions;
    std::vector<double> probabilities;  // mean over the reads, per label
    std::vector<double> errors;         // standard error per label (empty with one read)
    int winner = 0;
    double confidence = 0, entropy = 0, hesitation = 0, agreement = 1;
    std::string hesitation_class;
    std::vector<int> draws;  // per read: the label index it chose
    std::string ptr;         // JSON Pointer of this question's object in Report::data
    std::string skipped;     // why its ask_if skipped it (no reads then); empty when it was read
};

struct Fact {
    std::string name, value;
    std::string ptr;  // JSON Pointer of the number shown, in Report::data ("" for text)
};
struct Table {
    std::string title;
    std::vector<std::string> columns;
    std::vector<std::vector<std::string>> rows;
    std::vector<int> numeric_columns;  // right-aligned
    // Empty, or the shape of `rows`: the JSON Pointer into Report::data of each cell's number
    // ("" for text), so the HTML marks where every number comes from.
    std::vector<std::vector<std::string>> cell_ptrs;
};

// An image the decision read (video frames are several), shown where the report has room: the
// HTML inlines it as a data: URI (still one file), the PDF paints it, the JSON keeps its facts.
struct ReportImage {
    std::string name;   // the file name, or the URL without its query ("data: URI" for one)
    std::string mime;   // image/png, image/jpeg, image/webp
    std::string bytes;  // the encoded file
    int width = 0, height = 0;
};

struct Section {
    std::string title;
    std::string text;  // a paragraph (plain text)
    std::vector<Fact> facts;
    std::vector<QuestionBlock> questions;
    std::vector<ReportChart> charts;
    std::vector<Table> tables;
    std::vector<ReportImage> images;
};

enum class Kind { Decision, Comparison, Bench };
std::string_view to_string(Kind kind);  // "decision", "comparison", "bench"

struct Report {
    Kind kind = Kind::Decision;
    std::string title;
    Provenance provenance;
    std::vector<Section> sections;
    nlohmann::ordered_json data;  // the JSON format's whole content
    Table csv;                    // the CSV format: one row per item and question
};

// ---- building reports from results -------------------------------------------------------

struct PolicyInfo {
    std::string name;  // "support_triage"
    std::string file;  // its path, or ":/templates/..." for a shipped one
};

// What the canvas view shows of a plan, in one line each.
struct CanvasSummary {
    std::string layout;
    int prompt_tokens = 0;
    int width = 0;
    int answer_slots = 0;
    int groups = 0;
    int reads = 0;
};

struct DecisionInput {
    PolicyInfo policy;
    Schema schema;
    nlohmann::json variables = nlohmann::json::object();  // name -> value
    Decision decision;
    std::optional<CanvasSummary> canvas;
    Provenance provenance;
    std::vector<ImageInput> images = {};  // what the decision read, in order
};
Report decision_report(const DecisionInput& input);

struct ComparisonInput {
    PolicyInfo policy;
    Schema schema;
    nlohmann::json variables = nlohmann::json::object();
    compare::Comparison comparison;
    Provenance provenance;
    std::vector<ImageInput> images = {};
};
Report comparison_report(const ComparisonInput& input);

// A suite run: JevBench items (run_score) or a dgem suite (suite_score); with generative records,
// the slot-vs-generative summary and charts too.
struct BenchInput {
    eval::Suite suite;
    std::string dataset_path;
    std::vector<eval::ItemRecord> records;
    nlohmann::json settings = nlohmann::json::object();  // the run's header or the view's settings
    double wall_s = 0;
    std::optional<eval::RunScore> run_score;
    std::optional<eval::SuiteScore> suite_score;
    std::optional<eval::Leaderboard> leaderboard;
    bool with_comparison = false;                     // the run asked the generative side too
    nlohmann::json extra = nlohmann::json::object();  // merged into data (program-specific keys)
    Provenance provenance;
};
Report bench_report(const BenchInput& input);

// The charts, built from the scored values (the same ones the Bench and Compare views chart).
ReportChart probability_chart(const QuestionBlock& question);
// `items` (optional): each item with its top-label confidence; a bin then lists the items whose
// confidence falls in it (the ECE's rule: bin min(floor(10 c), 9)).
ReportChart reliability_chart(const eval::Ece& ece, std::string title,
                              const std::vector<ChartItem>& items = {});
// `items` (optional): the ids beside `latencies_s`, one per latency.
ReportChart latency_chart(const std::vector<double>& latencies_s,
                          const std::vector<std::string>& items = {});
// `items` (optional): each group's item ids.
ReportChart accuracy_chart(const std::map<std::string, eval::GroupStats>& groups, std::string title,
                           const std::map<std::string, std::vector<std::string>>& items = {});
ReportChart axes_chart(const eval::Axes& axes);
ReportChart leaderboard_chart(const eval::Leaderboard& board, std::optional<double> this_run);
ReportChart latency_per_item_chart(const std::vector<compare::ItemComparisonRow>& rows);
ReportChart validity_chart(const compare::SuiteComparison& comparison);
ReportChart mode_accuracy_chart(const compare::SuiteComparison& comparison);

// ---- writing -------------------------------------------------------------------------------

// A chart's data as CSV (RFC 4180, no byte-order mark): category charts one row per category
// and a column per set; XY charts one row per point (series, x, y); then, when the chart has
// bins, one row per bin (label, from, to, value, count, items separated by spaces).
std::string chart_csv(const ReportChart& chart);

std::string to_json_text(const Report& report);
std::string to_csv(const Report& report);
std::string to_html(const Report& report);
// Needs a QGuiApplication (fonts).
Result<std::string> to_pdf(const Report& report, PageSize page_size);
// The PDF's pages as images at `dpi` (the Studio's preview; the same painting code).
std::vector<QImage> render_pages(const Report& report, PageSize page_size, int dpi);

// Renders in `format` and writes atomically (a temporary file renamed into place): a failure
// leaves an existing file untouched. Errors name the path.
Result<void> write_report(const Report& report, const std::string& path, Format format,
                          PageSize page_size = PageSize::A4);

// Paints `chart` into `rect` (charts::render_chart in the report's look). `dark`: light text.
void paint_chart(QPainter& painter, const QRectF& rect, const ReportChart& chart, bool dark);
// Paints a question's bars, error bars and draw strip into `rect`.
void paint_question(QPainter& painter, const QRectF& rect, const QuestionBlock& question,
                    bool dark);
// The SVG of a chart (text and axes in currentColor, so it follows the page's colour scheme).
std::string chart_svg(const ReportChart& chart, int width, int height);
std::string question_svg(const QuestionBlock& question, int width);

// Creates a QApplication on the offscreen platform when no application exists yet (the CLI);
// false when an application without widgets already exists (charts cannot be drawn then).
bool ensure_gui_application();

// "73.4%": a probability as the Studio's cards show it.
std::string percent(double p, int decimals = 1);

}  // namespace core::report
