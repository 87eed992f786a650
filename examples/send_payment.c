/* SPDX-License-Identifier: Apache-2.0 */
/*
 * send_payment.c - send a payment through libtender, turn by turn.
 *
 * Build:  cc -std=c99 send_payment.c $(pkg-config --cflags --libs tender) -o send_payment
 * Run:    ./send_payment HOME_DIR
 *
 * Imports a small directory into the store at HOME_DIR, then plays
 * "Send $50 to John": it answers each disambiguation by choosing the option
 * whose label matches the next scripted reply ("John Baily", then "mobile"),
 * confirms, handles, and prints the handle outcome document (docs/outcome.md):
 * the response code, the payment record and its JWS, or why the person was
 * not authenticated.
 *
 * Sending money is restricted: handle re-authenticates the person through
 * PAM (service "tender", installed by make install). This example answers
 * PAM's password prompt from the environment variable
 * TENDER_EXAMPLE_PASSWORD; a real host would ask the person, without echo.
 * Without that variable it configures an engine that restricts nothing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tender.h>

static const char *directory_json =
    "{\"contacts\": ["
    " {\"id\": \"john-appleseed\", \"displayName\": \"John Appleseed\", \"handles\": ["
    "   {\"id\": \"ja-mobile\", \"label\": \"mobile\", \"type\": \"phone\", \"value\": \"+1 408 555 0100\"}]},"
    " {\"id\": \"john-baily\", \"displayName\": \"John Baily\", \"handles\": ["
    "   {\"id\": \"jb-home\", \"label\": \"home\", \"type\": \"phone\", \"value\": \"+1 408 555 0111\"},"
    "   {\"id\": \"jb-mobile\", \"label\": \"mobile\", \"type\": \"phone\", \"value\": \"+1 408 555 0112\"},"
    "   {\"id\": \"jb-work\", \"label\": \"work\", \"type\": \"email\", \"value\": \"jb@example.com\"}]}],"
    " \"accounts\": [{\"id\": \"checking\", \"nickname\": \"Checking\", \"type\": \"checking\","
    "   \"balance\": {\"amount\": \"2500.00\", \"currency\": \"USD\"}, \"default\": true}]}";

/* The host's side of PAM: answer the password prompt, show messages. */
static int conversation(void *userdata, tender_prompt_kind kind, const char *message, char *answer, size_t size) {
    const char *password = userdata;
    if (kind == TENDER_PROMPT_INFO || kind == TENDER_PROMPT_ERROR) {
        printf("pam: %s\n", message);
        return 0;
    }
    printf("tender asks: %s(answered from TENDER_EXAMPLE_PASSWORD)\n", message);
    if (password == NULL || strlen(password) >= size) return 1; /* cancel */
    memcpy(answer, password, strlen(password) + 1);
    return 0;
}

static int fail(const char *what, tender_result rc) {
    fprintf(stderr, "%s failed: %s: %s\n", what, tender_result_str(rc), tender_last_error());
    return 1;
}

/* Finds the id of the option labelled `label` in a resolution document.
 * A real host would use a JSON parser; the option objects are
 * {"id":"...","label":"..."}, so this looks for the label and reads the id before it. */
static int option_id(const char *resolution, const char *label, char *id, size_t id_size) {
    char needle[128];
    snprintf(needle, sizeof needle, "\"label\":\"%s\"", label);
    const char *at = strstr(resolution, needle);
    if (at == NULL) return 0;
    const char *start = at;
    while (start > resolution && strncmp(start, "{\"id\":\"", 7) != 0) start--;
    if (strncmp(start, "{\"id\":\"", 7) != 0) return 0;
    start += 7;
    const char *end = strchr(start, '"');
    if (end == NULL || (size_t)(end - start) >= id_size) return 0;
    memcpy(id, start, (size_t)(end - start));
    id[end - start] = '\0';
    return 1;
}

int main(int argc, char **argv) {
    const char *home = argc > 1 ? argv[1] : "./tender-home";
    const char *replies[] = {"John Baily", "mobile"};
    size_t next_reply = 0;
    char config[1024];
    tender_engine *engine = NULL;
    tender_session *session = NULL;
    tender_result rc;
    int status = 1;

    /* While the major version is 0, the minor version names the ABI as well. */
    uint32_t loaded = tender_version_number();
    if (loaded / 10000 != TENDER_VERSION_MAJOR || (TENDER_VERSION_MAJOR == 0 && loaded / 100 % 100 != TENDER_VERSION_MINOR)) {
        fprintf(stderr, "libtender %s does not match tender.h %s\n", tender_version_string(), TENDER_VERSION_STRING);
        return 1;
    }
    const char *password = getenv("TENDER_EXAMPLE_PASSWORD");
    if (password != NULL) {
        printf("authentication: the default policy (PAM service \"tender\")\n");
        snprintf(config, sizeof config, "{\"home\": \"%s\"}", home);
    } else {
        printf("authentication: off (set TENDER_EXAMPLE_PASSWORD to re-authenticate through PAM)\n");
        snprintf(config, sizeof config, "{\"home\": \"%s\", \"authentication\": {\"restrictedIntents\": []}}", home);
    }
    if ((rc = tender_engine_new(config, strlen(config), &engine)) != TENDER_OK) return fail("tender_engine_new", rc);
    if ((rc = tender_engine_import_directory(engine, directory_json, strlen(directory_json))) != TENDER_OK) {
        status = fail("tender_engine_import_directory", rc);
        goto done;
    }

    const char *intent = "{\"intent\": \"send_payment\", \"payee\": {\"name\": \"John\"},"
                         " \"currencyAmount\": {\"amount\": \"50\", \"currency\": \"USD\"}}";
    printf("person: Send $50 to John\n");
    if ((rc = tender_session_new(engine, intent, strlen(intent), &session)) != TENDER_OK) {
        status = fail("tender_session_new", rc);
        goto done;
    }
    if ((rc = tender_session_set_conversation(session, conversation, (void *)password)) != TENDER_OK) {
        status = fail("tender_session_set_conversation", rc);
        goto done;
    }

    for (;;) {
        char *resolution = NULL;
        if ((rc = tender_session_resolve(session, &resolution, NULL)) != TENDER_OK) {
            status = fail("tender_session_resolve", rc);
            goto done;
        }
        printf("tender: %s\n", resolution);
        int complete = strstr(resolution, "\"complete\":true") != NULL;
        char id[128];
        int found = !complete && next_reply < 2 && option_id(resolution, replies[next_reply], id, sizeof id);
        tender_string_free(resolution);
        if (complete) break;
        if (!found) {
            fprintf(stderr, "no scripted reply for this question\n");
            goto done;
        }
        printf("person: %s\n", replies[next_reply++]);
        char answer[256];
        snprintf(answer, sizeof answer, "{\"parameter\": \"payee\", \"choose\": \"%s\"}", id);
        if ((rc = tender_session_answer(session, answer, strlen(answer))) != TENDER_OK) {
            status = fail("tender_session_answer", rc);
            goto done;
        }
    }

    tender_response_code code;
    char *response = NULL;
    if ((rc = tender_session_confirm(session, &code, &response, NULL)) != TENDER_OK) {
        status = fail("tender_session_confirm", rc);
        goto done;
    }
    /* The response's "question" is what to ask the person, e.g. "Send $50 to John Baily from Checking? There is no fee." */
    printf("tender: confirm -> %s %s\n", tender_response_code_str(code), response);
    tender_string_free(response);
    if (code != TENDER_RESPONSE_READY) goto done;
    /* A real host asks the person now; this one plays a person who says yes. A no would end the dialog. */
    printf("person: yes\n");
    if ((rc = tender_session_agree(session, 1)) != TENDER_OK) {
        status = fail("tender_session_agree", rc);
        goto done;
    }

    /* One document holds all handle answers: {"code", "record", "jws"} on success,
       {"code", "denial": {"reason", "message"}} when the person was not authenticated. */
    char *outcome = NULL;
    size_t outcome_len = 0;
    if ((rc = tender_session_handle(session, &code, &outcome, &outcome_len)) != TENDER_OK) {
        status = fail("tender_session_handle", rc);
        goto done;
    }
    printf("tender: handle -> %s\n", tender_response_code_str(code));
    printf("outcome (%zu bytes): %s\n", outcome_len, outcome);
    tender_string_free(outcome);
    status = code == TENDER_RESPONSE_SUCCESS ? 0 : 1;

done:
    tender_session_free(session);
    tender_engine_free(engine);
    return status;
}
