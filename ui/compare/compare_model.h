#pragma once
// The Compare view's data, as item models (the view holds none):
//   CompareModel          one comparison (core::compare::Comparison, built by build_comparison
//                         exactly as `dgem compare` builds it): a row per question with the
//                         slot answer, its probability and hesitation, the generative answer and
//                         whether the two agree; and the texts of the strip above both sides.
//   GenerationStepsModel  the generation while it streams: one row per progress report of the
//                         backend (denoising steps: stage and fraction), the streamed text.

#include <QAbstractListModel>
#include <QAbstractTableModel>
#include <QElapsedTimer>
#include <optional>
#include <vector>

#include "core/comparison/compare.h"

namespace ui {

// What the strip says about a Comparison. Missing sides read "—".
struct CompareStrip {
    QString passes;     // "1 vs 32"
    QString latency;    // "slot 84.2 ms · generative 3210.5 ms"
    QString ratio;      // "38.1×"
    QString agreement;  // "2 of 3 answered by both"
    QString validity;   // "valid JSON" / "invalid: missing \"team\"" / "no answer"
};
CompareStrip compareStrip(const core::compare::Comparison& comparison);

class CompareModel : public QAbstractTableModel {
    Q_OBJECT
  public:
    enum Column { Question, Slot, Probability, Hesitation, Generative, Agree, Columns };
    enum Roles {
        SlotWinnerRole = Qt::UserRole + 1,  // int, -1 when the slot side failed
        GenerativeRole,                     // int, -1 when no valid value
        AgreeRole,                          // bool
        SortRole,
    };

    explicit CompareModel(QObject* parent = nullptr);
    void setComparison(core::compare::Comparison comparison);
    void clear();
    bool hasComparison() const { return comparison_.has_value(); }
    const core::compare::Comparison& comparison() const;  // valid when hasComparison()
    CompareStrip strip() const;                           // empty texts when none

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

  private:
    std::optional<core::compare::Comparison> comparison_;
};

class GenerationStepsModel : public QAbstractListModel {
    Q_OBJECT
  public:
    struct Step {
        QString stage;
        double fraction = -1;
        qint64 elapsed_ms = 0;  // since start()
        int pass = 0;           // 1-based denoising pass, 0 for other stages
    };
    enum Roles { StageRole = Qt::UserRole + 1, FractionRole, ElapsedRole, PassRole };

    explicit GenerationStepsModel(QObject* parent = nullptr);
    void start();  // clears, and starts the clock
    // One progress report of the generation (stage, fraction, streamed text).
    void add(const QString& stage, double fraction, const QString& text_delta);
    void clear();

    int passes() const { return passes_; }  // denoising passes seen so far
    const QString& streamedText() const { return text_; }
    const Step* step(int row) const;
    const Step* last() const { return steps_.empty() ? nullptr : &steps_.back(); }

    int rowCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;

  Q_SIGNALS:
    void textChanged(const QString& text);

  private:
    std::vector<Step> steps_;
    QString text_;
    int passes_ = 0;
    QElapsedTimer clock_;
};

}  // namespace ui
