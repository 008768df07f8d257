#pragma once
// TLS for the remote clients and `dgem serve`. Clients trust the system store (Debian's
// /etc/ssl/certs), plus SSL_CERT_FILE and SSL_CERT_DIR, plus an endpoint profile's CA file:
// all of them together (OpenSSL alone lets SSL_CERT_FILE replace the system bundle, which would
// break public endpoints the moment a company CA is added). A profile may also carry a client
// certificate and key for mutual TLS. The files are checked before any request: a missing or
// unreadable file, a file without a PEM certificate or key, or a key that does not belong to its
// certificate is an error naming the file and the setting it came from.

#include <string>
#include <string_view>
#include <vector>

#include "core/config/config.h"
#include "engine/result.h"

namespace core {

using engine::Result;

struct TlsFile {
    std::string path;
    std::string source;  // the setting that named it: "SSL_CERT_FILE", "--ca-file", ...
    bool operator==(const TlsFile&) const = default;
};

struct TlsSettings {
    bool system_store = true;         // the system's CA bundle and folder
    std::vector<TlsFile> ca_files;    // PEM bundles trusted besides the system store
    std::vector<TlsFile> ca_dirs;     // folders of PEM certificates (SSL_CERT_DIR)
    TlsFile client_cert, client_key;  // mutual TLS; both or neither

    bool has_client_certificate() const { return !client_cert.path.empty(); }
    // A stable text naming the settings (paths only), to share a trust store between clients.
    std::string key() const;
    bool operator==(const TlsSettings&) const = default;
};

// SSL_CERT_FILE (one file) and SSL_CERT_DIR (folders separated by ':') over `base`.
TlsSettings tls_settings_from_environment(const EnvLookup& env, TlsSettings base = {});

// Every file the settings name is readable and holds what it should; the key matches the
// certificate. Errors name the file and its source.
Result<void> check_tls_settings(const TlsSettings& settings);
// A PEM file with at least one certificate.
Result<void> check_certificate_file(const TlsFile& file);
// A certificate file and its private key (PEM), the key belonging to the certificate.
Result<void> check_certificate_and_key(const TlsFile& cert, const TlsFile& key);

// What an OpenSSL verification result means, for "the TLS certificate of HOST ...":
// "is signed by an unknown certificate authority (...)", "has expired", ...
std::string verify_failure_text(long openssl_verify_result);

}  // namespace core
