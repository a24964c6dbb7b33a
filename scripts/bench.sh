#!/bin/bash
# make bench: run the benchmarks in the guests and print their tables:
#  - SIMD register sampling (simd_regs_bench.c) in the guests that count
#    instructions exactly: Bochs (x86_64-avx512, two CPUs, AVX-512), where
#    the TSC counts instructions, and arm64-icount (NEON, and SVE at vector
#    lengths 512 and 2048), where QEMU's PMUv3 does. Each SIMD row comes
#    with its floor, one save and one copy of its registers. Bochs also
#    runs it with REGS_INTR asking for what REGS_USER does (both);
#  - what the series costs events that use none of it: a sample with
#    general purpose registers only (simd_regs_bench ... gp) and a mapped
#    event's page update (userpage_bench.c), on the kernels without the
#    series (build-base-kernel.sh) and with them, in the same two guests;
#  - group reads through a group_pmc page, one page per member and
#    read() (group_pmc_bench.c), x86_64 with software events and arm64
#    with QEMU's PMUv3, in ns under QEMU TCG.
# Every bench plan first lifts perf's sample rate limit and turns off its
# adjustment to interrupt time: a debug kernel's samples are slow enough
# that the kernel would otherwise lower the limit below the benchmark's
# 20 kHz and throttle some rounds, not others.
# BENCH: which to run, 'simd group_pmc base' by default; 'simd-arm64' is
# the arm64 leg of 'simd' alone.
# BOCHS_BENCH_ARGS: SIMD rounds, iterations, period in ns under Bochs;
# ARM_BENCH_ARGS: the same for arm64-icount.
# GROUP_BENCH_ARGS: group_pmc rounds, group reads per round.
# PAGE_BENCH_ARGS: userpage_bench rounds, resets per round.
. "$(dirname "$0")/lib.sh"

benches=" ${BENCH:-simd group_pmc base} "
arm_simd=
case $benches in *" simd "* | *" simd-arm64 "*) arm_simd=1 ;; esac

bargs=${BOCHS_BENCH_ARGS:-5 30000000 50000}
aargs=${ARM_BENCH_ARGS:-5 20000000 50000}
gargs=${GROUP_BENCH_ARGS:-7 50000}
uargs=${PAGE_BENCH_ARGS:-5 20000}
"$ROOT/scripts/deps.sh"
"$ROOT/scripts/tree.sh"
for arch in x86_64 arm64; do
	"$ROOT/scripts/build-kernel.sh" $arch
	"$ROOT/scripts/build-tests.sh" $arch >/dev/null
done

# The guests that count instructions: Bochs with two CPUs, so the reader
# has its own; arm64 under -icount with one, since its PMUv3 counts the
# instructions of every vCPU: there the reader sleeps between wakeups, and
# its instructions are not the workload's.
bochs() { BOCHS_CPUS=2 BOOT_TIMEOUT=${BOOT_TIMEOUT:-3600} "$ROOT/scripts/boot.sh" "$@"; }
boot() { BOOT_TIMEOUT=${BOOT_TIMEOUT:-3600} "$ROOT/scripts/boot.sh" "$@"; }
icount() { ICOUNT_CPUS=1 boot "$@"; }
t=/tests/perf_events
# The limit first: with the adjustment off, the kernel refuses to set it.
unlimited() {
	echo "@write /proc/sys/kernel/perf_event_max_sample_rate 200000"
	echo "@write /proc/sys/kernel/perf_cpu_time_max_percent 0"
}

# plan GUEST [base]: the bench plan of one counting guest, on the series
# or on the base kernel; the base runs the gp and page lines only.
plan() {
	local by=instructions clock=time
	[ "$1" = bochs ] && { echo "@poweroff"; by=tsc; clock=tsc; }
	unlimited
	case $benches in *" simd "*) [ -z "$2" ] &&
		echo "bench simd_regs_bench 3000 $t/simd_regs_bench -c $by ${3:-$bargs}"
		[ -z "$2" ] && [ "$1" = bochs ] &&
			echo "bench simd_regs_bench_both 3000 $t/simd_regs_bench -c $by $bargs both" ;;
	esac
	case $benches in *" base "*)
		echo "bench simd_regs_bench_gp 3000 $t/simd_regs_bench -c $by ${3:-$bargs} gp"
		echo "bench userpage_bench 3000 $t/userpage_bench -c $clock $uargs" ;;
	esac
}
plan bochs >"$BUILD/bench-x86_64-avx512.plan"
plan bochs base >"$BUILD/bench-x86_64-avx512-base.plan"
if [ -n "$arm_simd" ] || [[ $benches = *" base "* ]]; then
	plan arm64 "" "$aargs"
fi >"$BUILD/bench-arm64-icount.plan"
plan arm64 base "$aargs" >"$BUILD/bench-arm64-base-icount.plan"
[[ $benches = *" simd-arm64 "* ]] && [[ $benches != *" simd "* ]] &&
	{ unlimited; echo "bench simd_regs_bench 3000 $t/simd_regs_bench -c instructions $aargs"; } \
		>"$BUILD/bench-arm64-icount.plan"

case $benches in *" base "*)
	"$ROOT/scripts/build-base-kernel.sh" x86_64
	"$ROOT/scripts/build-base-kernel.sh" arm64
	bochs x86_64-avx512-base "$BUILD/bench-x86_64-avx512-base.plan"
	icount arm64-base-icount "$BUILD/bench-arm64-base-icount.plan"
	;;
esac
case $benches in *" group_pmc "*)
	echo "bench group_pmc_bench 600 $BUILD/tests/x86_64/perf_events/group_pmc_bench $gargs" \
		>"$BUILD/bench-x86_64.plan"
	{
		echo "@write /proc/sys/kernel/perf_user_access 1"
		echo "bench group_pmc_bench 600 $t/group_pmc_bench $gargs"
	} >"$BUILD/bench-arm64.plan"
	boot arm64 "$BUILD/bench-arm64.plan"
	boot x86_64 "$BUILD/bench-x86_64.plan"
	;;
esac
grep -q '^bench' "$BUILD/bench-arm64-icount.plan" &&
	icount arm64-icount "$BUILD/bench-arm64-icount.plan"
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
	echo "## SIMD register sampling, x86_64-avx512 (bochs, tigerlake, 2 CPUs), args: -c tsc $bargs"
	table x86_64-avx512 simd_regs_bench
	echo
	echo "## the same with REGS_INTR too, x86_64-avx512, args: -c tsc $bargs both"
	table x86_64-avx512 simd_regs_bench_both
	;;
esac
if [ -n "$arm_simd" ]; then
	echo
	echo "## SIMD register sampling, arm64-icount ($(cat "$RESULTS/arm64-icount/accel"), -cpu max, 1 vCPU), args: -c instructions $aargs"
	table arm64-icount simd_regs_bench
fi
case $benches in *" base "*)
	# gp GUEST: the cost column of the gp row, and its spread; page
	# GUEST: userpage_bench's page update and its spread; reset GUEST:
	# the whole ioctl on an unmapped event
	gp() { table "$1" simd_regs_bench_gp | awk '$1 == "gp" { print $4, $5 }'; }
	page() {
		table "$1" userpage_bench | awk '$1 == "page_update" { v = $2 }
			$1 == "page_update_spread" { s = $2 } END { print v, s }'
	}
	reset() { table "$1" userpage_bench | awk '$1 == "reset_unmapped" { print $2 }'; }
	ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", b / a }'; }
	echo
	echo "## events that use none of the series, base against series"
	printf '%-40s %16s %16s %7s\n' "" "base (spread)" "series (spread)" ratio
	for row in "bochs gp sample ($bargs)|$(gp x86_64-avx512-base)|$(gp x86_64-avx512)" \
		"bochs page update ($uargs)|$(page x86_64-avx512-base)|$(page x86_64-avx512)" \
		"bochs reset ioctl, no page|$(reset x86_64-avx512-base)|$(reset x86_64-avx512)" \
		"arm64-icount gp sample ($aargs)|$(gp arm64-base-icount)|$(gp arm64-icount)" \
		"arm64-icount page update ($uargs)|$(page arm64-base-icount)|$(page arm64-icount)" \
		"arm64-icount reset ioctl, no page|$(reset arm64-base-icount)|$(reset arm64-icount)"; do
		IFS='|' read -r name a b <<<"$row"
		printf '%-40s %16s %16s %7s\n' "$name" "$a" "$b" "$(ratio "${a%% *}" "${b%% *}")"
	done
	echo "# Bochs: TSC ticks, one per instruction (an XSAVE or a string copy counts as about one);"
	echo "# arm64-icount: instructions (gp), ns of guest time, one per instruction under -icount"
	echo "# shift=0 (page update, reset); each page and reset figure a median of resets timed one by one"
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
