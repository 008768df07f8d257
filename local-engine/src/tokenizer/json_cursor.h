#pragma once
// A small pull reader for the bulk of tokenizer.json (262k vocabulary entries, 515k merges):
// reading those through a JSON DOM costs seconds, this costs a fraction of one. Strict JSON;
// the first error is kept with its byte offset and later calls fail fast.

#include <cstdint>
#include <string>
#include <string_view>

namespace engine::tokenizer_detail {

class JsonCursor {
  public:
    explicit JsonCursor(std::string_view text) : s_(text) {}

    bool ok() const { return error_.empty(); }
    const std::string& error() const { return error_; }
    size_t error_offset() const { return error_at_; }
    size_t pos() const { return i_; }
    std::string_view text() const { return s_; }

    // Skips white space, then consumes `c` if it is next.
    bool consume(char c) {
        ws();
        if (i_ < s_.size() && s_[i_] == c) {
            ++i_;
            return true;
        }
        return false;
    }
    bool expect(char c) {
        if (consume(c)) return true;
        return fail(std::string("expected '") + c + "'");
    }
    char peek() {
        ws();
        return i_ < s_.size() ? s_[i_] : '\0';
    }
    bool at_end() {
        ws();
        return i_ == s_.size();
    }

    // A JSON string, unescaped into `out` (UTF-8).
    bool string(std::string& out);
    // An integer that fits int64.
    bool integer(int64_t& out);
    // Skips any JSON value; `depth` guards against stack exhaustion on hostile input.
    bool skip_value(int depth = 0);
    // Skips a value and returns its text, for handing small parts to a DOM parser.
    bool raw_value(std::string_view& out) {
        ws();
        const size_t start = i_;
        if (!skip_value()) return false;
        out = s_.substr(start, i_ - start);
        return true;
    }

    bool fail(std::string message) {
        if (error_.empty()) {
            error_ = std::move(message);
            error_at_ = i_;
        }
        i_ = s_.size();
        return false;
    }

  private:
    void ws() {
        while (i_ < s_.size() &&
               (s_[i_] == ' ' || s_[i_] == '\n' || s_[i_] == '\r' || s_[i_] == '\t'))
            ++i_;
    }
    bool hex4(uint32_t& out);
    bool literal(std::string_view word);

    std::string_view s_;
    size_t i_ = 0;
    std::string error_;
    size_t error_at_ = 0;
};

}  // namespace engine::tokenizer_detail
