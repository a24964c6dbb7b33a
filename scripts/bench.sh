#!/bin/bash
# make bench: run the SIMD register sampling benchmark
# (tools/testing/selftests/perf_events/simd_regs_bench.c) in the x86_64
# guest and print its table. BENCH_ARGS: rounds, iterations, period in ns.
. "$(dirname "$0")/lib.sh"

args=${BENCH_ARGS:-11 300000000 50000}
"$ROOT/scripts/deps.sh"
"$ROOT/scripts/tree.sh"
"$ROOT/scripts/build-kernel.sh" x86_64
"$ROOT/scripts/build-tests.sh" x86_64 >/dev/null
plan=$BUILD/bench.plan
echo "bench simd_regs_bench 3000 $BUILD/tests/x86_64/perf_events/simd_regs_bench $args" >"$plan"
BOOT_TIMEOUT=${BOOT_TIMEOUT:-3600} "$ROOT/scripts/boot.sh" x86_64 "$plan"
log=$RESULTS/x86_64/console.log
grep -q '^@@@ end bench simd_regs_bench rc=0' "$log" ||
	die "the benchmark did not complete (console: build/results/x86_64/console.log)"
echo "base: $(base_version), guest: $(cat "$RESULTS/x86_64/accel"), args: $args"
sed -n '/^@@@ begin bench simd_regs_bench/,/^@@@ end bench/p' "$log" | sed '1d;$d'
