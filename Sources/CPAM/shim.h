/* SPDX-License-Identifier: Apache-2.0 */
#include <security/pam_appl.h>
