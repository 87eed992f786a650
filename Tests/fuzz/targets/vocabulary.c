/* SPDX-License-Identifier: Apache-2.0 */
/* Fuzz target "vocabulary": any bytes as the app vocabulary file ("vocabularyFile")
   read by tender_engine_new. */
#include "../fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static char file[600], config[1400];
    if (!file[0]) {
        snprintf(file, sizeof file, "%s/vocabulary.json", fuzz_scratch());
        snprintf(config, sizeof config,
                 "{\"home\": \"%s/vocabulary-home\", \"authentication\": {\"restrictedIntents\": []},"
                 " \"vocabularyFile\": \"%s\"}", fuzz_scratch(), file);
    }
    FILE *out = fopen(file, "wb");
    if (!out || fwrite(data, 1, size, out) != size || fclose(out) != 0) abort();
    tender_engine *engine = NULL;
    tender_result rc = tender_engine_new(config, strlen(config), &engine);
    fuzz_check(rc, "tender_engine_new");
    tender_engine_free(engine);
    return 0;
}
