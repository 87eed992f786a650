#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Python tests: install the binding with pip into a fresh virtual
# environment, as a user would, then run pytest and the example.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
work="$root/build/python-test"
rm -rf "$work"
export TMPDIR="${TMPDIR:-$root/.build-tmp}"; mkdir -p "$TMPDIR"
mkdir -p "$work"

echo "== pip install ./python into a virtual environment"
python=${PYTHON:-python3}
"$python" -m venv --system-site-packages "$work/venv"
if ! "$work/venv/bin/python" -c "import pytest" >/dev/null 2>&1; then
    # $PYTHON is itself a virtual environment holding pytest (ensure-deps's advice without root):
    # let the test environment see its site-packages too.
    outer=$("$python" -c "import os, pytest; print(os.path.dirname(os.path.dirname(pytest.__file__)))")
    inner=$("$work/venv/bin/python" -c "import sysconfig; print(sysconfig.get_paths()['purelib'])")
    echo "$outer" > "$inner/outer-pytest.pth"
fi
"$work/venv/bin/python" -m pip install --quiet --disable-pip-version-check "$root/python"
py="$work/venv/bin/python"
cd "$work"   # import the installed package, not the source tree

echo "== the library is found through pkg-config (no TENDER_LIBRARY)"
make -s --no-print-directory -C "$root" install PREFIX="$work/prefix" PAMDIR="$work/prefix/etc/pam.d" >/dev/null
env -u TENDER_LIBRARY PKG_CONFIG_PATH="$work/prefix/lib/pkgconfig" \
    "$py" -c 'import libtender; print("loaded libtender", libtender.version())'

export TENDER_LIBRARY="$root/build/lib/libtender.so.$(make -s --no-print-directory -C "$root" print-soversion)"
export TENDER_CLI="$root/build/bin/tender"
echo "== pytest"
"$py" -m pytest -q -p no:cacheprovider "$root/Tests/python"

echo "== mypy --strict on the binding"
mypy_python=""
for candidate in "$python" /usr/bin/python3; do
    if "$candidate" -m mypy --version >/dev/null 2>&1; then mypy_python=$candidate; break; fi
done
if [ -n "$mypy_python" ]; then
    (cd "$root/python" && "$mypy_python" -m mypy --strict --cache-dir "$work/mypy-cache" libtender)
else
    echo "mypy is not installed: the type check of the binding is skipped (as root: apt install python3-mypy)"
fi

echo "== Python example"
"$py" "$root/examples/send_payment.py" "$work/example-home"
"$py" "$root/examples/many_homes.py" "$work/many-homes" 20 3
echo "Python tests passed"
