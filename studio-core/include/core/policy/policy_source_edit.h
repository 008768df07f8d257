#pragma once
// Maps the policy editor's form edits back into a `.json.tmpl` source without disturbing the
// rest of the template.
//
// The choice (documented for the editor): a template renders to {"schema": {...}, "state": ...}.
// The form owns exactly two members of the schema object, "instructions" and "questions". A form
// edit rewrites only the value of that member in a canonical, dgem-compatible form: the layout
// of the shipped templates (keys id, type, instructions, criteria/options/levels, depends_on,
// ask_if, alone; types "noul"/"choice"/"score"; one criterion and one option per line, levels
// on one line), so an untouched question comes back byte for byte. Everything
// else -- samples/layout members with their template actions, the state block, comments,
// whitespace -- is kept byte for byte. When a member's value is itself produced by template
// actions ({{ range }}, {{ .var }}), the form cannot represent it faithfully and that part is
// read-only in the form (`templated` below), so a form edit never bakes variables into the file.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/policy/schema.h"

namespace core {

struct SourceSpan {
    size_t begin = 0;  // byte offsets into the source, [begin, end)
    size_t end = 0;
};

struct FormSpans {
    SourceSpan schema;                       // the schema object, braces included
    std::optional<SourceSpan> instructions;  // value span of schema.instructions
    std::optional<SourceSpan> questions;     // value span of schema.questions
    bool instructions_templated = false;     // the value contains {{ ... }}
    bool questions_templated = false;
};

// Finds the schema object and its form-owned members in a template source, skipping over
// JSON strings and {{ ... }} actions. Errors name the line and column.
Result<FormSpans> locate_form_spans(std::string_view source);

// The source with schema.instructions set (inserted as the first member when absent).
Result<std::string> replace_schema_instructions(std::string_view source,
                                                const std::string& instructions);
// The source with schema.questions rewritten in the canonical form.
Result<std::string> replace_schema_questions(std::string_view source,
                                             const std::vector<Question>& questions);

// The source with one schema member set to `value_text` (JSON text): replaced in place when the
// schema has it, else inserted as its first member; the rest is kept byte for byte. A member
// written with template actions is refused (naming it), not overwritten. dgem calibrate --write
// sets "temperature" this way.
Result<std::string> replace_schema_member(std::string_view source, const std::string& key,
                                          const std::string& value_text);

// The canonical JSON text of a question list; `indent` is the column of the closing bracket.
std::string questions_to_template_json(const std::vector<Question>& questions, int indent);

}  // namespace core
