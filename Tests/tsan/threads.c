/* SPDX-License-Identifier: Apache-2.0 */
/*
 * threads.c - eight threads on one engine at once, for ThreadSanitizer (make test-tsan):
 * two pay, two verify the ledger, two rotate the signing key and two import the
 * directory, each ROUNDS times. Every call must succeed (TENDER_E_STORE_BUSY is allowed
 * and retried), and afterwards the ledger verifies and holds every payment once.
 * Test-only. Usage: threads HOME
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tender.h>

#define ROUNDS 12

static const char *DIRECTORY =
    "{\"contacts\": [{\"id\": \"tim-cook\", \"displayName\": \"Tim Cook\", \"handles\": ["
    "   {\"id\": \"tc-work\", \"label\": \"work\", \"type\": \"email\", \"value\": \"tim@example.com\"}]}],"
    " \"accounts\": [{\"id\": \"checking\", \"nickname\": \"Checking\", \"type\": \"checking\","
    "   \"balance\": {\"amount\": \"100000.00\", \"currency\": \"USD\"}, \"default\": true}]}";
static const char *CONTACT =
    "{\"contacts\": [{\"id\": \"friend-%d-%d\", \"displayName\": \"Friend %d %d\", \"handles\": []}]}";

static tender_engine *engine;
static int failures;
static pthread_mutex_t failures_lock = PTHREAD_MUTEX_INITIALIZER;

static void fail(const char *what, tender_result rc) {
    pthread_mutex_lock(&failures_lock);
    failures++;
    fprintf(stderr, "%s: %s: %s\n", what, tender_result_str(rc), tender_last_error());
    pthread_mutex_unlock(&failures_lock);
}

static void pay(int worker, int round) {
    char intent[400];
    snprintf(intent, sizeof intent,
             "{\"intent\": \"send_payment\", \"payee\": {\"id\": \"tim-cook\"}, \"currencyAmount\": {\"amount\": \"1\","
             " \"currency\": \"USD\"}, \"idempotencyKey\": \"pay-%d-%d\"}", worker, round);
    tender_session *session = NULL;
    tender_response_code code = 0;
    char *json = NULL;
    tender_result rc = tender_session_new(engine, intent, strlen(intent), &session);
    if (rc == TENDER_OK) rc = tender_session_resolve(session, &json, NULL);
    tender_string_free(json);
    if (rc == TENDER_OK) rc = tender_session_confirm(session, &code, NULL, NULL);
    if (rc == TENDER_OK && code == TENDER_RESPONSE_READY) rc = tender_session_handle(session, &code, NULL, NULL);
    if (rc != TENDER_OK || code != TENDER_RESPONSE_SUCCESS) fail("pay", rc);
    tender_session_free(session);
}

static void *worker(void *arg) {
    int id = (int)(long)arg;
    for (int round = 0; round < ROUNDS; round++) {
        char *out = NULL;
        tender_result rc = TENDER_OK;
        switch (id % 4) {
        case 0: pay(id, round); break;
        case 1: rc = tender_engine_verify(engine, NULL, 0, NULL, 0, &out, NULL); break;
        case 2: rc = tender_engine_rotate_key(engine, &out, NULL); break;
        default: {
            char json[300];
            snprintf(json, sizeof json, CONTACT, id, round, id, round);
            rc = tender_engine_import_directory(engine, json, strlen(json));
        }
        }
        if (rc != TENDER_OK) fail(id % 4 == 1 ? "verify" : id % 4 == 2 ? "rotate" : "import", rc);
        tender_string_free(out);
    }
    return NULL;
}

int main(int argc, char **argv) {
    if (argc != 2) { fprintf(stderr, "usage: threads HOME\n"); return 2; }
    char config[1024];
    snprintf(config, sizeof config,
             "{\"home\": \"%s\", \"authentication\": {\"restrictedIntents\": []}, \"dialog\": {\"requireAgreement\": false}}", argv[1]);
    tender_result rc = tender_engine_new(config, strlen(config), &engine);
    if (rc == TENDER_OK) rc = tender_engine_import_directory(engine, DIRECTORY, strlen(DIRECTORY));
    if (rc != TENDER_OK) { fail("setup", rc); return 1; }
    pthread_t threads[8];
    for (long i = 0; i < 8; i++) pthread_create(&threads[i], NULL, worker, (void *)i);
    for (int i = 0; i < 8; i++) pthread_join(threads[i], NULL);
    char *report = NULL, *ledger = NULL;
    rc = tender_engine_verify(engine, NULL, 0, NULL, 0, &report, NULL);
    if (rc != TENDER_OK) fail("final verify", rc);
    int payments = 0;
    if (tender_engine_ledger(engine, &ledger, NULL) == TENDER_OK)
        for (const char *p = ledger; (p = strstr(p, "\"type\":\"payment\",\"record\"")); p++) payments++;
    if (payments != 2 * ROUNDS) { fprintf(stderr, "the ledger holds %d payments, not %d\n", payments, 2 * ROUNDS); failures++; }
    const char *keys = report ? strstr(report, ",\"keys\"") : NULL;
    printf("8 threads x %d rounds: %d payments, verify %.*s}\n", ROUNDS, payments, report ? (int)(keys ? keys - report : (long)strlen(report)) : 0,
           report ? report : "");
    tender_string_free(report);
    tender_string_free(ledger);
    tender_engine_free(engine);
    return failures ? 1 : 0;
}
