// Locale-aware numbers and translated core words (see format.h).
#include "ui/i18n/format.h"

#include <QCoreApplication>
#include <QLocale>

namespace ui {

QString formatNumber(double value, int decimals) {
    return QLocale().toString(value, 'f', decimals);
}

QString formatPercent(double fraction, int decimals) {
    //: A percentage; %1 is the number with its decimals ("91.8"). German puts a space before
    //: the sign.
    return QCoreApplication::translate("ui::Format", "%1%")
        .arg(formatNumber(fraction * 100, decimals));
}

QString formatTime(const QTime& time) {
    // The locale's short time format with seconds added after the minutes, in the separator
    // it uses between hours and minutes ("HH:mm" -> "HH:mm:ss", "h:mm AP" -> "h:mm:ss AP"; the
    // long format would add a time zone, and ja's spells 時分秒).
    QString format = QLocale().timeFormat(QLocale::ShortFormat);
    if (!format.contains(QLatin1String("ss"))) {
        const qsizetype minutes = format.indexOf(QLatin1String("mm"));
        if (minutes > 0) {
            format.insert(minutes + 2, format.at(minutes - 1) + QStringLiteral("ss"));
        } else {
            format = QStringLiteral("HH:mm:ss");
        }
    }
    return time.toString(format);
}

QString hesitationText(core::Hesitation hesitation) {
    // The same words as core::to_string, which stays English (dgem, JSON, reports).
    switch (hesitation) {
        case core::Hesitation::Clear:
            //: Hesitation class of a result: the model is sure.
            return QCoreApplication::translate("ui::Format", "Clear");
        case core::Hesitation::SomewhatUnsure:
            return QCoreApplication::translate("ui::Format", "Somewhat unsure");
        case core::Hesitation::VeryUnsure:
            return QCoreApplication::translate("ui::Format", "Very unsure");
    }
    return {};
}

}  // namespace ui
