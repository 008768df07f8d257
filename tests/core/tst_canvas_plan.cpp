// core::build_plan on the shipped support_triage policy with the real Gemma tokenizer, pinned to
// exact token ids. The expected ids were derived independently of this code: the question text,
// prompt and answer template written out by hand from the structured server's rules, tokenized
// with the JavaScript tokenizer (tests/engine/js_tokenize.cjs), slots found by substitution, and
// noise from CPython's random.Random(seed).randrange(262144); then checked by decoding below.

#include <QFile>
#include <QtTest>

#include <fstream>

#include "core/decide/canvas_plan.h"
#include "core/decide/chat_template.h"
#include "core/decide/read_stats.h"
#include "core/template/template.h"
#include "engine/engine.h"

using engine::TokenId;
using nlohmann::json;
using Ids = std::vector<TokenId>;

namespace {

std::string read_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// The answer template of the three triage questions at their first labels:
// <|channel> thought \n <channel|> "urgent" ":" " yes" \n "team" ":" " A" \n "sentiment" ":" " "
// "1"
const Ids kTemplate = {100,   45518,  107, 101, 148436, 236787, 11262,  107,
                       14992, 236787, 562, 107, 126775, 236787, 236743, 236770};

// The document_first prompt (274 ids): <bos><|turn>user\n<user_text>\n{state}\n</user_text>\n\n
// <instructions>\n{question text}\n</instructions><turn|>\n<|turn>model\n + empty thought block.
const Ids kDocumentFirstPrompt = {
    2,      105,    2364,   107,    236820, 2364,   236779, 1005,   236813, 107,    14937,  37947,
    1083,   623,    236777, 691,    11055,  10911,  573,    1041,   23627,  672,    2297,   532,
    24063,  815,    19398,  1041,   24157,  573,    1806,   2668,   236761, 32987,  672,    1492,
    653,    564,    1006,   96687,  1781,   236783, 107,    954,    2364,   236779, 1005,   236813,
    108,    236820, 96654,  236813, 107,    7925,   496,    6530,   1076,   529,    4137,   1003,
    506,    1883,   506,    2430,   4728,   236761, 7714,   2934,   15852,  1061,   6208,   12102,
    236793, 15148,  607,    7121,   886,    5346,   810,    2934,   236761, 108,    3048,   194870,
    5602,   1894,   16677,  573,    496,    5368,   2544,   236761, 8847,   506,    15049,  532,
    3890,   1546,   2934,   1003,   625,    236761, 108,    14977,  32034,  236787, 14300,  672,
    15049,  1202,   496,    15148,  699,    496,    1589,   3124,   236881, 107,    138,    4443,
    236787, 6007,   563,    1679,   236764, 3273,   563,    657,    14585,  236764, 653,    506,
    5602,   75583,  531,    5264,   107,    138,    1904,   236787, 562,    2934,   236764, 496,
    2864,   653,    496,    18169,  600,    740,    4491,   496,    2844,   1719,   108,    14977,
    2434,   236787, 15311,  2434,   1374,   1852,   672,    15049,  236881, 107,    138,    236776,
    236787, 47764,  568,    902,    112607, 236764, 10814,  236764, 88677,  236764, 6614,   532,
    7548,   4615,   236768, 107,    138,    236799, 236787, 1894,   568,    3910,   236772, 1071,
    4137,   236764, 10789,  236764, 62267,  532,    7846,   236768, 107,    138,    236780, 236787,
    10630,  568,    39170,  236764, 101990, 236764, 53528,  532,    34725,  528,    506,    1698,
    236768, 108,    14977,  27078,  236787, 2088,   25269,  563,    506,    5602,   236881, 107,
    138,    236770, 236787, 16680,  107,    138,    236778, 236787, 39742,  107,    138,    236800,
    236787, 69590,  108,    40654,  607,    886,    1757,   810,    2934,   236764, 528,    672,
    1900,   236764, 45047,  618,    623,    547,    236787, 5346,   3056,   107,    954,    96654,
    236813, 106,    107,    105,    4368,   107,    100,    45518,  107,    101};

// schema_first (258 ids): a system turn with the question text, a user turn with the state.
// Its first 4 ids and the state turn's first ids are pinned; the middle is the same question
// text as above (208 ids from id 53 of the document_first prompt), which the test checks.
const Ids kSchemaFirstHead = {2, 105, 9731, 107};  // <bos> <|turn> "system" \n
const Ids kSchemaFirstUserTurn = {106, 107, 105, 2364, 107, 14937, 37947, 1083};

}  // namespace

class TestCanvasPlan : public QObject {
    Q_OBJECT

  private:
    std::optional<engine::Tokenizer> tok_;
    core::Schema schema_;
    json state_;

    core::CanvasPlan plan(const core::PlanOptions& options = {}) {
        auto p = core::build_plan(schema_, state_, *tok_, options);
        if (!p.ok()) qFatal("build_plan failed: %s", p.error().message.c_str());
        return std::move(p).value();
    }

    static Ids with_slots(Ids canvas, TokenId a, TokenId b, TokenId c) {
        canvas[6] = a;
        canvas[10] = b;
        canvas[15] = c;
        return canvas;
    }

    static Ids padded(Ids ids, size_t width) {
        ids.push_back(106);
        ids.resize(width, 0);
        return ids;
    }

  private Q_SLOTS:
    void initTestCase() {
        auto loaded = engine::Tokenizer::load(DS_TOKENIZER_JSON);
        QVERIFY2(loaded.ok(), loaded.ok() ? "" : loaded.error().message.c_str());
        tok_.emplace(std::move(loaded).value());
        const std::string dir = std::string(DS_SOURCE_DIR) + "/resources/templates/";
        json vars = json::parse(read_file(dir + "support_triage.vars.json"));
        auto rendered = core::render_template(read_file(dir + "support_triage.json.tmpl"), vars,
                                              "support_triage.json.tmpl");
        QVERIFY2(rendered.ok(), rendered.ok() ? "" : rendered.error().message.c_str());
        json policy = json::parse(*rendered);
        auto schema = core::parse_schema(policy["schema"], "support_triage.json.tmpl");
        QVERIFY2(schema.ok(), schema.ok() ? "" : schema.error().message.c_str());
        schema_ = *schema;
        state_ = policy["state"];
    }

    void chatTemplateVector() {
        // MODEL-SPEC section 6's prompt vector, through render_chat.
        auto ids = tok_->encode(core::render_chat({{"user", "Why is the sky blue?"}}));
        QCOMPARE(ids, (Ids{2, 105, 2364, 107, 11355, 563, 506, 7217, 3730, 236881, 106, 107, 105,
                           4368, 107, 100, 45518, 107, 101}));
        QCOMPARE(
            core::render_chat({{"system", " S "}, {"user", "U"}}, true),
            std::string(
                "<bos><|turn>system\n<|think|>\nS<turn|>\n<|turn>user\nU<turn|>\n<|turn>model\n"));
    }

    void documentFirst() {
        core::CanvasPlan p = plan();
        QCOMPARE(p.layout, core::Layout::DocumentFirst);
        QCOMPARE(p.groups.size(), size_t(1));  // one yes/no question: "auto" isolates nothing
        const core::ReadGroup& g = p.groups[0];
        QCOMPARE(g.prompt_ids, kDocumentFirstPrompt);
        QCOMPARE(g.template_length, 16);
        QCOMPARE(g.width, 32);  // 16 template ids + <turn|> = 17 -> 32
        QCOMPARE(g.canvas_ids, padded(kTemplate, 32));
        QCOMPARE(g.answer_slots.size(), size_t(3));
        QCOMPARE(g.answer_slots[0].question, std::string("urgent"));
        QCOMPARE(g.answer_slots[0].pos, 6);
        QCOMPARE(g.answer_slots[0].label_ids, (Ids{11262, 951}));
        QCOMPARE(g.answer_slots[1].pos, 10);
        QCOMPARE(g.answer_slots[1].label_ids, (Ids{562, 603, 565}));
        QCOMPARE(g.answer_slots[2].pos, 15);
        QCOMPARE(g.answer_slots[2].label_ids, (Ids{236770, 236778, 236800}));
        QCOMPARE(g.label_union, (Ids{562, 565, 603, 951, 11262, 236770, 236778, 236800}));
        // The pinned ids mean what they should.
        QCOMPARE(tok_->decode(g.answer_slots[0].label_ids), std::string(" yes no"));
        QCOMPARE(tok_->decode(g.answer_slots[1].label_ids), std::string(" A B C"));
        QCOMPARE(tok_->decode(g.answer_slots[2].label_ids), std::string("123"));
        QCOMPARE(tok_->decode(Ids(kTemplate.begin() + 4, kTemplate.end())),
                 std::string("urgent: yes\nteam: A\nsentiment: 1"));
        const std::string prompt = tok_->decode(g.prompt_ids);
        QVERIFY(prompt.find("<user_text>\n{\"ticket\": \"I was charged twice") !=
                std::string::npos);
        QVERIFY(prompt.find(
                    "Question team: Which team should own this ticket?\n  A: billing (Invoices") !=
                std::string::npos);
        QVERIFY(prompt.find("  3: furious\n\nReply with one line per question, in this order, "
                            "formatted as \"id: label\".\n</instructions>") != std::string::npos);

        // samples "auto": one first read, seed 42: CPython random.Random(42).randrange(262144)
        // three times gives 58369, 13112, 144194.
        QCOMPARE(p.rows.size(), size_t(1));
        QCOMPARE(p.rows[0].seed, uint64_t(42));
        QCOMPARE(p.rows[0].canvas_ids, with_slots(g.canvas_ids, 58369, 13112, 144194));
        // The "auto" extension reads draw from 42 + 1 + 7919 j: seed 43 -> 20212, 149990, 75462.
        auto more = core::extension_rows(p, 0);
        QCOMPARE(more.size(), size_t(3));  // auto_max 4 in all
        QCOMPARE(more[0].seed, uint64_t(43));
        QCOMPARE(more[1].seed, uint64_t(43 + 7919));
        QCOMPARE(more[0].canvas_ids, with_slots(g.canvas_ids, 20212, 149990, 75462));
        QVERIFY(more[0].extension);

        // The engine request carries the prompt, one row per read, each slot with its labels.
        auto reqs = core::to_requests(p);
        QCOMPARE(reqs.size(), size_t(1));
        QCOMPARE(reqs[0].prompt_ids, kDocumentFirstPrompt);
        QCOMPARE(reqs[0].rows.size(), size_t(1));
        QCOMPARE(reqs[0].rows[0].slot_specs[1].pos, 10);
        QCOMPARE(reqs[0].rows[0].slot_specs[1].label_ids, (Ids{562, 603, 565}));
    }

    void fixedSamplesDrawPerSeed() {
        core::PlanOptions o;
        o.samples = core::Samples{false, 3};
        core::CanvasPlan p = plan(o);
        QCOMPARE(p.rows.size(), size_t(3));
        // Draw j uses seed 42 + 7919 j; draw 1 (seed 7961): 256703, 216885, 234222.
        QCOMPARE(p.rows[1].seed, uint64_t(42 + 7919));
        QCOMPARE(p.rows[1].canvas_ids, with_slots(p.groups[0].canvas_ids, 256703, 216885, 234222));
        QCOMPARE(p.rows[2].seed, uint64_t(42 + 2 * 7919));
        // Deterministic: the same seed gives the same canvases; another seed other ones.
        QCOMPARE(plan(o).rows[2].canvas_ids, p.rows[2].canvas_ids);
        o.seed = 7;  // random.Random(7): 169781, 79088, 207001
        QCOMPARE(plan(o).rows[0].canvas_ids,
                 with_slots(p.groups[0].canvas_ids, 169781, 79088, 207001));
        // Seeds past 32 bits seed CPython's generator with two words.
        QCOMPARE(core::noise_ids((uint64_t(1) << 40) + 5, 3), (Ids{140826, 14380, 24428}));
    }

    void fixedSeedTokenPutsPad() {
        core::PlanOptions o;
        o.seed_token = core::SeedToken::Fixed;
        core::CanvasPlan p = plan(o);
        QCOMPARE(p.rows[0].canvas_ids, with_slots(p.groups[0].canvas_ids, 0, 0, 0));
    }

    void schemaFirst() {
        core::PlanOptions o;
        o.layout = core::Layout::SchemaFirst;
        core::CanvasPlan p = plan(o);
        const Ids& ids = p.groups[0].prompt_ids;
        QCOMPARE(ids.size(), size_t(258));
        QCOMPARE(Ids(ids.begin(), ids.begin() + 4), kSchemaFirstHead);
        // The system turn holds exactly the question text of the document_first prompt.
        QCOMPARE(Ids(ids.begin() + 4, ids.begin() + 4 + 208),
                 Ids(kDocumentFirstPrompt.begin() + 53, kDocumentFirstPrompt.begin() + 53 + 208));
        QCOMPARE(Ids(ids.begin() + 212, ids.begin() + 220), kSchemaFirstUserTurn);
        QCOMPARE(Ids(ids.end() - 4, ids.end()), (Ids{100, 45518, 107, 101}));
        QCOMPARE(p.groups[0].canvas_ids, padded(kTemplate, 32));  // the canvas does not change
        QCOMPARE(p.groups[0].messages.size(), size_t(2));
        QCOMPARE(p.groups[0].messages[0].role, std::string("system"));
    }

    void isolateAll() {
        core::PlanOptions o;
        o.isolate = core::Isolate::All;
        core::CanvasPlan p = plan(o);
        QCOMPARE(p.groups.size(), size_t(3));
        for (size_t g = 0; g < 3; ++g) {
            QVERIFY(p.groups[g].isolated);
            QCOMPARE(p.groups[g].answer_slots.size(), size_t(1));
            QCOMPARE(p.groups[g].seed, uint64_t(42 + 104729 * g));
            QCOMPARE(p.groups[g].width, 16);  // 4 + 4 (or 5) + 1 fits 16
        }
        // Each isolated read has its own prompt listing only its question.
        QVERIFY(p.groups[1].question_text.find("Question team:") != std::string::npos);
        QVERIFY(p.groups[1].question_text.find("Question urgent:") == std::string::npos);
        QVERIFY(p.groups[0].prompt_ids != p.groups[1].prompt_ids);
        // "urgent" alone: thought block, "urgent" ":" " yes", <turn|>: slot at 6 as before.
        QCOMPARE(p.groups[0].answer_slots[0].pos, 6);
        QCOMPARE(p.groups[0].canvas_ids, padded({100, 45518, 107, 101, 148436, 236787, 11262}, 16));
        QCOMPARE(p.groups[2].answer_slots[0].label_ids, (Ids{236770, 236778, 236800}));
        QCOMPARE(p.rows.size(), size_t(3));  // one auto read per group
        QCOMPARE(p.rows[2].seed, uint64_t(42 + 2 * 104729));
        QCOMPARE(core::to_requests(p).size(), size_t(3));
    }

    void isolateAutoAndAlone() {
        // "auto" isolates yes/no questions in requests of 2-3 questions with at least two of them.
        json s = json::parse(R"({"questions": [
            {"id": "a", "type": "noul"}, {"id": "b", "type": "choice", "options": ["x", "y"]},
            {"id": "c", "type": "noul"}]})");
        auto schema = core::parse_schema(s, "x");
        QVERIFY(schema.ok());
        auto p = core::build_plan(*schema, "state", *tok_, {});
        QVERIFY(p.ok());
        QCOMPARE(p->groups.size(), size_t(3));  // [a] [b] [c]: an isolated question splits the run
        QVERIFY(p->groups[0].isolated && !p->groups[1].isolated && p->groups[2].isolated);
        // "alone": false keeps a yes/no question in the joint read.
        s["questions"][2]["alone"] = false;
        auto kept = core::build_plan(*core::parse_schema(s, "x"), "state", *tok_, {});
        QVERIFY(kept.ok());
        QCOMPARE(kept->groups.size(), size_t(2));
        QCOMPARE(kept->groups[1].questions, (std::vector<int>{1, 2}));
        // "none" isolates nothing.
        core::PlanOptions none;
        none.isolate = core::Isolate::None;
        QCOMPARE(core::build_plan(*schema, "state", *tok_, none)->groups.size(), size_t(1));
    }

    void labelIdLimit() {
        // The union of label ids of one read is limited: more is a schema error, never a cut.
        core::PlanOptions o;
        o.max_label_ids = 5;
        auto p = core::build_plan(schema_, state_, *tok_, o);
        QVERIFY(!p.ok());
        QCOMPARE(
            QString::fromStdString(p.error().message),
            QString("schema: one read of urgent, team, sentiment needs 8 distinct label tokens; "
                    "a read carries at most 5 (isolate some questions)"));
        o.isolate = core::Isolate::All;  // each read then carries 2 or 3 ids
        QVERIFY(core::build_plan(schema_, state_, *tok_, o).ok());
    }

    void badLabels() {
        // Past ten questions the template is "{id}{label}" joined by spaces. For an id "OK",
        // " OKA" is " OK" + "A" but " OKC" is one token: label C changes the template's length.
        json qs = json::array();
        for (int i = 0; i < 10; ++i)
            qs.push_back({{"id", "a" + std::to_string(i)}, {"type", "noul"}});
        qs.push_back({{"id", "OK"}, {"type", "choice"}, {"options", {"x", "y", "z"}}});
        auto schema = core::parse_schema(json{{"questions", qs}}, "x");
        QVERIFY(schema.ok());
        auto p = core::build_plan(*schema, "state", *tok_, {});
        QVERIFY(!p.ok());
        QVERIFY2(QString::fromStdString(p.error().message)
                     .startsWith("question \"OK\": label \"C\" is not a single token"),
                 p.error().message.c_str());
        // Without that question the eleven-question indexed template resolves.
        qs.erase(qs.end() - 1);
        qs.push_back({{"id", "US"}, {"type", "choice"}, {"options", {"x", "y", "z"}}});
        auto fine =
            core::build_plan(*core::parse_schema(json{{"questions", qs}}, "x"), "state", *tok_, {});
        QVERIFY2(fine.ok(), fine.ok() ? "" : fine.error().message.c_str());
        QVERIFY(fine->indexed);
        QCOMPARE(fine->groups.size(), size_t(1));  // eleven questions: "auto" isolates nothing
    }

    void canvasTooSmall() {
        core::PlanOptions o;
        o.canvas_length = 16;
        auto p = core::build_plan(schema_, state_, *tok_, o);
        QVERIFY(!p.ok());
        QVERIFY(QString::fromStdString(p.error().message)
                    .contains("needs 17 canvas positions; the served canvas holds 16"));
    }

    void stateText() {
        QCOMPARE(core::state_text(json("plain text")), std::string("plain text"));
        QCOMPARE(core::state_text(json::parse(R"({"a": [1, 2.5, true, null], "b": "é\n"})")),
                 std::string("{\"a\": [1, 2.5, true, null], \"b\": \"é\\n\"}"));
    }

    void planJson() {
        json j = core::plan_json(plan(), schema_);
        QCOMPARE(j["width"].get<int>(), 32);
        QCOMPARE(j["layout"].get<std::string>(), std::string("document_first"));
        QCOMPARE(j["slots"][1]["question"].get<std::string>(), std::string("team"));
        QCOMPARE(j["slots"][1]["pos"].get<int>(), 10);
        QCOMPARE(j["reads"].size(), size_t(1));
        QCOMPARE(j["prompt_ids"].size(), kDocumentFirstPrompt.size());
    }
};

QTEST_GUILESS_MAIN(TestCanvasPlan)
#include "tst_canvas_plan.moc"
