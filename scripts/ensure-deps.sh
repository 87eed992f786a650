#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Installs what one purpose needs and is missing, and nothing else:
#   ensure-deps.sh demo   building Tender and running `tender demo` (make demo)
#   ensure-deps.sh test   that, plus what every test uses (make test)
#   ensure-deps.sh --list demo|test   print the set's Debian packages, one a line, and do nothing
# As root, missing Debian packages are installed with apt-get (--no-install-recommends, waiting
# for another package manager's lock: scripts/apt-wait.sh); otherwise the script stops and names
# them. README.md lists both sets; Tests/packaging/test_deps.py holds the lists to the README.
# Run by make demo and make test only, never by make build or make install.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
python=${PYTHON:-python3}

# One line a package: its name, then the shell test that says it is present.
# What building the library, the tool and tenderd needs (Package.swift's system libraries through
# pkg-config; the C toolchain and binutils Swift links with; make) and running the demo
# (its PAM stack is pam_matrix, from libpam-wrapper).
DEMO_PACKAGES='
pkg-config       command -v pkg-config
gcc              command -v cc
g++              command -v c++
make             command -v make
binutils         command -v readelf
libsqlite3-dev   pkg-config --exists sqlite3
libssl-dev       pkg-config --exists libcrypto
libpam0g-dev     pkg-config --exists pam
libpam-wrapper   ls /usr/lib/*/libpam_wrapper.so
'
# What the tests need besides (make test): Python and pytest (Debian's, never pip into the system
# Python, PEP 668), venv for the binding's install test, openssl for the ledger tests, cryptography for
# the independent record verifier (Tests/python/independent_verifier.py), mypy for the
# binding's type check; dpkg-dev to lintian for make deb; man-db, zsh and fish to load the man
# pages and the completions; libpq-dev (tenderd's PostgreSQL store, docs/scale.md: building tenderd needs
# it, the library and the demo never do) and postgresql, whose initdb and pg_ctl run the throwaway
# cluster of make test-postgres (the package's own cluster is not used).
TEST_PACKAGES='
openssl                  command -v openssl
python3                  command -v python3
python3-venv             python3 -c "import venv, ensurepip"
python3-pytest           "$python" -c "import pytest"
python3-cryptography     "$python" -c "import cryptography"
python3-mypy             "$python" -m mypy --version || /usr/bin/python3 -m mypy --version
dpkg-dev                 command -v dpkg-buildpackage
debhelper                command -v dh
dh-python                command -v dh_python3
pybuild-plugin-pyproject test -e /usr/share/doc/pybuild-plugin-pyproject
python3-all              test -e /usr/share/doc/python3-all
lintian                  command -v lintian
fakeroot                 command -v fakeroot
man-db                   command -v man
zsh                      command -v zsh
fish                     command -v fish
libpq-dev                pkg-config --exists libpq
postgresql               ls /usr/lib/postgresql/*/bin/initdb
'

purpose=""
list=false
for argument in "$@"; do
    case "$argument" in
        --list) list=true ;;
        demo|test) purpose=$argument ;;
        *) echo "usage: ensure-deps.sh [--list] demo|test" >&2; exit 2 ;;
    esac
done
[ -n "$purpose" ] || { echo "usage: ensure-deps.sh [--list] demo|test" >&2; exit 2; }
table=$DEMO_PACKAGES
[ "$purpose" = demo ] || table="$DEMO_PACKAGES$TEST_PACKAGES"

if $list; then
    printf '%s\n' "$table" | awk 'NF { print $1 }'
    exit 0
fi

missing=""
export python
while read -r package check; do
    [ -n "$package" ] || continue
    if ! sh -c "$check" >/dev/null 2>&1 </dev/null; then missing="$missing $package"; fi
done <<EOF
$table
EOF

if [ -n "$missing" ]; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        echo "ensure-deps: installing the Debian packages make $purpose needs:$missing"
        echo "ensure-deps: (if another apt-get or dpkg is running, this waits up to 5 minutes for its lock)"
        export DEBIAN_FRONTEND=noninteractive
        "$here/apt-wait.sh" update -qq
        # shellcheck disable=SC2086
        "$here/apt-wait.sh" install -y -qq --no-install-recommends $missing
    elif [ "$purpose" = test ] && [ "$(id -u)" != 0 ]; then
        # Without root the tests that need a missing tool skip, saying so; only these stop make test.
        required=""
        for package in $missing; do
            case " $(printf '%s\n' "$DEMO_PACKAGES" | awk 'NF { printf "%s ", $1 }') openssl python3 python3-venv libpq-dev " in
                *" $package "*) required="$required $package" ;;
            esac
        done
        case " $missing " in
            *" python3-pytest "*) cat >&2 <<EOM
ensure-deps: pytest is missing for $python. Either, as root:
    apt install python3-pytest
or, without root, in a virtual environment:
    python3 -m venv ~/.venvs/tender-test && ~/.venvs/tender-test/bin/pip install pytest
    make test PYTHON=~/.venvs/tender-test/bin/python
EOM
                required="$required python3-pytest" ;;
        esac
        if [ -n "$required" ]; then
            echo "ensure-deps: missing Debian packages:$required (as root: apt-get install --no-install-recommends$required)" >&2
            exit 1
        fi
        echo "ensure-deps: the tests that need$missing will skip, saying so (as root: apt-get install --no-install-recommends$missing)" >&2
    else
        echo "ensure-deps: missing Debian packages:$missing" >&2
        echo "ensure-deps: install them as root: apt-get install --no-install-recommends$missing" >&2
        exit 1
    fi
fi

swift_bin=$(command -v swift 2>/dev/null || echo /opt/swift/usr/bin/swift)
if [ ! -x "$swift_bin" ]; then
    echo "ensure-deps: Swift 6.3 is required (swift on PATH or /opt/swift/usr/bin/swift); see https://swift.org/install" >&2
    exit 1
fi
