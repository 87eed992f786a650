/* SPDX-License-Identifier: Apache-2.0 */
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/pem.h>
#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/crypto.h>
#include <openssl/opensslv.h>
#include <openssl/core_names.h>

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
