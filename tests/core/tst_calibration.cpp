// Issue 39: the policy "temperature" key (one T or one per question type) against the
// --temperature flag, bit for bit, locally and through a real `dgem serve`; the k-fold
// temperature fit recovering a known miscalibration (and dgem calibrate --write); the stage-2
// cascade against a real `dgem serve` as the judge (none escalated at a high threshold, all at
// 0, exactly those at or above a middle one); the escalation curve and its suggestion.
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <random>

#include <nlohmann/json.hpp>

#include "core/decide/cascade.h"
#include "core/evaluation/calibration.h"
#include "core/evaluation/calibration_input.h"
#include "core/evaluation/calibration_run.h"
#include "core/policy/policy_source_edit.h"
#include "core/policy/schema.h"
#include "test_files.h"

using json = nlohmann::json;
using ojson = nlohmann::ordered_json;

namespace {

const char* kSchema = R"({"instructions": "Triage a ticket.", "samples": 2, "questions": [
 {"id": "refund", "type": "noul", "instructions": "Does the customer want a refund?"},
 {"id": "team", "type": "choice", "instructions": "Which team?",
  "options": {"billing": "money", "support": "how-to", "sales": "buying"}},
 {"id": "urgency", "type": "score", "instructions": "How urgent?",
  "levels": ["low", "medium", "high"]},
 {"id": "angry", "type": "noul", "instructions": "Is the customer angry?"},
 {"id": "channel", "type": "choice", "instructions": "Which channel?",
  "options": {"email": "mail", "phone": "call", "chat": "web chat", "letter": "post"}}]})";
const char* kState = R"({"ticket": "I was charged twice this month, please refund me now"})";

double entropy(const json& probabilities) {
    double h = 0;
    for (const auto& [name, p] : probabilities.items())
        if (p.get<double>() > 0) h -= p.get<double>() * std::log(p.get<double>());
    return h;
}

// A real `dgem serve` on a free loopback port, stopped with SIGTERM when it goes out of scope.
class Serve {
  public:
    Serve() {
        p_.start(QStringLiteral(DS_BIN_DIR "/dgem"),
                 {"serve", "--model", DS_TINY_MODEL_DIR, "--device", "cpu", "--port", "0"});
        p_.waitForStarted();
        QString seen;
        for (int i = 0; i < 1200 && port_.isEmpty(); ++i) {
            p_.waitForReadyRead(100);
            seen += QString::fromUtf8(p_.readAllStandardOutput());
            auto m = QRegularExpression("listening on http://[^:]+:(\\d+)").match(seen);
            if (m.hasMatch()) port_ = m.captured(1);
        }
    }
    ~Serve() {
        p_.terminate();
        if (!p_.waitForFinished(30000)) p_.kill();
    }
    bool up() const { return !port_.isEmpty(); }
    QString url() const { return "http://127.0.0.1:" + port_ + "/v1"; }

  private:
    QProcess p_;
    QString port_;
};

core::eval::CalibrationItem synthetic_item(std::mt19937_64& rng, core::QuestionType type, int k,
                                           double miscalibration) {
    // True logits; the label drawn from their softmax; the reported probabilities are the
    // softmax of the logits times `miscalibration` (> 1 overconfident): T = miscalibration
    // undoes it exactly.
    std::normal_distribution<double> logit(0, 1.5);
    std::vector<double> z(static_cast<size_t>(k));
    for (auto& v : z) v = logit(rng);
    auto softmax = [](std::vector<double> v) {
        double hi = *std::max_element(v.begin(), v.end()), s = 0;
        for (auto& x : v) s += (x = std::exp(x - hi));
        for (auto& x : v) x /= s;
        return v;
    };
    const auto truth = softmax(z);
    std::discrete_distribution<int> draw(truth.begin(), truth.end());
    core::eval::CalibrationItem item;
    item.type = type;
    item.expected = draw(rng);
    for (auto& v : z) v *= miscalibration;
    item.probs = softmax(z);
    return item;
}

}  // namespace

class TestCalibration : public QObject {
    Q_OBJECT
    QTemporaryDir home_;

    Run dgem(const QStringList& args, const QMap<QString, QString>& env = {}) {
        QProcess p;
        QProcessEnvironment e = QProcessEnvironment::systemEnvironment();
        for (const QString& k : e.keys())
            if (k.startsWith("DGEM_")) e.remove(k);
        e.insert("HOME", home_.path());
        e.insert("XDG_CONFIG_HOME", home_.filePath("config"));
        for (auto it = env.begin(); it != env.end(); ++it) e.insert(it.key(), it.value());
        p.setProcessEnvironment(e);
        p.setWorkingDirectory(home_.path());
        p.start(QStringLiteral(DS_BIN_DIR "/dgem"), args);
        p.closeWriteChannel();
        if (!p.waitForFinished(900000)) p.kill();
        return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1,
                QString::fromUtf8(p.readAllStandardOutput()),
                QString::fromUtf8(p.readAllStandardError())};
    }
    QStringList local() const {
        return {"--local", "--model", DS_TINY_MODEL_DIR, "--device", "cpu"};
    }
    QString writeSchema(const QString& name, const json& extra) {
        json s = json::parse(kSchema);
        for (const auto& [k, v] : extra.items()) s[k] = v;
        const QString path = home_.filePath(name);
        QFile f(path);
        if (f.open(QIODevice::WriteOnly | QIODevice::Truncate))
            f.write(QByteArray::fromStdString(s.dump(1)));
        return path;
    }
    json decide(const QStringList& where, const QString& schema, const QStringList& more = {}) {
        const Run r = dgem(QStringList{"decide"} + where +
                           QStringList{"--schema", schema, "--state", kState, "-f", "json"} + more);
        if (r.code != 0) qWarning("%s", qPrintable(r.err));
        return r.code == 0 ? json::parse(r.out.toStdString()) : json();
    }

  private slots:
    void schemaKeys() {
        auto parse = [](const char* extra) {
            json s = json::parse(kSchema);
            const json more = json::parse(extra);
            for (const auto& [k, v] : more.items()) s[k] = v;
            return core::parse_schema(s, "policy.json");
        };
        auto one = parse(R"({"temperature": 1.5})");
        QVERIFY(one.ok());
        QCOMPARE(one->temperature.for_type(core::QuestionType::Score), 1.5);
        auto text = parse(R"({"temperature": "2.5"})");  // a template variable's string
        QVERIFY(text.ok());
        QCOMPARE(*text->temperature.all, 2.5);
        auto map = parse(R"({"temperature": {"noul": 2, "score": 0.5}})");
        QVERIFY(map.ok());
        QCOMPARE(map->temperature.for_type(core::QuestionType::Noul), 2.0);
        QCOMPARE(map->temperature.for_type(core::QuestionType::Choice), 1.0);
        QCOMPARE(map->temperature.for_type(core::QuestionType::Score), 0.5);
        // The wire form reads back the same.
        auto again = core::parse_schema(core::schema_to_json(*map), "wire");
        QVERIFY(again.ok());
        QVERIFY(again->temperature == map->temperature);
        // Per question (issue 39): a question's own T, then its type's, then 1.
        auto perq =
            parse(R"({"temperature": {"noul": 2, "questions": {"team": 3, "angry": 0.5}}})");
        QVERIFY2(perq.ok(), perq ? "" : perq.error().message.c_str());
        QCOMPARE(perq->temperature.for_question("team", core::QuestionType::Choice), 3.0);
        QCOMPARE(perq->temperature.for_question("channel", core::QuestionType::Choice), 1.0);
        QCOMPARE(perq->temperature.for_question("angry", core::QuestionType::Noul), 0.5);
        QCOMPARE(perq->temperature.for_question("refund", core::QuestionType::Noul), 2.0);
        auto perq_again = core::parse_schema(core::schema_to_json(*perq), "wire");
        QVERIFY(perq_again.ok() && perq_again->temperature == perq->temperature);
        auto unknown = parse(R"({"temperature": {"questions": {"tema": 2}}})");
        QVERIFY(!unknown.ok());
        QVERIFY2(unknown.error().message.find("temperature.questions names the unknown question "
                                              "\"tema\"") != std::string::npos &&
                     unknown.error().message.find("team") != std::string::npos,
                 unknown.error().message.c_str());
        auto cascade = parse(
            R"({"cascade_mode": "entropy", "cascade_threshold": 0.4, "cascade_endpoint": "x"})");
        QVERIFY(cascade.ok());
        QCOMPARE(cascade->cascade.mode, core::CascadeMode::Entropy);
        QCOMPARE(cascade->cascade.threshold, 0.4);
        QVERIFY(core::parse_schema(core::schema_to_json(*cascade), "wire")->cascade ==
                cascade->cascade);
        const std::vector<std::pair<const char*, const char*>> bad = {
            {R"({"temperature": 0})", "temperature 0"},
            {R"({"temperature": -1})", "temperature -1"},
            {R"({"temperature": "warm"})", "temperature \"warm\""},
            {R"({"temperature": true})", "temperature true"},
            {R"({"temperature": {"yesno": 2}})", "unknown question type \"yesno\""},
            {R"({"temperature": {"noul": 0}})", "temperature.noul 0"},
            {R"({"temperature": {"questions": {"team": 0}}})", "temperature.questions.team 0"},
            {R"({"temperature": {"questions": 2}})", "temperature.questions 2"},
            {R"({"temperature": {"questions": {"team": "hot"}}})",
             "temperature.questions.team \"hot\""},
            {R"({"cascade_threshold": -0.1})", "cascade_threshold -0.1"},
            {R"({"cascade_mode": "always"})", "cascade_mode \"always\""},
        };
        for (const auto& [extra, named] : bad) {
            auto r = parse(extra);
            QVERIFY2(!r.ok(), extra);
            QVERIFY2(r.error().message.find(named) != std::string::npos &&
                         r.error().message.find("accepted") != std::string::npos,
                     r.error().message.c_str());
        }
    }

    // The key and the flag go through the same code: equal answers and diagnostics, bit for
    // bit, here and through dgem serve (chat and /v1/systemone); per type the same as the flag
    // at that type's T.
    void keyEqualsFlag() {
        const QString plain = writeSchema("plain.json", json::object());
        const QString keyed = writeSchema("keyed.json", {{"temperature", 2}});
        const json key = decide(local(), keyed);
        const json flag = decide(local(), plain, {"--temperature", "2"});
        const json none = decide(local(), plain);
        QVERIFY(!key.is_null() && !flag.is_null() && !none.is_null());
        QVERIFY(key["answers"] == flag["answers"]);
        QVERIFY(key["diagnostics"]["questions"] == flag["diagnostics"]["questions"]);
        QCOMPARE(key["diagnostics"]["temperature"].get<double>(), 2.0);
        QVERIFY(key["answers"] != none["answers"]);  // it did something
        // The flag overrides the key.
        const json over = decide(local(), keyed, {"--temperature", "0.5"});
        QVERIFY(over["answers"] == decide(local(), plain, {"--temperature", "0.5"})["answers"]);

        // Per type: each question as the flag at its type's T.
        const QString typed = writeSchema(
            "typed.json", {{"temperature", {{"noul", 2}, {"choice", 0.5}, {"score", 3}}}});
        const json map = decide(local(), typed);
        QVERIFY(!map.is_null());
        const std::map<std::string, QString> t_of = {
            {"refund", "2"}, {"angry", "2"}, {"team", "0.5"}, {"channel", "0.5"}, {"urgency", "3"}};
        std::map<QString, json> flag_at;
        for (const auto& [id, t] : t_of) {
            if (!flag_at.count(t)) flag_at[t] = decide(local(), plain, {"--temperature", t});
            QVERIFY2(map["answers"][id] == flag_at[t]["answers"][id], id.c_str());
        }
        QCOMPARE(map["diagnostics"]["temperature"]["choice"].get<double>(), 0.5);
        // Per question: a question's own T before its type's; the others as before.
        const QString questioned = writeSchema(
            "questioned.json", {{"temperature", {{"choice", 0.5}, {"questions", {{"team", 3}}}}}});
        const json perq = decide(local(), questioned);
        QVERIFY(!perq.is_null());
        QVERIFY(perq["answers"]["team"] == flag_at["3"]["answers"]["team"]);
        QVERIFY(perq["answers"]["channel"] == flag_at["0.5"]["answers"]["channel"]);
        QVERIFY(perq["answers"]["refund"] == none["answers"]["refund"]);
        QCOMPARE(perq["diagnostics"]["temperature"]["questions"]["team"].get<double>(), 3.0);

        Serve serve;
        QVERIFY(serve.up());
        // The chat form carries every answer field: equal to the local flag's, bit for bit.
        const QStringList chat{"-u", serve.url(), "--protocol", "chat"};
        const json served = decide(chat, keyed);
        QVERIFY(served["answers"] == flag["answers"]);
        QCOMPARE(served["diagnostics"]["temperature"].get<double>(), 2.0);
        QVERIFY(decide(chat, plain, {"--temperature", "2"})["answers"] == flag["answers"]);
        QVERIFY(decide(chat, typed)["answers"] == map["answers"]);
        QVERIFY(decide(chat, questioned)["answers"] == perq["answers"]);
        // /v1/systemone's form keeps no error bars and sends a yes/no question's p(yes) (the
        // client takes 1 - p for no): key and flag are equal bit for bit through it, and equal
        // the local answers' probabilities to the last bits.
        const QStringList jev{"-u", serve.url(), "--protocol", "systemone"};
        const json jevKey = decide(jev, keyed);
        QVERIFY(jevKey["answers"] == decide(jev, plain, {"--temperature", "2"})["answers"]);
        QCOMPARE(jevKey["diagnostics"]["temperature"].get<double>(), 2.0);
        for (const auto& [id, a] : flag["answers"].items())
            for (const auto& [name, p] : a["probabilities"].items())
                QVERIFY(std::abs(p.get<double>() -
                                 jevKey["answers"][id]["probabilities"][name].get<double>()) <
                        1e-12);
        QVERIFY(decide(jev, typed)["diagnostics"]["temperature"] ==
                map["diagnostics"]["temperature"]);
    }

    // A synthetic run whose probabilities are a known temperature off: the k-fold fit finds it
    // within 10% per type, ECE and NLL fall on the held-out folds, and a range that excludes it
    // says the fit hit its edge.
    void kfoldRecoversTemperature() {
        std::mt19937_64 rng(39);
        std::vector<core::eval::CalibrationItem> items;
        for (int i = 0; i < 3000; ++i)
            items.push_back(synthetic_item(rng, core::QuestionType::Choice, 4, 2.5));
        for (int i = 0; i < 3000; ++i)
            items.push_back(synthetic_item(rng, core::QuestionType::Noul, 2, 0.6));
        for (int i = 0; i < 3000; ++i)
            items.push_back(synthetic_item(rng, core::QuestionType::Score, 5, 1.8));
        auto report = core::eval::fit_calibration(items, {});
        QVERIFY(report.ok());
        QCOMPARE(report->types.size(), size_t(3));
        const std::map<core::QuestionType, double> truth = {{core::QuestionType::Choice, 2.5},
                                                            {core::QuestionType::Noul, 0.6},
                                                            {core::QuestionType::Score, 1.8}};
        for (const auto& fit : report->types) {
            const double want = truth.at(fit.type);
            QVERIFY2(std::abs(fit.temperature / want - 1) < 0.10,
                     qPrintable(QString("%1: T %2, want %3")
                                    .arg(QString::fromStdString(std::string(to_string(fit.type))))
                                    .arg(fit.temperature)
                                    .arg(want)));
            QCOMPARE(fit.fold_temperatures.size(), size_t(5));
            QVERIFY(!fit.at_edge);
            QVERIFY(fit.after.nll < fit.before.nll);
            QVERIFY(fit.after.ece.ece < fit.before.ece.ece);
            QCOMPARE(fit.before.n, 3000);
        }
        QVERIFY(report->after.ece.ece < report->before.ece.ece);
        core::eval::CalibrationOptions narrow;
        narrow.t_min = 0.8;
        narrow.t_max = 1.5;
        auto edge = core::eval::fit_calibration(items, narrow);
        QVERIFY(edge.ok());
        for (const auto& fit : edge->types) QVERIFY(fit.at_edge && !fit.note.empty());
        // Per question: two questions of one type, each a different T off, found apart; a
        // per-type fit lumps them into one T between the two.
        std::vector<core::eval::CalibrationItem> two;
        for (int i = 0; i < 4000; ++i) {
            auto c = synthetic_item(rng, core::QuestionType::Choice, 4, i % 2 ? 2.5 : 0.7);
            c.question = i % 2 ? "a" : "b";
            two.push_back(std::move(c));
        }
        core::eval::CalibrationOptions per_question;
        per_question.per = core::eval::FitPer::Question;
        auto apart = core::eval::fit_calibration(two, per_question);
        QVERIFY(apart.ok());
        QCOMPARE(apart->types.size(), size_t(2));
        QCOMPARE(apart->types[0].question, std::string("b"));
        QVERIFY(apart->temperature.by_type.empty());
        const double ta = apart->temperature.by_question.at("a");
        const double tb = apart->temperature.by_question.at("b");
        QVERIFY2(std::abs(ta / 2.5 - 1) < 0.10, qPrintable(QString::number(ta)));
        QVERIFY2(std::abs(tb / 0.7 - 1) < 0.10, qPrintable(QString::number(tb)));
        auto lumped = core::eval::fit_calibration(two, {});
        QVERIFY(lumped.ok() && lumped->types.size() == 1);
        QVERIFY(apart->after.nll < lumped->after.nll);
        // Written per question: the policy's other T stay, its questions' own are set.
        core::PolicyTemperature current;
        current.by_type[core::QuestionType::Noul] = 2;
        auto written = core::eval::temperature_to_write(current, *apart);
        QVERIFY(written.ok());
        QCOMPARE(written->for_question("a", core::QuestionType::Choice), ta);
        QCOMPARE(written->for_type(core::QuestionType::Noul), 2.0);
        // Too few questions of a type: T stays 1 and the note says why.
        std::vector<core::eval::CalibrationItem> few(items.begin(), items.begin() + 6);
        auto small = core::eval::fit_calibration(few, {});
        QVERIFY(small.ok() && !small->types[0].fitted);
        QVERIFY(small->temperature.by_type.empty());
    }

    // dgem calibrate on calibration JSONL: the fit printed, --write puts it into the policy
    // (the rest byte for byte) and the policy then decides with it; a policy whose temperature
    // is written with template actions is refused and left as it was.
    void calibrateCommand() {
        std::mt19937_64 rng(7);
        const QString run = home_.filePath("run.jsonl");
        {
            QFile f(run);
            QVERIFY(f.open(QIODevice::WriteOnly));
            const std::vector<std::string> team = {"billing", "support", "sales"};
            for (int i = 0; i < 1500; ++i) {
                auto c = synthetic_item(rng, core::QuestionType::Choice, 3, 3.0);
                json probs = json::object();
                for (size_t k = 0; k < 3; ++k) probs[team[k]] = c.probs[k];
                f.write(QByteArray::fromStdString(
                    json{{"item", std::to_string(i)},
                         {"question", "team"},
                         {"probs", probs},
                         {"expected", team[static_cast<size_t>(c.expected)]}}
                        .dump() +
                    "\n"));
            }
        }
        const QString policy = home_.filePath("triage.json.tmpl");
        const std::string original = "{\n  \"schema\": " + json::parse(kSchema).dump() +
                                     ",\n  \"state\": " + kState + "\n}\n";
        {
            QFile f(policy);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(QByteArray::fromStdString(original));
        }
        const Run shown = dgem({"calibrate", run, "-t", policy, "--json"});
        QVERIFY2(shown.code == 0, qPrintable(shown.err));
        const json doc = json::parse(shown.out.toStdString());
        QCOMPARE(doc["types"][0]["type"].get<std::string>(), std::string("choice"));
        const double t = doc["types"][0]["temperature"].get<double>();
        QVERIFY2(std::abs(t / 3.0 - 1) < 0.10, qPrintable(QString::number(t)));
        QVERIFY(doc["after"]["ece"].get<double>() < doc["before"]["ece"].get<double>());
        QVERIFY(doc["escalation_curve"].size() > 2);
        QCOMPARE(slurp(policy), original);  // no --write: untouched

        const Run wrote = dgem({"calibrate", run, "-t", policy, "--write"});
        QVERIFY2(wrote.code == 0, qPrintable(wrote.err));
        QVERIFY(wrote.out.contains("ECE") && wrote.out.contains("suggested cascade_threshold"));
        const std::string edited = slurp(policy);
        QVERIFY(edited != original);
        const json rendered = json::parse(edited);
        QCOMPARE(rendered["schema"]["temperature"]["choice"].get<double>(), t);
        json rest = rendered;
        rest["schema"].erase("temperature");
        QVERIFY(rest == json::parse(original));
        // The policy decides with it: the same as the flag at that T for a choice question.
        const json with = json::parse(
            dgem(QStringList{"decide"} + local() + QStringList{"-t", policy, "-f", "json"})
                .out.toStdString());
        QVERIFY(!with.is_null());
        QCOMPARE(with["diagnostics"]["temperature"]["choice"].get<double>(), t);

        // Never half-applied: a templated temperature is refused, the file kept.
        const QString templated = home_.filePath("templated.json.tmpl");
        const std::string tmpl =
            "{\n  \"schema\": {\"temperature\": {{ .t | default 1 }}, \"questions\": " +
            json::parse(kSchema)["questions"].dump() + "},\n  \"state\": " + kState + "\n}\n";
        {
            QFile f(templated);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(QByteArray::fromStdString(tmpl));
        }
        const Run refused = dgem({"calibrate", run, "-t", templated, "--write"});
        QCOMPARE(refused.code, 2);
        QVERIFY2(refused.err.contains("temperature"), qPrintable(refused.err));
        QCOMPARE(slurp(templated), tmpl);
        // --per question: one T for team, written under "questions".
        const Run perq = dgem({"calibrate", run, "-t", policy, "--per", "question", "--json"});
        QVERIFY2(perq.code == 0, qPrintable(perq.err));
        const json perq_doc = json::parse(perq.out.toStdString());
        QCOMPARE(perq_doc["types"][0]["question"].get<std::string>(), std::string("team"));
        QCOMPARE(perq_doc["temperature"]["questions"]["team"].get<double>(),
                 perq_doc["types"][0]["temperature"].get<double>());
        QVERIFY(dgem({"calibrate", run, "-t", policy, "--per", "question", "--write"}).code == 0);
        const json perq_written = json::parse(slurp(policy));
        QCOMPARE(perq_written["schema"]["temperature"]["questions"]["team"].get<double>(),
                 perq_doc["types"][0]["temperature"].get<double>());
        QCOMPARE(perq_written["schema"]["temperature"]["choice"].get<double>(), t);
        const Run badPer = dgem({"calibrate", run, "-t", policy, "--per", "row"});
        QCOMPARE(badPer.code, 2);
        QVERIFY2(badPer.err.contains("--per row") && badPer.err.contains("accepted"),
                 qPrintable(badPer.err));
        const Run noRun = dgem({"calibrate", home_.filePath("none.jsonl"), "-t", policy});
        QCOMPARE(noRun.code, 2);
        QVERIFY(noRun.err.contains("none.jsonl"));
    }

    // The cascade against a real dgem serve as the stage-2 judge: exactly the questions whose
    // stage-1 entropy reaches the threshold go to stage 2, each with its answers and latencies.
    void cascadeEscalatesAtThreshold() {
        const QString plain = writeSchema("cascade.json", json::object());
        const json stage1 = decide(local(), plain);
        QVERIFY(!stage1.is_null());
        std::vector<double> h;
        for (const auto& [id, a] : stage1["answers"].items())
            h.push_back(entropy(a["probabilities"]));
        std::sort(h.begin(), h.end());
        const double middle = h[h.size() / 2];
        Serve judge;
        QVERIFY(judge.up());
        for (double threshold : {100.0, 0.0, middle}) {
            const json d =
                decide(local(), plain,
                       {"--cascade-mode", "entropy", "--cascade-threshold",
                        QString::number(threshold, 'g', 17), "--cascade-url", judge.url()});
            QVERIFY(!d.is_null());
            const json& c = d["diagnostics"]["cascade"];
            QCOMPARE(c["mode"].get<std::string>(), std::string("entropy"));
            int escalated = 0;
            for (const auto& [id, a] : stage1["answers"].items()) {
                const json& q = c["questions"][id];
                const bool want = entropy(a["probabilities"]) >= threshold;
                QVERIFY2(
                    q["escalated"].get<bool>() == want,
                    qPrintable(QString("%1 at %2").arg(QString::fromStdString(id)).arg(threshold)));
                QCOMPARE(q["stage1"]["label"], a["label"]);
                QVERIFY(q["stage1"]["ms"].get<double>() > 0);
                if (!want) {
                    QVERIFY(d["answers"][id] == a);  // untouched
                    continue;
                }
                ++escalated;
                QVERIFY(q["stage2"]["ms"].get<double>() > 0);
                if (q["answered_by"] == "stage2") {
                    QCOMPARE(d["answers"][id]["label"], q["stage2"]["label"]);
                } else {
                    // The tiny judge's reply named no option: stage 1 kept, and why.
                    QVERIFY(q["stage2"]["error"].get<std::string>().find("stage 1's answer kept") !=
                            std::string::npos);
                    QCOMPARE(d["answers"][id]["label"], a["label"]);
                }
            }
            QCOMPARE(c["escalated"].get<int>(), escalated);
            if (threshold == 100.0) QCOMPARE(escalated, 0);
            if (threshold == 0.0) QCOMPARE(escalated, int(h.size()));
            if (threshold == middle)
                QCOMPARE(escalated, int(h.end() - std::lower_bound(h.begin(), h.end(), middle)));
        }
        // A judge that does not answer: reported per question, stage 1 kept, naming the field.
        const json down = decide(local(), plain,
                                 {"--cascade-mode", "entropy", "--cascade-threshold", "0",
                                  "--cascade-url", "http://127.0.0.1:9/v1"});
        QVERIFY(!down.is_null());
        for (const auto& [id, q] : down["diagnostics"]["cascade"]["questions"].items()) {
            QVERIFY(q["stage2"]["error"].get<std::string>().find("cascade_endpoint") !=
                    std::string::npos);
            QVERIFY(down["answers"][id] == stage1["answers"][id]);
        }
        for (const QStringList& bad :
             {QStringList{"--cascade-mode", "always"}, QStringList{"--cascade-threshold", "-1"},
              QStringList{"--cascade-mode", "entropy"},
              QStringList{"--cascade-mode", "entropy", "--cascade-url", "judge-profile"}}) {
            const Run r = dgem(QStringList{"decide"} + local() +
                               QStringList{"--schema", plain, "--state", kState} + bad);
            QCOMPARE(r.code, 2);
            QVERIFY2(r.err.contains("cascade"), qPrintable(r.err));
        }
    }

    // The escalation curve: from nothing escalated (stage 1's accuracy) to everything (stage
    // 2's), the cost counted, and the cheapest threshold for a target accuracy.
    void escalationCurve() {
        std::vector<core::eval::CalibrationItem> items;
        auto add = [&](std::vector<double> p, int expected) {
            core::eval::CalibrationItem c;
            c.probs = std::move(p);
            c.expected = expected;
            items.push_back(c);
        };
        add({0.99, 0.01}, 0);  // sure, right
        add({0.95, 0.05}, 0);  // sure, right
        add({0.6, 0.4}, 1);    // unsure, wrong
        add({0.5, 0.5}, 1);    // unsure, wrong (tie goes to the first)
        const auto curve = core::eval::escalation_curve(items, {});
        QCOMPARE(curve.size(), size_t(5));
        QCOMPARE(curve.front().escalated, 0);
        QCOMPARE(curve.front().accuracy, 0.5);
        QCOMPARE(curve.back().escalated, 4);
        QCOMPARE(curve.back().accuracy, 1.0);
        for (size_t i = 1; i < curve.size(); ++i)
            QVERIFY(curve[i].threshold < curve[i - 1].threshold &&
                    curve[i].escalated > curve[i - 1].escalated);
        const auto s = core::eval::suggest_for_accuracy(curve, 1.0);
        QVERIFY(s.found);
        QCOMPARE(s.point.escalated, 2);  // the two unsure ones suffice
        QVERIFY(std::abs(s.point.threshold - core::eval::label_entropy({0.6, 0.4})) < 1e-12);
        const auto b = core::eval::suggest_for_budget(curve, 0.25);
        QVERIFY(b.found && b.point.escalated == 1 && b.point.accuracy == 0.75);
        core::eval::EscalationOptions half;
        half.stage2_accuracy = 0.5;
        QCOMPARE(core::eval::escalation_curve(items, half).back().accuracy, 0.5);
    }
};

QTEST_GUILESS_MAIN(TestCalibration)
#include "tst_calibration.moc"
