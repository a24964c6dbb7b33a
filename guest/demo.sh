#!/bin/sh
# What 'make run' shows, inside the x86_64 guest. Usage: demo.sh PERF
perf=${1:?usage: demo.sh PERF}
cd "${TMPDIR:-/tmp}" || exit 1
echo "kernel: $(uname -r) ($(uname -m))"
echo "cpu:    $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1), $(nproc) cpus"
echo "perf:   $($perf version)"
echo
echo "\$ perf stat -e cpu-clock,task-clock,context-switches,page-faults -- perf test -w noploop 1"
"$perf" stat -e cpu-clock,task-clock,context-switches,page-faults -- "$perf" test -w noploop 1 2>&1
