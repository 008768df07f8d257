#pragma once
// The questions of the open policy as a table (id, type, instructions, alternatives, alone).
// The model never changes its own rows: an edit, insert, removal or drag-move computes the new
// question list and asks for it through editRequested(); the document applies it to the source
// and the re-render comes back through setQuestions(). So the table always shows the source.

#include <QAbstractTableModel>
#include <vector>

#include "core/policy/schema.h"

namespace ui {

class QuestionTableModel : public QAbstractTableModel {
    Q_OBJECT
  public:
    enum Column {
        IdColumn,
        TypeColumn,
        InstructionsColumn,
        AlternativesColumn,
        AloneColumn,
        ColumnCount
    };

    explicit QuestionTableModel(QObject* parent = nullptr);

    void setQuestions(const std::vector<core::Question>& questions);
    const std::vector<core::Question>& questions() const { return questions_; }
    void setEditable(bool editable);
    bool editable() const { return editable_; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    bool setData(const QModelIndex& index, const QVariant& value, int role) override;

    // Drag and drop of whole rows (reorder).
    Qt::DropActions supportedDropActions() const override { return Qt::MoveAction; }
    QStringList mimeTypes() const override;
    QMimeData* mimeData(const QModelIndexList& indexes) const override;
    bool dropMimeData(const QMimeData* data, Qt::DropAction action, int row, int column,
                      const QModelIndex& parent) override;

    // Requests (the document applies them).
    void requestAdd(core::QuestionType type);
    void requestRemove(int row);
    void requestMove(int from, int to);
    // Replaces a choice question's options (imported from a spreadsheet): one undo step.
    void requestOptions(int row, std::vector<core::Option> options);

    // The alternatives column's text form, one per line ("name: description"), and back.
    static QString alternativesText(const core::Question& question);
    static void applyAlternativesText(core::Question& question, const QString& text);
    static QString typeText(core::QuestionType type);

  Q_SIGNALS:
    void editRequested(const std::vector<core::Question>& questions, const QString& what);

  private:
    std::vector<core::Question> questions_;
    bool editable_ = true;
};

}  // namespace ui
