#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Installs what building and testing Tender needs and is missing: Debian
# packages (pytest too, as python3-pytest) when run as root, otherwise a
# clear message naming what to install. Run by make demo and make test only,
# never by make build or make install.
set -eu
python=${PYTHON:-python3}

missing_packages=""
need() { # need PACKAGE CHECK...
    package=$1; shift
    if ! "$@" >/dev/null 2>&1; then missing_packages="$missing_packages $package"; fi
}

need pkg-config     command -v pkg-config
need gcc            command -v cc
need g++            command -v c++
need make           command -v make
need libsqlite3-dev pkg-config --exists sqlite3
need libssl-dev     pkg-config --exists libcrypto
need libpam0g-dev   pkg-config --exists pam
need libpam-wrapper test -e /usr/lib/x86_64-linux-gnu/libpam_wrapper.so -o -e /usr/lib/libpam_wrapper.so -o -n "$(ls /usr/lib/*/libpam_wrapper.so 2>/dev/null)"
need openssl        command -v openssl
need binutils       command -v readelf
need python3        command -v python3
need python3-venv   python3 -c "import venv, ensurepip"

if [ -n "$missing_packages" ]; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        echo "ensure-deps: installing Debian packages:$missing_packages"
        export DEBIAN_FRONTEND=noninteractive
        apt-get update -qq
        # shellcheck disable=SC2086
        apt-get install -y -qq $missing_packages
    else
        echo "ensure-deps: missing Debian packages:$missing_packages" >&2
        echo "ensure-deps: install them as root: apt-get install$missing_packages" >&2
        exit 1
    fi
fi

# What the packaging tests use (make deb, lintian, the shells that load the completions, man):
# installed as root; without root the tests that need them skip, saying so.
optional=""
want() { # want PACKAGE CHECK...
    package=$1; shift
    if ! "$@" >/dev/null 2>&1; then optional="$optional $package"; fi
}
want dpkg-dev                 command -v dpkg-buildpackage
want debhelper                command -v dh
want dh-python                command -v dh_python3
want pybuild-plugin-pyproject test -e /usr/share/doc/pybuild-plugin-pyproject
want python3-all              test -e /usr/share/doc/python3-all
want lintian                  command -v lintian
want fakeroot                 command -v fakeroot
want man-db                   command -v man
want zsh                      command -v zsh
want fish                     command -v fish
if [ -n "$optional" ]; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        echo "ensure-deps: installing Debian packages for the packaging tests:$optional"
        export DEBIAN_FRONTEND=noninteractive
        apt-get update -qq
        # shellcheck disable=SC2086
        apt-get install -y -qq --no-install-recommends $optional
    else
        echo "ensure-deps: the packaging tests that need$optional will skip (as root: apt-get install$optional)" >&2
    fi
fi

if ! "$python" -c "import pytest" >/dev/null 2>&1; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        # Debian's package, never pip into the system Python (PEP 668).
        echo "ensure-deps: installing Debian package: python3-pytest"
        export DEBIAN_FRONTEND=noninteractive
        apt-get update -qq
        apt-get install -y -qq python3-pytest
    else
        cat >&2 <<EOM
ensure-deps: pytest is missing for $python. Either, as root:
    apt install python3-pytest
or, without root, in a virtual environment:
    python3 -m venv ~/.venvs/tender-test && ~/.venvs/tender-test/bin/pip install pytest
    make test PYTHON=~/.venvs/tender-test/bin/python
EOM
        exit 1
    fi
fi

# mypy type-checks the Python binding in make test (mypy --strict); without it
# that one check is skipped, saying so, so it is installed only as root.
if ! "$python" -m mypy --version >/dev/null 2>&1 && ! /usr/bin/python3 -m mypy --version >/dev/null 2>&1; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        echo "ensure-deps: installing Debian package: python3-mypy"
        export DEBIAN_FRONTEND=noninteractive
        apt-get update -qq
        apt-get install -y -qq python3-mypy
    else
        echo "ensure-deps: mypy is missing: make test will skip type-checking the Python binding (as root: apt install python3-mypy)" >&2
    fi
fi

swift_bin=$(command -v swift 2>/dev/null || echo /opt/swift/usr/bin/swift)
if [ ! -x "$swift_bin" ]; then
    echo "ensure-deps: Swift 6.3 is required (swift on PATH or /opt/swift/usr/bin/swift); see https://swift.org/install" >&2
    exit 1
fi
