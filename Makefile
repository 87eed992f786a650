# SPDX-License-Identifier: Apache-2.0
# Tender: build, test, install, package (`make help` lists every target with one line: the "## " comments).
#   make demo       install what the demo needs and is missing, build everything and play the seed scenarios
#   make test       install what the tests need and is missing, build and run every test (Swift, C, Python, packaging)
#   make build      build libtender.so, the tender tool, its man pages and completions into build/
#                   (only when a source changed)
#   make test-broker  the broker tests (root: throwaway users and a tenderd of their own)
#   make install    install under $(DESTDIR)$(PREFIX) (and the PAM service in $(DESTDIR)$(PAMDIR)):
#                   copies files only: no dependency installation, no network, no rebuild when
#                   build/ is current; make uninstall removes what it wrote
#   make install-pam   the PAM service in /etc/pam.d (as root), for a user prefix's real login
#   make deb        Debian packages into build/deb/ (dpkg-buildpackage, debian/)
#   make wheel      a Python wheel carrying the library into build/wheel/
#   make dist       a versioned source tarball into build/dist/ that builds offline
# Only demo and test install dependencies, each its own list (scripts/ensure-deps.sh demo|test; README.md lists both).

# The version lives in VERSION only; `make build` writes it into tender.h and python/pyproject.toml
# (scripts/sync-version.sh), everything else reads it from there. SOVERSION is the soname's number.
VERSION      := $(strip $(file < $(CURDIR)/VERSION))
SOVERSION    := 1
PREFIX       ?= /usr/local
# /usr and /usr/local keep their configuration in /etc; any other prefix in its own etc.
ifneq ($(filter /usr /usr/ /usr/local /usr/local/,$(PREFIX)),)
SYSCONFDIR   ?= /etc
else
SYSCONFDIR   ?= $(PREFIX)/etc
endif
LIBDIR       ?= $(PREFIX)/lib
INCLUDEDIR   ?= $(PREFIX)/include
BINDIR       ?= $(PREFIX)/bin
SBINDIR      ?= $(PREFIX)/sbin
# tenderd's systemd units, sysusers and tmpfiles entries (docs/broker.md).
SYSTEMDDIR   ?= $(PREFIX)/lib/systemd/system
SYSUSERSDIR  ?= $(PREFIX)/lib/sysusers.d
TMPFILESDIR  ?= $(PREFIX)/lib/tmpfiles.d
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig
PAMDIR       ?= $(SYSCONFDIR)/pam.d
DATADIR      ?= $(PREFIX)/share
MANDIR       ?= $(DATADIR)/man
BASHCOMPDIR  ?= $(DATADIR)/bash-completion/completions
# zsh reads a distribution's completions from vendor-completions, anything else's from site-functions.
ifeq ($(filter /usr /usr/,$(PREFIX)),)
ZSHCOMPDIR   ?= $(DATADIR)/zsh/site-functions
else
ZSHCOMPDIR   ?= $(DATADIR)/zsh/vendor-completions
endif
FISHCOMPDIR  ?= $(DATADIR)/fish/vendor_completions.d
# Where Linux-PAM reads services: the one directory install-pam writes to.
SYSTEM_PAMDIR := /etc/pam.d

SWIFT  ?= $(shell command -v swift 2>/dev/null || echo /opt/swift/usr/bin/swift)
PYTHON ?= python3
export PYTHON
BUILD  := $(CURDIR)/build
SCRATCH := $(CURDIR)/.build
export TMPDIR := $(CURDIR)/.build-tmp

# libtender.so carries its own Swift runtime: no /opt/swift at run time. Every symbol is bound
# at load time (-z now), so the relocations can be read-only all along (full RELRO).
RELEASE_FLAGS := -c release --scratch-path $(SCRATCH) \
	-Xswiftc -static-stdlib -Xswiftc -no-toolchain-stdlib-rpath -Xlinker -z -Xlinker now

LIBFILE := libtender.so.$(VERSION)
SONAME  := libtender.so.$(SOVERSION)

.PHONY: all help deps deps-demo build docs demo test test-swift test-leaks test-c test-python test-packaging test-broker check-library \
	check-errors check-spdx check-model errors install install-pam uninstall uninstall-pam clean measure model deb wheel dist test-deb \
	test-wheel test-dist print-version print-soversion fuzz fuzz-smoke test-faults test-hostile test-crash test-asan test-tsan check-all

all: build ## the same as build

# Every target with its one line (the "## " comment on the target's line).
help: ## this list
	@sed -n 's/^\([a-z][a-z0-9-]*\):.*## \(.*\)$$/\1\t\2/p' $(firstword $(MAKEFILE_LIST)) | expand -t 18

deps: ## install what make test needs and is missing (as root; else name it): scripts/ensure-deps.sh test
	@scripts/ensure-deps.sh test

deps-demo: ## install only what building and running the demo needs and is missing (scripts/ensure-deps.sh demo)
	@scripts/ensure-deps.sh demo

$(TMPDIR):
	@mkdir -p $@

# For scripts and tests: the version and soname number as this Makefile sees them.
print-version: ## print the version (VERSION)
	@echo $(VERSION)
print-soversion: ## print the soname's number
	@echo $(SOVERSION)

# What the products are built from: they are rebuilt only when one of these is newer.
SOURCES := Package.swift $(wildcard Package.resolved) $(shell find Sources include -type f 2>/dev/null)

# The header's version macros and the binding's version follow VERSION.
include/tender.h: VERSION
	scripts/sync-version.sh

# Man pages: one per command, generated from the argument parser (swift-argument-parser's
# generate-manual, built from the package's own dependency, offline), dated by VERSION's last
# commit (its file date in a tarball, where make dist set it to the last commit's).
MAN_DATE = $(shell git log -1 --format=%cs -- VERSION 2>/dev/null | grep . || date -u -r VERSION +%Y-%m-%d)
GENERATE_MANUAL := $(SCRATCH)/debug/generate-manual
COMPLETIONS := $(BUILD)/completions/tender.bash $(BUILD)/completions/_tender $(BUILD)/completions/tender.fish

build: $(BUILD)/lib/$(LIBFILE) $(BUILD)/bin/tender $(BUILD)/bin/tenderd docs ## build libtender.so, build/bin/tender, build/bin/tenderd, the man pages and completions into build/

docs: $(BUILD)/man/tender.1 $(BUILD)/man3/libtender.3 $(BUILD)/man8/tenderd.8 $(COMPLETIONS) ## the man pages and the shell completions only

# The models' binary files (Sources/CTenderModel/*.bin, embedded by models.c) must be the ones their digests name.
MODEL_FILES := $(wildcard Sources/CTenderModel/*.bin) Sources/CTenderModel/models.sha256
check-model: ## check the models' binary files against Sources/CTenderModel/models.sha256 (every build does)
	@cd Sources/CTenderModel && sha256sum --quiet --strict -c models.sha256 || \
		{ echo "Sources/CTenderModel: a model file does not match models.sha256 (retrain with make model)" >&2; exit 1; }

$(BUILD)/lib/$(LIBFILE): $(SOURCES) include/tender.h | $(TMPDIR) check-model
	$(SWIFT) build $(RELEASE_FLAGS) --product tender
	@mkdir -p $(BUILD)/lib
	cp -f $(SCRATCH)/release/libtender.so $(BUILD)/lib/$(LIBFILE).new
	mv -f $(BUILD)/lib/$(LIBFILE).new $(BUILD)/lib/$(LIBFILE)
	ln -sf $(LIBFILE) $(BUILD)/lib/$(SONAME)
	ln -sf $(SONAME) $(BUILD)/lib/libtender.so

$(BUILD)/bin/tender: $(SOURCES) include/tender.h | $(TMPDIR) check-model
	$(SWIFT) build $(RELEASE_FLAGS) --product tender-cli
	@mkdir -p $(BUILD)/bin
	cp -f $(SCRATCH)/release/tender-cli $(BUILD)/bin/tender.new
	mv -f $(BUILD)/bin/tender.new $(BUILD)/bin/tender

# tenderd, the broker (docs/broker.md): an executable of its own, not part of libtender.so.
$(BUILD)/bin/tenderd: $(SOURCES) include/tender.h | $(TMPDIR) check-model
	$(SWIFT) build $(RELEASE_FLAGS) --product tenderd
	@mkdir -p $(BUILD)/bin
	cp -f $(SCRATCH)/release/tenderd $(BUILD)/bin/tenderd.new
	mv -f $(BUILD)/bin/tenderd.new $(BUILD)/bin/tenderd

$(BUILD)/man/tender.1: $(BUILD)/bin/tender VERSION | $(TMPDIR)
	$(SWIFT) build --scratch-path $(SCRATCH) --product generate-manual
	rm -rf $(BUILD)/man.new && mkdir -p $(BUILD)/man.new
	$(GENERATE_MANUAL) $(BUILD)/bin/tender --multi-page --date $(MAN_DATE) --output-directory $(BUILD)/man.new
	for page in $(BUILD)/man.new/*.1; do scripts/fix-manpage.sh $$page $(VERSION); done
	rm -rf $(BUILD)/man && mv $(BUILD)/man.new $(BUILD)/man

$(BUILD)/man3/libtender.3: man/libtender.3.in VERSION
	@mkdir -p $(@D)
	sed -e 's|@VERSION@|$(VERSION)|' -e 's|@DATE@|$(MAN_DATE)|' -e 's|@SONAME@|$(SONAME)|' $< > $@

$(BUILD)/man8/tenderd.8: man/tenderd.8.in VERSION
	@mkdir -p $(@D)
	sed -e 's|@VERSION@|$(VERSION)|' -e 's|@DATE@|$(MAN_DATE)|' $< > $@

$(BUILD)/completions/tender.bash: $(BUILD)/bin/tender
	@mkdir -p $(@D)
	$(BUILD)/bin/tender --generate-completion-script bash | sed '1{/^#!/d}' > $@
$(BUILD)/completions/_tender: $(BUILD)/bin/tender
	@mkdir -p $(@D)
	$(BUILD)/bin/tender --generate-completion-script zsh > $@
$(BUILD)/completions/tender.fish: $(BUILD)/bin/tender
	@mkdir -p $(@D)
	$(BUILD)/bin/tender --generate-completion-script fish > $@

demo: deps-demo ## install what the demo needs, build, and play the seed scenarios (password: demo)
	$(MAKE) $(BUILD)/lib/$(LIBFILE) $(BUILD)/bin/tender
	$(BUILD)/bin/tender demo --intents examples/intents/expense.json --intents examples/intents/round-up.json

# The machine's users, groups, installed packages and /etc are compared at the end with a snapshot taken
# after the dependencies: the tests must leave the machine as they found it (scripts/machine-state.py).
test: deps ## install what the tests need, build, and run every test (about 20 min on 2 cores)
	@mkdir -p $(BUILD) && $(PYTHON) scripts/machine-state.py save $(BUILD)/machine-before.json
	$(MAKE) build
	$(MAKE) check-errors check-spdx test-swift test-leaks check-library test-c test-python test-packaging \
		fuzz-smoke test-faults test-hostile test-broker test-postgres
	$(MAKE) test-crash ROUNDS=3
	$(PYTHON) scripts/machine-state.py compare $(BUILD)/machine-before.json
	@echo "all tests passed"

test-swift: | $(TMPDIR) ## the Swift unit tests (swift test)
	$(SWIFT) test --scratch-path $(CURDIR)/.build-test

# The Swift suites again, built with AddressSanitizer: any leak outside the test runner fails.
test-leaks: | $(TMPDIR) ## the Swift suites under AddressSanitizer, failing on any leak
	scripts/sanitizers/leaks.sh

# Coverage-guided fuzzing (libFuzzer, ASan, UBSan) of every target in Tests/fuzz/targets,
# SECONDS each (docs/testing.md); fuzz-smoke runs each for a few seconds in make test.
SECONDS ?= 60
fuzz: | $(TMPDIR) ## fuzz every target for SECONDS seconds each (default 60)
	scripts/fuzz/run.sh $(SECONDS)

fuzz-smoke: | $(TMPDIR) ## fuzz every target for 3 seconds (part of make test)
	scripts/fuzz/run.sh 3

# SQLite I/O faults and power loss at every call point of a payment, a key rotation,
# a status change and a checkpoint (Tests/faults; the fault VFS is linked into the test only).
test-faults: build | $(TMPDIR) ## SQLite I/O faults and power loss at every call point of a payment
	scripts/test-faults.sh

# Conversation callbacks that cancel, overfill, re-enter or call back; four processes against
# the throttle; symbolic-link and foreign homes (Tests/c/hostile_host.c).
test-hostile: build | $(TMPDIR) ## hostile hosts: cancelling, overfilling, re-entering callbacks; foreign homes
	scripts/test-hostile.sh

# kill -9, ROUNDS times, a process paying from eight threads; every acknowledged payment must be
# in the ledger once with the JWS it was acknowledged with, and verify must pass (Tests/crash).
ROUNDS ?= 30
test-crash: build | $(TMPDIR) ## kill -9 ROUNDS times (default 30) mid-payment; nothing acknowledged is lost
	scripts/test-crash.sh $(ROUNDS)

# AddressSanitizer + UBSan over the library, the C API test and the Python tests (docs/testing.md).
test-asan: build | $(TMPDIR) ## AddressSanitizer and UBSan over the library, the C API test and the Python tests
	scripts/sanitizers/asan.sh

# ThreadSanitizer over the Swift thread suites and eight threads on one engine (Tests/tsan/threads.c).
test-tsan: | $(TMPDIR) ## ThreadSanitizer over the Swift thread suites and eight threads on one engine
	scripts/sanitizers/tsan.sh

# Everything: make test, the sanitizer runs and a one-minute fuzz of every target.
check-all: test ## make test, then test-asan, test-tsan and a minute of fuzzing per target
	$(MAKE) test-asan test-tsan
	$(MAKE) fuzz SECONDS=60

# The result codes live in one table (scripts/errors.py); tender.h, the Swift mapping and the
# Python exceptions derive from it. make errors regenerates them, check-errors fails when they drift.
errors: ## regenerate the result codes from scripts/errors.py
	$(PYTHON) scripts/errors.py --write

check-errors: ## fail when the result codes drift from scripts/errors.py
	$(PYTHON) scripts/errors.py --check

# Every source file carries its SPDX license line (scripts/spdx.sh --add adds missing ones).
check-spdx: ## fail when a source file lacks its SPDX license line
	scripts/spdx.sh --check

check-library: build ## check the library's exports, links, soname and RELRO
	scripts/check-library.sh $(BUILD)/lib/$(LIBFILE) $(SONAME)

test-c: build ## the C tests, built through pkg-config against a DESTDIR install
	scripts/test-c.sh

test-python: build ## the Python tests, with the binding pip-installed into a virtual environment
	scripts/test-python.sh

# The broker as root: throwaway users, a tenderd of their own, a pam_matrix stack (skips, saying why, when not root).
test-broker: build ## the broker tests (root: throwaway users and a tenderd of their own)
	scripts/test-broker.sh

test-postgres: build ## tenderd on PostgreSQL: two daemons on a throwaway cluster (root; skips without postgresql)
	scripts/test-postgres.sh

test-crash-postgres: build | $(TMPDIR) ## two tenderd on one throwaway PostgreSQL, either killed -9 mid-payment ROUNDS times (root)
	$(PYTHON) Tests/postgres/crash_postgres.py --rounds $(ROUNDS)

bench-postgres: build ## payments/s through tenderd on SQLite and PostgreSQL: 1 and 8 submitters, 8 people; against raw libpq (root)
	$(PYTHON) Tests/postgres/bench_postgres.py

# Install, uninstall, man pages, versions, wheel, Debian packages and the source tarball
# (Tests/packaging); the root-only parts skip, saying why, for an ordinary user.
test-packaging: build ## install, uninstall, man pages, versions, wheel, Debian packages (in a throwaway root), tarball
	scripts/test-packaging.sh

# Copies what build/ holds; make builds first only what is missing or older than a source.
# Directories are created when missing and left by uninstall (as automake does): only files are removed.
install: $(BUILD)/lib/$(LIBFILE) $(BUILD)/bin/tender $(BUILD)/bin/tenderd docs ## install under $(DESTDIR)$(PREFIX) (default /usr/local); copies build/ only
	install -d $(DESTDIR)$(LIBDIR) $(DESTDIR)$(INCLUDEDIR) $(DESTDIR)$(BINDIR) $(DESTDIR)$(PKGCONFIGDIR) \
	    $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man3 $(DESTDIR)$(BASHCOMPDIR) $(DESTDIR)$(ZSHCOMPDIR) \
	    $(DESTDIR)$(FISHCOMPDIR) $(DESTDIR)$(PAMDIR) $(DESTDIR)$(SBINDIR) $(DESTDIR)$(SYSTEMDDIR) \
	    $(DESTDIR)$(SYSUSERSDIR) $(DESTDIR)$(TMPFILESDIR) $(DESTDIR)$(MANDIR)/man8
	install -m 0755 -s $(BUILD)/lib/$(LIBFILE) $(DESTDIR)$(LIBDIR)/$(LIBFILE)
	ln -sf $(LIBFILE) $(DESTDIR)$(LIBDIR)/$(SONAME)
	ln -sf $(SONAME) $(DESTDIR)$(LIBDIR)/libtender.so
	install -m 0644 include/tender.h $(DESTDIR)$(INCLUDEDIR)/tender.h
	install -m 0755 -s $(BUILD)/bin/tender $(DESTDIR)$(BINDIR)/tender
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(LIBDIR)|' -e 's|@INCLUDEDIR@|$(INCLUDEDIR)|' \
	    -e 's|@VERSION@|$(VERSION)|' pkgconfig/tender.pc.in > $(DESTDIR)$(PKGCONFIGDIR)/tender.pc
	chmod 0644 $(DESTDIR)$(PKGCONFIGDIR)/tender.pc
	install -m 0644 $(BUILD)/man/*.1 $(DESTDIR)$(MANDIR)/man1/
	install -m 0644 $(BUILD)/man3/libtender.3 $(DESTDIR)$(MANDIR)/man3/libtender.3
	install -m 0644 $(BUILD)/completions/tender.bash $(DESTDIR)$(BASHCOMPDIR)/tender
	install -m 0644 $(BUILD)/completions/_tender $(DESTDIR)$(ZSHCOMPDIR)/_tender
	install -m 0644 $(BUILD)/completions/tender.fish $(DESTDIR)$(FISHCOMPDIR)/tender.fish
	install -m 0644 pam/tender $(DESTDIR)$(PAMDIR)/tender
	install -m 0755 -s $(BUILD)/bin/tenderd $(DESTDIR)$(SBINDIR)/tenderd
	install -m 0644 $(BUILD)/man8/tenderd.8 $(DESTDIR)$(MANDIR)/man8/tenderd.8
	sed 's|/usr/sbin/tenderd|$(SBINDIR)/tenderd|' systemd/tenderd.service > $(DESTDIR)$(SYSTEMDDIR)/tenderd.service
	chmod 0644 $(DESTDIR)$(SYSTEMDDIR)/tenderd.service
	install -m 0644 systemd/tenderd.socket $(DESTDIR)$(SYSTEMDDIR)/tenderd.socket
	install -m 0644 systemd/tender.sysusers $(DESTDIR)$(SYSUSERSDIR)/tender.conf
	install -m 0644 systemd/tender.tmpfiles $(DESTDIR)$(TMPFILESDIR)/tender.conf
	@if [ -z "$(DESTDIR)" ] && [ "$$(id -u)" = 0 ] && command -v ldconfig >/dev/null; then ldconfig; fi
	@if [ -z "$(DESTDIR)" ] && [ "$(PAMDIR)" != "$(SYSTEM_PAMDIR)" ]; then \
	    echo "note: the PAM service went to $(PAMDIR)/tender; real re-authentication needs it in $(SYSTEM_PAMDIR): sudo make install-pam"; fi

uninstall: ## remove every file make install wrote (same variables)
	rm -f $(DESTDIR)$(LIBDIR)/$(LIBFILE) $(DESTDIR)$(LIBDIR)/$(SONAME) $(DESTDIR)$(LIBDIR)/libtender.so
	rm -f $(DESTDIR)$(INCLUDEDIR)/tender.h $(DESTDIR)$(BINDIR)/tender $(DESTDIR)$(PKGCONFIGDIR)/tender.pc
	rm -f $(DESTDIR)$(MANDIR)/man1/tender.1 $(DESTDIR)$(MANDIR)/man1/tender.*.1 $(DESTDIR)$(MANDIR)/man3/libtender.3
	rm -f $(DESTDIR)$(BASHCOMPDIR)/tender $(DESTDIR)$(ZSHCOMPDIR)/_tender $(DESTDIR)$(FISHCOMPDIR)/tender.fish
	rm -f $(DESTDIR)$(PAMDIR)/tender $(DESTDIR)$(SBINDIR)/tenderd $(DESTDIR)$(SYSTEMDDIR)/tenderd.service
	rm -f $(DESTDIR)$(SYSTEMDDIR)/tenderd.socket $(DESTDIR)$(SYSUSERSDIR)/tender.conf $(DESTDIR)$(TMPFILESDIR)/tender.conf
	rm -f $(DESTDIR)$(MANDIR)/man8/tenderd.8

# The PAM service where Linux-PAM reads it, for an install under a user prefix (run as root).
install-pam: ## the PAM service in /etc/pam.d (as root), for a user-prefix install
	install -d $(DESTDIR)$(SYSTEM_PAMDIR)
	install -m 0644 pam/tender $(DESTDIR)$(SYSTEM_PAMDIR)/tender

uninstall-pam: ## remove /etc/pam.d/tender
	rm -f $(DESTDIR)$(SYSTEM_PAMDIR)/tender

# A source tarball of every file git tracks (plus Package.resolved, which pins the dependencies),
# dated by the last commit: build/dist/tender-VERSION.tar.gz. make test-dist builds it offline.
DIST := $(BUILD)/dist/tender-$(VERSION).tar.gz
dist: ## a versioned source tarball that builds offline, into build/dist/
	scripts/make-dist.sh $(VERSION) $(DIST)

test-dist: dist ## build the tarball, then build and test from it offline
	scripts/test-dist.sh $(DIST)

# One part of test-packaging: the Debian packages (make deb, install, build, run, purge), the wheel.
test-deb: build ## only the Debian package tests of test-packaging
	scripts/test-packaging.sh test_deb.py
test-wheel: build ## only the wheel tests of test-packaging
	scripts/test-packaging.sh test_wheel.py

# Debian packages (debian/): build/deb/*.deb, from the tarball's files and what build/ holds.
deb: build dist ## the Debian packages, into build/deb/ (dpkg-buildpackage, lintian)
	scripts/make-deb.sh $(DIST) $(BUILD)

# A Python wheel with the library inside: build/wheel/libtender-VERSION-py3-none-linux_x86_64.whl.
wheel: build ## a Python wheel carrying the library, into build/wheel/
	@mkdir -p $(BUILD)/wheel
	strip --strip-unneeded -o $(BUILD)/wheel/$(SONAME) $(BUILD)/lib/$(LIBFILE)
	$(PYTHON) scripts/make-wheel.py --library $(BUILD)/wheel/$(SONAME) --soname $(SONAME) --out $(BUILD)/wheel

clean: ## remove build/ and every scratch directory
	rm -rf $(BUILD) $(SCRATCH) $(CURDIR)/.build-test $(CURDIR)/.build-asan $(CURDIR)/.build-fuzz $(CURDIR)/.build-tsan $(TMPDIR)

# Figures for the release note: library size, load time against libcrypto, resident memory.
measure: build ## the library's size, load time and resident memory
	@mkdir -p $(BUILD)/measure
	cc -std=c99 -O2 benchmarks/load.c -ldl -o $(BUILD)/measure/load
	@scripts/check-library.sh $(BUILD)/lib/$(LIBFILE) | grep size
	$(BUILD)/measure/load $(BUILD)/lib/$(LIBFILE) $(BUILD)/measure/home

# Retrain the understanding models (docs/understanding.md): pinned packages in a virtual environment,
# the generated data, then the weights as binary files (Sources/CTenderModel/*.bin, their digests in models.sha256);
# rebuild afterwards. The script prints a real-data cross-validation beside a plain baseline; MODEL_FLAGS=--cv adds
# the older one on train.
MODEL_VENV := $(BUILD)/model-venv
model: build ## retrain the understanding models (docs/understanding.md), then rebuild
	@test -x $(MODEL_VENV)/bin/python || $(PYTHON) -m venv $(MODEL_VENV)
	$(MODEL_VENV)/bin/python -m pip install --quiet --disable-pip-version-check -r scripts/requirements-model.txt
	$(MODEL_VENV)/bin/python scripts/generate-understanding-data.py
	$(MODEL_VENV)/bin/python scripts/train-understanding-model.py --tender $(BUILD)/bin/tender $(MODEL_FLAGS)
	$(MAKE) build
