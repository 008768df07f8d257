#pragma once
// The variables a policy renders with: a key/value table seeded from the policy's sample
// values (<name>.vars.json). Strings are edited as text (several lines where they are long),
// anything else as JSON. The rows come in the order that matters to the author: the policy's
// own inputs in the order the template first reads them (a ticket, a diff), then the run
// settings it reads (samples, layout, ...), then values the template does not read at all.

#include <QAbstractTableModel>
#include <QWidget>

#include <nlohmann/json.hpp>

class QTableView;

namespace ui {

class PolicyDocument;

class VariablesModel : public QAbstractTableModel {
    Q_OBJECT
  public:
    explicit VariablesModel(QObject* parent = nullptr);
    void setVariables(const nlohmann::json& variables);
    // The names the template reads, in the order it first reads them.
    void setTemplateReads(std::vector<std::string> names);
    QString keyAt(int row) const;
    const nlohmann::json& variables() const { return variables_; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    bool setData(const QModelIndex& index, const QVariant& value, int role) override;

    void addVariable(const QString& key);
    void removeVariable(int row);

  Q_SIGNALS:
    void variablesEdited(const nlohmann::json& variables);

  private:
    std::vector<std::string> keys() const;
    bool isRead(const std::string& key) const;
    nlohmann::json variables_ = nlohmann::json::object();
    std::vector<std::string> reads_;  // inputs first, then settings
};

class VariablesPanel : public QWidget {
    Q_OBJECT
  public:
    explicit VariablesPanel(PolicyDocument* document, QWidget* parent = nullptr);
    VariablesModel* model() const { return model_; }
    QTableView* view() const { return view_; }

  protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

  private:
    void sync();
    PolicyDocument* document_;
    VariablesModel* model_;
    QTableView* view_;
};

}  // namespace ui
