#pragma once
// A streaming RFC 4180 reader: one record at a time from a stream, so a file of any length is
// never held whole. Accepts what spreadsheets write: UTF-8 with or without a byte-order mark,
// CRLF or LF (or a lone CR) line ends, fields quoted with '"' holding commas, doubled quotes
// and line breaks, and a last record with or without a line end. Field sizes are bounded only
// by `max_field_bytes` (default 64 MiB), so a 1 MB text cell is an ordinary field.
//
// Damage is reported per record, never by throwing: an unterminated quoted field (it runs to
// the end of the file) or text after a closing quote gives a record with `error` set; the
// reader then goes on with the next line. Wrong column counts are the caller's business (the
// reader does not know the header), see core/dataset/data_rows.h.

#include <cstddef>
#include <istream>
#include <string>
#include <vector>

namespace core::dataset {

struct CsvRecord {
    std::vector<std::string> fields;
    std::size_t line = 0;  // the line (1-based) the record starts on
    std::string error;     // empty when the record parsed
};

class CsvReader {
  public:
    explicit CsvReader(std::istream& in, std::size_t max_field_bytes = 64u << 20);

    // The next record; false at the end of the input. Blank lines (no characters at all) are
    // skipped, as spreadsheets leave them at the end.
    bool next(CsvRecord& record);

    std::size_t line() const { return line_; }  // lines consumed so far

  private:
    int get();
    void skip_rest_of_line();

    std::istream& in_;
    std::size_t max_field_bytes_;
    std::size_t line_ = 1;
    bool bom_checked_ = false;
};

// One field as RFC 4180 writes it: quoted (quotes doubled) when it holds a comma, a quote, a
// line break, or begins or ends with white space; as it is otherwise.
std::string csv_field(const std::string& text);
// A record: fields joined with ',' and ended with CRLF.
std::string csv_line(const std::vector<std::string>& fields);

}  // namespace core::dataset
