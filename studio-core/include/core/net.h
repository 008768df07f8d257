#pragma once
// The net domain of studio-core in one include (its headers are in core/net/).

#include "core/net/auth.h"
#include "core/net/http_client.h"
#include "core/net/keychain.h"
#include "core/net/remote_backends.h"
