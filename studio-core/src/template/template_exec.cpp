// Executes a parsed policy template against JSON data with Go text/template's semantics
// (see core/template/template.h), and records where each piece of output came from.
#include <algorithm>
#include <new>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "base/text.h"
#include "core/template/template.h"
#include "template/go_format.h"
#include "template/template_ast.h"
#include "template/template_funcs.h"

namespace core {
namespace tmpl {
namespace {

using json = nlohmann::json;

// A value for an error message: short, quoted when text, on one line.
std::string short_value(const json& j) {
    std::string text = go_sprint(j);
    if (text.size() > 60) text = text.substr(0, 57) + "...";
    return j.is_string() ? go_quote(text) : text;
}

class Executor {
  public:
    explicit Executor(const json& data) : root_{data.is_null() ? json::object() : data, false} {
        vars_.push_back({"$", root_});
    }

    RenderedTemplate run(const NodeList& list) {
        walk(list, root_);
        return std::move(out_);
    }

  private:
    enum class Flow { Normal, Break, Continue };
    struct Var {
        std::string name;
        Value value;
    };

    [[noreturn]] static void fail(size_t pos, std::string message) {
        throw TemplateError{pos, std::move(message)};
    }

    void step(size_t pos) {
        if (++steps_ > kTemplateMaxSteps) {
            fail(pos, "stopped after " + std::to_string(kTemplateMaxSteps) +
                          " steps (actions and loop iterations); does a range run away?");
        }
    }

    void emit(std::string_view s, size_t source_offset, bool verbatim) {
        if (s.empty()) return;
        if (out_.text.size() + s.size() > kTemplateMaxOutputBytes) {
            fail(source_offset, "rendered output exceeds " +
                                    std::to_string(kTemplateMaxOutputBytes / (1024 * 1024)) +
                                    " MiB; policies render to small JSON documents");
        }
        out_.segments.push_back({out_.text.size(), source_offset, verbatim});
        out_.text.append(s);
    }

    Flow walk(const NodeList& list, const Value& dot) {
        for (const auto& node : list) {
            const Flow f = walk_node(*node, dot);
            if (f != Flow::Normal) return f;
        }
        return Flow::Normal;
    }

    Flow walk_node(const Node& n, const Value& dot) {
        step(n.pos);
        switch (n.kind) {
            case NodeKind::Text:
                emit(n.text, n.pos, true);
                return Flow::Normal;
            case NodeKind::Action: {
                const Value v = eval_pipeline(*n.pipe, dot, true);
                if (n.pipe->decl.empty()) emit(print_text(v, n.pos), n.pos, false);
                return Flow::Normal;
            }
            case NodeKind::Break:
                return Flow::Break;
            case NodeKind::Continue:
                return Flow::Continue;
            case NodeKind::If:
            case NodeKind::With: {
                const size_t mark = vars_.size();
                const Value v = eval_pipeline(*n.pipe, dot, true);
                Flow f = Flow::Normal;
                if (truth(v)) {
                    f = walk(n.list, n.kind == NodeKind::With ? v : dot);
                } else {
                    f = walk(n.else_list, dot);
                }
                vars_.resize(mark);
                return f;
            }
            case NodeKind::Range:
                return walk_range(n, dot);
        }
        return Flow::Normal;
    }

    Flow walk_range(const Node& n, const Value& dot) {
        const size_t mark = vars_.size();
        const Value v = eval_pipeline(*n.pipe, dot, false);
        const auto& decl = n.pipe->decl;
        for (const auto& name : decl) vars_.push_back({name, Value::none()});
        const size_t body_mark = vars_.size();
        bool any = false;
        // Returns false when the loop should stop ({{break}}).
        const auto iterate = [&](Value key, const Value& elem) {
            step(n.pos);
            any = true;
            if (!decl.empty()) vars_[body_mark - 1].value = elem;
            if (decl.size() > 1) vars_[mark].value = std::move(key);
            const Flow f = walk(n.list, elem);
            vars_.resize(body_mark);
            return f != Flow::Break;
        };
        if (!v.is_nil()) {
            const json& j = v.json;
            if (j.is_array()) {
                for (size_t i = 0; i < j.size(); ++i) {
                    if (!iterate(Value{static_cast<int64_t>(i), false}, Value{j[i], false})) break;
                }
            } else if (j.is_object()) {
                // nlohmann keeps object keys sorted, which is Go's map order in templates.
                for (auto it = j.begin(); it != j.end(); ++it) {
                    if (!iterate(Value{it.key(), false}, Value{it.value(), false})) break;
                }
            } else if (j.is_number_integer()) {
                if (decl.size() > 1) {
                    fail(n.pos,
                         "can't use " + go_sprint(j) + " to iterate over more than one variable");
                }
                const int64_t count = j.is_number_unsigned() ? INT64_MAX : j.get<int64_t>();
                for (int64_t i = 0; i < count; ++i) {
                    if (!iterate(Value{i, false}, Value{i, false})) break;
                }
            } else {
                fail(n.pos, "range can't iterate over " + short_value(j) + " (a " +
                                go_type_name(j) + "); range takes an array, a map or an integer");
            }
        }
        Flow f = Flow::Normal;
        if (!any) f = walk(n.else_list, dot);
        vars_.resize(mark);
        return f;
    }

    std::string print_text(const Value& v, size_t pos) {
        if (v.is_nil()) return "<no value>";
        try {
            return go_sprint(v.json);
        } catch (const FormatDepthError& e) {
            fail(pos, e.what());
        }
    }

    Value& variable(const std::string& name, size_t pos) {
        for (auto it = vars_.rbegin(); it != vars_.rend(); ++it) {
            if (it->name == name) return it->value;
        }
        fail(pos, "undefined variable \"" + name + "\"");
    }

    // `declare`: run the pipeline's declarations/assignments (false for range, which binds its
    // variables per iteration).
    Value eval_pipeline(const Pipeline& p, const Value& dot, bool declare) {
        std::optional<Value> v;
        for (const Command& cmd : p.cmds) v = eval_command(cmd, dot, v);
        Value result = std::move(*v);
        // Go digs a nil interface{} down to "no value" at the end of a pipeline.
        if (result.json.is_null()) result = Value::none();
        if (declare) {
            for (const auto& name : p.decl) {
                if (p.is_assign) {
                    variable(name, p.pos) = result;
                } else {
                    vars_.push_back({name, result});
                }
            }
        }
        return result;
    }

    Value fields(Value receiver, const std::vector<std::string>& names, size_t pos) {
        for (const auto& name : names) {
            if (receiver.missing) return Value::none();
            const json& j = receiver.json;
            if (j.is_object()) {
                auto it = j.find(name);
                if (it == j.end()) return Value::none();
                json next = *it;
                receiver = Value{std::move(next), false};
            } else if (j.is_null()) {
                fail(pos, "can't evaluate field " + name + ": the value is null");
            } else {
                fail(pos, "can't evaluate field " + name + " in type " + go_type_name(j));
            }
        }
        return receiver;
    }

    Value eval_operand(const Arg& a, const Value& dot) {
        switch (a.kind) {
            case ArgKind::Dot:
                return dot;
            case ArgKind::Field:
                return fields(dot, a.fields, a.pos);
            case ArgKind::Variable:
                return fields(variable(a.name, a.pos), a.fields, a.pos);
            case ArgKind::Paren:
                return fields(eval_pipeline(*a.pipe, dot, true), a.fields, a.pos);
            case ArgKind::Literal:
                return Value{a.literal, false};
            case ArgKind::Nil:
                return Value{json(), false};
            case ArgKind::Function:
                return call(a, {}, dot, std::nullopt);
        }
        return Value::none();
    }

    Value eval_command(const Command& cmd, const Value& dot, const std::optional<Value>& final) {
        const Arg& head = cmd.args.front();
        if (head.kind == ArgKind::Function) {
            return call(head, std::vector<Arg>(cmd.args.begin() + 1, cmd.args.end()), dot, final);
        }
        return eval_operand(head, dot);
    }

    Value call(const Arg& fn, const std::vector<Arg>& args, const Value& dot,
               const std::optional<Value>& final) {
        const FunctionInfo* info = find_function(fn.name);
        if (fn.name == "and" || fn.name == "or") {
            // Short-circuit, as Go does since 1.18.
            Value v = Value::none();
            for (const Arg& a : args) {
                v = eval_operand(a, dot);
                if (truth(v) == (fn.name == "or")) return v;
            }
            if (final) v = *final;
            return v;
        }
        std::vector<Value> values;
        values.reserve(args.size() + 1);
        for (const Arg& a : args) values.push_back(eval_operand(a, dot));
        if (final) values.push_back(*final);
        try {
            return call_function(*info, values);
        } catch (const std::runtime_error& e) {
            fail(fn.pos, "error calling " + fn.name + ": " + e.what());
        }
    }

    Value root_;
    std::vector<Var> vars_;
    size_t steps_ = 0;
    RenderedTemplate out_;
};

}  // namespace
}  // namespace tmpl

std::string text_position(std::string_view text, std::size_t offset) {
    const base::TextPosition at = base::text_position_of(text, offset);
    return std::to_string(at.line) + ":" + std::to_string(at.column);
}

std::size_t find_invalid_utf8(std::string_view text) {
    for (size_t i = 0; i < text.size();) {
        if (static_cast<unsigned char>(text[i]) < 0x80) {
            ++i;
            continue;
        }
        int size = 1;
        tmpl::decode_utf8(text, i, size);
        if (size == 1) return i;
        i += static_cast<size_t>(size);
    }
    return std::string_view::npos;
}

std::size_t RenderedTemplate::source_offset_of(std::size_t output_offset) const {
    auto it = std::upper_bound(segments.begin(), segments.end(), output_offset,
                               [](size_t off, const Segment& s) { return off < s.output_offset; });
    if (it == segments.begin()) return 0;
    --it;
    return it->verbatim ? it->source_offset + (output_offset - it->output_offset)
                        : it->source_offset;
}

Result<RenderedTemplate> render_template_traced(std::string_view source, const nlohmann::json& data,
                                                std::string_view file_name) {
    const std::string file(file_name);
    if (source.size() > kTemplateMaxBytes) {
        return engine::bad_input(file + ": the template is " + std::to_string(source.size()) +
                                 " bytes; templates are limited to " +
                                 std::to_string(kTemplateMaxBytes) + " bytes (1 MiB)");
    }
    if (const size_t bad = find_invalid_utf8(source); bad != std::string_view::npos) {
        char byte[8];
        std::snprintf(byte, sizeof byte, "0x%02x", static_cast<unsigned char>(source[bad]));
        return engine::bad_input(file + ":" + text_position(source, bad) +
                                 ": not UTF-8 text (byte " + byte +
                                 "); policy templates must be UTF-8 text");
    }
    if (const size_t nul = source.find('\0'); nul != std::string_view::npos) {
        return engine::bad_input(file + ":" + text_position(source, nul) +
                                 ": contains a NUL byte; policy templates must be UTF-8 text");
    }
    try {
        const tmpl::ParsedTemplate parsed = tmpl::parse_template(source, kTemplateMaxNesting);
        return tmpl::Executor(data).run(parsed.root);
    } catch (const tmpl::TemplateError& e) {
        // One line, whatever the data in the message held.
        std::string message = e.message;
        for (char& c : message) {
            if (c == '\n' || c == '\r') c = ' ';
        }
        if (message.size() > 600) message = message.substr(0, 597) + "...";
        return engine::bad_input(file + ":" + text_position(source, e.pos) + ": " + message);
    } catch (const std::bad_alloc&) {
        return engine::bad_input(file + ": rendering needs more memory than is available");
    }
}

Result<std::string> render_template(std::string_view source, const nlohmann::json& data,
                                    std::string_view file_name) {
    auto rendered = render_template_traced(source, data, file_name);
    if (!rendered) return rendered.error();
    return std::move(rendered->text);
}

}  // namespace core
