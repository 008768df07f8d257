#pragma once
// The `.json.tmpl` source view: the document's own QTextDocument with template/JSON colours,
// errors underlined where they are, their message on hover and in a line under the text.

#include <QPointer>
#include <QWidget>

class QLabel;

namespace ui {

class PolicyDocument;
class TemplateHighlighter;
class UndoRoutingEdit;

class SourceEditor : public QWidget {
    Q_OBJECT
  public:
    explicit SourceEditor(PolicyDocument* document, QWidget* parent = nullptr);
    ~SourceEditor() override;
    UndoRoutingEdit* edit() const { return edit_; }
    // The diagnostic message at a character position, or empty (also what hovering shows).
    QString messageAt(int position) const;

  protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
    void changeEvent(QEvent* event) override;

  private:
    void showDiagnostics();

    PolicyDocument* document_;
    QPointer<PolicyDocument> document_guard_;
    UndoRoutingEdit* edit_;
    TemplateHighlighter* highlighter_;
    QLabel* status_;
};

}  // namespace ui
