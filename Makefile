# Fieldbook: `make run` serves it, `make test` runs every test. Both install what is missing first.
SWIFT ?= swift
TOOLS_DIR ?= $(HOME)/.cache/fieldbook-test-tools
VENV := $(TOOLS_DIR)/venv
RUN_ARGS ?=
PYTEST_ARGS ?= -q

.PHONY: run test deps test-tools build release release-in-background debian-root-in-background unit-tests browser-tests api-tests sync-tests reliability-tests lan-tests install-tests reliability translations benchmark benchmark-map benchmark-export install install-files uninstall deb clean

run: deps release
	.build/release/fieldbook serve $(RUN_ARGS)

# install-tests needs what no other stage does: the release build (a second build of everything) and a Debian 12 root
# (debootstrap: network and disk). Both are made while other stages run rather than one after another: the root from
# the start; the release build from when swift test is done (SwiftPM builds one configuration at a time in .build), at
# the lowest CPU and I/O priority, so that it takes only what the browser, sync, reliability, LAN and API stages, mostly
# waiting on real processes, leave idle. install-tests waits for both. A `make test` stopped early leaves them to
# finish on their own (logs in .build/release-in-background.log and TOOLS_DIR/debian12-root.log).
test: deps test-tools debian-root-in-background build unit-tests release-in-background browser-tests sync-tests \
	reliability-tests lan-tests api-tests install-tests

deps:
	@bash scripts/install-deps.sh

test-tools:
	@FIELDBOOK_TOOLS_DIR=$(TOOLS_DIR) bash scripts/install-test-tools.sh

build:
	$(SWIFT) build

# The Swift runtime is linked in (--static-swift-stdlib), so the installed program needs only Debian's libraries at
# run time, not the toolchain's folder, and searches no folder of its own for them (--disable-local-rpath); its
# relocations are resolved at start and made read-only (-z now, as Debian's hardening asks). The commit is stamped
# in for `fieldbook --version`. A lock is held from the build to the stamp, so that a second `make release` (`make
# test`'s install-tests, while the background one runs) waits for the stamped program rather than stamp it at once.
release:
	@mkdir -p .build
	flock .build/release.lock sh -c '$(SWIFT) build -c release --product fieldbook --static-swift-stdlib \
	  --disable-local-rpath -Xlinker -z -Xlinker now && bash scripts/stamp-commit.sh .build/release/fieldbook'

release-in-background:
	@mkdir -p .build
	@echo "release build started in the background: .build/release-in-background.log"
	@nice -n 19 ionice -c 3 $(MAKE) --no-print-directory release > .build/release-in-background.log 2>&1 < /dev/null &

debian-root-in-background:
	@mkdir -p $(TOOLS_DIR)
	@FIELDBOOK_TOOLS_DIR=$(TOOLS_DIR) nohup bash scripts/debian-root.sh > $(TOOLS_DIR)/debian12-root.log 2>&1 < /dev/null &

unit-tests: build
	FIELDBOOK_BINARY=$(CURDIR)/.build/debug/fieldbook $(SWIFT) test

# check_pages.py covers the record and sync pages; each feature's own pages have a check_<feature>.py beside it,
# which imports its Server, Browser and Checker. Every script runs, BROWSER_JOBS at a time; the stage fails if any of
# them fails.
BROWSER_JOBS ?= 2
browser-tests: build
	@bash scripts/browser-checks.sh $(VENV)/bin/python .build/debug/fieldbook $(BROWSER_JOBS)

# The .pot of every marked text (docs/TRANSLATING.md), and each language's catalog brought up to it (gettext's msgmerge).
translations: build
	mkdir -p translations
	.build/debug/fieldbook translations extract --templates templates --sources Sources --output translations/fieldbook.pot
	@for catalog in translations/*.po; do \
	  [ -f "$$catalog" ] || continue; \
	  msgmerge --quiet --update --backup=none --no-wrap --sort-by-file "$$catalog" translations/fieldbook.pot || exit 1; \
	done

# Fuzzes the JSON API with schemathesis (all checks) against a real server with demo data; a few minutes.
api-tests: deps build
	@FIELDBOOK_TOOLS_DIR=$(TOOLS_DIR) bash scripts/install-test-tools.sh api
	FIELDBOOK_BIN=$(CURDIR)/.build/debug/fieldbook $(VENV)/bin/python -m pytest tests/api $(PYTEST_ARGS)
	FIELDBOOK_TOOLS_DIR=$(TOOLS_DIR) FIELDBOOK_BINARY=$(CURDIR)/.build/debug/fieldbook bash scripts/schemathesis.sh

# Multi-process sync scenarios (hub and nodes as real processes, fault proxy): tests/sync, with pytest. They mostly
# wait on processes and timeouts, and each has its own ports (chosen free), folders and PostgreSQL cluster, so they run
# SYNC_WORKERS at a time (pytest-xdist); those that measure latency (marked latency) then run alone. Either pass may
# select nothing when PYTEST_ARGS narrows the run (pytest's exit 5).
SYNC_WORKERS ?= 4
SYNC_PYTEST := FIELDBOOK_BIN=$(CURDIR)/.build/debug/fieldbook $(VENV)/bin/python -m pytest tests/sync
sync-tests: test-tools build
	$(SYNC_PYTEST) -n $(SYNC_WORKERS) -m "not latency" $(PYTEST_ARGS) || [ $$? -eq 5 ]
	$(SYNC_PYTEST) -m latency $(PYTEST_ARGS) || [ $$? -eq 5 ]

# Reliability with real processes (tests/reliability): role matrix and CSRF from the route tables, malformed requests to
# every route, slow clients, disk full (tmpfs, needs root), kill -9, backup under load, upgrade fixture. Short form here
# (about 45 s); `make reliability` runs the full form (40 kill -9 cycles, the 20 s header deadline, 30 s of load) and prints its figures.
reliability-tests: test-tools build
	FIELDBOOK_BIN=$(CURDIR)/.build/debug/fieldbook $(VENV)/bin/python -m pytest tests/reliability $(PYTEST_ARGS) -rs

# The program as installed (tests/install, as root): the release build's libraries and --version, the Debian package
# installed, started, upgraded and purged in a fresh Debian 12 root (made once with debootstrap and kept in TOOLS_DIR),
# the unit's systemd-analyze rating, the Dockerfile linted and its runtime stage served from such a root. Needs the
# release build and, the first time, Debian's mirror.
install-tests: test-tools release
	FIELDBOOK_TOOLS_DIR=$(TOOLS_DIR) FIELDBOOK_BIN=$(CURDIR)/.build/release/fieldbook $(VENV)/bin/python -m pytest tests/install $(PYTEST_ARGS) -rs

# HTTPS on the LAN between real hosts (tests/lan, as root): network namespaces and a veth link, the server in one, a
# tablet's headless Chromium trusting Fieldbook's own authority in the other; the certificate's renewal and an address
# change. FIELDBOOK_LAN_REQUIRED=1 makes a missing prerequisite fail rather than skip, so CI cannot pass without them.
lan-tests: test-tools build
	FIELDBOOK_LAN_REQUIRED=1 FIELDBOOK_BIN=$(CURDIR)/.build/debug/fieldbook $(VENV)/bin/python -m pytest tests/lan $(PYTEST_ARGS) -rs

reliability: deps test-tools build
	FIELDBOOK_RELIABILITY=full FIELDBOOK_BIN=$(CURDIR)/.build/debug/fieldbook $(VENV)/bin/python -m pytest tests/reliability -q -rs
# The map's GeoJSON for 20,000 venues (release build): prints features, bytes and p50/p95 ms per filter set.
benchmark-map: deps
	bash scripts/benchmark-map.sh

benchmark-export: deps
	bash scripts/benchmark-export.sh

# Installs where Debian expects a locally built program: PREFIX/bin/fieldbook, its templates, static files and basemap in
# PREFIX/share/fieldbook (the program finds them there), and a systemd unit serving /var/lib/fieldbook at boot.
# DESTDIR stages the files elsewhere (packaging, tests) and then creates no user and touches no systemd.
PREFIX ?= /usr/local
DESTDIR ?=
SYSTEMD_DIR ?= /etc/systemd/system
BINARY ?= .build/release/fieldbook
SHARE := $(DESTDIR)$(PREFIX)/share/fieldbook

install: deps release install-files
	@if [ -z "$(DESTDIR)" ]; then \
	  id -u fieldbook >/dev/null 2>&1 || useradd --system --home-dir /var/lib/fieldbook --no-create-home --shell /usr/sbin/nologin fieldbook; \
	  install -d -o fieldbook -g fieldbook -m 750 /var/lib/fieldbook; \
	  if [ -d /run/systemd/system ]; then systemctl daemon-reload; fi; \
	  echo "Installed. Start at boot: systemctl enable --now fieldbook; the setup code: journalctl -u fieldbook"; \
	fi

install-files:
	install -D -m 755 $(BINARY) $(DESTDIR)$(PREFIX)/bin/fieldbook
	rm -rf $(SHARE)/templates $(SHARE)/Public $(SHARE)/translations
	install -d $(SHARE)/translations
	cp -R templates Public README.md $(SHARE)/
	cp translations/*.po $(SHARE)/translations/
	if [ -f tiles/basemap.mbtiles ]; then install -D -m 644 tiles/basemap.mbtiles $(SHARE)/tiles/basemap.mbtiles; fi
	install -d $(DESTDIR)$(SYSTEMD_DIR)
	sed 's|@PREFIX@|$(PREFIX)|g' packaging/fieldbook.service.in > $(DESTDIR)$(SYSTEMD_DIR)/fieldbook.service

# fieldbook_VERSION_amd64.deb in DEB_DIR (the checkout by default), built with debhelper from the release build:
# packaging/debian says what it holds and does. DEB_VERSION names another version (the install tests make a next one).
VERSION := $(shell sed -n 's/.*static let current = "\(.*\)"/\1/p' Sources/App/AppConfiguration.swift)
DEB_VERSION ?= $(VERSION)
DEB_DIR ?= $(CURDIR)

deb: release
	bash scripts/build-deb.sh $(DEB_VERSION) $(BINARY) $(DEB_DIR)

# Leaves the data in /var/lib/fieldbook and the fieldbook user: removing them would lose records.
uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/fieldbook $(DESTDIR)$(SYSTEMD_DIR)/fieldbook.service
	rm -rf $(SHARE)

clean:
	rm -rf .build
