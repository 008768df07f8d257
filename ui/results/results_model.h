#pragma once
// A Decision as an item model: one row per question, with the numbers a card draws exposed as
// roles (so tests and views read the same values), and the runs kept as history.

#include <QAbstractListModel>
#include <QDateTime>
#include <deque>

#include "core/decide/decision.h"

namespace ui {

class ResultsModel : public QAbstractListModel {
    Q_OBJECT
  public:
    enum Roles {
        IdRole = Qt::UserRole + 1,
        LabelsRole,           // QStringList: yes/no, A.., 1..
        AlternativesRole,     // QStringList: what each label means
        MeanRole,             // QList<double>: mean probability per label
        WinnerRole,           // int
        ConfidenceRole,       // double
        EntropyRole,          // double (nats)
        HesitationRole,       // double (entropy / ln |labels|)
        HesitationTextRole,   // "Clear", "Somewhat unsure", "Very unsure"
        HesitationClassRole,  // int: core::Hesitation (colours, independent of the language)
        StderrRole,           // double, or invalid when there was one read
        StderrLabelsRole,     // QList<double>: every label's stderr (empty with one read)
        AgreementRole,        // double
        PerReadRole,          // QList<QList<double>>: per draw, per label
        PositionRole,         // slot position in its canvas
        IsolatedRole,
        SkipRole,   // QString: why an ask_if skipped the question; empty when it was read
        StageRole,  // int: the stage (0-based) a staged read asked it in
        // QString: what the stage-2 cascade did with the question (escalationText); empty when
        // it was not escalated.
        EscalationRole,
        EscalatedByStage2Role,  // bool: stage 2's answer replaced stage 1's
    };

    explicit ResultsModel(QObject* parent = nullptr);
    void setDecision(const core::Decision& decision);
    void clear();
    const core::Decision& decision() const { return decision_; }
    bool hasDecision() const { return has_decision_; }

    int rowCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QHash<int, QByteArray> roleNames() const override;

  private:
    core::Decision decision_;
    bool has_decision_ = false;
};

struct HistoryEntry {
    QDateTime when;
    QString policy;
    QString endpoint;
    core::Decision decision;
};

// The last runs, newest first (at most `capacity`).
class HistoryModel : public QAbstractListModel {
    Q_OBJECT
  public:
    explicit HistoryModel(int capacity = 50, QObject* parent = nullptr);
    void add(HistoryEntry entry);
    const HistoryEntry* entry(int row) const;
    int rowCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;

  private:
    int capacity_;
    std::deque<HistoryEntry> entries_;
};

// "12.3 ms" / "1.24 s".
QString formatMs(double ms);
// What the stage-2 cascade did with a question, for its card: "Escalated (entropy 0.91 nats):
// stage 2 answered billing in 1.2 s; stage 1 said engineering (52%)", or why stage 1's answer
// was kept. Empty when the question was not escalated.
QString escalationText(const core::QuestionOutcome& outcome);
// The winner's summary of a question: "team: billing (87%)".
QString outcomeSummary(const core::QuestionOutcome& outcome);

}  // namespace ui
