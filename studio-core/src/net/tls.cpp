// TLS settings, file checks and trust stores on OpenSSL (see core/net/tls.h).
#include "core/net/tls.h"

#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509_vfy.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>

#include "trust_store.h"

namespace core {

namespace {

struct BioFree {
    void operator()(BIO* b) const { BIO_free(b); }
};
struct X509Free {
    void operator()(X509* x) const { X509_free(x); }
};
struct KeyFree {
    void operator()(EVP_PKEY* k) const { EVP_PKEY_free(k); }
};
using BioPtr = std::unique_ptr<BIO, BioFree>;
using X509Ptr = std::unique_ptr<X509, X509Free>;
using KeyPtr = std::unique_ptr<EVP_PKEY, KeyFree>;

std::string named(const TlsFile& file) {
    return file.path + (file.source.empty() ? "" : " (" + file.source + ")");
}

// Opens a file for OpenSSL, or says why it cannot be read.
Result<BioPtr> open_file(const TlsFile& file, const char* what) {
    std::error_code ec;
    if (!std::filesystem::exists(file.path, ec))
        return engine::bad_input(std::string(what) + " " + named(file) + " does not exist");
    if (std::filesystem::is_directory(file.path, ec))
        return engine::bad_input(std::string(what) + " " + named(file) +
                                 " is a folder, not a PEM file");
    BioPtr bio(BIO_new_file(file.path.c_str(), "r"));
    if (!bio) {
        const int err = errno;
        ERR_clear_error();
        return engine::bad_input(std::string(what) + " " + named(file) +
                                 " cannot be read: " + std::strerror(err));
    }
    return bio;
}

// Never ask a terminal for a passphrase: an encrypted key is refused instead.
int no_passphrase(char*, int, int, void*) {
    return 0;
}

Result<X509Ptr> first_certificate(const TlsFile& file, const char* what) {
    auto bio = open_file(file, what);
    if (!bio) return bio.error();
    X509Ptr cert(PEM_read_bio_X509(bio->get(), nullptr, no_passphrase, nullptr));
    ERR_clear_error();
    if (!cert)
        return engine::bad_input(std::string(what) + " " + named(file) +
                                 " holds no PEM certificate (-----BEGIN CERTIFICATE-----)");
    return cert;
}

void load_pem_folder(X509_STORE* store, const std::string& dir) {
    // OpenSSL looks certificates up by subject hash (c_rehash names); a folder of plain .pem
    // and .crt files, as Go reads SSL_CERT_DIR, is loaded file by file as well.
    X509_STORE_load_path(store, dir.c_str());
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
        const std::string ext = entry.path().extension().string();
        if (entry.is_regular_file(ec) && (ext == ".pem" || ext == ".crt" || ext == ".cer"))
            X509_STORE_load_file(store, entry.path().c_str());
    }
}

X509_STORE* build_store(const TlsSettings& settings) {
    X509_STORE* store = X509_STORE_new();
    std::error_code ec;
    if (settings.system_store) {
        // The compiled-in locations, not the ones SSL_CERT_FILE/SSL_CERT_DIR override: those
        // are added below, beside the system's.
        if (const char* file = X509_get_default_cert_file();
            file && std::filesystem::exists(file, ec))
            X509_STORE_load_file(store, file);
        if (const char* dir = X509_get_default_cert_dir(); dir && std::filesystem::exists(dir, ec))
            X509_STORE_load_path(store, dir);
    }
    for (const auto& file : settings.ca_files) X509_STORE_load_file(store, file.path.c_str());
    for (const auto& dir : settings.ca_dirs) load_pem_folder(store, dir.path);
    ERR_clear_error();
    return store;
}

}  // namespace

std::string TlsSettings::key() const {
    std::string k = system_store ? "system" : "none";
    for (const auto& f : ca_files) k += "\nfile:" + f.path;
    for (const auto& d : ca_dirs) k += "\ndir:" + d.path;
    k += "\ncert:" + client_cert.path + "\nkey:" + client_key.path;
    return k;
}

TlsSettings tls_settings_from_environment(const EnvLookup& env, TlsSettings base) {
    if (auto file = env("SSL_CERT_FILE"); file && !file->empty())
        base.ca_files.push_back({*file, "SSL_CERT_FILE"});
    if (auto dirs = env("SSL_CERT_DIR"); dirs && !dirs->empty()) {
        size_t start = 0;
        while (start <= dirs->size()) {
            const size_t end = std::min(dirs->find(':', start), dirs->size());
            if (end > start)
                base.ca_dirs.push_back({dirs->substr(start, end - start), "SSL_CERT_DIR"});
            start = end + 1;
        }
    }
    return base;
}

Result<void> check_certificate_file(const TlsFile& file) {
    auto cert = first_certificate(file, "the CA file");
    if (!cert) return cert.error();
    return {};
}

Result<void> check_certificate_and_key(const TlsFile& cert_file, const TlsFile& key_file) {
    if (cert_file.path.empty() != key_file.path.empty())
        return engine::bad_input(
            cert_file.path.empty()
                ? "the private key " + named(key_file) + " needs its certificate as well"
                : "the certificate " + named(cert_file) + " needs its private key as well");
    auto cert = first_certificate(cert_file, "the certificate");
    if (!cert) return cert.error();
    auto bio = open_file(key_file, "the private key");
    if (!bio) return bio.error();
    KeyPtr key(PEM_read_bio_PrivateKey(bio->get(), nullptr, no_passphrase, nullptr));
    const unsigned long reason = ERR_GET_REASON(ERR_peek_last_error());
    ERR_clear_error();
    if (!key)
        return engine::bad_input(
            "the private key " + named(key_file) +
            (reason == PEM_R_BAD_PASSWORD_READ || reason == PEM_R_PROBLEMS_GETTING_PASSWORD
                 ? " is encrypted; give an unencrypted PEM key (openssl pkey -in KEY -out NEW)"
                 : " holds no PEM private key (-----BEGIN PRIVATE KEY-----)"));
    const int matches = X509_check_private_key(cert->get(), key.get());
    ERR_clear_error();
    if (matches != 1)
        return engine::bad_input("the private key " + named(key_file) +
                                 " does not belong to the certificate " + named(cert_file));
    return {};
}

Result<void> check_tls_settings(const TlsSettings& settings) {
    for (const auto& file : settings.ca_files)
        if (auto ok = check_certificate_file(file); !ok) return ok;
    for (const auto& dir : settings.ca_dirs) {
        std::error_code ec;
        if (!std::filesystem::is_directory(dir.path, ec))
            return engine::bad_input("the CA folder " + named(dir) + " is not a folder");
    }
    if (!settings.client_cert.path.empty() || !settings.client_key.path.empty())
        return check_certificate_and_key(settings.client_cert, settings.client_key);
    return {};
}

std::string verify_failure_text(long result) {
    const std::string openssl = X509_verify_cert_error_string(result);
    switch (result) {
        case X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT:
        case X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY:
        case X509_V_ERR_SELF_SIGNED_CERT_IN_CHAIN:
        case X509_V_ERR_DEPTH_ZERO_SELF_SIGNED_CERT:
        case X509_V_ERR_UNABLE_TO_VERIFY_LEAF_SIGNATURE:
            return "is signed by an unknown certificate authority (" + openssl +
                   "); trust its CA with SSL_CERT_FILE, --ca-file or the endpoint's CA file";
        case X509_V_ERR_CERT_HAS_EXPIRED:
            return "has expired (" + openssl + ")";
        case X509_V_ERR_CERT_NOT_YET_VALID:
            return "is not valid yet (" + openssl + "; is the clock right?)";
        case X509_V_ERR_HOSTNAME_MISMATCH:
            return "does not name this host (" + openssl + ")";
        case X509_V_ERR_CERT_REVOKED:
            return "has been revoked";
        default:
            return "could not be verified (" + openssl + ")";
    }
}

namespace net_detail {

X509_STORE* trust_store_reference(const TlsSettings& settings) {
    static std::mutex mutex;
    static auto* stores = new std::map<std::string, X509_STORE*>();  // lives for the process
    std::lock_guard lock(mutex);
    X509_STORE*& store = (*stores)[settings.key()];
    if (!store) store = build_store(settings);
    X509_STORE_up_ref(store);
    return store;
}

}  // namespace net_detail

}  // namespace core
