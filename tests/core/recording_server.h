#pragma once
// A loopback HTTP server for the end-to-end core tests: records every request's body, path and
// Authorization header and answers with a fixed status (and, with serve(), fixed bytes on a
// path). Runs on its own thread from construction to destruction.

#include <httplib.h>
#include <QString>
#include <chrono>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

// A loopback server that records every request and answers with a fixed status.
class RecordingServer {
  public:
    explicit RecordingServer(int status = 500) : status_(status) {
        auto handler = [this](const httplib::Request& req, httplib::Response& res) {
            {
                std::lock_guard lock(mutex_);
                bodies_.push_back(req.body);
                paths_.push_back(req.path);
                auth_.push_back(req.get_header_value("Authorization"));
            }
            res.status = status_;
            res.set_content("{\"error\": {\"message\": \"recorded\"}}", "application/json");
        };
        server_.Post(".*", handler);
        server_.Get(".*", [this, handler](const httplib::Request& req, httplib::Response& res) {
            if (auto file = fileAt(req.path)) {
                res.status = 200;
                res.set_content(file->first, file->second);
                return;
            }
            handler(req, res);
        });
        port_ = server_.bind_to_any_port("127.0.0.1");
        thread_ = std::thread([this] { server_.listen_after_bind(); });
        while (!server_.is_running()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    ~RecordingServer() {
        server_.stop();
        thread_.join();
    }
    QString url(const QString& path = "/v1") const {
        return QStringLiteral("http://127.0.0.1:%1").arg(port_) + path;
    }
    std::vector<std::string> bodies() {
        std::lock_guard lock(mutex_);
        return bodies_;
    }
    std::vector<std::string> auth() {
        std::lock_guard lock(mutex_);
        return auth_;
    }
    void clear() {
        std::lock_guard lock(mutex_);
        bodies_.clear();
        paths_.clear();
        auth_.clear();
    }

    // GET `path` answers 200 with these bytes.
    void serve(const std::string& path, std::string bytes, std::string type) {
        std::lock_guard lock(mutex_);
        files_[path] = {std::move(bytes), std::move(type)};
    }

  private:
    std::optional<std::pair<std::string, std::string>> fileAt(const std::string& path) {
        std::lock_guard lock(mutex_);
        auto it = files_.find(path);
        if (it == files_.end()) return std::nullopt;
        return it->second;
    }
    std::map<std::string, std::pair<std::string, std::string>> files_;
    int status_;
    httplib::Server server_;
    int port_ = 0;
    std::thread thread_;
    std::mutex mutex_;
    std::vector<std::string> bodies_, paths_, auth_;
};
