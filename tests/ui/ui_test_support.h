#pragma once
// What several UI tests share: the local tiny-model endpoint profile, a backend without a
// generative route, and lookups into the charts a view shows (core::report::ReportChart values).

#include <QSettings>
#include <QTemporaryDir>
#include <memory>
#include <string>
#include <vector>

#include "core/decide/backend.h"
#include "core/endpoints/endpoint_profiles.h"
#include "core/reports/report.h"

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
