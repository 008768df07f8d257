#pragma once
// Syntax colours for `.json.tmpl` sources: template actions ({{ ... }}, comments), JSON keys,
// strings, numbers and literals; and a wavy underline on the document's diagnostics. Colours
// come from the palette (link, highlight, placeholder roles) and a light/dark check, so both
// themes stay readable.

#include <QSyntaxHighlighter>
#include <QTextCharFormat>
#include <vector>

namespace ui {

struct Diagnostic;

class TemplateHighlighter : public QSyntaxHighlighter {
    Q_OBJECT
  public:
    explicit TemplateHighlighter(QTextDocument* document);
    void setDiagnostics(const std::vector<Diagnostic>& diagnostics);
    void updatePalette(const QPalette& palette);

  protected:
    void highlightBlock(const QString& text) override;

  private:
    QTextCharFormat action_, comment_, key_, string_, number_, literal_, error_;
    std::vector<std::pair<int, int>> errors_;  // [position, length] in the document
};

}  // namespace ui
