#pragma once
// The variables a policy renders with: a key/value table seeded from the policy's sample
// values (<name>.vars.json). Strings are edited as text, anything else as JSON.

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
    nlohmann::json variables_ = nlohmann::json::object();
};

class VariablesPanel : public QWidget {
    Q_OBJECT
  public:
    explicit VariablesPanel(PolicyDocument* document, QWidget* parent = nullptr);
    VariablesModel* model() const { return model_; }

  private:
    PolicyDocument* document_;
    VariablesModel* model_;
    QTableView* view_;
};

}  // namespace ui
