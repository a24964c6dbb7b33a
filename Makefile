# A perf_events patch series on Linux 6.12 LTS. See README.md.
#
#   make run      build the x86_64 kernel and perf, boot them, show the demo
#   make check    hygiene, builds and tests on x86_64, arm64 and ppc64le
#
#   make tree     build/linux: the base plus the series, as a git repository
#   make export   write build/linux's commits back to patches/ and series
#   make kernel|tests|boot ARCH=x86_64|arm64|ppc64le   one step, one guest
#                 (make kernel and boot also take ARCH=x86_64-kasan)
#   make perf     tools/perf for the host
#   make bench    the benchmarks in the guests: SIMD sampling, group_pmc reads,
#                 and what events using neither pay, against the base kernel
#   make fuzz     the long fuzz campaign (KASAN x86_64 guest; FUZZ_ARGS, GUEST)
#   make clean    remove build/ (ccache stays in /var/cache/perf-series)

ARCH ?= x86_64

.PHONY: run check bench fuzz tree export kernel tests perf boot deps clean

run:
	@scripts/run.sh

check:
	@scripts/check.sh

bench:
	@scripts/bench.sh

fuzz:
	@scripts/fuzz.sh

deps:
	@scripts/deps.sh

tree: deps
	@scripts/tree.sh

export:
	@scripts/export.sh

kernel: tree
	@scripts/build-kernel.sh $(ARCH)

tests: kernel
	@scripts/build-tests.sh $(ARCH)

perf: tree
	@scripts/build-perf.sh

boot:
	@scripts/boot.sh -v $(ARCH)
	@scripts/results.py guest $(ARCH)
	@scripts/results.py summary

clean:
	rm -rf build
