// dgem serve's request parsing: body reading (UTF-8, depth, syntax) and the chat and
// /v1/systemone validators, the checks every route runs before it reads a field.
#include "fuzz_common.h"
#include "server/request_checks.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    core::server::ojson body;
    if (auto error = core::server::read_body(fuzz::text(data, size), body)) return 0;
    (void)core::server::check_chat_body(body, 4096);
    (void)core::server::check_systemone_body(body);
    (void)core::server::model_of(body, "tiny");
    return 0;
}
