# Chime: `make run` serves, `make test` runs every test. Both install what is missing first.
SWIFT ?= swift
SOCKET ?=
DATA_DIR ?=
RUN_FLAGS := $(if $(SOCKET),--socket $(SOCKET)) $(if $(DATA_DIR),--data-dir $(DATA_DIR))

.PHONY: all deps build release run test test-swift test-clients proto proto-check bench fuzz clean

all: build

deps:
	@scripts/install-deps.sh

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release

run: build
	$(SWIFT) run chimed $(RUN_FLAGS)

test: deps proto-check
	$(SWIFT) build --build-tests
	SWIFT=$(SWIFT) scripts/swift-test.sh
	$(MAKE) test-clients

test-clients:
	clients/test.sh

proto:
	scripts/gen-proto.sh
	clients/python/generate.sh

proto-check: deps
	scripts/check-proto.sh

bench: release
	.build/release/chime-bench

# libFuzzer over each media/sound inspector for FUZZ_SECONDS each (not part of `make test`).
FUZZ_SECONDS ?= 60
fuzz: deps
	Fuzz/run.sh $(FUZZ_SECONDS)

clean:
	rm -rf .build

# --- Reliability (crash rounds, soak): not part of `make test`, which runs a short version. ---
ROUNDS ?= 100
SEED ?=
MINUTES ?= 10
.PHONY: test-crash soak
# chimed SIGKILLed under load ROUNDS times, the promises checked after each restart.
test-crash: deps
	$(SWIFT) build --build-tests
	CHIME_CRASH_ROUNDS=$(ROUNDS) $(if $(SEED),CHIME_CRASH_SEED=$(SEED)) \
		$(SWIFT) test --skip-build --filter CrashRoundTests
