// The export dialog (see export_report_dialog.h).
#include "ui/reports/export_report_dialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontDatabase>
#include <QFormLayout>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QImage>
#include <QLabel>
#include <QMessageBox>
#include <QPixmap>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QScrollArea>
#include <QSettings>
#include <QStackedWidget>
#include <QStandardPaths>
#include <QVBoxLayout>
#include <filesystem>

namespace ui {

namespace {

namespace report = core::report;

const QString kLastFolderKey = QStringLiteral("reports/lastFolder");
// The preview's resolution: a whole A4 page about 600 pixels wide.
constexpr int kPreviewDpi = 72;

struct FormatEntry {
    report::Format format;
    const char* name;
    const char* patterns;
};
constexpr FormatEntry kFormats[] = {
    {report::Format::Html, "HTML", "*.html *.htm"},
    {report::Format::Pdf, "PDF", "*.pdf"},
    {report::Format::Csv, "CSV", "*.csv"},
    {report::Format::Json, "JSON", "*.json"},
};

QString filterOf(const FormatEntry& e) {
    return QStringLiteral("%1 (%2)").arg(QLatin1String(e.name), QLatin1String(e.patterns));
}

QString extensionOf(report::Format format) {
    return QString::fromLatin1(report::to_string(format).data(),
                               qsizetype(report::to_string(format).size()));
}

// The core's messages are written for the CLI too; the Studio has no --format.
QString studioMessage(const std::string& message) {
    QString m = QString::fromStdString(message);
    m.remove(QStringLiteral(" (or --format)"));
    return m;
}

}  // namespace

ExportReportDialog::ExportReportDialog(report::Report report, QWidget* parent)
    : QDialog(parent), report_(std::move(report)) {
    setObjectName(QStringLiteral("exportReportDialog"));
    setWindowTitle(tr("Export report — %1").arg(QString::fromStdString(report_.title)));
    buildLayout();
    resize(760, 860);
    updatePreview();
}

void ExportReportDialog::buildLayout() {
    auto* outer = new QVBoxLayout(this);

    auto* title = new QLabel(this);
    title->setObjectName(QStringLiteral("reportTitle"));
    title->setTextFormat(Qt::PlainText);
    title->setWordWrap(true);
    title->setText(QString::fromStdString(report_.title));
    QFont f = title->font();
    f.setBold(true);
    f.setPointSizeF(f.pointSizeF() * 1.15);
    title->setFont(f);
    outer->addWidget(title);

    auto* row = new QHBoxLayout;
    format_box_ = new QComboBox(this);
    format_box_->setObjectName(QStringLiteral("reportFormat"));
    for (const FormatEntry& e : kFormats)
        format_box_->addItem(QLatin1String(e.name), static_cast<int>(e.format));
    format_box_->setItemData(0, tr("One self-contained file: inline styles and charts, printable"),
                             Qt::ToolTipRole);
    format_box_->setItemData(
        1, tr("Pages with vector charts, page numbers and repeated table headers"),
        Qt::ToolTipRole);
    format_box_->setItemData(2, tr("One row per item and question (UTF-8, RFC 4180)"),
                             Qt::ToolTipRole);
    format_box_->setItemData(3, tr("The full data, with report_version"), Qt::ToolTipRole);
    format_box_->setCurrentIndex(1);  // PDF: what one hands to someone
    auto* format_label = new QLabel(tr("&Format:"), this);
    format_label->setBuddy(format_box_);
    page_box_ = new QComboBox(this);
    page_box_->setObjectName(QStringLiteral("reportPageSize"));
    page_box_->addItem(tr("A4"), static_cast<int>(report::PageSize::A4));
    page_box_->addItem(tr("Letter"), static_cast<int>(report::PageSize::Letter));
    auto* page_label = new QLabel(tr("&Page size:"), this);
    page_label->setBuddy(page_box_);
    page_count_label_ = new QLabel(this);
    page_count_label_->setObjectName(QStringLiteral("reportPageCount"));
    page_count_label_->setForegroundRole(QPalette::PlaceholderText);
    row->addWidget(format_label);
    row->addWidget(format_box_);
    row->addSpacing(12);
    row->addWidget(page_label);
    row->addWidget(page_box_);
    row->addStretch(1);
    row->addWidget(page_count_label_);
    outer->addLayout(row);

    // The preview: the pages (HTML and PDF) or the text (CSV and JSON).
    stack_ = new QStackedWidget(this);
    pages_area_ = new QScrollArea(stack_);
    pages_area_->setObjectName(QStringLiteral("reportPages"));
    pages_area_->setWidgetResizable(true);
    pages_area_->setBackgroundRole(QPalette::Dark);
    auto* pages_host = new QWidget(pages_area_);
    pages_layout_ = new QVBoxLayout(pages_host);
    pages_layout_->setSpacing(12);
    pages_layout_->setAlignment(Qt::AlignHCenter | Qt::AlignTop);
    pages_area_->setWidget(pages_host);
    text_ = new QPlainTextEdit(stack_);
    text_->setObjectName(QStringLiteral("reportText"));
    text_->setReadOnly(true);
    text_->setLineWrapMode(QPlainTextEdit::NoWrap);
    text_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    stack_->addWidget(pages_area_);
    stack_->addWidget(text_);
    outer->addWidget(stack_, 1);

    auto* buttons = new QDialogButtonBox(this);
    export_button_ = buttons->addButton(tr("&Export…"), QDialogButtonBox::AcceptRole);
    export_button_->setObjectName(QStringLiteral("exportButton"));
    export_button_->setDefault(true);
    buttons->addButton(QDialogButtonBox::Cancel);
    outer->addWidget(buttons);

    connect(format_box_, &QComboBox::currentIndexChanged, this, &ExportReportDialog::updatePreview);
    connect(page_box_, &QComboBox::currentIndexChanged, this, &ExportReportDialog::updatePreview);
    // Export… asks for a file; the dialog closes only when the report was written.
    connect(export_button_, &QPushButton::clicked, this, &ExportReportDialog::chooseAndExport);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
}

report::Format ExportReportDialog::format() const {
    return static_cast<report::Format>(format_box_->currentData().toInt());
}

void ExportReportDialog::setFormat(report::Format format) {
    format_box_->setCurrentIndex(std::max(0, format_box_->findData(static_cast<int>(format))));
}

report::PageSize ExportReportDialog::pageSize() const {
    return static_cast<report::PageSize>(page_box_->currentData().toInt());
}

void ExportReportDialog::setPageSize(report::PageSize size) {
    page_box_->setCurrentIndex(std::max(0, page_box_->findData(static_cast<int>(size))));
}

QString ExportReportDialog::previewText() const {
    return text_->toPlainText();
}

void ExportReportDialog::updatePreview() {
    const report::Format f = format();
    page_box_->setEnabled(f == report::Format::Pdf);
    if (f == report::Format::Csv || f == report::Format::Json) {
        page_count_ = 0;
        std::string text =
            f == report::Format::Csv ? report::to_csv(report_) : report::to_json_text(report_);
        if (text.rfind("\xEF\xBB\xBF", 0) == 0) text.erase(0, 3);  // the CSV's byte-order mark
        QString shown = QString::fromStdString(text);
        const qsizetype total = shown.size();
        if (total > kPreviewChars) {
            shown.truncate(kPreviewChars);
            shown += QLatin1Char('\n') +
                     tr("… (the preview shows the first %1 of %2 characters; the file has all "
                        "of them)")
                         .arg(kPreviewChars)
                         .arg(total);
        }
        text_->setPlainText(shown);
        stack_->setCurrentWidget(text_);
        page_count_label_->setText(tr("%n line(s)", nullptr, int(text_->blockCount())));
        return;
    }
    // HTML and PDF: the PDF's pages (the HTML is the same document, laid out by a browser).
    const report::PageSize size = pageSize();
    if (pages_size_ != size) {
        while (QLayoutItem* item = pages_layout_->takeAt(0)) {
            delete item->widget();
            delete item;
        }
        QGuiApplication::setOverrideCursor(Qt::WaitCursor);
        const std::vector<QImage> pages = report::render_pages(report_, size, kPreviewDpi);
        QGuiApplication::restoreOverrideCursor();
        for (size_t i = 0; i < pages.size(); ++i) {
            auto* page = new QLabel(pages_layout_->parentWidget());
            page->setObjectName(QStringLiteral("reportPage%1").arg(i + 1));
            page->setPixmap(QPixmap::fromImage(pages[i]));
            page->setFrameShape(QFrame::Box);
            page->setToolTip(tr("Page %1 of %2").arg(i + 1).arg(pages.size()));
            pages_layout_->addWidget(page, 0, Qt::AlignHCenter);
        }
        page_count_ = static_cast<int>(pages.size());
        pages_size_ = size;
    }
    stack_->setCurrentWidget(pages_area_);
    page_count_label_->setText(f == report::Format::Pdf
                                   ? tr("%n page(s)", nullptr, page_count_)
                                   : tr("%n page(s) when printed", nullptr, page_count_));
}

QString ExportReportDialog::suggestedFileName() const {
    QString base = QString::fromStdString(report_.title);
    // Letters, digits, '-', '_' and '.' stay; anything else becomes one space, then '_'.
    static const QRegularExpression other(QStringLiteral("[^\\w.\\-]+"),
                                          QRegularExpression::UseUnicodePropertiesOption);
    base.replace(other, QStringLiteral(" "));
    base = base.simplified().replace(QLatin1Char(' '), QLatin1Char('_'));
    while (base.startsWith(QLatin1Char('.'))) base.remove(0, 1);
    if (base.isEmpty()) base = QStringLiteral("report");
    return base + QLatin1Char('.') + extensionOf(format());
}

QString ExportReportDialog::lastFolder() {
    const QString kept = QSettings().value(kLastFolderKey).toString();
    if (!kept.isEmpty() && QFileInfo(kept).isDir()) return kept;
    const QString docs = QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
    return docs.isEmpty() ? QDir::homePath() : docs;
}

bool ExportReportDialog::exportTo(const QString& path, QString* error) {
    const auto fail = [&](QString message) {
        if (!message.contains(path)) message = tr("%1: %2").arg(path, message);
        if (error) *error = message;
        return false;
    };
    if (path.isEmpty())
        return fail(tr("no file name given; accepted formats: %1")
                        .arg(QString::fromLatin1(report::kAcceptedFormats.data(),
                                                 qsizetype(report::kAcceptedFormats.size()))));
    const std::string file = path.toStdString();
    report::Format format = this->format();
    // A typed extension picks the format; none keeps the chosen one.
    if (std::filesystem::path(file).has_extension()) {
        auto wanted = report::format_for_path(file, std::nullopt);
        if (!wanted) return fail(studioMessage(wanted.error().message));
        format = *wanted;
        if (format != this->format()) setFormat(format);
    }
    QGuiApplication::setOverrideCursor(Qt::WaitCursor);
    const auto written = report::write_report(report_, file, format, pageSize());
    QGuiApplication::restoreOverrideCursor();
    if (!written) return fail(studioMessage(written.error().message));
    QSettings().setValue(kLastFolderKey, QFileInfo(path).absolutePath());
    if (error) error->clear();
    Q_EMIT exported(path);
    return true;
}

void ExportReportDialog::chooseAndExport() {
    QStringList filters;
    QString selected;
    for (const FormatEntry& e : kFormats) {
        filters << filterOf(e);
        if (e.format == format()) selected = filters.back();
    }
    const QString start = QDir(lastFolder()).filePath(suggestedFileName());
    QString path = QFileDialog::getSaveFileName(this, tr("Export report"), start,
                                                filters.join(QStringLiteral(";;")), &selected);
    if (path.isEmpty()) return;
    // No extension typed: the format of the chosen filter, and its extension.
    if (!std::filesystem::path(path.toStdString()).has_extension()) {
        for (const FormatEntry& e : kFormats)
            if (filterOf(e) == selected) setFormat(e.format);
        path += QLatin1Char('.') + extensionOf(format());
    }
    QString error;
    if (!exportTo(path, &error)) {
        QMessageBox::warning(this, tr("Export report"), error);
        return;  // the dialog stays open: another name, folder or format
    }
    accept();
}

}  // namespace ui
