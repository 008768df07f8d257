// Names of schema enums as they appear on the wire (PROTOCOLS section 2).
#include "core/policy/schema.h"

namespace core {

std::string_view to_string(QuestionType type) {
    switch (type) {
        case QuestionType::Noul:
            return "noul";
        case QuestionType::Choice:
            return "choice";
        case QuestionType::Score:
            return "score";
    }
    return "noul";
}

std::string_view to_string(Layout layout) {
    return layout == Layout::SchemaFirst ? "schema_first" : "document_first";
}

std::string_view to_string(Isolate isolate) {
    switch (isolate) {
        case Isolate::Auto:
            return "auto";
        case Isolate::None:
            return "none";
        case Isolate::Noul:
            return "noul";
        case Isolate::All:
            return "all";
    }
    return "auto";
}

std::string_view to_string(SeedToken seed) {
    return seed == SeedToken::Fixed ? "fixed" : "random";
}

std::optional<Layout> parse_layout(std::string_view text) {
    if (text == "document_first") return Layout::DocumentFirst;
    if (text == "schema_first") return Layout::SchemaFirst;
    return std::nullopt;
}

std::optional<Isolate> parse_isolate(std::string_view text) {
    if (text == "auto") return Isolate::Auto;
    if (text == "none") return Isolate::None;
    if (text == "noul") return Isolate::Noul;
    if (text == "all") return Isolate::All;
    return std::nullopt;
}

std::optional<SeedToken> parse_seed_token(std::string_view text) {
    if (text == "random") return SeedToken::Random;
    if (text == "fixed") return SeedToken::Fixed;
    return std::nullopt;
}

std::string_view to_string(LabelSet labels) {
    switch (labels) {
        case LabelSet::AZ:
            return "az";
        case LabelSet::AZ_AA:
            return "az_aa";
        case LabelSet::AZ_Lower:
            return "az_lower";
    }
    return "az";
}

std::string_view to_string(CatchAllMode mode) {
    switch (mode) {
        case CatchAllMode::Off:
            return "off";
        case CatchAllMode::Final:
            return "final";
        case CatchAllMode::Both:
            return "both";
        case CatchAllMode::Verify:
            return "verify";
    }
    return "final";
}

std::optional<LabelSet> parse_label_set(std::string_view text) {
    if (text == "az") return LabelSet::AZ;
    if (text == "az_aa") return LabelSet::AZ_AA;
    if (text == "az_lower") return LabelSet::AZ_Lower;
    return std::nullopt;
}

std::optional<CatchAllMode> parse_catch_all_mode(std::string_view text) {
    if (text == "off") return CatchAllMode::Off;
    if (text == "final") return CatchAllMode::Final;
    if (text == "both") return CatchAllMode::Both;
    if (text == "verify") return CatchAllMode::Verify;
    return std::nullopt;
}

int label_capacity(LabelSet labels) {
    return labels == LabelSet::AZ ? kMaxAlternatives : kMaxWideAlternatives;
}

int default_bracket_size(LabelSet labels) {
    return labels == LabelSet::AZ ? 20 : kMaxWideAlternatives;
}

}  // namespace core
