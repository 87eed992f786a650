/* SPDX-License-Identifier: Apache-2.0 */
/* Fuzz target "directory": any bytes as a directory document through tender_engine_import_directory. */
#include "../fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static tender_engine *engine;
    if (!engine) engine = fuzz_engine("directory");
    fuzz_check(tender_engine_import_directory(engine, (const char *)data, size), "tender_engine_import_directory");
    return 0;
}
