// Lexer and parser for the policy-template subset of Go text/template (see template_ast.h).
// The grammar follows Go's: text and {{actions}}, "{{- " / " -}}" trim markers, {{/* comments */}},
// pipelines of commands joined by '|', control structures if/else if/else, range/else,
// with/else with/else, break and continue, variables declared with := and assigned with =.
#include <algorithm>
#include <charconv>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "template/go_format.h"
#include "template/template_ast.h"
#include "template/template_funcs.h"

namespace core::tmpl {
namespace {

enum class Tok {
    RightDelim,
    Identifier,
    Keyword,
    Field,
    Variable,
    Dot,
    String,
    Number,
    Char,
    Bool,
    Nil,
    Pipe,
    LeftParen,
    RightParen,
    Declare,
    Assign,
    Comma,
};

struct Token {
    Tok kind;
    size_t pos;
    std::string text;   // identifier/keyword/field/variable name, number text, decoded string
    bool space_before;  // white space separates it from the previous token
};

bool is_space(char c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}
bool is_alnum(char c) {
    const auto u = static_cast<unsigned char>(c);
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           u >= 0x80;
}
bool is_digit(char c) {
    return c >= '0' && c <= '9';
}

std::string describe(const Token& t) {
    switch (t.kind) {
        case Tok::RightDelim:
            return "\"}}\"";
        case Tok::String:
            return "string " + go_quote(t.text);
        case Tok::Pipe:
            return "\"|\"";
        case Tok::LeftParen:
            return "\"(\"";
        case Tok::RightParen:
            return "\")\"";
        case Tok::Declare:
            return "\":=\"";
        case Tok::Assign:
            return "\"=\"";
        case Tok::Comma:
            return "\",\"";
        case Tok::Keyword:
            return "keyword \"" + t.text + "\"";
        default:
            return "\"" + t.text + "\"";
    }
}

int hex_value(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

class Parser {
  public:
    Parser(std::string_view src, int max_depth) : src_(src), max_depth_(max_depth) {}

    ParsedTemplate run() {
        ParsedTemplate t;
        End end = parse_list(t.root);
        if (end.kind == EndKind::End)
            fail(end.pos, "unexpected {{end}}: no {{if}}, {{range}} or {{with}} is open");
        if (end.kind == EndKind::Else)
            fail(end.pos, "unexpected {{else}}: no {{if}}, {{range}} or {{with}} is open");
        return t;
    }

  private:
    enum class EndKind { Eof, End, Else };
    struct End {
        EndKind kind = EndKind::Eof;
        size_t pos = 0;
        std::vector<Token> tokens;  // the {{else ...}} action, for "else if"
        size_t next = 0;
    };
    struct Cursor {
        std::vector<Token> toks;
        size_t i = 0;
        const Token& peek() const { return toks[std::min(i, toks.size() - 1)]; }
        const Token& peek_at(size_t k) const { return toks[std::min(i + k, toks.size() - 1)]; }
        const Token& next() {
            const Token& t = peek();
            if (i < toks.size()) ++i;
            return t;
        }
    };

    [[noreturn]] void fail(size_t pos, std::string message) const {
        throw TemplateError{pos, std::move(message)};
    }

    void enter(size_t pos) {
        if (++depth_ > max_depth_) {
            fail(pos, "actions nested more than " + std::to_string(max_depth_) +
                          " levels deep (if/range/with/parentheses); flatten the template");
        }
    }

    void add_text(NodeList& list, size_t begin, size_t end, bool trim_left, bool trim_right) {
        if (trim_left) {
            while (begin < end && is_space(src_[begin])) ++begin;
        }
        if (trim_right) {
            while (end > begin && is_space(src_[end - 1])) --end;
        }
        if (begin == end) return;
        auto node = std::make_unique<Node>();
        node->kind = NodeKind::Text;
        node->pos = begin;
        node->text = std::string(src_.substr(begin, end - begin));
        list.push_back(std::move(node));
    }

    // Parses text and actions into `list` until {{end}}, {{else}} or the end of the source.
    End parse_list(NodeList& list) {
        for (;;) {
            const size_t open = src_.find("{{", pos_);
            if (open == std::string_view::npos) {
                add_text(list, pos_, src_.size(), trim_next_, false);
                trim_next_ = false;
                pos_ = src_.size();
                return End{};
            }
            const bool left_trim =
                open + 3 < src_.size() && src_[open + 2] == '-' && is_space(src_[open + 3]);
            add_text(list, pos_, open, trim_next_, left_trim);
            trim_next_ = false;
            pos_ = open + (left_trim ? 4 : 2);  // "{{- " is a delimiter and a trim marker
            // A comment must follow the delimiter (and trim marker) directly.
            if (src_.substr(pos_, 2) == "/*") {
                skip_comment(open);
                continue;
            }
            Cursor c{lex_action(open), 0};
            const Token& first = c.peek();
            if (first.kind == Tok::Keyword) {
                const std::string& k = first.text;
                if (k == "end") {
                    c.next();
                    expect_close(c, "{{end}}");
                    return End{EndKind::End, open, {}, 0};
                }
                if (k == "else") {
                    c.next();
                    End e{EndKind::Else, open, std::move(c.toks), 0};
                    e.next = 1;
                    return e;
                }
                if (k == "if" || k == "range" || k == "with") {
                    c.next();
                    list.push_back(parse_control(k, c, open));
                    continue;
                }
                if (k == "break" || k == "continue") {
                    c.next();
                    if (range_depth_ == 0) fail(open, "{{" + k + "}} outside {{range}}");
                    expect_close(c, "{{" + k + "}}");
                    auto node = std::make_unique<Node>();
                    node->kind = k == "break" ? NodeKind::Break : NodeKind::Continue;
                    node->pos = open;
                    list.push_back(std::move(node));
                    continue;
                }
                fail(first.pos, "{{" + k +
                                    "}} is not supported in policy templates; supported actions: "
                                    "{{pipeline}}, {{$x := ...}}, if/else if/else, range/else, "
                                    "with/else, break, continue, comments");
            }
            auto node = std::make_unique<Node>();
            node->kind = NodeKind::Action;
            node->pos = open;
            node->pipe = parse_pipeline(c, "command", false);
            expect_close(c, "the action");
            list.push_back(std::move(node));
        }
    }

    void skip_comment(size_t open) {
        const size_t close = src_.find("*/", pos_ + 2);
        if (close == std::string_view::npos) fail(open, "unclosed comment: \"/*\" has no \"*/\"");
        size_t k = close + 2;
        if (src_.substr(k, 4) == " -}}") {
            trim_next_ = true;
            pos_ = k + 4;
        } else if (src_.substr(k, 2) == "}}") {
            pos_ = k + 2;
        } else {
            fail(k, "comment ends before closing delimiter: write {{/* ... */}}");
        }
    }

    void expect_close(Cursor& c, const std::string& what) {
        const Token& t = c.next();
        if (t.kind != Tok::RightDelim) fail(t.pos, "unexpected " + describe(t) + " in " + what);
    }

    // `chained`: an {{else if}}/{{else with}} link, which nests in the tree but not for the
    // author, so it counts against a separate, larger budget.
    std::unique_ptr<Node> parse_control(const std::string& keyword, Cursor& c, size_t open,
                                        bool chained = false) {
        if (chained) {
            if (++chain_ > kMaxElseChain) {
                fail(open, "more than " + std::to_string(kMaxElseChain) + " {{else " + keyword +
                               "}} branches in one chain");
            }
        } else {
            enter(open);
        }
        auto node = std::make_unique<Node>();
        node->kind = keyword == "if" ? NodeKind::If
                                     : (keyword == "range" ? NodeKind::Range : NodeKind::With);
        node->pos = open;
        const size_t vars_mark = vars_.size();
        node->pipe = parse_pipeline(c, "{{" + keyword + "}}", keyword == "range");
        expect_close(c, "{{" + keyword + "}}");
        if (node->kind == NodeKind::Range) ++range_depth_;
        End end = parse_list(node->list);
        if (node->kind == NodeKind::Range) --range_depth_;
        if (end.kind == EndKind::Eof) {
            fail(open, "{{" + keyword + "}} has no matching {{end}}");
        }
        if (end.kind == EndKind::Else) {
            Cursor ec{std::move(end.tokens), end.next};
            const Token& after = ec.peek();
            if (after.kind == Tok::Keyword && (after.text == "if" || after.text == "with")) {
                if (after.text != keyword || node->kind == NodeKind::Range) {
                    fail(after.pos, "{{else " + after.text + "}} can't follow {{" + keyword + "}}");
                }
                ec.next();
                // {{else if x}} ... {{end}} is {{else}}{{if x}} ... {{end}}{{end}}: one {{end}}.
                node->else_list.push_back(parse_control(keyword, ec, end.pos, true));
            } else {
                expect_close(ec, "{{else}}");
                End end2 = parse_list(node->else_list);
                if (end2.kind == EndKind::Eof)
                    fail(open, "{{" + keyword + "}} has no matching {{end}}");
                if (end2.kind == EndKind::Else)
                    fail(end2.pos, "{{else}} after {{else}} in {{" + keyword + "}}");
            }
        }
        vars_.resize(vars_mark);
        if (chained) {
            --chain_;
        } else {
            --depth_;
        }
        return node;
    }

    bool var_defined(const std::string& name) const {
        return std::find(vars_.begin(), vars_.end(), name) != vars_.end();
    }

    std::shared_ptr<Pipeline> parse_pipeline(Cursor& c, const std::string& context, bool is_range) {
        auto pipe = std::make_shared<Pipeline>();
        pipe->pos = c.peek().pos;
        std::vector<std::string> declared;
        if (c.peek().kind == Tok::Variable) {
            const Token& v = c.peek();
            const Token& after = c.peek_at(1);
            if (after.kind == Tok::Declare || after.kind == Tok::Assign) {
                pipe->decl.push_back(v.text);
                pipe->is_assign = after.kind == Tok::Assign;
                c.next();
                c.next();
            } else if (after.kind == Tok::Comma) {
                const Token& v2 = c.peek_at(2);
                const Token& op = c.peek_at(3);
                if (v2.kind == Tok::Variable &&
                    (op.kind == Tok::Declare || op.kind == Tok::Assign)) {
                    if (!is_range) fail(after.pos, "only {{range}} declares two variables");
                    pipe->decl = {v.text, v2.text};
                    pipe->is_assign = op.kind == Tok::Assign;
                    c.next(), c.next(), c.next(), c.next();
                }
            }
            if (pipe->is_assign) {
                for (const auto& name : pipe->decl) {
                    if (!var_defined(name))
                        fail(v.pos, "undefined variable \"" + name + "\" (declare it with :=)");
                }
            }
            if (!pipe->is_assign) declared = pipe->decl;
        }
        for (bool piped = false;; piped = true) {
            const Token& t = c.peek();
            if (t.kind == Tok::RightDelim || t.kind == Tok::RightParen || t.kind == Tok::Pipe) {
                if (piped || t.kind == Tok::Pipe)
                    fail(t.pos, "missing command before or after \"|\"");
                fail(t.pos, "missing value for " + context);
            }
            pipe->cmds.push_back(parse_command(c, piped));
            if (c.peek().kind != Tok::Pipe) break;
            c.next();
        }
        for (const auto& name : declared) {
            if (name == "$") fail(pipe->pos, "can't declare \"$\"");
            vars_.push_back(name);
        }
        return pipe;
    }

    void check_arity(const Arg& fn, size_t count) const {
        const FunctionInfo* info = find_function(fn.name);
        const int n = static_cast<int>(count);
        if (n < info->min_args || (info->max_args >= 0 && n > info->max_args)) {
            std::string want;
            if (info->max_args == info->min_args) {
                want = std::to_string(info->min_args);
            } else if (info->max_args < 0) {
                want = "at least " + std::to_string(info->min_args);
            } else {
                want = std::to_string(info->min_args) + " to " + std::to_string(info->max_args);
            }
            fail(fn.pos, "wrong number of arguments for " + fn.name + ": want " + want + ", got " +
                             std::to_string(n) + " (usage: " + std::string(info->signature) + ")");
        }
    }

    Command parse_command(Cursor& c, bool piped) {
        Command cmd;
        cmd.pos = c.peek().pos;
        for (;;) {
            const Token& t = c.peek();
            if (t.kind == Tok::RightDelim || t.kind == Tok::RightParen || t.kind == Tok::Pipe)
                break;
            if (!cmd.args.empty() && !t.space_before) {
                fail(t.pos, "unexpected " + describe(t) + ": missing space between operands?");
            }
            cmd.args.push_back(parse_operand(c));
        }
        const Arg& head = cmd.args.front();
        const size_t given = cmd.args.size() - 1 + (piped ? 1 : 0);
        if (head.kind == ArgKind::Function) {
            check_arity(head, given);
        } else if (head.kind == ArgKind::Nil) {
            fail(head.pos, "nil is not a command");
        } else if (given > 0) {
            fail(head.pos, "can't give an argument to a value that is not a function (" +
                               (head.kind == ArgKind::Field ? "." + head.fields.front()
                                                            : std::string("operand")) +
                               ")");
        }
        for (size_t k = 1; k < cmd.args.size(); ++k) {
            if (cmd.args[k].kind == ArgKind::Function) check_arity(cmd.args[k], 0);
        }
        return cmd;
    }

    void chain_fields(Cursor& c, Arg& arg) {
        while (c.peek().kind == Tok::Field && !c.peek().space_before) {
            arg.fields.push_back(c.next().text);
        }
    }

    Arg parse_operand(Cursor& c) {
        const Token& t = c.next();
        Arg arg;
        arg.pos = t.pos;
        switch (t.kind) {
            case Tok::Dot:
                arg.kind = ArgKind::Dot;
                break;
            case Tok::Field:
                arg.kind = ArgKind::Field;
                arg.fields.push_back(t.text);
                chain_fields(c, arg);
                return arg;
            case Tok::Variable:
                if (!var_defined(t.text)) fail(t.pos, "undefined variable \"" + t.text + "\"");
                arg.kind = ArgKind::Variable;
                arg.name = t.text;
                chain_fields(c, arg);
                return arg;
            case Tok::Identifier:
                if (!find_function(t.text)) {
                    std::string hint = t.text == "call" ? " (call is not supported)" : "";
                    fail(t.pos, "function \"" + t.text + "\" is not defined" + hint +
                                    "; supported functions: " + supported_function_list());
                }
                arg.kind = ArgKind::Function;
                arg.name = t.text;
                break;
            case Tok::String:
                arg.kind = ArgKind::Literal;
                arg.literal = t.text;
                break;
            case Tok::Bool:
                arg.kind = ArgKind::Literal;
                arg.literal = t.text == "true";
                break;
            case Tok::Char:
            case Tok::Number:
                arg.kind = ArgKind::Literal;
                arg.literal = number_value(t);
                break;
            case Tok::Nil:
                arg.kind = ArgKind::Nil;
                break;
            case Tok::LeftParen: {
                enter(t.pos);
                arg.kind = ArgKind::Paren;
                arg.pipe = parse_pipeline(c, "parenthesized pipeline", false);
                const Token& close = c.next();
                if (close.kind != Tok::RightParen) {
                    fail(close.pos,
                         "unclosed left paren: expected \")\", found " + describe(close));
                }
                --depth_;
                chain_fields(c, arg);
                return arg;
            }
            case Tok::Keyword:
                fail(t.pos, "unexpected keyword \"" + t.text + "\" in operand");
            default:
                fail(t.pos, "unexpected " + describe(t) + " in operand");
        }
        if (c.peek().kind == Tok::Field && !c.peek().space_before) {
            fail(c.peek().pos, "unexpected ." + c.peek().text + " after " + describe(t));
        }
        return arg;
    }

    nlohmann::json number_value(const Token& t) const {
        if (t.kind == Tok::Char) return static_cast<int64_t>(std::stoll(t.text));
        std::string s;
        for (char ch : t.text) {
            if (ch != '_') s += ch;
        }
        const auto bad = [&]() -> nlohmann::json { fail(t.pos, "bad number syntax: " + t.text); };
        if (s.empty()) return bad();
        if (s.back() == 'i') fail(t.pos, "complex numbers are not supported: " + t.text);
        bool negative = false;
        std::string body = s;
        if (body[0] == '+' || body[0] == '-') {
            negative = body[0] == '-';
            body = body.substr(1);
        }
        if (body.empty()) return bad();
        int base = 10;
        if (body.size() > 1 && body[0] == '0' &&
            (body[1] == 'x' || body[1] == 'X' || body[1] == 'o' || body[1] == 'O' ||
             body[1] == 'b' || body[1] == 'B')) {
            base = (body[1] == 'x' || body[1] == 'X')
                       ? 16
                       : ((body[1] == 'o' || body[1] == 'O') ? 8 : 2);
            body = body.substr(2);
            if (base == 16 && body.find_first_of(".pP") != std::string::npos) {
                fail(t.pos, "hexadecimal floating-point numbers are not supported: " + t.text);
            }
        } else if (body.find_first_of(".eE") != std::string::npos) {
            double d = 0;
            auto res = std::from_chars(body.data(), body.data() + body.size(), d);
            if (res.ec != std::errc() || res.ptr != body.data() + body.size()) return bad();
            return negative ? -d : d;
        } else if (body.size() > 1 && body[0] == '0') {
            base = 8;  // Go reads a leading 0 as octal
            body = body.substr(1);
        }
        uint64_t magnitude = 0;
        auto res = std::from_chars(body.data(), body.data() + body.size(), magnitude, base);
        if (res.ptr != body.data() + body.size() || body.empty()) return bad();
        if (res.ec != std::errc()) fail(t.pos, "integer overflow: " + t.text);
        if (negative) {
            if (magnitude > static_cast<uint64_t>(INT64_MAX) + 1)
                fail(t.pos, "integer overflow: " + t.text);
            return static_cast<int64_t>(0 - magnitude);
        }
        if (magnitude > static_cast<uint64_t>(INT64_MAX)) return magnitude;
        return static_cast<int64_t>(magnitude);
    }

    // Reads one escape sequence after a backslash at src_[i]; appends it; returns the index after.
    size_t read_escape(size_t i, char quote, std::string& out) {
        const size_t start = i - 1;
        if (i >= src_.size()) fail(start, "unterminated escape sequence");
        const char e = src_[i];
        switch (e) {
            case 'a':
                out += '\a';
                return i + 1;
            case 'b':
                out += '\b';
                return i + 1;
            case 'f':
                out += '\f';
                return i + 1;
            case 'n':
                out += '\n';
                return i + 1;
            case 'r':
                out += '\r';
                return i + 1;
            case 't':
                out += '\t';
                return i + 1;
            case 'v':
                out += '\v';
                return i + 1;
            case '\\':
                out += '\\';
                return i + 1;
            case '"':
            case '\'':
                if (e != quote)
                    fail(start, std::string("invalid escape \\") + e + " in this literal");
                out += e;
                return i + 1;
            case 'x':
            case 'u':
            case 'U': {
                const size_t n = e == 'x' ? 2 : (e == 'u' ? 4 : 8);
                uint32_t v = 0;
                for (size_t k = 1; k <= n; ++k) {
                    const int h = i + k < src_.size() ? hex_value(src_[i + k]) : -1;
                    if (h < 0)
                        fail(start, std::string("invalid escape \\") + e + ": expected " +
                                        std::to_string(n) + " hex digits");
                    v = v * 16 + static_cast<uint32_t>(h);
                }
                if (e == 'x') {
                    out += static_cast<char>(v);
                } else {
                    if (v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF))
                        fail(start, "escape is not a valid Unicode code point");
                    append_utf8(out, v);
                }
                return i + 1 + n;
            }
            default:
                if (e >= '0' && e <= '7') {
                    uint32_t v = 0;
                    for (size_t k = 0; k < 3; ++k) {
                        const char d = i + k < src_.size() ? src_[i + k] : 'x';
                        if (d < '0' || d > '7')
                            fail(start, "invalid octal escape: expected 3 octal digits");
                        v = v * 8 + static_cast<uint32_t>(d - '0');
                    }
                    if (v > 255) fail(start, "octal escape value over 255");
                    out += static_cast<char>(v);
                    return i + 3;
                }
                fail(start, std::string("unknown escape sequence \\") + e);
        }
    }

    std::vector<Token> lex_action(size_t open) {
        std::vector<Token> toks;
        for (;;) {
            bool space = false;
            while (pos_ < src_.size() && is_space(src_[pos_])) {
                ++pos_;
                space = true;
            }
            if (pos_ >= src_.size()) fail(open, "unclosed action: \"{{\" has no \"}}\"");
            const size_t at = pos_;
            const char ch = src_[pos_];
            const auto push = [&](Tok kind, std::string text, size_t length) {
                toks.push_back(Token{kind, at, std::move(text), space});
                pos_ += length;
            };
            if (ch == '-' && space && src_.substr(pos_, 3) == "-}}") {
                push(Tok::RightDelim, "}}", 3);
                trim_next_ = true;
                return toks;
            }
            if (src_.substr(pos_, 2) == "}}") {
                push(Tok::RightDelim, "}}", 2);
                return toks;
            }
            if (toks.size() > 100000) fail(at, "action too long");
            switch (ch) {
                case '|':
                    push(Tok::Pipe, "|", 1);
                    continue;
                case '(':
                    push(Tok::LeftParen, "(", 1);
                    continue;
                case ')':
                    push(Tok::RightParen, ")", 1);
                    continue;
                case ',':
                    push(Tok::Comma, ",", 1);
                    continue;
                case '=':
                    push(Tok::Assign, "=", 1);
                    continue;
                case ':':
                    if (src_.substr(pos_, 2) != ":=") fail(at, "expected :=");
                    push(Tok::Declare, ":=", 2);
                    continue;
                case '"': {
                    std::string value;
                    size_t i = pos_ + 1;
                    for (;;) {
                        if (i >= src_.size() || src_[i] == '\n')
                            fail(at, "unterminated quoted string");
                        if (src_[i] == '"') break;
                        if (src_[i] == '\\') {
                            i = read_escape(i + 1, '"', value);
                            continue;
                        }
                        value += src_[i++];
                    }
                    push(Tok::String, std::move(value), i + 1 - pos_);
                    continue;
                }
                case '`': {
                    const size_t close = src_.find('`', pos_ + 1);
                    if (close == std::string_view::npos) fail(at, "unterminated raw quoted string");
                    std::string value;
                    for (char rc : src_.substr(pos_ + 1, close - pos_ - 1)) {
                        if (rc != '\r') value += rc;  // Go drops carriage returns in raw strings
                    }
                    push(Tok::String, std::move(value), close + 1 - pos_);
                    continue;
                }
                case '\'': {
                    std::string value;
                    size_t i = pos_ + 1;
                    if (i < src_.size() && src_[i] == '\\') {
                        i = read_escape(i + 1, '\'', value);
                    } else if (i < src_.size() && src_[i] != '\'' && src_[i] != '\n') {
                        int size = 1;
                        decode_utf8(src_, i, size);
                        value = std::string(src_.substr(i, static_cast<size_t>(size)));
                        i += static_cast<size_t>(size);
                    }
                    if (value.empty() || i >= src_.size() || src_[i] != '\'')
                        fail(at, "malformed character constant");
                    int size = 1;
                    char32_t r = decode_utf8(value, 0, size);
                    if (value.size() == 1) r = static_cast<unsigned char>(value[0]);
                    push(Tok::Char, std::to_string(static_cast<int64_t>(r)), i + 1 - pos_);
                    continue;
                }
                case '$': {
                    size_t i = pos_ + 1;
                    while (i < src_.size() && is_alnum(src_[i])) ++i;
                    push(Tok::Variable, std::string(src_.substr(pos_, i - pos_)), i - pos_);
                    continue;
                }
                case '.':
                    if (pos_ + 1 < src_.size() && is_digit(src_[pos_ + 1]))
                        break;  // .5 is a number
                    if (pos_ + 1 < src_.size() && is_alnum(src_[pos_ + 1])) {
                        size_t i = pos_ + 1;
                        while (i < src_.size() && is_alnum(src_[i])) ++i;
                        push(Tok::Field, std::string(src_.substr(pos_ + 1, i - pos_ - 1)),
                             i - pos_);
                        continue;
                    }
                    push(Tok::Dot, ".", 1);
                    continue;
                default:
                    break;
            }
            const bool sign = (ch == '+' || ch == '-') && pos_ + 1 < src_.size() &&
                              (is_digit(src_[pos_ + 1]) || src_[pos_ + 1] == '.');
            if (is_digit(ch) || ch == '.' || sign) {
                size_t i = pos_ + (sign ? 1 : 0);
                const bool hex = src_.substr(i, 2) == "0x" || src_.substr(i, 2) == "0X";
                while (i < src_.size()) {
                    const char d = src_[i];
                    if (is_alnum(d) || d == '.') {
                        ++i;
                    } else if ((d == '+' || d == '-') && i > 0 &&
                               ((!hex && (src_[i - 1] == 'e' || src_[i - 1] == 'E')) ||
                                src_[i - 1] == 'p' || src_[i - 1] == 'P')) {
                        ++i;
                    } else {
                        break;
                    }
                }
                push(Tok::Number, std::string(src_.substr(pos_, i - pos_)), i - pos_);
                continue;
            }
            if (is_alnum(ch)) {
                size_t i = pos_;
                while (i < src_.size() && is_alnum(src_[i])) ++i;
                std::string word(src_.substr(pos_, i - pos_));
                static const std::vector<std::string> keywords = {
                    "block", "break", "continue", "define",   "else",
                    "end",   "if",    "range",    "template", "with"};
                Tok kind = Tok::Identifier;
                if (word == "true" || word == "false") {
                    kind = Tok::Bool;
                } else if (word == "nil") {
                    kind = Tok::Nil;
                } else if (std::find(keywords.begin(), keywords.end(), word) != keywords.end()) {
                    kind = Tok::Keyword;
                }
                push(kind, word, i - pos_);
                continue;
            }
            char buf[64];
            const auto u = static_cast<unsigned char>(ch);
            if (u >= 0x20 && u < 0x7F) {
                std::snprintf(buf, sizeof buf, "unexpected character '%c' in action", ch);
            } else {
                std::snprintf(buf, sizeof buf, "unexpected byte 0x%02x in action", u);
            }
            fail(at, buf);
        }
    }

    std::string_view src_;
    size_t pos_ = 0;
    int max_depth_;
    int depth_ = 0;
    int range_depth_ = 0;
    int chain_ = 0;
    static constexpr int kMaxElseChain = 1000;
    bool trim_next_ = false;
    std::vector<std::string> vars_{"$"};
};

}  // namespace

ParsedTemplate parse_template(std::string_view source, int max_depth) {
    return Parser(source, max_depth).run();
}

}  // namespace core::tmpl
