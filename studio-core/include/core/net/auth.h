#pragma once
// Where a remote backend's bearer token comes from: a fixed token (flag, DGEM_TOKEN, keychain),
// or gcloud (`--gcp-auth`): an identity token for Cloud Run, an access token for Vertex
// endpoints. gcloud tokens are cached process-wide, refreshed before their JWT expiry (or after
// 45 minutes when the token is opaque) and once on a 401. Tokens are never logged or printed.

#include <chrono>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "engine/result.h"

namespace core {

class TokenSource {
  public:
    virtual ~TokenSource() = default;
    // The token to send now. force_refresh: the server rejected the last one (401).
    virtual engine::Result<std::string> token(bool force_refresh) = 0;
    // Whether asking again after a 401 can give a different token.
    virtual bool refreshable() const = 0;
    virtual std::string describe() const = 0;  // "flag --token", "gcloud identity token"; no secret
};

class StaticTokenSource final : public TokenSource {
  public:
    StaticTokenSource(std::string token, std::string origin)
        : token_(std::move(token)), origin_(std::move(origin)) {}
    engine::Result<std::string> token(bool) override { return token_; }
    bool refreshable() const override { return false; }
    std::string describe() const override { return origin_; }

  private:
    std::string token_;
    std::string origin_;
};

enum class GcpTokenKind { Identity, Access };

// Vertex AI endpoints (".../endpoints/ID:rawPredict", "/invoke/...", *.prediction.vertexai.goog,
// *aiplatform.googleapis.com) take an OAuth access token; everything else (Cloud Run) an
// identity token.
bool is_vertex_url(const std::string& url);
GcpTokenKind gcp_token_kind_for(const std::string& url);

// The `exp` claim of a JWT (seconds since the epoch), if the token is one.
std::optional<int64_t> jwt_expiry(const std::string& token);

// Runs `gcloud auth print-identity-token` or `print-access-token` (the first `gcloud` on PATH).
// An identity token for an IAP-protected service is minted for that audience (the IAP OAuth
// client id): `gcloud auth print-identity-token --audiences=ID`.
class GcloudTokenSource final : public TokenSource {
  public:
    explicit GcloudTokenSource(GcpTokenKind kind, std::string program = "gcloud");
    // An identity token for `audience` (empty: gcloud's default audience).
    static std::shared_ptr<GcloudTokenSource> with_audience(std::string audience);
    engine::Result<std::string> token(bool force_refresh) override;
    bool refreshable() const override { return true; }
    std::string describe() const override;

    // Drops every cached gcloud token of this process (tests).
    static void clear_cache();

  private:
    GcpTokenKind kind_;
    std::string program_;
    std::string audience_;  // identity tokens only
};

}  // namespace core
