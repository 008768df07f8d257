#pragma once
// The engine's names for the base library's Result and Error (base/result.h), which every layer
// shares.

#include "base/result.h"

namespace engine {

using base::bad_input;
using base::cancelled;
using base::Cause;
using base::engine_error;
using base::Error;
using base::ErrorKind;
using base::remote_error;
using base::Result;

}  // namespace engine
