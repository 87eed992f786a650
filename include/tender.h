/* SPDX-License-Identifier: Apache-2.0 */
/*
 * tender.h - the C API of libtender, payment intents for Linux hosts.
 *
 * A host program hands Tender a payment intent as UTF-8 JSON and drives it
 * through the SiriKit-style lifecycle: resolve every parameter (answering the
 * questions Tender asks), confirm, handle. Handling pays exactly once and
 * returns the payment record as JSON.
 *
 * Restricted payments (by default every payment) re-authenticate the person
 * through the system login (PAM) in handle, before anything is submitted;
 * the host supplies the conversation (tender_session_set_conversation()).
 *
 * Tender covers SiriKit's whole Payments domain: send_payment,
 * request_payment, pay_bill, search_for_bills, transfer_money,
 * search_for_accounts and search_for_payments, each with its parameters,
 * resolution results, unsupported reasons and response codes. The schema of
 * every intent, parameter, result, code and enum is in docs/intents.md.
 *
 * Every payment is also a record in a ledger: signed with Ed25519 as a JWS
 * (RFC 7515, alg "Ed25519"), each record carrying the hash of the one before,
 * so any edit, deletion or reordering is found by tender_engine_verify() or
 * by any JOSE library holding the public key.
 *
 * This header is the API reference: every function, type, macro and error
 * is documented here; docs/ holds the JSON schemas it refers to.
 *
 * Conventions that hold for every function below:
 *  - Every function that can fail returns a tender_result: TENDER_OK (0) or a
 *    named error code, and is marked TENDER_NODISCARD (the compiler warns
 *    when the result is ignored). tender_result_str() names a code;
 *    tender_last_error() gives the detailed message of the last failure on
 *    the calling thread.
 *  - Every struct the host fills starts with `uint32_t version`; initialise
 *    it with its _INIT macro (e.g. TENDER_HOST_INIT) so a program built
 *    against an older header keeps working or is refused with a clear error.
 *  - Output parameters are written only on success. On failure they are left
 *    untouched.
 *  - Input text is UTF-8 with an explicit length in bytes (no terminating NUL
 *    needed). Invalid UTF-8 is refused with TENDER_E_INVALID_UTF8.
 *  - Strings the library returns through `char **` are NUL-terminated, their
 *    length (without the NUL) is written to the matching `size_t *` when that
 *    pointer is not NULL, and they are owned by the caller, who releases them
 *    with tender_string_free().
 *  - A NULL handle or required pointer gives TENDER_E_NULL_ARGUMENT; no
 *    function crashes the host on bad input.
 *  - Thread safety: an engine is thread-safe and may be shared by any number
 *    of threads and sessions. A session is one dialog and belongs to one
 *    thread at a time; it keeps its engine alive.
 *  - fork(): an engine, its sessions and an engine cache belong to the
 *    process that opened them (SQLite forbids carrying a connection across
 *    fork()). In a child process every call on one opened before the fork
 *    fails at once with TENDER_E_WRONG_STATE, and its _free releases nothing
 *    (the parent's connections are left alone); the child opens engines of
 *    its own, which work as in any process. The library's own
 *    threads (signing workers; the workers that checkpoint a store's log off
 *    the payments' path) are not in the child: before fork() returns, any
 *    checkpoint running is stopped or finished, so no library thread holds a
 *    lock the child could wait on; the child's engines sign on the calling
 *    thread and start checkpoint workers of their own. The host's own
 *    threads are the host's to quiesce: one inside the library (inside
 *    SQLite) at fork() may hold a lock of SQLite's (its allocator's) that the
 *    child's first open then waits on for ever, so a multithreaded host forks
 *    while none of its other threads is in a call, or execs at once.
 *
 * The JSON schemas are documented one kind per file, indexed in
 * docs/json.md: docs/configuration.md, docs/directory.md, docs/dialog.md
 * (intent, resolution, answer; every intent in docs/intents.md),
 * docs/outcome.md (confirm and handle), docs/records.md, docs/ledger.md,
 * docs/audit.md.
 */
#ifndef TENDER_H
#define TENDER_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------- attributes */

/**
 * Marks every function libtender exports (default visibility, so a program
 * built with -fvisibility=hidden still sees the declarations as external).
 */
#if defined(__GNUC__) || defined(__clang__)
#define TENDER_API __attribute__((visibility("default")))
#else
#define TENDER_API
#endif

/**
 * Marks every call that can fail: ignoring its tender_result is a compiler
 * warning (-Wunused-result, on by default in GCC and Clang).
 */
#if defined(__GNUC__) || defined(__clang__)
#define TENDER_NODISCARD __attribute__((warn_unused_result))
#elif defined(__cplusplus) && __cplusplus >= 201703L
#define TENDER_NODISCARD [[nodiscard]]
#else
#define TENDER_NODISCARD
#endif

/**
 * Marks a declaration that a later version will remove; `message` says what
 * to use instead. Using it is a compiler warning (-Wdeprecated-declarations).
 */
#if defined(__GNUC__) || defined(__clang__)
#define TENDER_DEPRECATED(message) __attribute__((deprecated(message)))
#else
#define TENDER_DEPRECATED(message)
#endif

/* ---------------------------------------------------------------- version */

/** Major version of this header. */
#define TENDER_VERSION_MAJOR 0
/** Minor version of this header. While the major version is 0, a new minor version may break the ABI (the soname says which). */
#define TENDER_VERSION_MINOR 2
/** Patch version of this header. */
#define TENDER_VERSION_PATCH 0
/** MAJOR * 10000 + MINOR * 100 + PATCH, to compare with tender_version_number(). */
#define TENDER_VERSION_NUMBER \
    (TENDER_VERSION_MAJOR * 10000 + TENDER_VERSION_MINOR * 100 + TENDER_VERSION_PATCH)
/** The version of this header as text. */
#define TENDER_VERSION_STRING "0.2.0"

/**
 * The version of the loaded library, encoded like TENDER_VERSION_NUMBER.
 * A program built against this header should check that the major versions
 * agree (number / 10000). Never fails; thread-safe.
 */
TENDER_API uint32_t tender_version_number(void);

/**
 * The version of the loaded library as static text ("0.2.0"). Never NULL;
 * the caller must not free it. Thread-safe.
 */
TENDER_API const char *tender_version_string(void);

/* ---------------------------------------------------------------- results */

/** The result of every fallible call: TENDER_OK or one of the codes below. */
typedef int32_t tender_result;

/**
 * Result codes, grouped in ranges. Codes are never renumbered; retired codes
 * stay reserved.
 */
enum tender_result_code {
    /* BEGIN error table: generated by scripts/errors.py from its table; edit the table, then run it with --write */
    TENDER_OK = 0,

    /* 100-199: the caller's arguments */
    TENDER_E_NULL_ARGUMENT = 100, /**< a required pointer or handle was NULL */
    TENDER_E_INVALID_UTF8 = 101, /**< text was not valid UTF-8 */
    TENDER_E_INVALID_JSON = 102, /**< text was not well-formed JSON */
    TENDER_E_TOO_LARGE = 103, /**< input larger than TENDER_MAX_INPUT_BYTES */
    TENDER_E_INVALID_ARGUMENT = 104, /**< well-formed JSON that breaks the schema */
    TENDER_E_INVALID_AMOUNT = 105, /**< negative, zero, malformed or absurd amount */
    TENDER_E_UNKNOWN_CURRENCY = 106, /**< not an ISO 4217 currency code */
    TENDER_E_UNKNOWN_INTENT = 107, /**< an intent type Tender does not know */
    TENDER_E_OUT_OF_SCOPE = 108, /**< the text is not a request Tender handles; no dialog started */

    /* 200-299: the dialog */
    TENDER_E_WRONG_STATE = 200, /**< call out of order (e.g. handle before confirm) */
    TENDER_E_NOT_ASKED = 201, /**< an answer for a question that was not asked */
    TENDER_E_UNKNOWN_OPTION = 202, /**< a chosen option that was not offered */
    TENDER_E_IDEMPOTENCY_CONFLICT = 203, /**< key already used with other parameters */
    TENDER_E_DIALOG_ENDED = 204, /**< a parameter stayed unresolved after the configured prompts, or the person said no */
    TENDER_E_NOT_AGREED = 205, /**< handle would move money before the person said yes (tender_session_agree) */

    /* 300-399: the store */
    TENDER_E_STORE = 300, /**< the SQLite store failed */
    TENDER_E_STORE_BUSY = 301, /**< the store stayed locked by another process */
    TENDER_E_HOME = 302, /**< the home directory cannot be used */
    TENDER_E_NOT_FOUND = 303, /**< a referenced item does not exist */

    /* 400-499: cryptography and the ledger */
    TENDER_E_CRYPTO = 400, /**< OpenSSL failed */
    TENDER_E_KEY_FILE = 401, /**< the signing key file is missing, unreadable or unsafe */
    TENDER_E_LEDGER_TAMPERED = 402, /**< verification failed; the message names the first bad record */

    /* 500-599: authentication */
    TENDER_E_AUTH_SERVICE = 500, /**< the PAM service has no file, or the process user is unknown */

    /* 600-699: the host */
    TENDER_E_CALLBACK = 600, /**< a host callback failed, answered nothing, or answered something invalid */
    TENDER_E_OUTCOME_UNKNOWN = 601, /**< the host was asked to pay under this idempotency key and its answer was lost */

    /* 900-999: the library itself */
    TENDER_E_INTERNAL = 900 /**< a defect in Tender; the message says more */
    /* END error table */
};

/** The largest JSON input accepted by any function, in bytes (1 MiB). */
#define TENDER_MAX_INPUT_BYTES 1048576

/**
 * The name of a result code as static text ("TENDER_E_INVALID_JSON"), or
 * "TENDER_E_UNKNOWN_CODE" for a number that is not a code. Never NULL; do not
 * free. Thread-safe.
 */
TENDER_API const char *tender_result_str(tender_result result);

/**
 * The detailed message of the last failed call made by the calling thread
 * (empty text if none failed). Messages never contain payment data or secrets. The pointer stays valid
 * until the next call on the same thread sets a new message; copy it if you
 * need it longer; do not free it. Never NULL. Thread-safe (each thread has
 * its own message).
 */
TENDER_API const char *tender_last_error(void);

/**
 * Releases a string returned by Tender through a `char **` output. NULL is
 * ignored. Thread-safe.
 */
TENDER_API void tender_string_free(char *string);

/* ------------------------------------------------------- response codes */

/**
 * The outcome of confirm and handle for every intent, with SiriKit's names:
 * 0 to 13 are INSendPaymentIntentResponseCode's numbers, the codes only
 * other intents have follow. docs/intents.md lists which codes each intent
 * answers.
 */
typedef int32_t tender_response_code;

/** Response codes of every intent. */
enum tender_response_code_value {
    TENDER_RESPONSE_UNSPECIFIED = 0,
    TENDER_RESPONSE_READY = 1,                  /**< confirm: the payment can be made */
    TENDER_RESPONSE_IN_PROGRESS = 2,
    TENDER_RESPONSE_SUCCESS = 3,                /**< handle: paid, the record follows */
    TENDER_RESPONSE_FAILURE = 4,
    TENDER_RESPONSE_FAILURE_REQUIRING_APP_LAUNCH = 5,
    TENDER_RESPONSE_FAILURE_CREDENTIALS_UNVERIFIED = 6,
    TENDER_RESPONSE_FAILURE_PAYMENTS_AMOUNT_BELOW_MINIMUM = 7,
    TENDER_RESPONSE_FAILURE_PAYMENTS_AMOUNT_ABOVE_MAXIMUM = 8,
    TENDER_RESPONSE_FAILURE_PAYMENTS_CURRENCY_UNSUPPORTED = 9,
    TENDER_RESPONSE_FAILURE_INSUFFICIENT_FUNDS = 10,
    TENDER_RESPONSE_FAILURE_NO_BANK_ACCOUNT = 11,
    TENDER_RESPONSE_FAILURE_NOT_ELIGIBLE = 12,
    TENDER_RESPONSE_FAILURE_TERMS_AND_CONDITIONS_ACCEPTANCE_REQUIRED = 13,
    TENDER_RESPONSE_FAILURE_BILL_NOT_FOUND = 14,    /**< search_for_bills: no bill matches */
    TENDER_RESPONSE_FAILURE_ACCOUNT_NOT_FOUND = 15, /**< search_for_accounts: no account matches */
    TENDER_RESPONSE_FAILURE_PAYMENT_NOT_FOUND = 16  /**< search_for_payments: no payment matches */
};

/**
 * The SiriKit name of a response code as static text ("ready",
 * "failureInsufficientFunds"), or "unknown". Never NULL; do not free.
 * Thread-safe.
 */
TENDER_API const char *tender_response_code_str(tender_response_code code);

/* ----------------------------------------------------------------- engine */

/**
 * An engine: one store (a home directory holding tender.sqlite3) and the
 * payment policy. Thread-safe; share one per process. Several processes may
 * open the same home at once.
 */
typedef struct tender_engine tender_engine;

/**
 * Opens an engine from its JSON configuration (schema in docs/configuration.md):
 * `{"home": "/path/to/home"}` plus optional `"limits"`,
 * `"authentication"` (which intents and rules need re-authentication, the
 * reuse window, the PAM service, throttling), `"dialog"` (the prompt limit,
 * transfer fees) and the app-wide vocabulary (`"vocabulary"` inline or
 * `"vocabularyFile"`, a path; see docs/intents.md). The home directory is created
 * (mode 0700) when missing, and the store inside it (0600) when new.
 * `"testing": true` is required for a PAM service other than "tender" or a
 * `pamConfigDirectory`; the audit then says "testing mode". `"readOnly": true`
 * opens the store read-only: nothing is created or changed, writes fail with
 * TENDER_E_STORE. `"newLedger": true` starts a new ledger in a home that held
 * one whose store is missing, or whose keys/ holds keys the store never
 * recorded (otherwise refused with TENDER_E_HOME); the earlier ledger's key
 * files are renamed KID.pem.retired. `"checkpointPath": "/elsewhere/file"`
 * (absolute, outside the home) keeps a signed checkpoint there, replaced
 * atomically after every commit that grows the ledger; tender_engine_verify()
 * without a checkpoint then verifies against it, which is the only thing that
 * sees the last records removed (docs/ledger.md).
 * `"broker": "/run/tender/socket"` (or the environment variable TENDER_BROKER)
 * makes a brokered engine: tenderd keeps the store and the key and runs PAM,
 * sessions and engine calls are relayed to it, `"home"` may be left out, and
 * a broker that does not answer is TENDER_E_STORE (docs/broker.md).
 *
 * The home, HOME/keys, the store and its -wal and -shm must belong to the
 * effective user and must not be writable by group or others (TENDER_E_HOME);
 * everything is checked before anything is created. A process whose real and
 * effective uids differ is refused with TENDER_E_AUTH_SERVICE (Tender acts for
 * one user: PAM, the audit and the ownership checks use the same uid).
 *
 * On success writes a new engine to *engine_out; release it with
 * tender_engine_free(). Errors: TENDER_E_NULL_ARGUMENT, TENDER_E_INVALID_UTF8,
 * TENDER_E_INVALID_JSON, TENDER_E_TOO_LARGE, TENDER_E_INVALID_ARGUMENT,
 * TENDER_E_INVALID_AMOUNT, TENDER_E_UNKNOWN_CURRENCY, TENDER_E_HOME,
 * TENDER_E_STORE, TENDER_E_STORE_BUSY, TENDER_E_KEY_FILE (the key directory
 * HOME/keys is unsafe), TENDER_E_AUTH_SERVICE (the policy needs authentication and
 * the PAM service, "tender" by default, has no file in the PAM configuration
 * directory: Linux-PAM would silently use "other"), TENDER_E_NOT_FOUND (the
 * vocabulary file cannot be read), TENDER_E_LEDGER_TAMPERED (the checkpoint at
 * "checkpointPath" covers records the ledger no longer holds). Thread-safe.
 */
TENDER_API TENDER_NODISCARD tender_result tender_engine_new(const char *config_json, size_t config_len,
                                tender_engine **engine_out);

/**
 * Where a host callback writes its JSON answer; valid during the callback only.
 */
typedef struct tender_reply tender_reply;

/**
 * Copies `json` (UTF-8, `len` bytes, at most TENDER_MAX_INPUT_BYTES) as the
 * callback's answer; a later call replaces an earlier one. The caller keeps
 * ownership of `json`. Errors: TENDER_E_NULL_ARGUMENT, TENDER_E_TOO_LARGE.
 */
TENDER_API TENDER_NODISCARD tender_result tender_reply_set(tender_reply *reply, const char *json, size_t len);

/** The version of struct tender_host this header describes. */
#define TENDER_HOST_VERSION 1

/**
 * A host that keeps its own directory and moves the money with its own
 * payment service (SiriKit's app-provided contacts, canSend and send).
 * Every callback gets `userdata` unchanged, may be called from any thread
 * that uses the engine (make them thread-safe), must not call back into the
 * engine, and returns 0 on success or non-zero on failure (the Tender call
 * then fails with TENDER_E_CALLBACK and "the host's ... callback failed").
 * Initialise it with TENDER_HOST_INIT, then set the callbacks.
 */
typedef struct tender_host {
    /** TENDER_HOST_VERSION (set by TENDER_HOST_INIT); another value is refused. */
    uint32_t version;
    /** Passed back to every callback; must outlive the engine. */
    void *userdata;
    /**
     * Answers the directory list `what` ("contacts", "accounts",
     * "billPayees" or "bills") with a directory document holding that list,
     * e.g. `{"contacts": [...]}` (schema in docs/directory.md), written with
     * tender_reply_set(). Required.
     */
    int (*lookup)(void *userdata, const char *what, tender_reply *reply);
    /**
     * Whether the backend can make `payment` (the resolved intent JSON with
     * its "idempotencyKey"): write TENDER_RESPONSE_READY or a failure code
     * to *code_out. Called by confirm. NULL: always ready.
     */
    int (*can_send)(void *userdata, const char *payment_json, size_t payment_len,
                    tender_response_code *code_out);
    /**
     * Makes `payment`: write TENDER_RESPONSE_SUCCESS or a failure code to
     * *code_out. Called by handle, after authentication, before the record
     * is kept, at most once per idempotency key across the threads and
     * processes using the home: a claim on the key is committed first,
     * other sessions with the key wait for this call's outcome, and after a
     * crash between this call and the record Tender does not call again
     * (handle fails with TENDER_E_OUTCOME_UNKNOWN until the key is settled
     * with tender_engine_set_payment_status(); docs/outcome.md). Failing
     * (non-zero) or a failure code means nothing moved. Required.
     */
    int (*send)(void *userdata, const char *payment_json, size_t payment_len,
                tender_response_code *code_out);
} tender_host;

/** An empty tender_host of this header's version: `tender_host host = TENDER_HOST_INIT;`. */
#define TENDER_HOST_INIT {TENDER_HOST_VERSION, NULL, NULL, NULL, NULL}

/**
 * Opens an engine like tender_engine_new() whose directory (contacts,
 * accounts, bill payees, bills) comes from the host's `lookup` callback and
 * whose payments go through the host's `can_send` and `send`: the store
 * keeps the signed ledger, the user vocabulary, the signed-in flag and the
 * authentication records, but no balances. `*host` is copied. The
 * directory calls (tender_engine_directory(), _import_directory(),
 * _remove_from_directory()) act on the host's directory: reading it asks
 * `lookup`, changing it is refused with TENDER_E_WRONG_STATE (the host owns it).
 * Errors: those of tender_engine_new(), TENDER_E_NULL_ARGUMENT (host,
 * host->lookup or host->send NULL), TENDER_E_INVALID_ARGUMENT (host->version
 * is not TENDER_HOST_VERSION). Thread-safe.
 */
TENDER_API TENDER_NODISCARD tender_result tender_engine_new_with_host(const char *config_json, size_t config_len,
                                          const tender_host *host, tender_engine **engine_out);

/**
 * Releases the caller's reference to an engine. Sessions still open keep it
 * alive until they are freed. NULL is ignored. Call once per engine.
 */
TENDER_API void tender_engine_free(tender_engine *engine);

/**
 * A cache of open engines, for a host that serves many people at once in one
 * process, each person with a home of their own (a chat or voice service).
 * It keeps at most `capacity` engines open while nobody uses them and lets go
 * of the least recently asked for first; tender_engine_cache_close_idle()
 * lets go of the ones not asked for lately. docs/performance.md measures what
 * an engine costs to open and to keep open (`tender bench --homes`).
 *
 * Thread safety: every tender_engine_cache_* call may be made from any
 * thread at once; the engines it hands out are ordinary engines (thread-safe,
 * shared). A cache must not be freed while another thread uses it.
 */
typedef struct tender_engine_cache tender_engine_cache;

/**
 * Makes an empty cache that keeps at most `capacity` (1 to 65536) engines
 * open while nobody uses them. Each open engine holds about 5 file
 * descriptors (the store and its -wal for a reading and a writing
 * connection, and the -shm);
 * choose `capacity` within the process's RLIMIT_NOFILE. On success writes the
 * cache to *cache_out; free it with tender_engine_cache_free(). Symbol
 * version TENDER_1.3. Errors: TENDER_E_NULL_ARGUMENT,
 * TENDER_E_INVALID_ARGUMENT (capacity out of range). Thread-safe.
 */
TENDER_API TENDER_NODISCARD tender_result tender_engine_cache_new(size_t capacity, tender_engine_cache **cache_out);

/**
 * The engine `config_json` describes (as tender_engine_new(), which it calls
 * when the cache keeps no such engine): the one kept for the same home and
 * the same configuration, or a new one, kept. The same home means the same
 * directory (device and inode) that "home" leads to at the time of the call,
 * so a directory renamed into another's place gets an engine of its own (a
 * home reached through a symbolic link is refused: TENDER_E_STORE, even when
 * the engine of the home it leads to is kept); the same configuration means
 * every other member equal ("limits", "authentication", "dialog", ...; the
 * order of members does not matter), so a request never gets an engine opened with another
 * policy, other limits or another PAM stack. Which home belongs to which
 * person is the host's decision: the cache cannot tell.
 *
 * Writes a new reference to *engine_out: release it with tender_engine_free()
 * when this request is done. An engine the cache lets go stays open as long as
 * the host holds a reference or a session is open on it, so letting go never
 * closes an engine under a running call. Brokered engines ("broker", or
 * TENDER_BROKER in the environment) are refused: tenderd keeps those.
 * Symbol version TENDER_1.3. Errors: those of tender_engine_new(),
 * TENDER_E_INVALID_ARGUMENT (a brokered configuration). Thread-safe; opens
 * of the same home path run one at a time (the second request gets the
 * engine the first opened), other homes are served meanwhile.
 */
TENDER_API TENDER_NODISCARD tender_result tender_engine_cache_get(tender_engine_cache *cache, const char *config_json,
                                      size_t config_len, tender_engine **engine_out);

/**
 * Lets go of every engine not asked for in the last `idle_seconds` seconds
 * (0: all of them); each closes once the host's references and its sessions
 * are gone. Writes how many were let go to *closed_out unless it is NULL.
 * Symbol version TENDER_1.3. Errors: TENDER_E_NULL_ARGUMENT (cache).
 * Thread-safe.
 */
TENDER_API TENDER_NODISCARD tender_result tender_engine_cache_close_idle(tender_engine_cache *cache, uint32_t idle_seconds,
                                             size_t *closed_out);

/**
 * How many engines the cache keeps now (0 for NULL). Symbol version
 * TENDER_1.3. Thread-safe.
 */
TENDER_API size_t tender_engine_cache_count(const tender_engine_cache *cache);

/**
 * Lets go of every engine and frees the cache. Engines the host still holds
 * stay valid until it frees them. NULL is ignored. Call once, when no other
 * thread uses the cache. Symbol version TENDER_1.3.
 */
TENDER_API void tender_engine_cache_free(tender_engine_cache *cache);

/**
 * Adds or replaces contacts (with their handles), accounts (with their
 * balances), bill payees and bills from a directory JSON document
 * (`{"contacts", "accounts", "billPayees", "bills"}`, each optional), all in
 * one transaction: on any error nothing changes. Errors:
 * TENDER_E_NULL_ARGUMENT, TENDER_E_INVALID_UTF8, TENDER_E_INVALID_JSON,
 * TENDER_E_TOO_LARGE, TENDER_E_INVALID_ARGUMENT, TENDER_E_INVALID_AMOUNT,
 * TENDER_E_UNKNOWN_CURRENCY, TENDER_E_NOT_FOUND (a bill's payee does not
 * exist), TENDER_E_STORE, TENDER_E_STORE_BUSY, TENDER_E_WRONG_STATE (an
 * engine with a host: the host changes its own directory). Thread-safe.
 */
TENDER_API TENDER_NODISCARD tender_result tender_engine_import_directory(tender_engine *engine, const char *json,
                                             size_t json_len);

/**
 * Removes directory items by id, all in one transaction:
 * `{"contacts": [ids], "accounts": [...], "billPayees": [...], "bills": [...]}`
 * (a bill payee takes its bills). Errors: TENDER_E_NULL_ARGUMENT,
 * TENDER_E_INVALID_UTF8, TENDER_E_INVALID_JSON, TENDER_E_TOO_LARGE,
 * TENDER_E_INVALID_ARGUMENT, TENDER_E_NOT_FOUND (an id does not exist;
 * nothing is removed), TENDER_E_STORE, TENDER_E_STORE_BUSY,
 * TENDER_E_WRONG_STATE (an engine with a host). Thread-safe.
 */
TENDER_API TENDER_NODISCARD tender_result tender_engine_remove_from_directory(tender_engine *engine, const char *json,
                                                  size_t json_len);

/**
 * Replaces the person's whole vocabulary of one kind, as SiriKit's
 * setVocabularyStrings does: `{"kind": "contactName" |
 * "paymentOrganizationName" | "accountNickname", "items": [{"id", "phrase",
 * "pronunciation", "alternatives"}]}`, an ordered set (earlier wins). An
 * item's id is the contact, bill payee (or organization) or account it
 * names. Errors: TENDER_E_NULL_ARGUMENT, TENDER_E_INVALID_UTF8,
 * TENDER_E_INVALID_JSON, TENDER_E_TOO_LARGE, TENDER_E_INVALID_ARGUMENT,
 * TENDER_E_STORE, TENDER_E_STORE_BUSY. Thread-safe.
 */
TENDER_API TENDER_NODISCARD tender_result tender_engine_set_vocabulary(tender_engine *engine, const char *json, size_t json_len);

/**
 * Records whether the person is signed in to the payment service (non-zero:
 * signed in, the default). Kept in the store, so every process using the
 * home sees it (the seeds' flag shared by app and extension). Confirm
 * answers TENDER_RESPONSE_FAILURE_CREDENTIALS_UNVERIFIED for a person not
 * signed in. Errors: TENDER_E_NULL_ARGUMENT, TENDER_E_STORE,
 * TENDER_E_STORE_BUSY. Thread-safe.
 */
TENDER_API TENDER_NODISCARD tender_result tender_engine_set_signed_in(tender_engine *engine, int signed_in);

/**
 * Writes the whole directory (contacts, handles, accounts with their current
 * balances, bill payees, bills) as JSON to *json_out (and its length to *len_out if not NULL);
 * for an engine with a host, the directory its `lookup` answers.
 * Free the text with tender_string_free(). Errors: TENDER_E_NULL_ARGUMENT,
 * TENDER_E_STORE, TENDER_E_STORE_BUSY, TENDER_E_CALLBACK. Thread-safe.
 */
TENDER_API TENDER_NODISCARD tender_result tender_engine_directory(tender_engine *engine, char **json_out,
                                      size_t *len_out);

/**
 * Writes every payment record in the store, oldest first, as a JSON array to
 * *json_out (and its length to *len_out if not NULL). Free the text with
 * tender_string_free(). Errors: TENDER_E_NULL_ARGUMENT, TENDER_E_STORE,
 * TENDER_E_STORE_BUSY, TENDER_E_LEDGER_TAMPERED (a stored record is not a
 * JWS). Thread-safe.
 */
TENDER_API TENDER_NODISCARD tender_result tender_engine_payments(tender_engine *engine, char **json_out,
                                     size_t *len_out);

/**
 * Records a later status change of the payment made under `idempotency_key`
 * (the record's "idempotencyKey"): `status` is "completed", "canceled" or
 * "failed". Only a pending payment (a request, or a payment scheduled for a
 * later day) changes; completed, canceled and failed are final.
 * The change is its own signed ledger entry, type "payment_status", naming
 * the payment by sequence and key with its previous and new status; the
 * payment's record is never rewritten. Its effects follow in the same
 * durable transaction: canceled or failed gives back what the payment
 * debited (and credited) and leaves its bill unpaid again; completed credits
 * a request's account and marks a scheduled bill payment's bill completed.
 * Asking for the status the payment already has records nothing and returns
 * the entry (or payment record) that set it. Search results
 * (search_for_payments) show the latest status.
 * A key whose host call's outcome is unknown (TENDER_E_OUTCOME_UNKNOWN: the
 * process asking the host's send or a custom intent's handle ended before the
 * record) is settled here: "completed" records the payment the session would
 * have recorded (a signed payment entry carrying "settled": "status", written
 * to the outputs); "failed" or "canceled" records nothing and frees the key
 * (the next handle asks the host again): *record_out is then
 * `{"type": "claim", "idempotencyKey", "status"}` and *jws_out empty.
 * On success writes the entry's JSON to *record_out and its compact JWS to
 * *jws_out (lengths to the length pointers when not NULL); free both with
 * tender_string_free(). No re-authentication: no money leaves an account
 * that did not receive it from this payment.
 * Errors: TENDER_E_NULL_ARGUMENT, TENDER_E_INVALID_UTF8, TENDER_E_TOO_LARGE,
 * TENDER_E_INVALID_ARGUMENT (not a payment status), TENDER_E_NOT_FOUND (no
 * payment has the key), TENDER_E_WRONG_STATE (the status is final, the payment
 * predates status changes, an account no longer holds what it would give
 * back, or a session is asking the host under the key now),
 * TENDER_E_LEDGER_TAMPERED (a claim with no seal or a seal that does not
 * check, or that moves balances the store keeps: Tender never wrote it;
 * nothing is settled), TENDER_E_STORE, TENDER_E_STORE_BUSY, TENDER_E_CRYPTO,
 * TENDER_E_KEY_FILE. Thread-safe.
 */
TENDER_API TENDER_NODISCARD tender_result tender_engine_set_payment_status(tender_engine *engine, const char *idempotency_key,
                                               size_t key_len, const char *status, size_t status_len,
                                               char **record_out, size_t *record_len_out,
                                               char **jws_out, size_t *jws_len_out);

/**
 * Writes the whole ledger, oldest first, as a JSON array to *json_out: one
 * `{"sequence", "type", "record", "jws"}` per entry, where type is "payment",
 * "payment_status", "key_rotation", "intent" (a recorded custom information
 * intent), "balances" (the directory's balances and removed accounts) or
 * "testing_mode" (docs/ledger.md), record the signed JSON and jws its compact JWS. Free
 * the text with tender_string_free(). Errors: TENDER_E_NULL_ARGUMENT,
 * TENDER_E_STORE, TENDER_E_STORE_BUSY, TENDER_E_LEDGER_TAMPERED (an entry is
 * not a JWS). Thread-safe.
 */
TENDER_API TENDER_NODISCARD tender_result tender_engine_ledger(tender_engine *engine, char **json_out, size_t *len_out);

/**
 * Verifies the ledger: every signature, every sequence number and every hash
 * link. Trust starts from a root key and follows the chain: the first record
 * must be signed by the root, each later record by the key signing at that
 * point, and a key_rotation record (signed by the outgoing key) hands over to
 * the new key. The root is `trusted_key` when not NULL (an Ed25519 public key
 * as PEM or JWK text, e.g. saved from tender_engine_public_key()), else the
 * first key the store recorded; pinning a key you keep elsewhere protects
 * against someone who can rewrite the store. With `checkpoint` (a JWS from
 * tender_engine_checkpoint(); NULL for the one the configuration's
 * "checkpointPath" keeps, if any), also checks that no record it covers was
 * removed or rewritten; without any checkpoint, records removed from the end
 * of the ledger cannot be seen. Then checks every column the store keeps
 * beside a record against the signed record, and re-derives every account's
 * balance and currency from the ledger's signed "balances" entries (written
 * when the directory sets or removes accounts) and the payments after them,
 * naming an account missing from the directory too (docs/ledger.md). On
 * success writes a report
 * `{"valid": true, "records": N, "headHash": "...", "keys": [...]}`, with
 * `"resigned": [sequence, ...]` added when records had to be signed again
 * after their commit (their process ended before storing the signature; see
 * docs/ledger.md), `"testingMode": [sequence, ...]` when an engine in testing
 * mode let payments through (its signed "testing_mode" entries), and
 * `"unchainedBalances": [account, ...]` for accounts whose balance an earlier
 * version signed beside them (not ordered by the chain). The audit log, the
 * contacts, bills and vocabulary are not signed and not checked.
 * Errors: TENDER_E_NULL_ARGUMENT, TENDER_E_LEDGER_TAMPERED (tender_last_error()
 * names the first bad record, column, or every account whose balance disagrees), TENDER_E_INVALID_ARGUMENT (trusted_key is not an
 * Ed25519 public key), TENDER_E_INVALID_UTF8, TENDER_E_TOO_LARGE,
 * TENDER_E_STORE. Thread-safe.
 */
TENDER_API TENDER_NODISCARD tender_result tender_engine_verify(tender_engine *engine, const char *checkpoint,
                                   size_t checkpoint_len, const char *trusted_key,
                                   size_t trusted_key_len, char **report_out, size_t *len_out);

/**
 * Signs and writes a checkpoint of the ledger as it stands (record count
 * and head hash) as a compact JWS to *jws_out. Keep it somewhere else;
 * verifying against it later detects truncation and rewritten history.
 * Creates the signing key on first use. Errors: TENDER_E_NULL_ARGUMENT,
 * TENDER_E_STORE, TENDER_E_STORE_BUSY, TENDER_E_CRYPTO, TENDER_E_KEY_FILE.
 * Thread-safe.
 */
TENDER_API TENDER_NODISCARD tender_result tender_engine_checkpoint(tender_engine *engine, char **jws_out, size_t *len_out);

/** The forms of a public key tender_engine_public_key() writes. */
typedef int32_t tender_key_format;

/** Public key formats. */
enum tender_key_format_value {
    TENDER_KEY_FORMAT_PEM = 0, /**< SubjectPublicKeyInfo PEM, as openssl reads it */
    TENDER_KEY_FORMAT_JWK = 1  /**< an RFC 8037 OKP JWK with its RFC 7638 thumbprint as kid */
};

/**
 * Writes the active signing key's public key to *key_out in `format`.
 * The private key is created on first use: a PKCS#8 PEM file, mode 0600,
 * in HOME/keys/. Errors: TENDER_E_NULL_ARGUMENT, TENDER_E_INVALID_ARGUMENT
 * (unknown format), TENDER_E_KEY_FILE (e.g. readable by group or others),
 * TENDER_E_CRYPTO, TENDER_E_STORE, TENDER_E_STORE_BUSY. Thread-safe.
 */
TENDER_API TENDER_NODISCARD tender_result tender_engine_public_key(tender_engine *engine, tender_key_format format,
                                       char **key_out, size_t *len_out);

/**
 * Rotates the signing key: makes a new key, appends a key_rotation entry
 * signed by the old key, and destroys the old private key (its public key
 * stays for verification). Writes the new key id to *kid_out.
 * Errors: TENDER_E_NULL_ARGUMENT, TENDER_E_KEY_FILE, TENDER_E_CRYPTO,
 * TENDER_E_STORE, TENDER_E_STORE_BUSY. Thread-safe.
 */
TENDER_API TENDER_NODISCARD tender_result tender_engine_rotate_key(tender_engine *engine, char **kid_out, size_t *len_out);

/**
 * Writes the authentication audit log, oldest first, as a JSON array of
 * `{"id", "at", "user", "event", "intent", "detail"}`; "event" is one of
 * authenticated, reused, notRequired, denied, throttled (docs/audit.md says
 * what each detail holds). It never holds a secret. Free the text with
 * tender_string_free(). Errors: TENDER_E_NULL_ARGUMENT, TENDER_E_STORE.
 * Thread-safe.
 */
TENDER_API TENDER_NODISCARD tender_result tender_engine_audit(tender_engine *engine, char **json_out, size_t *len_out);

/* ---------------------------------------------------------------- session */

/**
 * A session: one dialog about one intent. Use it from one thread at a time.
 */
typedef struct tender_session tender_session;

/**
 * Starts a dialog from a structured intent of any of the seven intents
 * (docs/intents.md) or of the engine's custom intents (docs/custom-intents.md), e.g. `{"intent": "send_payment", "payee": {"name":
 * "John"}, "currencyAmount": {"amount": "50", "currency": "USD"}}` or
 * `{"intent": "pay_bill", "billPayee": {"name": "Electric Company"}}`.
 * An optional "idempotencyKey" names the payment for retries across
 * processes; without one the session makes its own.
 *
 * On success writes a new session to *session_out; release it with
 * tender_session_free(). Errors: TENDER_E_NULL_ARGUMENT, TENDER_E_INVALID_UTF8,
 * TENDER_E_INVALID_JSON, TENDER_E_TOO_LARGE, TENDER_E_INVALID_ARGUMENT,
 * TENDER_E_UNKNOWN_INTENT, TENDER_E_INVALID_AMOUNT, TENDER_E_UNKNOWN_CURRENCY.
 * Thread-safe with respect to the engine.
 */
TENDER_API TENDER_NODISCARD tender_result tender_session_new(tender_engine *engine, const char *intent_json,
                                 size_t intent_len, tender_session **session_out);

/** Releases a session. NULL is ignored. Call once per session. */
TENDER_API void tender_session_free(tender_session *session);

/** What an authentication step asks of the person. */
typedef int32_t tender_prompt_kind;

/** Prompt kinds, as PAM's message styles. */
enum tender_prompt_kind_value {
    TENDER_PROMPT_SECRET = 0, /**< ask without echo (a password) */
    TENDER_PROMPT_TEXT = 1,   /**< ask with echo */
    TENDER_PROMPT_INFO = 2,   /**< show a message; no answer */
    TENDER_PROMPT_ERROR = 3   /**< show an error message; no answer */
};

/**
 * The host's side of re-authentication. Called on the thread that called
 * tender_session_handle(), once per PAM message. For SECRET and TEXT, write
 * the answer as NUL-terminated UTF-8 of at most answer_size - 1 bytes into
 * `answer` (memory Tender owns, hands to PAM and wipes; do not keep it) and
 * return 0. For INFO and ERROR, `answer` is NULL and answer_size 0; show
 * `message` and return 0. Return non-zero to cancel: handle then answers
 * TENDER_RESPONSE_FAILURE_CREDENTIALS_UNVERIFIED and pays nothing.
 * `message` is valid during the call only.
 */
typedef int (*tender_conversation_fn)(void *userdata, tender_prompt_kind kind, const char *message,
                                      char *answer, size_t answer_size);

/**
 * Sets how this session asks the person to authenticate when the engine's
 * policy requires it (NULL `conversation` removes it: a payment that needs
 * authentication is then refused). `userdata` is passed back unchanged and
 * must stay valid while the session may call it.
 * Errors: TENDER_E_NULL_ARGUMENT (session).
 */
TENDER_API TENDER_NODISCARD tender_result tender_session_set_conversation(tender_session *session, tender_conversation_fn conversation,
                                              void *userdata);

/**
 * Resolves every parameter and writes the results as JSON to *json_out:
 * `{"intent": "send_payment", "complete": false, "parameters": [...]}`, one
 * entry per parameter with "result" one of success, disambiguation,
 * confirmationRequired, needsValue, notRequired, unsupported (with "reason"),
 * plus "value" or "options". Parameters that need an answer become the
 * session's open questions. Free the text with tender_string_free().
 * Errors: TENDER_E_NULL_ARGUMENT, TENDER_E_WRONG_STATE (already handled),
 * TENDER_E_STORE, TENDER_E_STORE_BUSY, TENDER_E_CALLBACK (the host's lookup
 * failed, or a custom intent's values callback failed or is missing). A custom
 * intent's results also carry "message", its definition's words for the question.
 * Every result that asks something carries "say", the sentence to say to the
 * person in their language (the intent's "language", else the engine's
 * "locale"), at most 160 characters; each option its own "say"; a refused
 * value (or a missing account or bill payee) "options" of what there is
 * (docs/dialog.md).
 * An intent document with "askDestination": true (as understanding gives for a
 * transfer that names nobody) first resolves to the one question
 * `{"parameter": "intent", "result": "disambiguation", "prompt": "destination",
 * "options": [send_payment, transfer_money], "message": "To someone else, or
 * between your own accounts?"}`; answering it with "choose" turns the session
 * into the chosen intent (docs/dialog.md).
 */
TENDER_API TENDER_NODISCARD tender_result tender_session_resolve(tender_session *session, char **json_out,
                                     size_t *len_out);

/**
 * Answers one open question of the last resolve:
 * `{"parameter": "payee", "choose": "<option id>"}` for a disambiguation,
 * `{"parameter": "payee", "confirm": true}` for a confirmation, or
 * `{"parameter": "currencyAmount", "value": {...}}` for a missing or
 * unsupported value. Call tender_session_resolve() again afterwards.
 * Errors: TENDER_E_NULL_ARGUMENT, TENDER_E_INVALID_UTF8, TENDER_E_INVALID_JSON,
 * TENDER_E_TOO_LARGE, TENDER_E_INVALID_ARGUMENT, TENDER_E_INVALID_AMOUNT,
 * TENDER_E_UNKNOWN_CURRENCY, TENDER_E_NOT_ASKED, TENDER_E_UNKNOWN_OPTION,
 * TENDER_E_WRONG_STATE (after handle). On error the session is unchanged.
 */
TENDER_API TENDER_NODISCARD tender_result tender_session_answer(tender_session *session, const char *answer_json,
                                    size_t answer_len);

/**
 * Confirms the resolved intent: checks that it can be carried out (signed in,
 * limits, currency, an account, funds, the host's can_send; for a search,
 * that something matches) and writes the response code to *code_out:
 * TENDER_RESPONSE_READY or a failure code. If outcome_out is not NULL, also
 * writes the confirm outcome document (docs/outcome.md): "code", the
 * resolved "intent", the paying "account", "billDetails", "fee", a search's
 * "result" and, for an intent that moves money and answers ready,
 * "question": the words to ask the person, e.g. "Send $20 to John Baily from
 * Checking? There is no fee.", and "say", the same question (or a failure's
 * reason) in the person's language. Free it with tender_string_free().
 * Errors: TENDER_E_NULL_ARGUMENT, TENDER_E_WRONG_STATE (a parameter is still
 * unresolved, or the session was handled), TENDER_E_STORE, TENDER_E_STORE_BUSY,
 * TENDER_E_CALLBACK (the host's lookup or can_send failed).
 */
TENDER_API TENDER_NODISCARD tender_result tender_session_confirm(tender_session *session, tender_response_code *code_out,
                                                                 char **outcome_out, size_t *len_out);

/**
 * Records the person's answer to the confirmation question of the last
 * confirm (its response's "question"), as SiriKit's confirmation screen does:
 * `yes` non-zero lets tender_session_handle() move the money; zero ends the
 * dialog and pays nothing (handle then fails with TENDER_E_DIALOG_ENDED).
 * Ask the person before every handle that moves money: unless the engine's
 * configuration sets "dialog": {"requireAgreement": false} (for a host that
 * asks in its own words), handle without a recorded yes fails with
 * TENDER_E_NOT_AGREED and pays nothing. Searches need no agreement. A new
 * resolve, answer or confirm forgets the answer.
 * Errors: TENDER_E_NULL_ARGUMENT, TENDER_E_WRONG_STATE (confirm has not
 * answered ready for an intent that moves money, or the session was handled),
 * TENDER_E_DIALOG_ENDED. On error the session is unchanged. Not thread-safe
 * on one session.
 */
TENDER_API TENDER_NODISCARD tender_result tender_session_agree(tender_session *session, int yes);

/**
 * Reads the person's reply, as they said or typed it (UTF-8 text), to the
 * question they were last asked, in the dialog's language, and acts on it:
 * an answer to the first open question of the last resolve (an option by its
 * position, "the second one", "la segunda", or its whole name; yes or no,
 * "sí", "vale"; a value in words, "20 dollars"; then resolve again), yes or no
 * to the question before money moves (as tender_session_agree()), or the end
 * of the dialog ("cancel", "stop", "never mind", "cancela", "olvídalo":
 * nothing is paid and later calls fail with TENDER_E_DIALOG_ENDED). A fragment
 * of a name ("ly", "w") never picks an option. Writes the reply document to
 * *json_out: `{"reply": "answer" | "agree" | "cancel" | "unclear",
 * "answer"?: {...}, "yes"?: bool, "say"?: "..."}`; "unclear" changed nothing
 * and its "say" tells the person why and what to say (docs/dialog.md). Free
 * it with tender_string_free(). Symbol version TENDER_1.2 (soname unchanged).
 * Errors: TENDER_E_NULL_ARGUMENT, TENDER_E_INVALID_UTF8, TENDER_E_TOO_LARGE,
 * TENDER_E_WRONG_STATE (no question awaits a reply: resolve or confirm first;
 * a brokered session, whose replies the host reads), TENDER_E_DIALOG_ENDED,
 * TENDER_E_STORE, TENDER_E_STORE_BUSY, TENDER_E_CALLBACK. Not thread-safe on one session.
 */
TENDER_API TENDER_NODISCARD tender_result tender_session_reply(tender_session *session, const char *text, size_t text_len,
                                                               char **json_out, size_t *len_out);

/**
 * Handles a confirmed intent: re-authenticates the person when the engine's
 * policy asks for it (the reuse window may spare it), then pays exactly once
 * (or, for a search, answers its result), and writes the response code to
 * *code_out: TENDER_RESPONSE_SUCCESS or a failure code such as
 * TENDER_RESPONSE_FAILURE_INSUFFICIENT_FUNDS (funds left since confirm) or
 * TENDER_RESPONSE_FAILURE_CREDENTIALS_UNVERIFIED (wrong, empty or cancelled
 * credentials, too many failures, or no conversation set; nothing is
 * submitted and the session stays confirmed so the host may retry).
 * If outcome_out is not NULL, also writes the handle outcome document
 * (docs/outcome.md), one JSON object holding everything handle answers:
 * "code"; on success the payment "record" (the signed JSON) and its compact
 * "jws", or a search's "result"; after a denial, "denial": {"reason":
 * "wrongCredentials" | "cancelled" | "throttled" | ..., "message"}; and "say",
 * the outcome in the person's language ("Sent $50 to John Baily."). Free it
 * with tender_string_free(). The debit, the record and the idempotency key
 * are one durable transaction. Handling again, or from another session or
 * process with the same idempotency key, returns the original record and
 * pays nothing. An engine with a host calls its send (or a money-moving
 * custom intent's handle) at most once per key: sessions meeting a claim on
 * the key wait (at most 30 s, then TENDER_E_STORE_BUSY) and answer its
 * outcome; TENDER_E_OUTCOME_UNKNOWN when the claim's holder ended before
 * recording the host's answer (docs/outcome.md).
 * Errors: TENDER_E_NULL_ARGUMENT, TENDER_E_WRONG_STATE (not confirmed ready),
 * TENDER_E_NOT_AGREED (money would move but the person's yes was not recorded
 * with tender_session_agree()), TENDER_E_DIALOG_ENDED (also after a no),
 * TENDER_E_IDEMPOTENCY_CONFLICT, TENDER_E_STORE, TENDER_E_STORE_BUSY,
 * TENDER_E_CRYPTO, TENDER_E_KEY_FILE, TENDER_E_CALLBACK (the host's send
 * failed; nothing is recorded), TENDER_E_OUTCOME_UNKNOWN.
 *
 * A custom intent is handed to the host's tender_intent_host.handle after the
 * same agreement and authentication; the outcome document adds "response":
 * {"code", "values", "text"} (docs/custom-intents.md). Its callback failing,
 * missing or answering what the definition does not allow is TENDER_E_CALLBACK
 * and records nothing.
 */
TENDER_API TENDER_NODISCARD tender_result tender_session_handle(tender_session *session, tender_response_code *code_out,
                                                                char **outcome_out, size_t *len_out);

/* ---------------------------------------------------------- understanding */

/**
 * Understands a typed or spoken request, offline: a registered shortcut
 * first, then the trained models. Writes
 * `{"intent": "send_payment" | ... | "out_of_scope", "parameters": {...} | null,
 *   "text", "language", "source", "score", "namedApp"}` to *json_out: the
 * parameters are an intent document's (docs/intents.md) without "intent",
 * ready for tender_session_new(); out_of_scope carries none. Names,
 * organizations and accounts are found through the engine's directory and
 * vocabulary (docs/understanding.md). Errors: TENDER_E_NULL_ARGUMENT,
 * TENDER_E_INVALID_UTF8, TENDER_E_TOO_LARGE, TENDER_E_INVALID_ARGUMENT (text
 * over 1000 characters), TENDER_E_STORE, TENDER_E_STORE_BUSY. Thread-safe.
 */
TENDER_API TENDER_NODISCARD tender_result tender_engine_parse(tender_engine *engine, const char *text, size_t text_len,
                                  char **json_out, size_t *len_out);

/**
 * Like tender_engine_parse() for the recogniser's n-best list:
 * `{"alternatives": [{"text": "...", "score": 0.92}, ...]}` (1 to 10, score
 * optional, best first). Every alternative is parsed; the best in-scope one
 * wins, and the other hearings of its person are kept as the name's
 * "alternatives". Errors: those of tender_engine_parse(), and
 * TENDER_E_INVALID_JSON. Thread-safe.
 */
TENDER_API TENDER_NODISCARD tender_result tender_engine_parse_alternatives(tender_engine *engine, const char *json, size_t json_len,
                                               char **json_out, size_t *len_out);

/**
 * Understands a request without an engine: no directory, no shortcuts (a
 * person's name is whatever the text says). Same output and errors as
 * tender_engine_parse(), without the store's. Thread-safe.
 */
TENDER_API TENDER_NODISCARD tender_result tender_parse(const char *text, size_t text_len, char **json_out, size_t *len_out);

/**
 * Registers a shortcut, `{"phrase": "coffee expense", "intent": {...}}` (a
 * built-in intent or one of the engine's custom intents): the
 * phrase (case, spaces and punctuation ignored) starts that intent before
 * anything else is tried; the same phrase again replaces it. Kept in the
 * store. Errors: TENDER_E_NULL_ARGUMENT, TENDER_E_INVALID_UTF8,
 * TENDER_E_INVALID_JSON, TENDER_E_TOO_LARGE, TENDER_E_INVALID_ARGUMENT,
 * TENDER_E_UNKNOWN_INTENT, TENDER_E_INVALID_AMOUNT, TENDER_E_UNKNOWN_CURRENCY,
 * TENDER_E_STORE, TENDER_E_STORE_BUSY. Thread-safe.
 */
TENDER_API TENDER_NODISCARD tender_result tender_engine_add_shortcut(tender_engine *engine, const char *json, size_t json_len);

/**
 * Removes the shortcut with this phrase. Errors: TENDER_E_NULL_ARGUMENT,
 * TENDER_E_INVALID_UTF8, TENDER_E_TOO_LARGE, TENDER_E_NOT_FOUND,
 * TENDER_E_STORE, TENDER_E_STORE_BUSY. Thread-safe.
 */
TENDER_API TENDER_NODISCARD tender_result tender_engine_remove_shortcut(tender_engine *engine, const char *phrase, size_t phrase_len);

/**
 * Starts a dialog from text: tender_engine_parse(), then tender_session_new()
 * with the intent understood. An out-of-scope text starts nothing and answers
 * TENDER_E_OUT_OF_SCOPE. Errors: those of both. Thread-safe with respect to
 * the engine.
 */
TENDER_API TENDER_NODISCARD tender_result tender_session_new_from_text(tender_engine *engine, const char *text, size_t text_len,
                                           tender_session **session_out);

/* ------------------------------------------------- custom intents (1.1) */

/*
 * Custom intents (docs/custom-intents.md): intents a host declares in a
 * definition document, carried through the same lifecycle as the built-in
 * ones (resolve, answer, confirm, agree, handle) by the same session calls.
 * The engine configuration's "intents" lists definition files loaded when the
 * engine opens; the calls below add more at run time and register the host
 * that handles them. Added in libtender 0.3 (symbol version TENDER_1.1).
 */

/**
 * Adds the custom intents of a definition document (UTF-8 JSON,
 * `{"intents": [...]}`, schema in docs/custom-intents.md) to the engine:
 * sessions, tender_engine_parse() and shortcuts know them from then on. The
 * document is checked whole before anything is added: a document that cannot
 * work, or that reuses the name of an intent already loaded (built-in or
 * custom), adds nothing and fails with TENDER_E_INVALID_ARGUMENT, whose
 * message (tender_last_error()) names the intent, the field and the reason.
 * The caller keeps ownership of `json`. Errors: TENDER_E_NULL_ARGUMENT,
 * TENDER_E_INVALID_UTF8, TENDER_E_INVALID_JSON, TENDER_E_TOO_LARGE,
 * TENDER_E_INVALID_ARGUMENT (also for a brokered engine: tenderd runs the built-in
 * intents only), TENDER_E_INVALID_AMOUNT, TENDER_E_UNKNOWN_CURRENCY
 * (a restriction's amount). Thread-safe; sessions already started are not affected.
 */
TENDER_API TENDER_NODISCARD tender_result tender_engine_add_intents(tender_engine *engine, const char *json, size_t json_len);

/**
 * Like tender_engine_add_intents() for the definition file at `path` (UTF-8,
 * `path_len` bytes). Errors: those of tender_engine_add_intents(), with the
 * path in the message, and TENDER_E_NOT_FOUND (the file cannot be opened or
 * read). Thread-safe.
 */
TENDER_API TENDER_NODISCARD tender_result tender_engine_add_intents_file(tender_engine *engine, const char *path, size_t path_len);

/** The version of struct tender_intent_host this header describes. */
#define TENDER_INTENT_HOST_VERSION 1

/**
 * The host's side of its custom intents. Each callback gets `userdata`
 * unchanged, is called on the thread that made the session call
 * (tender_session_resolve() or _confirm() for `values`,
 * tender_session_handle() for `handle`), must not call back into the engine,
 * answers through tender_reply_set() and returns 0, or non-zero on failure:
 * the session call then fails with TENDER_E_CALLBACK, changes nothing and
 * records nothing. An answer that breaks the contract below is
 * TENDER_E_CALLBACK too. Initialise it with TENDER_INTENT_HOST_INIT.
 */
typedef struct tender_intent_host {
    /** TENDER_INTENT_HOST_VERSION (set by TENDER_INTENT_HOST_INIT); another value is refused. */
    uint32_t version;
    /** Passed back to every callback; must stay valid while the engine may call it. */
    void *userdata;
    /**
     * Handles a confirmed custom intent, after the person agreed (for an
     * intent that moves money) and authenticated (when it is restricted).
     * `request_json` (valid during the call only) is
     * `{"intent": "expense", "parameters": {"expense": "vacation"},
     * "idempotencyKey": "...", "device": "..."}`, each parameter as its
     * resolution's "value". Answer `{"code": "success", "values":
     * {"amountLeft": {"amount": "120.00", "currency": "USD"}}}`: a code of
     * success, failure, failureRequiringAppLaunch, inProgress or one of the
     * definition's own responses, and values for the definition's outputs.
     * Called at most once per idempotency key for an intent that moves money
     * (a claim is committed first; see tender_session_handle()); a host
     * should still not move money twice for a key it has seen. Required.
     */
    int (*handle)(void *userdata, const char *request_json, size_t request_len, tender_reply *reply);
    /**
     * Lists the values the person may choose for `parameter` of `intent`
     * (NUL-terminated names), for a parameter whose definition says
     * `"values": "host"`: answer `{"values": ["vacation", "groceries"]}`.
     * NULL when no definition asks: resolving such a parameter then fails
     * with TENDER_E_CALLBACK.
     */
    int (*values)(void *userdata, const char *intent, const char *parameter, tender_reply *reply);
} tender_intent_host;

/** An empty tender_intent_host of this header's version: `tender_intent_host h = TENDER_INTENT_HOST_INIT;`. */
#define TENDER_INTENT_HOST_INIT {TENDER_INTENT_HOST_VERSION, NULL, NULL, NULL}

/**
 * Registers the host that handles the engine's custom intents (copied; a
 * later call replaces it, NULL `host` removes it). Sessions use the host set
 * when they call. Errors: TENDER_E_NULL_ARGUMENT (engine, or host->handle),
 * TENDER_E_INVALID_ARGUMENT (host->version is not TENDER_INTENT_HOST_VERSION).
 * Thread-safe.
 */
TENDER_API TENDER_NODISCARD tender_result tender_engine_set_intent_host(tender_engine *engine, const tender_intent_host *host);

#ifdef __cplusplus
}
#endif

#endif /* TENDER_H */
