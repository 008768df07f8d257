// --temperature and the --cascade-* flags: the policy keys' overrides, and the stage-2 judge.
#include "cascade_flags.h"

#include <cmath>
#include <cstdlib>

#include "core/endpoints/cascade_judge.h"
#include "core/net/auth.h"
#include "core/net/remote_backends.h"

namespace dgem {

std::vector<cli::OptionSpec> calibration_options() {
    return {
        {"temperature", 0, "T",
         "temperature above 0 for every question (overrides the policy's \"temperature\"): "
         "every read's label log-probabilities / T before the softmax and the statistics"},
        {"cascade-mode", 0, "MODE",
         "stage-2 cascade: off, entropy (escalate questions whose entropy reaches "
         "--cascade-threshold) or on_miss (labelled runs: the questions stage 1 missed)"},
        {"cascade-threshold", 0, "NATS", "entropy at or above which a question escalates (0+)"},
        {"cascade-url", 0, "URL", "the stage-2 judge: an OpenAI-compatible chat endpoint"},
        {"cascade-model", 0, "NAME", "the judge's model (sent as \"model\")"},
        {"cascade-token-env", 0, "VAR",
         "environment variable holding the judge's bearer token (default DGEM_CASCADE_TOKEN)"},
    };
}

engine::Result<void> apply_calibration_flags(const cli::Args& args, core::Schema& schema) {
    if (auto t = args.find("temperature")) {
        auto value = core::parse_temperature_value(*t, "--temperature");
        if (!value) return value.error();
        schema.temperature = core::PolicyTemperature{*value, {}, {}};
    }
    if (auto m = args.find("cascade-mode")) {
        auto mode = core::parse_cascade_mode(*m);
        if (!mode)
            return engine::bad_input("--cascade-mode " + *m +
                                     ": accepted: off, entropy or on_miss");
        schema.cascade.mode = *mode;
    }
    if (auto t = args.find("cascade-threshold")) {
        double value = std::nan("");
        try {
            size_t used = 0;
            value = std::stod(*t, &used);
            if (used != t->size()) value = std::nan("");
        } catch (const std::exception&) {
        }
        if (!std::isfinite(value) || value < 0)
            return engine::bad_input("--cascade-threshold " + *t +
                                     ": accepted: a label entropy in nats, 0 or more (0 "
                                     "escalates every question)");
        schema.cascade.threshold = value;
    }
    if (auto u = args.find("cascade-url")) schema.cascade.endpoint = *u;
    return {};
}

engine::Result<std::unique_ptr<core::Backend>> make_judge(const cli::Args& args,
                                                          const core::Schema& schema) {
    if (schema.cascade.mode == core::CascadeMode::Off) return std::unique_ptr<core::Backend>();
    const std::string url = schema.cascade.endpoint;
    if (url.empty())
        return engine::bad_input(
            "cascade_mode " + std::string(core::to_string(schema.cascade.mode)) +
            " needs a stage-2 judge: give --cascade-url URL (an OpenAI-compatible chat endpoint) "
            "or the policy's \"cascade_endpoint\"");
    if (url.rfind("http://", 0) != 0 && url.rfind("https://", 0) != 0)
        return engine::bad_input("cascade_endpoint \"" + url +
                                 "\" is not a URL; dgem takes an http:// or https:// URL "
                                 "(endpoint profiles are the Studio's): give --cascade-url URL");
    core::RemoteOptions options;
    options.url = url;
    options.model = args.get("cascade-model", "");
    const std::string var = args.get("cascade-token-env", "DGEM_CASCADE_TOKEN");
    if (const char* token = std::getenv(var.c_str()); token && *token)
        options.transport.auth =
            std::make_shared<core::StaticTokenSource>(token, "environment " + var);
    return core::make_chat_judge(std::move(options));
}

engine::Result<bool> apply_run_calibration(const cli::Args& args,
                                           const core::CascadeSettings& policy,
                                           core::eval::RunSettings& settings) {
    core::Schema keys;
    keys.cascade = policy;
    if (auto ok = apply_calibration_flags(args, keys); !ok) return ok.error();
    if (args.has("temperature")) settings.temperature = keys.temperature;
    auto judge = make_judge(args, keys);
    if (!judge) return judge.error();
    if (!*judge) return false;
    settings.cascade = keys.cascade;
    settings.judge = std::move(*judge);
    settings.extra["cascade"] = {{"mode", std::string(core::to_string(keys.cascade.mode))},
                                 {"threshold", keys.cascade.threshold},
                                 {"judge", settings.judge->describe()}};
    return true;
}

}  // namespace dgem
