# Earshot's set-up and jobs. Every target installs what it needs first (apt, with sudo when not root),
# and is fast when everything is already there. See README.md.

SWIFT      ?= swift
BUILD_DIR  ?= .build
EARSHOT     = $(BUILD_DIR)/release/earshot
APT_PACKAGES = libespeak-ng-dev espeak-ng libasound2-dev libasound2-plugins pulseaudio pulseaudio-utils \
               sox alsa-utils fonts-noto-color-emoji chromium

.PHONY: deps build release demo test check clean

# Installs the Debian packages Earshot needs; does nothing when they are all present.
deps:
	@missing=""; for p in $(APT_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  if [ "$$(id -u)" -eq 0 ]; then sudo=""; \
	  elif command -v sudo >/dev/null; then sudo="sudo"; \
	  else echo "missing packages and no sudo; as root run: apt-get install -y$$missing" >&2; exit 1; fi; \
	  $$sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y -qq $$missing >/dev/null; \
	fi

build: deps
	$(SWIFT) build --build-path $(BUILD_DIR)

release: deps
	$(SWIFT) build -c release --build-path $(BUILD_DIR) --product earshot

# The main job: hear the announcement-spam pattern, before and after.
demo: release
	@tools/demo.sh $(EARSHOT)

# The whole test suite: unit and integration tests with real espeak-ng and ALSA, then every scenario
# script (each before must fail its checks, each after must pass them).
test: deps
	$(SWIFT) build --build-path $(BUILD_DIR)
	$(SWIFT) test --build-path $(BUILD_DIR) --skip 'Live|Listen'
	@# Real-time playback tests on a paced device, alone: other tests' CPU load would make their timing flaky.
	$(SWIFT) test --build-path $(BUILD_DIR) --skip-build --no-parallel --filter 'Live|Listen'
	$(BUILD_DIR)/debug/earshot check --quiet --expect-variants Scripts/

clean:
	rm -rf $(BUILD_DIR)

# Regenerates Samples/: every script rendered to WAV with its transcript, each in a fresh process (the test
# suite fails when Samples/ is out of date).
.PHONY: samples
samples: release
	$(EARSHOT) samples

# Fuzzing with libFuzzer and AddressSanitizer (tools/fuzz): scenario scripts through parse → run → check, and
# voice files, SECONDS each. The binary is rebuilt when the parser or engine sources change. A crash is saved
# under $(BUILD_DIR)/fuzz/crashes/ and fails the target; fixed crashers go into Tests/FuzzCorpus/.
.PHONY: fuzz fuzz-short
SECONDS ?= 600
FUZZ_DIR = $(BUILD_DIR)/fuzz
FUZZ_SOURCES = $(wildcard Sources/EarshotCore/*.swift Sources/EarshotScript/*.swift tools/fuzz/*.swift)

$(FUZZ_DIR)/fuzz-earshot: $(FUZZ_SOURCES) tools/fuzz/build.sh
	tools/fuzz/build.sh $(FUZZ_DIR)

fuzz: $(FUZZ_DIR)/fuzz-earshot
	tools/fuzz/run.sh $(SECONDS) $(FUZZ_DIR)

# About two minutes (-max_total_time=60 per target), for the test command.
fuzz-short: $(FUZZ_DIR)/fuzz-earshot
	tools/fuzz/run.sh 60 $(FUZZ_DIR)
