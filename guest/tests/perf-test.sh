#!/bin/sh
# Run one 'perf test' case by name in the guest and turn its verdict into
# an exit status: 0 Ok, 4 Skip (its reason last), 1 anything else. The
# case's shell scripts call 'perf', so PERF's directory goes first in PATH;
# perf finds tests/shell relative to SRC (tools/perf of the tree).
# Usage: perf-test.sh PERF SRC NAME
perf=${1:?usage: perf-test.sh PERF SRC NAME}
src=${2:?usage: perf-test.sh PERF SRC NAME}
name=${3:?usage: perf-test.sh PERF SRC NAME}
PATH=$(dirname "$perf"):$PATH
export PATH
# A guest whose shell is busybox (arm64): its applets, once, as commands
if [ -x /bin/busybox ] && [ ! -e /bin/awk ]; then
	/bin/busybox --install -s /bin || exit 1
fi
cd "$src" || exit 1
out=$("$perf" test -v "$name" 2>&1)
echo "$out"
case $out in
*": Ok"*) exit 0 ;;
*": Skip"*)
	echo "$out" | grep -i -m1 '^skip' || echo "perf test: skipped"
	exit 4 ;;
esac
exit 1
