#!/bin/bash
# make bench: run the benchmarks in the guests and print their tables:
#  - SIMD register sampling (simd_regs_bench.c), x86_64 under QEMU and,
#    for the zmm+k row, under Bochs (x86_64-avx512), and arm64 (NEON, and
#    SVE at vector lengths 512 and 2048);
#  - group reads through a group_pmc page, one page per member and
#    read() (group_pmc_bench.c), x86_64 with software events and arm64
#    with QEMU's PMUv3;
#  - what the series costs events that use none of it: a sample with
#    general purpose registers only (simd_regs_bench ... gp) and a mapped
#    event's page update (userpage_bench.c), on the x86_64 kernel without
#    the series (build-base-kernel.sh) and with it, booted one after the
#    other.
# BENCH: which to run, 'simd group_pmc base' by default; 'simd-arm64' is
# the arm64 leg of 'simd' alone.
# BENCH_ARGS: SIMD rounds, iterations, period in ns (QEMU);
# BOCHS_BENCH_ARGS: the same under Bochs, which runs a few times slower;
# ARM_BENCH_ARGS: the same for arm64.
# GROUP_BENCH_ARGS: group_pmc rounds, group reads per round.
# PAGE_BENCH_ARGS: userpage_bench rounds, resets per round.
. "$(dirname "$0")/lib.sh"

benches=" ${BENCH:-simd group_pmc base} "
arm_simd=
case $benches in *" simd "* | *" simd-arm64 "*) arm_simd=1 ;; esac

args=${BENCH_ARGS:-11 300000000 50000}
bargs=${BOCHS_BENCH_ARGS:-5 100000000 50000}
aargs=${ARM_BENCH_ARGS:-11 100000000 50000}
gargs=${GROUP_BENCH_ARGS:-7 50000}
uargs=${PAGE_BENCH_ARGS:-11 200000}
"$ROOT/scripts/deps.sh"
"$ROOT/scripts/tree.sh"
for arch in x86_64 arm64; do
	"$ROOT/scripts/build-kernel.sh" $arch
	"$ROOT/scripts/build-tests.sh" $arch >/dev/null
done

# table GUEST NAME: the benchmark's output between the runner's markers
table() {
	local log=$RESULTS/$1/console.log
	grep -q "^@@@ end bench $2 rc=0" "$log" ||
		die "$2 did not complete in $1 (console: build/results/$1/console.log)"
	tr -d '\r' <"$log" | sed -n "/^@@@ begin bench $2\$/,/^@@@ end bench/p" |
		sed '1d;$d'
}

x86=$BUILD/tests/x86_64/perf_events
case $benches in *" simd "*)
	echo "bench simd_regs_bench 3000 $x86/simd_regs_bench $args" ;;
esac >"$BUILD/bench-x86_64.plan"
case $benches in *" base "*)
	"$ROOT/scripts/build-base-kernel.sh"
	{
		echo "bench simd_regs_bench_gp 3000 $x86/simd_regs_bench $args gp"
		echo "bench userpage_bench 600 $x86/userpage_bench $uargs"
	} >"$BUILD/bench-x86_64-base.plan"
	BOOT_TIMEOUT=${BOOT_TIMEOUT:-3600} "$ROOT/scripts/boot.sh" x86_64-base \
		"$BUILD/bench-x86_64-base.plan"
	cat "$BUILD/bench-x86_64-base.plan" >>"$BUILD/bench-x86_64.plan"
	;;
esac
if [ -n "$arm_simd" ]; then
	echo "bench simd_regs_bench 3000 /tests/perf_events/simd_regs_bench $aargs"
fi >"$BUILD/bench-arm64.plan"
case $benches in *" group_pmc "*)
	echo "bench group_pmc_bench 600 $x86/group_pmc_bench $gargs" >>"$BUILD/bench-x86_64.plan"
	{
		echo "@write /proc/sys/kernel/perf_user_access 1"
		echo "bench group_pmc_bench 600 /tests/perf_events/group_pmc_bench $gargs"
	} >>"$BUILD/bench-arm64.plan"
	;;
esac
if [ -s "$BUILD/bench-arm64.plan" ]; then
	BOOT_TIMEOUT=${BOOT_TIMEOUT:-3600} "$ROOT/scripts/boot.sh" arm64 "$BUILD/bench-arm64.plan"
fi
if [ -s "$BUILD/bench-x86_64.plan" ]; then
	BOOT_TIMEOUT=${BOOT_TIMEOUT:-3600} "$ROOT/scripts/boot.sh" x86_64 "$BUILD/bench-x86_64.plan"
fi
case $benches in *" simd "*)
	{
		echo "@poweroff"
		echo "bench simd_regs_bench 3000 /tests/perf_events/simd_regs_bench $bargs"
	} >"$BUILD/bench-x86_64-avx512.plan"
	BOOT_TIMEOUT=${BOOT_TIMEOUT:-3600} "$ROOT/scripts/boot.sh" x86_64-avx512 \
		"$BUILD/bench-x86_64-avx512.plan"
	;;
esac

echo "base: $(base_version)"
case $benches in *" simd "*)
	echo
	echo "## SIMD register sampling, x86_64 ($(cat "$RESULTS/x86_64/accel")), args: $args"
	table x86_64 simd_regs_bench
	echo
	echo "## SIMD register sampling, x86_64-avx512 (bochs, tigerlake), args: $bargs"
	table x86_64-avx512 simd_regs_bench
	;;
esac
if [ -n "$arm_simd" ]; then
	echo
	echo "## SIMD register sampling, arm64 ($(cat "$RESULTS/arm64/accel"), -cpu max), args: $aargs"
	table arm64 simd_regs_bench
fi
case $benches in *" base "*)
	# field FIELD GUEST: a number from the gp row or a userpage_bench line
	gp() { table "$1" simd_regs_bench_gp | awk '$1 == "gp" { print $4 }'; }
	page() { table "$1" userpage_bench | awk -v k="$2" '$1 == k { print $2 }'; }
	ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", b / a }'; }
	echo
	echo "## events that use none of the series, x86_64 ($(cat "$RESULTS/x86_64/accel")), base against series"
	printf '%-34s %10s %10s %8s\n' "" base series ratio
	for row in "gp sample, ns (args: $args)|$(gp x86_64-base)|$(gp x86_64)" \
		"mapped reset, ns (args: $uargs)|$(page x86_64-base reset_mapped_ns)|$(page x86_64 reset_mapped_ns)" \
		"unmapped reset, ns|$(page x86_64-base reset_unmapped_ns)|$(page x86_64 reset_unmapped_ns)"; do
		IFS='|' read -r name a b <<<"$row"
		printf '%-34s %10s %10s %8s\n' "$name" "$a" "$b" "$(ratio "$a" "$b")"
	done
	;;
esac
case $benches in *" group_pmc "*)
	echo
	echo "## group reads, x86_64 ($(cat "$RESULTS/x86_64/accel")), args: $gargs"
	table x86_64 group_pmc_bench
	echo
	echo "## group reads, arm64 ($(cat "$RESULTS/arm64/accel")), args: $gargs"
	table arm64 group_pmc_bench
	;;
esac
