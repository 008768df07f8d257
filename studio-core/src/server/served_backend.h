#pragma once
// The backend as dgem serve's routes see it. MeteredBackend counts every decision (its phases,
// reads and prompt tokens) into the server's metrics, whatever route asked for it; AdmittedBackend
// takes a decision slot (core/server/admission.h) around each decision and generation, for callers
// that cannot hold one themselves (MCP's tools over POST /mcp). Everything else passes through.

#include <memory>

#include "core/decide/backend.h"
#include "core/server/admission.h"
#include "core/server/metrics.h"

namespace core::server {

class ForwardingBackend : public Backend {
  public:
    explicit ForwardingBackend(std::shared_ptr<Backend> inner) : inner_(std::move(inner)) {}
    std::string describe() const override { return inner_->describe(); }
    Result<Decision> decide(const DecideRequest& request, const ProgressFn& progress,
                            const CancelToken& cancel) override {
        return inner_->decide(request, progress, cancel);
    }
    Result<Generation> generate(const GenerateRequest& request, const ProgressFn& progress,
                                const CancelToken& cancel) override {
        return inner_->generate(request, progress, cancel);
    }
    Result<HealthInfo> health(const CancelToken& cancel) override { return inner_->health(cancel); }
    std::optional<int> image_soft_tokens(int width, int height) const override {
        return inner_->image_soft_tokens(width, height);
    }
    std::optional<ModelFacts> model_facts() const override { return inner_->model_facts(); }
    RowReader* row_reader() override { return inner_->row_reader(); }

  protected:
    std::shared_ptr<Backend> inner_;
};

class MeteredBackend : public ForwardingBackend {
  public:
    MeteredBackend(std::shared_ptr<Backend> inner, ServerMetrics& metrics)
        : ForwardingBackend(std::move(inner)), metrics_(metrics) {}
    Result<Decision> decide(const DecideRequest& request, const ProgressFn& progress,
                            const CancelToken& cancel) override;

  private:
    ServerMetrics& metrics_;
};

class AdmittedBackend : public ForwardingBackend {
  public:
    AdmittedBackend(std::shared_ptr<Backend> inner, AdmissionGate& gate, ServerMetrics& metrics)
        : ForwardingBackend(std::move(inner)), gate_(gate), metrics_(metrics) {}
    Result<Decision> decide(const DecideRequest& request, const ProgressFn& progress,
                            const CancelToken& cancel) override;
    Result<Generation> generate(const GenerateRequest& request, const ProgressFn& progress,
                                const CancelToken& cancel) override;

  private:
    // A slot, or the Overloaded error the caller reports.
    Result<AdmissionGate::Ticket> admit();
    AdmissionGate& gate_;
    ServerMetrics& metrics_;
};

}  // namespace core::server
