# One command each for users, contributors and CI. `make run` and `make test` install
# what they need first (Debian packages through apt-get; idempotent and quick when present).
SWIFT        ?= swift
DEPS         := libncurses-dev ncurses-term libturbojpeg0-dev libpng-dev libwebp-dev libgif-dev libchafa-dev libglib2.0-dev libsqlite3-dev tmux pkg-config
# The end-to-end tests' terminals under Xvfb, and screenshots: xterm emulating a VT340
# (sixel), and Debian's kitty (kitty graphics by direct placement; software OpenGL).
E2E_DEPS     := xterm xvfb x11-apps netpbm xfonts-base xdotool kitty libgl1-mesa-dri fonts-dejavu-core nginx-light
RELEASE_BIN  := .build/release
# Every release build here links the Swift runtime statically (the installed programs need
# Debian's libraries only, D-076), and all use the same flags: a build with other flags would
# compile the whole graph again in the same folder.
RELEASE      := $(SWIFT) build -c release --static-swift-stdlib
PREFIX       ?= /usr/local
DESTDIR      ?=
ARGS         ?=

.PHONY: deps deps-e2e install-packages build run feed man install uninstall deb test-deb test test-steps examples examples-screenshots docs docs-serve check-docs api-breaks test-sixel test-kitty test-feed tsan fuzz soak soak-feed bench bench-feed bench-ticks bench-diff bench-images bench-collection clean

deps:
	@$(MAKE) --no-print-directory install-packages PACKAGES="$(DEPS)"

deps-e2e:
	@$(MAKE) --no-print-directory install-packages PACKAGES="$(E2E_DEPS)"

install-packages:
	@missing=""; for p in $(PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'install ok installed' || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "make deps: installing$$missing"; \
	  if [ "$$(id -u)" = 0 ]; then sudo=""; else sudo="sudo"; fi; \
	  $$sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y -qq --no-install-recommends $$missing; \
	fi

build: deps
	$(RELEASE) --product destinations

run: build
	$(RELEASE_BIN)/destinations $(ARGS)

# A feed to browse on loopback (the bundled posts as a Mastodon timeline); FEED_ARGS shapes
# it (--latency 80 --bandwidth 2000 --fail-rate 0.1 …). Browse it with
#   make run ARGS="--feed http://127.0.0.1:8080/api/v1/timelines/public"
FEED_ARGS ?=
feed: deps
	$(RELEASE) --product destinations-feed
	$(RELEASE_BIN)/destinations-feed $(FEED_ARGS)

# Installing like a Unix program (issue 47): the programs, their manual pages (written from
# the argument definitions by swift-argument-parser's generate-manual), bash, zsh and fish
# completions (the programs write them) and the bundled posts, under PREFIX (DESTDIR for a
# staging root). `make uninstall` removes exactly that.
man: build
	$(RELEASE) --product destinations-feed
	$(RELEASE) --product generate-manual
	python3 scripts/manual.py $(RELEASE_BIN) .build/man

# Built first, as whoever runs it (nothing is compiled when the build is current); under sudo
# it only copies what `make man` built, so that no build runs as root and leaves root's files
# in .build: `make man && sudo make install`.
INSTALLED := $(RELEASE_BIN)/destinations $(RELEASE_BIN)/destinations-feed .build/man/destinations.1 .build/man/destinations-feed.1
install:
	@if [ -n "$$SUDO_USER" ]; then \
	  for f in $(INSTALLED); do [ -e $$f ] || missing="$$missing $$f"; done; \
	  if [ -n "$$missing" ]; then echo "make install: not built yet:$$missing; run make man as yourself first, then sudo make install"; exit 1; fi; \
	else $(MAKE) --no-print-directory man; fi
	python3 scripts/install_tree.py install --prefix "$(PREFIX)" --root "$(DESTDIR)"

uninstall:
	python3 scripts/install_tree.py uninstall --prefix "$(PREFIX)" --root "$(DESTDIR)"

# A Debian package of the app (static Swift runtime; Debian's libraries as its dependencies, found by
# dpkg-shlibdeps), and its test: installed with apt into a clean Debian 12 root made by
# mmdebstrap from Debian's packages, with no Swift in it (scripts/deb_e2e.py; part of make test).
deb: build
	@$(MAKE) --no-print-directory install-packages PACKAGES="dpkg-dev fakeroot"
	$(RELEASE) --product generate-manual
	python3 scripts/manual.py $(RELEASE_BIN) .build/man destinations
	python3 scripts/make_deb.py --bin $(RELEASE_BIN) --man .build/man --out .build

test-deb: deb
	@$(MAKE) --no-print-directory install-packages PACKAGES="mmdebstrap"
	python3 scripts/deb_e2e.py .build/destinations.deb

# Every test and script makes its files under TMPDIR: one folder per run, removed when the
# run passes (kept, and named, when it fails).
test: deps
	@dir=$$(mktemp -d /tmp/destinations-test.XXXXXX); status=0; \
	  TMPDIR=$$dir $(MAKE) --no-print-directory test-steps || status=$$?; \
	  if [ $$status = 0 ]; then rm -rf $$dir; else echo "make test: failed; its files are in $$dir"; fi; exit $$status

test-steps:
	@$(MAKE) --no-print-directory deps-e2e || echo "make test: could not install the sixel test's terminal ($(E2E_DEPS))"
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build --skip FeedTests
	@# The feed's tests run an HTTP server and client on Swift's cooperative pool (two threads
	@# here); beside the end-to-end suites, which block pool threads while tmux runs, the
	@# server once took over a minute to start. They run on their own.
	$(SWIFT) test --skip-build --filter FeedTests
	@status=0; python3 scripts/sixel_e2e.py .build/debug/destinations --feed-server .build/debug/destinations-feed || status=$$?; \
	  if [ $$status = 2 ]; then echo "make test: SKIPPED the sixel end-to-end test: its terminal is not installed"; \
	  elif [ $$status != 0 ]; then exit $$status; fi
	@status=0; python3 scripts/kitty_e2e.py .build/debug/destinations --feed-server .build/debug/destinations-feed || status=$$?; \
	  if [ $$status = 2 ]; then echo "make test: SKIPPED the kitty end-to-end test: its terminal is not installed"; \
	  elif [ $$status != 0 ]; then exit $$status; fi
	python3 scripts/feed_e2e.py .build/debug/destinations .build/debug/destinations-feed
	python3 scripts/fediverse_e2e.py .build/debug/destinations .build/debug/destinations-feed
	@$(MAKE) --no-print-directory examples
	@# A package that adds the toolkit by git URL resolves swift-collections and nothing else.
	python3 scripts/check_dependents.py
	@$(MAKE) --no-print-directory docs
	@# The main-thread types cannot reach another thread: files the compiler must refuse.
	python3 scripts/check_isolation.py
	@# The Debian package on a clean Debian 12 root; its release build is make run's. Making a
	@# root and chrooting into it needs root: as anyone else, the release build only.
	@if [ "$$(id -u)" = 0 ]; then $(MAKE) --no-print-directory test-deb; \
	  else echo "make test: SKIPPED the .deb on a clean Debian 12 root: mmdebstrap and chroot need root (sudo make test-deb)"; $(MAKE) --no-print-directory build; fi
	@out=$$($(RELEASE) --product destinations 2>&1) || { echo "$$out" | tail -20; exit 1; }; \
	  if echo "$$out" | grep -q "Compiling"; then echo "make test: FAIL: make run after make test compiles again:"; echo "$$out" | grep Compiling | head -5; exit 1; fi; \
	  echo "make test: make run after make test compiles nothing"

# The examples (Examples/: an outside package that depends on the toolkit by path) build,
# and each runs in tmux, shows what it should and quits cleanly (scripts/examples_e2e.py).
examples: deps
	cd Examples && $(SWIFT) build
	python3 scripts/examples_e2e.py Examples/.build/debug

# DocC for the library products (swift-docc-plugin), warnings as errors, as one static site
# with a landing page for all seven (.build/docs; `make docs-serve` serves it on loopback);
# then every public symbol of them must have a doc comment, and the site must serve every
# product's page (scripts/check_docs.py).
DOC_TARGETS := CoreKit CellCanvas RenderLoop DiffableData CollectionKit ImagePipeline TerminalFront
docs: deps
	$(SWIFT) package --disable-sandbox generate-documentation $(foreach t,$(DOC_TARGETS),--target $(t)) --warnings-as-errors \
	  --enable-experimental-combined-documentation --output-path .build/docs
	@$(MAKE) --no-print-directory check-docs

# The site in a browser: DocC's pages load their data over HTTP, not from file:// URLs.
DOCS_PORT ?= 8000
docs-serve: docs
	@echo "make docs-serve: http://127.0.0.1:$(DOCS_PORT)/documentation/ (Ctrl-C stops it)"
	python3 -m http.server --bind 127.0.0.1 --directory .build/docs $(DOCS_PORT)

check-docs: deps
	python3 scripts/check_docs.py

# Every library product's source-breaking changes since a release tag, from SwiftPM's API
# digester (it builds the tag in a folder of its own): what the CHANGELOG's list of breaking
# changes, product by product, is checked against before a release (D-075). Not part of CI.
BASELINE ?= 0.17.0
api-breaks: deps
	$(SWIFT) package diagnose-api-breaking-changes $(BASELINE) --products $(DOC_TARGETS) FeedFormat

# Screenshots of the examples from real runs in xterm under Xvfb (Examples/*/screenshot.png).
examples-screenshots: deps deps-e2e
	cd Examples && $(SWIFT) build -c release
	python3 scripts/example_screenshots.py Examples/.build/release

# The app over a real network: destinations-feed on loopback, headless and in tmux
# (scripts/feed_e2e.py; also part of `make test`).
test-feed: deps
	$(SWIFT) build
	python3 scripts/feed_e2e.py .build/debug/destinations .build/debug/destinations-feed

# The grid in xterm -ti vt340 under Xvfb: photo pixels on screen, and where they go after a
# scroll (scripts/sixel_e2e.py; also part of `make test`).
test-sixel: deps-e2e
	$(SWIFT) build --product destinations
	python3 scripts/sixel_e2e.py .build/debug/destinations --feed-server .build/debug/destinations-feed

# The grid in Debian's kitty (0.26.5, no Unicode placeholders) under Xvfb: direct placements,
# photo pixels before and after a scroll and a fling, none left after quitting
# (scripts/kitty_e2e.py; also part of `make test`).
test-kitty: deps-e2e
	$(SWIFT) build --product destinations
	python3 scripts/kitty_e2e.py .build/debug/destinations --feed-server .build/debug/destinations-feed

# The threaded parts of the tests, and one headless fling of the app, under ThreadSanitizer
# (its own build folder). Any report fails the target.
TSAN_BUILD := .build-tsan
TSAN_TESTS := ^(CoreKitTests|ImagePipelineTests|CollectionKitTests|RenderLoopTests|DiffableDataTests|DestinationsModelTests|HTTPCacheTests|SavedStateTests|TerminalFrontTests\.TerminalWriterTests)[./]
# The feed's tests (a server and client on the two-thread cooperative pool) run on their own,
# as in `make test`: beside the long CPU-bound tests, slower still under TSan, the pool was
# once taken for a minute and four servers gave up starting. And one at a time: all 49 at
# once under TSan (a server, a client and their threads each) took 195-217 s here and twice
# ran past a 20-s bound (a first page, a redirect) on a quiet machine; one at a time, 153 s
# and none near it (AMD EPYC, 2 cores, 2026-11-29).
TSAN_FEED_TESTS := ^FeedTests[./]
# Tests that run on one thread, where TSan has nothing to find, and whose work it slows ten
# times over: the cache's 4,000 writes (65 s under TSan), the decoder's 3,000 mutated files
# (49 s) and the million-item snapshots. They ran one after another on the test pool's two
# threads, the longest part of the run; `make test` runs them all.
TSAN_SKIP := fourThousandPhotosThroughAnEightMegabyteCap|everyByteFlippedFailsOrDecodesButNeverTraps|aMillionItemSnapshotAnswersEveryQueryFromTheFlatLayout|everyPostInOrderIsComputedAndAFilteredResultIsStored|aMillionToThreeAndBackKeepsTheCellsOfItemsThatStay|liveCellsStayBoundedAndNeverShowTwoItemsOverAMillionRows
# Reports that are not races (each explained in the file) are suppressed by name; every
# report TSan makes is printed whole (from its WARNING to its SUMMARY).
tsan: export TSAN_OPTIONS := suppressions=$(CURDIR)/scripts/tsan-suppressions.txt:print_suppressions=1
# A crash under TSan fails at once: Swift's backtracer cannot fork a helper there and hangs.
tsan: export SWIFT_BACKTRACE := enable=no
TSAN_REPORTS := awk '/WARNING: ThreadSanitizer/,/SUMMARY: ThreadSanitizer/'
# Only what the runs below use: the tests, the two programs and the cache's kill test (make
# test has built everything else already; the benchmark and the fuzz stubs cost links here).
TSAN_PRODUCTS := destinationsPackageTests destinations destinations-feed cache-torture
tsan: deps
	@for product in $(TSAN_PRODUCTS); do $(SWIFT) build --sanitize=thread --build-path $(TSAN_BUILD) --product $$product || exit 1; done
	@status=0; $(SWIFT) test --skip-build --sanitize=thread --build-path $(TSAN_BUILD) --filter '$(TSAN_TESTS)' --skip '$(TSAN_SKIP)' > $(TSAN_BUILD)/tsan-tests.log 2>&1 || status=$$?; \
	  grep -E -A3 "Test run with|ThreadSanitizer: Matched" $(TSAN_BUILD)/tsan-tests.log; $(TSAN_REPORTS) $(TSAN_BUILD)/tsan-tests.log; \
	  if [ $$status != 0 ]; then tail -n 60 $(TSAN_BUILD)/tsan-tests.log; exit $$status; fi
	@status=0; $(SWIFT) test --skip-build --sanitize=thread --build-path $(TSAN_BUILD) --no-parallel --filter '$(TSAN_FEED_TESTS)' > $(TSAN_BUILD)/tsan-feed-tests.log 2>&1 || status=$$?; \
	  grep -E -A3 "Test run with|ThreadSanitizer: Matched" $(TSAN_BUILD)/tsan-feed-tests.log; $(TSAN_REPORTS) $(TSAN_BUILD)/tsan-feed-tests.log; \
	  if [ $$status != 0 ]; then tail -n 60 $(TSAN_BUILD)/tsan-feed-tests.log; exit $$status; fi
	@status=0; $(TSAN_BUILD)/debug/destinations --scenario fling --duration 2 --posts 10000 --refresh-rate 120 --report text > $(TSAN_BUILD)/tsan-app.log 2>&1 || status=$$?; \
	  cat $(TSAN_BUILD)/tsan-app.log; [ $$status = 0 ] || exit $$status
	@status=0; $(TSAN_BUILD)/debug/destinations --scenario search --duration 3 --posts 100000 --refresh-rate 120 --report text > $(TSAN_BUILD)/tsan-search.log 2>&1 || status=$$?; \
	  cat $(TSAN_BUILD)/tsan-search.log; [ $$status = 0 ] || exit $$status
	@status=0; python3 scripts/feed_run.py --server $(TSAN_BUILD)/debug/destinations-feed --server-args "--posts 2000 --latency 40" -- \
	  $(TSAN_BUILD)/debug/destinations --scenario fling --duration 3 --refresh-rate 120 --report text > $(TSAN_BUILD)/tsan-feed.log 2>&1 || status=$$?; \
	  cat $(TSAN_BUILD)/tsan-feed.log; [ $$status = 0 ] || exit $$status
	@if grep -q "WARNING: ThreadSanitizer" $(TSAN_BUILD)/tsan-tests.log $(TSAN_BUILD)/tsan-feed-tests.log $(TSAN_BUILD)/tsan-app.log $(TSAN_BUILD)/tsan-search.log $(TSAN_BUILD)/tsan-feed.log; then echo "make tsan: data races reported (above)"; exit 1; fi
	@echo "make tsan: no data race reported"

# Benchmarks build in release mode and print their results; BENCHMARKS.md records them.
bench: bench-ticks bench-diff bench-images bench-collection

bench-ticks: deps
	$(RELEASE) --product destinations-bench
	$(RELEASE_BIN)/destinations-bench ticks

bench-diff: deps
	$(RELEASE) --product destinations-bench
	$(RELEASE_BIN)/destinations-bench diff --json

# Also compares with the chafa command line, installed here if missing.
bench-images: deps
	@command -v chafa >/dev/null || { echo "make bench-images: installing chafa"; apt-get install -y -qq chafa || { apt-get update -qq && apt-get install -y -qq chafa; }; }
	$(RELEASE) --product destinations-bench
	$(RELEASE_BIN)/destinations-bench images --json

bench-collection: deps
	$(RELEASE) --product destinations-bench
	$(RELEASE_BIN)/destinations-bench collection --json

# A fling over destinations-feed on loopback, 5 seeds (issue 25's targets; not part of CI:
# the first run makes 10,000 previews, minutes). FEED_BENCH_ARGS: --stress 2, --runs 10 …
FEED_BENCH_ARGS ?=
bench-feed: deps
	$(RELEASE)
	python3 scripts/feed_bench.py $(FEED_BENCH_ARGS)

clean:
	rm -rf .build $(TSAN_BUILD)

# libFuzzer over the photo decoders, EXIF parsing, the catalogue loader and the feed's parsers, FUZZ_S seconds
# each (not part of CI): built with -sanitize=fuzzer,address into its own folder.
FUZZ_S ?= 60
fuzz: deps
	@for target in images exif catalogue feed; do \
	  $(SWIFT) build -c release --build-path .build-fuzz -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING \
	    -Xswiftc -parse-as-library --product fuzz-$$target 2>&1 | grep -v "Cannot export local symbol" || exit 1; \
	done
	python3 scripts/fuzz.py $(FUZZ_S)

# A long run as a restless user drives it (not part of CI): SOAK_S seconds in tmux over a
# million posts plus a hostile photo folder; RSS and hitches each second into .build/soak.csv.
SOAK_S ?= 600
soak: deps
	@# gdb reads the heap in use (the memory gate) and, on a hang, the main thread's stack.
	@$(MAKE) --no-print-directory install-packages PACKAGES="gdb"
	$(RELEASE) --product destinations
	python3 scripts/soak.py --seconds $(SOAK_S)

# A long run over a feed (issue 26): the disk cache's cap at every second, server outages,
# likes that must all reach the server (scripts/feed_soak.py).
soak-feed: deps
	$(RELEASE) --product destinations
	$(RELEASE) --product destinations-feed
	python3 scripts/feed_soak.py --seconds $(SOAK_S)
