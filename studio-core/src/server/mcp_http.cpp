// MCP over Streamable HTTP on dgem serve (server/mcp_http.h).
#include "server/mcp_http.h"

#include <algorithm>

#include "core/mcp/mcp_server.h"
#include "server/replies.h"

namespace core::server {
namespace {

using json = nlohmann::json;

// A JSON-RPC error the transport itself answers (no message was handed to the server).
void reply_rpc_error(httplib::Response& res, int status, int code, const std::string& message) {
    res.status = status;
    res.set_content(
        json{{"jsonrpc", "2.0"}, {"id", nullptr}, {"error", {{"code", code}, {"message", message}}}}
            .dump(-1, ' ', false, json::error_handler_t::replace),
        "application/json");
}

// The host part of "http://host:port" or of a Host header "host:port".
std::string host_of(std::string text) {
    if (auto scheme = text.find("://"); scheme != std::string::npos) text = text.substr(scheme + 3);
    text = text.substr(0, text.find('/'));
    if (!text.empty() && text[0] == '[') return text.substr(0, text.find(']') + 1);
    return text.substr(0, text.find(':'));
}

bool loopback(const std::string& host) {
    return host == "localhost" || host == "127.0.0.1" || host == "[::1]";
}

// Browsers send Origin; a page elsewhere must not reach a server on this machine through the
// user's browser (DNS rebinding). Clients that are not browsers send none.
bool origin_allowed(const httplib::Request& req) {
    if (!req.has_header("Origin")) return true;
    const std::string origin = host_of(req.get_header_value("Origin"));
    const std::string host = host_of(req.get_header_value("Host"));
    if (origin == "null") return false;
    return origin == host || (loopback(origin) && loopback(host));
}

bool accepts_json(const httplib::Request& req) {
    if (!req.has_header("Accept")) return true;
    const std::string accept = req.get_header_value("Accept");
    return accept.find("application/json") != std::string::npos ||
           accept.find("*/*") != std::string::npos ||
           accept.find("application/*") != std::string::npos;
}

}  // namespace

McpHttp::McpHttp(std::shared_ptr<Backend> backend, PolicyCatalog catalog, std::string version)
    : backend_(std::move(backend)), catalog_(std::move(catalog)), version_(std::move(version)) {}

void McpHttp::not_allowed(const httplib::Request&, httplib::Response& res) {
    res.set_header("Allow", "POST");
    reply_rpc_error(res, 405, -32000,
                    "this MCP server is stateless: POST one JSON-RPC message to /mcp; it offers "
                    "no server-to-client stream (GET) and no sessions (DELETE)");
}

void McpHttp::post(const httplib::Request& req, httplib::Response& res) {
    if (!origin_allowed(req))
        return reply_rpc_error(res, 403, -32000,
                               "Origin not allowed: a browser page may call /mcp only from this "
                               "server's own host");
    if (!accepts_json(req))
        return reply_rpc_error(res, 406, -32000,
                               "Not Acceptable: this server answers application/json; send "
                               "Accept: application/json, text/event-stream");
    if (req.has_header("MCP-Protocol-Version")) {
        const std::string asked = req.get_header_value("MCP-Protocol-Version");
        const auto& known = mcp::supported_protocol_versions();
        if (std::find(known.begin(), known.end(), asked) == known.end()) {
            std::string list;
            for (const auto& v : known) list += (list.empty() ? "" : ", ") + v;
            return reply_rpc_error(res, 400, -32600,
                                   "Bad Request: MCP-Protocol-Version " + asked.substr(0, 40) +
                                       " is not spoken here; supported: " + list);
        }
    }
    // A server per request: nothing is shared between requests (stateless), so a cancellation
    // sent by one client can never reach another's call.
    mcp::ServerOptions options;
    options.version = version_;
    options.catalog = catalog_;
    auto backend = backend_;
    mcp::Server server(options,
                       [backend]() -> Result<std::shared_ptr<Backend>> { return backend; });
    if (req.body.size() > mcp::kMaxMessageBytes)
        return reply_json(res, 413, server.oversized_line_reply(req.body.size()));
    auto reply = server.handle_line(req.body);
    if (!reply) {
        res.status = 202;  // a notification or a response: accepted, nothing to answer
        return;
    }
    reply_json(res, 200, *reply);
}

}  // namespace core::server
