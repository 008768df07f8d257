// Remote decisions end to end over loopback: the real `dgem serve` server (in process, and the
// real binary) on the tiny model, the remote backends and the real `dgem` binary as clients.
// Every route, every auth mode, every error class, --gcp-auth with a fake gcloud, a load test.
#include "core/decide/local_backend.h"
#include "core/decide/read_stats.h"
#include "core/net/auth.h"
#include "core/net/http_client.h"
#include "core/net/remote_backends.h"
#include "core/server/decision_server.h"
#include "core/wire/decision_json.h"
#include "core/wire/systemone.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QSemaphore>
#include <QTemporaryDir>
#include <QtTest>

#include <arpa/inet.h>
#include <httplib.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>
#include <atomic>
#include <chrono>
#include <cmath>
#include <future>
#include <string_view>
#include <thread>
#include <utility>

using json = nlohmann::json;

namespace {

const char* kSchema = R"({
  "instructions": "Triage a support ticket.",
  "questions": [
    {"id": "urgent", "type": "boolean", "instructions": "Does the customer need help today?",
     "criteria": {"true": "blocked or losing money", "false": "can wait"}},
    {"id": "team", "type": "choice", "instructions": "Which team should answer?",
     "options": [{"name": "billing", "description": "charges and refunds"}, {"name": "support"},
                 {"name": "engineering"}]},
    {"id": "mood", "type": "score", "instructions": "How upset is the customer?",
     "levels": ["calm", "frustrated", "furious"]}],
  "samples": 2, "isolate": "none"})";

const json kState = {{"ticket", "I was charged twice this month and need a refund today."}};

// Wraps the local engine and holds each decision at a gate until the test opens it, so the
// admission bound can be filled deterministically.
class GatedBackend final : public core::Backend {
  public:
    explicit GatedBackend(std::shared_ptr<core::Backend> inner) : inner_(std::move(inner)) {}
    std::string describe() const override { return inner_->describe(); }
    core::Result<core::Decision> decide(const core::DecideRequest& r, const core::ProgressFn& p,
                                        const core::CancelToken& c) override {
        entered.release();
        gate.acquire();
        return inner_->decide(r, p, c);
    }
    core::Result<core::Generation> generate(const core::GenerateRequest& r,
                                            const core::ProgressFn& p,
                                            const core::CancelToken& c) override {
        return inner_->generate(r, p, c);
    }
    core::Result<core::HealthInfo> health(const core::CancelToken& c) override {
        return inner_->health(c);
    }
    std::optional<int> image_soft_tokens(int width, int height) const override {
        return inner_->image_soft_tokens(width, height);
    }
    std::optional<core::ModelFacts> model_facts() const override { return inner_->model_facts(); }
    core::RowReader* row_reader() override { return inner_->row_reader(); }
    QSemaphore gate, entered;

  private:
    std::shared_ptr<core::Backend> inner_;
};

struct Run {
    int code = -1;
    QString out, err;
};

}  // namespace

class TestRemote : public QObject {
    Q_OBJECT

    std::shared_ptr<core::LocalBackend> local_;
    engine::Engine* engine_ = nullptr;
    core::Schema schema_;
    std::unique_ptr<core::DecisionServer> open_;    // no auth
    std::unique_ptr<core::DecisionServer> locked_;  // API_KEY + DGEM_SERVER_KEY=new,old
    QTemporaryDir home_;
    QString policy_;

    QString url(const core::DecisionServer& s) const {
        return QStringLiteral("http://127.0.0.1:%1/v1").arg(s.port());
    }

    core::RemoteOptions remote(const core::DecisionServer& s) const {
        core::RemoteOptions o;
        o.url = url(s).toStdString();
        o.transport.timeout_s = 600;  // a loaded CI machine generates slowly
        return o;
    }

    core::DecideRequest request(uint64_t seed = 42) const { return {schema_, kState, seed}; }

    // Runs the real dgem binary with a clean home (no user config) and the given environment.
    Run dgem(const QStringList& args, const QMap<QString, QString>& env = {},
             const QString& input = {}) {
        QProcess p;
        QProcessEnvironment e = QProcessEnvironment::systemEnvironment();
        for (const char* k :
             {"DGEM_URL", "DGEM_TOKEN", "DGEM_SERVER_KEY", "DGEM_MODEL", "DGEM_TIMEOUT", "API_KEY"})
            e.remove(k);
        e.insert("HOME", home_.path());
        for (auto it = env.begin(); it != env.end(); ++it) e.insert(it.key(), it.value());
        p.setProcessEnvironment(e);
        p.setWorkingDirectory(home_.path());
        p.start(QStringLiteral(DS_BIN_DIR "/dgem"), args);
        if (!input.isEmpty()) p.write(input.toUtf8());
        p.closeWriteChannel();
        if (!p.waitForFinished(180000)) p.kill();
        return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1,
                QString::fromUtf8(p.readAllStandardOutput()),
                QString::fromUtf8(p.readAllStandardError())};
    }

    static void expectSameDecision(const core::Decision& a, const core::Decision& b, double tol) {
        QCOMPARE(a.questions.size(), b.questions.size());
        for (size_t i = 0; i < a.questions.size(); ++i) {
            const auto& qa = a.questions[i];
            const auto& qb = b.questions[i];
            QCOMPARE(QString::fromStdString(qa.id), QString::fromStdString(qb.id));
            QCOMPARE(qa.winner, qb.winner);
            QCOMPARE(qa.mean.size(), qb.mean.size());
            for (size_t k = 0; k < qa.mean.size(); ++k)
                QVERIFY2(std::abs(qa.mean[k] - qb.mean[k]) <= tol,
                         qPrintable(QString("%1[%2]: %3 vs %4")
                                        .arg(qa.id.c_str())
                                        .arg(k)
                                        .arg(qa.mean[k])
                                        .arg(qb.mean[k])));
        }
    }

    static core::Result<core::HttpResponse> rawPost(const std::string& u, const std::string& body,
                                                    std::shared_ptr<core::TokenSource> auth = {},
                                                    const std::string& key = {}) {
        core::TransportOptions t;
        t.max_retries = 0;
        t.auth = std::move(auth);
        t.server_key = key;
        return core::HttpTransport(t).post_json(u, body, {});
    }

  private slots:
    void initTestCase() {
        QVERIFY(home_.isValid());
        engine::EngineOptions eo;
        eo.model_dir = DS_TINY_MODEL_DIR;
        eo.device = engine::Device::Cpu;
        auto backend = core::LocalBackend::open(eo);
        QVERIFY2(backend.ok(), backend.ok() ? "" : backend.error().message.c_str());
        local_ = std::shared_ptr<core::LocalBackend>(std::move(backend.value()));
        engine_ = &local_->engine();
        auto schema = core::parse_schema(json::parse(kSchema), "test schema");
        QVERIFY2(schema.ok(), schema.ok() ? "" : schema.error().message.c_str());
        schema_ = *schema;

        core::ServerOptions o;
        o.port = 0;
        o.max_inflight = 64;
        // Generations here are compared with unbounded local ones, and a loaded CI machine can
        // take longer than the default GENERATION_TIMEOUT_S: no wall-time bound on these servers.
        o.generation_timeout_s = 86400;
        o.model_name = "tiny";
        o.version = "test";
        open_ = std::make_unique<core::DecisionServer>(local_, o);
        QVERIFY(open_->start().ok());
        o.api_key = "secret-bearer";
        o.server_keys = {"new-key", "old-key"};
        locked_ = std::make_unique<core::DecisionServer>(local_, o);
        QVERIFY(locked_->start().ok());

        policy_ = home_.filePath("triage.json.tmpl");
        QFile f(policy_);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(json{{"schema", json::parse(kSchema)}, {"state", kState}}.dump(2).c_str());
    }

    void cleanupTestCase() {
        open_.reset();
        locked_.reset();
    }

    // GET /health, / and /invoke/health answer without any key.
    void healthRoutes() {
        for (const char* path : {"/health", "/", "/invoke/health"}) {
            auto r = core::HttpTransport().get(
                core::server_root(url(*locked_).toStdString()) + path, {});
            QVERIFY(r.ok());
            QCOMPARE(r->status, 200);
            auto body = json::parse(r->body);
            QCOMPARE(body["status"], "ok");
            QCOMPARE(body["ready"], true);
            QCOMPARE(body["model"], "tiny");
            QVERIFY(body["device"].get<std::string>().find("cpu") != std::string::npos);
            // The engine's scheduler counts: nothing waits between tests.
            QVERIFY(body["batching"]["reads"].is_number_unsigned());
            QCOMPARE(body["batching"]["waiting"], 0);
        }
        // A decision is one more read (or more, one per noise row batch) in the counts.
        const auto reads = [&] {
            auto r = core::HttpTransport().get(
                core::server_root(url(*open_).toStdString()) + "/health", {});
            return r.ok() ? json::parse(r->body)["batching"]["reads"].get<uint64_t>() : 0;
        };
        const uint64_t before = reads();
        QVERIFY(rawDecide(*open_).ok());
        QVERIFY(reads() > before);
        auto run = dgem({"health", "-u", url(*open_)});
        QCOMPARE(run.code, 0);
        QVERIFY2(run.out.contains("ready"), qPrintable(run.out));
    }

    // The three decision protocols give the local engine's answers.
    void decisionsMatchLocal() {
        auto expected = local_->decide(request(), {}, {});
        QVERIFY(expected.ok());
        core::DgemChatBackend chat(remote(*open_));
        auto viaChat = chat.decide(request(), {}, {});
        QVERIFY2(viaChat.ok(), viaChat.ok() ? "" : viaChat.error().message.c_str());
        expectSameDecision(*expected, *viaChat, 1e-9);
        // What the local decision learned beyond its answers (how it chose its reads, its seed)
        // comes through the chat form typed, as the server's decide module recorded it.
        const json localDiag =
            core::decision_json(*expected, core::AnswerForm::Chat)["diagnostics"];
        const json chatDiag = core::decision_json(*viaChat, core::AnswerForm::Chat)["diagnostics"];
        for (const char* key : {"samples", "seed", "seed_token", "engine", "entropy_basis"})
            QCOMPARE(chatDiag[key], localDiag[key]);
        QVERIFY(viaChat->timings.network_ms >= 0);
        QVERIFY(viaChat->timings.total_ms > 0);

        core::SystemOneBackend s1(remote(*open_));
        auto viaS1 = s1.decide(request(), {}, {});
        QVERIFY2(viaS1.ok(), viaS1.ok() ? "" : viaS1.error().message.c_str());
        expectSameDecision(*expected, *viaS1, 1e-9);
        // The server's own reply carries the score's legend.
        auto s1Reply = rawPost(url(*open_).toStdString() + "/systemone",
                               core::wire::systemone_request(request(), "").dump());
        QVERIFY(s1Reply.ok());
        QCOMPARE(nlohmann::json::parse(s1Reply->body)["answers"]["mood"]["legend"]["0"], "calm");

        // vLLM structured reads: the canvas planned here, one read per row on the server.
        auto o = remote(*open_);
        o.canvas_length = engine_->info().canvas_length;
        core::VllmStructuredBackend vllm(o, engine_->tokenizer());
        auto viaVllm = vllm.decide(request(), {}, {});
        QVERIFY2(viaVllm.ok(), viaVllm.ok() ? "" : viaVllm.error().message.c_str());
        expectSameDecision(*expected, *viaVllm, 1e-5);
        QCOMPARE(viaVllm->reads, expected->reads);
    }

    // The server's usage says how much of a prompt its prefix cache supplied; each remote
    // backend reads it in its protocol's spelling (chat and vLLM structured reads:
    // usage.prompt_tokens_details.cached_tokens; /v1/systemone: input_tokens_details).
    void remoteUsageCachedTokens() {
        auto o = remote(*open_);
        o.canvas_length = engine_->info().canvas_length;
        core::DgemChatBackend chat(o);
        core::SystemOneBackend systemone(o);
        core::VllmStructuredBackend vllm(o, engine_->tokenizer());
        const std::pair<const char*, core::Backend*> backends[] = {
            {"chat", &chat}, {"systemone", &systemone}, {"vllm", &vllm}};
        for (auto [name, backend] : backends) {
            // A ticket no other test sends: its prompt is not in the server's cache yet.
            const json state = {{"ticket", std::string("Cache probe over ") + name +
                                               ": the export page has been blank since Monday."}};
            const core::DecideRequest r{schema_, state, 7};
            auto first = backend->decide(r, {}, {});
            QVERIFY2(first.ok(), first.ok() ? name : first.error().message.c_str());
            QVERIFY2(first->prompt_tokens > 0, name);
            auto again = backend->decide(r, {}, {});
            QVERIFY2(again.ok(), again.ok() ? name : again.error().message.c_str());
            QCOMPARE(again->prompt_tokens, first->prompt_tokens);
            QVERIFY2(again->cached_prompt_tokens == again->prompt_tokens,
                     qPrintable(QString("%1: %2 of %3 cached")
                                    .arg(name)
                                    .arg(again->cached_prompt_tokens)
                                    .arg(again->prompt_tokens)));
            expectSameDecision(*first, *again, 0);
            // A structured read is one request per canvas row: the second row of the first
            // decision already finds the first row's prompt cached. The other protocols send
            // one request, whose new ticket the cache cannot supply (their shared instructions
            // before it may come from earlier tests' prompts).
            const bool one_request_per_row = std::string_view(name) == "vllm";
            QVERIFY2(one_request_per_row ? first->cached_prompt_tokens == first->prompt_tokens
                                         : first->cached_prompt_tokens < first->prompt_tokens,
                     qPrintable(QString("%1: %2 of %3 cached on the first read")
                                    .arg(name)
                                    .arg(first->cached_prompt_tokens)
                                    .arg(first->prompt_tokens)));
        }
    }

    void dgemDecideRemote() {
        auto local = dgem({"decide", "--local", "--model", DS_TINY_MODEL_DIR, "--device", "cpu",
                           "-t", policy_, "--json"});
        QVERIFY2(local.code == 0, qPrintable(local.err));
        for (const char* protocol : {"chat", "systemone", "auto"}) {
            auto run = dgem(
                {"decide", "-u", url(*open_), "--protocol", protocol, "-t", policy_, "--json"});
            QVERIFY2(run.code == 0, qPrintable(QString(protocol) + ": " + run.err));
            auto a = json::parse(local.out.toStdString())["answers"];
            auto b = json::parse(run.out.toStdString())["answers"];
            for (const char* id : {"urgent", "team", "mood"})
                QCOMPARE(QString::fromStdString(a[id]["label"].dump()),
                         QString::fromStdString(b[id]["label"].dump()));
        }
        auto run =
            dgem({"decide", "-u", url(*open_), "--protocol", "vllm", "-t", policy_, "--json"});
        QVERIFY2(run.code == 0, qPrintable(run.err));
        // The policy was just decided over chat: the text output says the server's prefix
        // cache supplied the whole prompt.
        auto text =
            dgem({"decide", "-u", url(*open_), "--protocol", "chat", "-t", policy_, "--stats"});
        QVERIFY2(text.code == 0, qPrintable(text.err));
        QVERIFY2(QRegularExpression(QStringLiteral("prompt (\\d+) tokens \\(\\1 cached\\)"))
                     .match(text.out)
                     .hasMatch(),
                 qPrintable(text.out));
    }

    void generationAndStream() {
        core::GenerateRequest g;
        g.messages = {{"user", "Write one short sentence about rivers."}};
        g.max_tokens = 4;
        g.seed = 3;
        auto expected = local_->generate(g, {}, {});
        QVERIFY(expected.ok());
        core::OpenAiChatBackend plain(remote(*open_));
        auto viaPlain = plain.generate(g, {}, {});
        QVERIFY2(viaPlain.ok(), viaPlain.ok() ? "" : viaPlain.error().message.c_str());
        QCOMPARE(QString::fromStdString(viaPlain->text), QString::fromStdString(expected->text));

        auto o = remote(*open_);
        o.stream = true;
        core::OpenAiChatBackend streaming(o);
        std::string deltas;
        auto viaStream =
            streaming.generate(g, [&](const core::Progress& p) { deltas += p.text_delta; }, {});
        QVERIFY2(viaStream.ok(), viaStream.ok() ? "" : viaStream.error().message.c_str());
        QCOMPARE(QString::fromStdString(viaStream->text), QString::fromStdString(expected->text));
        QCOMPARE(QString::fromStdString(deltas), QString::fromStdString(expected->text));

        auto run = dgem({"ask", "-u", url(*open_), "--stream", "--max-tokens", "4", "--seed", "3",
                         "Write one short sentence about rivers."});
        QVERIFY2(run.code == 0, qPrintable(run.err));
        QCOMPARE(run.out.trimmed(), QString::fromStdString(expected->text).trimmed());
        auto localRun =
            dgem({"ask", "--local", "--model", DS_TINY_MODEL_DIR, "--device", "cpu", "--max-tokens",
                  "4", "--seed", "3", "Write one short sentence about rivers."});
        QVERIFY2(localRun.code == 0, qPrintable(localRun.err));
        QCOMPARE(localRun.out.trimmed(), QString::fromStdString(expected->text).trimmed());
    }

    // API_KEY bearer and rotated X-DGem-Key: both keys of "new,old" pass; wrong or missing fail.
    void authModes() {
        const std::string u = core::chat_completions_url(url(*locked_).toStdString());
        // A body that passes auth and then fails validation (400) needs no model time.
        const std::string body = R"({"messages": []})";
        auto bearer = std::make_shared<core::StaticTokenSource>("secret-bearer", "test");
        auto wrongBearer = std::make_shared<core::StaticTokenSource>("nope", "test");
        struct Case {
            std::shared_ptr<core::TokenSource> auth;
            std::string key;
            int status;
        };
        for (const auto& c : std::vector<Case>{{bearer, "new-key", 400},
                                               {bearer, "old-key", 400},
                                               {bearer, "wrong-key", 401},
                                               {bearer, "", 401},
                                               {wrongBearer, "new-key", 401},
                                               {nullptr, "new-key", 401}}) {
            auto r = rawPost(u, body, c.auth, c.key);
            QVERIFY(r.ok());
            QCOMPARE(r->status, c.status);
        }
        const QMap<QString, QString> good{{"DGEM_TOKEN", "secret-bearer"},
                                          {"DGEM_SERVER_KEY", "old-key, new-key"}};
        auto ok = dgem({"decide", "-u", url(*locked_), "--protocol", "chat", "-t", policy_}, good);
        QVERIFY2(ok.code == 0, qPrintable(ok.err));
        auto wrong = dgem({"decide", "-u", url(*locked_), "--protocol", "chat", "-t", policy_},
                          {{"DGEM_TOKEN", "secret-bearer"}, {"DGEM_SERVER_KEY", "stale"}});
        QCOMPARE(wrong.code, 3);
        QVERIFY2(wrong.err.contains("HTTP 401") && wrong.err.contains(url(*locked_)),
                 qPrintable(wrong.err));
        QVERIFY(!wrong.err.contains("secret-bearer") && !wrong.err.contains("stale"));
        auto missing = dgem({"decide", "-u", url(*locked_), "--protocol", "chat", "-t", policy_});
        QCOMPARE(missing.code, 3);
        QVERIFY2(missing.err.contains("missing bearer token"), qPrintable(missing.err));
        // dgem config shows where each value came from, secrets masked.
        auto cfg = dgem({"config", "-u", url(*locked_)}, good);
        QCOMPARE(cfg.code, 0);
        QVERIFY2(cfg.out.contains("flag --url") && cfg.out.contains("env DGEM_TOKEN"),
                 qPrintable(cfg.out));
        QVERIFY(!cfg.out.contains("secret-bearer") && !cfg.out.contains("old-key"));
    }

    void errorClasses() {
        const std::string chat = core::chat_completions_url(url(*open_).toStdString());
        // 400 malformed JSON, naming the position.
        auto bad = rawPost(chat, "{\"messages\": [ {\"role\": \"user\", }");
        QVERIFY(bad.ok());
        QCOMPARE(bad->status, 400);
        QVERIFY2(core::server_message(bad->body).find("line 1, column") != std::string::npos,
                 bad->body.c_str());
        // 422: a schema error on /v1/systemone names the question.
        auto s1 = core::server_root(url(*open_).toStdString()) + "/v1/systemone";
        auto invalid =
            rawPost(s1, R"({"state": {"x": 1}, "questions": {"tone": {"type": "vibes"}}})");
        QVERIFY(invalid.ok());
        QCOMPARE(invalid->status, 422);
        QVERIFY2(invalid->body.find("tone") != std::string::npos, invalid->body.c_str());
        // The decision form's schema error: 400 naming the question.
        json decision{
            {"messages",
             json::array(
                 {{{"role", "system"},
                   {"content", R"({"questions":[{"id":"q","type":"choice","options":[]}]})"}},
                  {{"role", "user"}, {"content", "{}"}}})}};
        auto schemaErr = rawPost(chat, decision.dump());
        QVERIFY(schemaErr.ok());
        QCOMPARE(schemaErr->status, 400);
        QVERIFY2(core::server_message(schemaErr->body).find("q") != std::string::npos,
                 schemaErr->body.c_str());
        // vLLM structured read: seed length differs from the width; an id outside the vocabulary.
        json read{{"messages", json::array({{{"role", "user"}, {"content", "x"}}})},
                  {"logprob_token_ids", {3, 4}},
                  {"vllm_xargs",
                   {{"diffusion_seed_canvas", {1, 2, 3}}, {"diffusion_canvas_length", 16}}}};
        auto widthErr = rawPost(chat, read.dump());
        QVERIFY(widthErr.ok());
        QCOMPARE(widthErr->status, 400);
        read["vllm_xargs"] = {{"diffusion_seed_canvas", {1, 2, 99999999}},
                              {"diffusion_canvas_length", 3}};
        auto vocabErr = rawPost(chat, read.dump());
        QVERIFY(vocabErr.ok());
        QCOMPARE(vocabErr->status, 400);
        QVERIFY(vocabErr->body.find("99999999") != std::string::npos);

        // 413: a body over the limit.
        core::ServerOptions small;
        small.port = 0;
        small.body_limit = 4096;
        core::DecisionServer tiny(local_, small);
        QVERIFY(tiny.start().ok());
        auto big =
            rawPost(core::chat_completions_url(url(tiny).toStdString()),
                    json{{"messages",
                          json::array({{{"role", "user"}, {"content", std::string(10000, 'x')}}})}}
                        .dump());
        QVERIFY(big.ok());
        QCOMPARE(big->status, 413);

        // Unreachable: exit 3 naming the URL.
        const QString dead = QStringLiteral("http://127.0.0.1:%1/v1").arg(tiny.port());
        tiny.stop();
        auto run = dgem({"decide", "-u", dead, "--protocol", "chat", "-t", policy_});
        QCOMPARE(run.code, 3);
        QVERIFY2(run.err.contains(dead), qPrintable(run.err));

        // A misbehaving server: garbage bodies and a 500 without JSON.
        httplib::Server garbage;
        garbage.Get("/health", [](const httplib::Request&, httplib::Response& r) {
            r.set_content("<html>", "text/html");
        });
        garbage.Post("/v1/chat/completions", [](const httplib::Request&, httplib::Response& r) {
            r.set_content("{\"choices\": [{\"message\": {\"content\": \"not json {\"}}]}",
                          "application/json");
        });
        garbage.Post("/v1/systemone", [](const httplib::Request&, httplib::Response& r) {
            r.status = 500;
            r.set_content("Internal <b>oops</b>", "text/html");
        });
        const int gport = garbage.bind_to_any_port("127.0.0.1");
        std::thread serve([&] { garbage.listen_after_bind(); });
        while (!garbage.is_running()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
        const QString gurl = QStringLiteral("http://127.0.0.1:%1/v1").arg(gport);
        auto g1 = dgem({"decide", "-u", gurl, "--protocol", "chat", "-t", policy_});
        QCOMPARE(g1.code, 3);
        QVERIFY2(g1.err.contains("not the JSON answer set"), qPrintable(g1.err));
        auto g2 = dgem({"decide", "-u", gurl, "--protocol", "systemone", "-t", policy_});
        QCOMPARE(g2.code, 3);
        QVERIFY2(g2.err.contains("HTTP 500") && g2.err.contains("oops"), qPrintable(g2.err));
        auto g3 = dgem({"health", "-u", gurl});
        QCOMPARE(g3.code, 3);
        garbage.stop();
        serve.join();
    }

    // The answers of a decision-form reply (its timings differ from call to call).
    static json answersOf(const std::string& reply) {
        const json r = json::parse(reply);
        return json::parse(r["choices"][0]["message"]["content"].get<std::string>())["answers"];
    }

    // A raw TCP connection to a server on loopback (for clients that misbehave on purpose).
    static int connectTo(const core::DecisionServer& server) {
        const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in addr{};
        addr.sin_family = AF_INET;
        addr.sin_port = htons(static_cast<uint16_t>(server.port()));
        addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
            ::close(fd);
            return -1;
        }
        return fd;
    }

    // Slowloris: a client that sends its headers and then trickles nothing. The others are
    // served meanwhile, and the server drops the slow one after its read timeout.
    void slowBodyDoesNotBlockOthers() {
        core::ServerOptions o;
        o.port = 0;
        o.max_inflight = 1;
        o.idle_timeout_s = 1;  // read timeout max(5, idle)
        core::DecisionServer server(local_, o);
        QVERIFY(server.start().ok());
        std::vector<int> slow;
        for (int i = 0; i < 4; ++i) {
            const int fd = connectTo(server);
            QVERIFY(fd >= 0);
            const std::string head =
                "POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Type: "
                "application/json\r\nContent-Length: 4000\r\n\r\n{\"messages\":";
            QVERIFY(::send(fd, head.data(), head.size(), 0) > 0);
            slow.push_back(fd);
        }
        auto ok = rawDecide(server);  // served while four bodies hang
        QVERIFY(ok.ok());
        QCOMPARE(ok->status, 200);
        // Each slow connection is closed by the server (recv sees EOF or a reply), bounded.
        for (int fd : slow) {
            timeval tv{30, 0};
            ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
            char buf[512];
            ssize_t n = 0;
            const auto t0 = std::chrono::steady_clock::now();
            while ((n = ::recv(fd, buf, sizeof buf, 0)) > 0) {
            }
            QVERIFY2(n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK),
                     "the server keeps a slow client forever");
            QVERIFY(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(30));
            ::close(fd);
        }
        auto after = rawDecide(server);
        QVERIFY(after.ok());
        QCOMPARE(after->status, 200);
        QCOMPARE(answersOf(after->body), answersOf(ok->body));
    }

    // Clients that send a whole request and hang up at once: the server stays up, its
    // admission counts return to zero, and the next answer is the same as before.
    void disconnectMidRequest() {
        core::ServerOptions o;
        o.port = 0;
        o.max_inflight = 2;
        core::DecisionServer server(local_, o);
        QVERIFY(server.start().ok());
        const uint64_t reads0 = engine_->scheduler_stats().reads;
        auto before = rawDecide(server);
        QVERIFY(before.ok());
        QCOMPARE(before->status, 200);
        const uint64_t reads_per_decision = engine_->scheduler_stats().reads - reads0;
        QVERIFY(reads_per_decision > 0);
        const uint64_t reads1 = engine_->scheduler_stats().reads;
        json body{{"messages", json::array({{{"role", "system"}, {"content", kSchema}},
                                            {{"role", "user"}, {"content", kState.dump()}}})}};
        const std::string text = body.dump();
        for (int i = 0; i < 8; ++i) {
            const int fd = connectTo(server);
            QVERIFY(fd >= 0);
            const std::string request =
                "POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Type: "
                "application/json\r\nContent-Length: " +
                std::to_string(text.size()) + "\r\n\r\n" + (i % 2 ? text : text.substr(0, 40));
            QVERIFY(::send(fd, request.data(), request.size(), MSG_NOSIGNAL) > 0);
            ::close(fd);  // gone before any reply (half the bodies cut short too)
        }
        // The four whole bodies are decided although their clients are gone; until those reads
        // have run, "nothing in flight" could also mean "not admitted yet" (a poll right after
        // the sends can come first), so the counts are checked only after them.
        QTRY_VERIFY_WITH_TIMEOUT(
            engine_->scheduler_stats().reads >= reads1 + 4 * reads_per_decision, 60000);
        QTRY_VERIFY_WITH_TIMEOUT(healthOf(server).value("inflight", -1) == 0 &&
                                     healthOf(server).value("queued", -1) == 0,
                                 60000);
        auto after = rawDecide(server);
        QVERIFY(after.ok());
        QCOMPARE(after->status, 200);
        QCOMPARE(answersOf(after->body), answersOf(before->body));
    }

    // A bare POST of the decision form, no client retries: what the server itself answers.
    core::Result<core::HttpResponse> rawDecide(core::DecisionServer& server) const {
        core::TransportOptions t;
        t.max_retries = 0;
        json body{{"messages", json::array({{{"role", "system"}, {"content", kSchema}},
                                            {{"role", "user"}, {"content", kState.dump()}}})}};
        return core::HttpTransport(t).post_json(
            core::chat_completions_url(url(server).toStdString()), body.dump(), {});
    }

    json healthOf(core::DecisionServer& server) const {
        auto r =
            core::HttpTransport().get(core::server_root(url(server).toStdString()) + "/health", {});
        return r.ok() && r->status == 200 ? json::parse(r->body) : json();
    }

    // Polls /health until `queued` reaches n (bounded): the queue is observed, never assumed.
    bool waitQueued(core::DecisionServer& server, int n) const {
        for (int i = 0; i < 3000; ++i) {
            if (healthOf(server).value("queued", -1) == n) return true;
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        }
        return false;
    }

    // MAX_INFLIGHT: past the bound a request waits its turn and is served; /health counts it.
    void admissionQueuesInsteadOfRefusing() {
        auto gated = std::make_shared<GatedBackend>(local_);
        core::ServerOptions o;
        o.port = 0;
        o.max_inflight = 1;
        core::DecisionServer server(gated, o);
        QVERIFY(server.start().ok());
        auto first = std::async(std::launch::async, [&] { return rawDecide(server); });
        QVERIFY(gated->entered.tryAcquire(1, 30000));  // the first decision holds the only slot
        auto second = std::async(std::launch::async, [&] { return rawDecide(server); });
        QVERIFY(waitQueued(server, 1));
        const json h = healthOf(server);
        QCOMPARE(h["inflight"], 1);
        QCOMPARE(h["max_inflight"], 1);
        QCOMPARE(h["max_queue"], 256);
        QCOMPARE(h["inflight_wait_s"], 30);
        gated->gate.release(2);
        auto a = first.get();
        auto b = second.get();
        QVERIFY(a.ok() && b.ok());
        QCOMPARE(a->status, 200);
        QCOMPARE(b->status, 200);  // queued, then served: no 503
        QCOMPARE(answersOf(a->body), answersOf(b->body));
        QCOMPARE(healthOf(server)["queued"], 0);
        QCOMPARE(healthOf(server)["inflight"], 0);
    }

    // MAX_QUEUE: past the queue bound 503 overloaded comes at once, with Retry-After.
    void admissionQueueFullIsImmediate() {
        auto gated = std::make_shared<GatedBackend>(local_);
        core::ServerOptions o;
        o.port = 0;
        o.max_inflight = 1;
        o.max_queue = 1;
        o.retry_after_s = 2;
        core::DecisionServer server(gated, o);
        QVERIFY(server.start().ok());
        auto first = std::async(std::launch::async, [&] { return rawDecide(server); });
        QVERIFY(gated->entered.tryAcquire(1, 30000));
        auto second = std::async(std::launch::async, [&] { return rawDecide(server); });
        QVERIFY(waitQueued(server, 1));
        auto third = rawDecide(server);  // the queue is full: refused without waiting
        QVERIFY(third.ok());
        QCOMPARE(third->status, 503);
        QCOMPARE(QString::fromStdString(third->header("retry-after")), QString("2"));
        const json err = json::parse(third->body)["error"];
        QCOMPARE(err["type"], "overloaded");
        QVERIFY2(err["message"].get<std::string>().find("MAX_QUEUE") != std::string::npos,
                 err.dump().c_str());
        gated->gate.release(2);
        QCOMPARE(first.get()->status, 200);
        QCOMPARE(second.get()->status, 200);
    }

    // INFLIGHT_WAIT_S: a request that waited that long without a slot gets 503 then, not before.
    void admissionWaitBound() {
        auto gated = std::make_shared<GatedBackend>(local_);
        core::ServerOptions o;
        o.port = 0;
        o.max_inflight = 1;
        o.inflight_wait_s = 1;
        core::DecisionServer server(gated, o);
        QVERIFY(server.start().ok());
        auto first = std::async(std::launch::async, [&] { return rawDecide(server); });
        QVERIFY(gated->entered.tryAcquire(1, 30000));
        const auto t0 = std::chrono::steady_clock::now();
        auto late = rawDecide(server);
        const double waited =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        QVERIFY(late.ok());
        QCOMPARE(late->status, 503);
        QVERIFY2(waited >= 0.99, qPrintable(QString::number(waited)));  // not refused early
        const json err = json::parse(late->body)["error"];
        QCOMPARE(err["type"], "overloaded");
        QVERIFY2(err["message"].get<std::string>().find("INFLIGHT_WAIT_S") != std::string::npos,
                 err.dump().c_str());
        gated->gate.release(1);
        QCOMPARE(first.get()->status, 200);
    }

    // Stopping under load: what waits gets 503 at once, what runs finishes with 200.
    void gracefulStopUnderLoad() {
        auto gated = std::make_shared<GatedBackend>(local_);
        core::ServerOptions o;
        o.port = 0;
        o.max_inflight = 1;
        core::DecisionServer server(gated, o);
        QVERIFY(server.start().ok());
        auto running = std::async(std::launch::async, [&] { return rawDecide(server); });
        QVERIFY(gated->entered.tryAcquire(1, 30000));
        auto waiting = std::async(std::launch::async, [&] { return rawDecide(server); });
        QVERIFY(waitQueued(server, 1));
        auto stopping = std::async(std::launch::async, [&] { server.stop(); });
        auto w = waiting.get();  // answered while the running decision still holds its slot
        QVERIFY(w.ok());
        QCOMPARE(w->status, 503);
        QVERIFY(json::parse(w->body)["error"]["message"].get<std::string>().find("stopping") !=
                std::string::npos);
        QCOMPARE(stopping.wait_for(std::chrono::milliseconds(200)), std::future_status::timeout);
        gated->gate.release(1);
        auto r = running.get();
        QVERIFY(r.ok());
        QCOMPARE(r->status, 200);
        stopping.get();
        QVERIFY(!server.running());
    }

    // --gcp-auth with a fake gcloud on PATH: the server rejects the first token; dgem refreshes
    // once.
    void gcpAuth() {
        QTemporaryDir bin;
        const QString log = bin.filePath("calls.log");
        QFile script(bin.filePath("gcloud"));
        QVERIFY(script.open(QIODevice::WriteOnly));
        script.write(
            QStringLiteral(
                "#!/bin/sh\necho \"$@\" >> '%1'\nn=$(wc -l < '%1')\necho \"gcp-token-$n\"\n")
                .arg(log)
                .toUtf8());
        script.close();
        script.setPermissions(script.permissions() | QFileDevice::ExeOwner);
        core::ServerOptions o;
        o.port = 0;
        o.api_key = "gcp-token-2";  // the first token minted is "revoked"
        core::DecisionServer server(local_, o);
        QVERIFY(server.start().ok());
        const QMap<QString, QString> env{{"PATH", bin.path() + ":" + qEnvironmentVariable("PATH")}};
        auto run = dgem(
            {"decide", "-u", url(server), "--gcp-auth", "--protocol", "chat", "-t", policy_}, env);
        QVERIFY2(run.code == 0, qPrintable(run.err));
        QFile calls(log);
        QVERIFY(calls.open(QIODevice::ReadOnly));
        const QStringList lines =
            QString::fromUtf8(calls.readAll()).split('\n', Qt::SkipEmptyParts);
        QCOMPARE(lines, QStringList({"auth print-identity-token", "auth print-identity-token"}));
        calls.close();
        QFile::remove(log);
        // A Vertex-style URL takes an access token.
        const QString vertex =
            QStringLiteral("http://127.0.0.1:%1/invoke/v1/chat/completions").arg(server.port());
        auto v =
            dgem({"decide", "-u", vertex, "--gcp-auth", "--protocol", "chat", "-t", policy_}, env);
        QVERIFY2(v.code == 0, qPrintable(v.err));
        QVERIFY(calls.open(QIODevice::ReadOnly));
        QVERIFY(QString::fromUtf8(calls.readAll()).startsWith("auth print-access-token"));
        QVERIFY(!v.err.contains("gcp-token"));
        // A failing gcloud is exit 3 with gcloud's own message.
        script.open(QIODevice::WriteOnly);
        script.write("#!/bin/sh\necho 'ERROR: no active account' >&2\nexit 1\n");
        script.close();
        auto fail = dgem(
            {"decide", "-u", url(server), "--gcp-auth", "--protocol", "chat", "-t", policy_}, env);
        QCOMPARE(fail.code, 3);
        QVERIFY2(fail.err.contains("no active account"), qPrintable(fail.err));
    }

    void jwtExpiry() {
        // {"alg":"none"}.{"exp":1900000000}.sig
        const std::string token = "eyJhbGciOiJub25lIn0.eyJleHAiOjE5MDAwMDAwMDB9.c2ln";
        QCOMPARE(core::jwt_expiry(token).value_or(0), int64_t(1900000000));
        QVERIFY(!core::jwt_expiry("opaque-access-token").has_value());
        QVERIFY(
            core::is_vertex_url("https://x.prediction.vertexai.goog/invoke/v1/chat/completions"));
        QVERIFY(
            core::is_vertex_url("https://us-central1-aiplatform.googleapis.com/v1/projects/p/"
                                "locations/l/endpoints/1:rawPredict"));
        QVERIFY(!core::is_vertex_url("https://dgem-abc.a.run.app/v1"));
        QCOMPARE(QString::fromStdString(
                     core::chat_completions_url("https://x.prediction.vertexai.goog/v1")),
                 QString("https://x.prediction.vertexai.goog/invoke/v1/chat/completions"));
    }

    // 32 concurrent clients x 20 decisions: no errors, answers identical to sequential runs.
    void loadTest() {
        // Default admission (MAX_INFLIGHT 8, a queue behind it): 32 clients never see a 503, and
        // every answer equals the same request made alone, bit for bit, three times over.
        constexpr int kClients = 32, kPerClient = 20, kSeeds = 8, kRounds = 3;
        core::ServerOptions o;
        o.port = 0;
        core::DecisionServer server(local_, o);
        QVERIFY(server.start().ok());
        core::DgemChatBackend client(remote(server));
        std::vector<core::Decision> sequential;
        for (int s = 0; s < kSeeds; ++s) {
            auto d = client.decide(request(100 + s), {}, {});
            QVERIFY(d.ok());
            sequential.push_back(*d);
        }
        for (int round = 0; round < kRounds; ++round) {
            std::atomic<int> errors{0}, mismatches{0};
            std::vector<std::thread> threads;
            const auto started = std::chrono::steady_clock::now();
            for (int c = 0; c < kClients; ++c)
                threads.emplace_back([&, c] {
                    core::RemoteOptions ro = remote(server);
                    ro.transport.max_retries = 0;  // a 503 counts as an error, not a retry
                    core::DgemChatBackend own(ro);
                    for (int i = 0; i < kPerClient; ++i) {
                        const int s = (c + i + round) % kSeeds;
                        auto d = own.decide(request(100 + s), {}, {});
                        if (!d) {
                            ++errors;
                            continue;
                        }
                        for (size_t q = 0; q < d->questions.size(); ++q)
                            if (d->questions[q].mean != sequential[s].questions[q].mean)
                                ++mismatches;
                    }
                });
            for (auto& t : threads) t.join();
            const double secs =
                std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
            qInfo("load round %d: %d decisions in %.1f s (%.1f/s)", round, kClients * kPerClient,
                  secs, kClients * kPerClient / secs);
            QCOMPARE(errors.load(), 0);
            QCOMPARE(mismatches.load(), 0);
        }
    }

    // The real binary: --port 0, a decision, then SIGTERM -> exit 0.
    void serveBinaryGracefulStop() {
        QProcess serve;
        QProcessEnvironment e = QProcessEnvironment::systemEnvironment();
        e.insert("DGEM_SERVER_KEY", "k1,k2");
        serve.setProcessEnvironment(e);
        serve.start(QStringLiteral(DS_BIN_DIR "/dgem"),
                    {"serve", "--model", DS_TINY_MODEL_DIR, "--device", "cpu", "--port", "0"});
        QVERIFY(serve.waitForStarted());
        QString port;
        for (int i = 0; i < 600 && port.isEmpty(); ++i) {
            serve.waitForReadyRead(100);
            static QString seen;
            seen += QString::fromUtf8(serve.readAllStandardOutput());
            auto m = QRegularExpression("listening on http://[^:]+:(\\d+)").match(seen);
            if (m.hasMatch()) port = m.captured(1);
        }
        QVERIFY2(!port.isEmpty(), serve.readAllStandardError().constData());
        auto run = dgem({"decide", "-u", "http://127.0.0.1:" + port + "/v1", "-t", policy_},
                        {{"DGEM_SERVER_KEY", "k2"}});
        QVERIFY2(run.code == 0, qPrintable(run.err));
        serve.terminate();  // SIGTERM
        QVERIFY(serve.waitForFinished(30000));
        QCOMPARE(serve.exitStatus(), QProcess::NormalExit);
        QCOMPARE(serve.exitCode(), 0);
        const QString log = QString::fromUtf8(serve.readAllStandardError());
        QVERIFY2(log.contains("POST /v1/chat/completions 200"), qPrintable(log));
        QVERIFY(!log.contains("k2"));
    }
};

QTEST_GUILESS_MAIN(TestRemote)
#include "tst_remote.moc"
