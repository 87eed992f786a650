/* SPDX-License-Identifier: Apache-2.0 */
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/pem.h>
#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/crypto.h>
#include <openssl/opensslv.h>
#include <openssl/core_names.h>
#include <openssl/params.h>

/* An Ed25519 key from its 32-byte seed and its 32-byte public key, the public key taken as given, not derived
   (EVP_PKEY_fromdata with both halves; OpenSSL does not check that they match). NULL on failure. The caller must
   know the public key is the seed's (Ed25519PrivateKey(seed:publicKey:)). */
static inline EVP_PKEY *tender_ed25519_key_from_pair(const unsigned char *seed, const unsigned char *public_key) {
    EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_name(NULL, "ED25519", NULL);
    if (ctx == NULL) return NULL;
    EVP_PKEY *key = NULL;
    OSSL_PARAM params[3];
    params[0] = OSSL_PARAM_construct_octet_string(OSSL_PKEY_PARAM_PRIV_KEY, (void *)seed, 32);
    params[1] = OSSL_PARAM_construct_octet_string(OSSL_PKEY_PARAM_PUB_KEY, (void *)public_key, 32);
    params[2] = OSSL_PARAM_construct_end();
    if (EVP_PKEY_fromdata_init(ctx) != 1 || EVP_PKEY_fromdata(ctx, &key, EVP_PKEY_KEYPAIR, params) != 1) key = NULL;
    EVP_PKEY_CTX_free(ctx);
    return key;
}

/* An HMAC-SHA-256 context keyed with `key` (its inner and outer pads hashed once), from which each MAC is made on a
   copy (tender_hmac_sha256_with): no algorithm fetched, no key schedule, per MAC. NULL on failure; free it with
   EVP_MAC_CTX_free. */
static inline EVP_MAC_CTX *tender_hmac_sha256_keyed(const unsigned char *key, size_t length) {
    EVP_MAC *mac = EVP_MAC_fetch(NULL, "HMAC", NULL);
    if (mac == NULL) return NULL;
    EVP_MAC_CTX *ctx = EVP_MAC_CTX_new(mac);
    EVP_MAC_free(mac);
    if (ctx == NULL) return NULL;
    OSSL_PARAM params[2];
    params[0] = OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, (char *)"SHA256", 0);
    params[1] = OSSL_PARAM_construct_end();
    if (EVP_MAC_init(ctx, key, length, params) != 1) {
        EVP_MAC_CTX_free(ctx);
        return NULL;
    }
    return ctx;
}

/* The HMAC-SHA-256 of `message` into `out` (32 bytes), made on a copy of `keyed` (tender_hmac_sha256_keyed), which is
   only read: threads may share it. 1 on success, 0 on failure. */
static inline int tender_hmac_sha256_with(const EVP_MAC_CTX *keyed, const unsigned char *message, size_t length, unsigned char *out) {
    EVP_MAC_CTX *ctx = EVP_MAC_CTX_dup(keyed);
    if (ctx == NULL) return 0;
    size_t written = 0;
    int ok = EVP_MAC_update(ctx, message, length) == 1 && EVP_MAC_final(ctx, out, &written, 32) == 1 && written == 32;
    EVP_MAC_CTX_free(ctx);
    return ok;
}
