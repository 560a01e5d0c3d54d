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

# The whole test suite, stage by stage (tools/test-stages.sh: build once; unit and integration tests with real
# espeak-ng and ALSA; the real-time tests alone; every scenario script). Every stage runs even after one fails;
# a table of results and durations ends the run, and the status is non-zero when any stage failed.
test: deps
	SWIFT=$(SWIFT) BUILD_DIR=$(BUILD_DIR) tools/test-stages.sh

clean:
	rm -rf $(BUILD_DIR)

# Regenerates Samples/: every script rendered to WAV with its transcript, each in a fresh process (the test
# suite fails when Samples/ is out of date).
.PHONY: samples
samples: release
	$(EARSHOT) samples
