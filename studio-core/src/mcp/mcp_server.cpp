// The JSON-RPC 2.0 side of dgem mcp: message checks, dispatch and the error codes documented in
// core/mcp/mcp_server.h. The tools themselves live in mcp_tools.cpp.
#include "core/mcp/mcp_server.h"

#include <atomic>
#include <map>
#include <mutex>

#include "core/policy/json_input.h"
#include "mcp/argument_check.h"
#include "mcp/mcp_tools.h"

namespace core::mcp {
namespace {

using nlohmann::json;

constexpr int kParseError = -32700;
constexpr int kInvalidRequest = -32600;
constexpr int kMethodNotFound = -32601;
constexpr int kInvalidParams = -32602;
constexpr int kInternalError = -32603;

const char* const kMethods = "initialize, ping, tools/list and tools/call";

std::string dump_line(const json& j) {
    return j.dump(-1, ' ', false, json::error_handler_t::replace);
}

json error_reply(const json& id, int code, const std::string& message, const json& data = nullptr) {
    json error = {{"code", code}, {"message", message}};
    if (!data.is_null()) error["data"] = data;
    return {{"jsonrpc", "2.0"}, {"id", id}, {"error", error}};
}

json result_reply(const json& id, json result) {
    return {{"jsonrpc", "2.0"}, {"id", id}, {"result", std::move(result)}};
}

bool is_integer_number(const json& v) {
    if (v.is_number_integer() || v.is_number_unsigned()) return true;
    if (!v.is_number_float()) return false;
    const double d = v.get<double>();
    return d == static_cast<double>(static_cast<long long>(d));
}

bool valid_id(const json& id) {
    return id.is_string() || is_integer_number(id);
}

std::string trimmed(std::string_view s) {
    const char* ws = " \t\r\n\v\f";
    const size_t b = s.find_first_not_of(ws);
    if (b == std::string_view::npos) return {};
    return std::string(s.substr(b, s.find_last_not_of(ws) - b + 1));
}

}  // namespace

const std::vector<std::string>& supported_protocol_versions() {
    static const std::vector<std::string> versions = {"2025-11-25", "2025-06-18", "2025-03-26",
                                                      "2024-11-05"};
    return versions;
}

struct Server::Impl {
    ServerOptions options;
    BackendProvider provider;

    std::mutex make_mutex;  // making the backend
    std::shared_ptr<Backend> backend;
    std::mutex call_mutex;  // one backend call at a time

    std::mutex state_mutex;                      // the rest
    std::map<std::string, CancelToken> running;  // request id (JSON text) -> its decision

    void log(const std::string& line) const {
        if (options.log) options.log(line);
    }

    Result<std::shared_ptr<Backend>> ensure_backend() {
        std::lock_guard lock(make_mutex);
        if (backend) return backend;
        if (!provider) return engine::bad_input("this server has no backend");
        Result<std::shared_ptr<Backend>> made = engine::bad_input("");
        try {
            made = provider();
        } catch (const std::exception& e) {
            made = engine::engine_error(std::string("internal error: ") + e.what());
        }
        if (!made) {
            Error e = made.error();
            e.message = "the backend is not available: " + e.message;
            log(e.message);
            return e;
        }
        if (!*made) return engine::engine_error("the backend is not available");
        backend = *made;
        log("backend ready: " + backend->describe());
        return backend;
    }

    Result<void> with_backend(const std::function<Result<void>(Backend&)>& work) {
        auto b = ensure_backend();
        if (!b) return b.error();
        std::lock_guard lock(call_mutex);
        return work(**b);
    }

    json initialize(const json& params) {
        std::string version = supported_protocol_versions().front();
        if (auto v = params.find("protocolVersion"); v != params.end() && v->is_string()) {
            for (const auto& s : supported_protocol_versions())
                if (s == v->get<std::string>()) version = s;
            if (version != v->get<std::string>())
                log("the client asked for protocol " + v->get<std::string>() + "; offering " +
                    version);
        }
        return {
            {"protocolVersion", version},
            {"capabilities", {{"tools", json::object()}}},
            {"serverInfo",
             {{"name", options.name}, {"title", "Decision Studio"}, {"version", options.version}}},
            {"instructions",
             "Structured decisions in one pass of a diffusion LLM. Call "
             "list_policy_templates to see the policies, then decide_policy with a policy "
             "and its variables; or decide_custom_questions with a context and your own "
             "boolean, choice or score questions. Every answer carries the probability of "
             "each alternative and its hesitation; get_health checks the backend."}};
    }

    std::optional<json> call(const json& id, const json& params) {
        auto name_it = params.find("name");
        if (name_it == params.end() || !name_it->is_string())
            return error_reply(id, kInvalidParams,
                               "tools/call needs params.name, the tool to call (a string): one "
                               "of " +
                                   tool_names());
        const std::string name = name_it->get<std::string>();
        const json* tool = find_tool(name);
        if (!tool) {
            json known = json::array();
            for (const auto& t : tool_list()) known.push_back(t["name"]);
            return error_reply(id, kInvalidParams,
                               "unknown tool '" + name + "'; the tools are: " + tool_names(),
                               {{"tool", name}, {"known", known}});
        }
        json arguments = json::object();
        if (auto a = params.find("arguments"); a != params.end() && !a->is_null()) {
            if (!a->is_object())
                return error_reply(id, kInvalidParams,
                                   "tools/call params.arguments must be an object (the "
                                   "arguments of " +
                                       name + "), not " + describe_value(*a));
            arguments = *a;
        }
        if (auto problem = check_arguments(arguments, (*tool)["inputSchema"]))
            return result_reply(id, tool_error("invalid arguments for " + name + ": " + *problem));

        ToolEnvironment env;
        env.options = &options;
        env.judge = options.cascade_judge;
        env.with_backend = [this](const std::function<Result<void>(Backend&)>& work) {
            return with_backend(work);
        };
        const std::string key = id.dump();
        {
            std::lock_guard lock(state_mutex);
            running[key] = env.cancel;
        }
        json token;
        if (auto meta = params.find("_meta"); meta != params.end() && meta->is_object())
            if (auto t = meta->find("progressToken"); t != meta->end() && valid_id(*t)) token = *t;
        if (!token.is_null() && options.send) {
            auto count = std::make_shared<std::atomic<int>>(0);
            env.progress = [this, token, count](const Progress& p) {
                json update = {{"progressToken", token}, {"progress", ++*count}};
                if (!p.stage.empty()) update["message"] = p.stage;
                options.send(dump_line({{"jsonrpc", "2.0"},
                                        {"method", "notifications/progress"},
                                        {"params", update}}));
            };
        }
        json result;
        try {
            result = call_tool(name, arguments, env);
        } catch (...) {
            std::lock_guard lock(state_mutex);
            running.erase(key);
            throw;
        }
        {
            std::lock_guard lock(state_mutex);
            running.erase(key);
        }
        if (env.cancel.cancelled()) {
            log("request " + key + " (" + name + ") was cancelled; no reply");
            return std::nullopt;
        }
        return result_reply(id, std::move(result));
    }

    void notification(const json& message) {
        const json& method = message["method"];
        if (!method.is_string()) {
            log("ignored a notification whose method is not a string");
            return;
        }
        const std::string name = method.get<std::string>();
        if (message.value("jsonrpc", json()) != "2.0")
            log("notification " + name + ": \"jsonrpc\" is not \"2.0\"; handled anyway");
        if (name == "notifications/initialized") {
            log("client initialized");
        } else if (name == "notifications/cancelled") {
            auto params = message.find("params");
            if (params == message.end() || !params->is_object() || !params->contains("requestId")) {
                log("notifications/cancelled without params.requestId: ignored");
                return;
            }
            std::lock_guard lock(state_mutex);
            auto it = running.find((*params)["requestId"].dump());
            if (it != running.end()) {
                it->second.cancel();
                log("cancelling request " + it->first);
            }
        } else {
            log("ignored notification " + name);
        }
    }

    std::optional<json> request(const json& message) {
        if (message.is_array())
            return error_reply(nullptr, kInvalidRequest,
                               "Invalid Request: batches (JSON arrays) are not accepted; send "
                               "one JSON-RPC 2.0 message object per line");
        if (!message.is_object())
            return error_reply(nullptr, kInvalidRequest,
                               "Invalid Request: a message is a JSON-RPC 2.0 object "
                               "{\"jsonrpc\": \"2.0\", \"id\", \"method\", \"params\"}, not " +
                                   describe_value(message));
        const auto id_it = message.find("id");
        const auto method_it = message.find("method");
        if (method_it == message.end()) {
            if (message.contains("result") || message.contains("error")) {
                log("ignored a response to a request this server never sends");
                return std::nullopt;
            }
            const json id = id_it != message.end() && valid_id(*id_it) ? *id_it : json();
            return error_reply(
                id, kInvalidRequest,
                "Invalid Request: no \"method\"; this server answers " + std::string(kMethods));
        }
        if (id_it == message.end()) {
            notification(message);
            return std::nullopt;
        }
        if (!valid_id(*id_it))
            return error_reply(nullptr, kInvalidRequest,
                               "Invalid Request: \"id\" must be a string or an integer, not " +
                                   describe_value(*id_it));
        const json id = *id_it;
        const auto version = message.find("jsonrpc");
        if (version == message.end() || *version != "2.0")
            return error_reply(
                id, kInvalidRequest,
                "Invalid Request: \"jsonrpc\" must be \"2.0\", not " +
                    (version == message.end() ? std::string("missing") : describe_value(*version)));
        if (!method_it->is_string())
            return error_reply(
                id, kInvalidRequest,
                "Invalid Request: \"method\" must be a string, not " + describe_value(*method_it));
        const std::string method = method_it->get<std::string>();
        json params = json::object();
        if (auto p = message.find("params"); p != message.end() && !p->is_null()) {
            if (!p->is_object())
                return error_reply(id, kInvalidParams,
                                   "Invalid params: " + method +
                                       " takes its params as an object, not " + describe_value(*p));
            params = *p;
        }
        if (method == "initialize") return result_reply(id, initialize(params));
        if (method == "ping") return result_reply(id, json::object());
        if (method == "tools/list") return result_reply(id, {{"tools", tool_list()}});
        if (method == "tools/call") return call(id, params);
        return error_reply(
            id, kMethodNotFound,
            "Method not found: '" + method + "'; this server answers " + std::string(kMethods),
            {{"method", method}});
    }
};

Server::Server(ServerOptions options, BackendProvider backend) : impl_(std::make_unique<Impl>()) {
    impl_->options = std::move(options);
    impl_->provider = std::move(backend);
}

Server::~Server() = default;

std::optional<json> Server::handle(const json& message) {
    try {
        return impl_->request(message);
    } catch (const std::exception& e) {
        json id;
        if (message.is_object() && message.contains("id") && valid_id(message["id"]))
            id = message["id"];
        impl_->log(std::string("internal error: ") + e.what());
        if (message.is_object() && message.contains("method") && !message.contains("id"))
            return std::nullopt;  // a notification: never a reply
        return error_reply(id, kInternalError, std::string("Internal error: ") + e.what());
    }
}

std::optional<std::string> Server::handle_line(std::string_view line) {
    if (line.size() > kMaxMessageBytes) return oversized_line_reply(line.size());
    const std::string text = trimmed(line);
    if (text.empty()) return std::nullopt;
    json message;
    JsonInputError error;
    if (!parse_json_input_raw(text, message, error))
        return dump_line(error_reply(nullptr, kParseError,
                                     "Parse error: " + error.message + " (at byte " +
                                         std::to_string(error.offset) +
                                         "); every line must be one JSON-RPC 2.0 message"));
    auto reply = handle(message);
    if (!reply) return std::nullopt;
    return dump_line(*reply);
}

std::string Server::oversized_line_reply(std::size_t bytes) const {
    return dump_line(error_reply(nullptr, kParseError,
                                 "Parse error: a message of " + std::to_string(bytes) +
                                     " bytes or more; messages are limited to " +
                                     std::to_string(kMaxMessageBytes) + " bytes (16 MiB)"));
}

void Server::warm_up() {
    (void)impl_->ensure_backend();
}

nlohmann::json Server::tool_definitions() {
    return tool_list();
}

// --- LineSplitter ----------------------------------------------------------------------------

void LineSplitter::feed(std::string_view bytes) {
    while (!bytes.empty()) {
        const size_t nl = bytes.find('\n');
        const std::string_view piece = bytes.substr(0, nl);
        if (skipping_) {
            skipped_ += piece.size();
        } else {
            partial_.append(piece);
            if (partial_.size() > max_) {
                skipping_ = true;
                skipped_ = partial_.size();
                partial_.clear();
                partial_.shrink_to_fit();
            }
        }
        if (nl == std::string_view::npos) break;
        if (skipping_) {
            ready_.push_back({{}, skipped_});
            skipping_ = false;
            skipped_ = 0;
        } else {
            ready_.push_back({std::move(partial_), 0});
            partial_.clear();
        }
        bytes.remove_prefix(nl + 1);
    }
}

void LineSplitter::finish() {
    if (skipping_) {
        ready_.push_back({{}, skipped_});
        skipping_ = false;
        skipped_ = 0;
    } else if (!partial_.empty()) {
        ready_.push_back({std::move(partial_), 0});
        partial_.clear();
    }
}

std::optional<LineSplitter::Line> LineSplitter::next() {
    if (taken_ >= ready_.size()) {
        ready_.clear();
        taken_ = 0;
        return std::nullopt;
    }
    return std::move(ready_[taken_++]);
}

}  // namespace core::mcp
