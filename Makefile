# SPDX-License-Identifier: Apache-2.0
# Tender: build, test, install.
#   make demo       install missing dependencies, build everything and play the seed scenarios
#   make test       install missing dependencies, build and run every test (Swift, C, Python)
#   make build      build libtender.so and the tender tool into build/ (only when a source changed)
#   make install    install under $(DESTDIR)$(PREFIX) (and the PAM service in $(DESTDIR)$(PAMDIR)):
#                   copies files only: no dependency installation, no network, no rebuild when
#                   build/ is current; make uninstall removes it
# Only demo and test install dependencies (scripts/ensure-deps.sh).

VERSION      := 0.2.0
SOVERSION    := 1
PREFIX       ?= /usr/local
LIBDIR       ?= $(PREFIX)/lib
INCLUDEDIR   ?= $(PREFIX)/include
BINDIR       ?= $(PREFIX)/bin
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig
PAMDIR       ?= /etc/pam.d

SWIFT  ?= $(shell command -v swift 2>/dev/null || echo /opt/swift/usr/bin/swift)
PYTHON ?= python3
export PYTHON
BUILD  := $(CURDIR)/build
SCRATCH := $(CURDIR)/.build
export TMPDIR := $(CURDIR)/.build-tmp

# libtender.so carries its own Swift runtime: no /opt/swift at run time.
RELEASE_FLAGS := -c release --scratch-path $(SCRATCH) \
	-Xswiftc -static-stdlib -Xswiftc -no-toolchain-stdlib-rpath

LIBFILE := libtender.so.$(VERSION)
SONAME  := libtender.so.$(SOVERSION)

.PHONY: all deps build demo test test-swift test-leaks test-c test-python check-library check-errors check-spdx errors install uninstall clean measure model

all: build

deps:
	@scripts/ensure-deps.sh

$(TMPDIR):
	@mkdir -p $@

# What the products are built from: they are rebuilt only when one of these is newer.
SOURCES := Package.swift $(wildcard Package.resolved) $(shell find Sources include -type f 2>/dev/null)

build: $(BUILD)/lib/$(LIBFILE) $(BUILD)/bin/tender

$(BUILD)/lib/$(LIBFILE): $(SOURCES) | $(TMPDIR)
	$(SWIFT) build $(RELEASE_FLAGS) --product tender
	@mkdir -p $(BUILD)/lib
	cp -f $(SCRATCH)/release/libtender.so $(BUILD)/lib/$(LIBFILE).new
	mv -f $(BUILD)/lib/$(LIBFILE).new $(BUILD)/lib/$(LIBFILE)
	ln -sf $(LIBFILE) $(BUILD)/lib/$(SONAME)
	ln -sf $(SONAME) $(BUILD)/lib/libtender.so

$(BUILD)/bin/tender: $(SOURCES) | $(TMPDIR)
	$(SWIFT) build $(RELEASE_FLAGS) --product tender-cli
	@mkdir -p $(BUILD)/bin
	cp -f $(SCRATCH)/release/tender-cli $(BUILD)/bin/tender.new
	mv -f $(BUILD)/bin/tender.new $(BUILD)/bin/tender

demo: deps
	$(MAKE) build
	$(BUILD)/bin/tender demo

test: deps
	$(MAKE) build
	$(MAKE) check-errors check-spdx test-swift test-leaks check-library test-c test-python
	@echo "all tests passed"

test-swift: | $(TMPDIR)
	$(SWIFT) test --scratch-path $(CURDIR)/.build-test

# The Swift suites again, built with AddressSanitizer: any leak outside the test runner fails.
test-leaks: | $(TMPDIR)
	scripts/sanitizers/leaks.sh

# The result codes live in one table (scripts/errors.py); tender.h, the Swift mapping and the
# Python exceptions derive from it. make errors regenerates them, check-errors fails when they drift.
errors:
	$(PYTHON) scripts/errors.py --write

check-errors:
	$(PYTHON) scripts/errors.py --check

# Every source file carries its SPDX license line (scripts/spdx.sh --add adds missing ones).
check-spdx:
	scripts/spdx.sh --check

check-library: build
	scripts/check-library.sh $(BUILD)/lib/$(LIBFILE)

test-c: build
	scripts/test-c.sh

test-python: build
	scripts/test-python.sh

# Copies what build/ holds; make builds first only what is missing or older than a source.
install: $(BUILD)/lib/$(LIBFILE) $(BUILD)/bin/tender
	install -d $(DESTDIR)$(LIBDIR) $(DESTDIR)$(INCLUDEDIR) $(DESTDIR)$(BINDIR) $(DESTDIR)$(PKGCONFIGDIR)
	install -m 0755 -s $(BUILD)/lib/$(LIBFILE) $(DESTDIR)$(LIBDIR)/$(LIBFILE)
	ln -sf $(LIBFILE) $(DESTDIR)$(LIBDIR)/$(SONAME)
	ln -sf $(SONAME) $(DESTDIR)$(LIBDIR)/libtender.so
	install -m 0644 include/tender.h $(DESTDIR)$(INCLUDEDIR)/tender.h
	install -m 0755 -s $(BUILD)/bin/tender $(DESTDIR)$(BINDIR)/tender
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(LIBDIR)|' -e 's|@INCLUDEDIR@|$(INCLUDEDIR)|' \
	    -e 's|@VERSION@|$(VERSION)|' pkgconfig/tender.pc.in > $(DESTDIR)$(PKGCONFIGDIR)/tender.pc
	chmod 0644 $(DESTDIR)$(PKGCONFIGDIR)/tender.pc
	install -d $(DESTDIR)$(PAMDIR)
	install -m 0644 pam/tender $(DESTDIR)$(PAMDIR)/tender
	@if [ -z "$(DESTDIR)" ] && [ "$$(id -u)" = 0 ] && command -v ldconfig >/dev/null; then ldconfig; fi

uninstall:
	rm -f $(DESTDIR)$(LIBDIR)/$(LIBFILE) $(DESTDIR)$(LIBDIR)/$(SONAME) $(DESTDIR)$(LIBDIR)/libtender.so
	rm -f $(DESTDIR)$(INCLUDEDIR)/tender.h $(DESTDIR)$(BINDIR)/tender $(DESTDIR)$(PKGCONFIGDIR)/tender.pc
	rm -f $(DESTDIR)$(PAMDIR)/tender

clean:
	rm -rf $(BUILD) $(SCRATCH) $(CURDIR)/.build-test $(CURDIR)/.build-asan $(TMPDIR)

# Figures for the release note: library size, load time against libcrypto, resident memory.
measure: build
	@mkdir -p $(BUILD)/measure
	cc -std=c99 -O2 benchmarks/load.c -ldl -o $(BUILD)/measure/load
	@scripts/check-library.sh $(BUILD)/lib/$(LIBFILE) | grep size
	$(BUILD)/measure/load $(BUILD)/lib/$(LIBFILE) $(BUILD)/measure/home

# Retrain the understanding models (docs/understanding.md): pinned packages in a virtual environment,
# the generated data, then the weights as C data; rebuild afterwards. MODEL_FLAGS=--cv adds cross-validation.
MODEL_VENV := $(BUILD)/model-venv
model: build
	@test -x $(MODEL_VENV)/bin/python || $(PYTHON) -m venv $(MODEL_VENV)
	$(MODEL_VENV)/bin/python -m pip install --quiet --disable-pip-version-check -r scripts/requirements-model.txt
	$(MODEL_VENV)/bin/python scripts/generate-understanding-data.py
	$(MODEL_VENV)/bin/python scripts/train-understanding-model.py --tender $(BUILD)/bin/tender $(MODEL_FLAGS)
	$(MAKE) build
