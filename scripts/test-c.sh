#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# C tests, built the way a user builds: install into a temporary DESTDIR,
# then compile through pkg-config only.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
work="$root/build/c-test"
stage="$work/stage"
rm -rf "$work"
mkdir -p "$work"

echo "== make install into a temporary DESTDIR"
make -s --no-print-directory -C "$root" install DESTDIR="$stage" PREFIX=/usr/local >/dev/null
export PKG_CONFIG_PATH="$stage/usr/local/lib/pkgconfig"
export PKG_CONFIG_SYSROOT_DIR="$stage"
flags=$(pkg-config --cflags --libs tender)
echo "pkg-config --cflags --libs tender: $flags"
version=$(make -s --no-print-directory -C "$root" print-version)
soversion=$(make -s --no-print-directory -C "$root" print-soversion)
for f in "lib/libtender.so.$version" "lib/libtender.so.$soversion" lib/libtender.so include/tender.h bin/tender lib/pkgconfig/tender.pc; do
    test -e "$stage/usr/local/$f" || { echo "missing after install: $f" >&2; exit 1; }
done
test -f "$stage/etc/pam.d/tender" || { echo "missing after install: the PAM service etc/pam.d/tender" >&2; exit 1; }

echo "== tender.h compiles warning-free as C99 and as C++"
printf '#include <tender.h>\nint main(void) { return tender_version_number() > 0 ? 0 : 1; }\n' > "$work/header.c"
cc -std=c99 -pedantic -Wall -Wextra -Werror "$work/header.c" $flags -o "$work/header-c"
c++ -x c++ -std=c++11 -pedantic -Wall -Wextra -Werror "$work/header.c" -x none $flags -o "$work/header-cxx"

echo "== every macro and struct initialiser of tender.h, as C99, C11, C++11 and C++17"
macros=$(grep -oE '^#define TENDER_[A-Z_]+' "$root/include/tender.h" | sed 's/#define //' | grep -v '^TENDER_H$' | sort -u)
for m in $macros; do
    grep -qE "\b$m\b" "$root/Tests/c/header_test.c" || { echo "header_test.c never uses $m" >&2; exit 1; }
done
cc -std=c99 -pedantic -Wall -Wextra -Werror "$root/Tests/c/header_test.c" $flags -o "$work/header-test-c99"
cc -std=c11 -pedantic -Wall -Wextra -Werror "$root/Tests/c/header_test.c" $flags -o "$work/header-test-c11"
c++ -x c++ -std=c++11 -Wall -Wextra -Werror "$root/Tests/c/header_test.c" -x none $flags -o "$work/header-test-cxx11"
c++ -x c++ -std=c++17 -Wall -Wextra -Werror "$root/Tests/c/header_test.c" -x none $flags -o "$work/header-test-cxx17"
for program in header-test-c99 header-test-cxx17; do
    LD_LIBRARY_PATH="$stage/usr/local/lib" "$work/$program"
done
echo "$(echo "$macros" | wc -l) macros, all used"

echo "== TENDER_NODISCARD and TENDER_DEPRECATED warn"
printf '#include <tender.h>\nint main(void) { tender_engine_set_signed_in(NULL, 1); return 0; }\n' > "$work/ignored.c"
if cc -std=c99 -Werror "$work/ignored.c" $flags -o "$work/ignored" 2>"$work/ignored.err"; then
    echo "ignoring a tender_result compiled without a warning" >&2; exit 1
fi
grep -q "warn_unused_result\|unused-result" "$work/ignored.err" || { cat "$work/ignored.err" >&2; exit 1; }
printf '#include <tender.h>\nTENDER_DEPRECATED("gone") int old_call(void);\nint old_call(void) { return 0; }\nint main(void) { return old_call(); }\n' > "$work/deprecated.c"
if cc -std=c99 -Werror "$work/deprecated.c" $flags -o "$work/deprecated" 2>"$work/deprecated.err"; then
    echo "a TENDER_DEPRECATED call compiled without a warning" >&2; exit 1
fi
grep -q "deprecated" "$work/deprecated.err" || { cat "$work/deprecated.err" >&2; exit 1; }
echo "ignoring a result and calling a deprecated function are warnings"

echo "== every function declared in tender.h is called by the C API test"
declared=$(grep -oE '\btender_[a-z0-9_]+\(' "$root/include/tender.h" | tr -d '(' | sort -u)
for fn in $declared; do
    cat "$root/Tests/c/api_test.c" "$root/Tests/c/custom_intents_test.c" "$root/Tests/c/speak_test.c" "$root/Tests/c/engine_cache_test.c" | grep -qE "\b$fn\(" || { echo "the C API tests never call $fn" >&2; exit 1; }
done
echo "$(echo "$declared" | wc -l) functions declared, all called"

export LD_LIBRARY_PATH="$stage/usr/local/lib"
echo "== C API test"
cc -std=c99 -Wall -Wextra -Werror -D_POSIX_C_SOURCE=200809L "$root/Tests/c/api_test.c" $flags -lpthread -o "$work/api_test"
pam_matrix=$(ls /usr/lib/*/pam_wrapper/pam_matrix.so /usr/lib/pam_wrapper/pam_matrix.so 2>/dev/null | head -1 || true)
[ -n "$pam_matrix" ] || { echo "pam_matrix.so (libpam-wrapper) is missing" >&2; exit 1; }
USER_FOR_TEST=$(id -un) "$work/api_test" "$work/scratch" "$pam_matrix"

echo "== custom intents end to end from text (both examples/intents)"
cc -std=c99 -Wall -Wextra -Werror -D_POSIX_C_SOURCE=200809L "$root/Tests/c/custom_intents_test.c" $flags -o "$work/custom_intents_test"
USER_FOR_TEST=$(id -un) "$work/custom_intents_test" "$work/custom-intents" "$root/examples/intents" "$pam_matrix"

echo "== a whole send in Spanish, said with the library's sentences (say) and replies read by it"
cc -std=c99 -Wall -Wextra -Werror -D_POSIX_C_SOURCE=200809L "$root/Tests/c/speak_test.c" $flags -o "$work/speak_test"
USER_FOR_TEST=$(id -un) "$work/speak_test" "$work/speak" "$pam_matrix"

echo "== many homes in one process: the engine cache, and its abuse cases"
cc -std=c99 -Wall -Wextra -Werror -D_POSIX_C_SOURCE=200809L "$root/Tests/c/engine_cache_test.c" $flags -lpthread -o "$work/engine_cache_test"
"$work/engine_cache_test" "$work/engine-cache"

echo "== exactly once beyond the store: three processes, one key, a host counting its calls; kill -9 inside send"
cc -std=c99 -Wall -Wextra -Werror -D_POSIX_C_SOURCE=200809L "$root/Tests/c/exactly_once_test.c" $flags -o "$work/exactly_once_test"
"$work/exactly_once_test" "$work/exactly-once" "$stage/usr/local/bin/tender"

echo "== C example"
cc -std=c99 -Wall -Wextra -Werror "$root/examples/send_payment.c" $flags -o "$work/send_payment"
"$work/send_payment" "$work/example-home"

echo "== C example under pam_wrapper: the real PAM calls, service \"tender\", right and wrong password"
wrapper=$(ls /usr/lib/*/libpam_wrapper.so /usr/lib/libpam_wrapper.so 2>/dev/null | head -1 || true)
[ -n "$wrapper" ] || { echo "libpam_wrapper.so (libpam-wrapper) is missing" >&2; exit 1; }
services="$work/pam-wrapper"
mkdir -p "$services"
echo "$(id -un):example-secret:tender" > "$services/passdb"
printf 'auth required %s passdb=%s\naccount required %s passdb=%s\n' "$pam_matrix" "$services/passdb" "$pam_matrix" "$services/passdb" > "$services/tender"
# Linux-PAM also reads "other", the default for every group a service leaves out
# (else it logs "no default config other"): deny everything, as /etc/pam.d/other should.
printf 'auth required pam_deny.so\naccount required pam_deny.so\npassword required pam_deny.so\nsession required pam_deny.so\n' > "$services/other"
under_wrapper() { LD_PRELOAD="$wrapper" PAM_WRAPPER=1 PAM_WRAPPER_SERVICE_DIR="$services" "$@"; }
under_wrapper env TENDER_EXAMPLE_PASSWORD=example-secret "$work/send_payment" "$work/wrapper-home" > "$work/right.out"
grep -q "handle -> success" "$work/right.out" || { cat "$work/right.out"; echo "right password did not pay" >&2; exit 1; }
if under_wrapper env TENDER_EXAMPLE_PASSWORD=wrong-secret "$work/send_payment" "$work/wrapper-home-2" > "$work/wrong.out"; then
    cat "$work/wrong.out"; echo "wrong password paid" >&2; exit 1
fi
grep -q "failureCredentialsUnverified" "$work/wrong.out" || { cat "$work/wrong.out"; exit 1; }
echo "right password paid, wrong password denied"

echo "== make uninstall removes everything"
make -s --no-print-directory -C "$root" uninstall DESTDIR="$stage" PREFIX=/usr/local
left=$(find "$stage" -type f -o -type l)
test -z "$left" || { echo "left after uninstall: $left" >&2; exit 1; }
echo "C tests passed"
