#pragma once
// The parsed form of a policy template: Go text/template's node kinds, limited to what policy
// templates use (no define/template/block). Positions are byte offsets into the source.

#include <cstddef>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace core::tmpl {

// Raised by the parser and the executor; `pos` is a byte offset into the template source.
struct TemplateError {
    size_t pos = 0;
    std::string message;
};

struct Pipeline;

enum class ArgKind {
    Dot,       // .
    Field,     // .a.b (fields holds a, b)
    Variable,  // $x.a.b (name "$x", fields a, b)
    Function,  // printf, default, ... (name)
    Literal,   // "text", 3, 1.5, true, 'c'
    Nil,       // nil
    Paren,     // ( pipeline ).a.b
};

struct Arg {
    ArgKind kind = ArgKind::Dot;
    size_t pos = 0;
    std::string name;
    std::vector<std::string> fields;
    nlohmann::json literal;
    std::shared_ptr<Pipeline> pipe;
};

struct Command {
    size_t pos = 0;
    std::vector<Arg> args;  // args[0] is the operand or the function
};

struct Pipeline {
    size_t pos = 0;
    std::vector<std::string> decl;  // variables declared ($x := ...) or assigned ($x = ...)
    bool is_assign = false;
    std::vector<Command> cmds;
};

enum class NodeKind { Text, Action, If, Range, With, Break, Continue };

struct Node;
using NodeList = std::vector<std::unique_ptr<Node>>;

struct Node {
    NodeKind kind = NodeKind::Text;
    size_t pos = 0;    // Text: offset of its first byte; others: offset of the action
    std::string text;  // Text
    std::shared_ptr<Pipeline> pipe;
    NodeList list;       // if/range/with body
    NodeList else_list;  // {{else}} part; {{else if}} is a nested If node
};

struct ParsedTemplate {
    NodeList root;
};

// Parses a template; throws TemplateError. Nesting deeper than max_depth is refused.
ParsedTemplate parse_template(std::string_view source, int max_depth);

// The functions a template may call, sorted, comma-separated (for error messages).
const std::string& supported_function_list();

}  // namespace core::tmpl
