#pragma once
// Bearer tokens in the system keychain (QtKeychain: the Secret Service on Linux, Keychain on
// macOS, Credential Manager on Windows). Service "decision-studio", one entry per endpoint URL.
// Calls block on a local event loop; they need a QCoreApplication.

#include <optional>
#include <string>

#include "engine/result.h"

namespace core {

inline constexpr const char* kKeychainService = "decision-studio";

// The key a URL's token is stored under: the URL without trailing slashes.
std::string keychain_key(const std::string& url);

// nullopt when no token is stored for the URL; an error when no keychain is reachable.
engine::Result<std::optional<std::string>> keychain_read(const std::string& url);
engine::Result<void> keychain_write(const std::string& url, const std::string& token);
// Deleting an absent entry is not an error.
engine::Result<void> keychain_delete(const std::string& url);

}  // namespace core
