#!/bin/bash
# make fuzz: the long fuzz campaign, before a release. Boots GUEST (default
# x86_64-kasan) with a plan that runs only perf_fuzz, with FUZZ_ARGS
# (default: a seed from the clock, a million iterations, 4 threads, at most
# FUZZ_SECONDS), then reports like make check: any oops, WARN, lockdep,
# KASAN or UBSAN report, a hang or a record that does not parse fails it.
# The seed is printed first; rerun with FUZZ_ARGS="-s SEED ..." to repeat.
# FUZZ_RUNS (default 1) boots the guest that many times with the same
# arguments, keeps each console in build/fuzz-runs/N/, and fails unless
# every run is clean: with a fixed seed, that measures how often a run
# that should be clean is not.
. "$(dirname "$0")/lib.sh"

guest=${GUEST:-x86_64-kasan}
arch=${guest%-kasan}
secs=${FUZZ_SECONDS:-3000}
args=${FUZZ_ARGS:--s $(date +%s) -n 1000000 -t 4 -T $secs}

"$ROOT/scripts/deps.sh"
"$ROOT/scripts/tree.sh"
"$ROOT/scripts/build-kernel.sh" "$guest"
[ "$guest" = "$arch" ] || "$ROOT/scripts/build-kernel.sh" "$arch"
"$ROOT/scripts/build-tests.sh" "$arch" >/dev/null
prefix=/tests
[ "$arch" = x86_64 ] && prefix=$BUILD/tests/x86_64
plan=$BUILD/fuzz-$guest.plan
{
	echo "@write /proc/sys/kernel/perf_event_paranoid -1"
	echo "fuzz perf_fuzz $((secs + 120)) $prefix/perf_events/perf_fuzz $args -l /run/perf_fuzz.log"
} >"$plan"
runs=${FUZZ_RUNS:-1}
if [ "$runs" = 1 ]; then
	rm -rf "$RESULTS"
	BOOT_TIMEOUT=$((secs + 600)) "$ROOT/scripts/boot.sh" "$guest" "$plan"
	"$ROOT/scripts/results.py" guest "$guest"
	sed -n '/^@@@ begin fuzz perf_fuzz/,/^@@@ end fuzz/p' "$RESULTS/$guest/console.log" |
		sed '1d;$d' | tail -n 40
	exec "$ROOT/scripts/results.py" summary
fi

rm -rf "$BUILD/fuzz-runs"
clean=0
for run in $(seq 1 "$runs"); do
	rm -rf "$RESULTS"
	BOOT_TIMEOUT=$((secs + 600)) "$ROOT/scripts/boot.sh" "$guest" "$plan" >/dev/null
	"$ROOT/scripts/results.py" guest "$guest" >/dev/null
	mkdir -p "$BUILD/fuzz-runs/$run"
	cp -r "$RESULTS/$guest/." "$BUILD/fuzz-runs/$run/"
	if "$ROOT/scripts/results.py" summary >"$BUILD/fuzz-runs/$run/summary" 2>&1; then
		clean=$((clean + 1))
		echo "run $run: clean"
	else
		echo "run $run: FAILED ($BUILD/fuzz-runs/$run/)"
	fi
	sed -n '/^@@@ begin fuzz perf_fuzz/,/^@@@ end fuzz/p' \
		"$RESULTS/$guest/console.log" | grep -E 'failures|FAIL' | sed 's/^/  /'
done
echo "$clean of $runs runs clean"
[ "$clean" = "$runs" ]
