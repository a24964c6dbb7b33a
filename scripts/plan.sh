#!/bin/bash
# Print the test plan for one guest (the format is described in
# guest/runner.c). PREFIX is where build/tests/ARCH appears in the guest.
# Test lists come from the selftests' own Makefiles, so a test that failed
# to build shows up as a failure instead of vanishing.
. "$(dirname "$0")/lib.sh"

guest=${1:?usage: plan.sh GUEST PREFIX}
prefix=${2:?usage: plan.sh GUEST PREFIX}
arch=${guest%-icount}
arch=${arch%-kasan}
arch=${arch%-avx512}
src=$TREE/tools/testing/selftests

progs() {
	make -s -C "$src/$1" ARCH=$(arch_vars "$arch"; echo $KARCH) emit_tests COLLECTION=x 2>/dev/null |
		sed -n 's/^x://p'
}

# The fuzz run in make check: its seed and bounds (README: reliability).
FUZZ_FIXED="-s 20261201 -n 10000 -t 3 -T 240"

echo "# plan for $guest on $(base_version)"
echo "@write /proc/sys/kernel/perf_event_paranoid -1"
if [ "$guest" = arm64-icount ]; then
	# Where QEMU's PMUv3 counts instructions too: exact counts, and
	# group_pmc, user_page and libperf reading counters directly.
	echo "@write /proc/sys/kernel/perf_user_access 1"
	echo "pmu-count count_hw 120 $prefix/count_hw"
	echo "perf_events group_pmc 300 $prefix/perf_events/group_pmc"
	echo "perf_events user_page 120 $prefix/perf_events/user_page"
	echo "libperf evsel 300 $prefix/libperf/tests-static -v evsel"
	exit 0
fi
if [ "$guest" = x86_64-avx512 ]; then
	# Bochs has no -no-reboot: the runner powers off, bochs.sh stops it.
	echo "@poweroff"
	# Bochs runs a few times slower than QEMU: what needs AVX-512 or
	# exercises the capture, not the whole perf_events suite. The fuzzer
	# gets a smaller budget; its AVX-512 widths open here.
	for t in simd_regs sw_samples; do
		echo "perf_events $t 900 $prefix/perf_events/$t"
	done
	echo "fuzz perf_fuzz 400 $prefix/perf_events/perf_fuzz ${FUZZ_ARGS:--s 20261201 -n 2000 -t 3 -T 30} -l /run/perf_fuzz.log"
	exit 0
fi
# Tests that must not run on a guest: they would break the guest itself.
# Each says why; results.py reports them as skipped with the reason.
not_run() {
	case $arch/$1 in
	ppc64le/remove_on_exec)
		echo "QEMU's ppc PMU ignores the MMCR2 freeze bits, so this exclude_kernel sigtrap event overflows again in the kernel and trips the WARN in __perf_event_overflow() (docs/qemu-ppc-pmu.md)" ;;
	*) return 1 ;;
	esac
}

for t in $(progs perf_events); do
	if why=$(not_run "$t"); then
		echo "@skip perf_events $t $why"
		continue
	fi
	# sigtrap_threads' two stress cases may take 120 s each.
	case $t in sigtrap_threads) limit=300 ;; *) limit=120 ;; esac
	echo "perf_events $t $limit $prefix/perf_events/$t"
done

case $guest in
x86_64)
	echo "perf-smoke perf 300 /bin/sh $ROOT/guest/tests/perf-smoke.sh $BUILD/obj/perf/perf"
	echo "perf-test simd_regs 300 /bin/sh $ROOT/guest/tests/perf-test.sh $BUILD/obj/perf/perf $TREE/tools/perf SIMD"
	echo "perf-test group_pmc 300 /bin/sh $ROOT/guest/tests/perf-test.sh $BUILD/obj/perf/perf $TREE/tools/perf group_pmc"
	;;
arm64)
	echo "pmu-count count_hw 60 $prefix/count_hw"
	echo "perf-test simd_regs 300 /bin/sh $prefix/perf/perf-test.sh $prefix/perf/perf $prefix/perf SIMD"
	;;
ppc64le)
	echo "pmu count_instructions 60 $prefix/pmu/count_instructions"
	for t in $(progs powerpc/pmu/ebb); do
		echo "ebb $t 20 $prefix/pmu/ebb/$t"
	done
	;;
esac

# The fixed-seed fuzz run comes last: whatever state it leaves behind cannot
# disturb another test. FUZZ_ARGS changes it; make fuzz has its own plan.
case $guest in
x86_64 | x86_64-kasan | arm64)
	echo "fuzz perf_fuzz ${FUZZ_TIMEOUT:-400} $prefix/perf_events/perf_fuzz ${FUZZ_ARGS:-$FUZZ_FIXED} -l /run/perf_fuzz.log"
	;;
esac

