// Datasets through a policy (core/dataset): the CSV reader on hostile files, dgem's three JSONL
// row forms, the checks made before any row runs, and runs on the real tiny model through the
// real loader (build/models/tiny): output columns, each row's answer what deciding it alone
// gives, failed rows reported and counted and never asked, the summary agreeing with the output
// file, a cancelled run resumed byte-equal to an uninterrupted one without asking the journal's
// rows again, the report.
#include <QTemporaryDir>
#include <QtTest>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "core/dataset.h"
#include "core/decide/local_backend.h"
#include "engine/engine.h"
#include "test_files.h"

namespace ds = core::dataset;
namespace ev = core::eval;
using nlohmann::json;

namespace {

std::vector<ds::CsvRecord> read_csv(const std::string& text) {
    std::istringstream in(text);
    ds::CsvReader reader(in);
    std::vector<ds::CsvRecord> out;
    ds::CsvRecord r;
    while (reader.next(r)) out.push_back(r);
    return out;
}

int column(const std::vector<std::string>& header, const std::string& name) {
    const auto it = std::find(header.begin(), header.end(), name);
    return it == header.end() ? -1 : static_cast<int>(it - header.begin());
}

int index_of(const std::vector<std::string>& names, const std::string& name) {
    const auto it = std::find(names.begin(), names.end(), name);
    return it == names.end() ? -1 : static_cast<int>(it - names.begin());
}

// The reads the engine has run so far (its scheduler's count): what a run asked of the model.
uint64_t reads_run(core::LocalBackend& backend) {
    return backend.engine().scheduler_stats().reads;
}

// A policy with a needed variable (text, no default) and one with a default (tone).
const char* kPolicy = R"({
  "schema": {
    "questions": [
      {"id": "urgent", "type": "noul", "instructions": "Is it urgent?"},
      {"id": "team", "type": "choice", "instructions": "Which team?",
       "options": [{"name": "billing", "description": "money"},
                   {"name": "engineering", "description": "bugs"}]}
    ]
  },
  "state": {"text": "{{ .text }}", "tone": {{ default "plain" .tone | toJson }}}
}
)";

}  // namespace

class TestDataset : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    std::shared_ptr<core::LocalBackend> tiny_;  // the real tiny model, shared by the runs
    uint64_t reads_per_row_ = 0;                // the reads one decision of kPolicy takes

    std::string file(const std::string& name, const std::string& text) {
        const std::string path = dir_.filePath(QString::fromStdString(name)).toStdString();
        std::ofstream(path, std::ios::binary) << text;
        return path;
    }
    std::string policy() { return file("triage.json.tmpl", kPolicy); }

    ds::DatasetRunInput input(const std::string& data, const std::string& name) {
        auto plan = ds::plan_dataset(policy(), data, {});
        if (!plan) qFatal("%s", plan.error().message.c_str());
        ds::DatasetRunInput in{
            std::move(*plan), {}, dir_.filePath(QString::fromStdString(name)).toStdString(), {}};
        in.settings.workers = 3;
        in.settings.samples = core::Samples{false, 1};
        in.settings.journal_path = in.output_path + ".journal.jsonl";
        return in;
    }

    // The row decided alone, as the runner asks it (its schema and state, one sample, the seed
    // derived from the run's seed and the row's id).
    core::Result<core::Decision> decide_alone(const ds::DatasetRunInput& in,
                                              const ds::DataRow& row) {
        const ev::StreamedItem item = ds::row_item(in.plan, row);
        core::DecideRequest req;
        req.schema = item.item.schema;
        req.schema.samples = core::Samples{false, 1};
        req.state = item.item.state;
        req.seed = ev::item_seed(in.settings.seed, row.id);
        return tiny_->decide(req, {}, {});
    }

    // Every data row beside its output row (CSV): ids, input cells and, for a row that did not
    // fail, each question's answer and numbers equal to what deciding the row alone gives.
    void checkRowsAgainstAlone(const ds::DatasetRunInput& in,
                               const std::vector<ds::CsvRecord>& out) {
        const auto& header = out[0].fields;
        auto reader = ds::DataReader::open(in.plan.data_path);
        QVERIFY(reader);
        ds::DataRow row;
        while ((*reader)->next(row)) {
            QVERIFY(row.number < out.size());
            const auto& cells = out[row.number].fields;
            QCOMPARE(cells.size(), header.size());
            if (row.error.empty() && column(header, "id") == 0) QCOMPARE(cells[0], row.id);
            if (!cells.back().empty()) continue;  // failed: the error column says why
            auto alone = decide_alone(in, row);
            QVERIFY2(alone, alone ? "" : alone.error().message.c_str());
            for (const auto& q : in.plan.questions) {
                const core::QuestionOutcome* o = nullptr;
                for (const auto& a : alone->questions)
                    if (a.id == q.id) o = &a;
                QVERIFY(o && o->mean.size() == q.names.size());
                const auto top = std::max_element(o->mean.begin(), o->mean.end());
                const std::string& answer = cells[column(header, q.id)];
                QCOMPARE(answer, q.names[static_cast<size_t>(top - o->mean.begin())]);
                const double p = std::stod(cells[column(header, q.id + "_p")]);
                QVERIFY2(std::abs(p - *top) <= 1e-6, qPrintable(QString::number(p)));
                QVERIFY(p >= 1.0 / static_cast<double>(q.names.size()) - 1e-6 && p <= 1);
                const double h = std::stod(cells[column(header, q.id + "_hesitation")]);
                QVERIFY(std::abs(h - o->hesitation) <= 1e-6);
                QVERIFY(std::stod(cells[column(header, q.id + "_entropy")]) >= 0);
                QCOMPARE(std::stod(cells[column(header, q.id + "_agreement")]), 1.0);  // one read
                const int expected = column(header, std::string("expected_") + q.id);
                if (expected >= 0 && !cells[expected].empty())
                    QCOMPARE(cells[column(header, q.id + "_correct")],
                             std::string(cells[expected] == answer ? "yes" : "no"));
            }
        }
    }

  private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        if (!std::filesystem::exists(std::filesystem::path(DS_TINY_MODEL_DIR) / "config.json"))
            QFAIL("no tiny model at " DS_TINY_MODEL_DIR " (build the tiny_model target)");
        engine::EngineOptions options;
        options.model_dir = DS_TINY_MODEL_DIR;
        options.device = engine::Device::Cpu;
        options.threads = 2;
        auto opened = core::LocalBackend::open(options);
        QVERIFY2(opened, opened ? "" : opened.error().message.c_str());
        tiny_ = std::move(*opened);
        // What one row costs the engine, to count the rows a run asks.
        auto in = input(file("one.csv", "text\nhello\n"), "one.csv.out.csv");
        auto reader = ds::DataReader::open(in.plan.data_path);
        ds::DataRow row;
        QVERIFY(reader && (*reader)->next(row));
        const uint64_t before = reads_run(*tiny_);
        QVERIFY(decide_alone(in, row));
        reads_per_row_ = reads_run(*tiny_) - before;
        QVERIFY(reads_per_row_ > 0);
    }

    // BOM, CRLF, quoted commas, doubled quotes and line breaks, a blank line, a last record
    // without a line end.
    void csvHostile() {
        const std::string text =
            "\xEF\xBB\xBFid,text\r\n"
            "1,\"a, b\"\r\n"
            "2,\"she said \"\"no\"\"\"\r\n"
            "3,\"two\r\nlines\nand three\"\r\n"
            "\r\n"
            "4,plain";
        auto rows = read_csv(text);
        QCOMPARE(rows.size(), size_t(5));
        QCOMPARE(rows[0].fields, (std::vector<std::string>{"id", "text"}));
        QCOMPARE(rows[1].fields[1], std::string("a, b"));
        QCOMPARE(rows[2].fields[1], std::string("she said \"no\""));
        QCOMPARE(rows[3].fields[1], std::string("two\r\nlines\nand three"));
        QCOMPARE(rows[3].line, size_t(4));
        QCOMPARE(rows[4].fields, (std::vector<std::string>{"4", "plain"}));
        QCOMPARE(rows[4].line, size_t(8));
        for (const auto& r : rows) QVERIFY2(r.error.empty(), r.error.c_str());
    }

    void csvDamage() {
        auto rows = read_csv("a,b\n\"x\"y,2\n3,4\n5,\"never closed\n6,7\n");
        QCOMPARE(rows.size(), size_t(4));
        QVERIFY(rows[1].error.find("after the closing quote") != std::string::npos);
        QCOMPARE(rows[2].fields, (std::vector<std::string>{"3", "4"}));  // the reader went on
        QVERIFY(rows[3].error.find("opened on line 4 is never closed") != std::string::npos);
    }

    void csvBigFieldAndRoundTrip() {
        const std::string big(1 << 20, 'x');
        const std::vector<std::string> fields = {"a,b", "q\"q", "line\r\nbreak", big, " pad", ""};
        auto rows = read_csv(ds::csv_line(fields) + ds::csv_line({"1", "2", "3", "4", "5", "6"}));
        QCOMPARE(rows.size(), size_t(2));
        QCOMPARE(rows[0].fields, fields);
        QCOMPARE(rows[0].fields[3].size(), size_t(1 << 20));
        QCOMPARE(rows[1].line, size_t(3));
        // A field over the reader's bound is damage reported, not memory taken.
        std::istringstream in("a\n" + big + "\n");
        ds::CsvReader small(in, 1000);
        ds::CsvRecord r;
        QVERIFY(small.next(r) && small.next(r));
        QVERIFY(r.error.find("over 1000 bytes") != std::string::npos);
    }

    // Ragged rows keep their row number and id and do not stop the reader.
    void csvRaggedRows() {
        auto reader = ds::DataReader::open(
            file("ragged.csv", "id,text,expected_urgent\nA,hi,yes\nB,too,many,cells\nC,ok,no\n"));
        QVERIFY(reader);
        ds::DataRow row;
        QVERIFY((*reader)->next(row));
        QCOMPARE(row.id, std::string("A"));
        QCOMPARE(row.expected.at("urgent"), std::string("yes"));
        QCOMPARE(row.columns.size(), size_t(2));  // id, text: expected_ columns are not inputs
        QVERIFY((*reader)->next(row));
        QCOMPARE(row.number, size_t(2));
        QCOMPARE(row.id, std::string("2"));  // the row number: its cells cannot be trusted
        QCOMPARE(row.error, std::string("has 4 columns, the header 3"));
        QVERIFY((*reader)->next(row));
        QCOMPARE(row.id, std::string("C"));
        QVERIFY(!(*reader)->next(row));
    }

    // dgem's three row forms, ids kept or numbered, a bad line reported.
    void jsonlForms() {
        const std::string path =
            file("forms.jsonl",
                 "{\"id\": \"t1\", \"text\": \"top\", \"expected_urgent\": true}\n"
                 "\n"
                 "{\"variables\": {\"text\": \"nested\"}, \"expected\": "
                 "{\"team\": \"billing\"}}\r\n"
                 "{\"id\": 7, \"text\": \"plain\"}\n"
                 "[1, 2]\n"
                 "{not json\n");
        auto reader = ds::DataReader::open(path);
        QVERIFY(reader);
        ds::DataRow row;
        QVERIFY((*reader)->next(row));
        QCOMPARE(row.id, std::string("t1"));
        QCOMPARE(row.variables.at("text").get<std::string>(), std::string("top"));
        QCOMPARE(row.expected.at("urgent"), std::string("yes"));
        QVERIFY(!row.variables.contains("expected_urgent"));
        QVERIFY((*reader)->next(row));
        QCOMPARE(row.id, std::string("2"));
        QCOMPARE(row.line, size_t(3));
        QCOMPARE(row.variables.at("text").get<std::string>(), std::string("nested"));
        QCOMPARE(row.expected.at("team"), std::string("billing"));
        QVERIFY((*reader)->next(row));
        QCOMPARE(row.id, std::string("7"));
        QVERIFY(row.expected.empty());
        QVERIFY((*reader)->next(row));
        QVERIFY(row.error.find("a JSON array") != std::string::npos);
        QVERIFY((*reader)->next(row));
        QCOMPARE(row.error, std::string("not JSON"));
        QCOMPARE(row.number, size_t(5));
        QVERIFY(!(*reader)->next(row));
        auto shape = ds::scan_data(path);
        QVERIFY(shape);
        QCOMPARE(shape->rows, size_t(5));
        QCOMPARE(shape->bad_rows, size_t(2));
        QCOMPARE(shape->columns, (std::vector<std::string>{"id", "text"}));
        QCOMPARE(shape->labelled_questions, (std::vector<std::string>{"team", "urgent"}));
    }

    // What stops a run before any row: each message names the thing.
    void checksBeforeRows() {
        const std::string pol = policy();
        const std::string good = file("good.csv", "id,body\n1,hello\n");
        auto expect_error = [&](const std::string& p, const std::string& data,
                                std::map<std::string, std::string> map, const std::string& want) {
            auto plan = ds::plan_dataset(p, data, map);
            QVERIFY2(!plan, want.c_str());
            QVERIFY2(plan.error().message.find(want) != std::string::npos,
                     plan.error().message.c_str());
        };
        expect_error(pol, good, {{"text", "nobody"}}, "has no column \"nobody\"");
        expect_error(pol, good, {{"txt", "body"}}, "reads no variable \"txt\"");
        expect_error(pol, good, {}, "no column supplies the variable \"text\"");
        expect_error(pol, file("empty.csv", ""), {}, "empty");
        expect_error(pol, file("header.csv", "text\n"), {}, "no data rows");
        expect_error(pol, file("blank.jsonl", "\n\n"), {}, "no data rows");
        expect_error(pol, file("notes.txt", "text\nx\n"), {}, "not a dataset file");
        expect_error(pol, dir_.filePath("absent.csv").toStdString(), {}, "no such dataset file");
        expect_error(dir_.filePath("absent.json.tmpl").toStdString(), good, {}, "absent.json.tmpl");
        expect_error(pol, file("lab.csv", "text,expected_colour\nx,red\n"), {},
                     "has no question \"colour\"");
        auto mapped = ds::plan_dataset(pol, good, {{"text", "body"}});
        QVERIFY2(mapped, mapped ? "" : mapped.error().message.c_str());
        QCOMPARE(mapped->sources.at("text"), std::string("body"));
        QCOMPARE(mapped->needed, std::vector<std::string>{"text"});
        QCOMPARE(mapped->defaulted, std::vector<std::string>{"tone"});
        QCOMPARE(mapped->questions.size(), size_t(2));
        QVERIFY(!ds::parse_column_map("novalue"));
    }

    // A labelled run: every row out, failures reported with row number and id and never asked,
    // each answered row what deciding it alone gives, the summary agreeing with the output file.
    void labelledRun() {
        const std::string data = file("labelled.csv",
                                      "id,text,expected_urgent,expected_team\n"
                                      "a,\"outage, all down\",yes,billing\n"
                                      "b,a question,no,engineering\n"
                                      "c,,yes,billing\n"                  // needed variable empty
                                      "d,ragged\n"                        // wrong column count
                                      "e,outage again,perhaps,billing\n"  // not an answer
                                      "f,outage,no,engineering\n");
        auto in = input(data, "labelled.out.csv");
        const uint64_t before = reads_run(*tiny_);
        auto r = ds::run_dataset(tiny_, in, {}, {});
        QVERIFY2(r, r ? "" : r.error().message.c_str());
        QVERIFY(!r->cancelled);
        const ds::DatasetSummary& s = r->summary;
        QCOMPARE(s.rows, size_t(6));
        QCOMPARE(s.failed, size_t(3));
        QCOMPARE(reads_run(*tiny_) - before, 3 * reads_per_row_);  // a, b and f only
        QCOMPARE(s.failures[0].reason,
                 std::string("row 3 (id c): lacks the variable text (column text is empty)"));
        QCOMPARE(s.failures[1].reason, std::string("row 4 (id 4): has 2 columns, the header 4"));
        QVERIFY(s.failures[2].reason.find("row 5 (id e): expected_urgent \"perhaps\" is not an "
                                          "answer of urgent") == 0);
        QCOMPARE(s.scored(), 6);  // a, b and f on both questions
        QVERIFY(s.prompt_tokens > 0);
        QVERIFY(s.cached_prompt_tokens >= 0 && s.cached_prompt_tokens <= s.prompt_tokens);
        auto rows = read_csv(slurp(QString::fromStdString(in.output_path)));
        QCOMPARE(rows.size(), size_t(7));
        const auto& header = rows[0].fields;
        QCOMPARE(header, ds::output_columns(in.plan));
        QCOMPARE(header, (std::vector<std::string>{
                             "id", "text", "urgent", "urgent_p", "urgent_entropy",
                             "urgent_hesitation", "urgent_agreement", "expected_urgent",
                             "urgent_correct", "team", "team_p", "team_entropy", "team_hesitation",
                             "team_agreement", "expected_team", "team_correct", "error"}));
        QCOMPARE(rows[1].fields[1], std::string("outage, all down"));
        QCOMPARE(rows[1].fields[7], std::string("yes"));  // expected_urgent
        QCOMPARE(rows[3].fields.back(), s.failures[0].reason);
        QCOMPARE(rows[3].fields[2], std::string());  // a failed row has no answer
        checkRowsAgainstAlone(in, rows);
        // The summary counts exactly what the output file holds.
        int correct = 0;
        for (size_t qi = 0; qi < s.questions.size(); ++qi) {
            const auto& t = s.questions[qi];
            std::vector<std::vector<int>> confusion(t.names.size(),
                                                    std::vector<int>(t.names.size(), 0));
            std::vector<int> distribution(t.names.size(), 0);
            for (size_t i = 1; i < rows.size(); ++i) {
                const auto& c = rows[i].fields;
                const int answer = index_of(t.names, c[column(header, t.id)]);
                if (answer < 0) continue;
                distribution[static_cast<size_t>(answer)]++;
                const int want = index_of(t.names, c[column(header, "expected_" + t.id)]);
                confusion[static_cast<size_t>(want)][static_cast<size_t>(answer)]++;
                correct += want == answer;
            }
            QCOMPARE(t.confusion, confusion);
            QCOMPARE(t.distribution, distribution);
            QCOMPARE(t.scored, 3);
        }
        QCOMPARE(s.correct(), correct);
        // The report: accuracy, a confusion matrix per question, reliability, uncertain rows.
        ds::DatasetReportInput rin{&in.plan, &s, r->header, r->wall_s, {}};
        const std::string html = core::report::to_html(ds::dataset_report(rin));
        for (const char* want : {"Accuracy per question", "Confusion: urgent", "Confusion: team",
                                 "Reliability: team", "Most uncertain answers", "Failed rows (3)"})
            QVERIFY2(html.find(want) != std::string::npos, want);
    }

    // Unlabelled JSONL: the answers' distribution, JSONL output keeping input values.
    void unlabelledRun() {
        const std::string data = file("plain.jsonl",
                                      "{\"id\": \"x\", \"text\": \"outage\", \"n\": 3}\n"
                                      "{\"variables\": {\"text\": \"hello\"}}\n"
                                      "{\"text\": \"outage two\"}\n");
        auto in = input(data, "plain.out.jsonl");
        auto r = ds::run_dataset(tiny_, in, {}, {});
        QVERIFY2(r, r ? "" : r.error().message.c_str());
        QVERIFY(!r->summary.labelled);
        QCOMPARE(r->summary.failed, size_t(0));
        std::istringstream out(slurp(QString::fromStdString(in.output_path)));
        std::string line;
        std::vector<json> rows;
        while (std::getline(out, line)) rows.push_back(json::parse(line));
        QCOMPARE(rows.size(), size_t(3));
        QCOMPARE(rows[0]["id"].get<std::string>(), std::string("x"));
        QCOMPARE(rows[0]["n"].get<int>(), 3);  // input values keep their JSON type
        QVERIFY(rows[1]["id"].is_null());
        QCOMPARE(rows[1]["text"].get<std::string>(), std::string("hello"));
        QVERIFY(!rows[0].contains("urgent_correct"));
        QVERIFY(!rows[0].contains("expected_urgent"));
        for (size_t qi = 0; qi < in.plan.questions.size(); ++qi) {
            const auto& q = in.plan.questions[qi];
            std::vector<int> distribution(q.names.size(), 0);
            for (const auto& row : rows) {
                QCOMPARE(row["error"].get<std::string>(), std::string());
                const int answer = index_of(q.names, row[q.id].get<std::string>());
                QVERIFY(answer >= 0);
                distribution[static_cast<size_t>(answer)]++;
                QVERIFY(row[q.id + "_p"].is_number());  // numbers stay numbers in JSONL
                QCOMPARE(row[q.id + "_agreement"].get<double>(), 1.0);
            }
            QCOMPARE(r->summary.questions[qi].distribution, distribution);
            QCOMPARE(r->summary.questions[qi].answered, 3);
        }
    }

    // A question with an unmet ask_if is not asked: the row still succeeds, that question's
    // cells stay empty, and the summary counts only the rows that asked it.
    void askIfSkippedQuestion() {
        const std::string policy = file("ask_if.json.tmpl", R"({
  "schema": {
    "questions": [
      {"id": "team", "type": "choice", "instructions": "Which team?",
       "options": [{"name": "billing", "description": "money"},
                   {"name": "engineering", "description": "bugs"}]},
      {"id": "refund", "type": "noul", "instructions": "Is a refund due?",
       "ask_if": {"team": ["billing"]}}
    ]
  },
  "state": {"text": "{{ .text }}"}
}
)");
        std::string csv = "text,expected_team\n";
        for (int i = 0; i < 8; ++i)
            csv += "ticket number " + std::to_string(i) + (i % 2 ? ",billing\n" : ",engineering\n");
        auto plan = ds::plan_dataset(policy, file("ask_if.csv", csv), {});
        QVERIFY2(plan, plan ? "" : plan.error().message.c_str());
        ds::DatasetRunInput in{
            std::move(*plan), {}, dir_.filePath("ask_if.out.csv").toStdString(), {}};
        in.settings.workers = 3;
        in.settings.samples = core::Samples{false, 1};
        in.settings.journal_path = in.output_path + ".journal.jsonl";
        auto r = ds::run_dataset(tiny_, in, {}, {});
        QVERIFY2(r, r ? "" : r.error().message.c_str());
        QCOMPARE(r->summary.failed, size_t(0));
        QCOMPARE(r->summary.ok, size_t(8));
        const auto out = read_csv(slurp(QString::fromStdString(in.output_path)));
        QCOMPARE(out.size(), size_t(9));
        const auto& header = out[0].fields;
        int billing = 0;
        for (size_t i = 1; i < out.size(); ++i) {
            const auto& cells = out[i].fields;
            QCOMPARE(cells[column(header, "error")], std::string());
            const std::string team = cells[column(header, "team")];
            QVERIFY(team == "billing" || team == "engineering");
            const bool asked = team == "billing";
            billing += asked;
            QCOMPARE(!cells[column(header, "refund")].empty(), asked);
            QCOMPARE(!cells[column(header, "refund_p")].empty(), asked);
        }
        QCOMPARE(r->summary.questions[0].answered, 8);
        QCOMPARE(r->summary.questions[1].answered, billing);
    }

    // Cancelled part-way, then resumed: the output equals an uninterrupted run's byte for byte,
    // and the rows the journal held are not asked again.
    void cancelAndResume() {
        std::string text = "id,text,expected_urgent\n";
        for (int i = 0; i < 40; ++i)
            text += "r" + std::to_string(i) + "," + (i % 3 ? "fine" : "outage") + " " +
                    std::to_string(i) + "," + (i % 2 ? "yes" : "no") + "\n";
        const std::string data = file("forty.csv", text);
        auto whole = input(data, "whole.csv");
        const uint64_t before = reads_run(*tiny_);
        auto uninterrupted = ds::run_dataset(tiny_, whole, {}, {});
        QVERIFY2(uninterrupted, uninterrupted ? "" : uninterrupted.error().message.c_str());
        QCOMPARE(reads_run(*tiny_) - before, 40 * reads_per_row_);
        QCOMPARE(uninterrupted->summary.failed, size_t(0));

        auto part = input(data, "part.csv");
        engine::CancelToken cancel;
        auto stop = [&](const ev::RunProgress& p) {
            if (p.done >= 15) cancel.cancel();
        };
        auto first = ds::run_dataset(tiny_, part, stop, cancel);
        QVERIFY(first);
        QVERIFY(first->cancelled);
        QVERIFY(!QFile::exists(QString::fromStdString(part.output_path)));
        std::ifstream j(part.settings.journal_path);
        int lines = 0;
        for (std::string l; std::getline(j, l);) ++lines;
        // 15 rows finished, some perhaps behind an earlier row still in flight (not journaled).
        QVERIFY2(lines >= 1 && lines - 1 < 40, qPrintable(QString::number(lines)));
        // A kill mid-line: half a record at the end.
        std::ofstream(part.settings.journal_path, std::ios::app) << "{\"id\": \"r9";
        part.settings.resume = true;
        const uint64_t resumed_from = reads_run(*tiny_);
        auto second = ds::run_dataset(tiny_, part, {}, {});
        QVERIFY2(second, second ? "" : second.error().message.c_str());
        QVERIFY(!second->cancelled);
        QCOMPARE(second->resumed, size_t(lines - 1));
        QCOMPARE(reads_run(*tiny_) - resumed_from, uint64_t(40 - (lines - 1)) * reads_per_row_);
        QCOMPARE(slurp(QString::fromStdString(part.output_path)),
                 slurp(QString::fromStdString(whole.output_path)));
        checkRowsAgainstAlone(whole, read_csv(slurp(QString::fromStdString(whole.output_path))));
        // A journal of other settings is refused, naming the field, before any row is asked.
        part.settings.seed = 7;
        const uint64_t refused_from = reads_run(*tiny_);
        auto other = ds::run_dataset(tiny_, part, {}, {});
        QVERIFY(!other);
        QVERIFY(other.error().message.find("settings/seed") != std::string::npos);
        QCOMPARE(reads_run(*tiny_), refused_from);
    }
};

QTEST_MAIN(TestDataset)
#include "tst_dataset.moc"
