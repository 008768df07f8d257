// Text surgery on policy templates for the editor's form (see core/policy/policy_source_edit.h).
#include "core/policy/policy_source_edit.h"

#include <nlohmann/json.hpp>

#include "base/text.h"

namespace core {
namespace {

using engine::bad_input;

// "line L, column C" of a byte offset, 1-based, for error messages.
std::string where(std::string_view text, size_t offset) {
    const base::TextPosition at = base::text_position_of(text, offset, base::ColumnUnit::Bytes);
    return "line " + std::to_string(at.line) + ", column " + std::to_string(at.column);
}

// Skips a {{ ... }} action starting at `i` (which points at "{{"); returns the offset after
// "}}", or npos when unterminated. Quoted strings inside the action may hold braces.
size_t skip_action(std::string_view s, size_t i) {
    size_t j = i + 2;
    while (j + 1 < s.size()) {
        const char c = s[j];
        if (c == '"') {
            ++j;
            while (j < s.size() && s[j] != '"') j += (s[j] == '\\') ? 2 : 1;
            ++j;
        } else if (c == '`') {
            j = s.find('`', j + 1);
            if (j == std::string_view::npos) return j;
            ++j;
        } else if (c == '}' && s[j + 1] == '}') {
            return j + 2;
        } else {
            ++j;
        }
    }
    return std::string_view::npos;
}

// Skips a JSON string starting at `i` (a '"'); template actions inside it are skipped whole
// because they may contain quotes. Returns the offset after the closing quote, or npos.
size_t skip_string(std::string_view s, size_t i) {
    size_t j = i + 1;
    while (j < s.size()) {
        if (s[j] == '\\') {
            j += 2;
        } else if (s[j] == '"') {
            return j + 1;
        } else if (s.compare(j, 2, "{{") == 0) {
            j = skip_action(s, j);
            if (j == std::string_view::npos) return j;
        } else {
            ++j;
        }
    }
    return std::string_view::npos;
}

bool is_space(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

// Finds the bracket that closes the one at `open`, counting only brackets outside strings and
// actions.
Result<size_t> matching_close(std::string_view s, size_t open) {
    int depth = 0;
    for (size_t i = open; i < s.size();) {
        const char c = s[i];
        if (c == '"') {
            const size_t next = skip_string(s, i);
            if (next == std::string_view::npos)
                return bad_input("template: unterminated string starting at " + where(s, i));
            i = next;
        } else if (s.compare(i, 2, "{{") == 0) {
            const size_t next = skip_action(s, i);
            if (next == std::string_view::npos)
                return bad_input("template: unterminated {{ action starting at " + where(s, i));
            i = next;
        } else {
            if (c == '{' || c == '[') ++depth;
            if (c == '}' || c == ']') {
                if (--depth == 0) return i;
            }
            ++i;
        }
    }
    return bad_input("template: bracket opened at " + where(s, open) + " is never closed");
}

struct Member {
    std::string key;
    SourceSpan whole;  // key through value, trimmed
    SourceSpan value;  // trimmed
};

// The members of the object whose braces sit at `open` and `close`. Members are separated by
// commas at the object's own depth; a chunk that does not start with a quoted key (a template
// control action, say) is skipped, not an error.
Result<std::vector<Member>> object_members(std::string_view s, size_t open, size_t close) {
    std::vector<Member> members;
    size_t chunk = open + 1;
    int depth = 0;
    auto finish_chunk = [&](size_t end) {
        size_t a = chunk, b = end;
        while (a < b && is_space(s[a])) ++a;
        while (b > a && is_space(s[b - 1])) --b;
        if (a >= b || s[a] != '"') return;
        const size_t key_end = skip_string(s, a);
        if (key_end == std::string_view::npos || key_end > b) return;
        size_t colon = key_end;
        while (colon < b && is_space(s[colon])) ++colon;
        if (colon >= b || s[colon] != ':') return;
        size_t v = colon + 1;
        while (v < b && is_space(s[v])) ++v;
        Member m;
        m.key = std::string(s.substr(a + 1, key_end - a - 2));
        m.whole = {a, b};
        m.value = {v, b};
        members.push_back(std::move(m));
    };
    for (size_t i = open + 1; i < close;) {
        const char c = s[i];
        if (c == '"') {
            i = skip_string(s, i);
            if (i == std::string_view::npos) return bad_input("template: unterminated string");
        } else if (s.compare(i, 2, "{{") == 0) {
            i = skip_action(s, i);
            if (i == std::string_view::npos) return bad_input("template: unterminated {{ action");
        } else {
            if (c == '{' || c == '[') ++depth;
            if (c == '}' || c == ']') --depth;
            if (c == ',' && depth == 0) {
                finish_chunk(i);
                chunk = i + 1;
            }
            ++i;
        }
    }
    finish_chunk(close);
    return members;
}

bool contains_action(std::string_view s, SourceSpan span) {
    return s.substr(span.begin, span.end - span.begin).find("{{") != std::string_view::npos;
}

// Column of the first non-blank character on the line holding `offset`.
int line_indent(std::string_view s, size_t offset) {
    size_t line_start = s.rfind('\n', offset == 0 ? 0 : offset - 1);
    line_start = (line_start == std::string_view::npos) ? 0 : line_start + 1;
    int indent = 0;
    while (line_start + indent < s.size() && s[line_start + indent] == ' ') ++indent;
    return indent;
}

// One-line JSON with ", " and ": " separators (dgem's own style for options).
std::string compact(const nlohmann::ordered_json& j) {
    if (j.is_object()) {
        std::string out = "{";
        bool first = true;
        for (auto it = j.begin(); it != j.end(); ++it) {
            if (!first) out += ", ";
            first = false;
            out += nlohmann::json(it.key()).dump() + ": " + compact(it.value());
        }
        return out + "}";
    }
    if (j.is_array()) {
        std::string out = "[";
        for (size_t i = 0; i < j.size(); ++i) out += (i ? ", " : "") + compact(j[i]);
        return out + "]";
    }
    return j.dump();
}

}  // namespace

Result<FormSpans> locate_form_spans(std::string_view source) {
    size_t i = 0;
    // Leading blanks and actions ({{/* comments */}}, {{- $x := ... }}) before the object.
    while (i < source.size()) {
        if (is_space(source[i])) {
            ++i;
        } else if (source.compare(i, 2, "{{") == 0) {
            i = skip_action(source, i);
            if (i == std::string_view::npos)
                return bad_input("template: unterminated {{ action at the start");
        } else {
            break;
        }
    }
    if (i >= source.size() || source[i] != '{')
        return bad_input("template: " + where(source, i) +
                         ": expected the top-level object {\"schema\": ..., \"state\": ...}");
    auto top_close = matching_close(source, i);
    if (!top_close) return top_close.error();
    auto top = object_members(source, i, *top_close);
    if (!top) return top.error();
    const Member* schema = nullptr;
    for (const auto& m : *top)
        if (m.key == "schema") schema = &m;
    if (!schema || source[schema->value.begin] != '{')
        return bad_input("template: no \"schema\": {...} object at the top level");
    auto schema_close = matching_close(source, schema->value.begin);
    if (!schema_close) return schema_close.error();

    FormSpans spans;
    spans.schema = {schema->value.begin, *schema_close + 1};
    auto members = object_members(source, schema->value.begin, *schema_close);
    if (!members) return members.error();
    for (const auto& m : *members) {
        if (m.key == "instructions") {
            spans.instructions = m.value;
            spans.instructions_templated = contains_action(source, m.value);
        } else if (m.key == "questions") {
            spans.questions = m.value;
            spans.questions_templated = contains_action(source, m.value);
        }
    }
    return spans;
}

std::string questions_to_template_json(const std::vector<Question>& questions, int indent) {
    const std::string pad(static_cast<size_t>(indent), ' ');
    const std::string item_pad = pad + "  ";
    const std::string field_pad = pad + "    ";
    const std::string row_pad = pad + "      ";
    if (questions.empty()) return "[]";
    std::string out = "[\n";
    for (size_t q = 0; q < questions.size(); ++q) {
        const Question& question = questions[q];
        std::vector<std::string> fields;
        auto field = [&](const char* key, const std::string& value_text) {
            fields.push_back(field_pad + "\"" + key + "\": " + value_text);
        };
        field("id", nlohmann::json(question.id).dump());
        field("type", nlohmann::json(std::string(to_string(question.type))).dump());
        if (!question.instructions.empty())
            field("instructions", nlohmann::json(question.instructions).dump());
        if (!question.criteria.empty()) {
            nlohmann::ordered_json criteria = nlohmann::ordered_json::object();
            // true before false reads naturally; other keys (score levels) in map order.
            for (const char* k : {"true", "false"})
                if (auto it = question.criteria.find(k); it != question.criteria.end())
                    criteria[k] = it->second;
            for (const auto& [k, v] : question.criteria)
                if (k != "true" && k != "false") criteria[k] = v;
            std::string text = "{\n";
            size_t n = 0;
            for (auto it = criteria.begin(); it != criteria.end(); ++it, ++n)
                text += row_pad + nlohmann::json(it.key()).dump() + ": " + it.value().dump() +
                        (n + 1 < criteria.size() ? ",\n" : "\n");
            field("criteria", text + field_pad + "}");
        }
        if (question.type == QuestionType::Choice) {
            std::string options = "[\n";
            for (size_t o = 0; o < question.options.size(); ++o) {
                nlohmann::ordered_json option;
                option["name"] = question.options[o].name;
                if (!question.options[o].description.empty())
                    option["description"] = question.options[o].description;
                options +=
                    row_pad + compact(option) + (o + 1 < question.options.size() ? ",\n" : "\n");
            }
            field("options", options + field_pad + "]");
        }
        if (question.type == QuestionType::Score)
            field("levels", compact(nlohmann::ordered_json(question.levels)));
        if (!question.depends_on.empty())
            field("depends_on", compact(nlohmann::ordered_json(question.depends_on)));
        if (!question.ask_if.empty()) {
            // ask_if holds compact JSON text ({question id: [answers]}); written as JSON again.
            const auto ask_if = nlohmann::ordered_json::parse(question.ask_if, nullptr, false);
            field("ask_if",
                  ask_if.is_discarded() ? nlohmann::json(question.ask_if).dump() : compact(ask_if));
        }
        if (question.alone || question.alone_explicit)
            field("alone", question.alone ? "true" : "false");
        out += item_pad + "{\n";
        for (size_t f = 0; f < fields.size(); ++f)
            out += fields[f] + (f + 1 < fields.size() ? ",\n" : "\n");
        out += item_pad + "}" + (q + 1 < questions.size() ? ",\n" : "\n");
    }
    return out + pad + "]";
}

Result<std::string> replace_schema_instructions(std::string_view source,
                                                const std::string& instructions) {
    auto spans = locate_form_spans(source);
    if (!spans) return spans.error();
    const std::string value = nlohmann::json(instructions).dump();
    std::string out(source);
    if (spans->instructions) {
        out.replace(spans->instructions->begin,
                    spans->instructions->end - spans->instructions->begin, value);
        return out;
    }
    // Insert as the schema's first member, on its own line, indented like the schema's body.
    const int indent = line_indent(source, spans->schema.begin) + 2;
    const bool empty_object = [&] {
        for (size_t i = spans->schema.begin + 1; i + 1 < spans->schema.end; ++i)
            if (!is_space(source[i])) return false;
        return true;
    }();
    const std::string member = "\n" + std::string(static_cast<size_t>(indent), ' ') +
                               "\"instructions\": " + value + (empty_object ? "" : ",");
    out.insert(spans->schema.begin + 1, member);
    return out;
}

Result<std::string> replace_schema_member(std::string_view source, const std::string& key,
                                          const std::string& value_text) {
    auto spans = locate_form_spans(source);
    if (!spans) return spans.error();
    auto members = object_members(source, spans->schema.begin, spans->schema.end - 1);
    if (!members) return members.error();
    std::string out(source);
    for (const auto& m : *members)
        if (m.key == key) {
            if (contains_action(source, m.value))
                return bad_input("template: schema." + key + " at " + where(source, m.value.begin) +
                                 " is written with template actions; set it there by hand");
            out.replace(m.value.begin, m.value.end - m.value.begin, value_text);
            return out;
        }
    const int indent = line_indent(source, spans->schema.begin) + 2;
    const std::string member = "\n" + std::string(static_cast<size_t>(indent), ' ') +
                               nlohmann::json(key).dump() + ": " + value_text +
                               (members->empty() ? "" : ",");
    out.insert(spans->schema.begin + 1, member);
    return out;
}

Result<std::string> replace_schema_questions(std::string_view source,
                                             const std::vector<Question>& questions) {
    auto spans = locate_form_spans(source);
    if (!spans) return spans.error();
    std::string out(source);
    if (spans->questions) {
        const int indent = line_indent(source, spans->questions->begin);
        out.replace(spans->questions->begin, spans->questions->end - spans->questions->begin,
                    questions_to_template_json(questions, indent));
        return out;
    }
    // No questions member yet: append it as the schema's last member.
    const int indent = line_indent(source, spans->schema.begin) + 2;
    size_t last = spans->schema.end - 1;  // the closing brace
    size_t before = last;
    while (before > spans->schema.begin + 1 && is_space(source[before - 1])) --before;
    const bool empty_object = before == spans->schema.begin + 1;
    const std::string member = std::string(empty_object ? "" : ",") + "\n" +
                               std::string(static_cast<size_t>(indent), ' ') +
                               "\"questions\": " + questions_to_template_json(questions, indent) +
                               "\n" + std::string(static_cast<size_t>(indent - 2), ' ');
    out.replace(before, last - before, member);
    return out;
}

}  // namespace core
