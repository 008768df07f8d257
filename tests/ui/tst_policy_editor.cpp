// The policy editor: form edits reach the source and source edits reach the form, all on one
// undo stack; errors are placed in the source. Uses the shipped support_triage template and the
// real template renderer and schema parser.
#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFile>
#include <QLineEdit>
#include <QMimeData>
#include <QPlainTextEdit>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBlock>
#include <QTextCursor>
#include <QTextDocument>
#include <QToolButton>
#include <QUndoStack>

#include "core/policy/policy_source_edit.h"
#include "ui/editor/policy_document.h"
#include "ui/editor/policy_form.h"
#include "ui/editor/question_table_model.h"
#include "ui/editor/source_editor.h"
#include "ui/editor/undo_routing_edit.h"

using ui::PolicyDocument;
using ui::QuestionTableModel;

namespace {
QString read(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return {};
    return QString::fromUtf8(f.readAll());
}
const QString kTemplate =
    QStringLiteral(DS_SOURCE_DIR "/resources/templates/support_triage.json.tmpl");
const QString kVars = QStringLiteral(DS_SOURCE_DIR "/resources/templates/support_triage.vars.json");
}  // namespace

class PolicyEditorTest : public QObject {
    Q_OBJECT
    QString original_;

    void load(PolicyDocument& doc) {
        const auto vars = nlohmann::json::parse(read(kVars).toStdString());
        doc.load(QStringLiteral("support_triage"), kTemplate, original_, vars);
    }

  private Q_SLOTS:
    void initTestCase() {
        original_ = read(kTemplate);
        QVERIFY2(!original_.isEmpty(), qPrintable(kTemplate));
    }

    void rendersTheShippedPolicy() {
        PolicyDocument doc;
        load(doc);
        QVERIFY2(doc.valid(), qPrintable(doc.firstError()));
        QVERIFY(doc.schema().has_value());
        QCOMPARE(doc.schema()->questions.size(), size_t(3));
        QCOMPARE(doc.schema()->questions[1].id, std::string("team"));
        QVERIFY(doc.instructionsEditable());
        QVERIFY(doc.questionsEditable());
        // The state carries the sample ticket.
        QVERIFY(doc.state()["ticket"].get<std::string>().find("charged twice") !=
                std::string::npos);
    }

    void untouchedQuestionsRoundTripByteForByte() {
        PolicyDocument doc;
        load(doc);
        // Writing the same questions back changes nothing: the canonical form is the shipped one.
        auto same =
            core::replace_schema_questions(original_.toStdString(), doc.schema()->questions);
        QVERIFY(same.ok());
        QCOMPARE(QString::fromStdString(*same), original_);
        QVERIFY(!doc.setQuestions(doc.schema()->questions, QStringLiteral("nothing")));
        QCOMPARE(doc.undoStack()->count(), 0);
    }

    void formEditUpdatesSourceWithUndo() {
        PolicyDocument doc;
        load(doc);
        ui::PolicyForm form(&doc);
        QuestionTableModel* model = form.questionModel();
        QCOMPARE(model->rowCount(), 3);
        // Rename "team" to "queue" and rewrite its instructions in the table.
        QVERIFY(model->setData(model->index(1, QuestionTableModel::IdColumn),
                               QStringLiteral("queue"), Qt::EditRole));
        QVERIFY(doc.source().contains(QStringLiteral("\"id\": \"queue\"")));
        QVERIFY(!doc.source().contains(QStringLiteral("\"id\": \"team\"")));
        QVERIFY(model->setData(model->index(1, QuestionTableModel::InstructionsColumn),
                               QStringLiteral("Which queue gets it?"), Qt::EditRole));
        QVERIFY(
            doc.source().contains(QStringLiteral("\"instructions\": \"Which queue gets it?\"")));
        // The template actions and the state block are kept as they were.
        QVERIFY(doc.source().contains(
            QStringLiteral("\"samples\": {{ default \"auto\" .samples | toJson }},")));
        QVERIFY(doc.source().contains(QStringLiteral(
            "\"ticket\": {{ default \"No ticket text provided\" .ticket | toJson }}")));
        QVERIFY2(doc.valid(), qPrintable(doc.firstError()));
        QCOMPARE(doc.schema()->questions[1].id, std::string("queue"));
        QCOMPARE(
            model->data(model->index(1, QuestionTableModel::IdColumn), Qt::DisplayRole).toString(),
            QStringLiteral("queue"));
        // Alternatives: one per line, "name: description".
        QVERIFY(model->setData(model->index(1, QuestionTableModel::AlternativesColumn),
                               QStringLiteral("billing: Money\nsupport\nlegal: Contracts"),
                               Qt::EditRole));
        QCOMPARE(doc.schema()->questions[1].options.size(), size_t(3));
        QCOMPARE(doc.schema()->questions[1].options[2].name, std::string("legal"));
        QVERIFY(doc.source().contains(
            QStringLiteral("{\"name\": \"legal\", \"description\": \"Contracts\"}")));
        // The instructions of the schema.
        QVERIFY(doc.setInstructions(QStringLiteral("Triage \"quoted\" tickets.")));
        QVERIFY(doc.source().contains(
            QStringLiteral("\"instructions\": \"Triage \\\"quoted\\\" tickets.\"")));
        QCOMPARE(doc.schema()->instructions, std::string("Triage \"quoted\" tickets."));
        QCOMPARE(form.instructionsEdit()->toPlainText(),
                 QStringLiteral("Triage \"quoted\" tickets."));

        QCOMPARE(doc.undoStack()->count(), 4);
        QVERIFY(doc.isModified());
        QCOMPARE(doc.undoStack()->undoText(), QStringLiteral("Edit instructions"));
        // Undo everything: the source is the original byte for byte, and the form follows.
        for (int i = 0; i < 4; ++i) doc.undoStack()->undo();
        QCOMPARE(doc.source(), original_);
        QVERIFY(!doc.isModified());
        QCOMPARE(
            model->data(model->index(1, QuestionTableModel::IdColumn), Qt::DisplayRole).toString(),
            QStringLiteral("team"));
        QCOMPARE(doc.schema()->questions[1].options.size(), size_t(3));
        QCOMPARE(form.instructionsEdit()->toPlainText(),
                 QString::fromStdString(doc.schema()->instructions));
        // Redo brings the rename back.
        doc.undoStack()->redo();
        QCOMPARE(doc.schema()->questions[1].id, std::string("queue"));
    }

    // Issue 39: the form's calibration row writes "temperature" and the cascade keys into the
    // schema (one undo step each); a bad temperature is refused naming the field, the source
    // untouched.
    void calibrationRowEditsTheSchema() {
        PolicyDocument doc;
        load(doc);
        ui::PolicyForm form(&doc);
        form.temperatureEdit()->setText(QStringLiteral("1.5"));
        QVERIFY(form.commitTemperature().isEmpty());
        QVERIFY2(doc.source().contains(QStringLiteral("\"temperature\": 1.5")),
                 qPrintable(doc.source()));
        QVERIFY2(doc.valid(), qPrintable(doc.firstError()));
        QCOMPARE(doc.schema()->temperature.for_type(core::QuestionType::Choice), 1.5);
        form.temperatureEdit()->setText(QStringLiteral("{\"noul\": 2, \"score\": 0.5}"));
        QVERIFY(form.commitTemperature().isEmpty());
        QCOMPARE(doc.schema()->temperature.for_type(core::QuestionType::Noul), 2.0);
        QCOMPARE(doc.schema()->temperature.for_type(core::QuestionType::Score), 0.5);
        // Per question: a question's own T under "questions".
        form.temperatureEdit()->setText(
            QStringLiteral("{\"noul\": 2, \"questions\": {\"team\": 3}}"));
        QVERIFY(form.commitTemperature().isEmpty());
        QVERIFY2(doc.valid(), qPrintable(doc.firstError()));
        QCOMPARE(doc.schema()->temperature.for_question("team", core::QuestionType::Choice), 3.0);
        QCOMPARE(doc.schema()->temperature.for_question("urgent", core::QuestionType::Noul), 2.0);
        const QString before = doc.source();
        for (const char* bad :
             {"0", "-2", "warm", "{\"yesno\": 2}", "{\"questions\": {\"tema\": 2}}",
              "{\"questions\": {\"team\": 0}}"}) {
            form.temperatureEdit()->setText(QString::fromUtf8(bad));
            const QString error = form.commitTemperature();
            QVERIFY2(error.contains(QStringLiteral("emperature")), qPrintable(error));
            QCOMPARE(doc.source(), before);
        }
        form.cascadeThresholdBox()->setValue(0.4);
        form.cascadeModeBox()->setCurrentIndex(1);  // entropy
        Q_EMIT form.cascadeModeBox()->activated(1);
        QVERIFY(doc.source().contains(QStringLiteral("\"cascade_mode\": \"entropy\"")));
        QCOMPARE(doc.schema()->cascade.mode, core::CascadeMode::Entropy);
        QCOMPARE(doc.schema()->cascade.threshold, 0.4);
        QCOMPARE(form.cascadeModeBox()->currentIndex(), 1);  // the form shows what it wrote
        // The calibration row offscreen, for a person to look at.
        form.resize(900, 420);
        const QImage shot = form.grab().toImage();
        QVERIFY(shot.width() >= 900 && shot.height() >= 420);
        QDir().mkpath(QStringLiteral(DS_BINARY_DIR "/screenshots"));
        QVERIFY(
            shot.save(QStringLiteral(DS_BINARY_DIR "/screenshots/policy-form-calibration.png")));
        // Each edit is one step: undo takes the cascade edits, then the temperatures, away.
        while (doc.undoStack()->canUndo()) doc.undoStack()->undo();
        QCOMPARE(doc.source(), original_);
    }

    void addRemoveAndReorder() {
        PolicyDocument doc;
        load(doc);
        ui::PolicyForm form(&doc);
        QuestionTableModel* model = form.questionModel();
        model->requestAdd(core::QuestionType::Score);
        QCOMPARE(model->rowCount(), 4);
        QCOMPARE(doc.schema()->questions[3].type, core::QuestionType::Score);
        QCOMPARE(doc.schema()->questions[3].levels.size(), size_t(3));
        model->requestMove(0, 2);  // urgent goes third
        QCOMPARE(doc.schema()->questions[2].id, std::string("urgent"));
        QVERIFY(doc.source().indexOf(QStringLiteral("\"id\": \"team\"")) <
                doc.source().indexOf(QStringLiteral("\"id\": \"urgent\"")));
        // Drag and drop goes through the same request.
        QMimeData* mime = model->mimeData({model->index(3, 0)});
        model->dropMimeData(mime, Qt::MoveAction, 0, 0, {});
        delete mime;
        QCOMPARE(doc.schema()->questions[0].type, core::QuestionType::Score);
        model->requestRemove(0);
        QCOMPARE(model->rowCount(), 3);
        // The alone flag is a check box.
        QVERIFY(model->setData(model->index(0, QuestionTableModel::AloneColumn), Qt::Checked,
                               Qt::CheckStateRole));
        QVERIFY(doc.schema()->questions[0].alone);
        QVERIFY(doc.source().contains(QStringLiteral("\"alone\": true")));
        while (doc.undoStack()->canUndo()) doc.undoStack()->undo();
        QCOMPARE(doc.source(), original_);
        QCOMPARE(model->rowCount(), 3);
    }

    // A long option list from a spreadsheet: a CSV (header row, a quoted name with a comma, a
    // description column) replaces the selected choice question's options in one undo step; a
    // bad file is refused with its line, and a yes/no question takes no options.
    void importOptionsFromCsv() {
        PolicyDocument doc;
        load(doc);
        ui::PolicyForm form(&doc);
        QTemporaryDir dir;
        const QString csv = dir.filePath(QStringLiteral("teams.csv"));
        QString text = QString(QChar(0xFEFF)) + QStringLiteral("name,description\r\n");
        for (int i = 1; i <= 40; ++i) text += QStringLiteral("team %1,handles topic %1\r\n").arg(i);
        text += QStringLiteral("\"payments, cards\",\"cards and \"\"wallets\"\"\"\r\n");
        QFile f(csv);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(text.toUtf8());
        f.close();
        form.questionView()->setCurrentIndex(form.questionModel()->index(0, 0));
        QVERIFY(!form.importButton()->isEnabled());  // "urgent" is a yes/no question
        QVERIFY(form.importOptions(csv).contains(QStringLiteral("choice question")));
        form.questionView()->setCurrentIndex(form.questionModel()->index(1, 0));
        QVERIFY(form.importButton()->isEnabled());
        QCOMPARE(form.importOptions(csv), QString());
        const auto& team = doc.schema()->questions[1];
        QCOMPARE(team.options.size(), size_t(41));
        QCOMPARE(team.options[0].name, std::string("team 1"));
        QCOMPARE(team.options[40].name, std::string("payments, cards"));
        QCOMPARE(team.options[40].description, std::string("cards and \"wallets\""));
        QVERIFY(team.is_tournament());
        QCOMPARE(doc.undoStack()->undoText(), QStringLiteral("Import 41 option(s) into “team”"));
        doc.undoStack()->undo();
        QCOMPARE(doc.source(), original_);
        // A name listed twice is refused with its line; nothing changes.
        const QString dup = dir.filePath(QStringLiteral("dup.csv"));
        QFile g(dup);
        QVERIFY(g.open(QIODevice::WriteOnly));
        g.write("billing\nsupport\nbilling\n");
        g.close();
        const QString error = form.importOptions(dup);
        QVERIFY2(error.contains(QStringLiteral("line 3: the option \"billing\" is listed twice")),
                 qPrintable(error));
        QCOMPARE(doc.source(), original_);
    }

    void sourceEditUpdatesFormWithUndo() {
        PolicyDocument doc;
        load(doc);
        ui::PolicyForm form(&doc);
        ui::SourceEditor editor(&doc);
        QuestionTableModel* model = form.questionModel();
        // Type into the source: change the urgent question's instructions.
        const QString needle = QStringLiteral("Does this ticket need a reply from a person today?");
        const int at = int(doc.source().indexOf(needle));
        QVERIFY(at > 0);
        QTextCursor cursor(doc.textDocument());
        cursor.setPosition(at);
        cursor.setPosition(at + int(needle.size()), QTextCursor::KeepAnchor);
        editor.edit()->setTextCursor(cursor);
        QTest::keyClicks(editor.edit(), QStringLiteral("Is it urgent?"));
        QCOMPARE(
            model->data(model->index(0, QuestionTableModel::InstructionsColumn), Qt::DisplayRole)
                .toString(),
            QStringLiteral("Is it urgent?"));
        QVERIFY(doc.undoStack()->count() >= 1);
        // Ctrl+Z in the source editor goes through the shared stack.
        while (doc.undoStack()->canUndo())
            QTest::keyClick(editor.edit(), Qt::Key_Z, Qt::ControlModifier);
        QCOMPARE(doc.source(), original_);
        QCOMPARE(
            model->data(model->index(0, QuestionTableModel::InstructionsColumn), Qt::DisplayRole)
                .toString(),
            needle);
        // A form edit after a source edit lands on the same stack, in order.
        QTest::keyClicks(editor.edit(), QStringLiteral(" "));
        model->requestRemove(2);
        QCOMPARE(doc.undoStack()->undoText(), QStringLiteral("Remove question “sentiment”"));
        doc.undoStack()->undo();
        QCOMPARE(model->rowCount(), 3);
    }

    void errorsAreUnderlinedWhereTheyAre() {
        PolicyDocument doc;
        load(doc);
        ui::PolicyForm form(&doc);
        ui::SourceEditor editor(&doc);
        // Break a template action: an unknown function on line 36.
        QString broken = original_;
        broken.replace(QStringLiteral("{{ default \"auto\" .samples | toJson }}"),
                       QStringLiteral("{{ default \"auto\" .samples | toJsn }}"));
        doc.textDocument()->setPlainText(broken);
        QVERIFY(!doc.valid());
        const ui::Diagnostic& d = doc.diagnostics().front();
        QVERIFY2(d.message.contains(QStringLiteral("toJsn")), qPrintable(d.message));
        const int line = doc.textDocument()->findBlock(d.position).blockNumber() + 1;
        const int expected_line =
            int(broken.left(broken.indexOf(QStringLiteral("toJsn"))).count(QLatin1Char('\n'))) + 1;
        QCOMPARE(line, expected_line);
        QVERIFY(!editor.messageAt(d.position).isEmpty());
        QVERIFY(!form.questionModel()->editable());
        // Invalid JSON after rendering: a missing comma is placed in the source, too.
        QString no_comma = original_;
        no_comma.replace(QStringLiteral("\"id\": \"team\","), QStringLiteral("\"id\": \"team\""));
        doc.textDocument()->setPlainText(no_comma);
        QVERIFY(!doc.valid());
        const int json_line =
            doc.textDocument()->findBlock(doc.diagnostics().front().position).blockNumber() + 1;
        const int team_line =
            int(no_comma.left(no_comma.indexOf(QStringLiteral("\"id\": \"team\"")))
                    .count(QLatin1Char('\n'))) +
            1;
        QVERIFY2(json_line == team_line || json_line == team_line + 1,
                 qPrintable(QStringLiteral("line %1 vs %2: %3")
                                .arg(json_line)
                                .arg(team_line)
                                .arg(doc.firstError())));
        // A schema error (duplicate id) points at the question.
        QString duplicate = original_;
        duplicate.replace(QStringLiteral("\"id\": \"sentiment\""),
                          QStringLiteral("\"id\": \"team\""));
        doc.textDocument()->setPlainText(duplicate);
        QVERIFY(!doc.valid());
        QVERIFY2(doc.firstError().contains(QStringLiteral("team")), qPrintable(doc.firstError()));
        // Fixed again: valid, the form is editable.
        doc.textDocument()->setPlainText(original_);
        QVERIFY(doc.valid());
        QVERIFY(form.questionModel()->editable());
    }

    void templatedQuestionsAreReadOnlyInTheForm() {
        PolicyDocument doc;
        const QString source = QStringLiteral(
            "{\"schema\": {\"questions\": [{{ range $i, $q := .qs }}{{ if $i }},{{ end }}"
            "{\"id\": {{ $q | toJson }}, \"type\": \"noul\"}{{ end }}]},\n \"state\": {}}");
        doc.load(QStringLiteral("generated"), {}, source, nlohmann::json{{"qs", {"a", "b"}}});
        QVERIFY2(doc.valid(), qPrintable(doc.firstError()));
        QCOMPARE(doc.schema()->questions.size(), size_t(2));
        QVERIFY(!doc.questionsEditable());
        QVERIFY(doc.instructionsEditable());
        ui::PolicyForm form(&doc);
        QVERIFY(!form.questionModel()->editable());
        // Instructions can still be added: inserted as the schema's first member.
        QVERIFY(doc.setInstructions(QStringLiteral("Context")));
        QVERIFY(doc.valid());
        QCOMPARE(doc.schema()->instructions, std::string("Context"));
        QCOMPARE(doc.schema()->questions.size(), size_t(2));
    }

    void variablesReRender() {
        PolicyDocument doc;
        load(doc);
        nlohmann::json vars = doc.variables();
        vars["ticket"] = "The API returns 500 errors since this morning.";
        vars["layout"] = "schema_first";
        doc.setVariables(vars);
        QCOMPARE(doc.state()["ticket"].get<std::string>(),
                 std::string("The API returns 500 errors since this morning."));
        QCOMPARE(doc.schema()->layout, core::Layout::SchemaFirst);
        // Variables do not touch the source or the undo stack.
        QCOMPARE(doc.source(), original_);
        QCOMPARE(doc.undoStack()->count(), 0);
    }
};

QTEST_MAIN(PolicyEditorTest)
#include "tst_policy_editor.moc"
