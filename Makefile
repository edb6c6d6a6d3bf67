# One command each for users, contributors and CI. `make run` and `make test` install
# what they need first (Debian packages through apt-get; idempotent and quick when present).
SWIFT        ?= swift
DEPS         := libncurses-dev ncurses-term libturbojpeg0-dev libpng-dev libchafa-dev libglib2.0-dev tmux pkg-config
RELEASE_BIN  := .build/release
ARGS         ?=

.PHONY: deps build run test bench bench-ticks bench-diff bench-images bench-collection clean

deps:
	@missing=""; for p in $(DEPS); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'install ok installed' || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "make deps: installing$$missing"; \
	  if [ "$$(id -u)" = 0 ]; then sudo=""; else sudo="sudo"; fi; \
	  $$sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y -qq --no-install-recommends $$missing; \
	fi

build: deps
	$(SWIFT) build -c release --product destinations

run: build
	$(RELEASE_BIN)/destinations $(ARGS)

test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

# Benchmarks build in release mode and print their results; BENCHMARKS.md records them.
bench: bench-ticks bench-diff bench-images bench-collection

bench-ticks: deps
	$(SWIFT) build -c release --product destinations-bench
	$(RELEASE_BIN)/destinations-bench ticks

bench-diff: deps
	$(SWIFT) build -c release --product destinations-bench
	$(RELEASE_BIN)/destinations-bench diff --json

# Also compares with the chafa command line, installed here if missing.
bench-images: deps
	@command -v chafa >/dev/null || { echo "make bench-images: installing chafa"; apt-get install -y -qq chafa || { apt-get update -qq && apt-get install -y -qq chafa; }; }
	$(SWIFT) build -c release --product destinations-bench
	$(RELEASE_BIN)/destinations-bench images --json

bench-collection: deps
	$(SWIFT) build -c release --product destinations-bench
	$(RELEASE_BIN)/destinations-bench collection --json

clean:
	rm -rf .build
