#pragma once
// A small std::expected stand-in (GCC 12 has no <expected> in C++20 mode). Errors carry a kind so
// the command line can map them to exit codes and the UI can place them next to their cause, and
// a cause for the callers that decide what to do about a failed service (retry it, name a missing
// route). Nothing here knows how a service is reached: a transport maps its own answers to a
// Cause (see core/net/http_client.h for HTTP).

#include <cassert>
#include <string>
#include <utility>
#include <variant>

namespace base {

enum class ErrorKind {
    BadInput,   // the user's file, flag or request is wrong (exit 2)
    Remote,     // a service the call depends on failed: a server, the keychain, a token command
                // (exit 3); Error::cause says how
    Engine,     // the local engine failed (exit 4)
    Cancelled,  // the caller asked to stop
};

// Why a service failed, as far as the caller's next step is concerned.
enum class Cause {
    None,          // no answer to classify: it could not be reached, or its answer was unusable
    Timeout,       // it (or the caller's own limit) gave up waiting
    Unsupported,   // it has no such operation
    Overloaded,    // it asked to be called again later
    ServerError,   // it failed on its side
    Unauthorized,  // it refused the credentials
    Refused,       // it refused the request for another reason
};

struct Error {
    ErrorKind kind = ErrorKind::BadInput;
    std::string message;        // one line: names the file/field/option and what is accepted
    Cause cause = Cause::None;  // for Remote errors: what the service's failure means
};

inline Error bad_input(std::string message) {
    return {ErrorKind::BadInput, std::move(message), Cause::None};
}
inline Error engine_error(std::string message) {
    return {ErrorKind::Engine, std::move(message), Cause::None};
}
inline Error remote_error(std::string message, Cause cause = Cause::None) {
    return {ErrorKind::Remote, std::move(message), cause};
}
inline Error cancelled() {
    return {ErrorKind::Cancelled, "cancelled", Cause::None};
}

template <class T>
class [[nodiscard]] Result {
  public:
    Result(T value) : v_(std::move(value)) {}      // NOLINT(google-explicit-constructor)
    Result(Error error) : v_(std::move(error)) {}  // NOLINT(google-explicit-constructor)

    bool ok() const { return v_.index() == 0; }
    explicit operator bool() const { return ok(); }

    T& value() & {
        assert(ok());
        return std::get<0>(v_);
    }
    const T& value() const& {
        assert(ok());
        return std::get<0>(v_);
    }
    T&& value() && {
        assert(ok());
        return std::get<0>(std::move(v_));
    }
    T& operator*() & { return value(); }
    const T& operator*() const& { return value(); }
    T* operator->() { return &value(); }
    const T* operator->() const { return &value(); }

    const Error& error() const {
        assert(!ok());
        return std::get<1>(v_);
    }

  private:
    std::variant<T, Error> v_;
};

template <>
class [[nodiscard]] Result<void> {
  public:
    Result() = default;
    Result(Error error) : error_(std::move(error)), ok_(false) {}  // NOLINT
    bool ok() const { return ok_; }
    explicit operator bool() const { return ok_; }
    const Error& error() const {
        assert(!ok_);
        return error_;
    }

  private:
    Error error_;
    bool ok_ = true;
};

}  // namespace base
