#!/bin/bash
# Where a sample's kernel instructions go, function by function, on the
# arm64-icount guest, or with GUEST=x86_64 on x86_64 under TCG (either with
# one vCPU): QEMU runs scripts/insnprof.c, a TCG plugin
# that counts the instructions of every kernel translation block and
# snapshots the counts whenever the kernel enters the function MARK. Between
# two snapshots lies exactly what the kernel ran in between.
#
#   insnprof.sh [PLAN_LINE]
#
# PLAN_LINE defaults to one round of simd_regs_bench; MARK (default
# perf_event_open's syscall entry) then cuts the run at each event that
# the benchmark opens. scripts/insnprof.py prints, for every window with
# samples in it, the instructions per sample of each function, and for
# each window after window FIRST (default 0) the difference from that
# one: where the SIMD part goes, with FIRST the gp row of the counted
# round (4 on arm64, after the benchmark's uncounted round of gp, neon,
# sve512 and sve2048; 3 on x86_64, whose TCG CPU has AVX2 but no AVX-512:
# gp, xmm and ymm).
. "$(dirname "$0")/lib.sh"

guest=${GUEST:-arm64-icount}
case $guest in
arm64-icount)
	arch=arm64
	line=${1:-bench simd_regs_bench 3000 /tests/perf_events/simd_regs_bench -c instructions 1 20000000 50000}
	mark=${MARK:-__arm64_sys_perf_event_open}
	;;
x86_64)
	# QEMU's x86 PMU is not there: the benchmark's own table counts TSC
	# ticks, which under TCG are host time; the plugin's counts are exact.
	arch=x86_64
	line=${1:-bench simd_regs_bench 3000 $BUILD/tests/x86_64/perf_events/simd_regs_bench -c tsc 1 20000000 50000}
	mark=${MARK:-__x64_sys_perf_event_open}
	;;
*) die "insnprof: GUEST is arm64-icount or x86_64, not $guest" ;;
esac
vmlinux=$BUILD/obj/$arch/vmlinux
plugin=$BUILD/insnprof.so
out=$BUILD/insnprof-$guest.out

"$ROOT/scripts/build-kernel.sh" $arch
"$ROOT/scripts/build-tests.sh" $arch >/dev/null
gcc -O2 -shared -fPIC -fvisibility=hidden -Wall -o "$plugin" "$ROOT/scripts/insnprof.c"
arch_vars $arch
addr=$("${CROSS}nm" "$vmlinux" | awk -v s="$mark" '$3 == s { print $1 }')
[ -n "$addr" ] || die "no symbol $mark in $vmlinux"
{
	echo "@write /proc/sys/kernel/perf_event_max_sample_rate 200000"
	echo "@write /proc/sys/kernel/perf_cpu_time_max_percent 0"
	echo "$line"
} >"$BUILD/insnprof.plan"
QEMU_PLUGIN="$plugin,out=$out,mark=$addr" ICOUNT_CPUS=1 X86_CPUS=1 \
	BOOT_TIMEOUT=${BOOT_TIMEOUT:-3600} "$ROOT/scripts/boot.sh" $guest "$BUILD/insnprof.plan"
tr -d '\r' <"$RESULTS/$guest/console.log" | sed -n '/^@@@ begin bench/,/^@@@ end bench/p'
python3 "$ROOT/scripts/insnprof.py" "${CROSS}nm" "$vmlinux" "$out" "${FIRST:-0}"
