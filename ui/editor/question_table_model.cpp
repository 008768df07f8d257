// The question table (see question_table_model.h).
#include "ui/editor/question_table_model.h"

#include <QMimeData>
#include <set>

namespace ui {
namespace {
constexpr auto kRowMime = "application/x-decision-studio-question-row";

QString new_id(const std::vector<core::Question>& questions, const QString& stem) {
    std::set<std::string> taken;
    for (const auto& q : questions) taken.insert(q.id);
    for (int n = 1;; ++n) {
        const QString id = n == 1 ? stem : stem + QString::number(n);
        if (!taken.count(id.toStdString())) return id;
    }
}
}  // namespace

QuestionTableModel::QuestionTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void QuestionTableModel::setQuestions(const std::vector<core::Question>& questions) {
    if (questions.size() == questions_.size()) {
        questions_ = questions;
        if (!questions_.empty())
            Q_EMIT dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
        return;
    }
    beginResetModel();
    questions_ = questions;
    endResetModel();
}

void QuestionTableModel::setEditable(bool editable) {
    if (editable_ == editable) return;
    editable_ = editable;
    if (!questions_.empty())
        Q_EMIT dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
}

int QuestionTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(questions_.size());
}
int QuestionTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QString QuestionTableModel::typeText(core::QuestionType type) {
    switch (type) {
        case core::QuestionType::Noul:
            return tr("yes/no");
        case core::QuestionType::Choice:
            return tr("choice");
        case core::QuestionType::Score:
            return tr("score");
    }
    return {};
}

QString QuestionTableModel::alternativesText(const core::Question& question) {
    QStringList lines;
    auto criterion = [&](const std::string& key) {
        auto it = question.criteria.find(key);
        return it == question.criteria.end() ? QString() : QString::fromStdString(it->second);
    };
    switch (question.type) {
        case core::QuestionType::Noul:
            for (const char* key : {"true", "false"})
                if (!criterion(key).isEmpty())
                    lines << QString::fromLatin1(key) + QStringLiteral(": ") + criterion(key);
            break;
        case core::QuestionType::Choice:
            for (const auto& option : question.options)
                lines << (option.description.empty()
                              ? QString::fromStdString(option.name)
                              : QString::fromStdString(option.name) + QStringLiteral(": ") +
                                    QString::fromStdString(option.description));
            break;
        case core::QuestionType::Score:
            for (const auto& level : question.levels) {
                const QString c = criterion(level);
                lines << (c.isEmpty() ? QString::fromStdString(level)
                                      : QString::fromStdString(level) + QStringLiteral(": ") + c);
            }
            break;
    }
    return lines.join(QLatin1Char('\n'));
}

void QuestionTableModel::applyAlternativesText(core::Question& question, const QString& text) {
    std::vector<std::pair<std::string, std::string>> entries;
    for (const QString& raw : text.split(QLatin1Char('\n'))) {
        const QString line = raw.trimmed();
        if (line.isEmpty()) continue;
        const qsizetype colon = line.indexOf(QLatin1Char(':'));
        if (colon < 0) {
            entries.emplace_back(line.toStdString(), std::string());
        } else {
            entries.emplace_back(line.left(colon).trimmed().toStdString(),
                                 line.mid(colon + 1).trimmed().toStdString());
        }
    }
    switch (question.type) {
        case core::QuestionType::Noul:
            question.criteria.clear();
            for (auto& [key, value] : entries) {
                std::string k = key == "yes" ? "true" : key == "no" ? "false" : key;
                if ((k == "true" || k == "false") && !value.empty()) question.criteria[k] = value;
            }
            break;
        case core::QuestionType::Choice:
            question.options.clear();
            for (auto& [key, value] : entries) question.options.push_back({key, value});
            break;
        case core::QuestionType::Score:
            question.levels.clear();
            question.criteria.clear();
            for (auto& [key, value] : entries) {
                question.levels.push_back(key);
                if (!value.empty()) question.criteria[key] = value;
            }
            break;
    }
}

QVariant QuestionTableModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount()) return {};
    const core::Question& q = questions_[static_cast<size_t>(index.row())];
    if (role == Qt::CheckStateRole && index.column() == AloneColumn)
        return q.alone ? Qt::Checked : Qt::Unchecked;
    if (role == Qt::DisplayRole || role == Qt::EditRole || role == Qt::ToolTipRole) {
        switch (index.column()) {
            case IdColumn:
                return QString::fromStdString(q.id);
            case TypeColumn:
                return role == Qt::EditRole ? static_cast<int>(q.type) : QVariant(typeText(q.type));
            case InstructionsColumn:
                return QString::fromStdString(q.instructions);
            case AlternativesColumn: {
                const QString text = alternativesText(q);
                if (role == Qt::DisplayRole) {
                    // One line in the table: names only.
                    QStringList names;
                    for (const auto& a : q.alternatives()) names << QString::fromStdString(a);
                    return names.join(QStringLiteral(" · "));
                }
                return text;
            }
            case AloneColumn:
                return role == Qt::ToolTipRole ? tr("Read this question alone") : QVariant();
        }
    }
    return {};
}

QVariant QuestionTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (role == Qt::ToolTipRole && orientation == Qt::Horizontal && section == AlternativesColumn)
        return tr("A choice's options, a score's levels, a yes/no question's criteria");
    if (role != Qt::DisplayRole) return {};
    if (orientation == Qt::Vertical) return section + 1;
    switch (section) {
        case IdColumn:
            return tr("Id");
        case TypeColumn:
            return tr("Type");
        case InstructionsColumn:
            return tr("Instructions");
        case AlternativesColumn:
            return tr("Options");
        case AloneColumn:
            return tr("Alone");
    }
    return {};
}

Qt::ItemFlags QuestionTableModel::flags(const QModelIndex& index) const {
    Qt::ItemFlags f = Qt::ItemIsEnabled | Qt::ItemIsSelectable;
    if (!index.isValid()) return editable_ ? (f | Qt::ItemIsDropEnabled) : f;
    if (!editable_) return f;
    f |= Qt::ItemIsDragEnabled | Qt::ItemIsDropEnabled;
    if (index.column() == AloneColumn) return f | Qt::ItemIsUserCheckable;
    return f | Qt::ItemIsEditable;
}

bool QuestionTableModel::setData(const QModelIndex& index, const QVariant& value, int role) {
    if (!index.isValid() || !editable_ || index.row() >= rowCount()) return false;
    std::vector<core::Question> edited = questions_;
    core::Question& q = edited[static_cast<size_t>(index.row())];
    const QString id = QString::fromStdString(q.id);
    QString what;
    if (role == Qt::CheckStateRole && index.column() == AloneColumn) {
        q.alone = value.toInt() == Qt::Checked;
        q.alone_explicit = q.alone;
        what = tr("Set “%1” alone").arg(id);
    } else if (role == Qt::EditRole) {
        switch (index.column()) {
            case IdColumn: {
                const QString new_id = value.toString().trimmed();
                if (new_id.isEmpty() || new_id == id) return false;
                q.id = new_id.toStdString();
                // Keep dependencies pointing at the renamed question.
                for (auto& other : edited)
                    for (auto& dep : other.depends_on)
                        if (dep == id.toStdString()) dep = q.id;
                what = tr("Rename question “%1”").arg(id);
                break;
            }
            case TypeColumn: {
                const auto type = static_cast<core::QuestionType>(value.toInt());
                if (type == q.type) return false;
                // Carry the alternatives over as well as the types allow.
                const auto names = q.alternatives();
                q.type = type;
                q.options.clear();
                q.levels.clear();
                q.criteria.clear();
                if (type == core::QuestionType::Choice) {
                    for (const auto& n : names) q.options.push_back({n, {}});
                    if (q.options.size() < 2) q.options = {{"first", {}}, {"second", {}}};
                } else if (type == core::QuestionType::Score) {
                    q.levels = names;
                    if (q.levels.size() < 2) q.levels = {"low", "medium", "high"};
                }
                what = tr("Change type of “%1”").arg(id);
                break;
            }
            case InstructionsColumn:
                if (value.toString().toStdString() == q.instructions) return false;
                q.instructions = value.toString().toStdString();
                what = tr("Edit instructions of “%1”").arg(id);
                break;
            case AlternativesColumn:
                applyAlternativesText(q, value.toString());
                what = tr("Edit alternatives of “%1”").arg(id);
                break;
            default:
                return false;
        }
    } else {
        return false;
    }
    Q_EMIT editRequested(edited, what);
    return true;
}

QStringList QuestionTableModel::mimeTypes() const {
    return {QString::fromLatin1(kRowMime)};
}

QMimeData* QuestionTableModel::mimeData(const QModelIndexList& indexes) const {
    if (indexes.isEmpty()) return nullptr;
    auto* mime = new QMimeData;
    mime->setData(QString::fromLatin1(kRowMime), QByteArray::number(indexes.first().row()));
    return mime;
}

bool QuestionTableModel::dropMimeData(const QMimeData* data, Qt::DropAction action, int row, int,
                                      const QModelIndex& parent) {
    if (action != Qt::MoveAction || !data->hasFormat(QString::fromLatin1(kRowMime))) return false;
    const int from = data->data(QString::fromLatin1(kRowMime)).toInt();
    int to = row >= 0 ? row : parent.isValid() ? parent.row() : rowCount();
    if (to > from) --to;  // the row leaves its old place first
    requestMove(from, to);
    return false;  // the view must not remove the source row itself: the re-render does
}

void QuestionTableModel::requestAdd(core::QuestionType type) {
    std::vector<core::Question> edited = questions_;
    core::Question q;
    q.type = type;
    switch (type) {
        case core::QuestionType::Noul:
            q.id = new_id(questions_, QStringLiteral("flag")).toStdString();
            q.instructions = "Is this true?";
            break;
        case core::QuestionType::Choice:
            q.id = new_id(questions_, QStringLiteral("category")).toStdString();
            q.instructions = "Which one fits best?";
            q.options = {{"first", ""}, {"second", ""}};
            break;
        case core::QuestionType::Score:
            q.id = new_id(questions_, QStringLiteral("level")).toStdString();
            q.instructions = "How strong is it?";
            q.levels = {"low", "medium", "high"};
            break;
    }
    edited.push_back(q);
    Q_EMIT editRequested(edited, tr("Add question “%1”").arg(QString::fromStdString(q.id)));
}

void QuestionTableModel::requestRemove(int row) {
    if (row < 0 || row >= rowCount()) return;
    std::vector<core::Question> edited = questions_;
    const QString id = QString::fromStdString(edited[static_cast<size_t>(row)].id);
    edited.erase(edited.begin() + row);
    Q_EMIT editRequested(edited, tr("Remove question “%1”").arg(id));
}

void QuestionTableModel::requestOptions(int row, std::vector<core::Option> options) {
    if (row < 0 || row >= rowCount()) return;
    std::vector<core::Question> edited = questions_;
    core::Question& q = edited[static_cast<size_t>(row)];
    if (q.type != core::QuestionType::Choice) return;
    const int count = static_cast<int>(options.size());
    q.options = std::move(options);
    Q_EMIT editRequested(
        edited,
        tr("Import %n option(s) into “%1”", nullptr, count).arg(QString::fromStdString(q.id)));
}

void QuestionTableModel::requestMove(int from, int to) {
    if (from < 0 || from >= rowCount() || to < 0 || to >= rowCount() || from == to) return;
    std::vector<core::Question> edited = questions_;
    core::Question moved = edited[static_cast<size_t>(from)];
    edited.erase(edited.begin() + from);
    edited.insert(edited.begin() + to, moved);
    Q_EMIT editRequested(edited, tr("Move question “%1”").arg(QString::fromStdString(moved.id)));
}

}  // namespace ui
