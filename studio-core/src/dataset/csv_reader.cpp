// RFC 4180 records from a stream, one at a time.
#include "core/dataset/csv_reader.h"

namespace core::dataset {

namespace {

constexpr int kEof = std::char_traits<char>::eof();

bool ends_record(int c) {
    return c == '\n' || c == '\r' || c == kEof;
}

}  // namespace

CsvReader::CsvReader(std::istream& in, std::size_t max_field_bytes)
    : in_(in), max_field_bytes_(max_field_bytes) {}

int CsvReader::get() {
    return in_.rdbuf()->sbumpc();
}

void CsvReader::skip_rest_of_line() {
    for (int c = get(); c != kEof; c = get()) {
        if (c == '\n') break;
        if (c == '\r') {
            if (in_.rdbuf()->sgetc() == '\n') get();
            break;
        }
    }
    ++line_;
}

bool CsvReader::next(CsvRecord& record) {
    record.fields.clear();
    record.error.clear();
    auto* buf = in_.rdbuf();
    if (!bom_checked_) {
        bom_checked_ = true;
        // A UTF-8 byte-order mark is three bytes no header starts with: drop it.
        if (buf->sgetc() == 0xEF) {
            char bom[3];
            const auto n = buf->sgetn(bom, 3);
            if (n != 3 || static_cast<unsigned char>(bom[1]) != 0xBB ||
                static_cast<unsigned char>(bom[2]) != 0xBF) {
                for (auto i = n; i > 0; --i) buf->sungetc();
            }
        }
    }
    int c = get();
    while (c == '\n' || c == '\r') {  // blank lines
        if (c == '\r' && buf->sgetc() == '\n') get();
        ++line_;
        c = get();
    }
    if (c == kEof) return false;
    record.line = line_;
    std::string field;
    bool too_big = false;
    auto add = [&](int ch) {
        if (field.size() < max_field_bytes_)
            field.push_back(static_cast<char>(ch));
        else
            too_big = true;
    };
    for (;;) {
        if (c == '"') {
            const std::size_t opened = line_;
            for (;;) {
                c = get();
                if (c == kEof) {
                    record.error = "a quoted field opened on line " + std::to_string(opened) +
                                   " is never closed (a '\"' inside a quoted field is written "
                                   "'\"\"')";
                    record.fields.push_back(std::move(field));
                    return true;
                }
                if (c == '"') {
                    if (buf->sgetc() != '"') break;
                    get();
                }
                if (c == '\n' || (c == '\r' && buf->sgetc() != '\n')) ++line_;
                add(c);
            }
            c = get();
            if (!ends_record(c) && c != ',') {
                record.error = "line " + std::to_string(line_) +
                               ": text after the closing quote of a field (a quoted field "
                               "ends at its closing '\"', then ',' or the line end)";
                record.fields.push_back(std::move(field));
                if (c != '\n' && c != '\r') {
                    skip_rest_of_line();
                } else {
                    ++line_;
                }
                return true;
            }
        } else {
            while (!ends_record(c) && c != ',') {
                add(c);
                c = get();
            }
        }
        record.fields.push_back(std::move(field));
        field.clear();
        if (c == ',') {
            c = get();
            continue;
        }
        if (c == '\r' && buf->sgetc() == '\n') get();
        if (c != kEof) ++line_;
        break;
    }
    if (too_big) record.error = "a field is over " + std::to_string(max_field_bytes_) + " bytes";
    return true;
}

std::string csv_field(const std::string& text) {
    const bool quote = text.find_first_of(",\"\r\n") != std::string::npos ||
                       (!text.empty() && (text.front() == ' ' || text.front() == '\t' ||
                                          text.back() == ' ' || text.back() == '\t'));
    if (!quote) return text;
    std::string out = "\"";
    for (char ch : text) {
        if (ch == '"') out += '"';
        out += ch;
    }
    out += '"';
    return out;
}

std::string csv_line(const std::vector<std::string>& fields) {
    std::string out;
    for (std::size_t i = 0; i < fields.size(); ++i) {
        if (i) out += ',';
        out += csv_field(fields[i]);
    }
    out += "\r\n";
    return out;
}

}  // namespace core::dataset
