#!/bin/bash
# make check: series hygiene, the builds, then each guest's tests; a TAP
# file per suite and architecture under build/results, a summary table, and
# as the last line 'N passed, N failed, N skipped'. Exits non-zero on any
# failure. ARCHES limits the guests (default: x86_64 x86_64-avx512 arm64
# ppc64le x86_64-kasan). x86_64-avx512 is the x86_64 kernel and tests under
# Bochs, with AVX-512; x86_64-kasan is the x86_64 guest with a KASAN and
# UBSAN kernel; arm64 also boots arm64-icount.
#
# Two lanes run side by side. The build lane builds one kernel after the
# other, as SCHED_IDLE; the guest lane boots each guest as soon as what it
# needs is built. A guest keeps most of one CPU busy (Bochs and icount
# exactly one), so the builds get the rest instead of waiting for it.
# SCHED_IDLE, not nice 19: a vCPU thread that wakes must preempt the
# compiler at once. Beside a nice 19 kernel build, the arm64 guest's
# IPI-heavy sigtrap_threads ran past its 30 s timeout in 1 of 3 runs;
# beside the same build as SCHED_IDLE it passed 6 of 6.
#
# Builds go x86_64, arm64, x86_64-kasan, ppc64le: the lane of guests then
# always has one to boot while the next kernel builds, and what is left
# after the last build is the ppc64le tests and the shortest boot (about
# 150 s against the KASAN guest's 320 s, measured cold).
. "$(dirname "$0")/lib.sh"

arches=${ARCHES:-x86_64 x86_64-avx512 arm64 ppc64le x86_64-kasan}
logs=$BUILD/logs
lanes=$BUILD/lanes
rm -rf "$RESULTS" "$lanes"
mkdir -p "$RESULTS" "$logs" "$lanes"
t0=$(date +%s)

# record LINE: one line of the phases table, with when the phase began.
record() {
	printf '%-26s %5ds %s\n' "$1" "$2" "$3" >>"$lanes/phases"
}

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
	record "$suite $test $arch" $(($(date +%s) - start)) \
		"$([ $rc = 0 ] && echo ok || echo FAILED) at $((start - t0))s"
	return $rc
}

wanted() { case " $arches " in *" $1 "*) return 0 ;; esac; return 1; }

# What each build serves: the guests booted once it is done.
guests_of() {
	case $1 in
	x86_64)
		wanted x86_64 && echo x86_64
		wanted x86_64-avx512 && echo x86_64-avx512 ;;
	arm64) wanted arm64 && echo arm64 arm64-icount ;;
	ppc64le) wanted ppc64le && echo ppc64le ;;
	x86_64-kasan) wanted x86_64-kasan && echo x86_64-kasan ;;
	esac
	return 0
}

builds=
for b in x86_64 arm64 x86_64-kasan ppc64le; do
	case $b in
	x86_64) wanted x86_64 || wanted x86_64-avx512 || wanted x86_64-kasan ;;
	*) wanted "$b" ;;
	esac && builds="$builds $b"
done

# The build lane. A kernel variant (x86_64-kasan) runs its plain
# architecture's tests. Each build ends with build/lanes/ready-BUILD,
# whether it worked or not; build/.built-BUILD says it did.
build_lane() {
	local b
	for b in $builds; do
		if [ "$b" != "${b%-kasan}" ]; then
			phase "$b" build kernel "$ROOT/scripts/build-kernel.sh" "$b" &&
				[ -f "$BUILD/.built-${b%-kasan}" ] &&
				touch "$BUILD/.built-$b" || rm -f "$BUILD/.built-$b"
		else
			phase "$b" build kernel "$ROOT/scripts/build-kernel.sh" "$b" &&
				phase "$b" build tests "$ROOT/scripts/build-tests.sh" "$b" &&
				touch "$BUILD/.built-$b" || rm -f "$BUILD/.built-$b"
			if [ "$b" = x86_64 ] && wanted x86_64; then
				phase x86_64 build perf "$ROOT/scripts/build-perf.sh" ||
					rm -f "$BUILD/.built-x86_64"
			fi
		fi
		touch "$lanes/ready-$b"
	done
}

# The guest lane: each build's guests, once it is ready.
guest_lane() {
	local b g start
	for b in $builds; do
		while [ ! -f "$lanes/ready-$b" ]; do
			kill -0 "$build_pid" 2>/dev/null || break
			sleep 5
		done
		for g in $(guests_of "$b"); do
			[ -f "$BUILD/.built-$b" ] || continue
			start=$(date +%s)
			"$ROOT/scripts/boot.sh" "$g" || true
			"$ROOT/scripts/results.py" guest "$g" || true
			record "boot $g" $(($(date +%s) - start)) \
				"($(cat "$RESULTS/$g/accel" 2>/dev/null || echo 'did not start')) at $((start - t0))s"
		done
	done
}

phase - setup packages "$ROOT/scripts/deps.sh" || true
if phase - setup tree "$ROOT/scripts/tree.sh"; then
	echo "== base: $(base_version)"
	rm -f "$BUILD"/.built-*
	(
		start=$(date +%s)
		echo "== hygiene"
		"$ROOT/scripts/hygiene.sh" >"$logs/hygiene.log" 2>&1 || true
		grep '^error' "$logs/hygiene.log" || true
		record hygiene $(($(date +%s) - start)) "at $((start - t0))s"
	) &
	hygiene_pid=$!
	(
		chrt -i -p 0 "$BASHPID" >/dev/null 2>&1 ||
			renice -n 19 -p "$BASHPID" >/dev/null
		build_lane
	) &
	build_pid=$!
	guest_lane
	wait "$build_pid" || true
	wait "$hygiene_pid" || true
fi

echo
echo "phases:"
sed 's/^/  /' "$lanes/phases" 2>/dev/null || true
printf '  %-26s %5ds\n' total $(($(date +%s) - t0))
echo
"$ROOT/scripts/results.py" summary
