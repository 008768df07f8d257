#pragma once
// dgem mcp's tools: their definitions (tools/list) and what a call does. The protocol side
// (core/mcp/mcp_server.h) finds the tool, checks the arguments against its inputSchema and hands
// the call here with a way to reach the backend.

#include <functional>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "core/decide/backend.h"
#include "core/mcp/mcp_server.h"

namespace core::mcp {

// Runs `work` on the backend (made on first use; calls are serialised). An error comes back when
// the backend cannot be made.
using BackendCall = std::function<Result<void>(const std::function<Result<void>(Backend&)>& work)>;

struct ToolEnvironment {
    const ServerOptions* options = nullptr;
    BackendCall with_backend;
    CancelToken cancel;
    ProgressFn progress;  // may be empty
    // The stage-2 judge of cascade_mode arguments (nullptr: the server has none, and a
    // cascade is refused saying so).
    std::shared_ptr<Backend> judge;
};

// Every tool's definition, in the order tools/list shows them.
const nlohmann::json& tool_list();
// The definition of one tool, or nullptr.
const nlohmann::json* find_tool(const std::string& name);
// "list_policy_templates, decide_policy, ...".
std::string tool_names();

// Runs a known tool whose arguments passed its inputSchema; the MCP CallToolResult.
nlohmann::json call_tool(const std::string& name, const nlohmann::json& arguments,
                         ToolEnvironment& env);

// A CallToolResult with isError true and one text block.
nlohmann::json tool_error(const std::string& message);

}  // namespace core::mcp
