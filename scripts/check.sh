#!/bin/bash
# make check: series hygiene, the builds, then each guest's tests; a TAP
# file per suite and architecture under build/results, a summary table, and
# as the last line 'N passed, N failed, N skipped'. Exits non-zero on any
# failure. ARCHES limits the guests (default: x86_64 x86_64-avx512 arm64
# ppc64le x86_64-kasan). x86_64-avx512 is the x86_64 kernel and tests under
# Bochs, with AVX-512; x86_64-kasan is the x86_64 guest with a KASAN and
# UBSAN kernel; arm64 also boots arm64-icount.
. "$(dirname "$0")/lib.sh"

arches=${ARCHES:-x86_64 x86_64-avx512 arm64 ppc64le x86_64-kasan}
logs=$BUILD/logs
rm -rf "$RESULTS"
mkdir -p "$RESULTS" "$logs"
t0=$(date +%s)
phases=

# phase ARCH SUITE TEST COMMAND...: run one step, log it, record it as TAP.
phase() {
	local arch=$1 suite=$2 test=$3 start rc
	shift 3
	start=$(date +%s)
	echo "== $suite $test ($arch)"
	set +e
	"$@" >"$logs/$suite-$test-$arch.log" 2>&1
	rc=$?
	set -e
	grep '^== \|^error\|^warning' "$logs/$suite-$test-$arch.log" || true
	"$ROOT/scripts/results.py" step "$arch" "$suite" "$test" $rc \
		$(($(date +%s) - start)) "$logs/$suite-$test-$arch.log"
	phases="$phases$(printf '%-24s %5ds %s' "$suite $test $arch" $(($(date +%s) - start)) \
		"$([ $rc = 0 ] && echo ok || echo FAILED)")
"
	return $rc
}

phase - setup packages "$ROOT/scripts/deps.sh" || true
if phase - setup tree "$ROOT/scripts/tree.sh"; then
	echo "== base: $(base_version)"
	start=$(date +%s)
	echo "== hygiene"
	"$ROOT/scripts/hygiene.sh" || true
	phases="$phases$(printf '%-24s %5ds' "hygiene" $(($(date +%s) - start)))
"
	for arch in $arches; do
		# Another emulator for the x86_64 kernel and tests.
		if [ "$arch" = x86_64-avx512 ]; then
			case " $arches " in *" x86_64 "*) continue ;; esac
			arch=x86_64
		fi
		if [ "$arch" != "${arch%-kasan}" ]; then
			# A kernel variant: it runs the plain architecture's tests.
			phase "$arch" build kernel "$ROOT/scripts/build-kernel.sh" "$arch" &&
				[ -f "$BUILD/.built-${arch%-kasan}" ] &&
				touch "$BUILD/.built-$arch" || rm -f "$BUILD/.built-$arch"
			continue
		fi
		phase "$arch" build kernel "$ROOT/scripts/build-kernel.sh" "$arch" &&
			phase "$arch" build tests "$ROOT/scripts/build-tests.sh" "$arch" &&
			touch "$BUILD/.built-$arch" || rm -f "$BUILD/.built-$arch"
	done
	case " $arches " in
	*" x86_64 "*) phase x86_64 build perf "$ROOT/scripts/build-perf.sh" ||
		rm -f "$BUILD/.built-x86_64" ;;
	esac
	for guest in $arches; do
		[ "$guest" = arm64 ] && guest="arm64 arm64-icount"
		for g in $guest; do
			b=${g%-icount}
			[ -f "$BUILD/.built-${b%-avx512}" ] || continue
			start=$(date +%s)
			"$ROOT/scripts/boot.sh" "$g" || true
			"$ROOT/scripts/results.py" guest "$g" || true
			phases="$phases$(printf '%-24s %5ds (%s)' "boot $g" $(($(date +%s) - start)) \
				"$(cat "$RESULTS/$g/accel" 2>/dev/null || echo 'did not start')")
"
		done
	done
fi

echo
echo "phases:"
printf '%s' "$phases" | sed 's/^/  /'
printf '  %-24s %5ds\n' total $(($(date +%s) - t0))
echo
"$ROOT/scripts/results.py" summary
