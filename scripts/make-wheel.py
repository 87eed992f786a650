#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""make wheel: a Python wheel of the binding with libtender inside the package.

Writes OUT/libtender-VERSION-py3-none-linux_x86_64.whl (the platform tag is the
machine's): the binding's files from python/libtender, the library as
libtender/SONAME (the binding loads that copy first), and the metadata read
from python/pyproject.toml and python/README.md. The wheel format is written
directly (PEP 427, PEP 376 RECORD), so no build backend or network is needed;
files are in name order with a fixed date, so the same inputs give the same wheel.
"""
import argparse
import base64
import hashlib
import os
import platform
import sys
import tomllib
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PYTHON = os.path.join(ROOT, "python")
# 1980-01-01, the earliest date a zip entry holds; SOURCE_DATE_EPOCH overrides it.
DATE = (1980, 1, 1, 0, 0, 0)


def record_hash(data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode("ascii")
    return f"sha256={digest}"


def metadata(project, readme):
    lines = ["Metadata-Version: 2.1", f"Name: {project['name']}", f"Version: {project['version']}",
             f"Summary: {project['description']}", f"Requires-Python: {project['requires-python']}"]
    lines += [f"Classifier: {c}" for c in project.get("classifiers", [])]
    for extra, requirements in project.get("optional-dependencies", {}).items():
        lines.append(f"Provides-Extra: {extra}")
        lines += [f'Requires-Dist: {r}; extra == "{extra}"' for r in requirements]
    lines.append("Description-Content-Type: text/markdown")
    return ("\n".join(lines) + "\n\n" + readme).encode("utf-8")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--library", required=True, help="the built library (build/lib/libtender.so.X.Y.Z)")
    parser.add_argument("--soname", required=True, help="the name the binding loads (libtender.so.N)")
    parser.add_argument("--out", required=True, help="the directory to write the wheel into")
    args = parser.parse_args()

    with open(os.path.join(PYTHON, "pyproject.toml"), "rb") as f:
        project = tomllib.load(f)["project"]
    with open(os.path.join(PYTHON, "README.md"), encoding="utf-8") as f:
        readme = f.read()
    name, version = project["name"], project["version"]
    with open(os.path.join(ROOT, "VERSION"), encoding="utf-8") as f:
        expected = f.read().strip()
    if version != expected:
        sys.exit(f"make wheel: python/pyproject.toml says {version}, VERSION says {expected}: run make build")
    machine = platform.machine()
    if sys.platform != "linux" or machine not in ("x86_64", "aarch64"):
        sys.exit(f"make wheel: builds on Linux x86_64 or aarch64 only, not {sys.platform} {machine}")
    tag = f"py3-none-linux_{machine}"

    files = []  # (archive name, bytes, executable)
    package = os.path.join(PYTHON, name)
    for folder, subfolders, names in os.walk(package):
        subfolders[:] = sorted(d for d in subfolders if d != "__pycache__")
        for entry in sorted(names):
            if entry.endswith(".py") or entry == "py.typed":
                path = os.path.join(folder, entry)
                with open(path, "rb") as f:
                    files.append((f"{name}/{os.path.relpath(path, package)}", f.read(), False))
    with open(args.library, "rb") as f:
        files.append((f"{name}/{args.soname}", f.read(), True))

    dist_info = f"{name}-{version}.dist-info"
    wheel = f"Wheel-Version: 1.0\nGenerator: tender make-wheel\nRoot-Is-Purelib: false\nTag: {tag}\n"
    files.append((f"{dist_info}/METADATA", metadata(project, readme), False))
    files.append((f"{dist_info}/WHEEL", wheel.encode("ascii"), False))
    files.append((f"{dist_info}/top_level.txt", f"{name}\n".encode("ascii"), False))
    record = "".join(f"{n},{record_hash(d)},{len(d)}\n" for n, d, _ in files) + f"{dist_info}/RECORD,,\n"
    files.append((f"{dist_info}/RECORD", record.encode("utf-8"), False))

    date = DATE
    if os.environ.get("SOURCE_DATE_EPOCH"):
        import time
        date = time.gmtime(max(int(os.environ["SOURCE_DATE_EPOCH"]), 315532800))[:6]
    os.makedirs(args.out, exist_ok=True)
    target = os.path.join(args.out, f"{name}-{version}-{tag}.whl")
    with zipfile.ZipFile(target + ".new", "w", compression=zipfile.ZIP_DEFLATED) as whl:
        for archive_name, data, executable in files:
            info = zipfile.ZipInfo(archive_name, date_time=date)
            info.external_attr = (0o100755 if executable else 0o100644) << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            whl.writestr(info, data)
    os.replace(target + ".new", target)
    print(f"make wheel: {target} ({os.path.getsize(target) // 1024} KiB)")


if __name__ == "__main__":
    main()
