// dgem: the command-line twin of Decision Studio. Dispatches to the registered commands.

#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include <QtGlobal>

#include "cli.h"
#include "data_paths.h"
#include "engine/engine.h"
#include "report_output.h"

namespace {

void print_general_help() {
    std::cout << "dgem " DS_VERSION
                 " - single-pass structured decisions with DiffusionGemma\n\n"
                 "Usage: dgem COMMAND [options]\n\nCommands:\n";
    for (const auto& c : cli::commands()) {
        std::string name = c.name;
        name.resize(std::max<size_t>(name.size(), 18), ' ');
        std::cout << "  " << name << c.summary << "\n";
    }
    std::cout
        << "  version           the version, the engine devices built in and the Qt version\n";
    std::cout << "\nRun 'dgem COMMAND --help' for a command's options.\n"
                 "Exit codes: 0 ok, 2 bad input, 3 remote or auth failure, 4 engine failure.\n";
}

void print_command_help(const cli::CommandSpec& c) {
    std::cout << "Usage: " << c.usage << "\n\n" << c.summary << "\n";
    if (!c.description.empty()) std::cout << "\n" << c.description << "\n";
    if (!c.options.empty()) std::cout << "\nOptions:\n";
    for (const auto& o : c.options) {
        std::string flag = o.short_name ? std::string("-") + o.short_name + ", " : "    ";
        flag += "--" + o.long_name;
        if (!o.value_name.empty()) flag += " " + o.value_name;
        flag.resize(std::max<size_t>(flag.size() + 2, 30), ' ');
        std::cout << "  " << flag << o.help << (o.repeated ? " (repeatable)" : "") << "\n";
    }
}

// dgem version / --version: the version and what this build can run on.
void print_version() {
#ifdef DS_HAVE_CUDA
    const bool cuda_built = true;
#else
    const bool cuda_built = false;
#endif
    std::cout << "dgem " DS_VERSION "\n"
              << "engine devices: cpu"
              << (cuda_built ? std::string(", cuda (a CUDA device is usable now: ") +
                                   (engine::cuda_available() ? "yes" : "no") + ")"
                             : std::string(" (CUDA not compiled in)"))
              << "\n"
              << "Qt " << qVersion() << " (built with " QT_VERSION_STR ")\n"
#if defined(__clang__)
              << "compiler: clang " __clang_version__ "\n"
#elif defined(__GNUC__)
              << "compiler: GCC " __VERSION__ "\n"
#endif
              << "default model: " << app_paths::default_model_dir() << "\n";
}

const cli::OptionSpec* find_option(const cli::CommandSpec& c, const std::string& arg) {
    for (const auto& o : c.options) {
        if (arg == "--" + o.long_name) return &o;
        if (o.short_name && arg.size() == 2 && arg[0] == '-' && arg[1] == o.short_name) return &o;
    }
    return nullptr;
}

}  // namespace

int main(int argc, char** argv) {
    std::vector<std::string> args(argv + 1, argv + argc);
    if (args.empty() || args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
        if (args.size() >= 2)
            args = {args[1], "--help"};
        else {
            print_general_help();
            return args.empty() ? cli::kExitBadInput : cli::kExitOk;
        }
    }
    if (args[0] == "--version" || args[0] == "version") {
        print_version();
        return 0;
    }
    const cli::CommandSpec* command = nullptr;
    for (const auto& c : cli::commands())
        if (c.name == args[0]) command = &c;
    if (!command) {
        std::string names;
        for (const auto& c : cli::commands()) names += (names.empty() ? "" : ", ") + c.name;
        return cli::fail_bad_input("unknown command '" + args[0] + "'; commands are: " + names);
    }

    cli::Args parsed;
    for (size_t i = 1; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (a == "--help" || a == "-h") {
            print_command_help(*command);
            return 0;
        }
        if (a == "--") {
            parsed.positional.insert(parsed.positional.end(), args.begin() + i + 1, args.end());
            break;
        }
        if (a.size() > 1 && a[0] == '-' &&
            !(a.size() > 1 && std::isdigit(static_cast<unsigned char>(a[1])))) {
            std::string key = a, inline_value;
            bool has_inline = false;
            if (auto eq = a.find('='); a.rfind("--", 0) == 0 && eq != std::string::npos) {
                key = a.substr(0, eq);
                inline_value = a.substr(eq + 1);
                has_inline = true;
            }
            const cli::OptionSpec* o = find_option(*command, key);
            if (!o)
                return cli::fail_bad_input("unknown option '" + key + "' for 'dgem " +
                                           command->name + "'; see 'dgem " + command->name +
                                           " --help'");
            auto& slot = parsed.values_[o->long_name];
            if (o->value_name.empty()) {
                if (has_inline)
                    return cli::fail_bad_input("option --" + o->long_name + " takes no value");
                slot.push_back("true");
            } else if (has_inline) {
                slot.push_back(inline_value);
            } else if (i + 1 < args.size()) {
                slot.push_back(args[++i]);
            } else {
                return cli::fail_bad_input("option --" + o->long_name + " needs a value (" +
                                           o->value_name + ")");
            }
            if (!o->repeated && slot.size() > 1)
                return cli::fail_bad_input("option --" + o->long_name + " given more than once");
        } else {
            parsed.positional.push_back(a);
        }
    }
    try {
        dgem::prepare_report_application(parsed);
        return command->run(parsed);
    } catch (const std::exception& e) {
        return cli::fail(engine::engine_error(std::string("internal error: ") + e.what()));
    }
}
