/* SPDX-License-Identifier: Apache-2.0 */
/* Fuzz target "parse": any bytes as typed or spoken text through tender_parse. */
#include "../fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char *json = NULL;
    size_t len = 0;
    tender_result rc = tender_parse((const char *)data, size, &json, &len);
    fuzz_check(rc, "tender_parse");
    if (rc == TENDER_OK && (json == NULL || strlen(json) != len)) abort();
    tender_string_free(json);
    return 0;
}
