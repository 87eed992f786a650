/* SPDX-License-Identifier: Apache-2.0 */
/*
 * check.h - the C tests' counted assertions: CHECK records a failure with the
 * library's last error and goes on, so one run reports every broken check.
 * Each test is one translation unit and prints `checks` and `failures` at exit.
 */
#ifndef TENDER_TEST_CHECK_H
#define TENDER_TEST_CHECK_H

#include <stdio.h>
#include <tender.h>

static int failures = 0;
static int checks = 0;

#define CHECK(cond)                                                              \
    do {                                                                         \
        checks++;                                                                \
        if (!(cond)) {                                                           \
            failures++;                                                          \
            fprintf(stderr, "%s:%d: CHECK failed: %s (last error: %s)\n",        \
                    __FILE__, __LINE__, #cond, tender_last_error());             \
        }                                                                        \
    } while (0)

#define CHECK_RC(expr, expected) CHECK((expr) == (expected))

#endif
