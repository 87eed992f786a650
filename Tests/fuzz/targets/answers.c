/* SPDX-License-Identifier: Apache-2.0 */
/* Fuzz target "answers": lines of the input as dialog answers. The first line is the
   intent document (a seed one when it is not accepted); each later line is answered,
   then resolved; at the end confirm and handle (the engine needs no authentication
   or agreement, so a ready dialog pays: a payment made twice under one key aborts). */
#include "../fuzz_common.h"

static const char *FALLBACK =
    "{\"intent\": \"send_payment\", \"payee\": {\"name\": \"John\"}, \"currencyAmount\": {\"amount\": \"0.01\", \"currency\": \"USD\"}}";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static tender_engine *engine;
    if (!engine) engine = fuzz_engine("answers");
    const char *text = (const char *)data, *end = text + size;
    const char *nl = memchr(text, '\n', size);
    const char *first_end = nl ? nl : end;
    tender_session *session = NULL;
    if (tender_session_new(engine, text, (size_t)(first_end - text), &session) != TENDER_OK)
        fuzz_check(tender_session_new(engine, FALLBACK, strlen(FALLBACK), &session), "tender_session_new");
    if (!session) return 0;
    char *json = NULL;
    fuzz_check(tender_session_resolve(session, &json, NULL), "tender_session_resolve");
    tender_string_free(json);
    for (const char *line = nl ? nl + 1 : end; line < end;) {
        const char *stop = memchr(line, '\n', (size_t)(end - line));
        if (!stop) stop = end;
        fuzz_check(tender_session_answer(session, line, (size_t)(stop - line)), "tender_session_answer");
        json = NULL;
        fuzz_check(tender_session_resolve(session, &json, NULL), "tender_session_resolve");
        tender_string_free(json);
        line = stop + 1;
    }
    tender_response_code code = 0;
    tender_result rc = tender_session_confirm(session, &code, NULL, NULL);
    fuzz_check(rc, "tender_session_confirm");
    if (rc == TENDER_OK && code == TENDER_RESPONSE_READY) {
        char *record = NULL, *again = NULL;
        rc = tender_session_handle(session, &code, &record, NULL);
        fuzz_check(rc, "tender_session_handle");
        if (rc == TENDER_OK && code == TENDER_RESPONSE_SUCCESS) {
            /* Handling again answers the same record and pays nothing. */
            tender_result again_rc = tender_session_handle(session, &code, &again, NULL);
            fuzz_check(again_rc, "tender_session_handle (again)");
            if (again_rc == TENDER_OK && (!again || !record || strcmp(again, record) != 0)) {
                fprintf(stderr, "a second handle answered another record\n");
                abort();
            }
        }
        tender_string_free(record);
        tender_string_free(again);
    }
    tender_session_free(session);
    return 0;
}
