// dgem mcp --remote URL: a local stdio MCP client reaches a remote MCP server over Streamable
// HTTP (dgem serve's POST /mcp). Each message line from stdin is POSTed as it is; a JSON reply
// is written back as one line, an SSE reply (text/event-stream) as one line per event, and 202
// (a notification) as nothing. When the remote cannot be reached or refuses (401, 5xx), a request
// gets a JSON-RPC error with its own id naming the URL and what failed, so the client is never
// left waiting; the bridge keeps serving. The client's bearer token and X-DGem-Key come from the
// usual places (-k, DGEM_TOKEN, the keychain for that URL; DGEM_SERVER_KEY) and never reach the
// log.
#include <nlohmann/json.hpp>

#include "core/mcp/mcp_server.h"
#include "core/net/http_client.h"
#include "mcp_stdio.h"
#include "remote_factory.h"

namespace dgem {
namespace {

using nlohmann::json;

constexpr int kRemoteUnreachable = -32001;  // JSON-RPC server-defined range
constexpr int kRemoteRefused = -32002;

std::string one_line(const json& j) {
    return j.dump(-1, ' ', false, json::error_handler_t::replace);
}

// The id of a request line, or null for a notification, a response or something unparsable
// (which the remote answers for itself, or which needs no answer).
json request_id(const std::string& line) {
    const json message = json::parse(line, nullptr, false);
    if (!message.is_object() || !message.contains("method") || !message.contains("id"))
        return nullptr;
    return message["id"];
}

std::optional<std::string> error_for(const std::string& line, int code,
                                     const std::string& message) {
    const json id = request_id(line);
    if (id.is_null()) return std::nullopt;
    return one_line(
        {{"jsonrpc", "2.0"}, {"id", id}, {"error", {{"code", code}, {"message", message}}}});
}

// The data of each event of an SSE body, in order.
std::vector<std::string> sse_events(const std::string& body) {
    std::vector<std::string> events;
    std::string data;
    size_t start = 0;
    while (start <= body.size()) {
        size_t end = body.find('\n', start);
        if (end == std::string::npos) end = body.size();
        std::string line = body.substr(start, end - start);
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (line.empty()) {
            if (!data.empty()) events.push_back(std::move(data));
            data.clear();
        } else if (line.rfind("data:", 0) == 0) {
            std::string piece = line.substr(5);
            if (!piece.empty() && piece[0] == ' ') piece.erase(0, 1);
            data += (data.empty() ? "" : "\n") + piece;
        }
        start = end + 1;
    }
    if (!data.empty()) events.push_back(std::move(data));
    return events;
}

// One message to the remote and its reply line(s): the last is returned, earlier SSE events go
// out through `send` (progress notifications before the result).
std::optional<std::string> forward(const core::HttpTransport& transport, const std::string& url,
                                   const std::string& line, const SendLine& send) {
    if (line.find_first_not_of(" \t\r\n") == std::string::npos) return std::nullopt;
    auto response = transport.post_json(url, line, engine::CancelToken{});
    if (!response)
        return error_for(line, kRemoteUnreachable,
                         "the remote MCP server did not answer: " + response.error().message);
    if (response->status == 202) return std::nullopt;
    if (!response->ok())
        return error_for(line, kRemoteRefused, core::http_status_error(*response).message);
    if (response->header("content-type").find("text/event-stream") != std::string::npos) {
        auto events = sse_events(response->body);
        if (events.empty()) return std::nullopt;
        for (size_t i = 0; i + 1 < events.size(); ++i)
            send(one_line(json::parse(events[i], nullptr, false)));
        return one_line(json::parse(events.back(), nullptr, false));
    }
    const json reply = json::parse(response->body, nullptr, false);
    if (reply.is_discarded())
        return error_for(line, kRemoteRefused,
                         "POST " + url + ": the reply is not JSON (is this an MCP endpoint?)");
    return one_line(reply);
}

}  // namespace

int run_mcp_remote(const cli::Args& args, const std::string& url) {
    if (url.rfind("http://", 0) != 0 && url.rfind("https://", 0) != 0)
        return cli::fail_bad_input("--remote " + url +
                                   ": expected the http:// or https:// URL of an MCP endpoint "
                                   "(dgem serve's is http://HOST:PORT/mcp)");
    if (args.has("local"))
        return cli::fail_bad_input("--remote and --local: choose one (the remote server decides)");
    // The usual client settings (token, server key, timeout), for the remote URL.
    cli::Args remote_args = args;
    remote_args.values_["url"] = {url};
    auto config = client_config(remote_args);
    if (!config) return cli::fail(config.error());
    auto options = remote_options(remote_args, *config);
    if (!options) return cli::fail(options.error());
    const core::HttpTransport transport(options->transport);

    SendLine out;
    return pump_mcp_stdio(
        [&](const std::string& line) { return forward(transport, url, line, out); },
        [](std::size_t bytes) {
            return core::mcp::Server(core::mcp::ServerOptions{}, {}).oversized_line_reply(bytes);
        },
        [&](const SendLine& send, const LogLine& log) {
            out = send;
            log("bridging stdin/stdout to " + url + " (dgem " DS_VERSION ")");
        });
}

}  // namespace dgem
