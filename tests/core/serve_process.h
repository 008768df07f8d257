#pragma once
// Starts the real `dgem serve` on a free loopback port for the end-to-end tests and returns the
// port it reports ("listening on http://HOST:PORT"), or an empty string when it did not start
// within a minute.
#include <QProcess>
#include <QRegularExpression>
#include <QString>
#include <QStringList>

inline QString start_dgem_serve(QProcess& serve, const QProcessEnvironment& env,
                                const QStringList& extra_args = {},
                                const QString& port_arg = QStringLiteral("0")) {
    serve.setProcessEnvironment(env);
    serve.start(
        QStringLiteral(DS_BIN_DIR "/dgem"),
        QStringList{"serve", "--model", DS_TINY_MODEL_DIR, "--device", "cpu", "--port", port_arg} +
            extra_args);
    if (!serve.waitForStarted()) return {};
    QString port, seen;
    for (int i = 0; i < 600 && port.isEmpty(); ++i) {
        serve.waitForReadyRead(100);
        seen += QString::fromUtf8(serve.readAllStandardOutput());
        auto m = QRegularExpression("listening on https?://[^:]+:(\\d+)").match(seen);
        if (m.hasMatch()) port = m.captured(1);
    }
    return port;
}
