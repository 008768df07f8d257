#pragma once
// The trust store of a TlsSettings, built once per distinct settings and shared by every client
// that uses them (OpenSSL stores are reference counted and locked internally).
#include <openssl/x509.h>

#include "core/net/tls.h"

namespace core::net_detail {

// A new reference to the store for `settings` (the caller hands it to an SSL_CTX, which takes
// that reference over). Never null.
X509_STORE* trust_store_reference(const TlsSettings& settings);

}  // namespace core::net_detail
