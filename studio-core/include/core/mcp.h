#pragma once
// The mcp domain of studio-core in one include (its headers are in core/mcp/).

#include "core/mcp/mcp_server.h"
