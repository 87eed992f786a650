/* SPDX-License-Identifier: Apache-2.0 */
/* libpq, PostgreSQL's client library (Debian libpq-dev): linked by tenderd only, never by libtender.so. */
#include <libpq-fe.h>
