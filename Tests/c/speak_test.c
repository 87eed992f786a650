/* SPDX-License-Identifier: Apache-2.0 */
/*
 * speak_test.c - a whole send in Spanish as a voice host drives it, through the
 * installed library (pkg-config): it says only the "say" sentences of the
 * resolution, confirm and handle documents, and hands the library the person's
 * replies (tender_session_reply) as they said them: "la segunda", "móvil",
 * "sí". A fragment ("ly") is refused with a sentence and changes nothing;
 * "olvídalo" ends another dialog with nothing paid (docs/dialog.md).
 *
 * Usage: speak_test SCRATCH_DIR PAM_MATRIX_SO  (USER_FOR_TEST: the process user)
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

/* Copies the value of the first "say" member at or after `from` into `out` (a sentence holds no quote). */
static const char *say_of(const char *json, const char *from, char *out, size_t size) {
    const char *start = json ? strstr(from ? from : json, "\"say\":\"") : NULL;
    out[0] = '\0';
    if (start == NULL) return NULL;
    start += 7;
    const char *end = strchr(start, '"');
    if (end == NULL || (size_t)(end - start) >= size) return NULL;
    memcpy(out, start, (size_t)(end - start));
    out[end - start] = '\0';
    return out;
}

/* The sentence of the first open question of a resolve: the "say" of its first open result. */
static const char *question(tender_session *s, char *out, size_t size) {
    char *json = NULL;
    CHECK_RC(tender_session_resolve(s, &json, NULL), TENDER_OK);
    const char *open = strstr(json, "\"result\":\"disambiguation\"");
    if (!open) open = strstr(json, "\"result\":\"needsValue\"");
    if (!open) open = strstr(json, "\"result\":\"confirmationRequired\"");
    if (!open) open = strstr(json, "\"result\":\"unsupported\"");
    /* The result's own "say" comes after its options (each of which has one too). */
    const char *options = open ? strstr(open, "\"options\":[") : NULL;
    const char *next = open ? strstr(open + 1, "{\"parameter\"") : NULL;
    if (options && (!next || options < next)) open = strstr(options, "],\"say\":\"");
    const char *said = open ? say_of(json, open, out, size) : NULL;
    if (!said) out[0] = '\0';
    tender_string_free(json);
    return out;
}

static char *reply(tender_session *s, const char *text) {
    char *json = NULL;
    CHECK_RC(tender_session_reply(s, text, strlen(text), &json, NULL), TENDER_OK);
    return json;
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: speak_test SCRATCH_DIR PAM_MATRIX_SO\n");
        return 2;
    }
    const char *scratch = argv[1], *pam_matrix = argv[2];
    char dir[600], config[2048], said[256];
    mkdir(scratch, 0700);
    snprintf(dir, sizeof dir, "%s/pam.d", scratch);
    CHECK(pam_stack_write(dir, "tender-test", getenv("USER_FOR_TEST"), "right-password", pam_matrix));
    /* The engine speaks English by default; the request's words make this dialog Spanish. */
    snprintf(config, sizeof config,
             "{\"home\": \"%s/home\", \"testing\": true, \"locale\": \"en-US\","
             " \"authentication\": {\"service\": \"tender-test\", \"pamConfigDirectory\": \"%s\"}}",
             scratch, dir);
    tender_engine *engine = NULL;
    CHECK_RC(tender_engine_new(config, strlen(config), &engine), TENDER_OK);
    static const char *directory =
        "{\"contacts\": ["
        " {\"id\": \"john-appleseed\", \"displayName\": \"John Appleseed\", \"handles\": [{\"id\": \"ja-mobile\", \"label\": \"mobile\", \"type\": \"phone\", \"value\": \"1\"}]},"
        " {\"id\": \"john-baily\", \"displayName\": \"John Baily\", \"handles\": [{\"id\": \"jb-home\", \"label\": \"home\", \"type\": \"phone\", \"value\": \"2\"},"
        "  {\"id\": \"jb-mobile\", \"label\": \"mobile\", \"type\": \"phone\", \"value\": \"3\"}]}],"
        " \"accounts\": [{\"id\": \"checking\", \"nickname\": \"Checking\", \"type\": \"checking\","
        " \"balance\": {\"amount\": \"100.00\", \"currency\": \"USD\"}, \"default\": true}]}";
    CHECK_RC(tender_engine_import_directory(engine, directory, strlen(directory)), TENDER_OK);

    const char *text = "envía 50 dólares a John";
    tender_session *s = NULL;
    CHECK_RC(tender_session_new_from_text(engine, text, strlen(text), &s), TENDER_OK);
    CHECK_RC(tender_session_set_conversation(s, pam_stack_answer, "right-password"), TENDER_OK);

    /* Which John: a fragment picks no one and is answered in Spanish; "la segunda" picks John Baily. */
    CHECK(strcmp(question(s, said, sizeof said), "¿Qué persona: John Appleseed o John Baily?") == 0);
    printf("tender: %s\n", said);
    char *r = reply(s, "ly");
    CHECK(contains(r, "\"reply\":\"unclear\"") && strcmp(say_of(r, NULL, said, sizeof said) ? said : "", "Perdona, no te entendí. ¿Qué persona: John Appleseed o John Baily?") == 0);
    tender_string_free(r);
    r = reply(s, "la segunda");
    CHECK(contains(r, "\"reply\":\"answer\"") && contains(r, "\"choose\":\"john-baily\"") && !contains(r, "\"say\""));
    tender_string_free(r);

    /* Which of his handles, said in Spanish. */
    CHECK(strcmp(question(s, said, sizeof said), "¿Qué contacto: casa o móvil?") == 0);
    printf("tender: %s\n", said);
    r = reply(s, "móvil");
    CHECK(contains(r, "\"reply\":\"answer\""));
    tender_string_free(r);
    CHECK(strcmp(question(s, said, sizeof said), "") == 0); /* nothing left to ask */

    /* The question before money moves, and "sí". */
    tender_response_code code = 0;
    char *outcome = NULL;
    CHECK_RC(tender_session_confirm(s, &code, &outcome, NULL), TENDER_OK);
    CHECK(code == TENDER_RESPONSE_READY);
    CHECK(strcmp(say_of(outcome, NULL, said, sizeof said) ? said : "", "¿Envío 50 $ a John Baily desde Checking?") == 0);
    printf("tender: %s\n", said);
    tender_string_free(outcome);
    outcome = NULL;
    r = reply(s, "sí");
    CHECK(contains(r, "\"reply\":\"agree\"") && contains(r, "\"yes\":true"));
    tender_string_free(r);
    CHECK_RC(tender_session_handle(s, &code, &outcome, NULL), TENDER_OK);
    CHECK(code == TENDER_RESPONSE_SUCCESS && contains(outcome, "\"record\""));
    CHECK(strcmp(say_of(outcome, NULL, said, sizeof said) ? said : "", "Enviaste 50 $ a John Baily.") == 0);
    printf("tender: %s\n", said);
    tender_string_free(outcome);
    outcome = NULL;
    r = NULL;
    CHECK_RC(tender_session_reply(s, "sí", strlen("sí"), &r, NULL), TENDER_E_WRONG_STATE);
    tender_session_free(s);

    /* "olvídalo" ends a dialog cleanly: nothing paid, and the session says so. */
    CHECK_RC(tender_session_new_from_text(engine, text, strlen(text), &s), TENDER_OK);
    question(s, said, sizeof said);
    r = reply(s, "olvídalo");
    CHECK(contains(r, "\"reply\":\"cancel\"") && contains(r, "\"say\":\"Cancelado. No se pagó nada.\""));
    tender_string_free(r);
    char *json = NULL;
    CHECK_RC(tender_session_resolve(s, &json, NULL), TENDER_E_DIALOG_ENDED);
    CHECK_RC(tender_session_handle(s, &code, &outcome, NULL), TENDER_E_DIALOG_ENDED);
    tender_session_free(s);

    char *payments = NULL;
    CHECK_RC(tender_engine_payments(engine, &payments, NULL), TENDER_OK);
    CHECK(contains(payments, "\"sequence\":3") && !contains(payments, "\"sequence\":4"));  /* after the signed balances and testing-mode entries */
    tender_string_free(payments);
    tender_engine_free(engine);
    printf("speak_test: %d checks, %d failures\n", checks, failures);
    return failures == 0 ? 0 : 1;
}
