#!/bin/bash
# Boot one guest under QEMU with a hard timeout and run its test plan.
# The console goes to build/results/ARCH/console.log (and to stdout with -v);
# scripts/results.py turns it into TAP files.
#
#   boot.sh [-v] GUEST [PLAN]   PLAN defaults to what plan.sh prints
#
# GUEST is x86_64, arm64, ppc64le, or arm64-icount: the arm64 kernel under
# -icount, which makes QEMU's PMUv3 count instructions. It runs only the
# counting test, since icount serialises the vCPUs and slows everything else.
# It has ICOUNT_CPUS vCPUs, 2 unless set: the instructions that its PMUv3
# counts are those of every vCPU (QEMU's one icount), so a benchmark that
# counts one task's instructions boots it with 1.
#
# x86_64-kasan is the x86_64 guest with the KASAN and UBSAN kernel
# (build-kernel.sh x86_64-kasan); it runs the perf_events selftests and the
# fuzzer.
#
# x86_64-avx512 boots the x86_64 kernel under Bochs, which emulates a Tiger
# Lake CPU with AVX-512 (scripts/bochs.sh): the only guest where ZMM and
# OPMASK registers exist.
#
# x86_64-base, x86_64-avx512-base, arm64-base and arm64-base-icount are
# those guests with the kernel without the series (build-base-kernel.sh
# ARCH), for make bench's side-by-side numbers and for showing a bug on the
# base (base-test.sh).
#
# A guest that stops making progress is stopped before BOOT_TIMEOUT: until
# the runner starts, progress is console output (the kernel booting, the
# KUnit suites); from then on it is the runner's own lines ('@@@ start',
# '@@@ alive' every 10 s of guest time while a test runs, guest/runner.c),
# so a guest that only prints RCU stall reports is stalled too. None for
# STALL_TIMEOUT seconds writes the reason to build/results/GUEST/stalled,
# which results.py reports as the guest's failure.
#
# Environment: BOOT_TIMEOUT (seconds), STALL_TIMEOUT (seconds, default 300),
# KVM=auto|0|1 (x86_64 only), QEMU_PLUGIN (arm64-icount and x86_64, which
# it keeps on TCG: a TCG plugin and its arguments, as -plugin takes them;
# scripts/insnprof.sh), X86_CPUS (x86_64's vCPUs, 2 unless set).
. "$(dirname "$0")/lib.sh"

verbose=
[ "$1" = -v ] && { verbose=1; shift; }
guest=${1:?usage: boot.sh [-v] x86_64|x86_64-kasan|x86_64-avx512|x86_64-base|x86_64-avx512-base|arm64|arm64-icount|arm64-base|arm64-base-icount|ppc64le [PLAN]}
arch=${guest%-icount}
arch=${arch%-kasan}
arch=${arch%-base}
arch=${arch%-avx512}
arch_vars "$arch"
obj=$BUILD/obj/${guest%-icount}
case $guest in
x86_64-avx512) obj=$BUILD/obj/x86_64 ;;
x86_64-avx512-base) obj=$BUILD/obj/x86_64-base ;;
esac
tests=$BUILD/tests/$arch
res=$RESULTS/$guest
mkdir -p "$res"
[ -f "$obj/$KIMAGE" ] || die "boot $guest: no kernel (build-kernel.sh $arch)"
[ -x "$tests/runner" ] || die "boot $guest: no tests (build-tests.sh $arch)"

if [ -n "$2" ]; then
	cp "$2" "$res/plan"
elif [ "$guest" = x86_64 ] || [ "$guest" = x86_64-kasan ] || [ "$guest" = x86_64-base ]; then
	"$ROOT/scripts/plan.sh" "$guest" "$tests" >"$res/plan"
else
	"$ROOT/scripts/plan.sh" "$guest" /tests >"$res/plan"
fi
# Bochs's guest time runs many times slower than the host's (with two
# CPUs, a benchmark's 5.6 s of guest time took about 230 s), so a
# heartbeat every 10 s of guest time can come later than STALL_TIMEOUT:
# the runner beats every guest second there.
case $guest in x86_64-avx512*) sed -i '1i @heartbeat 1' "$res/plan" ;; esac

# An initramfs holding the runner as /init, the plan and build/tests/ARCH.
initramfs() {
	local gen=$BUILD/host/gen_init_cpio list=$res/initramfs.list
	mkdir -p "$BUILD/host"
	[ -x "$gen" ] || gcc -O2 -o "$gen" "$TREE/usr/gen_init_cpio.c"
	{
		echo "dir /dev 0755 0 0"
		echo "nod /dev/console 0600 0 0 c 5 1"
		for d in proc sys tmp run; do echo "dir /$d 0755 0 0"; done
		# A shell for the tests that are scripts (build-tests.sh arm64)
		if [ -x "$tests/bin/busybox" ]; then
			echo "dir /bin 0755 0 0"
			echo "file /bin/busybox $tests/bin/busybox 0755 0 0"
			echo "slink /bin/sh busybox 0777 0 0"
			echo "file /bin/bash $ROOT/guest/bash-on-busybox 0755 0 0"
		fi
		echo "file /init $tests/runner 0755 0 0"
		echo "file /plan $res/plan 0644 0 0"
		(cd "$tests" && find . -mindepth 1 -type d) | sed 's|^\.|dir /tests|; s|$| 0755 0 0|'
		echo "dir /tests 0755 0 0"
		(cd "$tests" && find . -type f -perm -u+x) | while read -r f; do
			echo "file /tests/${f#./} $tests/${f#./} 0755 0 0"
		done
	} | sort -k2,2 >"$list"
	"$gen" "$list" >"$res/initramfs.cpio"
}

# /dev/kvm is there, but a kernel may hang under it before its first
# message: use KVM only if a probe boot gets as far as printing.
kvm_works() {
	[ -w /dev/kvm ] || return 1
	timeout -k 5 20 qemu-system-x86_64 -accel kvm -cpu host -m 256 -smp 1 \
		-display none -monitor none -serial stdio -no-reboot \
		-kernel "$obj/$KIMAGE" -append "console=ttyS0 panic=-1 root=/dev/null" \
		</dev/null 2>/dev/null | grep -q "Linux version"
}

common="-smp 2 -m 2048 -display none -monitor none -serial stdio -no-reboot"
cmdline="panic=-1"
case $guest in
x86_64 | x86_64-kasan | x86_64-base)
	accel="-accel tcg -cpu max"
	mode=tcg
	kvm=${KVM:-auto}
	# A plugin is TCG's.
	[ -n "$QEMU_PLUGIN" ] && kvm=0
	case $kvm in
	1) accel="-accel kvm -cpu host"; mode=kvm ;;
	auto) if kvm_works; then accel="-accel kvm -cpu host"; mode=kvm; fi ;;
	esac
	# Without ACPI the kernel finds CPUs in SeaBIOS's MP table, which
	# lists one CPU per package: two sockets, not two cores. Without
	# ACPI there is no HPET or PM timer either, so a TSC the kernel
	# distrusts leaves it on jiffies: across sockets it checks that the
	# TSCs agree, which TCG's vCPUs, running at their own pace, fail,
	# and it calibrates the TSC against the PIT, which fails when the
	# host is busy. Under TCG every vCPU's TSC is the host's: tsc=reliable
	# and the host's frequency (tsc_early_khz) say so.
	if [ $mode = tcg ]; then
		khz=$(dmesg 2>/dev/null |
		      sed -n 's/.*tsc: Detected \([0-9]*\)\.\([0-9]\{3\}\) MHz.*/\1\2/p' |
		      head -n 1)
		cmdline="$cmdline tsc=reliable${khz:+ tsc_early_khz=$khz}"
	fi
	cpus=${X86_CPUS:-2}
	# shellcheck disable=SC2206
	qemu=(qemu-system-x86_64 $accel $common
	      -smp $cpus,sockets=$cpus,cores=1,threads=1
	      ${QEMU_PLUGIN:+-plugin "$QEMU_PLUGIN"}
	      -fsdev local,id=root,path=/,security_model=none,readonly=on
	      -device virtio-9p-pci,fsdev=root,mount_tag=/dev/root
	      -kernel "$obj/$KIMAGE"
	      -append "console=ttyS0 $cmdline root=/dev/root rootfstype=9p rootflags=trans=virtio,version=9p2000.L,msize=512000 ro init=$tests/runner -- $res/plan")
	;;
arm64 | arm64-base)
	initramfs
	mode=tcg
	# shellcheck disable=SC2206
	qemu=(qemu-system-aarch64 -M virt,gic-version=3 -cpu max $common
	      -kernel "$obj/$KIMAGE" -initrd "$res/initramfs.cpio"
	      -append "console=ttyAMA0 $cmdline irqchip.gicv3_pseudo_nmi=1")
	;;
arm64-icount | arm64-base-icount)
	initramfs
	mode="tcg, icount"
	# shellcheck disable=SC2206
	qemu=(qemu-system-aarch64 -M virt,gic-version=3 -cpu max -icount shift=0 $common
	      -smp "${ICOUNT_CPUS:-2}" ${QEMU_PLUGIN:+-plugin "$QEMU_PLUGIN"}
	      -kernel "$obj/$KIMAGE" -initrd "$res/initramfs.cpio"
	      -append "console=ttyAMA0 $cmdline irqchip.gicv3_pseudo_nmi=1")
	;;
x86_64-avx512 | x86_64-avx512-base)
	initramfs
	mode=bochs
	qemu=("$ROOT/scripts/bochs.sh" "$obj/$KIMAGE" "$res/initramfs.cpio" "$res")
	;;
ppc64le)
	initramfs
	mode=tcg
	# shellcheck disable=SC2206
	qemu=(qemu-system-ppc64 -M pseries -cpu ${PPC_CPU:-power10} $common
	      -kernel "$obj/$KIMAGE" -initrd "$res/initramfs.cpio"
	      -append "console=hvc0 $cmdline")
	;;
esac

# progress PID: wait for the emulator PID to end; stop it when the guest
# makes no progress for STALL_TIMEOUT seconds (see the top of this file).
progress() {
	local pid=$1 stall=${STALL_TIMEOUT:-300} log=$res/console.log
	local last mark seen=
	last=$(date +%s)
	while kill -0 "$pid" 2>/dev/null; do
		sleep 5
		if grep -q '^@@@ ' "$log"; then
			mark=runner:$(grep -c '^@@@ ' "$log")
		else
			mark=boot:$(stat -c %s "$log")
		fi
		if [ "$mark" != "$seen" ]; then
			seen=$mark
			last=$(date +%s)
		elif [ $(($(date +%s) - last)) -ge "$stall" ]; then
			case $mark in
			boot:*) echo "no console output for ${stall}s during boot" ;;
			*) echo "no runner line for ${stall}s after: $(grep '^@@@ ' "$log" | tail -n 1 | tr -d '\r')" ;;
			esac >"$res/stalled"
			note "boot $guest: stalled, $(cat "$res/stalled")"
			# timeout(1) passes TERM on to the emulator; KILL
			# whatever still runs 10 s later.
			kill "$pid"
			for _ in 1 2 3 4 5 6 7 8 9 10; do
				kill -0 "$pid" 2>/dev/null || return 0
				sleep 1
			done
			pkill -KILL -P "$pid"
			kill -KILL "$pid" 2>/dev/null
			return 0
		fi
	done
}

timeout=${BOOT_TIMEOUT:-1800}
echo "$mode" >"$res/accel"
rm -f "$res/stalled"
note "boot $guest: ${qemu[0]##*/} ($mode), timeout ${timeout}s"
start=$(date +%s)
set +e
: >"$res/console.log"
timeout -k 10 "$timeout" "${qemu[@]}" </dev/null >"$res/console.log" 2>&1 &
qpid=$!
[ -n "$verbose" ] && tail -n +1 --pid=$qpid -f "$res/console.log" &
progress $qpid
wait $qpid
rc=$?
wait
set -e
echo $(($(date +%s) - start)) >"$res/boot-seconds"
echo "$rc" >"$res/qemu-rc"
if [ -f "$res/stalled" ]; then
	note "boot $guest: stopped as stalled"
elif [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
	note "boot $guest: timed out after ${timeout}s"
fi
note "boot $guest: ${qemu[0]##*/} exited $rc after $(cat "$res/boot-seconds")s"
