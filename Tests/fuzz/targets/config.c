/* SPDX-License-Identifier: Apache-2.0 */
/* Fuzz target "config": any bytes as an engine configuration through tender_engine_new.
   The engine opens for real, so the fuzzer must not name a home outside its folder:
   inputs holding '/', '\\' (no escapes, so no hidden slash) or ".." are skipped, every
   relative home lands in SCRATCH/config (the working folder), which is emptied after
   each engine that opened. */
#include "../fuzz_common.h"
#include <ftw.h>

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw) {
    (void)st; (void)flag;
    return ftw->level == 0 ? 0 : remove(path);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static char folder[600];
    if (!folder[0]) {
        snprintf(folder, sizeof folder, "%s/config", fuzz_scratch());
        mkdir(folder, 0700);
        if (chdir(folder) != 0) abort();
    }
    for (size_t i = 0; i < size; i++)
        if (data[i] == '/' || data[i] == '\\' || (data[i] == '.' && i + 1 < size && data[i + 1] == '.')) return 0;
    tender_engine *engine = NULL;
    tender_result rc = tender_engine_new((const char *)data, size, &engine);
    fuzz_check(rc, "tender_engine_new");
    if (rc == TENDER_OK) {
        tender_engine_free(engine);
        nftw(folder, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
    } else if (engine != NULL) {
        abort(); /* a failed call leaves the output untouched */
    }
    return 0;
}
