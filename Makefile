# Earshot's set-up and jobs. Every target installs what it needs first (apt, with sudo when not root),
# and is fast when everything is already there. See README.md.

SWIFT      ?= swift
BUILD_DIR  ?= .build
PREFIX     ?= /usr/local
SHARE       = $(DESTDIR)$(PREFIX)/share/earshot
EARSHOT     = $(BUILD_DIR)/release/earshot
APT_PACKAGES = libespeak-ng-dev espeak-ng libasound2-dev libasound2-plugins pulseaudio pulseaudio-utils \
               sox alsa-utils fonts-noto-color-emoji chromium python3-jsonschema speech-dispatcher \
               speech-dispatcher-espeak-ng

.PHONY: deps build build-tests release demo test check clean install install-files uninstall release-all consumer sanitize

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
	@# The tests validate check's JSON and SARIF outputs with Python's jsonschema: Debian's python3-jsonschema
	@# above, or from PyPI when the python3 on PATH is not the system one (pyenv, a virtualenv).
	@python3 -c 'import jsonschema' 2>/dev/null || python3 -m pip install -q jsonschema \
	  || { echo "no jsonschema module for $$(command -v python3); run: python3 -m pip install jsonschema" >&2; exit 1; }

# Every build puts beside its earshot the stand-in for espeak-ng's playback library (tools/playback-stand-in:
# espeak-ng then loads without PulseAudio and ~30 other libraries it never uses in Earshot).
STAND_IN = tools/playback-stand-in/build.sh

build: deps
	$(SWIFT) build --build-path $(BUILD_DIR)
	$(STAND_IN) $(BUILD_DIR)/debug

# The package and its tests in debug, with the stand-in: the test stages' one build.
build-tests: deps
	$(SWIFT) build --build-path $(BUILD_DIR) --build-tests
	$(STAND_IN) $(BUILD_DIR)/debug

# Release builds link the Swift runtime and Foundation into the binary (--static-swift-stdlib): `earshot`
# then starts in about 7 ms instead of 13 (perf stat of `earshot --version`), which every command pays once
# per process. The flag changes linking only; library users' plain `swift build -c release` compiles the same
# code, and the consumer stage builds exactly that. release and release-all share the flag so that neither
# rebuilds what the other built.
#
# They also ask the compiler for direct metadata accessors (-disable-concrete-type-metadata-mangled-name-accessors).
# By default, the first use of a generic type such as Set<VoiceProfile> or [TimerID: …] in a process builds its
# metadata from a mangled name, and checking the name's Hashable requirement scans every protocol conformance of
# the binary (tens of thousands, Foundation's included). A render paid about 3 % of its CPU time in those scans,
# every process anew; with the flag the compiler passes the conformances it already knows. Measured with the
# shipped scripts' cold renders, alternated with a build without it: 2.4 % less CPU (median of six rounds of 24).
# Code, output and library users' builds are otherwise the same.
RELEASE_FLAGS = -c release --static-swift-stdlib \
                -Xswiftc -Xfrontend -Xswiftc -disable-concrete-type-metadata-mangled-name-accessors

release: deps
	$(SWIFT) build $(RELEASE_FLAGS) --build-path $(BUILD_DIR) --product earshot
	$(STAND_IN) $(BUILD_DIR)/release

# Every product of the package in release (the libraries too, not just the CLI), then the release CLI on every
# script, as the debug one is in the scripts stage.
release-all: deps
	$(SWIFT) build $(RELEASE_FLAGS) --build-path $(BUILD_DIR)
	$(STAND_IN) $(BUILD_DIR)/release
	$(EARSHOT) check --quiet --expect-variants Scripts/

# A package outside Earshot (Examples/ConsumerPackage) that depends on it by path and tests a screen with
# EarshotTesting and the real espeak-ng, built and tested in debug and in release. Its build folder lives
# in ours and is reused, so repeated runs only rebuild what changed.
CONSUMER_DIR = Examples/ConsumerPackage
consumer: deps
	$(SWIFT) test --package-path $(CONSUMER_DIR) --scratch-path $(abspath $(BUILD_DIR))/consumer
	$(SWIFT) test -c release --package-path $(CONSUMER_DIR) --scratch-path $(abspath $(BUILD_DIR))/consumer

# The suite under AddressSanitizer (with LeakSanitizer), then ThreadSanitizer, each in its own build
# folder; the earshot processes the tests start are sanitized too. Skipped: the real-time Live/Listen
# tests, and the one test that measures resident memory (a sanitizer's shadow memory and quarantine make
# that number meaningless). tools/lsan-suppressions.txt silences leaks inside the toolchain's libraries
# only; ThreadSanitizer needs no suppressions.
SANITIZE_SKIP = 'Live|Listen|aFocusedStopwatchRunningForAnHourSimulatesHeadlesslyWithSanePollCounts'
sanitize: deps
	LSAN_OPTIONS="suppressions=$(abspath tools/lsan-suppressions.txt) $$LSAN_OPTIONS" \
	  $(SWIFT) test --build-path $(BUILD_DIR)/asan --sanitize=address --skip $(SANITIZE_SKIP)
	$(SWIFT) test --build-path $(BUILD_DIR)/tsan --sanitize=thread --skip $(SANITIZE_SKIP)

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

# Installs earshot for use outside the checkout: the binary in PREFIX/bin, and the voices, scripts, docs and
# editor grammar it reads in PREFIX/share/earshot (the binary finds them there; see docs/architecture.md).
install: release
	@$(MAKE) --no-print-directory install-files

# The copying half of install, for a binary already built (EARSHOT=path/to/earshot).
install-files:
	install -d $(DESTDIR)$(PREFIX)/bin $(SHARE)
	install -m 755 $(EARSHOT) $(DESTDIR)$(PREFIX)/bin/earshot
	@# The playback stand-in built with it, when there is one (earshot finds it in PREFIX/lib/earshot).
	if [ -f $(dir $(EARSHOT))libearshot-pcaudio.so ]; then \
	  install -d $(DESTDIR)$(PREFIX)/lib/earshot && \
	  install -m 755 $(dir $(EARSHOT))libearshot-pcaudio.so $(DESTDIR)$(PREFIX)/lib/earshot/; fi
	rm -rf $(SHARE)/Voices $(SHARE)/Scripts $(SHARE)/docs $(SHARE)/editors
	cp -R Voices Scripts docs editors $(SHARE)/
	install -m 644 README.md $(SHARE)/README.md
	@echo "installed $(DESTDIR)$(PREFIX)/bin/earshot and $(SHARE)/"

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/earshot
	rm -rf $(DESTDIR)$(PREFIX)/lib/earshot
	rm -rf $(SHARE)

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
FUZZ_SOURCES = $(wildcard Sources/EarshotCore/*.swift Sources/EarshotScript/*.swift tools/fuzz/*.swift) \
	Tests/EarshotTestSupport/FixedSynthesizer.swift

$(FUZZ_DIR)/fuzz-earshot: $(FUZZ_SOURCES) tools/fuzz/build.sh
	tools/fuzz/build.sh $(FUZZ_DIR)

fuzz: $(FUZZ_DIR)/fuzz-earshot
	tools/fuzz/run.sh $(SECONDS) $(FUZZ_DIR)

# About two minutes (-max_total_time=60 per target), for the test command.
fuzz-short: $(FUZZ_DIR)/fuzz-earshot
	tools/fuzz/run.sh 60 $(FUZZ_DIR)
