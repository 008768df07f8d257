// Endpoint profiles: stored in settings without secrets, seeded from DGEM_* and .dgem.yaml; the
// token of a profile makes a round trip through the real system keychain (gnome-keyring in a
// private D-Bus session: scripts/test.sh), through the Endpoints dialog's own widgets.
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>
#include <QUuid>

#include "core/endpoints/endpoint_profiles.h"
#include "core/net/keychain.h"
#include "ui/endpoints/endpoints_dialog.h"

namespace {
core::EnvLookup env_of(std::map<std::string, std::string> values) {
    return [values](const std::string& name) -> std::optional<std::string> {
        auto it = values.find(name);
        if (it == values.end()) return std::nullopt;
        return it->second;
    };
}
}  // namespace

class EndpointProfilesTest : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

  private Q_SLOTS:
    void seededFromTheEnvironment() {
        QSettings settings(dir_.filePath(QStringLiteral("seed.ini")), QSettings::IniFormat);
        core::ConfigPaths paths{dir_.filePath(QStringLiteral("none.yaml")).toStdString(),
                                dir_.filePath(QStringLiteral("none2.yaml")).toStdString()};
        auto store = core::EndpointProfileStore::load(
            settings, "/models/tiny",
            env_of({{"DGEM_URL", "https://decide.example.run.app/v1"},
                    {"DGEM_TIMEOUT", "30s"},
                    {"DGEM_MODEL", "dg"}}),
            paths);
        QCOMPARE(store.profiles.size(), size_t(2));
        QCOMPARE(store.activeProfile()->kind,
                 core::EndpointKind::Local);  // the local model stays the default
        QCOMPARE(store.profiles[0].model_dir, std::string("/models/tiny"));
        const auto& remote = store.profiles[1];
        QCOMPARE(remote.url, std::string("https://decide.example.run.app/v1"));
        QCOMPARE(remote.model, std::string("dg"));
        QCOMPARE(remote.timeout_s, 30.0);
        // .dgem.yaml in the project folder seeds too.
        QFile yaml(dir_.filePath(QStringLiteral(".dgem.yaml")));
        QVERIFY(yaml.open(QIODevice::WriteOnly));
        yaml.write("url: http://10.0.0.5:8080/v1\ntimeout: 45\n");
        yaml.close();
        QSettings fresh(dir_.filePath(QStringLiteral("seed2.ini")), QSettings::IniFormat);
        auto from_yaml = core::EndpointProfileStore::load(
            fresh, "/m", env_of({}), {yaml.fileName().toStdString(), paths.user_file});
        QCOMPARE(from_yaml.profiles.size(), size_t(2));
        QCOMPARE(from_yaml.profiles[1].url, std::string("http://10.0.0.5:8080/v1"));
        QCOMPARE(from_yaml.profiles[1].timeout_s, 45.0);
        // Nothing configured: only the local engine.
        QSettings none(dir_.filePath(QStringLiteral("seed3.ini")), QSettings::IniFormat);
        auto local_only = core::EndpointProfileStore::load(none, "/m", env_of({}), paths);
        QCOMPARE(local_only.profiles.size(), size_t(1));
    }

    void storedWithoutSecrets() {
        const QString file = dir_.filePath(QStringLiteral("store.ini"));
        core::EndpointProfileStore store;
        core::EndpointProfile p;
        p.name = "Cloud Run";
        p.kind = core::EndpointKind::DgemChat;
        p.url = "https://x.run.app/v1";
        p.auth = core::AuthMode::GcloudIdentity;
        p.server_key = true;
        store.profiles = {p};
        store.active = p.name;
        {
            QSettings settings(file, QSettings::IniFormat);
            store.save(settings);
        }
        QSettings settings(file, QSettings::IniFormat);
        auto back = core::EndpointProfileStore::load(settings, "", env_of({}), {});
        QCOMPARE(back.profiles.size(), size_t(1));
        QCOMPARE(back.profiles[0].kind, core::EndpointKind::DgemChat);
        QCOMPARE(back.profiles[0].auth, core::AuthMode::GcloudIdentity);
        QVERIFY(back.profiles[0].server_key);
        QCOMPARE(back.active, std::string("Cloud Run"));
    }

    void tokenRoundTripThroughTheKeychain() {
        if (qEnvironmentVariableIsEmpty("DBUS_SESSION_BUS_ADDRESS"))
            QSKIP(
                "no D-Bus session: run through scripts/test.sh (dbus-run-session + gnome-keyring)");
        const std::string url = "http://127.0.0.1:9/v1/" +
                                QUuid::createUuid().toString(QUuid::WithoutBraces).toStdString();
        core::EndpointProfileStore store;
        core::EndpointProfile p;
        p.name = "Keychain test";
        p.kind = core::EndpointKind::DgemChat;
        p.url = url;
        p.auth = core::AuthMode::Token;
        store.profiles = {p};
        store.active = p.name;

        // Save the token through the dialog, as a person would.
        ui::EndpointsDialog dialog(store);
        QLineEdit* token = nullptr;
        for (QLineEdit* e : dialog.findChildren<QLineEdit*>())
            if (e->echoMode() == QLineEdit::Password && e->isEnabled()) token = e;
        QVERIFY(token);
        token->setText(QStringLiteral("s3cret-token-42"));
        QPushButton* save = nullptr;
        for (QPushButton* b : dialog.findChildren<QPushButton*>())
            if (b->text() == QStringLiteral("Save &token")) save = b;
        QVERIFY(save);
        save->click();
        QVERIFY2(dialog.statusText().contains(QStringLiteral("keychain")),
                 qPrintable(dialog.statusText()));
        QVERIFY(token->text().isEmpty());  // the field does not keep it

        auto stored = core::keychain_read(core::token_keychain_key(p));
        QVERIFY2(stored.ok(), stored.ok() ? "" : stored.error().message.c_str());
        QVERIFY(stored->has_value());
        QCOMPARE(**stored, std::string("s3cret-token-42"));
        auto secrets = core::read_profile_secrets(p, env_of({}));
        QVERIFY(secrets.ok());
        QCOMPARE(secrets->token, std::string("s3cret-token-42"));

        // Settings never see it.
        const QString file = dir_.filePath(QStringLiteral("secret-check.ini"));
        {
            QSettings settings(file, QSettings::IniFormat);
            dialog.store().save(settings);
        }
        QFile ini(file);
        QVERIFY(ini.open(QIODevice::ReadOnly));
        QVERIFY(!ini.readAll().contains("s3cret"));

        // Deleted: the profile then says where a token is missing (DGEM_TOKEN is the fallback).
        QVERIFY(core::keychain_delete(core::token_keychain_key(p)).ok());
        auto missing = core::read_profile_secrets(p, env_of({}));
        QVERIFY(!missing.ok());
        QVERIFY(missing.error().message.find("Keychain test") != std::string::npos);
        auto from_env = core::read_profile_secrets(p, env_of({{"DGEM_TOKEN", "env-token"}}));
        QVERIFY(from_env.ok());
        QCOMPARE(from_env->token, std::string("env-token"));
    }
};

QTEST_MAIN(EndpointProfilesTest)
#include "tst_endpoint_profiles.moc"
