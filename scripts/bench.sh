#!/bin/bash
# make bench: run the benchmarks in the guests and print their tables:
#  - SIMD register sampling (simd_regs_bench.c): x86_64 under QEMU, in ns;
#    under Bochs (x86_64-avx512, two CPUs, the zmm+k row too), where the
#    TSC counts instructions; and on arm64-icount (NEON, and SVE at vector
#    lengths 512 and 2048), where QEMU's PMUv3 counts instructions exactly.
#    Each SIMD row comes with its floor, one save and one copy of its
#    registers;
#  - group reads through a group_pmc page, one page per member and
#    read() (group_pmc_bench.c), x86_64 with software events and arm64
#    with QEMU's PMUv3;
#  - what the series costs events that use none of it: a sample with
#    general purpose registers only (simd_regs_bench ... gp) and a mapped
#    event's page update (userpage_bench.c), on the kernels without the
#    series (build-base-kernel.sh) and with them, on the same guests: in
#    ns under QEMU, in instructions under Bochs and arm64-icount.
# BENCH: which to run, 'simd group_pmc base' by default; 'simd-arm64' is
# the arm64 leg of 'simd' alone.
# BENCH_ARGS: SIMD rounds, iterations, period in ns (QEMU);
# BOCHS_BENCH_ARGS: the same under Bochs, which runs a few times slower;
# ARM_BENCH_ARGS: the same for arm64-icount.
# GROUP_BENCH_ARGS: group_pmc rounds, group reads per round.
# PAGE_BENCH_ARGS: userpage_bench rounds, resets per round (QEMU);
# BOCHS_PAGE_ARGS: the same under Bochs.
. "$(dirname "$0")/lib.sh"

benches=" ${BENCH:-simd group_pmc base} "
arm_simd=
case $benches in *" simd "* | *" simd-arm64 "*) arm_simd=1 ;; esac

args=${BENCH_ARGS:-11 300000000 50000}
bargs=${BOCHS_BENCH_ARGS:-5 30000000 50000}
aargs=${ARM_BENCH_ARGS:-5 20000000 50000}
gargs=${GROUP_BENCH_ARGS:-7 50000}
uargs=${PAGE_BENCH_ARGS:-11 200000}
buargs=${BOCHS_PAGE_ARGS:-5 20000}
"$ROOT/scripts/deps.sh"
"$ROOT/scripts/tree.sh"
for arch in x86_64 arm64; do
	"$ROOT/scripts/build-kernel.sh" $arch
	"$ROOT/scripts/build-tests.sh" $arch >/dev/null
done

x86=$BUILD/tests/x86_64/perf_events
# The guests that count instructions: Bochs with two CPUs, so the reader
# has its own; arm64 under -icount.
bochs() { BOCHS_CPUS=2 BOOT_TIMEOUT=${BOOT_TIMEOUT:-3600} "$ROOT/scripts/boot.sh" "$@"; }
boot() { BOOT_TIMEOUT=${BOOT_TIMEOUT:-3600} "$ROOT/scripts/boot.sh" "$@"; }

case $benches in *" simd "*)
	echo "bench simd_regs_bench 3000 $x86/simd_regs_bench $args" ;;
esac >"$BUILD/bench-x86_64.plan"
{
	echo "@poweroff"
	case $benches in *" simd "*)
		echo "bench simd_regs_bench 3000 /tests/perf_events/simd_regs_bench -c tsc $bargs" ;;
	esac
	case $benches in *" base "*)
		echo "bench userpage_bench 3000 /tests/perf_events/userpage_bench $buargs" ;;
	esac
} >"$BUILD/bench-x86_64-avx512.plan"
if [ -n "$arm_simd" ]; then
	echo "bench simd_regs_bench 3000 /tests/perf_events/simd_regs_bench -c instructions $aargs"
fi >"$BUILD/bench-arm64-icount.plan"
case $benches in *" base "*)
	"$ROOT/scripts/build-base-kernel.sh" x86_64
	"$ROOT/scripts/build-base-kernel.sh" arm64
	{
		echo "bench simd_regs_bench_gp 3000 $x86/simd_regs_bench $args gp"
		echo "bench userpage_bench 600 $x86/userpage_bench $uargs"
	} >"$BUILD/bench-x86_64-base.plan"
	{
		echo "@poweroff"
		echo "bench simd_regs_bench_gp 3000 /tests/perf_events/simd_regs_bench -c tsc $bargs gp"
		echo "bench userpage_bench 3000 /tests/perf_events/userpage_bench $buargs"
	} >"$BUILD/bench-x86_64-avx512-base.plan"
	echo "bench simd_regs_bench_gp 3000 /tests/perf_events/simd_regs_bench -c instructions $aargs gp" \
		>"$BUILD/bench-arm64-base-icount.plan"
	# The series' side runs the same gp-only lines, after its own.
	cat "$BUILD/bench-x86_64-base.plan" >>"$BUILD/bench-x86_64.plan"
	sed 1d "$BUILD/bench-x86_64-avx512-base.plan" | grep simd_regs_bench_gp \
		>>"$BUILD/bench-x86_64-avx512.plan"
	cat "$BUILD/bench-arm64-base-icount.plan" >>"$BUILD/bench-arm64-icount.plan"
	boot x86_64-base "$BUILD/bench-x86_64-base.plan"
	bochs x86_64-avx512-base "$BUILD/bench-x86_64-avx512-base.plan"
	boot arm64-base-icount "$BUILD/bench-arm64-base-icount.plan"
	;;
esac
case $benches in *" group_pmc "*)
	echo "bench group_pmc_bench 600 $x86/group_pmc_bench $gargs" >>"$BUILD/bench-x86_64.plan"
	{
		echo "@write /proc/sys/kernel/perf_user_access 1"
		echo "bench group_pmc_bench 600 /tests/perf_events/group_pmc_bench $gargs"
	} >"$BUILD/bench-arm64.plan"
	boot arm64 "$BUILD/bench-arm64.plan"
	;;
esac
[ -s "$BUILD/bench-arm64-icount.plan" ] && boot arm64-icount "$BUILD/bench-arm64-icount.plan"
[ -s "$BUILD/bench-x86_64.plan" ] && boot x86_64 "$BUILD/bench-x86_64.plan"
case $benches in *" simd "* | *" base "*)
	bochs x86_64-avx512 "$BUILD/bench-x86_64-avx512.plan" ;;
esac

# table GUEST NAME: the benchmark's output between the runner's markers
table() {
	local log=$RESULTS/$1/console.log
	grep -q "^@@@ end bench $2 rc=0" "$log" ||
		die "$2 did not complete in $1 (console: build/results/$1/console.log)"
	tr -d '\r' <"$log" | sed -n "/^@@@ begin bench $2\$/,/^@@@ end bench/p" |
		sed '1d;$d'
}

echo "base: $(base_version)"
case $benches in *" simd "*)
	echo
	echo "## SIMD register sampling, x86_64 ($(cat "$RESULTS/x86_64/accel")), args: $args"
	table x86_64 simd_regs_bench
	echo
	echo "## SIMD register sampling, x86_64-avx512 (bochs, tigerlake, 2 CPUs), args: -c tsc $bargs"
	table x86_64-avx512 simd_regs_bench
	;;
esac
if [ -n "$arm_simd" ]; then
	echo
	echo "## SIMD register sampling, arm64-icount ($(cat "$RESULTS/arm64-icount/accel"), -cpu max), args: -c instructions $aargs"
	table arm64-icount simd_regs_bench
fi
case $benches in *" base "*)
	# gp GUEST: the cost column of the gp row; page GUEST KEY: a
	# userpage_bench line
	gp() { table "$1" simd_regs_bench_gp | awk '$1 == "gp" { print $4 }'; }
	page() { table "$1" userpage_bench | awk -v k="$2" '$1 == k { print $2 }'; }
	ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", b / a }'; }
	echo
	echo "## events that use none of the series, base against series"
	printf '%-46s %10s %10s %8s\n' "" base series ratio
	for row in "x86_64 (tcg) gp sample, ns ($args)|$(gp x86_64-base)|$(gp x86_64)" \
		"x86_64 (tcg) mapped reset, ns ($uargs)|$(page x86_64-base reset_mapped_ns)|$(page x86_64 reset_mapped_ns)" \
		"x86_64 (tcg) unmapped reset, ns|$(page x86_64-base reset_unmapped_ns)|$(page x86_64 reset_unmapped_ns)" \
		"bochs gp sample, TSC ticks ($bargs)|$(gp x86_64-avx512-base)|$(gp x86_64-avx512)" \
		"bochs mapped reset, ns ($buargs)|$(page x86_64-avx512-base reset_mapped_ns)|$(page x86_64-avx512 reset_mapped_ns)" \
		"bochs unmapped reset, ns|$(page x86_64-avx512-base reset_unmapped_ns)|$(page x86_64-avx512 reset_unmapped_ns)" \
		"arm64-icount gp sample, instructions ($aargs)|$(gp arm64-base-icount)|$(gp arm64-icount)"; do
		IFS='|' read -r name a b <<<"$row"
		printf '%-46s %10s %10s %8s\n' "$name" "$a" "$b" "$(ratio "$a" "$b")"
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
