#!/bin/bash
# Run perf_events selftests on the kernel without the series, to show
# whether a bug is the base's:
#
#   scripts/base-test.sh GUEST TEST...
#
# GUEST is x86_64-base, arm64-base or arm64-base-icount (the arm64 guest
# under -icount, with perf_user_access on, as arm64-icount). The tests are
# the series' builds (build-tests.sh), run from the same plan format as
# make check; the TAP file lands in build/results/GUEST/perf_events.tap.
# A test that fails here and passes in make check shows a bug of the base
# that the series fixes; this exits 0 either way and prints the TAP file.
. "$(dirname "$0")/lib.sh"

guest=${1:?usage: base-test.sh x86_64-base|arm64-base|arm64-base-icount TEST...}
shift
[ $# -gt 0 ] || die "usage: base-test.sh GUEST TEST..."
arch=${guest%-icount}
arch=${arch%-base}
case $guest in
x86_64-base) prefix=$BUILD/tests/x86_64 ;;
arm64-base | arm64-base-icount) prefix=/tests ;;
*) die "unknown guest '$guest' (x86_64-base, arm64-base or arm64-base-icount)" ;;
esac

"$ROOT/scripts/deps.sh"
"$ROOT/scripts/tree.sh"
"$ROOT/scripts/build-base-kernel.sh" "$arch"
# The kernel build configures the headers the selftests use.
"$ROOT/scripts/build-kernel.sh" "$arch"
"$ROOT/scripts/build-tests.sh" "$arch" >/dev/null

plan=$BUILD/base-test-$guest.plan
{
	echo "# plan for $guest on $(base_version), without the series"
	echo "@write /proc/sys/kernel/perf_event_paranoid -1"
	[ "$guest" = arm64-base-icount ] && echo "@write /proc/sys/kernel/perf_user_access 1"
	for t in "$@"; do
		echo "perf_events $t 300 $prefix/perf_events/$t"
	done
} >"$plan"
"$ROOT/scripts/boot.sh" "$guest" "$plan" || true
"$ROOT/scripts/results.py" guest "$guest" || true
cat "$RESULTS/$guest/perf_events.tap"
