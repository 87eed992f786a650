/* SPDX-License-Identifier: Apache-2.0 */
/*
 * pam_stack.h - a private PAM directory for the C tests: a pam_matrix stack
 * for one service, whose passdb knows one user and password. The engine reads
 * it through "authentication": {"service", "pamConfigDirectory"} in testing mode.
 */
#ifndef TENDER_TEST_PAM_STACK_H
#define TENDER_TEST_PAM_STACK_H

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <tender.h>

/* Makes `dir` (0700) with `passdb` (user:password:service) and the file `service`
   (auth and account through the pam_matrix module at `pam_matrix`); 1 when written. */
static inline int pam_stack_write(const char *dir, const char *service, const char *user, const char *password,
                                  const char *pam_matrix) {
    char path[1024];
    mkdir(dir, 0700);
    snprintf(path, sizeof path, "%s/passdb", dir);
    FILE *f = fopen(path, "w");
    if (f == NULL) return 0;
    fprintf(f, "%s:%s:%s\n", user ? user : "root", password, service);
    if (fclose(f) != 0) return 0;
    snprintf(path, sizeof path, "%s/%s", dir, service);
    f = fopen(path, "w");
    if (f == NULL) return 0;
    fprintf(f, "auth required %s passdb=%s/passdb\naccount required %s passdb=%s/passdb\n", pam_matrix, dir, pam_matrix, dir);
    return fclose(f) == 0;
}

/* A conversation (tender_conversation_fn) answering every prompt with the password `userdata`
   (a NUL-terminated string); informational and error messages are read and answered with nothing. */
static inline int pam_stack_answer(void *userdata, tender_prompt_kind kind, const char *message, char *answer, size_t size) {
    const char *password = userdata;
    (void)message;
    if (kind == TENDER_PROMPT_INFO || kind == TENDER_PROMPT_ERROR) return 0;
    if (answer == NULL || strlen(password) >= size) return 1;
    memcpy(answer, password, strlen(password) + 1);
    return 0;
}

#endif
