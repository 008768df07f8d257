#pragma once
// `dgem mcp`'s protocol: a Model Context Protocol server (JSON-RPC 2.0, one JSON object per
// line) that lets agents make decisions on a Backend. It knows nothing of stdin or stdout: a
// message goes in as one line and the reply comes back as one line; the command pumps them.
//
// Methods: initialize (echoes the client's protocolVersion when supported, else the latest),
// notifications/initialized, notifications/cancelled (cancels that request's decision; a
// cancelled request gets no reply), ping, tools/list, tools/call. Tools: list_policy_templates,
// decide_policy, decide_custom_questions, get_health (their inputSchemas in tools/list).
//
// Errors, consistently:
// - the message itself: unparsable JSON -32700 (id null); not a JSON-RPC 2.0 request object
//   (a batch, "jsonrpc" not "2.0", an id that is not a string or an integer, no method) -32600;
//   an unknown method -32601; params that are not an object -32602;
// - tools/call: no params.name, an unknown tool (the error names the tool and lists the known
//   ones) or "arguments" that is not an object: -32602;
// - anything about a tool's arguments (missing, ill-typed, unknown members, a policy that does
//   not exist or does not render, a question the schema refuses) and every failure of the
//   decision itself (backend unavailable, model error, server error): a tool result with
//   isError true whose text names what was wrong and what is accepted, as the MCP spec asks for
//   tool execution errors, so the model can correct its call;
// - a message with a method and no id is a notification: it never gets a reply, valid or not
//   (its problems go to the log). Responses sent to us (result/error, no method) are ignored.
// The server keeps serving after any of these; an exception inside a handler becomes -32603.
//
// A decision's result: content[0] is exactly what `dgem decide --json` prints (the
// decision_json object (chat form), two-space indented), content[1] a one-line-per-question summary
// with each answer's probability and hesitation; structuredContent is the same object as
// content[0] with "hesitation" added ({question id: {"value", "class"}}).
//
// Thread safety: handle_line may be called from several threads at once (the command runs
// messages on a small pool so ping and tools/list answer while a decision runs); the backend is
// made once, on first use or by warm_up(), and its calls are serialised.

#include <cstddef>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/decide/backend.h"
#include "core/policy/policy_catalog.h"

namespace core::mcp {

// The longest message line accepted (longer lines are answered -32700 and skipped).
inline constexpr std::size_t kMaxMessageBytes = 16 * 1024 * 1024;

// Protocol revisions this server speaks, newest first; the first is the one offered when the
// client asks for another.
const std::vector<std::string>& supported_protocol_versions();

using BackendProvider = std::function<Result<std::shared_ptr<Backend>>()>;

struct ServerOptions {
    std::string name = "dgem";
    std::string version;  // serverInfo.version (DS_VERSION)
    // The policies list_policy_templates lists and decide_policy finds by name, and the only
    // ones it can use: a template is never given by path (core/policy/policy_catalog.h).
    PolicyCatalog catalog;
    // Where notifications we send (notifications/progress) go, as complete lines; may be empty.
    std::function<void(const std::string&)> send;
    // Diagnostics for a person (the command writes them to stderr); may be empty.
    std::function<void(const std::string&)> log;
    // The stage-2 judge of the decide tools' cascade_mode argument (dgem mcp --cascade-url);
    // nullptr: a cascade is refused saying so.
    std::shared_ptr<Backend> cascade_judge;
};

class Server {
  public:
    Server(ServerOptions options, BackendProvider backend);
    ~Server();
    Server(const Server&) = delete;
    Server& operator=(const Server&) = delete;

    // One message line (no newline; a trailing '\r' and surrounding blanks are ignored) in; the
    // reply line out, or nothing (notifications, responses, blank lines, cancelled requests).
    std::optional<std::string> handle_line(std::string_view line);
    // The same for a parsed message.
    std::optional<nlohmann::json> handle(const nlohmann::json& message);

    // The reply to a line over kMaxMessageBytes (the reader skips the rest of it).
    std::string oversized_line_reply(std::size_t bytes) const;

    // Makes the backend now, if it is not made yet (the command calls it on a thread at start so
    // the first tool call need not wait for a model to load). Failures are logged and retried
    // on the next tool call.
    void warm_up();

    // tools/list's "tools": name, title, description and inputSchema of each tool.
    static nlohmann::json tool_definitions();

  private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

// Splits a byte stream into lines of at most kMaxMessageBytes: feed() what read() returned,
// then take the complete lines. A longer line is reported once as oversized (its length so far)
// and skipped up to its newline.
class LineSplitter {
  public:
    struct Line {
        std::string text;
        std::size_t oversized = 0;  // > 0: the line was longer than the limit; text is empty
    };
    explicit LineSplitter(std::size_t max_bytes = kMaxMessageBytes) : max_(max_bytes) {}
    void feed(std::string_view bytes);
    // At end of input: what is left without a newline counts as a last line.
    void finish();
    std::optional<Line> next();

  private:
    std::size_t max_;
    std::string partial_;
    bool skipping_ = false;
    std::size_t skipped_ = 0;
    std::vector<Line> ready_;
    std::size_t taken_ = 0;
};

}  // namespace core::mcp
