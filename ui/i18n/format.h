#pragma once
// Numbers, percentages and the core's fixed English words as the Studio shows them: numbers
// through the default QLocale (the language chosen at start, see translations.h), so German
// reads "91,8 %" and English "91.8%"; hesitation classes in the language shown.

#include <QString>
#include <QTime>

#include "core/decide/decision.h"

namespace ui {

// `value` with `decimals` digits after the point, in the default locale's digits and separators.
QString formatNumber(double value, int decimals);
// A fraction (0.918) as a percentage ("91.8%", "91,8 %", "91.8%").
QString formatPercent(double fraction, int decimals);
// A time of day with its seconds, as the locale writes it ("14:03:22", "2:03:22 PM"), without a
// time zone.
QString formatTime(const QTime& time);
// The hesitation class as the cards say it ("Clear", "Somewhat unsure", "Very unsure").
QString hesitationText(core::Hesitation hesitation);

}  // namespace ui
