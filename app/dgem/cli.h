#pragma once
// The dgem command line's small framework: each command lives in its own cmd_*.cpp and registers
// a CommandSpec (name, options, help, run). Parsing, --help text and exit codes are shared here.

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "engine/result.h"

namespace cli {

// Exit codes (issue 4): 0 ok, 2 bad input, 3 remote or auth failure, 4 engine failure.
inline constexpr int kExitOk = 0;
inline constexpr int kExitBadInput = 2;
inline constexpr int kExitRemote = 3;
inline constexpr int kExitEngine = 4;
inline constexpr int kExitCancelled = 130;

struct OptionSpec {
    std::string long_name;   // without dashes: "template"
    char short_name = 0;     // 't', or 0
    std::string value_name;  // "FILE"; empty for a flag
    std::string help;
    bool repeated = false;  // may be given several times (-v key=value ...)
};

class Args {
  public:
    bool has(const std::string& name) const { return values_.count(name) > 0; }
    std::string get(const std::string& name, const std::string& fallback = {}) const;
    std::optional<std::string> find(const std::string& name) const;
    const std::vector<std::string>& all(const std::string& name) const;
    std::vector<std::string> positional;

    std::map<std::string, std::vector<std::string>> values_;
};

struct CommandSpec {
    std::string name;
    std::string summary;      // one line for `dgem --help`
    std::string usage;        // "dgem plan -t FILE [-v key=value ...] [--json]"
    std::string description;  // a paragraph or two for `dgem plan --help`
    std::vector<OptionSpec> options;
    std::function<int(const Args&)> run;
};

// Registers a command at static-initialisation time; returns true so it can seed a static.
bool register_command(CommandSpec spec);
const std::vector<CommandSpec>& commands();

// The global flags of issue 4 (-u/--url, -m/--model, -k/--token, --gcp-auth, --timeout,
// -s/--stats, --local) and dgem's --iap-client-id, --vertex-url, --http-retries and --config,
// for commands that talk to a backend.
std::vector<OptionSpec> backend_options();

// Prints "dgem: <message>" on stderr and returns the exit code for the error's kind.
int fail(const engine::Error& error);
int fail_bad_input(const std::string& message);

// Table cells: a number with `digits` decimals, and text padded with spaces to `width`.
std::string fixed(double v, int digits);
std::string pad(std::string s, size_t width);

// Parses "key=value" (for -v); errors name the argument.
engine::Result<std::pair<std::string, std::string>> parse_key_value(const std::string& arg);

}  // namespace cli

// Put once in each cmd_*.cpp: DGEM_COMMAND(plan) { return cli::CommandSpec{...}; }
#define DGEM_COMMAND(id)                                              \
    static cli::CommandSpec dgem_command_spec_##id();                 \
    [[maybe_unused]] static const bool dgem_command_registered_##id = \
        cli::register_command(dgem_command_spec_##id());              \
    static cli::CommandSpec dgem_command_spec_##id()
