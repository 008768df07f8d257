// Profile -> backend, off the caller's thread (see core/endpoints/endpoint_session.h).
#include "core/endpoints/endpoint_session.h"

namespace core {

EndpointSession::EndpointSession(QObject* parent)
    : QObject(parent), worker_(new WorkerRunner(this)) {}

bool EndpointSession::select(const EndpointProfile* profile) {
    if (profile && profile->kind == EndpointKind::Local && same(*profile) &&
        (backend_ || building()))
        return true;
    forget();
    return false;
}

void EndpointSession::forget() {
    worker_->cancel();
    backend_.reset();
    profile_ = EndpointProfile{};
    stage_.clear();
    fraction_ = -1;
}

void EndpointSession::setProgress(const QString& stage, double fraction) {
    stage_ = stage;
    fraction_ = fraction;
    Q_EMIT progress(stage, fraction);
}

Result<void> EndpointSession::build(const EndpointProfile& profile) {
    auto secrets = read_profile_secrets(profile, process_environment());
    if (!secrets) return secrets.error();
    backend_.reset();
    profile_ = profile;
    // Starting mutes an older build (its progress and its result); it is cancelled too.
    worker_->start([this, profile, secrets = secrets.value()](const WorkerRunner::Job& job) {
        ProgressFn on_progress = [this, &job](const Progress& p) {
            job.post([this, stage = QString::fromStdString(p.stage), f = p.fraction] {
                setProgress(stage, f);
            });
        };
        auto made = make_profile_backend(profile, secrets, job.cancel(), on_progress);
        job.finish([this, made = std::move(made)] {
            stage_.clear();
            fraction_ = -1;
            if (!made) {
                profile_.name.clear();
                Q_EMIT failed(made.error());
                return;
            }
            backend_ = made.value();
            Q_EMIT built(backend_);
        });
    });
    setProgress(profile.remote() ? QStringLiteral("connecting") : QStringLiteral("reading"),
                profile.remote() ? -1 : 0);
    return {};
}

}  // namespace core
