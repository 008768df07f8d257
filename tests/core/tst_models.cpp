// Models found where people keep them (core/models): a fake Hugging Face cache made from the
// tiny model holds a complete snapshot, one with a missing shard, one with a broken link and one
// of another architecture; a folder of folders holds a truncated model. Each is listed with what
// is wrong, only the complete one can be chosen, its memory plan is set against the machine, and
// `dgem models list` (text and --json) says the same.
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include "core/fake_hf_cache.h"
#include "core/models.h"

namespace models = core::models;
namespace fs = std::filesystem;

namespace {

const models::ModelEntry* at(const std::vector<models::ModelEntry>& found, const fs::path& dir) {
    for (const auto& e : found)
        if (e.dir == dir) return &e;
    return nullptr;
}

bool mentions(const models::ModelEntry& e, const std::string& text) {
    for (const auto& p : e.problems)
        if (p.find(text) != std::string::npos) return true;
    return false;
}

}  // namespace

class TestModels : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    fake_hf::Cache cache_;

    models::ScanOptions options(uint64_t host_bytes) const {
        models::ScanOptions o;
        o.hub_dirs = {cache_.hub};
        o.folders = {cache_.folders};
        o.active = cache_.complete();
        o.machine.host_bytes = host_bytes;
        return o;
    }

  private Q_SLOTS:
    void initTestCase() {
        if (!fs::exists(fake_hf::kTiny / "model.safetensors")) QSKIP("no tiny model built");
        cache_ = fake_hf::make(fs::path(dir_.path().toStdString()));
    }

    void findsEveryFolderWithWhatIsWrong() {
        const auto found = models::scan_models(options(64ull << 30));
        QCOMPARE(found.size(), size_t(5));
        // The complete snapshot: ready, bf16-stored tiny weights, its blobs' bytes, the active one.
        const auto* ok = at(found, cache_.complete());
        QVERIFY(ok);
        QCOMPARE(ok->name, std::string("google/diffusiongemma-tiny"));
        QCOMPARE(ok->revision, std::string("complete0001"));
        QCOMPARE(ok->source, models::Source::HubCache);
        QVERIFY2(ok->problems.empty(), ok->problems.empty() ? "" : ok->problems.front().c_str());
        QCOMPARE(ok->status, models::Status::Ready);
        QVERIFY(ok->choosable());
        QVERIFY(ok->active);
        QCOMPARE(ok->format, std::string("bf16"));
        uint64_t bytes = 0;
        for (const char* f :
             {"config.json", "generation_config.json", "model.safetensors", "tokenizer.json"})
            bytes += fs::file_size(fake_hf::kTiny / f);
        QCOMPARE(ok->size_bytes, bytes);
        QVERIFY(ok->plan.has_value());
        QVERIFY(ok->plan->host_bytes > 0);
        QVERIFY(ok->fits);
        QVERIFY2(ok->fit.starts_with("fits in host memory (needs "), ok->fit.c_str());
        // The missing shard, by name, and never choosable.
        const auto* missing = at(found, cache_.missing_shard());
        QVERIFY(missing);
        QCOMPARE(missing->status, models::Status::Incomplete);
        QVERIFY(!missing->choosable());
        QVERIFY(mentions(*missing,
                         "model-00002-of-00002.safetensors: missing (listed in "
                         "model.safetensors.index.json)"));
        QCOMPARE(missing->problems.size(), size_t(1));  // the first shard is whole
        // The broken link: reported with where it points, not followed.
        const auto* broken = at(found, cache_.broken_link());
        QVERIFY(broken);
        QCOMPARE(broken->status, models::Status::Incomplete);
        QVERIFY(mentions(*broken,
                         "model.safetensors: broken link (to ../../blobs/sha-not-downloaded)"));
        QVERIFY(!broken->choosable());
        // Another architecture: the engine's reason.
        const auto* foreign = at(found, cache_.foreign());
        QVERIFY(foreign);
        QCOMPARE(foreign->name, std::string("meta/llama-foreign"));
        QCOMPARE(foreign->status, models::Status::Foreign);
        QVERIFY(mentions(*foreign, "model_type"));
        QVERIFY(mentions(*foreign, "llama"));
        QVERIFY(!foreign->choosable());
        // A truncated file: its header says how long it should be.
        const auto* cut = at(found, cache_.truncated());
        QVERIFY(cut);
        QCOMPARE(cut->source, models::Source::Folder);
        QCOMPARE(cut->status, models::Status::Incomplete);
        const std::string expected =
            "model.safetensors: truncated: 1048576 of " +
            std::to_string(fs::file_size(fake_hf::kTiny / "model.safetensors")) + " bytes";
        QVERIFY2(mentions(*cut, expected),
                 cut->problems.empty() ? "" : cut->problems.front().c_str());
        // Only the one marked active is.
        for (const auto& e : found) QCOMPARE(e.active, e.dir == cache_.complete());
    }

    // The plan against a machine it does not fit: the numbers, named.
    void doesNotFitSaysByHowMuch() {
        auto o = options(1'000'000);
        // No free device memory either: in builds with CUDA the plan has device bytes too, and a
        // device with room would take it.
        o.machine.devices = {{"cuda:0", 0ull, 24'000'000'000ull}};
        const auto found = models::scan_models(o);
        const auto* ok = at(found, cache_.complete());
        QVERIFY(ok && ok->plan);
        QVERIFY(!ok->fits);
        const std::string needs = "does not fit: needs " +
                                  engine::format_gigabytes(ok->plan->host_bytes) +
                                  ", host memory has 0.00 GB";
        QVERIFY2(ok->fit.starts_with(needs), ok->fit.c_str());
        QVERIFY(ok->choosable());  // complete files: the person may still choose it
    }

    // The active folder is listed even when no hub or folder holds it.
    void activeListedWherever() {
        models::ScanOptions o;
        o.hub_dirs = {cache_.hub / "nothing-here"};
        o.active = fake_hf::kTiny;
        o.machine.host_bytes = 64ull << 30;
        const auto found = models::scan_models(o);
        QCOMPARE(found.size(), size_t(1));
        QVERIFY(found.front().active);
        QCOMPARE(found.front().status, models::Status::Ready);
    }

    // A folder added twice, or as the model folder itself, is listed once.
    void eachFolderOnce() {
        auto o = options(64ull << 30);
        o.hub_dirs = {cache_.hub};
        o.folders = {cache_.folders, cache_.truncated(), cache_.hub};
        const auto found = models::scan_models(o);
        QCOMPARE(found.size(), size_t(5));
    }

    // The command says the same, as text and as JSON.
    void dgemModelsList() {
        QProcess p;
        p.start(QStringLiteral(DS_BIN_DIR "/dgem"),
                {"models", "list", "--hub", QString::fromStdString(cache_.hub.string()), "--folder",
                 QString::fromStdString(cache_.folders.string()), "--json"});
        QVERIFY(p.waitForFinished(120000));
        QCOMPARE(p.exitCode(), 0);
        const QJsonArray list = QJsonDocument::fromJson(p.readAllStandardOutput()).array();
        // The five, and the model `dgem --local` opens (the build's default: the demo model, or
        // the tiny one where no demo model is built), listed as active.
        QCOMPARE(list.size(), 6);
        int active = 0;
        for (const auto& v : list)
            if (v.toObject()["active"].toBool()) {
                ++active;
                QVERIFY(fs::equivalent(v.toObject()["dir"].toString().toStdString(),
                                       fs::path(DS_DEFAULT_MODEL_DIR)));
                QCOMPARE(v.toObject()["status"].toString(), QStringLiteral("ready"));
            }
        QCOMPARE(active, 1);
        std::map<QString, QJsonObject> by_dir;
        for (const auto& v : list) by_dir[v.toObject()["dir"].toString()] = v.toObject();
        const auto entry = [&](const fs::path& d) {
            return by_dir[QString::fromStdString(d.string())];
        };
        QCOMPARE(entry(cache_.complete())["status"].toString(), QStringLiteral("ready"));
        QCOMPARE(entry(cache_.complete())["choosable"].toBool(), true);
        QCOMPARE(entry(cache_.complete())["format"].toString(), QStringLiteral("bf16"));
        QVERIFY(entry(cache_.complete())["plan"].toObject()["host_bytes"].toDouble() > 0);
        QCOMPARE(entry(cache_.missing_shard())["status"].toString(), QStringLiteral("incomplete"));
        QVERIFY(entry(cache_.missing_shard())["problems"].toArray().first().toString().contains(
            "model-00002-of-00002.safetensors: missing"));
        QCOMPARE(entry(cache_.broken_link())["status"].toString(), QStringLiteral("incomplete"));
        QCOMPARE(entry(cache_.foreign())["status"].toString(), QStringLiteral("foreign"));
        QCOMPARE(entry(cache_.truncated())["choosable"].toBool(), false);

        QProcess text;
        text.start(QStringLiteral(DS_BIN_DIR "/dgem"),
                   {"models", "list", "--hub", QString::fromStdString(cache_.hub.string())});
        QVERIFY(text.waitForFinished(120000));
        QCOMPARE(text.exitCode(), 0);
        const QString out = QString::fromUtf8(text.readAllStandardOutput());
        QVERIFY2(out.contains("google/diffusiongemma-tiny@complete0001  [ready]"), qPrintable(out));
        QVERIFY(
            out.contains("- model.safetensors: broken link (to ../../blobs/sha-not-downloaded)"));
        QVERIFY(out.contains("host memory available: "));
        QVERIFY(!out.contains("truncated"));  // not given as a folder this time

        // Bad input: a folder that is not one, an unknown action.
        QProcess bad;
        bad.start(QStringLiteral(DS_BIN_DIR "/dgem"),
                  {"models", "list", "--folder", "/no/such/dir"});
        QVERIFY(bad.waitForFinished(60000));
        QVERIFY(bad.exitCode() != 0);
        QVERIFY(QString::fromUtf8(bad.readAllStandardError())
                    .contains("--folder /no/such/dir: not a folder"));
        bad.start(QStringLiteral(DS_BIN_DIR "/dgem"), {"models", "remove"});
        QVERIFY(bad.waitForFinished(60000));
        QVERIFY(bad.exitCode() != 0);
    }
};

QTEST_MAIN(TestModels)
#include "tst_models.moc"
