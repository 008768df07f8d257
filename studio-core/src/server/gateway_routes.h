#pragma once
// dgem's gateway REST routes on dgem serve (shapes in core/wire/gateway.h):
//   GET  /api/templates            the catalog's policies with their variables and samples
//   POST /api/decide/{template}    a catalog policy rendered with {"variables": ...}
//   POST /api/decide               the same by "template", or an inline "custom_template"
// Policies come from the server's catalog only (core/policy/policy_catalog.h): a name that is not
// in it is a 404 listing the names, and no file outside it is opened. A template that does not
// render or parse is a 400 naming the problem; the decision itself runs through Routes'
// admission, MAX_MODEL_LEN check and error mapping, like every other route's.

#include <httplib.h>

#include "core/policy/policy_catalog.h"
#include "server/server_routes.h"

namespace core::server {

class GatewayRoutes {
  public:
    GatewayRoutes(Routes& routes, const PolicyCatalog& catalog)
        : routes_(routes), catalog_(catalog) {}

    void templates(const httplib::Request& req, httplib::Response& res);
    void decide(const httplib::Request& req, httplib::Response& res);

  private:
    Routes& routes_;
    const PolicyCatalog& catalog_;
};

}  // namespace core::server
