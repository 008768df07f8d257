// dgem mcp: a Model Context Protocol server on stdin/stdout for agents. The protocol lives in
// core/mcp/mcp_server.h; this command only pumps lines: stdin is split into messages, each handled
// on a small pool of threads (ping and tools/list answer while a decision runs), replies written
// whole, one per line. Logs go to stderr, and so does anything else that writes to stdout.
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <condition_variable>
#include <cstdio>
#include <deque>
#include <filesystem>
#include <iostream>
#include <mutex>
#include <thread>
#include <vector>

#include "backend_factory.h"
#include "cascade_flags.h"
#include "cli.h"
#include "core/mcp/mcp_server.h"
#include "mcp_stdio.h"

namespace {

constexpr int kWorkers = 4;

bool write_all(int fd, const std::string& text) {
    size_t done = 0;
    while (done < text.size()) {
        const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        done += static_cast<size_t>(n);
    }
    return true;
}

// The policies decide_policy may name: the shipped ones, the user's policy folder, --policies
// (the user's, as before) and --templates folders. Nothing else is ever read.
engine::Result<core::PolicyCatalog> policy_catalog(const cli::Args& args) {
    std::vector<core::CatalogFolder> folders;
    std::error_code ec;
    for (const char* flag : {"policies", "templates"}) {
        for (const auto& dir : args.all(flag)) {
            if (!std::filesystem::is_directory(dir, ec))
                return engine::bad_input(
                    "--" + std::string(flag) + " " + dir +
                    ": not a folder; expected a folder of .json.tmpl policies");
            folders.push_back({dir, std::string_view(flag) == "policies"
                                        ? core::PolicyOrigin::User
                                        : core::PolicyOrigin::Dir});
        }
    }
    // After --policies: of two user policies of one name, the one given explicitly wins.
    if (!args.has("no-user-policies")) {
        const auto user = core::PolicyCatalog::user_folder();
        if (std::filesystem::is_directory(user, ec))
            folders.push_back({user, core::PolicyOrigin::User});
    }
    return core::PolicyCatalog(std::move(folders));
}

}  // namespace

namespace dgem {

int pump_mcp_stdio(const std::function<std::optional<std::string>(const std::string&)>& handle,
                   const std::function<std::string(std::size_t)>& oversized,
                   const std::function<void(const SendLine&, const LogLine&)>& start,
                   const std::function<void()>& finish) {
    // The protocol gets its own copy of stdout; fd 1 becomes stderr, so a stray print anywhere
    // in the process cannot corrupt the message stream.
    std::cout.flush();
    std::fflush(stdout);
    const int out_fd = ::dup(STDOUT_FILENO);
    if (out_fd < 0 || ::dup2(STDERR_FILENO, STDOUT_FILENO) < 0)
        return cli::fail(engine::engine_error("dgem mcp: cannot set up stdout"));
    ::signal(SIGPIPE, SIG_IGN);  // a client that went away ends us through stdin's EOF

    std::mutex out_mutex;
    bool out_broken = false;
    SendLine send = [&](const std::string& line) {
        std::lock_guard lock(out_mutex);
        if (!out_broken && !write_all(out_fd, line + "\n")) out_broken = true;
    };
    std::mutex log_mutex;
    LogLine log = [&](const std::string& line) {
        std::lock_guard lock(log_mutex);
        std::cerr << "dgem mcp: " << line << std::endl;
    };
    if (start) start(send, log);

    std::mutex queue_mutex;
    std::condition_variable queue_cv;
    std::deque<std::string> queue;
    bool input_done = false;
    std::vector<std::thread> workers;
    for (int i = 0; i < kWorkers; ++i) {
        workers.emplace_back([&] {
            for (;;) {
                std::string line;
                {
                    std::unique_lock lock(queue_mutex);
                    queue_cv.wait(lock, [&] { return input_done || !queue.empty(); });
                    if (queue.empty()) return;
                    line = std::move(queue.front());
                    queue.pop_front();
                }
                if (auto reply = handle(line)) send(*reply);
            }
        });
    }

    core::mcp::LineSplitter splitter;
    std::vector<char> buffer(1 << 16);
    bool eof = false;
    while (!eof) {
        const ssize_t n = ::read(STDIN_FILENO, buffer.data(), buffer.size());
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            splitter.finish();
            eof = true;
        } else {
            splitter.feed(std::string_view(buffer.data(), static_cast<size_t>(n)));
        }
        while (auto line = splitter.next()) {
            if (line->oversized) {
                send(oversized(line->oversized));
                continue;
            }
            {
                std::lock_guard lock(queue_mutex);
                queue.push_back(std::move(line->text));
            }
            queue_cv.notify_one();
        }
    }
    // End of input: answer what was asked, then stop.
    {
        std::lock_guard lock(queue_mutex);
        input_done = true;
    }
    queue_cv.notify_all();
    for (auto& w : workers) w.join();
    if (finish) finish();
    ::close(out_fd);
    return cli::kExitOk;
}

}  // namespace dgem

namespace {

int run_mcp(const cli::Args& args) {
    if (auto remote = args.find("remote")) return dgem::run_mcp_remote(args, *remote);
    auto catalog = policy_catalog(args);
    if (!catalog) return cli::fail(catalog.error());

    core::mcp::ServerOptions options;
    options.version = DS_VERSION;
    options.catalog = std::move(*catalog);
    if (args.has("cascade-url")) {
        core::Schema on;  // only the judge's settings: mode on, the flag's URL
        on.cascade.mode = core::CascadeMode::Entropy;
        on.cascade.endpoint = args.get("cascade-url");
        auto judge = dgem::make_judge(args, on);
        if (!judge) return cli::fail(judge.error());
        options.cascade_judge = std::shared_ptr<core::Backend>(std::move(*judge));
    }
    std::unique_ptr<core::mcp::Server> server;
    std::thread warm;
    const int code = dgem::pump_mcp_stdio(
        [&server](const std::string& line) { return server->handle_line(line); },
        [&server](std::size_t bytes) { return server->oversized_line_reply(bytes); },
        [&](const dgem::SendLine& send, const dgem::LogLine& log) {
            options.send = send;
            options.log = log;
            server = std::make_unique<core::mcp::Server>(
                options, [args]() -> engine::Result<std::shared_ptr<core::Backend>> {
                    auto backend = dgem::make_backend(args);
                    if (!backend) return backend.error();
                    return std::shared_ptr<core::Backend>(std::move(backend.value()));
                });
            // The backend (a model to load, a server to probe) is made while the client
            // initialises.
            warm = std::thread([&server] { server->warm_up(); });
            log("serving MCP on stdin/stdout (dgem " DS_VERSION ")");
        },
        [&warm] {
            if (warm.joinable()) warm.join();
        });
    return code;
}

}  // namespace

DGEM_COMMAND(mcp) {
    auto options = dgem::endpoint_options();
    options.push_back({"policies", 0, "DIR",
                       "a folder of your .json.tmpl policies, listed next to the shipped", true});
    options.push_back({"templates", 0, "DIR",
                       "a folder of .json.tmpl policies (origin dir; as dgem serve --templates)",
                       true});
    options.push_back({"cascade-url", 0, "URL",
                       "the stage-2 judge of the decide tools' cascade_mode argument (an "
                       "OpenAI-compatible chat endpoint)"});
    options.push_back({"cascade-model", 0, "NAME", "the judge's model"});
    options.push_back({"cascade-token-env", 0, "VAR",
                       "environment variable holding the judge's token (default "
                       "DGEM_CASCADE_TOKEN)"});
    options.push_back({"remote", 0, "URL",
                       "bridge stdin/stdout to a remote MCP server over Streamable HTTP (e.g. "
                       "http://host:8080/mcp of dgem serve); -k/DGEM_TOKEN and DGEM_SERVER_KEY "
                       "authenticate"});
    options.push_back({"no-user-policies", 0, "",
                       "leave the Studio's policy folder (~/.local/share/decision-studio/policies) "
                       "out of the catalog"});
    return cli::CommandSpec{
        "mcp",
        "a Model Context Protocol server on stdin/stdout, for agents",
        "dgem mcp (--local [--model DIR] | -u URL [-m MODEL] [-k TOKEN] ...) [--policies DIR]\n"
        "         [--templates DIR] [--no-user-policies]\n"
        "       dgem mcp --remote URL [-k TOKEN]",
        "Serves MCP (JSON-RPC 2.0, one message per line) on stdin/stdout; logs go to stderr.\n"
        "Tools: list_policy_templates, decide_policy {template, variables, samples, seed},\n"
        "decide_custom_questions {context, questions: [{id, type: boolean|choice|score,\n"
        "question, options}], instructions, samples, seed} and get_health. Decisions run on\n"
        "the backend the flags choose, as for 'dgem decide'; it is made at start, in the\n"
        "background. A decision's result text is what 'dgem decide --json' prints. Add to an\n"
        "MCP client as: {\"command\": \"dgem\", \"args\": [\"mcp\", \"--local\"]}.\n"
        "decide_policy takes a policy by name from the catalog only: the shipped policies, the\n"
        "Studio's policy folder, --policies and --templates; a path is never opened.\n"
        "With --remote URL, dgem mcp serves nothing itself: each message from stdin is POSTed to\n"
        "the remote /mcp (Streamable HTTP) and its reply written to stdout, so a stdio-only MCP\n"
        "client reaches a 'dgem serve' elsewhere.",
        options,
        run_mcp};
}
