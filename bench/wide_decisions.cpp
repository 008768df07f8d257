// What a wide choice question costs on the CPU engine: a 150-option question (a bracket
// tournament: Round 1's eight brackets on one canvas row per draw, one prompt listing every
// option, then the final) against a 20-option question (one read) on the same message and
// model, both through core::LocalBackend, same threads. Also 40 options read in one read with the
// az_aa label set against the same 40 as a tournament. Prints per strategy the reads, passes,
// prompt tokens and median time, and the ratios.
//
//   build/bin/bench-wide_decisions [MODEL_DIR] [--threads N] [--repeats N]
//
// Aim (issue 38): 150 options at most 1.6x the time of 20.

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/decide/local_backend.h"
#include "engine/engine.h"

namespace {

using ojson = nlohmann::ordered_json;

ojson schema_of(int k, const char* labels, bool descriptions) {
    ojson options = ojson::array();
    for (int i = 1; i <= k; ++i) {
        ojson o = {{"name", "intent_" + std::to_string(i)}};
        if (descriptions) o["description"] = "requests about topic " + std::to_string(i);
        options.push_back(o);
    }
    ojson s = {{"questions",
                {{{"id", "intent"},
                  {"type", "choice"},
                  {"instructions", "Which intent does the message express?"},
                  {"options", options}}}},
               {"samples", 1}};
    if (labels) s["labels"] = labels;
    return s;
}

struct Measured {
    double median_ms = 0;
    int reads = 0, passes = 0, prompt_tokens = 0, cached_tokens = 0;
};

// The message: a short one (a chat message, as intent routing reads) or a long one (a ticket
// with its history, about 1,200 tokens).
nlohmann::json state_of(bool long_message, int serial) {
    // Each decision reads a message of its own (as a real stream of messages does), so no
    // decision finds its whole prompt in the prefix cache; the final read still finds the
    // message its Round 1 encoded.
    std::string text =
        "Ticket " + std::to_string(serial) +
        ": Hello, I ordered a replacement card twelve days ago after mine broke and it still has "
        "not arrived. I need it for a trip next week. Can you tell me where it is or send "
        "another one? Thanks, Maria";
    if (long_message)
        for (int i = 0; i < 24; ++i)
            text += "\n\nEarlier message " + std::to_string(i + 1) +
                    ": I have written about this before. The card was ordered from the app, the "
                    "address on file is correct, and the tracking page shows nothing since the "
                    "order was placed. Please look into it and tell me what happens next.";
    return {{"message", text}};
}

Measured measure(core::LocalBackend& backend, int k, const char* labels, bool descriptions,
                 bool long_message, int repeats) {
    auto schema = core::parse_schema(schema_of(k, labels, descriptions), "bench");
    if (!schema) {
        std::fprintf(stderr, "%s\n", schema.error().message.c_str());
        std::exit(1);
    }
    Measured m;
    std::vector<double> times;
    for (int r = 0; r < repeats + 1; ++r) {
        // A new seed each time, so that no read is served whole from an earlier one.
        static int serial = 0;
        const core::DecideRequest request{*schema, state_of(long_message, ++serial),
                                          static_cast<uint64_t>(100 + r)};
        const auto t0 = std::chrono::steady_clock::now();
        auto d = backend.decide(request, {}, {});
        const double ms =
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0)
                .count();
        if (!d) {
            std::fprintf(stderr, "%s\n", d.error().message.c_str());
            std::exit(1);
        }
        if (r == 0) continue;  // warm-up
        times.push_back(ms);
        m.reads = d->reads;
        m.passes = d->passes;
        m.prompt_tokens = d->prompt_tokens;
        m.cached_tokens = d->cached_prompt_tokens;
    }
    std::sort(times.begin(), times.end());
    m.median_ms = times[times.size() / 2];
    return m;
}

}  // namespace

int main(int argc, char** argv) {
    std::string model = DS_BINARY_DIR "/models/tiny";
    int threads = 2, repeats = 7;
    for (int i = 1; i < argc; ++i) {
        if (!std::strcmp(argv[i], "--threads") && i + 1 < argc)
            threads = std::atoi(argv[++i]);
        else if (!std::strcmp(argv[i], "--repeats") && i + 1 < argc)
            repeats = std::max(1, std::atoi(argv[++i]));
        else
            model = argv[i];
    }
    engine::EngineOptions options;
    options.model_dir = model;
    options.device = engine::Device::Cpu;
    options.threads = threads;
    auto backend = core::LocalBackend::open(options);
    if (!backend) {
        std::fprintf(stderr, "%s\n", backend.error().message.c_str());
        return 1;
    }
    std::printf("model %s, %d threads, median of %d decisions each (1 draw)\n", model.c_str(),
                threads, repeats);
    struct Row {
        const char* name;
        int k;
        const char* labels;
        Measured m;
    };
    struct Scenario {
        const char* name;
        bool descriptions, long_message;
    };
    const Scenario scenarios[] = {
        {"option names only, short message", false, false},
        {"names and descriptions, short message", true, false},
        {"option names only, long message (a ticket with its history)", false, true},
    };
    for (const Scenario& sc : scenarios) {
        std::printf("\n%s\n%-34s %6s %7s %7s %7s %10s\n", sc.name, "question", "reads", "passes",
                    "prompt", "cached", "ms");
        std::vector<Row> rows = {{"20 options, one read (az)", 20, nullptr, {}},
                                 {"40 options, one read (az_aa)", 40, "az_aa", {}},
                                 {"40 options, tournament (az)", 40, nullptr, {}},
                                 {"77 options, tournament (az)", 77, nullptr, {}},
                                 {"150 options, tournament (az)", 150, nullptr, {}},
                                 {"150 options, tournament (az_aa)", 150, "az_aa", {}}};
        for (Row& r : rows) {
            r.m = measure(**backend, r.k, r.labels, sc.descriptions, sc.long_message, repeats);
            std::printf("%-34s %6d %7d %7d %7d %10.1f\n", r.name, r.m.reads, r.m.passes,
                        r.m.prompt_tokens, r.m.cached_tokens, r.m.median_ms);
        }
        std::printf(
            "150 options (tournament, az) / 20 options: %.2fx (aim: at most 1.6x); "
            "with az_aa brackets: %.2fx\n",
            rows[4].m.median_ms / rows[0].m.median_ms, rows[5].m.median_ms / rows[0].m.median_ms);
        std::printf("40 options: tournament / az_aa one read: %.2fx\n",
                    rows[2].m.median_ms / rows[1].m.median_ms);
    }
    return 0;
}
