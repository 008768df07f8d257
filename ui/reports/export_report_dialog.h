#pragma once
// File > Export report (Ctrl+Shift+E): one core::report::Report (a decision, a comparison or a
// bench run), a format choice (HTML, PDF, CSV, JSON), the page size for PDF and a preview of
// what will be written: the PDF's pages as images for HTML and PDF, the text itself for CSV and
// JSON. Export… asks for a file in the last folder used (QSettings reports/lastFolder); a typed
// extension picks the format. The file is written by core::report::write_report (atomically: a
// failed export leaves no half report and never clobbers an existing file); an error (an
// unknown extension, an unwritable folder, a full disk) is shown with the path and the accepted
// formats, and the dialog stays open. The dialog holds nothing but the Report value.

#include <QDialog>
#include <optional>

#include "core/reports/report.h"

class QComboBox;
class QLabel;
class QPlainTextEdit;
class QPushButton;
class QScrollArea;
class QStackedWidget;
class QVBoxLayout;

namespace ui {

class ExportReportDialog : public QDialog {
    Q_OBJECT
  public:
    explicit ExportReportDialog(core::report::Report report, QWidget* parent = nullptr);

    const core::report::Report& report() const { return report_; }
    core::report::Format format() const;
    void setFormat(core::report::Format format);
    core::report::PageSize pageSize() const;
    void setPageSize(core::report::PageSize size);

    // Writes the report to `path` without asking: in the chosen format, unless the path's
    // extension names another one (the choice follows it); an extension that is not a report
    // format is refused. On success the folder is remembered. False with the message (naming
    // the path and the accepted formats) in `error`.
    bool exportTo(const QString& path, QString* error = nullptr);

    // The preview: pages shown for HTML and PDF (0 for CSV and JSON), the text for CSV/JSON.
    int previewPageCount() const { return page_count_; }
    QString previewText() const;
    // "support_triage decision.pdf": the report's title as a file name, the format's extension.
    QString suggestedFileName() const;
    // Where Export… opens: the last folder a report went to, else the Documents folder.
    static QString lastFolder();

    QComboBox* formatBox() const { return format_box_; }
    QComboBox* pageSizeBox() const { return page_box_; }
    QPushButton* exportButton() const { return export_button_; }
    QLabel* pageCountLabel() const { return page_count_label_; }
    QPlainTextEdit* textPreview() const { return text_; }

    // The most characters the text preview shows (the file gets everything).
    static constexpr int kPreviewChars = 200000;

  Q_SIGNALS:
    void exported(const QString& path);

  private:
    void buildLayout();
    void updatePreview();
    void chooseAndExport();

    core::report::Report report_;
    int page_count_ = 0;
    std::optional<core::report::PageSize> pages_size_;  // what the shown pages were drawn for

    QComboBox* format_box_ = nullptr;
    QComboBox* page_box_ = nullptr;
    QLabel* page_count_label_ = nullptr;
    QStackedWidget* stack_ = nullptr;
    QScrollArea* pages_area_ = nullptr;
    QVBoxLayout* pages_layout_ = nullptr;
    QPlainTextEdit* text_ = nullptr;
    QPushButton* export_button_ = nullptr;
};

}  // namespace ui
