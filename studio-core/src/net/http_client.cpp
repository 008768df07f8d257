// Blocking HTTP on Qt Network for worker threads: one QNetworkAccessManager per thread, a local
// event loop per request, retries and auth refresh around it.
#include "core/http_client.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <random>
#include <thread>

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QThreadStorage>
#include <QTimer>
#include <QUrl>
#include <nlohmann/json.hpp>

namespace core {

namespace {

std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
    return s;
}

std::string one_line(std::string s, size_t max_len = 300) {
    for (char& c : s)
        if (c == '\n' || c == '\r' || c == '\t') c = ' ';
    while (!s.empty() && s.back() == ' ') s.pop_back();
    if (s.size() > max_len) s = s.substr(0, max_len) + "...";
    return s;
}

// Each thread keeps its own manager, so keep-alive connections survive between calls; Qt
// deletes it when the thread ends (or, for the main thread, with the QCoreApplication).
QNetworkAccessManager& thread_manager() {
    static QThreadStorage<QNetworkAccessManager*> storage;
    if (!storage.hasLocalData()) storage.setLocalData(new QNetworkAccessManager());
    return *storage.localData();
}

struct Attempt {
    bool transport_failed = false;
    bool timed_out = false;
    bool cancelled = false;
    std::string error;  // transport error text
    HttpResponse response;
};

Attempt run_once(const std::string& method, const std::string& url, const std::string& body,
                 const std::string& bearer, const std::string& server_key, double timeout_s,
                 const engine::CancelToken& cancel, const HttpTransport::DataFn& on_data) {
    Attempt a;
    QNetworkRequest request(QUrl(QString::fromStdString(url)));
    request.setRawHeader("Accept", "application/json, text/event-stream");
    request.setRawHeader("User-Agent", "dgem/" DS_VERSION " (Decision Studio)");
    if (!body.empty() || method == "POST")
        request.setHeader(QNetworkRequest::ContentTypeHeader, "application/json");
    if (!bearer.empty()) {
        std::string value = lower(bearer).rfind("bearer ", 0) == 0 ? bearer : "Bearer " + bearer;
        request.setRawHeader("Authorization", QByteArray::fromStdString(value));
    }
    if (!server_key.empty())
        request.setRawHeader("X-DGem-Key", QByteArray::fromStdString(server_key));

    QNetworkAccessManager& manager = thread_manager();
    QElapsedTimer clock;
    clock.start();
    QNetworkReply* reply = nullptr;
    if (method == "GET")
        reply = manager.get(request);
    else
        reply = manager.sendCustomRequest(request, QByteArray::fromStdString(method),
                                          QByteArray::fromStdString(body));

    QEventLoop loop;
    QTimer deadline;
    deadline.setSingleShot(true);
    QTimer cancel_poll;
    std::string received;
    bool status_known = false, streaming = false;

    auto learn_status = [&] {
        if (status_known) return;
        QVariant code = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute);
        if (!code.isValid()) return;
        status_known = true;
        a.response.status = code.toInt();
        streaming = on_data && a.response.status >= 200 && a.response.status < 300;
    };
    QObject::connect(reply, &QNetworkReply::metaDataChanged, &loop, learn_status);
    QObject::connect(reply, &QNetworkReply::readyRead, &loop, [&] {
        learn_status();
        QByteArray chunk = reply->readAll();
        received.append(chunk.constData(), static_cast<size_t>(chunk.size()));
        if (streaming)
            on_data(std::string_view(chunk.constData(), static_cast<size_t>(chunk.size())));
    });
    QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
    QObject::connect(&deadline, &QTimer::timeout, &loop, [&] {
        a.timed_out = true;
        reply->abort();
    });
    QObject::connect(&cancel_poll, &QTimer::timeout, &loop, [&] {
        if (cancel.cancelled()) {
            a.cancelled = true;
            reply->abort();
        }
    });
    deadline.start(static_cast<int>(std::max(1.0, timeout_s * 1000)));
    cancel_poll.start(20);
    if (!reply->isFinished()) loop.exec();
    deadline.stop();
    cancel_poll.stop();

    learn_status();
    QByteArray rest = reply->isOpen() ? reply->readAll() : QByteArray();
    if (!rest.isEmpty()) {
        received.append(rest.constData(), static_cast<size_t>(rest.size()));
        if (streaming)
            on_data(std::string_view(rest.constData(), static_cast<size_t>(rest.size())));
    }
    a.response.wall_ms = static_cast<double>(clock.nsecsElapsed()) / 1e6;
    a.response.method = method;
    a.response.url = url;
    if (a.cancelled || a.timed_out || !status_known) {
        a.transport_failed = true;
        a.error = reply->errorString().toStdString();
    } else {
        a.response.body = std::move(received);
        for (const auto& [name, value] : reply->rawHeaderPairs())
            a.response.headers[lower(name.toStdString())] = value.toStdString();
        a.response.server_ms = parse_server_timing(a.response.header("server-timing"));
    }
    reply->deleteLater();
    return a;
}

// Sleeps up to `seconds`, waking early on cancellation.
bool sleep_unless_cancelled(double seconds, const engine::CancelToken& cancel) {
    auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    while (std::chrono::steady_clock::now() < until) {
        if (cancel.cancelled()) return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return !cancel.cancelled();
}

}  // namespace

void ensure_core_application() {
    if (QCoreApplication::instance()) return;
    static int argc = 1;
    static char name[] = "dgem";
    static char* argv[] = {name, nullptr};
    static QCoreApplication* app = new QCoreApplication(argc, argv);  // lives for the process
    (void)app;
}

std::string HttpResponse::header(const std::string& lower_name) const {
    auto it = headers.find(lower_name);
    return it == headers.end() ? std::string() : it->second;
}

HttpTransport::HttpTransport(TransportOptions options) : options_(std::move(options)) {}

engine::Result<HttpResponse> HttpTransport::send(const std::string& method, const std::string& url,
                                                 const std::string& json_body,
                                                 const engine::CancelToken& cancel,
                                                 const DataFn& on_data) const {
    thread_local std::mt19937 jitter_rng{std::random_device{}()};
    bool refreshed_after_401 = false;
    int retries = 0;
    for (int attempt = 0;; ++attempt) {
        if (cancel.cancelled()) return engine::cancelled();
        std::string bearer;
        if (options_.auth) {
            auto token = options_.auth->token(false);
            if (!token) return token.error();
            bearer = *token;
        }
        Attempt a = run_once(method, url, json_body, bearer, options_.server_key,
                             options_.timeout_s, cancel, on_data);
        if (a.cancelled) return engine::cancelled();
        if (a.timed_out) {
            char secs[32];
            std::snprintf(secs, sizeof secs, "%g", options_.timeout_s);
            return engine::remote_error(method + " " + url + ": no reply within " + secs +
                                        " s (raise --timeout or DGEM_TIMEOUT)");
        }
        if (a.transport_failed)
            return engine::remote_error(method + " " + url + ": " + one_line(a.error));
        HttpResponse& r = a.response;
        r.retries = retries;
        if (r.status == 401 && options_.auth && options_.auth->refreshable() &&
            !refreshed_after_401) {
            // A cached token may have been revoked or expired early: mint a new one, once.
            refreshed_after_401 = true;
            auto fresh = options_.auth->token(true);
            if (!fresh) return fresh.error();
            continue;
        }
        if ((r.status == 429 || r.status == 503) && retries < options_.max_retries) {
            double wait = options_.retry_base_s * std::pow(2.0, retries);
            wait += std::uniform_real_distribution<double>(0, wait / 2)(jitter_rng);
            if (auto after = parse_retry_after(r.header("retry-after")))
                wait = std::max(wait, *after);
            wait = std::min(wait, options_.max_retry_wait_s);
            ++retries;
            if (!sleep_unless_cancelled(wait, cancel)) return engine::cancelled();
            continue;
        }
        return std::move(r);
    }
}

std::string server_message(const std::string& body) {
    auto json = nlohmann::json::parse(body, nullptr, false);
    if (json.is_object()) {
        if (json.contains("error")) {
            const auto& e = json["error"];
            if (e.is_string()) return one_line(e.get<std::string>());
            if (e.is_object() && e.contains("message") && e["message"].is_string())
                return one_line(e["message"].get<std::string>());
        }
        if (json.contains("detail"))
            return one_line(json["detail"].is_string() ? json["detail"].get<std::string>()
                                                       : json["detail"].dump());
        if (json.contains("message") && json["message"].is_string())
            return one_line(json["message"].get<std::string>());
    }
    std::string text = one_line(body, 200);
    return text.empty() ? "(empty body)" : text;
}

engine::Error http_status_error(const HttpResponse& r) {
    std::string msg = r.method + " " + r.url + ": HTTP " + std::to_string(r.status) + ": " +
                      server_message(r.body);
    if (r.retries > 0) msg += " (after " + std::to_string(r.retries) + " retries)";
    return engine::remote_error(msg, r.status);
}

std::optional<double> parse_server_timing(const std::string& header) {
    auto pos = header.find("dur=");
    if (pos == std::string::npos) return std::nullopt;
    try {
        return std::stod(header.substr(pos + 4));
    } catch (...) {
        return std::nullopt;
    }
}

std::optional<double> parse_retry_after(const std::string& header) {
    if (header.empty()) return std::nullopt;
    try {
        size_t used = 0;
        double v = std::stod(header, &used);
        if (used == 0 || v < 0) return std::nullopt;
        return v;
    } catch (...) {
        return std::nullopt;
    }
}

std::string server_root(const std::string& base_url) {
    std::string u = base_url;
    while (!u.empty() && u.back() == '/') u.pop_back();
    for (const char* suffix : {"/chat/completions", "/v1"}) {
        std::string s = suffix;
        if (u.size() >= s.size() && u.compare(u.size() - s.size(), s.size(), s) == 0)
            u.resize(u.size() - s.size());
    }
    return u;
}

std::string join_url(const std::string& base_url, const std::string& path) {
    std::string u = base_url;
    while (!u.empty() && u.back() == '/') u.pop_back();
    return u + (path.empty() || path[0] == '/' ? path : "/" + path);
}

}  // namespace core
