#pragma once
// A small std::expected stand-in (GCC 12 has no <expected> in C++20 mode). Errors carry a kind so
// the command line can map them to exit codes and the UI can place them next to their cause.

#include <cassert>
#include <string>
#include <utility>
#include <variant>

namespace engine {

enum class ErrorKind {
    BadInput,   // the user's file, flag or request is wrong (exit 2, HTTP 400/422)
    Remote,     // a remote server or auth failed (exit 3)
    Engine,     // the local engine failed (exit 4)
    Cancelled,  // the caller asked to stop
};

struct Error {
    ErrorKind kind = ErrorKind::BadInput;
    std::string message;  // one line: names the file/field/option and what is accepted
    int http_status = 0;  // for remote errors: the status the server answered, if any
};

inline Error bad_input(std::string message) { return {ErrorKind::BadInput, std::move(message), 0}; }
inline Error engine_error(std::string message) { return {ErrorKind::Engine, std::move(message), 0}; }
inline Error remote_error(std::string message, int status = 0) {
    return {ErrorKind::Remote, std::move(message), status};
}
inline Error cancelled() { return {ErrorKind::Cancelled, "cancelled", 0}; }

template <class T>
class [[nodiscard]] Result {
public:
    Result(T value) : v_(std::move(value)) {}  // NOLINT(google-explicit-constructor)
    Result(Error error) : v_(std::move(error)) {}  // NOLINT(google-explicit-constructor)

    bool ok() const { return v_.index() == 0; }
    explicit operator bool() const { return ok(); }

    T& value() & { assert(ok()); return std::get<0>(v_); }
    const T& value() const& { assert(ok()); return std::get<0>(v_); }
    T&& value() && { assert(ok()); return std::get<0>(std::move(v_)); }
    T& operator*() & { return value(); }
    const T& operator*() const& { return value(); }
    T* operator->() { return &value(); }
    const T* operator->() const { return &value(); }

    const Error& error() const { assert(!ok()); return std::get<1>(v_); }

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
    const Error& error() const { assert(!ok_); return error_; }

private:
    Error error_;
    bool ok_ = true;
};

}  // namespace engine
