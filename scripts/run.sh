#!/bin/bash
# make run: build the patched x86_64 kernel and perf, boot the guest and
# show what the series does (guest/demo.sh).
. "$(dirname "$0")/lib.sh"

t0=$(date +%s)
"$ROOT/scripts/deps.sh"
"$ROOT/scripts/tree.sh"
"$ROOT/scripts/build-kernel.sh" x86_64
"$ROOT/scripts/build-perf.sh"
"$ROOT/scripts/build-tests.sh" x86_64 >/dev/null
plan=$BUILD/demo.plan
echo "demo show 300 /bin/sh $ROOT/guest/demo.sh $BUILD/obj/perf/perf" >"$plan"
BOOT_TIMEOUT=${BOOT_TIMEOUT:-600} "$ROOT/scripts/boot.sh" x86_64 "$plan"
log=$RESULTS/x86_64/console.log
echo
echo "base: $(base_version), series: $(series_files | wc -l) patches, guest: $(cat "$RESULTS/x86_64/accel")"
echo
if ! grep -q '^@@@ end demo show rc=0' "$log"; then
	tail -n 40 "$log"
	die "the demo did not complete (console: build/results/x86_64/console.log)"
fi
sed -n '/^@@@ begin demo show/,/^@@@ end demo show/p' "$log" | sed '1d;$d'
echo
echo "done in $(($(date +%s) - t0))s"
