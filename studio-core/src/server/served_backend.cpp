// dgem serve's backend decorators (server/served_backend.h).
#include "server/served_backend.h"

#include <chrono>

#include "base/time.h"

namespace core::server {

Result<Decision> MeteredBackend::decide(const DecideRequest& request, const ProgressFn& progress,
                                        const CancelToken& cancel) {
    auto decision = inner_->decide(request, progress, cancel);
    if (decision)
        metrics_.record_decision(*decision);
    else
        metrics_.record_decision_failure();
    return decision;
}

Result<AdmissionGate::Ticket> AdmittedBackend::admit() {
    const auto started = std::chrono::steady_clock::now();
    auto got = gate_.acquire();
    const double waited = base::seconds_since(started);
    if (auto* ticket = std::get_if<AdmissionGate::Ticket>(&got)) {
        metrics_.record_admission(waited, true);
        return std::move(*ticket);
    }
    metrics_.record_admission(waited, false);
    return engine::remote_error(std::string("server busy: ") +
                                    AdmissionGate::describe(std::get<AdmissionGate::Refusal>(got)) +
                                    "; retry later",
                                base::Cause::Overloaded);
}

Result<Decision> AdmittedBackend::decide(const DecideRequest& request, const ProgressFn& progress,
                                         const CancelToken& cancel) {
    auto ticket = admit();
    if (!ticket) return ticket.error();
    return inner_->decide(request, progress, cancel);
}

Result<Generation> AdmittedBackend::generate(const GenerateRequest& request,
                                             const ProgressFn& progress,
                                             const CancelToken& cancel) {
    auto ticket = admit();
    if (!ticket) return ticket.error();
    return inner_->generate(request, progress, cancel);
}

}  // namespace core::server
