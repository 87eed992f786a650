/* SPDX-License-Identifier: Apache-2.0 */
/* Fuzz target "intent": any bytes as an intent document through tender_session_new, then resolve and confirm. */
#include "../fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static tender_engine *engine;
    if (!engine) engine = fuzz_engine("intent");
    tender_session *session = NULL;
    tender_result rc = tender_session_new(engine, (const char *)data, size, &session);
    fuzz_check(rc, "tender_session_new");
    if (rc != TENDER_OK) return 0;
    char *json = NULL;
    fuzz_check(tender_session_resolve(session, &json, NULL), "tender_session_resolve");
    tender_string_free(json);
    json = NULL;
    tender_response_code code = 0;
    fuzz_check(tender_session_confirm(session, &code, &json, NULL), "tender_session_confirm");
    tender_string_free(json);
    tender_session_free(session);
    return 0;
}
