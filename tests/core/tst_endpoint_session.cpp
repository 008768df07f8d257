// The endpoint use case and the worker-thread runner under it: a job's reports arrive on the
// runner's thread, a newer job or cancel() mutes an older one, and the endpoint session builds a
// profile's backend with progress and cancel, keeps the opened local engine while its profile is
// unchanged, and builds a remote profile again every time; a profile becomes the same
// BackendSpec the command line builds from its flags.
#include <QSignalSpy>
#include <QTest>
#include <QThread>
#include <atomic>

#include "core/endpoints/backend_factory.h"
#include "core/endpoints/endpoint_session.h"
#include "core/endpoints/worker_runner.h"

namespace {
core::EndpointProfile tiny_profile() {
    core::EndpointProfile p;
    p.name = "tiny";
    p.kind = core::EndpointKind::Local;
    p.model_dir = DS_TINY_MODEL_DIR;
    p.device = "cpu";
    return p;
}
}  // namespace

class EndpointSessionTest : public QObject {
    Q_OBJECT

  private Q_SLOTS:
    void runnerDeliversOnItsThread() {
        core::WorkerRunner runner;
        QThread* delivered_on = nullptr;
        QThread* worked_on = nullptr;
        int posted = 0;
        runner.start([&](const core::WorkerRunner::Job& job) {
            worked_on = QThread::currentThread();
            job.post([&] { ++posted; });
            job.finish([&] { delivered_on = QThread::currentThread(); });
        });
        QVERIFY(runner.busy());
        QVERIFY(runner.waitForIdle(10000));
        QCOMPARE(posted, 1);
        QCOMPARE(delivered_on, QThread::currentThread());
        QVERIFY(worked_on != QThread::currentThread());
    }

    void newerJobMutesTheOlder() {
        core::WorkerRunner runner;
        std::atomic<bool> release{false};
        int old_reports = 0, new_reports = 0;
        runner.start([&](const core::WorkerRunner::Job& job) {
            while (!release.load() && !job.cancel().cancelled()) QThread::msleep(1);
            job.finish([&] { ++old_reports; });
        });
        runner.start(
            [&](const core::WorkerRunner::Job& job) { job.finish([&] { ++new_reports; }); });
        release = true;
        QVERIFY(runner.waitForIdle(10000));
        QTest::qWait(50);
        QCOMPARE(old_reports, 0);
        QCOMPARE(new_reports, 1);
    }

    void cancelMutesAndIdles() {
        core::WorkerRunner runner;
        int reports = 0;
        runner.start([&](const core::WorkerRunner::Job& job) {
            while (!job.cancel().cancelled()) QThread::msleep(1);
            job.finish([&] { ++reports; });
        });
        runner.cancel();
        QVERIFY(!runner.busy());
        QVERIFY(runner.waitForIdle(10000));
        QTest::qWait(50);
        QCOMPARE(reports, 0);
    }

    void profileBecomesABackendSpec() {
        auto local = core::backend_spec(tiny_profile(), {});
        QVERIFY(local.ok());
        const auto* engine = std::get_if<core::LocalEngineSpec>(&local->where);
        QVERIFY(engine);
        QCOMPARE(engine->model_dir.string(), std::string(DS_TINY_MODEL_DIR));
        QVERIFY(engine->device == core::EngineDevice::Cpu);
        QVERIFY(engine->warm_up);

        core::EndpointProfile remote;
        remote.name = "vllm";
        remote.kind = core::EndpointKind::Vllm;
        remote.url = "http://127.0.0.1:9/v1";
        remote.auth = core::AuthMode::Token;
        auto spec = core::backend_spec(remote, {"secret-token", "server-key", ""});
        QVERIFY(spec.ok());
        const auto* server = std::get_if<core::RemoteSpec>(&spec->where);
        QVERIFY(server);
        QVERIFY(server->protocol == core::RemoteProtocol::Vllm);
        QCOMPARE(server->options.transport.server_key, std::string("server-key"));
        QVERIFY(server->options.transport.auth != nullptr);
        // No tokenizer folder: building says what the profile lacks, before any request.
        auto built = core::build_backend(*spec);
        QVERIFY(!built.ok());
        QVERIFY2(built.error().message.find("tokenizer folder") != std::string::npos,
                 built.error().message.c_str());

        remote.url.clear();
        auto no_url = core::backend_spec(remote, {});
        QVERIFY(!no_url.ok());
        QVERIFY(no_url.error().message.find("no URL") != std::string::npos);
    }

    void sessionBuildsAndKeepsTheLocalEngine() {
        core::EndpointSession session;
        QSignalSpy progress(&session, &core::EndpointSession::progress);
        QSignalSpy built(&session, &core::EndpointSession::built);
        const core::EndpointProfile profile = tiny_profile();
        QVERIFY(session.build(profile).ok());
        QVERIFY(session.buildingFor(profile));
        QCOMPARE(session.stage(), QStringLiteral("reading"));
        QVERIFY(built.wait(120000));
        QVERIFY(session.readyFor(profile));
        QVERIFY(!session.building());
        QVERIFY(progress.size() > 1);
        const auto backend = session.backend();

        // The same profile again: the opened engine stays.
        QVERIFY(session.select(&profile));
        QCOMPARE(session.backend(), backend);
        // A changed profile: forgotten.
        core::EndpointProfile changed = profile;
        changed.device = "auto";
        QVERIFY(!session.select(&changed));
        QVERIFY(!session.backend());
        QVERIFY(!session.readyFor(profile));
    }

    void sessionCancelsTheBuild() {
        core::EndpointSession session;
        QSignalSpy failed(&session, &core::EndpointSession::failed);
        QVERIFY(session.build(tiny_profile()).ok());
        session.cancelBuild();
        QVERIFY(failed.wait(120000));
        QVERIFY(failed.first().first().value<engine::Error>().kind == engine::ErrorKind::Cancelled);
        QVERIFY(!session.backend());
        QVERIFY(!session.building());
    }

    void remoteProfilesAreNotKept() {
        core::EndpointSession session;
        core::EndpointProfile remote;
        remote.name = "server";
        remote.kind = core::EndpointKind::DgemChat;
        remote.url = "http://127.0.0.1:9/v1";
        QSignalSpy built(&session, &core::EndpointSession::built);
        QVERIFY(session.build(remote).ok());  // chat needs no request to be made
        QVERIFY(built.wait(10000));
        QVERIFY(session.readyFor(remote));
        // Selected again (a token may have been saved meanwhile): built again.
        QVERIFY(!session.select(&remote));
        QVERIFY(!session.backend());
    }
};

QTEST_GUILESS_MAIN(EndpointSessionTest)
#include "tst_endpoint_session.moc"
