/* SPDX-License-Identifier: Apache-2.0 */
/*
 * checkpoint_faults.c - adversary of issue 34 (checkpoints off the payment's path): with every write and sync of
 * the store's database file failing (SQLITE_IOERR, then SQLITE_FULL: a bad or full disk under the database file
 * while its log still takes writes), enough payments for the workers' checkpoints to fail, be asked again, and the
 * committer's own past the 4,000-frame bound to fail too, then the close's. Every payment must still be
 * acknowledged (a checkpoint that fails never fails the commit before it), and after the disk heals the home
 * reopens with every payment, the balance adds up and the ledger verifies. Test-only (the fault VFS).
 *
 * Usage: checkpoint_faults SCRATCH_DIR
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <tender.h>
#include "fault_vfs.h"

static const char *DIRECTORY =
    "{\"contacts\": [{\"id\": \"tim-cook\", \"displayName\": \"Tim Cook\", \"handles\": ["
    "   {\"id\": \"tc-work\", \"label\": \"work\", \"type\": \"email\", \"value\": \"tim@example.com\"}]}],"
    " \"accounts\": [{\"id\": \"checking\", \"nickname\": \"Checking\", \"type\": \"checking\","
    "   \"balance\": {\"amount\": \"100000.00\", \"currency\": \"USD\"}, \"default\": true}]}";
static const char *PAY =
    "{\"intent\": \"send_payment\", \"payee\": {\"id\": \"tim-cook\"}, \"currencyAmount\": {\"amount\": \"1.00\","
    " \"currency\": \"USD\"}}";

static char home[600], config[1400];
static int failures;

#define FAIL(...)                                                                \
    do {                                                                         \
        failures++;                                                              \
        fprintf(stderr, __VA_ARGS__);                                            \
        fprintf(stderr, " (last error: %s)\n", tender_last_error());            \
    } while (0)

/* One whole dialog paying $1; 1 when it was acknowledged. */
static int pay(tender_engine *engine) {
    tender_session *session = NULL;
    tender_response_code code = 0;
    char *json = NULL;
    int ok = tender_session_new(engine, PAY, strlen(PAY), &session) == TENDER_OK &&
             tender_session_resolve(session, &json, NULL) == TENDER_OK &&
             tender_session_confirm(session, &code, NULL, NULL) == TENDER_OK && code == TENDER_RESPONSE_READY &&
             tender_session_handle(session, &code, NULL, NULL) == TENDER_OK && code == TENDER_RESPONSE_SUCCESS;
    tender_string_free(json);
    tender_session_free(session);
    return ok;
}

static int occurrences(const char *text, const char *needle) {
    int n = 0;
    for (const char *p = text; p && (p = strstr(p, needle)); p++) n++;
    return n;
}

static int payments(tender_engine *engine) {
    char *json = NULL;
    if (tender_engine_payments(engine, &json, NULL) != TENDER_OK) return -1;
    int n = occurrences(json, "\"sequence\":");
    tender_string_free(json);
    return n;
}

/* The log's size in bytes, -1 when it does not exist (a missing log never passes for an empty one). */
static long wal_size(void) {
    char path[700];
    struct stat info;
    snprintf(path, sizeof path, "%s/tender.sqlite3-wal", home);
    return stat(path, &info) == 0 ? (long)info.st_size : -1;
}

/* The home as it must be: `paid` payments, the balance they leave, a ledger that verifies. */
static void check(tender_engine *engine, int paid, const char *where) {
    int found = payments(engine);
    if (found != paid) FAIL("%s: %d payment(s) in the ledger, %d acknowledged", where, found, paid);
    char *json = NULL, want[64];
    snprintf(want, sizeof want, "\"amount\":\"%d.00\"", 100000 - paid);
    if (tender_engine_directory(engine, &json, NULL) != TENDER_OK || !strstr(json, want))
        FAIL("%s: the balance is not %s", where, want);
    tender_string_free(json);
    char *report = NULL;
    if (tender_engine_verify(engine, NULL, 0, NULL, 0, &report, NULL) != TENDER_OK) FAIL("%s: verify fails", where);
    tender_string_free(report);
}

int main(int argc, char **argv) {
    if (argc < 2) { fprintf(stderr, "usage: checkpoint_faults SCRATCH_DIR\n"); return 2; }
    if (fault_vfs_install() != 0) { fprintf(stderr, "cannot install the fault VFS\n"); return 2; }
    snprintf(home, sizeof home, "%s/checkpoint-faults", argv[1]);
    char command[1400];
    snprintf(command, sizeof command, "rm -rf '%s' && mkdir -p '%s'", home, argv[1]);
    if (system(command) != 0) return 2;
    snprintf(config, sizeof config,
             "{\"home\": \"%s\", \"authentication\": {\"restrictedIntents\": []}, \"dialog\": {\"requireAgreement\": false}}",
             home);
    tender_engine *engine = NULL;
    if (tender_engine_new(config, strlen(config), &engine) != TENDER_OK ||
        tender_engine_import_directory(engine, DIRECTORY, strlen(DIRECTORY)) != TENDER_OK) {
        fprintf(stderr, "open: %s\n", tender_last_error());
        return 2;
    }
    /* About five frames a payment: 1,000 payments pass the workers' 1,000 frames and the committer's 4,000. */
    enum { FAILING = 1000, FULL = 200, HEALED = 300 };
    int paid = 0;
    fault_vfs_fail_database(FAULT_EIO);
    for (int i = 0; i < FAILING; i++) {
        if (pay(engine)) paid++;
        else FAIL("payment %d refused while checkpoints fail with SQLITE_IOERR", i);
    }
    fault_vfs_fail_database(FAULT_ENOSPC);
    for (int i = 0; i < FULL; i++) {
        if (pay(engine)) paid++;
        else FAIL("payment %d refused while checkpoints fail with SQLITE_FULL", i);
    }
    long grown = wal_size();
    unsigned long faulted = fault_vfs_database_faults();
    if (faulted == 0) FAIL("no checkpoint ran into the failing database file");
    if (grown < 4000L * 4096) FAIL("the log did not pass the bound (%ld bytes): the committer's checkpoint not reached", grown);
    check(engine, paid, "while the database file fails");
    /* The close's checkpoint fails too: the log keeps everything for the next open. */
    tender_engine_free(engine);
    fault_vfs_fail_database(-1);
    engine = NULL;
    if (tender_engine_new(config, strlen(config), &engine) != TENDER_OK) {
        FAIL("reopen after the failing checkpoints");
        return 1;
    }
    check(engine, paid, "reopened after the failing checkpoints");
    for (int i = 0; i < HEALED; i++) {
        if (pay(engine)) paid++;
        else FAIL("payment %d refused after the disk healed", i);
    }
    long healed = wal_size();
    if (healed < 0) FAIL("no log beside the open store once healed");
    check(engine, paid, "healed");
    tender_engine_free(engine);
    if (tender_engine_new(config, strlen(config), &engine) != TENDER_OK) {
        FAIL("reopen after healing");
        return 1;
    }
    check(engine, paid, "reopened after healing");
    tender_engine_free(engine);
    printf("checkpoint faults: %d payments acknowledged (%d with every checkpoint failing: %lu database writes and "
           "syncs refused; the log file %ld bytes then, %ld once healed: SQLite reuses it from its start, never shrinks it), "
           "all kept and verified; %d failed\n",
           paid, FAILING + FULL, faulted, grown, healed, failures);
    return failures ? 1 : 0;
}
