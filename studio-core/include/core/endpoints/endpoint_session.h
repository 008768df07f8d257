#pragma once
// The endpoint use case: from the active profile to a Backend a window can run on. It reads the
// profile's secrets on the caller's thread (the keychain needs its event loop), builds the
// backend on a worker thread (core::WorkerRunner) with progress and cancel, and keeps what it
// built: the opened local engine is reused while its profile is unchanged. A remote backend is
// built again whenever its profile is selected again, so a token saved meanwhile is used.

#include <QObject>
#include <QString>
#include <memory>
#include <string>

#include "core/endpoints/endpoint_profiles.h"
#include "core/endpoints/worker_runner.h"

namespace core {

class EndpointSession : public QObject {
    Q_OBJECT
  public:
    explicit EndpointSession(QObject* parent = nullptr);

    // The backend built for profile() (null: none, or still building).
    std::shared_ptr<Backend> backend() const { return backend_; }
    // The profile the backend is built (or being built) for; empty name: none.
    const EndpointProfile& profile() const { return profile_; }
    bool building() const { return worker_->busy(); }
    // Whether the backend held, or the one being built, is for `p` as it is now.
    bool readyFor(const EndpointProfile& p) const { return backend_ && same(p); }
    bool buildingFor(const EndpointProfile& p) const { return building() && same(p); }
    // The latest progress of the build: stage "reading", "binding", "warming" (a local model)
    // or "connecting"; fraction 0..1, -1 when unknown.
    const QString& stage() const { return stage_; }
    double fraction() const { return fraction_; }

    // The active profile changed (null: none). An unchanged local profile keeps its backend
    // (or its build); anything else is forgotten. True when something was kept.
    bool select(const EndpointProfile* profile);
    // Starts building `profile`'s backend, forgetting what was held; fails (and changes
    // nothing) when a secret it needs is missing.
    Result<void> build(const EndpointProfile& profile);
    // Stops the build: it ends with a "cancelled" error (failed()).
    void cancelBuild() { worker_->interrupt(); }
    // Drops the backend and mutes a build under way (a backend that failed is rebuilt later).
    void forget();

  Q_SIGNALS:
    void progress(const QString& stage, double fraction);
    void built(const std::shared_ptr<core::Backend>& backend);
    void failed(const engine::Error& error);

  private:
    bool same(const EndpointProfile& p) const { return !profile_.name.empty() && profile_ == p; }
    void setProgress(const QString& stage, double fraction);

    WorkerRunner* worker_;
    std::shared_ptr<Backend> backend_;
    EndpointProfile profile_;
    QString stage_;
    double fraction_ = -1;
};

}  // namespace core
