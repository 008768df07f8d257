#pragma once
// The results panel: a card per question (from ResultsModel), the run's timings, Copy as JSON,
// a progress line while a run is going, errors inline, and the history of the last runs
// (collapsible, below the cards).

#include <QWidget>

class QLabel;
class QListView;
class QPlainTextEdit;
class QToolButton;
class QProgressBar;
class QPushButton;
class QVBoxLayout;

namespace ui {

class HistoryModel;
class ResultCard;
class ResultsModel;

class ResultsView : public QWidget {
    Q_OBJECT
  public:
    ResultsView(ResultsModel* model, HistoryModel* history, QWidget* parent = nullptr);
    QList<ResultCard*> cards() const;
    QString timingsText() const;
    QToolButton* thoughtToggle() const { return thought_toggle_; }
    QPlainTextEdit* thoughtText() const { return thought_text_; }
    QToolButton* historyToggle() const { return history_toggle_; }
    QListView* historyView() const { return history_view_; }
    // The history list below the cards, collapsed by default so the cards get the room.
    void setHistoryOpen(bool open);
    bool historyOpen() const;
    // The current decision as the structured server's chat JSON.
    QString decisionJson() const;

    void showProgress(const QString& stage, double fraction);
    void showError(const QString& message);
    void clearStatus();

  Q_SIGNALS:
    void historySelected(int row);

  private:
    void rebuild();

    ResultsModel* model_;
    HistoryModel* history_;
    QVBoxLayout* cards_layout_;
    QLabel* timings_;
    QLabel* status_;
    QProgressBar* progress_;
    QPushButton* copy_;
    QListView* history_view_;
    QToolButton* history_toggle_;
    QLabel* placeholder_;
    // What the model wrote before the read (schema "think"): collapsed under its toggle.
    QToolButton* thought_toggle_;
    QPlainTextEdit* thought_text_;
};

}  // namespace ui
