/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fault_sweep.c - injects an I/O fault or a power loss at every SQLite call point of
 * a payment, a key rotation, a payment status change and a checkpoint (each from
 * tender_engine_new to tender_engine_free, so opening and the WAL checkpoint at close
 * are swept too), and checks after each: a clear result code, the store reopens,
 * nothing acknowledged is lost, a retry under the same key duplicates nothing, the
 * balances add up and the ledger verifies from the root key. Test-only.
 *
 * Usage: fault_sweep SCRATCH_DIR [STRIDE]  (STRIDE > 1 sweeps every STRIDEth point)
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tender.h>
#include "fault_vfs.h"

static const char *DIRECTORY =
    "{\"contacts\": [{\"id\": \"tim-cook\", \"displayName\": \"Tim Cook\", \"handles\": ["
    "   {\"id\": \"tc-work\", \"label\": \"work\", \"type\": \"email\", \"value\": \"tim@example.com\"}]}],"
    " \"accounts\": [{\"id\": \"checking\", \"nickname\": \"Checking\", \"type\": \"checking\","
    "   \"balance\": {\"amount\": \"1000.00\", \"currency\": \"USD\"}, \"default\": true}]}";
static const char *PAY =
    "{\"intent\": \"send_payment\", \"payee\": {\"id\": \"tim-cook\"}, \"currencyAmount\": {\"amount\": \"12.34\","
    " \"currency\": \"USD\"}, \"idempotencyKey\": \"sweep-pay\"}";
static const char *REQUEST =
    "{\"intent\": \"request_payment\", \"payer\": {\"id\": \"tim-cook\"}, \"currencyAmount\": {\"amount\": \"20\","
    " \"currency\": \"USD\"}, \"idempotencyKey\": \"lunch-1\"}";

/* WAL_CHECKPOINT: a payment made without faults, then the faults while the engine closes
   (SQLite checkpoints the WAL into the database file on the last close). */
typedef enum { PAYMENT, ROTATION, STATUS, CHECKPOINT, WAL_CHECKPOINT, SCENARIOS } scenario;
static const char *scenario_names[] = {"payment", "key rotation", "status change", "checkpoint", "WAL checkpoint"};

static char scratch[512], template_home[600], home[600], config[1400];
static char *root_key;
static int failures, points, fired, refused, power_losses;

#define FAIL(...)                                                                \
    do {                                                                         \
        failures++;                                                              \
        fprintf(stderr, __VA_ARGS__);                                            \
        fprintf(stderr, " (last error: %s)\n", tender_last_error());            \
    } while (0)

static void run(const char *command) {
    if (system(command) != 0) { fprintf(stderr, "failed: %s\n", command); exit(2); }
}

static tender_engine *open_engine(tender_result *rc_out) {
    tender_engine *engine = NULL;
    *rc_out = tender_engine_new(config, strlen(config), &engine);
    return engine;
}

/* Pays PAY through a whole dialog (the only place that uses confirm and handle). */
static tender_result pay(tender_engine *engine, int *acknowledged) {
    tender_session *session = NULL;
    tender_response_code code = 0;
    char *json = NULL;
    *acknowledged = 0;
    tender_result rc = tender_session_new(engine, PAY, strlen(PAY), &session);
    if (rc == TENDER_OK) rc = tender_session_resolve(session, &json, NULL);
    tender_string_free(json);
    if (rc == TENDER_OK) rc = tender_session_confirm(session, &code, NULL, NULL);
    if (rc == TENDER_OK && code == TENDER_RESPONSE_READY) {
        rc = tender_session_handle(session, &code, NULL, NULL);
        *acknowledged = rc == TENDER_OK && code == TENDER_RESPONSE_SUCCESS;
    }
    tender_session_free(session);
    return rc;
}

static tender_result request(tender_engine *engine) {
    tender_session *session = NULL;
    tender_response_code code = 0;
    tender_result rc = tender_session_new(engine, REQUEST, strlen(REQUEST), &session);
    if (rc == TENDER_OK) rc = tender_session_confirm(session, &code, NULL, NULL);
    if (rc == TENDER_OK) rc = tender_session_handle(session, &code, NULL, NULL);
    tender_session_free(session);
    return rc == TENDER_OK && code != TENDER_RESPONSE_SUCCESS ? TENDER_E_STORE : rc;
}

/* Runs one scenario on an open engine; *acknowledged says whether it answered success. */
static tender_result act(scenario s, tender_engine *engine, int *acknowledged, char **checkpoint) {
    char *out = NULL, *jws = NULL;
    tender_result rc;
    *acknowledged = 0;
    switch (s) {
    case PAYMENT:
    case WAL_CHECKPOINT: return pay(engine, acknowledged);
    case ROTATION: rc = tender_engine_rotate_key(engine, &out, NULL); break;
    case STATUS: rc = tender_engine_set_payment_status(engine, "lunch-1", 7, "completed", 9, &out, NULL, &jws, NULL); break;
    default:
        rc = tender_engine_checkpoint(engine, &out, NULL);
        if (rc == TENDER_OK && checkpoint) { *checkpoint = out; out = NULL; }
        break;
    }
    *acknowledged = rc == TENDER_OK;
    tender_string_free(out);
    tender_string_free(jws);
    return rc;
}

static int occurrences(const char *text, const char *needle) {
    int n = 0;
    for (const char *p = text; p && (p = strstr(p, needle)); p++) n++;
    return n;
}

static int checking_is(tender_engine *engine, const char *amount) {
    char *json = NULL, want[64];
    if (tender_engine_directory(engine, &json, NULL) != TENDER_OK) return 0;
    snprintf(want, sizeof want, "\"amount\":\"%s\"", amount);
    int ok = strstr(json, want) != NULL;
    tender_string_free(json);
    return ok;
}

static int ledger_count(tender_engine *engine, const char *needle) {
    char *json = NULL;
    if (tender_engine_ledger(engine, &json, NULL) != TENDER_OK) return -1;
    int n = occurrences(json, needle);
    tender_string_free(json);
    return n;
}

static tender_result verify(tender_engine *engine, const char *checkpoint) {
    char *report = NULL;
    tender_result rc = tender_engine_verify(engine, checkpoint, checkpoint ? strlen(checkpoint) : 0, root_key,
                                            strlen(root_key), &report, NULL);
    tender_string_free(report);
    return rc;
}

static void fresh_home(void) {
    char command[2048];
    snprintf(command, sizeof command, "rm -rf '%s' && cp -a '%s' '%s'", home, template_home, home);
    run(command);
}

static int clear_code(tender_result rc) {
    return rc == TENDER_OK || rc == TENDER_E_STORE || rc == TENDER_E_STORE_BUSY || rc == TENDER_E_KEY_FILE ||
           rc == TENDER_E_CRYPTO || rc == TENDER_E_HOME;
}

/* Opens the engine and runs the scenario with the fault armed (for WAL_CHECKPOINT, armed
   only after the payment); returns the engine, still open, for the caller to free under the fault. */
static tender_engine *run_armed(scenario s, fault_kind kind, unsigned long nth, fault_mode mode, tender_result *rc,
                                int *acknowledged, char **checkpoint) {
    if (s != WAL_CHECKPOINT) fault_vfs_arm(kind, nth, mode);
    tender_engine *engine = open_engine(rc);
    if (engine) *rc = act(s, engine, acknowledged, checkpoint);
    if (s == WAL_CHECKPOINT) fault_vfs_arm(kind, nth, mode);
    return engine;
}

/* One fault point: the scenario under the armed fault, then the checks. */
static void sweep_point(scenario s, fault_kind kind, unsigned long nth, fault_mode mode) {
    char where[160];
    snprintf(where, sizeof where, "%s, %s #%lu, %s", scenario_names[s], fault_kind_name(kind), nth, fault_mode_name(mode));
    fresh_home();
    points++;
    tender_result rc;
    int acknowledged = 0;
    char *checkpoint = NULL;
    tender_engine *engine = run_armed(s, kind, nth, mode, &rc, &acknowledged, &checkpoint);
    if (!clear_code(rc) || (rc != TENDER_OK && tender_last_error()[0] == '\0'))
        FAIL("%s: unclear result %s", where, tender_result_str(rc));
    tender_engine_free(engine); /* closing checkpoints the WAL: still under the fault */
    fired += fault_vfs_fired();
    refused += rc != TENDER_OK;
    power_losses += fault_vfs_fired() && mode == FAULT_POWER_LOSS;
    fault_vfs_disarm();

    engine = open_engine(&rc);
    if (rc != TENDER_OK) { FAIL("%s: the store does not reopen: %s", where, tender_result_str(rc)); return; }
    if (s == PAYMENT || s == WAL_CHECKPOINT) {
        int kept = ledger_count(engine, "\"idempotencyKey\":\"sweep-pay\",\"ledger\"");
        if (kept != (acknowledged ? 1 : kept > 1 ? -1 : kept)) FAIL("%s: acknowledged %d, ledger holds %d", where, acknowledged, kept);
        if (!checking_is(engine, kept == 1 ? "987.66" : "1000.00")) FAIL("%s: balance does not add up", where);
    }
    if (s == STATUS && acknowledged && !checking_is(engine, "1020.00")) FAIL("%s: acknowledged status lost", where);
    if (verify(engine, checkpoint) != TENDER_OK) FAIL("%s: verify fails after the fault", where);
    /* The retry: the same key again pays nothing twice. */
    int again = 0;
    char *retry_checkpoint = NULL;
    rc = act(s, engine, &again, &retry_checkpoint);
    if (rc != TENDER_OK || !again) FAIL("%s: the retry fails: %s", where, tender_result_str(rc));
    if ((s == PAYMENT || s == WAL_CHECKPOINT) && (ledger_count(engine, "\"idempotencyKey\":\"sweep-pay\",\"ledger\"") != 1 || !checking_is(engine, "987.66")))
        FAIL("%s: after the retry the payment is not there exactly once (%d)", where, ledger_count(engine, "\"idempotencyKey\":\"sweep-pay\",\"ledger\""));
    if (s == STATUS && (ledger_count(engine, "\"type\":\"payment_status\",\"record\"") != 1 || !checking_is(engine, "1020.00")))
        FAIL("%s: after the retry the status change is not there exactly once", where);
    if (verify(engine, retry_checkpoint) != TENDER_OK) FAIL("%s: verify fails after the retry", where);
    tender_string_free(checkpoint);
    tender_string_free(retry_checkpoint);
    tender_engine_free(engine);
}

static void make_template(void) {
    tender_result rc;
    snprintf(config, sizeof config,
             "{\"home\": \"%s\", \"authentication\": {\"restrictedIntents\": []}, \"dialog\": {\"requireAgreement\": false}}",
             template_home);
    tender_engine *engine = open_engine(&rc);
    if (rc == TENDER_OK) rc = tender_engine_import_directory(engine, DIRECTORY, strlen(DIRECTORY));
    if (rc == TENDER_OK) rc = request(engine);
    if (rc == TENDER_OK) rc = tender_engine_public_key(engine, TENDER_KEY_FORMAT_PEM, &root_key, NULL);
    if (rc != TENDER_OK) { fprintf(stderr, "template: %s: %s\n", tender_result_str(rc), tender_last_error()); exit(2); }
    tender_engine_free(engine);
    snprintf(config, sizeof config,
             "{\"home\": \"%s\", \"authentication\": {\"restrictedIntents\": []}, \"dialog\": {\"requireAgreement\": false}}",
             home);
}

int main(int argc, char **argv) {
    if (argc < 2) { fprintf(stderr, "usage: fault_sweep SCRATCH_DIR [STRIDE]\n"); return 2; }
    unsigned long stride = argc > 2 ? strtoul(argv[2], NULL, 10) : 1;
    if (stride == 0) stride = 1;
    if (fault_vfs_install() != 0) { fprintf(stderr, "cannot install the fault VFS\n"); return 2; }
    snprintf(scratch, sizeof scratch, "%s", argv[1]);
    snprintf(template_home, sizeof template_home, "%s/template", scratch);
    snprintf(home, sizeof home, "%s/home", scratch);
    char command[2048];
    snprintf(command, sizeof command, "rm -rf '%s' '%s' && mkdir -p '%s'", template_home, home, scratch);
    run(command);
    make_template();

    static const fault_mode modes[FAULT_KINDS][4] = {
        [FAULT_OPEN] = {FAULT_EIO, FAULT_ENOSPC},
        [FAULT_READ] = {FAULT_EIO},
        [FAULT_WRITE] = {FAULT_EIO, FAULT_ENOSPC, FAULT_SHORT_WRITE, FAULT_DISK_FULL},
        [FAULT_SYNC] = {FAULT_EIO, FAULT_POWER_LOSS},
        [FAULT_LOCK] = {FAULT_EIO, FAULT_BUSY},
    };
    static const int mode_count[FAULT_KINDS] = {2, 1, 4, 2, 2};
    for (scenario s = 0; s < SCENARIOS; s++) {
        /* A dry run counts the calls of each kind. */
        fresh_home();
        tender_result rc;
        int acknowledged = 0;
        tender_engine *engine = run_armed(s, FAULT_OPEN, 0, FAULT_EIO, &rc, &acknowledged, NULL);
        if (rc != TENDER_OK) { FAIL("%s without a fault: %s", scenario_names[s], tender_result_str(rc)); continue; }
        tender_engine_free(engine);
        unsigned long counts[FAULT_KINDS];
        for (int k = 0; k < FAULT_KINDS; k++) counts[k] = fault_vfs_count((fault_kind)k);
        fault_vfs_disarm();
        int before = points, failed_before = failures, fired_before = fired, refused_before = refused;
        for (int k = 0; k < FAULT_KINDS; k++)
            for (int m = 0; m < mode_count[k]; m++)
                for (unsigned long n = 1; n <= counts[k]; n += stride) sweep_point(s, (fault_kind)k, n, modes[k][m]);
        printf("%-14s calls: open %lu, read %lu, write %lu, sync %lu, lock %lu; %d fault points (%d fired, %d refused"
               " with a clear code), %d failed\n",
               scenario_names[s], counts[0], counts[1], counts[2], counts[3], counts[4], points - before,
               fired - fired_before, refused - refused_before, failures - failed_before);
        fflush(stdout);
    }
    tender_string_free(root_key);
    printf("fault sweep: %d fault points, %d fired (%d power losses), %d calls refused with a clear code; %d failed\n",
           points, fired, power_losses, refused, failures);
    if (fired == 0 || refused == 0 || power_losses == 0) { fprintf(stderr, "the faults never fired\n"); return 1; }
    return failures ? 1 : 0;
}
