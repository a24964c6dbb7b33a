#!/bin/sh
# perf smoke test for the x86_64 guest: the freshly built perf counts and
# samples software events. Usage: perf-smoke.sh PATH-TO-PERF. Prints TAP.
perf=${1:?usage: perf-smoke.sh PERF}
n=0
fail=0
ok() { n=$((n + 1)); echo "ok $n $1"; }
not_ok() { n=$((n + 1)); echo "not ok $n $1"; fail=1; }
check() { name=$1; shift; if "$@"; then ok "$name"; else not_ok "$name"; fi; }

cd "${TMPDIR:-/tmp}" || exit 1
echo "TAP version 13"
echo "1..5"

version=$("$perf" version)
check perf_version test -n "$version"
echo "# $version"

# Counting: a one-second busy loop is mostly CPU time.
"$perf" stat -x, -e cpu-clock,task-clock,page-faults,context-switches \
	-o stat.csv -- "$perf" test -w noploop 1
sed 's/^/# /' stat.csv
clock=$(awk -F, '$3 == "cpu-clock" { printf "%d", $1 }' stat.csv)
faults=$(awk -F, '$3 == "page-faults" { printf "%d", $1 }' stat.csv)
check stat_cpu_clock_counts test "${clock:-0}" -gt 100
check stat_page_faults_count test "${faults:-0}" -gt 0

# Sampling: cpu-clock every 1 ms of CPU time for one second.
"$perf" record -q -e cpu-clock -c 1000000 -o perf.data -- \
	"$perf" test -w noploop 1
samples=$("$perf" script -i perf.data -F comm,period 2>/dev/null | wc -l)
echo "# perf record: $samples samples"
check record_has_samples test "$samples" -gt 100
"$perf" report -i perf.data --stdio --sort comm 2>/dev/null >report.txt
sed -n '/^[^#]/p' report.txt | head -n 5 | sed 's/^/# /'
# Only the table rows count: the '#' header mentions perf whatever the data.
check report_names_workload grep -q '^ *[0-9.]*% *perf *$' report.txt
exit $fail
