// The demo model's quality, measured through the engine as a user meets it: every labelled row of
// the given files is decided by slot readout and asked as generative JSON on core::LocalBackend
// (run_comparison, the Compare view's use case), and a table per policy and question prints
// slot accuracy, expected calibration error (10 bins over the winner's probability), the share of
// valid generative replies and how often the generative answer agrees with the slot answer.
//
//   bench-demo_quality [--model DIR] [--threads N] [--limit N] [--no-generative] [--misses]
//                      [--json FILE] FILE.jsonl ...
//
// --json FILE also writes the table as JSON (per question and "all": slot_accuracy, ece and, with
// generation, generative_valid and agreement), the form models/demo/training.json keeps it in.
// --misses prints every wrong slot answer (row id, question, expected, answered with its
// probability) on stderr, to see what a policy's errors have in common.
//
// A row is {"id", "policy"?: NAME, <variables>, "expected": {question: answer}}; without "policy"
// the file's name (support_triage.jsonl) names the shipped policy. Aims (issue 36): slot accuracy
// >= 90% held out and >= 80% hand-written, ECE <= 0.08 held out, generative JSON valid on >= 90%
// and agreeing with the slot answer on >= 85% of questions.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/comparison/compare.h"
#include "core/decide/local_backend.h"
#include "core/policy/policy.h"
#include "core/policy/schema.h"
#include "engine/engine.h"

namespace {

struct Tally {
    int answers = 0, right = 0;
    int generative_asked = 0, generative_valid = 0, compared = 0, agreeing = 0;
    double bin_n[10] = {}, bin_conf[10] = {}, bin_right[10] = {};
    double ece() const {
        double e = 0;
        for (int b = 0; b < 10; ++b)
            if (bin_n[b] > 0)
                e +=
                    bin_n[b] / answers * std::abs(bin_right[b] / bin_n[b] - bin_conf[b] / bin_n[b]);
        return answers ? e : 0;
    }
};

std::string policy_path(const std::string& name) {
    return std::string(DS_SOURCE_DIR) + "/resources/templates/" + name + ".json.tmpl";
}

double share(int part, int whole) {
    return whole ? 100.0 * part / whole : 0.0;
}

nlohmann::json figures(const Tally& t, bool generative) {
    auto rounded = [](double v) { return std::round(v * 1000) / 1000; };
    nlohmann::json f = {{"slot_accuracy", rounded(share(t.right, t.answers) / 100)},
                        {"ece", rounded(t.ece())}};
    if (generative) {
        f["generative_valid"] = rounded(share(t.generative_valid, t.generative_asked) / 100);
        f["agreement"] = rounded(share(t.agreeing, t.compared) / 100);
    }
    return f;
}

Tally summed(const std::map<std::string, std::map<std::string, Tally>>& tallies) {
    Tally all;
    for (const auto& [policy, questions] : tallies)
        for (const auto& [question, t] : questions) {
            all.answers += t.answers;
            all.right += t.right;
            all.generative_asked += t.generative_asked;
            all.generative_valid += t.generative_valid;
            all.compared += t.compared;
            all.agreeing += t.agreeing;
            for (int b = 0; b < 10; ++b) {
                all.bin_n[b] += t.bin_n[b];
                all.bin_conf[b] += t.bin_conf[b];
                all.bin_right[b] += t.bin_right[b];
            }
        }
    return all;
}

// The table as JSON, written whole to a temporary file and renamed over FILE.
bool write_json(const std::string& path,
                const std::map<std::string, std::map<std::string, Tally>>& tallies,
                bool generative) {
    nlohmann::json out = {{"all", figures(summed(tallies), generative)},
                          {"questions", nlohmann::json::array()}};
    for (const auto& [policy, questions] : tallies)
        for (const auto& [question, t] : questions) {
            nlohmann::json row = {{"policy", policy}, {"question", question}, {"rows", t.answers}};
            row.update(figures(t, generative));
            out["questions"].push_back(std::move(row));
        }
    const std::string tmp = path + ".tmp";
    {
        std::ofstream f(tmp, std::ios::trunc);
        if (!(f << out.dump(2) << "\n")) return false;
    }
    std::error_code ec;
    std::filesystem::rename(tmp, path, ec);
    return !ec;
}

void print_table(const std::map<std::string, std::map<std::string, Tally>>& tallies,
                 bool generative) {
    std::printf("\n%-20s %-14s %6s %9s %7s %10s %9s\n", "policy", "question", "rows", "slot acc",
                "ECE", "gen valid", "agree");
    for (const auto& [policy, questions] : tallies)
        for (const auto& [question, t] : questions) {
            std::printf("%-20s %-14s %6d %8.1f%% %7.3f", policy.c_str(), question.c_str(),
                        t.answers, share(t.right, t.answers), t.ece());
            if (generative)
                std::printf(" %9.1f%% %8.1f%%\n", share(t.generative_valid, t.generative_asked),
                            share(t.agreeing, t.compared));
            else
                std::printf(" %10s %9s\n", "-", "-");
        }
    const Tally all = summed(tallies);
    std::printf("%-20s %-14s %6d %8.1f%% %7.3f", "all", "", all.answers,
                share(all.right, all.answers), all.ece());
    if (generative)
        std::printf(" %9.1f%% %8.1f%%\n", share(all.generative_valid, all.generative_asked),
                    share(all.agreeing, all.compared));
    else
        std::printf("\n");
}

}  // namespace

int main(int argc, char** argv) {
    std::string model = std::string(DS_SOURCE_DIR) + "/models/demo";
    int threads = 2, limit = 0;
    bool generative = true, misses = false;
    std::string json_path;
    std::vector<std::string> files;
    for (int i = 1; i < argc; ++i) {
        if (!std::strcmp(argv[i], "--model") && i + 1 < argc)
            model = argv[++i];
        else if (!std::strcmp(argv[i], "--threads") && i + 1 < argc)
            threads = std::atoi(argv[++i]);
        else if (!std::strcmp(argv[i], "--limit") && i + 1 < argc)
            limit = std::atoi(argv[++i]);
        else if (!std::strcmp(argv[i], "--no-generative"))
            generative = false;
        else if (!std::strcmp(argv[i], "--misses"))
            misses = true;
        else if (!std::strcmp(argv[i], "--json") && i + 1 < argc)
            json_path = argv[++i];
        else
            files.push_back(argv[i]);
    }
    if (files.empty()) {
        std::fprintf(stderr,
                     "usage: bench-demo_quality [--model DIR] [--threads N] [--limit N] "
                     "[--no-generative] [--misses] [--json FILE] FILE.jsonl ...\n");
        return 2;
    }
    engine::EngineOptions options;
    options.model_dir = model;
    options.device = engine::Device::Cpu;
    options.threads = threads;
    auto backend = core::LocalBackend::open(options);
    if (!backend) {
        std::fprintf(stderr, "%s: %s\n", model.c_str(), backend.error().message.c_str());
        return 1;
    }
    std::printf("model %s, %d threads\n", model.c_str(), threads);
    std::map<std::string, std::map<std::string, Tally>> tallies;
    std::map<std::string, core::PolicyFile> policies;
    for (const auto& file : files) {
        std::ifstream in(file);
        if (!in) {
            std::fprintf(stderr, "%s: cannot be read\n", file.c_str());
            return 2;
        }
        std::string line;
        int rows = 0;
        for (int number = 1; std::getline(in, line) && (!limit || rows < limit); ++number) {
            if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
            auto row = nlohmann::json::parse(line, nullptr, false);
            if (!row.is_object() || !row.contains("expected")) {
                std::fprintf(stderr, "%s:%d: not a labelled row\n", file.c_str(), number);
                return 2;
            }
            const std::string name =
                row.value("policy", std::filesystem::path(file).stem().string());
            if (!policies.count(name)) {
                auto loaded = core::load_policy_file(policy_path(name));
                if (!loaded) {
                    std::fprintf(stderr, "%s:%d: %s\n", file.c_str(), number,
                                 loaded.error().message.c_str());
                    return 2;
                }
                policies.emplace(name, std::move(*loaded));
            }
            nlohmann::json variables = row;
            for (const char* key : {"id", "policy", "expected"}) variables.erase(key);
            auto rendered = core::render_policy_data(policies.at(name), variables);
            if (!rendered) {
                std::fprintf(stderr, "%s:%d: %s\n", file.c_str(), number,
                             rendered.error().message.c_str());
                return 2;
            }
            auto schema = core::parse_schema(rendered->schema, file);
            if (!schema) {
                std::fprintf(stderr, "%s:%d: %s\n", file.c_str(), number,
                             schema.error().message.c_str());
                return 2;
            }
            const core::DecideRequest request{*schema, rendered->state, 42};
            core::compare::Comparison c;
            if (generative) {
                c = core::compare::run_comparison(**backend, request, {}, {}, {});
            } else {
                auto d = (*backend)->decide(request, {}, {});
                c = core::compare::build_comparison(*schema, d, 0, engine::bad_input("not asked"),
                                                    0);
            }
            if (!c.slot) {
                std::fprintf(stderr, "%s:%d: %s\n", file.c_str(), number, c.slot_error.c_str());
                return 1;
            }
            const auto& expected = row["expected"];
            for (const auto& q : c.questions) {
                if (!expected.contains(q.id)) continue;
                Tally& t = tallies[name][q.id];
                const std::string want = expected[q.id].get<std::string>();
                const bool right = q.slot_winner >= 0 &&
                                   q.alternatives[static_cast<size_t>(q.slot_winner)] == want;
                ++t.answers;
                t.right += right;
                if (misses && !right)
                    std::fprintf(stderr, "  miss %s %s: expected %s, answered %s (%.2f)\n",
                                 row.value("id", std::to_string(number)).c_str(), q.id.c_str(),
                                 want.c_str(),
                                 q.slot_winner >= 0
                                     ? q.alternatives[static_cast<size_t>(q.slot_winner)].c_str()
                                     : "-",
                                 q.slot_probability);
                const int bin = std::min(9, static_cast<int>(q.slot_probability * 10));
                t.bin_n[bin] += 1;
                t.bin_conf[bin] += q.slot_probability;
                t.bin_right[bin] += right;
                if (generative) {
                    ++t.generative_asked;
                    t.generative_valid += c.generative.valid;
                    if (q.generative >= 0 && q.slot_winner >= 0) {
                        ++t.compared;
                        t.agreeing += q.agree;
                    }
                }
            }
            ++rows;
            if (rows % 50 == 0) std::fprintf(stderr, "  %s: %d rows\n", file.c_str(), rows);
        }
        std::printf("%s: %d rows\n", file.c_str(), rows);
    }
    print_table(tallies, generative);
    if (!json_path.empty() && !write_json(json_path, tallies, generative)) {
        std::fprintf(stderr, "%s: cannot be written\n", json_path.c_str());
        return 1;
    }
    return 0;
}
