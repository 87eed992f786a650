/* SPDX-License-Identifier: Apache-2.0 */
/*
 * custom_intents_test.c - both shipped custom intents end to end from text,
 * through the installed library as a C host uses it (docs/custom-intents.md):
 * the seed's Expense (information, the expenses supplied by the host's values
 * callback) and the restricted, money-moving round-up (the definition's
 * restriction asks through a real PAM stack, pam_matrix; a signed record the
 * ledger verifies). Also: a definition refused with its message, a failing
 * callback giving TENDER_E_CALLBACK, and the definition files of the engine
 * configuration.
 *
 * Usage: custom_intents_test SCRATCH_DIR EXAMPLES_DIR PAM_MATRIX_SO  (USER_FOR_TEST: the process user)
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <tender.h>

#include "check.h"
#include "pam_stack.h"

static int contains(const char *haystack, const char *needle) { return haystack && strstr(haystack, needle) != NULL; }

/* The host: the person's expenses, and a savings pot its round-up moves money into. */
struct bank {
    long saved_cents;
    int handled;
    int fail;
};

static int handle_intent(void *userdata, const char *request, size_t len, tender_reply *reply) {
    struct bank *bank = userdata;
    char answer[256];
    (void)len;
    bank->handled++;
    if (bank->fail) return 1;
    if (contains(request, "\"intent\":\"expense\"")) {
        const char *left = contains(request, "\"expense\":\"vacation\"") ? "120.00" : "20.00";
        snprintf(answer, sizeof answer, "{\"code\": \"success\", \"values\": {\"amountLeft\": {\"amount\": \"%s\", \"currency\": \"USD\"}}}", left);
    } else {
        /* round_up_savings by $5: the host moves the money in its own books. */
        if (contains(request, "\"amount\":\"5.00\"")) bank->saved_cents += 500;
        snprintf(answer, sizeof answer, "{\"code\": \"success\"}");
    }
    return tender_reply_set(reply, answer, strlen(answer)) == TENDER_OK ? 0 : 1;
}

static int expense_values(void *userdata, const char *intent, const char *parameter, tender_reply *reply) {
    static const char *names = "{\"values\": [\"vacation\", \"groceries\", \"coffee\"]}";
    (void)userdata;
    if (strcmp(intent, "expense") != 0 || strcmp(parameter, "expense") != 0) return 1;
    return tender_reply_set(reply, names, strlen(names)) == TENDER_OK ? 0 : 1;
}

static char *resolve(tender_session *session) {
    char *json = NULL;
    CHECK_RC(tender_session_resolve(session, &json, NULL), TENDER_OK);
    return json;
}

static tender_session *from_text(tender_engine *engine, const char *text) {
    tender_session *session = NULL;
    CHECK_RC(tender_session_new_from_text(engine, text, strlen(text), &session), TENDER_OK);
    return session;
}

int main(int argc, char **argv) {
    if (argc < 4) {
        fprintf(stderr, "usage: custom_intents_test SCRATCH_DIR EXAMPLES_DIR PAM_MATRIX_SO\n");
        return 2;
    }
    const char *scratch = argv[1], *examples = argv[2], *pam_matrix = argv[3];
    char dir[600], path[700], config[2048], expense[700], round_up[700];
    mkdir(scratch, 0700);
    snprintf(expense, sizeof expense, "%s/expense.json", examples);
    snprintf(round_up, sizeof round_up, "%s/round-up.json", examples);

    /* A configuration naming a definition file that cannot be read, or one that cannot work:
       refused with the file's name, and no home is created. */
    tender_engine *refused = NULL;
    snprintf(config, sizeof config, "{\"home\": \"%s/never\", \"intents\": [\"%s/missing.json\"]}", scratch, scratch);
    CHECK_RC(tender_engine_new(config, strlen(config), &refused), TENDER_E_NOT_FOUND);
    CHECK(refused == NULL && contains(tender_last_error(), "missing.json"));
    snprintf(config, sizeof config, "{\"home\": \"%s/never\", \"intents\": [\"%s\", \"%s\"]}", scratch, expense, expense);
    CHECK_RC(tender_engine_new(config, strlen(config), &refused), TENDER_E_INVALID_ARGUMENT);
    CHECK(refused == NULL && contains(tender_last_error(), "already defined"));
    snprintf(path, sizeof path, "%s/never", scratch);
    struct stat never;
    CHECK(stat(path, &never) != 0);

    /* A PAM stack of our own (pam_matrix), and an engine whose policy restricts no built-in intent:
       round_up_savings asks because its definition says "restricted": true. */
    snprintf(dir, sizeof dir, "%s/pam.d", scratch);
    CHECK(pam_stack_write(dir, "tender-test", getenv("USER_FOR_TEST"), "right-password", pam_matrix));
    snprintf(config, sizeof config,
             "{\"home\": \"%s/home\", \"testing\": true, \"intents\": [\"%s\"],"
             " \"authentication\": {\"restrictedIntents\": [], \"service\": \"tender-test\", \"pamConfigDirectory\": \"%s\"}}",
             scratch, expense, dir);
    tender_engine *engine = NULL;
    CHECK_RC(tender_engine_new(config, strlen(config), &engine), TENDER_OK);
    static const char *accounts = "{\"accounts\": [{\"id\": \"checking\", \"nickname\": \"Checking\", \"type\": \"checking\","
                                  " \"balance\": {\"amount\": \"100.00\", \"currency\": \"USD\"}, \"default\": true}]}";
    CHECK_RC(tender_engine_import_directory(engine, accounts, strlen(accounts)), TENDER_OK);
    CHECK_RC(tender_engine_add_intents_file(engine, round_up, strlen(round_up)), TENDER_OK);

    struct bank bank = {0, 0, 0};
    tender_intent_host host = TENDER_INTENT_HOST_INIT;
    host.userdata = &bank;
    host.handle = handle_intent;
    host.values = expense_values;
    CHECK_RC(tender_engine_set_intent_host(engine, &host), TENDER_OK);

    /* Expense, from text: resolved against the host's expenses, answered in the person's words. */
    tender_session *s = from_text(engine, "how much can I still spend on vacation");
    char *json = resolve(s);
    CHECK(contains(json, "\"intent\":\"expense\"") && contains(json, "\"complete\":true") && contains(json, "\"value\":\"vacation\""));
    tender_string_free(json);
    tender_response_code code = 0;
    CHECK_RC(tender_session_confirm(s, &code, NULL, NULL), TENDER_OK);
    CHECK(code == TENDER_RESPONSE_READY);
    char *outcome = NULL;
    CHECK_RC(tender_session_handle(s, &code, &outcome, NULL), TENDER_OK);
    CHECK(code == TENDER_RESPONSE_SUCCESS && bank.handled == 1);
    CHECK(contains(outcome, "\"text\":\"You have $120 left in vacation.\"") && !contains(outcome, "\"record\""));
    tender_string_free(outcome);
    tender_session_free(s);

    /* An expense the host does not list: unsupported, with the definition's reason in words. */
    static const char *yacht = "{\"intent\": \"expense\", \"expense\": \"yacht\"}";
    CHECK_RC(tender_session_new(engine, yacht, strlen(yacht), &s), TENDER_OK);
    json = resolve(s);
    CHECK(contains(json, "\"reason\":\"unknownExpense\"") && contains(json, "\"message\":\"You have no expense called yacht.\""));
    tender_string_free(json);
    tender_session_free(s);

    /* Round-up, from text: the amount confirmed, the person's yes, PAM, the host, a signed record. */
    s = from_text(engine, "round up by $5");
    json = resolve(s);
    CHECK(contains(json, "\"result\":\"confirmationRequired\"") && contains(json, "\"message\":\"Did I hear $5 right?\""));
    tender_string_free(json);
    static const char *yes = "{\"parameter\": \"amount\", \"confirm\": true}";
    CHECK_RC(tender_session_answer(s, yes, strlen(yes)), TENDER_OK);
    json = resolve(s);
    CHECK(contains(json, "\"complete\":true"));
    tender_string_free(json);
    CHECK_RC(tender_session_confirm(s, &code, &outcome, NULL), TENDER_OK);
    CHECK(code == TENDER_RESPONSE_READY && contains(outcome, "\"question\":\"Move $5?\""));
    tender_string_free(outcome);
    CHECK_RC(tender_session_handle(s, &code, NULL, NULL), TENDER_E_NOT_AGREED);
    CHECK_RC(tender_session_agree(s, 1), TENDER_OK);
    CHECK_RC(tender_session_set_conversation(s, pam_stack_answer, "wrong-password"), TENDER_OK);
    CHECK_RC(tender_session_handle(s, &code, NULL, NULL), TENDER_OK);
    CHECK(code == TENDER_RESPONSE_FAILURE_CREDENTIALS_UNVERIFIED && bank.handled == 1 && bank.saved_cents == 0);
    CHECK_RC(tender_session_set_conversation(s, pam_stack_answer, "right-password"), TENDER_OK);
    CHECK_RC(tender_session_handle(s, &code, &outcome, NULL), TENDER_OK);
    CHECK(code == TENDER_RESPONSE_SUCCESS && bank.saved_cents == 500);
    CHECK(contains(outcome, "\"intent\":\"round_up_savings\"") && contains(outcome, "\"jws\":\"ey"));
    CHECK(contains(outcome, "\"text\":\"Done: $5 moved into your savings.\""));
    tender_string_free(outcome);
    /* Handled once: again answers the same record, the host is not asked again. */
    CHECK_RC(tender_session_handle(s, &code, NULL, NULL), TENDER_OK);
    CHECK(code == TENDER_RESPONSE_SUCCESS && bank.saved_cents == 500);
    tender_session_free(s);

    char *payments = NULL, *report = NULL, *audit = NULL;
    CHECK_RC(tender_engine_payments(engine, &payments, NULL), TENDER_OK);
    CHECK(contains(payments, "\"intent\":\"round_up_savings\""));
    CHECK_RC(tender_engine_verify(engine, NULL, 0, NULL, 0, &report, NULL), TENDER_OK);
    CHECK_RC(tender_engine_audit(engine, &audit, NULL), TENDER_OK);
    CHECK(contains(audit, "\"event\":\"authenticated\",\"intent\":\"round_up_savings\"") || contains(audit, "\"intent\":\"round_up_savings\""));
    CHECK(!contains(audit, "right-password"));
    tender_string_free(payments);
    tender_string_free(report);
    tender_string_free(audit);

    /* A host callback that fails: TENDER_E_CALLBACK, nothing recorded, the session still confirmed. */
    bank.fail = 1;
    s = from_text(engine, "coffee expense");
    json = resolve(s);
    tender_string_free(json);
    CHECK_RC(tender_session_confirm(s, &code, NULL, NULL), TENDER_OK);
    CHECK_RC(tender_session_handle(s, &code, NULL, NULL), TENDER_E_CALLBACK);
    bank.fail = 0;
    CHECK_RC(tender_session_handle(s, &code, &outcome, NULL), TENDER_OK);
    CHECK(code == TENDER_RESPONSE_SUCCESS && contains(outcome, "You have $20 left in coffee."));
    tender_string_free(outcome);
    tender_session_free(s);

    /* A definition that cannot work is refused whole, with its message; a name used twice too. */
    static const char *trap = "{\"intents\": [{\"name\": \"budget\", \"category\": \"information\","
                              " \"parameters\": [{\"name\": \"budget\", \"type\": \"string\"}],"
                              " \"responses\": {\"success\": \"ok\"}}]}";
    CHECK_RC(tender_engine_add_intents(engine, trap, strlen(trap)), TENDER_E_INVALID_ARGUMENT);
    CHECK(contains(tender_last_error(), "no shortcut type uses every parameter"));
    CHECK_RC(tender_engine_add_intents_file(engine, expense, strlen(expense)), TENDER_E_INVALID_ARGUMENT);
    CHECK(contains(tender_last_error(), "already defined") && contains(tender_last_error(), "expense.json"));
    CHECK_RC(tender_engine_add_intents_file(engine, "/nonexistent.json", 17), TENDER_E_NOT_FOUND);
    CHECK_RC(tender_engine_add_intents(NULL, trap, strlen(trap)), TENDER_E_NULL_ARGUMENT);
    host.version = 99;
    CHECK_RC(tender_engine_set_intent_host(engine, &host), TENDER_E_INVALID_ARGUMENT);
    CHECK_RC(tender_engine_set_intent_host(engine, NULL), TENDER_OK);
    /* Without a host, resolving a parameter whose values the host lists is a callback error. */
    s = from_text(engine, "how much can I still spend on vacation");
    CHECK_RC(tender_session_resolve(s, &json, NULL), TENDER_E_CALLBACK);
    tender_session_free(s);
    tender_engine_free(engine);

    if (failures) {
        fprintf(stderr, "custom_intents_test: %d of %d checks failed\n", failures, checks);
        return 1;
    }
    printf("custom_intents_test: %d checks passed\n", checks);
    return 0;
}
