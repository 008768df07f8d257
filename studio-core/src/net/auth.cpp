// Token sources for remote backends: fixed tokens and gcloud-minted Google tokens.
#include "core/net/auth.h"

#include <algorithm>
#include <cctype>
#include <map>

#include <QByteArray>
#include <QProcess>
#include <QStringList>
#include <nlohmann/json.hpp>

#include "base/text.h"

namespace core {

namespace {

using base::lower;

bool ends_with(const std::string& s, const std::string& suffix) {
    return s.size() >= suffix.size() &&
           s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

struct CachedToken {
    std::string token;
    std::chrono::system_clock::time_point expires;
};

std::mutex& cache_mutex() {
    static std::mutex m;
    return m;
}
// Keyed by kind and audience.
std::map<std::pair<GcpTokenKind, std::string>, CachedToken>& cache() {
    static std::map<std::pair<GcpTokenKind, std::string>, CachedToken> c;
    return c;
}

}  // namespace

bool is_vertex_url(const std::string& raw) {
    const std::string u = lower(raw);
    return u.find("prediction.vertexai.goog") != std::string::npos ||
           u.find("aiplatform.googleapis.com") != std::string::npos ||
           u.find("/invoke/") != std::string::npos || ends_with(u, "/invoke") ||
           ends_with(u, ":rawpredict") || ends_with(u, ":streamrawpredict") ||
           ends_with(u, ":predict");
}

GcpTokenKind gcp_token_kind_for(const std::string& url) {
    return is_vertex_url(url) ? GcpTokenKind::Access : GcpTokenKind::Identity;
}

std::optional<int64_t> jwt_expiry(const std::string& token) {
    auto first = token.find('.');
    if (first == std::string::npos) return std::nullopt;
    auto second = token.find('.', first + 1);
    if (second == std::string::npos) return std::nullopt;
    QByteArray payload = QByteArray::fromBase64(
        QByteArray::fromStdString(token.substr(first + 1, second - first - 1)),
        QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals);
    auto json = nlohmann::json::parse(payload.toStdString(), nullptr, false);
    if (!json.is_object() || !json.contains("exp") || !json["exp"].is_number()) return std::nullopt;
    return json["exp"].get<int64_t>();
}

GcloudTokenSource::GcloudTokenSource(GcpTokenKind kind, std::string program)
    : kind_(kind), program_(std::move(program)) {}

std::shared_ptr<GcloudTokenSource> GcloudTokenSource::with_audience(std::string audience) {
    auto source = std::make_shared<GcloudTokenSource>(GcpTokenKind::Identity);
    source->audience_ = std::move(audience);
    return source;
}

std::string GcloudTokenSource::describe() const {
    if (kind_ == GcpTokenKind::Access) return "gcloud access token";
    // The audience is an OAuth client id: public, not a secret.
    return audience_.empty() ? "gcloud identity token"
                             : "gcloud identity token for audience " + audience_;
}

void GcloudTokenSource::clear_cache() {
    std::lock_guard lock(cache_mutex());
    cache().clear();
}

engine::Result<std::string> GcloudTokenSource::token(bool force_refresh) {
    std::lock_guard lock(cache_mutex());  // one gcloud run at a time; the others reuse its token
    const auto now = std::chrono::system_clock::now();
    const auto key = std::make_pair(kind_, audience_);
    auto it = cache().find(key);
    if (!force_refresh && it != cache().end() && now < it->second.expires) return it->second.token;

    const QString verb =
        kind_ == GcpTokenKind::Identity ? "print-identity-token" : "print-access-token";
    QStringList arguments{"auth", verb};
    if (kind_ == GcpTokenKind::Identity && !audience_.empty())
        arguments << QString::fromStdString("--audiences=" + audience_);
    const std::string command = program_ + " " + arguments.join(' ').toStdString();
    QProcess gcloud;
    gcloud.start(QString::fromStdString(program_), arguments);
    if (!gcloud.waitForStarted(10000))
        return engine::remote_error("--gcp-auth: cannot run '" + command +
                                    "' (is the Google Cloud CLI installed and on PATH?)");
    if (!gcloud.waitForFinished(60000)) {
        gcloud.kill();
        return engine::remote_error("--gcp-auth: '" + command + "' did not finish within 60 s");
    }
    if (gcloud.exitStatus() != QProcess::NormalExit || gcloud.exitCode() != 0) {
        // gcloud's own message (e.g. "You do not currently have an active account"), first line.
        std::string err = gcloud.readAllStandardError().trimmed().toStdString();
        if (auto nl = err.find('\n'); nl != std::string::npos) err.resize(nl);
        return engine::remote_error("--gcp-auth: '" + command + "' failed (exit " +
                                    std::to_string(gcloud.exitCode()) + ")" +
                                    (err.empty() ? "" : ": " + err) + "; try 'gcloud auth login'");
    }
    std::string token = gcloud.readAllStandardOutput().trimmed().toStdString();
    if (auto nl = token.find('\n'); nl != std::string::npos) token.resize(nl);
    if (token.empty())
        return engine::remote_error("--gcp-auth: '" + command + "' printed no token");

    // Refresh a minute before a JWT expires; opaque access tokens last an hour, keep 45 minutes.
    auto expires = now + std::chrono::minutes(45);
    if (auto exp = jwt_expiry(token))
        expires = std::chrono::system_clock::time_point(std::chrono::seconds(*exp)) -
                  std::chrono::seconds(60);
    cache()[key] = {token, expires};
    return token;
}

}  // namespace core
