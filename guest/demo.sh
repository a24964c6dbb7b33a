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

# SIMD registers in samples: what this CPU offers, probed by perf itself.
avail=$("$perf" record --user-regs='?' 2>&1 | head -n 1)
echo
echo "\$ perf record --user-regs=?"
echo "$avail"
regs=R12,XMM0-3
echo "$avail" | grep -q YMM0 && regs=$regs,YMM4
echo "$avail" | grep -q ZMM0 && regs=$regs,ZMM8,K1
echo
echo "\$ perf record -e cpu-clock -c 200000 --user-regs=$regs -- perf test -w simdloop 1"
"$perf" record -q -o simd.data -e cpu-clock -c 200000 --user-regs="$regs" -- \
	"$perf" test -w simdloop 1 2>&1
echo "\$ perf script -F ip,uregs | grep R12:0x5151515151515151 | tail -n 2"
"$perf" script -i simd.data -F ip,uregs | grep R12:0x5151515151515151 | tail -n 2
# simdloop puts 0x5300000000000000 | reg << 8 | word in each vector word.
"$perf" script -i simd.data -F uregs | awk '
	/R12:0x5151515151515151/ {
		s++
		for (i = 1; i <= NF; i++) {
			if (split($i, kv, ":") != 2 || kv[1] !~ /^[XYZ]MM[0-9]+$/)
				continue
			r = substr(kv[1], 4) + 0
			n = split(kv[2], w, ",")
			for (q = 1; q <= n; q++) {
				v++
				if (w[q] == sprintf("0x530000000000%04x", r * 256 + q - 1))
					ok++
			}
		}
	}
	END { printf "%d samples in simdloop: %d of %d vector words equal what it loaded\n", s, ok, v }'
