/* SPDX-License-Identifier: Apache-2.0 */
/*
 * header_test.c - compiles against tender.h using every macro and struct
 * initialiser it defines, as C99, C11 and C++ (scripts/test-c.sh builds it
 * with -Wall -Wextra -Werror), then checks at run time that the header and
 * the loaded library agree.
 */
#include <stdio.h>
#include <string.h>
#include <tender.h>

/* The attribute macros on declarations of this program's own. */
TENDER_API TENDER_NODISCARD int header_test_checked(int value);
TENDER_API TENDER_NODISCARD int header_test_checked(int value) { return value + 1; }
TENDER_DEPRECATED("use header_test_checked") int header_test_old(void);

static int fails = 0;
#define EXPECT(cond)                                                   \
    do {                                                               \
        if (!(cond)) {                                                 \
            fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, #cond); \
            fails++;                                                   \
        }                                                              \
    } while (0)

static int lookup(void *userdata, const char *what, tender_reply *reply) {
    (void)userdata;
    (void)what;
    return tender_reply_set(reply, "{}", 2) == TENDER_OK ? 0 : 1;
}

static int send_payment(void *userdata, const char *payment, size_t len, tender_response_code *code_out) {
    (void)userdata;
    (void)payment;
    (void)len;
    *code_out = TENDER_RESPONSE_SUCCESS;
    return 0;
}

int main(void) {
    /* The struct initialiser: this header's version, everything else empty. */
    tender_host host = TENDER_HOST_INIT;
    EXPECT(host.version == TENDER_HOST_VERSION && TENDER_HOST_VERSION == 1);
    EXPECT(host.userdata == NULL && host.lookup == NULL && host.can_send == NULL && host.send == NULL);
    host.lookup = lookup;
    host.send = send_payment;
    static const tender_host file_scope_style = TENDER_HOST_INIT; /* a constant expression */
    EXPECT(file_scope_style.version == TENDER_HOST_VERSION);

    /* The version macros agree with each other and with the library. */
    char text[32];
    snprintf(text, sizeof text, "%d.%d.%d", TENDER_VERSION_MAJOR, TENDER_VERSION_MINOR, TENDER_VERSION_PATCH);
    EXPECT(strcmp(text, TENDER_VERSION_STRING) == 0);
    EXPECT(TENDER_VERSION_NUMBER == TENDER_VERSION_MAJOR * 10000 + TENDER_VERSION_MINOR * 100 + TENDER_VERSION_PATCH);
    EXPECT(tender_version_number() == (uint32_t)TENDER_VERSION_NUMBER);
    EXPECT(strcmp(tender_version_string(), TENDER_VERSION_STRING) == 0);
    EXPECT(TENDER_MAX_INPUT_BYTES == 1048576);
    EXPECT(header_test_checked(1) == 2);

    /* The result codes have their names, the callback code included. */
    EXPECT(strcmp(tender_result_str(TENDER_E_CALLBACK), "TENDER_E_CALLBACK") == 0);
    EXPECT(strcmp(tender_result_str(TENDER_OK), "TENDER_OK") == 0);

    /* A host struct of this version is accepted up to the configuration check. */
    tender_engine *engine = NULL;
    EXPECT(tender_engine_new_with_host("{", 1, &host, &engine) == TENDER_E_INVALID_JSON && engine == NULL);
    host.version = TENDER_HOST_VERSION + 1;
    EXPECT(tender_engine_new_with_host("{", 1, &host, &engine) == TENDER_E_INVALID_ARGUMENT && engine == NULL);

    /* The custom intents' host (TENDER_1.1): its initialiser, and a wrong version refused. */
    tender_intent_host intents = TENDER_INTENT_HOST_INIT;
    EXPECT(intents.version == TENDER_INTENT_HOST_VERSION && TENDER_INTENT_HOST_VERSION == 1);
    EXPECT(intents.userdata == NULL && intents.handle == NULL && intents.values == NULL);
    static const tender_intent_host intents_file_scope = TENDER_INTENT_HOST_INIT;
    EXPECT(intents_file_scope.version == TENDER_INTENT_HOST_VERSION);
    EXPECT(tender_engine_set_intent_host(NULL, &intents) == TENDER_E_NULL_ARGUMENT);

    if (fails) fprintf(stderr, "header_test: %d failed\n", fails);
    else printf("header_test: every macro and initialiser of tender.h compiles and agrees with the library\n");
    return fails ? 1 : 0;
}
