/* SPDX-License-Identifier: Apache-2.0 */
/*
 * hostile_host.c - hosts that do what they should not, through the installed library:
 * conversation callbacks that cancel, fill the answer buffer with no NUL, re-enter the
 * session from another thread or call back into the library; four processes guessing
 * passwords at once against the throttle; custom intents' host callbacks that answer too much,
 * garbage or nothing, or re-enter the session; homes and key paths that are symbolic links
 * or belong to another user. Each case checks the outcome docs/testing.md documents.
 * Test-only. Usage: hostile_host SCRATCH PAM_MATRIX_SO  (USER_FOR_TEST: the process user)
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <tender.h>

#include "check.h"
#include "pam_stack.h"

static const char *DIRECTORY =
    "{\"contacts\": [{\"id\": \"tim-cook\", \"displayName\": \"Tim Cook\", \"handles\": ["
    "   {\"id\": \"tc-work\", \"label\": \"work\", \"type\": \"email\", \"value\": \"tim@example.com\"}]}],"
    " \"accounts\": [{\"id\": \"checking\", \"nickname\": \"Checking\", \"type\": \"checking\","
    "   \"balance\": {\"amount\": \"1000.00\", \"currency\": \"USD\"}, \"default\": true}]}";
static const char *RIGHT = "right-password";
static char scratch[400], pamdir[500];

static tender_engine *open_engine(const char *name, const char *throttle) {
    char config[2048];
    tender_engine *engine = NULL;
    snprintf(config, sizeof config,
             "{\"home\": \"%s/%s\", \"testing\": true, \"authentication\": {\"service\": \"tender-hostile\","
             /* The built-in money-moving intents, listed: the host's list lets the custom "tip" below follow its definition. */
             " \"restrictedIntents\": [\"send_payment\", \"request_payment\", \"pay_bill\", \"transfer_money\"],"
             " \"pamConfigDirectory\": \"%s\", \"throttle\": %s}, \"dialog\": {\"requireAgreement\": false}}",
             scratch, name, pamdir, throttle);
    tender_result rc = tender_engine_new(config, strlen(config), &engine);
    if (rc != TENDER_OK) { fprintf(stderr, "open %s: %s: %s\n", name, tender_result_str(rc), tender_last_error()); exit(1); }
    return engine;
}

static int count(tender_engine *engine, int ledger, const char *needle) {
    char *json = NULL;
    int n = 0;
    if ((ledger ? tender_engine_ledger(engine, &json, NULL) : tender_engine_audit(engine, &json, NULL)) != TENDER_OK) return -1;
    for (const char *p = json; (p = strstr(p, needle)); p++) n++;
    tender_string_free(json);
    return n;
}
#define PAYMENTS(engine) count(engine, 1, "\"type\":\"payment\",\"record\"")

/* The denials the audit's coalesced entries counted beyond themselves ("[repeated N more time(s)", docs/audit.md). */
static int repeats(tender_engine *engine) {
    char *json = NULL;
    int n = 0;
    static const char marker[] = "[repeated ";
    if (tender_engine_audit(engine, &json, NULL) != TENDER_OK) return -1;
    for (const char *p = json; (p = strstr(p, marker)); p++) n += atoi(p + sizeof marker - 1);
    tender_string_free(json);
    return n;
}

/* A session paying Tim $5 under `key`, confirmed ready (the only place that confirms). */
static tender_session *ready_session(tender_engine *engine, const char *key) {
    char intent[300];
    snprintf(intent, sizeof intent,
             "{\"intent\": \"send_payment\", \"payee\": {\"id\": \"tim-cook\"}, \"currencyAmount\": {\"amount\": \"5\","
             " \"currency\": \"USD\"}, \"idempotencyKey\": \"%s\"}", key);
    tender_session *session = NULL;
    tender_response_code code = 0;
    CHECK(tender_session_new(engine, intent, strlen(intent), &session) == TENDER_OK);
    CHECK(tender_session_confirm(session, &code, NULL, NULL) == TENDER_OK && code == TENDER_RESPONSE_READY);
    return session;
}

/* Handles; returns the response code, or -rc when the call itself failed (the only place that handles). */
static int handle(tender_session *session, char **record) {
    tender_response_code code = 0;
    tender_result rc = tender_session_handle(session, &code, record, NULL);
    return rc == TENDER_OK ? code : -rc;
}

/* ------------------------------------------------------------ callbacks */

struct host {
    const char *mode; /* "cancel", "fill", "right", "thread", "reenter" */
    tender_engine *engine;
    tender_session *session;
    int calls, depth, nested_code, other_code;
    size_t size;
    tender_result nested[4];
};

static int answer(char *buffer, size_t size, const char *text) {
    if (!buffer || size == 0) return 0;
    snprintf(buffer, size, "%s", text);
    return 0;
}

static void *handle_from_thread(void *arg) {
    struct host *host = arg;
    char *record = NULL;
    host->nested_code = handle(host->session, &record);
    tender_string_free(record);
    return NULL;
}

static void *pay_other_session(void *arg) {
    struct host *host = arg;
    /* Another session of the same engine while the person types: it asks too (depth > 0 answers). */
    tender_session *other = ready_session(host->engine, "other-session");
    CHECK(tender_session_set_conversation(other, NULL, NULL) == TENDER_OK);
    char *record = NULL;
    host->other_code = handle(other, &record); /* no conversation: refused, but not blocked */
    tender_string_free(record);
    tender_session_free(other);
    return NULL;
}

static int conversation(void *userdata, tender_prompt_kind kind, const char *message, char *buffer, size_t size) {
    struct host *host = userdata;
    (void)message;
    if (kind != TENDER_PROMPT_SECRET && kind != TENDER_PROMPT_TEXT) return 0;
    host->calls++;
    host->size = size;
    if (strcmp(host->mode, "cancel") == 0) return 7;
    if (strcmp(host->mode, "fill") == 0) { memset(buffer, 'x', size); return 0; }
    if (host->depth == 0 && strcmp(host->mode, "thread") == 0) {
        host->depth++;
        pthread_t thread;
        pthread_create(&thread, NULL, handle_from_thread, host);
        pthread_join(thread, NULL);
        pthread_create(&thread, NULL, pay_other_session, host);
        pthread_join(thread, NULL);
        host->depth--;
    }
    if (host->depth == 0 && strcmp(host->mode, "reenter") == 0) {
        host->depth++;
        char *report = NULL, *record = NULL;
        char contact[200];
        snprintf(contact, sizeof contact, "{\"contacts\": [{\"id\": \"friend-%d\", \"displayName\": \"Friend\"}]}", host->calls);
        host->nested[0] = tender_engine_verify(host->engine, NULL, 0, NULL, 0, &report, NULL);
        host->nested[1] = tender_engine_import_directory(host->engine, contact, strlen(contact));
        host->nested[2] = (tender_result)handle(host->session, &record); /* the same session, re-entered */
        host->nested[3] = tender_engine_checkpoint(host->engine, &report, NULL);
        tender_string_free(report);
        tender_string_free(record);
        host->depth--;
    }
    return answer(buffer, size, RIGHT);
}

static void test_callbacks(void) {
    tender_engine *engine = open_engine("callbacks", "{\"freeAttempts\": 5}");
    CHECK(tender_engine_import_directory(engine, DIRECTORY, strlen(DIRECTORY)) == TENDER_OK);
    char *record = NULL;

    /* Non-zero: cancelled, nothing paid, the session may retry. */
    struct host cancel = {.mode = "cancel"};
    tender_session *session = ready_session(engine, "cancel");
    CHECK(tender_session_set_conversation(session, conversation, &cancel) == TENDER_OK);
    CHECK(handle(session, &record) == TENDER_RESPONSE_FAILURE_CREDENTIALS_UNVERIFIED && cancel.calls == 1);
    CHECK(PAYMENTS(engine) == 0);
    tender_string_free(record);
    record = NULL;
    struct host right = {.mode = "right"};
    CHECK(tender_session_set_conversation(session, conversation, &right) == TENDER_OK);
    CHECK(handle(session, &record) == TENDER_RESPONSE_SUCCESS && PAYMENTS(engine) == 1);
    tender_string_free(record);
    record = NULL;
    tender_session_free(session);

    /* Exactly `size` bytes and no NUL: cut to size - 1 bytes (never read past the buffer), a wrong password. */
    struct host fill = {.mode = "fill"};
    session = ready_session(engine, "fill");
    CHECK(tender_session_set_conversation(session, conversation, &fill) == TENDER_OK);
    CHECK(handle(session, &record) == TENDER_RESPONSE_FAILURE_CREDENTIALS_UNVERIFIED && fill.calls == 1 && fill.size > 1);
    CHECK(record != NULL && strstr(record, "wrongCredentials") != NULL); /* the outcome document's denial */
    tender_string_free(record);
    record = NULL;
    CHECK(PAYMENTS(engine) == 1);
    CHECK(tender_session_set_conversation(session, conversation, &right) == TENDER_OK);
    CHECK(handle(session, &record) == TENDER_RESPONSE_SUCCESS && PAYMENTS(engine) == 2);
    tender_string_free(record);
    record = NULL;
    tender_session_free(session);

    /* Re-entered from another thread while the person types, and another session paying meanwhile:
       nothing blocks (no lock is held across the conversation), one payment under the key. */
    struct host thread = {.mode = "thread", .engine = engine};
    session = ready_session(engine, "thread");
    thread.session = session;
    CHECK(tender_session_set_conversation(session, conversation, &thread) == TENDER_OK);
    CHECK(handle(session, &record) == TENDER_RESPONSE_SUCCESS);
    CHECK(thread.nested_code == TENDER_RESPONSE_SUCCESS);       /* the re-entering thread paid... */
    CHECK(thread.other_code == TENDER_RESPONSE_FAILURE_CREDENTIALS_UNVERIFIED); /* the other session had no conversation */
    CHECK(PAYMENTS(engine) == 3 && count(engine, 1, "\"idempotencyKey\":\"thread\",\"ledger\"") == 1); /* ...once */
    tender_string_free(record);
    record = NULL;
    tender_session_free(session);

    /* Calling back into the library from the callback: reads, writes and the same session's handle
       all work on the calling thread, and the key still pays once. */
    struct host reenter = {.mode = "reenter", .engine = engine};
    session = ready_session(engine, "reenter");
    reenter.session = session;
    CHECK(tender_session_set_conversation(session, conversation, &reenter) == TENDER_OK);
    CHECK(handle(session, &record) == TENDER_RESPONSE_SUCCESS);
    CHECK(reenter.nested[0] == TENDER_OK && reenter.nested[1] == TENDER_OK && reenter.nested[3] == TENDER_OK);
    CHECK(reenter.nested[2] == TENDER_RESPONSE_SUCCESS);
    CHECK(count(engine, 1, "\"idempotencyKey\":\"reenter\",\"ledger\"") == 1 && PAYMENTS(engine) == 4);
    char *report = NULL;
    CHECK(tender_engine_verify(engine, NULL, 0, NULL, 0, &report, NULL) == TENDER_OK);
    tender_string_free(report);
    tender_string_free(record);
    tender_session_free(session);
    tender_engine_free(engine);
}

/* ------------------------------------------------------------ custom intents */

/* A money-moving custom intent no rule restricts (the host's restrictedIntents leaves it out and its definition
   says false; the callbacks below are the test), with a host value list. */
static const char *TIP =
    "{\"intents\": [{\"name\": \"tip\", \"category\": \"moneyMovement\", \"restricted\": false,"
    " \"parameters\": [{\"name\": \"amount\", \"type\": \"currencyAmount\", \"required\": true, \"prompts\": {\"needsValue\": \"How much?\"}},"
    "  {\"name\": \"jar\", \"type\": \"string\", \"values\": \"host\"}],"
    " \"shortcutTypes\": [{\"parameters\": [\"amount\", \"jar\"], \"title\": \"Tip ${amount}\"}],"
    " \"responses\": {\"success\": \"Tipped ${amount}.\"}}]}";

struct intent_host {
    const char *mode; /* "huge", "garbage", "silent", "reenter", "right" */
    tender_session *session;
    int calls, depth, nested;
};

static int intent_handle(void *userdata, const char *request, size_t len, tender_reply *reply) {
    struct intent_host *host = userdata;
    (void)request;
    (void)len;
    host->calls++;
    if (strcmp(host->mode, "huge") == 0) {
        size_t size = TENDER_MAX_INPUT_BYTES + 2;
        char *big = malloc(size);
        memset(big, ' ', size);
        tender_result rc = tender_reply_set(reply, big, size); /* refused: too large */
        free(big);
        return rc == TENDER_OK ? 0 : 1;
    }
    if (strcmp(host->mode, "garbage") == 0) return tender_reply_set(reply, "{\"code\":", 8) == TENDER_OK ? 0 : 1;
    if (strcmp(host->mode, "silent") == 0) return 0; /* success without an answer */
    if (strcmp(host->mode, "reenter") == 0 && host->depth == 0) {
        host->depth++;
        char *record = NULL;
        host->nested = handle(host->session, &record); /* the same session's handle, from inside its handle */
        tender_string_free(record);
        host->depth--;
    }
    static const char *ok = "{\"code\": \"success\"}";
    return tender_reply_set(reply, ok, strlen(ok)) == TENDER_OK ? 0 : 1;
}

static int intent_values(void *userdata, const char *intent, const char *parameter, tender_reply *reply) {
    (void)userdata;
    (void)intent;
    (void)parameter;
    static const char *not_a_list = "{\"values\": \"tips\"}";
    return tender_reply_set(reply, not_a_list, strlen(not_a_list)) == TENDER_OK ? 0 : 1;
}

static tender_session *tip_session(tender_engine *engine, const char *key, const char *jar) {
    char intent[300];
    snprintf(intent, sizeof intent, "{\"intent\": \"tip\", \"amount\": {\"amount\": \"2\", \"currency\": \"USD\"}%s%s%s, \"idempotencyKey\": \"%s\"}",
             jar ? ", \"jar\": \"" : "", jar ? jar : "", jar ? "\"" : "", key);
    tender_session *session = NULL;
    CHECK(tender_session_new(engine, intent, strlen(intent), &session) == TENDER_OK);
    return session;
}

/* Host callbacks of custom intents that answer too much, garbage or nothing, or re-enter the
   session: TENDER_E_CALLBACK with nothing recorded, or one record under the key. */
static void test_intent_callbacks(void) {
    tender_engine *engine = open_engine("intents", "{\"freeAttempts\": 5}");
    CHECK(tender_engine_add_intents(engine, TIP, strlen(TIP)) == TENDER_OK);
    struct intent_host host = {.mode = "huge"};
    tender_intent_host callbacks = TENDER_INTENT_HOST_INIT;
    callbacks.userdata = &host;
    callbacks.handle = intent_handle;
    callbacks.values = intent_values;
    CHECK(tender_engine_set_intent_host(engine, &callbacks) == TENDER_OK);
    tender_response_code code = 0;
    char *json = NULL;

    /* A value list that is not a list: the resolve fails, the session is unchanged. */
    tender_session *session = tip_session(engine, "values", "coffee");
    CHECK(tender_session_resolve(session, &json, NULL) == TENDER_E_CALLBACK && json == NULL);
    tender_session_free(session);

    session = tip_session(engine, "tip-1", NULL);
    CHECK(tender_session_confirm(session, &code, NULL, NULL) == TENDER_OK && code == TENDER_RESPONSE_READY);
    const char *modes[] = {"huge", "garbage", "silent"};
    for (int i = 0; i < 3; i++) {
        host.mode = modes[i];
        CHECK(handle(session, &json) == -TENDER_E_CALLBACK && json == NULL);
    }
    CHECK(PAYMENTS(engine) == 0 && host.calls == 3);

    /* The same session's handle from inside the host's handle: the key's claim is this call's, so the
       nested handle asks the host nothing (TENDER_E_WRONG_STATE, at once); one host call, one record. */
    host.mode = "reenter";
    host.session = session;
    int before = host.calls;
    CHECK(handle(session, &json) == TENDER_RESPONSE_SUCCESS && host.nested == -TENDER_E_WRONG_STATE);
    CHECK(host.calls == before + 1);
    CHECK(count(engine, 1, "\"idempotencyKey\":\"tip-1\",\"ledger\"") == 1 && PAYMENTS(engine) == 1);
    tender_string_free(json);
    tender_session_free(session);
    char *report = NULL;
    CHECK(tender_engine_verify(engine, NULL, 0, NULL, 0, &report, NULL) == TENDER_OK);
    tender_string_free(report);
    tender_engine_free(engine);
}

/* ------------------------------------------------------------ throttling */

/* Four processes guess wrong passwords at once: the throttle, kept in the store, lets no more
   than freeAttempts guesses reach PAM in all, whatever the interleaving. */
static void test_throttle_across_processes(void) {
    tender_engine *engine = open_engine("throttle", "{\"freeAttempts\": 2, \"baseDelaySeconds\": 60}");
    CHECK(tender_engine_import_directory(engine, DIRECTORY, strlen(DIRECTORY)) == TENDER_OK);
    tender_engine_free(engine);
    pid_t children[4];
    int pipes[2];
    if (pipe(pipes) != 0) abort();
    for (int i = 0; i < 4; i++) {
        children[i] = fork();
        if (children[i] == 0) {
            char go;
            if (read(pipes[0], &go, 1) != 1) _exit(3);
            tender_engine *mine = open_engine("throttle", "{\"freeAttempts\": 2, \"baseDelaySeconds\": 60}");
            int refused = 0;
            for (int attempt = 0; attempt < 4; attempt++) {
                char key[40];
                snprintf(key, sizeof key, "guess-%d-%d", i, attempt);
                struct host guess = {.mode = "fill"};
                tender_session *session = ready_session(mine, key);
                CHECK(tender_session_set_conversation(session, conversation, &guess) == TENDER_OK);
                char *record = NULL;
                refused += handle(session, &record) == TENDER_RESPONSE_FAILURE_CREDENTIALS_UNVERIFIED;
                tender_string_free(record);
                tender_session_free(session);
            }
            tender_engine_free(mine);
            _exit(refused == 4 && failures == 0 ? 0 : 1);
        }
    }
    if (write(pipes[1], "gggg", 4) != 4) abort();
    for (int i = 0; i < 4; i++) {
        int status = 0;
        waitpid(children[i], &status, 0);
        CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    }
    engine = open_engine("throttle", "{\"freeAttempts\": 2, \"baseDelaySeconds\": 60}");
    /* Repeated throttled denials are coalesced (one entry, then one counting the rest, which stands for its N only). */
    int denied = count(engine, 0, "\"event\":\"denied\""), throttled = count(engine, 0, "\"event\":\"throttled\"") - count(engine, 0, "[repeated ") + repeats(engine);
    printf("throttle: 4 processes x 4 wrong guesses: %d reached PAM (denied), %d throttled\n", denied, throttled);
    CHECK(denied + throttled == 16);
    CHECK(denied <= 2);
    CHECK(PAYMENTS(engine) == 0);
    tender_engine_free(engine);
}

/* ------------------------------------------------------------ homes */

static tender_result try_open(const char *home) {
    char config[1024];
    tender_engine *engine = NULL;
    snprintf(config, sizeof config, "{\"home\": \"%s\", \"authentication\": {\"restrictedIntents\": []}}", home);
    tender_result rc = tender_engine_new(config, strlen(config), &engine);
    if (rc == TENDER_OK) {
        char *key = NULL;
        rc = tender_engine_public_key(engine, TENDER_KEY_FORMAT_PEM, &key, NULL); /* reads or makes the key */
        tender_string_free(key);
        tender_engine_free(engine);
    }
    return rc;
}

static void run(const char *command) {
    if (system(command) != 0) { fprintf(stderr, "failed: %s\n", command); exit(2); }
}

static void test_homes(void) {
    char real[600], link[600], cmd[2000];
    snprintf(real, sizeof real, "%s/real-home", scratch);
    snprintf(link, sizeof link, "%s/link-home", scratch);
    CHECK(try_open(real) == TENDER_OK);
    /* The home itself a symbolic link: refused, nothing followed. */
    CHECK(symlink(real, link) == 0);
    CHECK(try_open(link) == TENDER_E_HOME && strstr(tender_last_error(), "symbolic link"));
    /* HOME/keys a symbolic link to a folder of the user's: refused. */
    snprintf(cmd, sizeof cmd, "mv '%s/keys' '%s/keys-elsewhere' && ln -s '%s/keys-elsewhere' '%s/keys'", real, scratch, scratch, real);
    run(cmd);
    tender_result rc = try_open(real);
    CHECK(rc == TENDER_E_HOME || rc == TENDER_E_KEY_FILE);
    /* The key file a symbolic link: refused when read. (A kid may start with "-": the names are given as ./NAME.) */
    snprintf(cmd, sizeof cmd,
             "rm '%s/keys' && mv '%s/keys-elsewhere' '%s/keys' && cd '%s/keys' && f=$(ls ./*.pem | head -1) && mv \"$f\" ../moved.pem && ln -s ../moved.pem \"$f\"",
             real, scratch, real, real);
    run(cmd);
    rc = try_open(real);
    CHECK(rc == TENDER_E_KEY_FILE || rc == TENDER_E_HOME);
    /* The store a symbolic link: refused. */
    snprintf(cmd, sizeof cmd, "mkdir -m 700 '%s/h2' && mv '%s/tender.sqlite3' '%s/h2.sqlite3' && ln -s '%s/h2.sqlite3' '%s/h2/tender.sqlite3'",
             scratch, real, scratch, scratch, scratch);
    run(cmd);
    snprintf(real, sizeof real, "%s/h2", scratch);
    CHECK(try_open(real) == TENDER_E_HOME);
    /* A home of another user (root only can make one): refused, nothing created inside. */
    if (geteuid() == 0) {
        snprintf(real, sizeof real, "%s/theirs", scratch);
        snprintf(cmd, sizeof cmd, "mkdir -m 700 '%s' && chown 65534:65534 '%s'", real, real);
        run(cmd);
        CHECK(try_open(real) == TENDER_E_HOME && strstr(tender_last_error(), "belong"));
        struct stat st;
        char store[700];
        snprintf(store, sizeof store, "%s/tender.sqlite3", real);
        CHECK(stat(store, &st) != 0);
    } else {
        printf("homes: not root, the other-user case is left to test_home_security.py\n");
    }
}

int main(int argc, char **argv) {
    if (argc != 3) { fprintf(stderr, "usage: hostile_host SCRATCH PAM_MATRIX_SO\n"); return 2; }
    alarm(300); /* a deadlock fails the test instead of hanging it */
    snprintf(scratch, sizeof scratch, "%s", argv[1]);
    snprintf(pamdir, sizeof pamdir, "%s/pam.d", scratch);
    char cmd[1500];
    snprintf(cmd, sizeof cmd, "rm -rf '%s' && mkdir -p '%s'", scratch, pamdir);
    run(cmd);
    CHECK(pam_stack_write(pamdir, "tender-hostile", getenv("USER_FOR_TEST"), RIGHT, argv[2]));
    test_callbacks();
    test_intent_callbacks();
    test_throttle_across_processes();
    test_homes();
    printf("hostile hosts: %d checks, %d failed\n", checks, failures);
    return failures ? 1 : 0;
}
