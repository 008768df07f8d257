#pragma once
// dgem mcp's stdin/stdout side, shared by the local server and the --remote bridge: stdin split
// into messages (core::mcp::LineSplitter), each handled on a small pool of threads (ping answers
// while a decision runs), replies written whole, one per line, to a private copy of stdout (fd 1
// becomes stderr so stray prints cannot corrupt the stream).

#include <cstddef>
#include <functional>
#include <optional>
#include <string>

#include "cli.h"

namespace dgem {

using SendLine = std::function<void(const std::string&)>;
using LogLine = std::function<void(const std::string&)>;

// Serves until stdin ends. `handle` turns a message line into its reply line (or none);
// `oversized` answers a line over the limit; `start` runs once the output is set up (with the
// writer of lines and of log lines); `finish` after the last reply, before the output closes.
int pump_mcp_stdio(const std::function<std::optional<std::string>(const std::string&)>& handle,
                   const std::function<std::string(std::size_t)>& oversized,
                   const std::function<void(const SendLine&, const LogLine&)>& start,
                   const std::function<void()>& finish = {});

// dgem mcp --remote URL: every message POSTed to URL (Streamable HTTP), its reply written back.
int run_mcp_remote(const cli::Args& args, const std::string& url);

}  // namespace dgem
