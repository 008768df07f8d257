// The variables a policy template reads: the first field of every access to the root data
// (.x outside range/with, $.x anywhere, index . "x"), found by walking the parsed template.
#include <algorithm>
#include <set>
#include <string>

#include "core/template/template.h"
#include "template/template_ast.h"

namespace core {
namespace {

using tmpl::Arg;
using tmpl::ArgKind;
using tmpl::Node;
using tmpl::NodeKind;
using tmpl::NodeList;
using tmpl::Pipeline;

class VariableCollector {
  public:
    // Every name once, in the order the template first reads it.
    std::vector<std::string> names;

    void insert(const std::string& name) {
        if (seen_.insert(name).second) names.push_back(name);
    }

    // `at_root`: whether dot is the root data where this pipeline runs.
    void pipeline(const Pipeline* pipe, bool at_root) {
        if (!pipe) return;
        for (const auto& cmd : pipe->cmds) {
            for (size_t i = 0; i < cmd.args.size(); ++i) {
                const Arg& a = cmd.args[i];
                switch (a.kind) {
                    case ArgKind::Field:
                        if (at_root && !a.fields.empty()) insert(a.fields.front());
                        break;
                    case ArgKind::Variable:
                        if (a.name == "$" && !a.fields.empty()) insert(a.fields.front());
                        break;
                    case ArgKind::Paren:
                        pipeline(a.pipe.get(), at_root);
                        break;
                    default:
                        break;
                }
            }
            // index . "name" / index $ "name": a key of the root data.
            if (cmd.args.size() >= 3 && cmd.args[0].kind == ArgKind::Function &&
                cmd.args[0].name == "index") {
                const Arg& object = cmd.args[1];
                const bool root_object = (object.kind == ArgKind::Dot && at_root) ||
                                         (object.kind == ArgKind::Variable && object.name == "$" &&
                                          object.fields.empty());
                const Arg& key = cmd.args[2];
                if (root_object && key.kind == ArgKind::Literal && key.literal.is_string())
                    insert(key.literal.get<std::string>());
            }
        }
    }

    void list(const NodeList& nodes, bool at_root) {
        for (const auto& n : nodes) node(*n, at_root);
    }

    void node(const Node& n, bool at_root) {
        switch (n.kind) {
            case NodeKind::Action:
                pipeline(n.pipe.get(), at_root);
                break;
            case NodeKind::If:
                pipeline(n.pipe.get(), at_root);
                list(n.list, at_root);
                list(n.else_list, at_root);
                break;
            case NodeKind::Range:
            case NodeKind::With:
                // The body runs with dot set to the element or the value; {{else}} keeps dot.
                pipeline(n.pipe.get(), at_root);
                list(n.list, false);
                list(n.else_list, at_root);
                break;
            default:
                break;
        }
    }

  private:
    std::set<std::string> seen_;
};

}  // namespace

Result<std::vector<std::string>> template_variables(std::string_view source,
                                                    std::string_view file_name) {
    auto names = template_variables_in_order(source, file_name);
    if (names) std::sort(names->begin(), names->end());
    return names;
}

Result<std::vector<std::string>> template_variables_in_order(std::string_view source,
                                                             std::string_view file_name) {
    // Rendering with no data checks size, UTF-8 and syntax with the renderer's own messages.
    const std::string file(file_name);
    if (source.size() > kTemplateMaxBytes || find_invalid_utf8(source) != std::string_view::npos ||
        source.find('\0') != std::string_view::npos) {
        auto rendered = render_template(source, nlohmann::json::object(), file_name);
        if (!rendered) return rendered.error();
    }
    try {
        const tmpl::ParsedTemplate parsed = tmpl::parse_template(source, kTemplateMaxNesting);
        VariableCollector collector;
        collector.list(parsed.root, true);
        return std::move(collector.names);
    } catch (const tmpl::TemplateError& e) {
        std::string message = e.message;
        std::replace(message.begin(), message.end(), '\n', ' ');
        std::replace(message.begin(), message.end(), '\r', ' ');
        if (message.size() > 600) message = message.substr(0, 597) + "...";
        return engine::bad_input(file + ":" + text_position(source, e.pos) + ": " + message);
    }
}

}  // namespace core
