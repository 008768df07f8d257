// Datasets through a policy (core/dataset): the CSV reader on hostile files, dgem's three JSONL
// row forms, the checks made before any row runs, and runs on a deterministic fake backend
// (output columns, failed rows reported and counted, summary, a cancelled run resumed equal to
// an uninterrupted one, the report).
#include <QTemporaryDir>
#include <QtTest>

#include <atomic>
#include <fstream>
#include <sstream>

#include "core/dataset.h"
#include "core/decide/backend.h"
#include "test_files.h"

namespace ds = core::dataset;
namespace ev = core::eval;
using nlohmann::json;

namespace {

// Probabilities from the state's text: the same row always gets the same answer.
class RowBackend final : public core::Backend {
  public:
    std::atomic<int> calls{0};
    std::string describe() const override { return "row-fake"; }
    core::Result<core::Decision> decide(const core::DecideRequest& r, const core::ProgressFn&,
                                        const core::CancelToken& cancel) override {
        calls++;
        if (cancel.cancelled()) return engine::cancelled();
        const std::string text = r.state.dump();
        core::Decision d;
        d.prompt_tokens = 100;
        d.cached_prompt_tokens = 60;
        for (const auto& q : r.schema.questions) {
            core::QuestionOutcome o;
            o.id = q.id;
            o.labels = q.labels();
            o.alternatives = q.alternatives();
            const size_t n = o.labels.size();
            // "urgent"/"outage" in the text pick the first answer strongly, else the last.
            const bool first = text.find("outage") != std::string::npos;
            o.mean.assign(n, 0.1 / static_cast<double>(n - 1));
            o.mean[first ? 0 : n - 1] = 0.9;
            o.winner = first ? 0 : static_cast<int>(n - 1);
            o.hesitation = first ? 0.2 : 0.4;
            o.agreement = 1;
            d.questions.push_back(o);
        }
        return d;
    }
    core::Result<core::Generation> generate(const core::GenerateRequest&, const core::ProgressFn&,
                                            const core::CancelToken&) override {
        return engine::bad_input("not asked");
    }
    core::Result<core::HealthInfo> health(const core::CancelToken&) override {
        return core::HealthInfo{};
    }
};

std::vector<ds::CsvRecord> read_csv(const std::string& text) {
    std::istringstream in(text);
    ds::CsvReader reader(in);
    std::vector<ds::CsvRecord> out;
    ds::CsvRecord r;
    while (reader.next(r)) out.push_back(r);
    return out;
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
        in.settings.journal_path = in.output_path + ".journal.jsonl";
        return in;
    }

  private slots:
    void initTestCase() { QVERIFY(dir_.isValid()); }

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

    // A labelled run: every row out, failures reported with row number and id, the summary
    // agreeing with the output file.
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
        auto backend = std::make_shared<RowBackend>();
        auto r = ds::run_dataset(backend, in, {}, {});
        QVERIFY2(r, r ? "" : r.error().message.c_str());
        QVERIFY(!r->cancelled);
        const ds::DatasetSummary& s = r->summary;
        QCOMPARE(s.rows, size_t(6));
        QCOMPARE(s.failed, size_t(3));
        QCOMPARE(backend->calls.load(), 3);
        QCOMPARE(s.failures[0].reason,
                 std::string("row 3 (id c): lacks the variable text (column text is empty)"));
        QCOMPARE(s.failures[1].reason, std::string("row 4 (id 4): has 2 columns, the header 4"));
        QVERIFY(s.failures[2].reason.find("row 5 (id e): expected_urgent \"perhaps\" is not an "
                                          "answer of urgent") == 0);
        // a, b right on both; f wrong on both.
        QCOMPARE(s.scored(), 6);
        QCOMPARE(s.correct(), 4);
        QCOMPARE(s.questions[0].confusion[0][0], 1);  // yes answered yes (a)
        QCOMPARE(s.questions[0].confusion[1][0], 1);  // no answered yes (f)
        QCOMPARE(s.cached_share(), 0.6);
        auto rows = read_csv(slurp(QString::fromStdString(in.output_path)));
        QCOMPARE(rows.size(), size_t(7));
        QCOMPARE(rows[0].fields, ds::output_columns(in.plan));
        QCOMPARE(rows[0].fields[0], std::string("id"));
        QCOMPARE(rows[0].fields[2], std::string("urgent"));
        QCOMPARE(rows[0].fields.back(), std::string("error"));
        QCOMPARE(rows[1].fields[2], std::string("yes"));
        QCOMPARE(rows[1].fields[3], std::string("0.9"));
        QCOMPARE(rows[1].fields[7], std::string("yes"));  // expected_urgent
        QCOMPARE(rows[1].fields[8], std::string("yes"));  // urgent_correct
        QCOMPARE(rows[6].fields[8], std::string("no"));
        QCOMPARE(rows[3].fields.back(), s.failures[0].reason);
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
        auto r = ds::run_dataset(std::make_shared<RowBackend>(), in, {}, {});
        QVERIFY2(r, r ? "" : r.error().message.c_str());
        QVERIFY(!r->summary.labelled);
        QCOMPARE(r->summary.questions[1].distribution, (std::vector<int>{2, 1}));
        std::istringstream out(slurp(QString::fromStdString(in.output_path)));
        std::string line;
        std::vector<json> rows;
        while (std::getline(out, line)) rows.push_back(json::parse(line));
        QCOMPARE(rows.size(), size_t(3));
        QCOMPARE(rows[0]["n"].get<int>(), 3);
        QCOMPARE(rows[0]["team"].get<std::string>(), std::string("billing"));
        QVERIFY(rows[1]["id"].is_null());
        QVERIFY(!rows[0].contains("urgent_correct"));
        QCOMPARE(rows[1]["error"].get<std::string>(), std::string());
    }

    // Cancelled part-way, then resumed: the output equals an uninterrupted run's, and the rows
    // the journal held are not asked again.
    void cancelAndResume() {
        std::string text = "id,text,expected_urgent\n";
        for (int i = 0; i < 40; ++i)
            text += "r" + std::to_string(i) + "," + (i % 3 ? "fine" : "outage") + "," +
                    (i % 2 ? "yes" : "no") + "\n";
        const std::string data = file("forty.csv", text);
        auto whole = input(data, "whole.csv");
        QVERIFY(ds::run_dataset(std::make_shared<RowBackend>(), whole, {}, {}));

        auto part = input(data, "part.csv");
        engine::CancelToken cancel;
        auto backend = std::make_shared<RowBackend>();
        auto stop = [&](const ev::RunProgress& p) {
            if (p.done >= 15) cancel.cancel();
        };
        auto first = ds::run_dataset(backend, part, stop, cancel);
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
        auto again = std::make_shared<RowBackend>();
        auto second = ds::run_dataset(again, part, {}, {});
        QVERIFY2(second, second ? "" : second.error().message.c_str());
        QVERIFY(!second->cancelled);
        QCOMPARE(second->resumed, size_t(lines - 1));
        QCOMPARE(again->calls.load(), 40 - (lines - 1));
        QCOMPARE(slurp(QString::fromStdString(part.output_path)),
                 slurp(QString::fromStdString(whole.output_path)));
        // A journal of other settings is refused, naming the field.
        part.settings.seed = 7;
        auto other = ds::run_dataset(std::make_shared<RowBackend>(), part, {}, {});
        QVERIFY(!other);
        QVERIFY(other.error().message.find("settings/seed") != std::string::npos);
    }
};

QTEST_MAIN(TestDataset)
#include "tst_dataset.moc"
