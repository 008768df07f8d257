#pragma once
// What several UI tests share: the local tiny-model endpoint profile, a real decision server on
// loopback, a backend without a generative route, and lookups into the charts a view shows
// (core::report::ReportChart values).

#include <QSettings>
#include <QTemporaryDir>
#include <memory>
#include <string>
#include <vector>

#include "core/decide/backend.h"
#include "core/decide/local_backend.h"
#include "core/endpoints/endpoint_profiles.h"
#include "core/reports/report.h"
#include "core/server/decision_server.h"
#include "engine/engine.h"

namespace ui_test {

// Keeps the test's QSettings in `dir` (never the user's) and ignores a DGEM_URL from the
// environment the tests run in.
inline void isolateSettings(const QTemporaryDir& dir) {
    QSettings::setDefaultFormat(QSettings::IniFormat);
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope,
                       dir.filePath(QStringLiteral("settings")));
    qunsetenv("DGEM_URL");
}

// One profile, "local": a model on the CPU (the tiny model unless named), active.
inline core::EndpointProfileStore localStore(const char* model_dir = DS_TINY_MODEL_DIR) {
    core::EndpointProfileStore store;
    core::EndpointProfile p;
    p.name = "local";
    p.kind = core::EndpointKind::Local;
    p.model_dir = model_dir;
    p.device = "cpu";
    store.profiles.push_back(p);
    store.active = "local";
    return store;
}

// A real decision server (what `dgem serve` runs) on a free loopback port, over its own engine of
// the tiny model on the CPU, asking its clients for `key`.
class LoopbackServer {
  public:
    // An empty string when it serves, else why not.
    std::string start(const std::string& key, const std::string& model_name) {
        engine::EngineOptions eo;
        eo.model_dir = DS_TINY_MODEL_DIR;
        eo.device = engine::Device::Cpu;
        auto local = core::LocalBackend::open(eo);
        if (!local) return local.error().message;
        backend_ = std::shared_ptr<core::Backend>(std::move(local.value()));
        core::ServerOptions options;
        options.port = 0;
        options.server_keys = {key};
        options.model_name = model_name;
        server_ = std::make_unique<core::DecisionServer>(backend_, options);
        auto started = server_->start();
        return started ? std::string() : started.error().message;
    }
    void stop() {
        if (server_) server_->stop();
    }
    std::string url() const {
        return "http://127.0.0.1:" + std::to_string(server_->port()) + "/v1";
    }
    const std::shared_ptr<core::Backend>& backend() const { return backend_; }

  private:
    std::shared_ptr<core::Backend> backend_;
    std::unique_ptr<core::DecisionServer> server_;
};

// The inner backend's slot side, and a generative route that is not there (a
// /v1/systemone-only server answers POST /v1/chat/completions with 404): a comparison in the
// time of one slot read.
class NoChatRoute : public core::Backend {
  public:
    explicit NoChatRoute(std::shared_ptr<core::Backend> inner) : inner_(std::move(inner)) {}
    static engine::Error error() {
        return engine::remote_error("POST http://127.0.0.1:1/v1/chat/completions: 404 Not Found",
                                    engine::Cause::Unsupported);
    }
    std::string describe() const override { return "systemone-only test server"; }
    engine::Result<core::Decision> decide(const core::DecideRequest& r, const core::ProgressFn& p,
                                          const core::CancelToken& c) override {
        return inner_->decide(r, p, c);
    }
    engine::Result<core::Generation> generate(const core::GenerateRequest&, const core::ProgressFn&,
                                              const core::CancelToken&) override {
        return error();
    }
    engine::Result<core::HealthInfo> health(const core::CancelToken& c) override {
        return inner_->health(c);
    }

  private:
    std::shared_ptr<core::Backend> inner_;
};

using core::report::ReportChart;

inline const core::report::ChartSeries* seriesNamed(const ReportChart& chart,
                                                    const std::string& name) {
    for (const auto& s : chart.series)
        if (s.name == name) return &s;
    return nullptr;
}

inline const core::report::ChartSet* setNamed(const ReportChart& chart, const std::string& name) {
    for (const auto& s : chart.sets)
        if (s.name == name) return &s;
    return nullptr;
}

inline const ReportChart* chartTitled(const std::vector<ReportChart>& charts,
                                      const std::string& prefix) {
    for (const auto& c : charts)
        if (c.title.starts_with(prefix)) return &c;
    return nullptr;
}

}  // namespace ui_test
