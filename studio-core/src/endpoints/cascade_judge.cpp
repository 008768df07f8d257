// The stage-2 judge from a policy's cascade_endpoint (see core/endpoints/cascade_judge.h).
#include "core/endpoints/cascade_judge.h"

#include <variant>

#include "core/endpoints/backend_factory.h"

namespace core {
namespace {
bool is_url(const std::string& text) {
    return text.rfind("http://", 0) == 0 || text.rfind("https://", 0) == 0;
}
}  // namespace

std::unique_ptr<Backend> make_chat_judge(RemoteOptions options) {
    options.transport.max_retries = 0;
    if (options.transport.timeout_s <= 0 || options.transport.timeout_s > 60)
        options.transport.timeout_s = 60;
    return std::make_unique<OpenAiChatBackend>(std::move(options));
}

Result<std::unique_ptr<Backend>> make_cascade_judge(const CascadeSettings& cascade,
                                                    const EndpointProfileStore& profiles,
                                                    const EnvLookup& env) {
    if (cascade.mode == CascadeMode::Off) return std::unique_ptr<Backend>();
    const std::string& name = cascade.endpoint;
    if (name.empty())
        return engine::bad_input(
            "cascade_mode " + std::string(to_string(cascade.mode)) +
            " needs a stage-2 judge: set the policy's \"cascade_endpoint\" to a remote endpoint "
            "profile's name or an OpenAI-compatible http(s):// URL");
    if (is_url(name)) {
        RemoteOptions options;
        options.url = name;
        return make_chat_judge(std::move(options));
    }
    const EndpointProfile* profile = profiles.find(name);
    if (!profile || !profile->remote()) {
        std::string remote;
        for (const auto& p : profiles.profiles)
            if (p.remote()) remote += (remote.empty() ? "" : ", ") + p.name;
        return engine::bad_input(
            "cascade_endpoint \"" + name + "\" " +
            (profile ? "is a local engine profile; stage 2 is an OpenAI-compatible chat endpoint"
                     : "names no endpoint profile") +
            "; accepted: an http(s):// URL or a remote profile (" +
            (remote.empty() ? "none defined: add one in Endpoints" : remote) + ")");
    }
    auto secrets = read_profile_secrets(*profile, env);
    if (!secrets) return secrets.error();
    auto spec = backend_spec(*profile, *secrets, env);
    if (!spec) return spec.error();
    const auto* remote = std::get_if<RemoteSpec>(&spec->where);
    if (!remote)
        return engine::bad_input("cascade_endpoint \"" + name + "\" is not a remote profile");
    return make_chat_judge(remote->options);
}

}  // namespace core
