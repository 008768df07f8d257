// Worker-thread execution of Backend calls (see core/endpoints/backend_runner.h).
#include "core/endpoints/backend_runner.h"

#include <QCoreApplication>

#include "core/decide/cascade.h"

namespace core {
namespace {
// The stages the backends report (core/decide/backend.h, local_backend.cpp, remote_backends.cpp)
// and the numbered ones ("decoding canvas 2") without their number.
constexpr const char* kStages[] = {
    QT_TRANSLATE_NOOP("core::BackendRunner", "loading model"),
    QT_TRANSLATE_NOOP("core::BackendRunner", "planning"),
    QT_TRANSLATE_NOOP("core::BackendRunner", "encoding"),
    QT_TRANSLATE_NOOP("core::BackendRunner", "thinking"),
    QT_TRANSLATE_NOOP("core::BackendRunner", "decoding"),
    QT_TRANSLATE_NOOP("core::BackendRunner", "generating"),
    QT_TRANSLATE_NOOP("core::BackendRunner", "waiting for server"),
    QT_TRANSLATE_NOOP("core::BackendRunner", "reading canvas rows"),
    QT_TRANSLATE_NOOP("core::BackendRunner", "asking stage 2"),
    QT_TRANSLATE_NOOP("core::BackendRunner", "done"),
};
constexpr const char* kNumberedStages[] = {
    QT_TRANSLATE_NOOP("core::BackendRunner", "decoding canvas %1"),
};
}  // namespace

QString progress_stage_text(const QString& stage) {
    const QByteArray utf8 = stage.toUtf8();
    for (const char* s : kStages)
        if (utf8 == s) return QCoreApplication::translate("core::BackendRunner", s);
    // "<words> <number>": the numbered form with %1.
    const qsizetype space = stage.lastIndexOf(QLatin1Char(' '));
    bool numbered = false;
    const int n = space > 0 ? stage.mid(space + 1).toInt(&numbered) : 0;
    if (numbered) {
        const QByteArray pattern = stage.left(space).toUtf8() + " %1";
        for (const char* s : kNumberedStages)
            if (pattern == s) return QCoreApplication::translate("core::BackendRunner", s).arg(n);
    }
    return stage;
}

BackendRunner::BackendRunner(QObject* parent) : QObject(parent), worker_(new WorkerRunner(this)) {
    connect(worker_, &WorkerRunner::busyChanged, this, &BackendRunner::busyChanged);
}

BackendRunner::~BackendRunner() = default;  // the worker runner cancels and waits

void BackendRunner::setBackend(std::shared_ptr<Backend> backend) {
    cancel();
    backend_ = std::move(backend);
}

void BackendRunner::cancel() {
    worker_->cancel();
}

template <class Call, class Done>
bool BackendRunner::start(Call call, Done done) {
    if (!backend_) return false;
    worker_->start([this, backend = backend_, call = std::move(call),
                    done = std::move(done)](const WorkerRunner::Job& job) {
        ProgressFn on_progress = [this, &job](const Progress& p) {
            job.post([this, stage = progress_stage_text(QString::fromStdString(p.stage)),
                      fraction = p.fraction] { Q_EMIT progress(stage, fraction); });
        };
        auto result = call(*backend, on_progress, job.cancel());
        if (result)
            job.finish([this, done, value = std::move(result.value())] { done(*this, value); });
        else
            job.finish([this, e = result.error()] { Q_EMIT failed(e); });
    });
    return true;
}

bool BackendRunner::decide(DecideRequest request, std::shared_ptr<Backend> judge) {
    return start(
        [request = std::move(request), judge = std::move(judge)](
            Backend& backend, const ProgressFn& on_progress, const CancelToken& token) {
            auto decision = backend.decide(request, on_progress, token);
            if (decision && judge && request.schema.cascade.mode != CascadeMode::Off) {
                if (on_progress) on_progress({"asking stage 2", -1, {}});
                CascadeOptions options;
                options.settings = request.schema.cascade;
                run_cascade(*decision, request, *judge, options, token);
            }
            return decision;
        },
        [](BackendRunner& r, const Decision& d) { Q_EMIT r.decided(d); });
}

bool BackendRunner::generate(GenerateRequest request) {
    return start(
        [request = std::move(request)](Backend& backend, const ProgressFn& on_progress,
                                       const CancelToken& token) {
            return backend.generate(request, on_progress, token);
        },
        [](BackendRunner& r, const Generation& g) { Q_EMIT r.generated(g); });
}

bool BackendRunner::checkHealth() {
    return start([](Backend& backend, const ProgressFn&,
                    const CancelToken& token) { return backend.health(token); },
                 [](BackendRunner& r, const HealthInfo& h) { Q_EMIT r.healthChecked(h); });
}

bool BackendRunner::waitForIdle(int timeout_ms) {
    return worker_->waitForIdle(timeout_ms);
}

}  // namespace core
