/* SPDX-License-Identifier: Apache-2.0 */
/*
 * engine_cache_test.c - tender_engine_cache_*: one host process serving many
 * homes. Usage: engine_cache_test SCRATCH_DIR (created; each run uses a fresh one).
 * The abuse cases are checked as an adversary would try them: a request with
 * another configuration for the same home, a path whose symbolic link now leads
 * to another home, an engine let go while the host still uses it, many threads
 * at once, and running out of file descriptors.
 */
#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"

static char scratch[1024];

/* A configuration for HOME; `limit` "" or a USD maximum, to make a second configuration of the same home. */
static size_t config(char *out, size_t size, const char *home, const char *limit) {
    int n = limit[0]
        ? snprintf(out, size, "{\"home\": \"%s\", \"authentication\": {\"restrictedIntents\": []},"
                              " \"limits\": {\"USD\": {\"minimum\": \"1.00\", \"maximum\": \"%s\"}}}", home, limit)
        : snprintf(out, size, "{\"home\": \"%s\", \"authentication\": {\"restrictedIntents\": []}}", home);
    return (size_t)n;
}

static int open_descriptors(void) {
    DIR *dir = opendir("/proc/self/fd");
    if (!dir) return -1;
    int count = 0;
    struct dirent *entry;
    while ((entry = readdir(dir)) != NULL)
        if (entry->d_name[0] != '.') count++;
    closedir(dir);
    return count;
}

static tender_engine *get(tender_engine_cache *cache, const char *home, const char *limit) {
    char text[2048];
    size_t len = config(text, sizeof text, home, limit);
    tender_engine *engine = NULL;
    tender_result rc = tender_engine_cache_get(cache, text, len, &engine);
    CHECK_RC(rc, TENDER_OK);
    return engine;
}

/* Whether the engine's directory names a contact with this id. */
static int has_contact(tender_engine *engine, const char *id) {
    char *json = NULL;
    size_t len = 0;
    if (tender_engine_directory(engine, &json, &len) != TENDER_OK) return -1;
    char quoted[256];
    snprintf(quoted, sizeof quoted, "\"%s\"", id);
    int found = strstr(json, quoted) != NULL;
    tender_string_free(json);
    return found;
}

static void import_contact(tender_engine *engine, const char *id) {
    char json[512];
    int n = snprintf(json, sizeof json,
                     "{\"contacts\": [{\"id\": \"%s\", \"displayName\": \"%s\", \"handles\": ["
                     "{\"id\": \"%s-m\", \"label\": \"mobile\", \"type\": \"phone\", \"value\": \"1\"}]}]}", id, id, id);
    CHECK_RC(tender_engine_import_directory(engine, json, (size_t)n), TENDER_OK);
}

static void home_path(char *out, size_t size, int index) { snprintf(out, size, "%s/homes/h%d", scratch, index); }

struct worker { tender_engine_cache *cache; int seed; int failed; };

static void *hammer(void *raw) {
    struct worker *w = raw;
    unsigned state = (unsigned)w->seed;
    for (int i = 0; i < 40; i++) {
        state = state * 1103515245u + 12345u;
        char home[1100];
        home_path(home, sizeof home, (int)(state >> 16) % 12);
        char text[2048];
        size_t len = config(text, sizeof text, home, "");
        tender_engine *engine = NULL;
        if (tender_engine_cache_get(w->cache, text, len, &engine) != TENDER_OK || !engine) { w->failed++; continue; }
        const char *intent = "{\"intent\": \"search_for_accounts\"}";
        tender_session *session = NULL;
        if (tender_session_new(engine, intent, strlen(intent), &session) != TENDER_OK) w->failed++;
        tender_session_free(session);
        tender_engine_free(engine);
    }
    return NULL;
}

int main(int argc, char **argv) {
    if (argc < 2) { fprintf(stderr, "usage: %s SCRATCH_DIR\n", argv[0]); return 2; }
    snprintf(scratch, sizeof scratch, "%s", argv[1]);
    mkdir(scratch, 0700);
    char path[1100];
    snprintf(path, sizeof path, "%s/homes", scratch);
    mkdir(path, 0700);

    /* Arguments. */
    tender_engine_cache *cache = NULL;
    CHECK_RC(tender_engine_cache_new(0, &cache), TENDER_E_INVALID_ARGUMENT);
    CHECK_RC(tender_engine_cache_new(65537, &cache), TENDER_E_INVALID_ARGUMENT);
    CHECK_RC(tender_engine_cache_new(4, NULL), TENDER_E_NULL_ARGUMENT);
    CHECK(cache == NULL);
    tender_engine *none = NULL;
    CHECK_RC(tender_engine_cache_get(NULL, "{}", 2, &none), TENDER_E_NULL_ARGUMENT);
    CHECK_RC(tender_engine_cache_close_idle(NULL, 0, NULL), TENDER_E_NULL_ARGUMENT);
    CHECK(tender_engine_cache_count(NULL) == 0);
    tender_engine_cache_free(NULL);
    CHECK_RC(tender_engine_cache_new(3, &cache), TENDER_OK);
    CHECK_RC(tender_engine_cache_get(cache, "{}", 2, NULL), TENDER_E_NULL_ARGUMENT);
    CHECK_RC(tender_engine_cache_get(cache, "{\"home\": 5}", 11, &none), TENDER_E_INVALID_ARGUMENT);
    const char *brokered = "{\"home\": \"/nonexistent\", \"broker\": \"/nonexistent/socket\"}";
    CHECK_RC(tender_engine_cache_get(cache, brokered, strlen(brokered), &none), TENDER_E_INVALID_ARGUMENT);
    CHECK(none == NULL && tender_engine_cache_count(cache) == 0);

    /* The same home and configuration: the engine kept. Another configuration of it (other limits,
       another policy): never the engine opened with the first. Members in another order: the same. */
    char home0[1100];
    home_path(home0, sizeof home0, 0);
    tender_engine *first = get(cache, home0, "");
    tender_engine *again = get(cache, home0, "");
    CHECK(first != NULL && first == again);
    tender_engine *stricter = get(cache, home0, "5.00");
    CHECK(stricter != NULL && stricter != first);
    char reordered[2048];
    int n = snprintf(reordered, sizeof reordered, "{\"authentication\": {\"restrictedIntents\": []}, \"home\": \"%s/homes/../homes/h0\"}", scratch);
    tender_engine *same = NULL;
    CHECK_RC(tender_engine_cache_get(cache, reordered, (size_t)n, &same), TENDER_OK);
    CHECK(same == first);
    tender_engine_free(same);
    tender_engine_free(stricter);
    tender_engine_free(again);

    /* An engine the cache lets go while the host holds it stays usable: three other homes fill the cache. */
    import_contact(first, "kept-alive");
    for (int i = 1; i <= 3; i++) {
        char home[1100];
        home_path(home, sizeof home, i);
        tender_engine_free(get(cache, home, ""));
    }
    CHECK(tender_engine_cache_count(cache) == 3);
    CHECK(has_contact(first, "kept-alive") == 1);
    tender_engine_free(first);

    /* A home reached through a symbolic link is refused (SQLite opens no path with a link in it), so a
       link changed between two requests can never lead one person's request to another's engine; the
       cache keeps nothing for it. A home renamed away and another put in its place (by whoever owns the
       directory holding both) is another directory: it gets an engine of its own. */
    char a[1100], b[1100], link[1100], via[1100];
    snprintf(a, sizeof a, "%s/alice", scratch);
    snprintf(b, sizeof b, "%s/bob", scratch);
    mkdir(a, 0700);
    mkdir(b, 0700);
    snprintf(link, sizeof link, "%s/person", scratch);
    snprintf(via, sizeof via, "%s/person/home", scratch);
    CHECK(symlink(a, link) == 0);
    char linked[2048];
    size_t linked_len = config(linked, sizeof linked, via, "");
    tender_engine *through = NULL;
    size_t kept_before = tender_engine_cache_count(cache);
    CHECK(tender_engine_cache_get(cache, linked, linked_len, &through) != TENDER_OK && through == NULL);
    CHECK(tender_engine_cache_count(cache) == kept_before);
    char alice_home[1100], bob_home[1100], moved[1100];
    snprintf(alice_home, sizeof alice_home, "%s/alice/home", scratch);
    snprintf(bob_home, sizeof bob_home, "%s/bob/home", scratch);
    snprintf(moved, sizeof moved, "%s/alice/home-before", scratch);
    tender_engine *alice = get(cache, alice_home, "");
    import_contact(alice, "alice-secret");
    tender_engine *bob = get(cache, bob_home, "");
    tender_engine_free(bob);
    CHECK(rename(alice_home, moved) == 0 && rename(bob_home, alice_home) == 0);
    tender_engine *swapped = get(cache, alice_home, "");
    CHECK(swapped != NULL && swapped != alice);
    CHECK(has_contact(swapped, "alice-secret") == 0);
    CHECK(has_contact(alice, "alice-secret") == 1);
    tender_engine_free(alice);
    tender_engine_free(swapped);

    /* Bounded: at most `capacity` kept, whatever was asked; letting go of them all gives their descriptors back. */
    CHECK_RC(tender_engine_cache_close_idle(cache, 0, NULL), TENDER_OK);
    int base = open_descriptors();
    for (int i = 0; i < 10; i++) {
        char home[1100];
        home_path(home, sizeof home, i);
        tender_engine_free(get(cache, home, ""));
    }
    CHECK(tender_engine_cache_count(cache) == 3);
    int held = open_descriptors() - base;
    CHECK(held > 0 && held <= 3 * 8);
    size_t closed = 0;
    CHECK_RC(tender_engine_cache_close_idle(cache, 3600, &closed), TENDER_OK);
    CHECK(closed == 0 && tender_engine_cache_count(cache) == 3);
    CHECK_RC(tender_engine_cache_close_idle(cache, 0, &closed), TENDER_OK);
    CHECK(closed == 3 && tender_engine_cache_count(cache) == 0);
    CHECK(open_descriptors() == base);

    /* Eight threads at once over twelve homes, sessions included. */
    pthread_t threads[8];
    struct worker workers[8];
    for (int i = 0; i < 8; i++) {
        workers[i] = (struct worker){cache, i + 1, 0};
        CHECK(pthread_create(&threads[i], NULL, hammer, &workers[i]) == 0);
    }
    for (int i = 0; i < 8; i++) {
        pthread_join(threads[i], NULL);
        CHECK(workers[i].failed == 0);
    }
    CHECK(tender_engine_cache_count(cache) <= 3);
    CHECK_RC(tender_engine_cache_close_idle(cache, 0, NULL), TENDER_OK);

    /* Out of descriptors: opening fails with an error, nothing is kept, and the cache works again once some are back. */
    struct rlimit saved, tight;
    CHECK(getrlimit(RLIMIT_NOFILE, &saved) == 0);
    tight = saved;
    tight.rlim_cur = 3;  /* descriptors 0 to 2 only: every one the open needs is refused */
    CHECK(setrlimit(RLIMIT_NOFILE, &tight) == 0);
    char home11[1100];
    home_path(home11, sizeof home11, 11);
    char text[2048];
    size_t len = config(text, sizeof text, home11, "");
    tender_engine *starved = NULL;
    tender_result rc = tender_engine_cache_get(cache, text, len, &starved);
    CHECK(rc != TENDER_OK && starved == NULL);
    CHECK(tender_engine_cache_count(cache) == 0);
    CHECK(setrlimit(RLIMIT_NOFILE, &saved) == 0);
    tender_engine *fed = get(cache, home11, "");
    CHECK(fed != NULL && tender_engine_cache_count(cache) == 1);
    tender_engine_free(fed);

    tender_engine_cache_free(cache);
    printf("engine cache: %d checks, %d failures\n", checks, failures);
    return failures ? 1 : 0;
}
