#pragma once
// The engine's name for the base library's cancellation token (base/cancel.h).

#include "base/cancel.h"

namespace engine {

using base::CancelToken;

}  // namespace engine
