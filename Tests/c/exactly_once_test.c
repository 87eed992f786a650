/* SPDX-License-Identifier: Apache-2.0 */
/*
 * exactly_once_test.c - exactly once beyond Tender's own store (issue 30, item 5): three processes
 * handle one idempotency key against a host whose `send` counts its calls in a shared file, and the
 * host pays once; a process killed inside `send` leaves an unknown outcome that a retry reports
 * (TENDER_E_OUTCOME_UNKNOWN) without asking the host again, and that tender_engine_set_payment_status()
 * or `tender status` settles.
 *
 * Usage: exactly_once_test SCRATCH TENDER_TOOL
 * Every process opens its own engine after fork (the parent touches the library only after the last fork).
 */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check.h"

static char home[1024];
static char counter[1100];
/* Set in a child that the test kills inside the host's send (a crash between the claim and the record). */
static int die_in_send = 0;

static int contains(const char *text, const char *part) { return text != NULL && strstr(text, part) != NULL; }

static int lookup(void *userdata, const char *what, tender_reply *reply) {
    (void)userdata;
    const char *json = "{}";
    if (strcmp(what, "contacts") == 0)
        json = "{\"contacts\": [{\"id\": \"ada\", \"displayName\": \"Ada Lovelace\", \"handles\": ["
               "{\"id\": \"ada-mail\", \"label\": \"work\", \"type\": \"email\", \"value\": \"ada@example.com\"}]}]}";
    else if (strcmp(what, "accounts") == 0)
        json = "{\"accounts\": [{\"id\": \"host-checking\", \"type\": \"checking\", \"balance\": {\"amount\": \"900.00\", \"currency\": \"EUR\"}}]}";
    return tender_reply_set(reply, json, strlen(json)) == TENDER_OK ? 0 : 1;
}

/* The host's payment system: each call moves money, counted as one byte appended to the shared file. */
static int send_payment(void *userdata, const char *payment, size_t len, tender_response_code *code_out) {
    (void)userdata;
    (void)payment;
    (void)len;
    int fd = open(counter, O_WRONLY | O_APPEND | O_CREAT, 0600);
    if (fd < 0 || write(fd, "x", 1) != 1) return 1;
    close(fd);
    if (die_in_send) raise(SIGKILL);
    /* A slow payment system: the other processes arrive while this call runs. */
    struct timespec pause = {0, 300 * 1000000L};
    nanosleep(&pause, NULL);
    *code_out = TENDER_RESPONSE_SUCCESS;
    return 0;
}

static long host_calls(void) {
    struct stat info;
    return stat(counter, &info) == 0 ? (long)info.st_size : 0;
}

static tender_engine *open_engine(void) {
    tender_host host = TENDER_HOST_INIT;
    host.lookup = lookup;
    host.send = send_payment;
    char config[1400];
    snprintf(config, sizeof config,
             "{\"home\": \"%s\", \"authentication\": {\"restrictedIntents\": []}, \"dialog\": {\"requireAgreement\": false}}", home);
    tender_engine *engine = NULL;
    CHECK_RC(tender_engine_new_with_host(config, strlen(config), &host, &engine), TENDER_OK);
    return engine;
}

/* Handles a payment of EUR 20 to Ada under `key`; returns the result and the outcome document in *outcome. */
static tender_result pay(tender_engine *engine, const char *key, char **outcome) {
    char intent[512];
    snprintf(intent, sizeof intent,
             "{\"intent\": \"send_payment\", \"payee\": {\"id\": \"ada\"}, \"idempotencyKey\": \"%s\","
             " \"currencyAmount\": {\"amount\": \"20\", \"currency\": \"EUR\"}}", key);
    tender_session *session = NULL;
    CHECK_RC(tender_session_new(engine, intent, strlen(intent), &session), TENDER_OK);
    tender_response_code code = -1;
    CHECK_RC(tender_session_confirm(session, &code, NULL, NULL), TENDER_OK);
    CHECK(code == TENDER_RESPONSE_READY);
    tender_result rc = tender_session_handle(session, &code, outcome, NULL);
    tender_session_free(session);
    return rc;
}

/* The compact JWS of an outcome document, copied into `jws`. */
static void jws_of(const char *outcome, char *jws, size_t size) {
    jws[0] = '\0';
    const char *start = outcome ? strstr(outcome, "\"jws\":\"") : NULL;
    if (!start) return;
    start += 7;
    size_t n = strcspn(start, "\"");
    if (n >= size) n = size - 1;
    memcpy(jws, start, n);
    jws[n] = '\0';
}

/* A child: opens its own engine, waits at the barrier (a pipe the parent closes), pays under `key`,
   writes its outcome to HOME/outcome-N and exits 0 when every check held. */
static pid_t spawn_payer(int number, const char *key, int barrier, int barrier_end, int crash) {
    pid_t pid = fork();
    if (pid != 0) return pid;
    if (barrier_end >= 0) close(barrier_end); /* only the parent may hold the barrier open */
    die_in_send = crash;
    tender_engine *engine = open_engine();
    char byte;
    if (barrier >= 0 && read(barrier, &byte, 1) < 0) _exit(3);
    char *outcome = NULL;
    CHECK_RC(pay(engine, key, &outcome), TENDER_OK);
    char path[1200];
    snprintf(path, sizeof path, "%s/outcome-%d", home, number);
    FILE *out = fopen(path, "w");
    if (out) {
        fputs(outcome ? outcome : "", out);
        fclose(out);
    }
    tender_string_free(outcome);
    tender_engine_free(engine);
    _exit(failures == 0 ? 0 : 1);
}

static int wait_for(pid_t pid) {
    int status = 0;
    while (waitpid(pid, &status, 0) < 0) {}
    return status;
}

static void read_outcome(int number, char *text, size_t size) {
    char path[1200];
    snprintf(path, sizeof path, "%s/outcome-%d", home, number);
    text[0] = '\0';
    FILE *in = fopen(path, "r");
    if (!in) return;
    size_t n = fread(text, 1, size - 1, in);
    text[n] = '\0';
    fclose(in);
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: %s SCRATCH TENDER_TOOL\n", argv[0]);
        return 2;
    }
    const char *tool = argv[2];
    mkdir(argv[1], 0700);
    snprintf(home, sizeof home, "%s/exactly-once", argv[1]);
    snprintf(counter, sizeof counter, "%s/host-calls", argv[1]);
    unlink(counter);

    /* The home, the store and the signing key, made by one process before the others race. */
    pid_t setup = fork();
    if (setup == 0) {
        tender_engine *engine = open_engine();
        char *key = NULL;
        CHECK_RC(tender_engine_public_key(engine, TENDER_KEY_FORMAT_JWK, &key, NULL), TENDER_OK);
        tender_string_free(key);
        tender_engine_free(engine);
        _exit(failures == 0 ? 0 : 1);
    }
    CHECK(wait_for(setup) == 0);

    /* Three processes, one key, started together. */
    int barrier[2];
    CHECK(pipe(barrier) == 0);
    pid_t payers[3];
    for (int i = 0; i < 3; i++) payers[i] = spawn_payer(i, "three-processes", barrier[0], barrier[1], 0);
    close(barrier[0]);
    struct timespec settle = {0, 200 * 1000000L};
    nanosleep(&settle, NULL); /* every child has its engine open */
    close(barrier[1]);
    for (int i = 0; i < 3; i++) CHECK(wait_for(payers[i]) == 0);
    CHECK(host_calls() == 1);
    char first[8192], other[8192], jws[4096], jws_other[4096];
    read_outcome(0, first, sizeof first);
    jws_of(first, jws, sizeof jws);
    CHECK(contains(first, "\"code\":\"success\"") && strlen(jws) > 0);
    for (int i = 1; i < 3; i++) {
        read_outcome(i, other, sizeof other);
        jws_of(other, jws_other, sizeof jws_other);
        CHECK(strcmp(jws, jws_other) == 0);
    }
    printf("three processes, one key: the host was asked %ld time(s)\n", host_calls());

    /* Killed inside send, three times: after the claim, before the record. */
    const char *crashed[3] = {"crash-completed", "crash-tool", "crash-failed"};
    for (int i = 0; i < 3; i++) {
        int status = wait_for(spawn_payer(10 + i, crashed[i], -1, -1, 1));
        CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
    }
    CHECK(host_calls() == 4);

    /* From here on the parent uses the library: no more forks. */
    tender_engine *engine = open_engine();
    char *outcome = NULL;
    for (int i = 0; i < 3; i++) {
        /* A retry reports the unknown outcome and does not ask the host again. */
        CHECK_RC(pay(engine, crashed[i], &outcome), TENDER_E_OUTCOME_UNKNOWN);
        CHECK(outcome == NULL && contains(tender_last_error(), "tender status"));
    }
    CHECK(host_calls() == 4);
    CHECK(strcmp(tender_result_str(TENDER_E_OUTCOME_UNKNOWN), "TENDER_E_OUTCOME_UNKNOWN") == 0);

    /* The host paid: completed records the payment the session would have recorded. */
    char *record = NULL, *signature = NULL;
    const char *key = crashed[0];
    CHECK_RC(tender_engine_set_payment_status(engine, key, strlen(key), "completed", 9, &record, NULL, &signature, NULL), TENDER_OK);
    CHECK(contains(record, "\"type\":\"payment\"") && contains(record, "\"settled\":\"status\"") && contains(record, key));
    CHECK(signature != NULL && strlen(signature) > 0);
    CHECK_RC(pay(engine, key, &outcome), TENDER_OK);
    jws_of(outcome, jws, sizeof jws);
    CHECK(contains(outcome, "\"code\":\"success\"") && signature != NULL && strcmp(jws, signature) == 0);
    tender_string_free(outcome);
    tender_string_free(record);
    tender_string_free(signature);
    outcome = record = signature = NULL;

    /* The same with the tool: `tender status KEY completed`. */
    char command[4096];
    snprintf(command, sizeof command, "'%s' status --home '%s' '%s' completed > '%s/status.out'", tool, home, crashed[1], home);
    CHECK(system(command) == 0);
    CHECK_RC(pay(engine, crashed[1], &outcome), TENDER_OK);
    CHECK(contains(outcome, "\"settled\":\"status\""));
    tender_string_free(outcome);
    outcome = NULL;

    /* The host did not pay: failed records nothing and frees the key; handle then asks the host once. */
    key = crashed[2];
    CHECK_RC(tender_engine_set_payment_status(engine, key, strlen(key), "failed", 6, &record, NULL, &signature, NULL), TENDER_OK);
    CHECK(contains(record, "\"status\":\"failed\"") && signature != NULL && signature[0] == '\0');
    tender_string_free(record);
    tender_string_free(signature);
    CHECK_RC(pay(engine, key, &outcome), TENDER_OK);
    CHECK(contains(outcome, "\"code\":\"success\"") && host_calls() == 5);
    tender_string_free(outcome);
    outcome = NULL;
    CHECK_RC(pay(engine, key, &outcome), TENDER_OK);
    CHECK(host_calls() == 5);
    tender_string_free(outcome);

    char *report = NULL;
    CHECK_RC(tender_engine_verify(engine, NULL, 0, NULL, 0, &report, NULL), TENDER_OK);
    CHECK(contains(report, "\"valid\":true") && contains(report, "\"records\":4"));
    tender_string_free(report);
    tender_engine_free(engine);

    printf("exactly_once_test: %d checks, %d failures\n", checks, failures);
    return failures == 0 ? 0 : 1;
}
