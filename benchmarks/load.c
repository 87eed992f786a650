/* SPDX-License-Identifier: Apache-2.0 */
/*
 * load.c - what libtender costs a host: the time to dlopen it and make a
 * first call (against dlopen of libcrypto in the same run), and the resident
 * memory of a process after opening an engine.
 *
 * Usage: load LIBTENDER_PATH SCRATCH_DIR [ROUNDS]
 * Each measurement runs in a fresh child process, alternating libraries.
 */
#define _POSIX_C_SOURCE 200809L
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now_us(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

static long rss_kib(void) {
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    long kib = -1;
    while (f && fgets(line, sizeof line, f))
        if (strncmp(line, "VmRSS:", 6) == 0) kib = strtol(line + 6, NULL, 10);
    if (f) fclose(f);
    return kib;
}

/* Child: load `path`, call `symbol`, write the microseconds to fd. */
static void measure_load(const char *path, const char *symbol, int fd) {
    double start = now_us();
    void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!lib) { fprintf(stderr, "dlopen %s: %s\n", path, dlerror()); _exit(1); }
    unsigned long (*fn)(void) = (unsigned long (*)(void))(uintptr_t)dlsym(lib, symbol);
    if (!fn || fn() == 0) _exit(1);
    double elapsed = now_us() - start;
    if (write(fd, &elapsed, sizeof elapsed) != (ssize_t)sizeof elapsed) _exit(1);
    _exit(0);
}

static double run_child(const char *path, const char *symbol) {
    int fds[2];
    double value = -1;
    if (pipe(fds) != 0) return -1;
    pid_t pid = fork();
    if (pid == 0) { close(fds[0]); measure_load(path, symbol, fds[1]); }
    close(fds[1]);
    if (read(fds[0], &value, sizeof value) != (ssize_t)sizeof value) value = -1;
    close(fds[0]);
    waitpid(pid, NULL, 0);
    return value;
}

static int compare(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv) {
    if (argc < 3) { fprintf(stderr, "usage: %s LIBTENDER SCRATCH [ROUNDS]\n", argv[0]); return 2; }
    int rounds = argc > 3 ? atoi(argv[3]) : 21;
    if (rounds < 1 || rounds > 1000) rounds = 21;
    double *tender = calloc((size_t)rounds, sizeof *tender), *crypto = calloc((size_t)rounds, sizeof *crypto);
    for (int i = 0; i < rounds; i++) {
        tender[i] = run_child(argv[1], "tender_version_number");
        crypto[i] = run_child("libcrypto.so.3", "OpenSSL_version_num");
        if (tender[i] < 0 || crypto[i] < 0) { fprintf(stderr, "a load failed\n"); return 1; }
    }
    qsort(tender, (size_t)rounds, sizeof *tender, compare);
    qsort(crypto, (size_t)rounds, sizeof *crypto, compare);
    printf("load (dlopen + first call), median of %d fresh processes:\n", rounds);
    printf("  libtender  %8.0f us\n  libcrypto  %8.0f us\n  ratio      %8.2f\n", tender[rounds / 2], crypto[rounds / 2],
           tender[rounds / 2] / crypto[rounds / 2]);

    /* Resident memory: before loading, after loading, after opening an engine. */
    long before = rss_kib();
    void *lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (!lib) { fprintf(stderr, "%s\n", dlerror()); return 1; }
    long loaded = rss_kib();
    typedef int32_t (*engine_new_fn)(const char *, size_t, void **);
    typedef void (*engine_free_fn)(void *);
    engine_new_fn engine_new = (engine_new_fn)(uintptr_t)dlsym(lib, "tender_engine_new");
    engine_free_fn engine_free = (engine_free_fn)(uintptr_t)dlsym(lib, "tender_engine_free");
    char config[1024];
    snprintf(config, sizeof config, "{\"home\": \"%s\", \"authentication\": {\"restrictedIntents\": []}}", argv[2]);
    void *engine = NULL;
    if (!engine_new || engine_new(config, strlen(config), &engine) != 0) { fprintf(stderr, "engine_new failed\n"); return 1; }
    long opened = rss_kib();
    printf("resident memory:\n  before dlopen   %6ld KiB\n  after dlopen    %6ld KiB\n  engine open     %6ld KiB (+%ld KiB)\n",
           before, loaded, opened, opened - before);
    engine_free(engine);
    free(tender);
    free(crypto);
    return 0;
}
