#pragma once
// Elapsed time on the monotonic clock, the one way every layer measures how long something took.

#include <chrono>
#include <ctime>
#include <string>

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

// Now in UTC as ISO 8601 to the second ("2026-12-04T23:28:45Z"), as run records stamp it.
inline std::string utc_now() {
    const std::time_t t = std::time(nullptr);
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
}

}  // namespace base
