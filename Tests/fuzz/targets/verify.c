/* SPDX-License-Identifier: Apache-2.0 */
/* Fuzz target "verify": the ledger verifier over hostile input. The first byte picks
   what the rest of the input is: 0 a checkpoint JWS, 1 the trusted key, 2 the JWS kept
   in ledger row 2, 3 that row's hash (both written into the store behind the engine's
   back, then put back). A changed row that still verifies aborts. */
#include "../fuzz_common.h"
#include <sqlite3.h>

static tender_engine *engine;
static sqlite3 *db;
static char *row_jws, *row_hash;

static void pay_one(void) {
    const char *intent = "{\"intent\": \"send_payment\", \"payee\": {\"name\": \"Tim Cook\"},"
                         " \"currencyAmount\": {\"amount\": \"1.25\", \"currency\": \"USD\"}}";
    tender_session *session = NULL;
    char *json = NULL;
    tender_response_code code = 0;
    if (tender_session_new(engine, intent, strlen(intent), &session) != TENDER_OK ||
        tender_session_resolve(session, &json, NULL) != TENDER_OK ||
        tender_session_confirm(session, &code, NULL, NULL) != TENDER_OK || code != TENDER_RESPONSE_READY ||
        tender_session_handle(session, &code, NULL, NULL) != TENDER_OK || code != TENDER_RESPONSE_SUCCESS) {
        fprintf(stderr, "fuzz setup: cannot pay: %s\n", tender_last_error());
        abort();
    }
    tender_string_free(json);
    tender_session_free(session);
}

static char *column(const char *name) {
    char sql[128];
    sqlite3_stmt *st = NULL;
    snprintf(sql, sizeof sql, "SELECT %s FROM ledger WHERE sequence = 2", name);
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK || sqlite3_step(st) != SQLITE_ROW) abort();
    char *value = strdup((const char *)sqlite3_column_text(st, 0));
    sqlite3_finalize(st);
    return value;
}

static void set_column(const char *name, const void *bytes, int len) {
    char sql[128];
    sqlite3_stmt *st = NULL;
    snprintf(sql, sizeof sql, "UPDATE ledger SET %s = ?1 WHERE sequence = 2", name);
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) abort();
    sqlite3_bind_text(st, 1, bytes, len, SQLITE_TRANSIENT);
    if (sqlite3_step(st) != SQLITE_DONE) abort();
    sqlite3_finalize(st);
}

static void setup(void) {
    engine = fuzz_engine("verify");
    pay_one();
    pay_one();
    pay_one();
    char path[700];
    snprintf(path, sizeof path, "%s/verify/tender.sqlite3", fuzz_scratch());
    if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE, NULL) != SQLITE_OK) abort();
    sqlite3_busy_timeout(db, 5000);
    row_jws = column("jws");
    row_hash = column("hash");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (!engine) setup();
    if (size == 0) return 0;
    const char *rest = (const char *)data + 1;
    size_t len = size - 1;
    char *report = NULL;
    tender_result rc;
    switch (data[0] & 3) {
    case 0:
        rc = tender_engine_verify(engine, rest, len, NULL, 0, &report, NULL);
        break;
    case 1:
        rc = tender_engine_verify(engine, NULL, 0, rest, len, &report, NULL);
        break;
    default: {
        const char *name = (data[0] & 3) == 2 ? "jws" : "hash";
        const char *original = (data[0] & 3) == 2 ? row_jws : row_hash;
        if (len > 100000) return 0;
        set_column(name, rest, (int)len);
        rc = tender_engine_verify(engine, NULL, 0, NULL, 0, &report, NULL);
        set_column(name, original, -1);
        if (rc == TENDER_OK && (len != strlen(original) || memcmp(rest, original, len) != 0)) {
            fprintf(stderr, "a rewritten ledger row (%s) verified: %s\n", name, report);
            abort();
        }
    }
    }
    fuzz_check(rc, "tender_engine_verify");
    tender_string_free(report);
    return 0;
}
