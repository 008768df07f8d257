#pragma once
// MCP over Streamable HTTP on dgem serve: POST /mcp, stateless, one JSON-RPC message per request
// and a JSON reply (application/json), the same tools and tool code as `dgem mcp`
// (core/mcp/mcp_server.h) on the server's backend, each decision admitted like every other
// route's. A notification or response gets 202 with no body. No session is kept (no
// Mcp-Session-Id), so GET (a server-to-client stream) and DELETE (ending a session) are 405.
// An MCP-Protocol-Version header the server does not speak is a 400; a browser Origin that is not
// this server's own host is a 403 (DNS rebinding). Auth (API_KEY, DGEM_SERVER_KEY) is checked
// before this handler, as for every POST.

#include <memory>

#include <httplib.h>

#include "core/decide/backend.h"
#include "core/policy/policy_catalog.h"

namespace core::server {

class McpHttp {
  public:
    // `backend` should take a decision slot itself (AdmittedBackend).
    McpHttp(std::shared_ptr<Backend> backend, PolicyCatalog catalog, std::string version);

    void post(const httplib::Request& req, httplib::Response& res);
    static void not_allowed(const httplib::Request& req, httplib::Response& res);

  private:
    std::shared_ptr<Backend> backend_;
    PolicyCatalog catalog_;
    std::string version_;
};

}  // namespace core::server
