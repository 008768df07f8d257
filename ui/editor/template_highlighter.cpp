// Template and JSON highlighting (see template_highlighter.h).
#include "ui/editor/template_highlighter.h"

#include <QGuiApplication>
#include <QPalette>
#include <QTextDocument>

#include "ui/editor/policy_document.h"

namespace ui {
namespace {
// Block states: 0 normal, 1 inside a {{ action that continues, 2 inside a {{/* comment.
constexpr int kInAction = 1;
constexpr int kInComment = 2;

bool is_dark(const QPalette& palette) {
    return palette.color(QPalette::Base).lightness() < 128;
}
}  // namespace

TemplateHighlighter::TemplateHighlighter(QTextDocument* document) : QSyntaxHighlighter(document) {
    updatePalette(QGuiApplication::palette());
}

void TemplateHighlighter::updatePalette(const QPalette& palette) {
    const bool dark = is_dark(palette);
    // Hues chosen per theme; lightness follows the base so text stays legible in both.
    action_ = {};
    action_.setForeground(dark ? QColor(0xc5, 0x86, 0xc0) : QColor(0x8a, 0x2b, 0x9e));
    action_.setFontWeight(QFont::DemiBold);
    comment_ = {};
    comment_.setForeground(palette.color(QPalette::PlaceholderText));
    comment_.setFontItalic(true);
    key_ = {};
    key_.setForeground(palette.color(QPalette::Link));
    string_ = {};
    string_.setForeground(dark ? QColor(0xce, 0x91, 0x78) : QColor(0xa3, 0x15, 0x15));
    number_ = {};
    number_.setForeground(dark ? QColor(0xb5, 0xce, 0xa8) : QColor(0x09, 0x86, 0x58));
    literal_ = number_;
    literal_.setFontWeight(QFont::DemiBold);
    error_ = {};
    error_.setUnderlineStyle(QTextCharFormat::WaveUnderline);
    error_.setUnderlineColor(dark ? QColor(0xff, 0x6b, 0x6b) : QColor(0xd0, 0x10, 0x10));
    rehighlight();
}

void TemplateHighlighter::setDiagnostics(const std::vector<Diagnostic>& diagnostics) {
    std::vector<std::pair<int, int>> errors;
    for (const auto& d : diagnostics) errors.emplace_back(d.position, d.length);
    if (errors == errors_) return;
    errors_ = std::move(errors);
    rehighlight();
}

void TemplateHighlighter::highlightBlock(const QString& text) {
    int i = 0;
    const int n = static_cast<int>(text.size());
    int state = previousBlockState() < 0 ? 0 : previousBlockState();
    auto action_end = [&](int from) {
        // The end of a {{ ... }} action, skipping quoted strings inside it; -1 if it continues.
        for (int j = from; j + 1 < n; ++j) {
            if (text[j] == QLatin1Char('"')) {
                for (++j; j < n && text[j] != QLatin1Char('"'); ++j)
                    if (text[j] == QLatin1Char('\\')) ++j;
            } else if (text[j] == QLatin1Char('}') && text[j + 1] == QLatin1Char('}')) {
                return j + 2;
            }
        }
        return -1;
    };
    if (state == kInComment) {
        const int end = static_cast<int>(text.indexOf(QLatin1String("*/"), 0));
        if (end < 0) {
            setFormat(0, n, comment_);
            setCurrentBlockState(kInComment);
            return;
        }
        int stop = static_cast<int>(text.indexOf(QLatin1String("}}"), end));
        stop = stop < 0 ? end + 2 : stop + 2;
        setFormat(0, stop, comment_);
        i = stop;
    } else if (state == kInAction) {
        const int end = action_end(0);
        if (end < 0) {
            setFormat(0, n, action_);
            setCurrentBlockState(kInAction);
            return;
        }
        setFormat(0, end, action_);
        i = end;
    }
    setCurrentBlockState(0);
    while (i < n) {
        const QChar c = text[i];
        if (c == QLatin1Char('{') && i + 1 < n && text[i + 1] == QLatin1Char('{')) {
            const bool comment = text.mid(i, 5)
                                     .remove(QLatin1Char('-'))
                                     .remove(QLatin1Char(' '))
                                     .startsWith(QLatin1String("{{/*"));
            if (comment) {
                const int close = static_cast<int>(text.indexOf(QLatin1String("*/"), i));
                if (close < 0) {
                    setFormat(i, n - i, comment_);
                    setCurrentBlockState(kInComment);
                    return;
                }
                int stop = static_cast<int>(text.indexOf(QLatin1String("}}"), close));
                stop = stop < 0 ? close + 2 : stop + 2;
                setFormat(i, stop - i, comment_);
                i = stop;
                continue;
            }
            const int end = action_end(i + 2);
            if (end < 0) {
                setFormat(i, n - i, action_);
                setCurrentBlockState(kInAction);
                return;
            }
            setFormat(i, end - i, action_);
            i = end;
        } else if (c == QLatin1Char('"')) {
            int j = i + 1;
            while (j < n && text[j] != QLatin1Char('"')) {
                if (text[j] == QLatin1Char('\\')) ++j;
                ++j;
            }
            j = std::min(n, j + 1);
            // A string followed by ':' is an object key.
            int k = j;
            while (k < n && text[k].isSpace()) ++k;
            const bool key = k < n && text[k] == QLatin1Char(':');
            setFormat(i, j - i, key ? key_ : string_);
            // Actions inside the string keep their own colour.
            for (int a = static_cast<int>(text.indexOf(QLatin1String("{{"), i)); a >= 0 && a < j;
                 a = static_cast<int>(text.indexOf(QLatin1String("{{"), a + 2))) {
                const int end = action_end(a + 2);
                if (end < 0) break;
                setFormat(a, end - a, action_);
            }
            i = j;
        } else if (c.isDigit() || (c == QLatin1Char('-') && i + 1 < n && text[i + 1].isDigit())) {
            int j = i + 1;
            while (j < n && (text[j].isDigit() || text[j] == QLatin1Char('.') ||
                             text[j] == QLatin1Char('e') || text[j] == QLatin1Char('E')))
                ++j;
            setFormat(i, j - i, number_);
            i = j;
        } else if (c.isLetter()) {
            int j = i;
            while (j < n && text[j].isLetter()) ++j;
            const QString word = text.mid(i, j - i);
            if (word == QLatin1String("true") || word == QLatin1String("false") ||
                word == QLatin1String("null"))
                setFormat(i, j - i, literal_);
            i = j;
        } else {
            ++i;
        }
    }

    // Diagnostics: merge a wavy underline into what is already there.
    const int block_start = currentBlock().position();
    for (const auto& [position, length] : errors_) {
        const int from = std::max(position, block_start);
        const int to = std::min(position + length, block_start + std::max(1, n));
        for (int p = from; p < to; ++p) {
            QTextCharFormat f = format(p - block_start);
            f.setUnderlineStyle(error_.underlineStyle());
            f.setUnderlineColor(error_.underlineColor());
            setFormat(p - block_start, 1, f);
        }
    }
}

}  // namespace ui
