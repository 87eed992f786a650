/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fuzz_common.h - what every C fuzz target shares (test-only; never in libtender.so).
 * A scratch folder, engines seeded like the C API test, and the one rule every
 * target checks: a call answers a documented result code, never TENDER_E_INTERNAL,
 * and frees what it hands out. Memory errors and leaks are AddressSanitizer's job,
 * traps libFuzzer's (a trapped Swift check is a crash).
 */
#ifndef TENDER_FUZZ_COMMON_H
#define TENDER_FUZZ_COMMON_H
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <tender.h>

#define FUZZ_DIRECTORY                                                                                        \
    "{\"contacts\": ["                                                                                         \
    " {\"id\": \"john-appleseed\", \"displayName\": \"John Appleseed\", \"handles\": ["                         \
    "   {\"id\": \"ja-mobile\", \"label\": \"mobile\", \"type\": \"phone\", \"value\": \"+1 408 555 0100\"}]}," \
    " {\"id\": \"john-baily\", \"displayName\": \"John Baily\", \"handles\": ["                                 \
    "   {\"id\": \"jb-home\", \"label\": \"home\", \"type\": \"phone\", \"value\": \"+1 408 555 0111\"},"       \
    "   {\"id\": \"jb-mobile\", \"label\": \"mobile\", \"type\": \"phone\", \"value\": \"+1 408 555 0112\"},"   \
    "   {\"id\": \"jb-work\", \"label\": \"work\", \"type\": \"email\", \"value\": \"jb@example.com\"}]},"      \
    " {\"id\": \"tim-cook\", \"displayName\": \"Tim Cook\", \"handles\": ["                                     \
    "   {\"id\": \"tc-work\", \"label\": \"work\", \"type\": \"email\", \"value\": \"tim@example.com\"}]}],"    \
    " \"accounts\": [{\"id\": \"checking\", \"nickname\": \"Checking\", \"type\": \"checking\","                 \
    "   \"balance\": {\"amount\": \"100000000.00\", \"currency\": \"USD\"}, \"default\": true},"                \
    "  {\"id\": \"savings\", \"nickname\": \"Savings\", \"type\": \"saving\","                                   \
    "   \"balance\": {\"amount\": \"5000.00\", \"currency\": \"USD\"}}],"                                        \
    " \"billPayees\": ["                                                                                       \
    " {\"id\": \"ec-main\", \"organizationName\": \"Electric Company\", \"nickname\": \"12 Main Street\"},"    \
    " {\"id\": \"ec-lake\", \"organizationName\": \"Electric Company\", \"nickname\": \"4 Lake Road\"}],"      \
    " \"bills\": ["                                                                                            \
    " {\"id\": \"b-main\", \"billPayee\": \"ec-main\", \"type\": \"electricity\","                              \
    "  \"amountDue\": {\"amount\": \"84.20\", \"currency\": \"USD\"}, \"dueDate\": \"2030-01-31\"}]}"

/* The scratch folder: $TENDER_FUZZ_SCRATCH, else a new one under $TMPDIR (or /tmp). */
static const char *fuzz_scratch(void) {
    static char path[512];
    if (path[0]) return path;
    const char *given = getenv("TENDER_FUZZ_SCRATCH");
    if (given && *given) {
        snprintf(path, sizeof path, "%s", given);
        mkdir(path, 0700);
    } else {
        const char *tmp = getenv("TMPDIR");
        snprintf(path, sizeof path, "%s/tender-fuzz-XXXXXX", tmp && *tmp ? tmp : "/tmp");
        if (!mkdtemp(path)) { perror("mkdtemp"); abort(); }
    }
    return path;
}

/* A result every target accepts: a documented code that is not a defect. */
static void fuzz_check(tender_result rc, const char *call) {
    if (rc == TENDER_E_INTERNAL || strcmp(tender_result_str(rc), "TENDER_E_UNKNOWN_CODE") == 0) {
        fprintf(stderr, "%s answered %d (%s): %s\n", call, rc, tender_result_str(rc), tender_last_error());
        abort();
    }
}

/* An engine in SCRATCH/name that asks for no authentication or agreement, seeded with FUZZ_DIRECTORY. */
static tender_engine *fuzz_engine(const char *name) {
    char config[1024];
    tender_engine *engine = NULL;
    snprintf(config, sizeof config,
             "{\"home\": \"%s/%s\", \"authentication\": {\"restrictedIntents\": []},"
             " \"dialog\": {\"requireAgreement\": false}}",
             fuzz_scratch(), name);
    tender_result rc = tender_engine_new(config, strlen(config), &engine);
    if (rc == TENDER_OK) rc = tender_engine_import_directory(engine, FUZZ_DIRECTORY, strlen(FUZZ_DIRECTORY));
    if (rc != TENDER_OK) {
        fprintf(stderr, "fuzz setup: %s: %s\n", tender_result_str(rc), tender_last_error());
        abort();
    }
    return engine;
}

#endif
