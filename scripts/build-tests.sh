#!/bin/bash
# Build what one guest runs, into build/tests/ARCH: the guest runner, the
# perf_events kselftests and the architecture's own tests, all static: the
# arm64, ppc64le and x86_64-avx512 guests run them from an initramfs (the
# x86_64 QEMU guests run them from the host's root filesystem). Needs the
# kernel configured (build-kernel.sh) for its exported headers.
. "$(dirname "$0")/lib.sh"

arch=${1:?usage: build-tests.sh x86_64|arm64|ppc64le}
arch_vars "$arch"
obj=$BUILD/obj/$arch
out=$BUILD/tests/$arch
src=$TREE/tools/testing/selftests
cc="ccache ${CROSS}gcc"
static=-static

[ -f "$obj/.config" ] || die "tests $arch: kernel not configured (build-kernel.sh $arch)"
rm -rf "$out"
mkdir -p "$out"

note "tests $arch: uapi headers"
make -s -C "$TREE" O="$obj" ARCH=$KARCH CROSS_COMPILE=$CROSS headers
khdr="-isystem $obj/usr/include"

ksft() {
	local dir=$1 dest=$2
	mkdir -p "$dest"
	shift 2
	make -s -C "$src/$dir" ARCH=$KARCH CROSS_COMPILE=$CROSS CC="$cc" \
		OUTPUT="$dest" KHDR_INCLUDES="$khdr" "$@" all
}

note "tests $arch: guest runner"
# shellcheck disable=SC2086
$cc -O2 -Wall -Werror $static -o "$out/runner" "$ROOT/guest/runner.c"

note "tests $arch: selftests/perf_events"
ksft perf_events "$out/perf_events" ${static:+LDFLAGS="-static -pthread"}

case $arch in
arm64)
	note "tests $arch: count_hw"
	$cc -O2 -Wall -Werror -static $khdr -o "$out/count_hw" "$ROOT/guest/tests/count_hw.c"
	# libperf's own tests, for perf_evsel__read_group() on real counters
	note "tests $arch: libperf tests"
	mkdir -p "$out/libperf" "$BUILD/obj/libperf-$arch"
	make -s -C "$TREE/tools/lib/perf" O="$BUILD/obj/libperf-$arch" ARCH=$KARCH \
		CROSS_COMPILE=$CROSS CC="$cc -static" \
		"$BUILD/obj/libperf-$arch/tests-static"
	cp "$BUILD/obj/libperf-$arch/tests-static" "$out/libperf/"
	# perf and its SIMD test, run by busybox's shell (boot.sh puts it at
	# /bin/sh): perf finds tests/shell next to itself.
	"$ROOT/scripts/build-perf.sh" arm64
	mkdir -p "$out/perf/tests/shell" "$out/bin"
	cp "$BUILD/obj/perf-arm64/perf" "$out/perf/"
	cp "$TREE/tools/perf/tests/shell/record_simd_regs.sh" "$out/perf/tests/shell/"
	cp "$ROOT/guest/tests/perf-test.sh" "$out/perf/"
	# the initramfs takes executables only
	chmod 0755 "$out/perf/perf-test.sh" "$out/perf/tests/shell/"*.sh
	[ -x "$BUSYBOX_ARM64" ] || die "tests $arch: no $BUSYBOX_ARM64 (run scripts/deps.sh)"
	cp "$BUSYBOX_ARM64" "$out/bin/busybox"
	;;
ppc64le)
	note "tests $arch: selftests/powerpc/pmu (EBB and count_instructions)"
	# The powerpc selftests set CFLAGS themselves; USERCFLAGS is their hook.
	ksft powerpc/pmu "$out/pmu" USERCFLAGS=-static \
		GIT_VERSION="$(make -s -C "$TREE" kernelversion)"
	;;
esac
note "tests $arch: $(find "$out" -type f -perm -u+x | wc -l) binaries in build/tests/$arch"
