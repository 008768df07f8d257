// QtKeychain jobs run to completion on a local event loop.
#include "core/net/keychain.h"

#include <qt6keychain/keychain.h>
#include <QEventLoop>
#include <QFileInfo>

#include <cstdlib>
#include <optional>

namespace core {

namespace {

// Runs a job and returns its error code and text.
template <class Job>
std::pair<QKeychain::Error, std::string> run(Job& job) {
    job.setAutoDelete(false);
    QEventLoop loop;
    QObject::connect(&job, &QKeychain::Job::finished, &loop, &QEventLoop::quit);
    job.start();
    loop.exec();
    return {job.error(), job.errorString().toStdString()};
}

// On Linux the Secret Service lives on the D-Bus session bus. Without one, QtKeychain spends
// seconds on time-outs before failing; say so at once instead.
std::optional<std::string> missing_session_bus() {
#ifdef __linux__
    const char* address = std::getenv("DBUS_SESSION_BUS_ADDRESS");
    if (address && *address) return std::nullopt;
    const char* runtime = std::getenv("XDG_RUNTIME_DIR");
    if (runtime && *runtime && QFileInfo::exists(QString::fromLocal8Bit(runtime) + "/bus"))
        return std::nullopt;
    return std::string("no D-Bus session (DBUS_SESSION_BUS_ADDRESS is not set)");
#else
    return std::nullopt;
#endif
}

engine::Error keychain_error(const std::string& what, const std::string& url,
                             const std::string& detail) {
    return engine::remote_error("keychain: cannot " + what + " the token for " + url + ": " +
                                detail + " (is a Secret Service such as gnome-keyring running?)");
}

}  // namespace

std::string keychain_key(const std::string& url) {
    std::string key = url;
    while (!key.empty() && key.back() == '/') key.pop_back();
    return key;
}

engine::Result<std::optional<std::string>> keychain_read(const std::string& url) {
    if (auto why = missing_session_bus()) return keychain_error("read", url, *why);
    QKeychain::ReadPasswordJob job(QString::fromLatin1(kKeychainService));
    job.setKey(QString::fromStdString(keychain_key(url)));
    auto [error, text] = run(job);
    if (error == QKeychain::EntryNotFound) return std::optional<std::string>{};
    if (error != QKeychain::NoError) return keychain_error("read", url, text);
    return std::optional<std::string>{job.textData().toStdString()};
}

engine::Result<void> keychain_write(const std::string& url, const std::string& token) {
    if (auto why = missing_session_bus()) return keychain_error("store", url, *why);
    QKeychain::WritePasswordJob job(QString::fromLatin1(kKeychainService));
    job.setKey(QString::fromStdString(keychain_key(url)));
    job.setTextData(QString::fromStdString(token));
    auto [error, text] = run(job);
    if (error != QKeychain::NoError) return keychain_error("store", url, text);
    return {};
}

engine::Result<void> keychain_delete(const std::string& url) {
    if (auto why = missing_session_bus()) return keychain_error("delete", url, *why);
    QKeychain::DeletePasswordJob job(QString::fromLatin1(kKeychainService));
    job.setKey(QString::fromStdString(keychain_key(url)));
    auto [error, text] = run(job);
    if (error != QKeychain::NoError && error != QKeychain::EntryNotFound)
        return keychain_error("delete", url, text);
    return {};
}

}  // namespace core
