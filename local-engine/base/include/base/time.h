#pragma once
// Elapsed time on the monotonic clock, the one way every layer measures how long something took.

#include <chrono>

namespace base {

using Clock = std::chrono::steady_clock;

// Milliseconds from `start` until now.
inline double ms_since(Clock::time_point start) {
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// Seconds from `start` until now.
inline double seconds_since(Clock::time_point start) {
    return std::chrono::duration<double>(Clock::now() - start).count();
}

}  // namespace base
