#!/bin/bash
# Boot a kernel and initramfs under Bochs, the one emulator here with
# AVX-512, the way boot.sh runs QEMU: the guest's console goes to stdout,
# and the command ends when the runner prints '@@@ done' (exit 0) or when
# Bochs stops by itself (its status). boot.sh applies the timeout.
#
#   bochs.sh KERNEL INITRAMFS DIR
#
# DIR gets boot.iso (GRUB, the kernel and the initramfs), bochsrc, com1.log
# (the serial console), bochs.out and bochs.log.
#
# Debian's Bochs 2.7, facts that shape the setup:
#  - it has no 'nogui' display; rfb with timeout=0 runs headless without
#    waiting for a client;
#  - it is built with its debugger, which stops at a prompt unless -rc
#    gives it a command file that says 'c';
#  - its sound mixer thread aborts ("buffer overflow detected") on a
#    machine without a sound card, unless the driver is 'dummy';
#  - it reports the standard-format XSAVE size as the compacted one, so
#    Linux would turn XSAVE off: clearcpuid=xsaves,xsavec leaves AVX-512
#    with the standard format and XSAVEOPT;
#  - its TSC advances one tick per instruction, and the guest takes the
#    TSC's frequency from CPUID (2419.2 MHz on tigerlake), so a guest ns
#    is about 2.4 instructions: guest time, and every timeout inside the
#    guest, runs as fast as Bochs does.
. "$(dirname "$0")/lib.sh"

usage="usage: bochs.sh KERNEL INITRAMFS DIR"
kernel=${1:?$usage}
initrd=${2:?$usage}
dir=${3:?$usage}

iso=$dir/iso
rm -rf "$iso" "$dir/boot.iso"
mkdir -p "$iso/boot/grub"
cp "$kernel" "$iso/boot/bzImage"
cp "$initrd" "$iso/boot/initramfs.cpio"
cat >"$iso/boot/grub/grub.cfg" <<EOF
set timeout=0
set default=0
menuentry "perf-series" {
	linux /boot/bzImage console=ttyS0,115200 clearcpuid=xsaves,xsavec panic=-1
	initrd /boot/initramfs.cpio
}
EOF
grub-mkrescue -o "$dir/boot.iso" "$iso" >"$dir/grub-mkrescue.log" 2>&1 ||
	die "grub-mkrescue failed (see $dir/grub-mkrescue.log)"

com1=$dir/com1.log
# ips: Bochs's nominal instructions per second, for its own devices'
# timers; the guest's clock runs on the TSC (see above). BOCHS_CPUS: how
# many CPUs (default 1; its BIOS's MP table describes them, so the kernel
# needs no ACPI for them).
cat >"$dir/bochsrc" <<EOF
megs: 1024
cpu: model=tigerlake, count=${BOCHS_CPUS:-1}, ips=${BOCHS_IPS:-100000000}, reset_on_triple_fault=0
romimage: file=/usr/share/bochs/BIOS-bochs-latest
vgaromimage: file=/usr/share/vgabios/vgabios.bin
ata0-master: type=cdrom, path="$dir/boot.iso", status=inserted
boot: cdrom
clock: sync=none, time0=946684800
com1: enabled=1, mode=file, dev="$com1"
display_library: rfb, options="timeout=0"
sound: driver=dummy
log: $dir/bochs.log
panic: action=fatal
error: action=report
info: action=ignore
debug: action=ignore
EOF
echo c >"$dir/bochs.rc"

: >"$com1"
bochs -q -f "$dir/bochsrc" -rc "$dir/bochs.rc" </dev/null >"$dir/bochs.out" 2>&1 &
pid=$!
tail -n +1 -f "$com1" &
tailpid=$!
trap 'kill $pid $tailpid 2>/dev/null' EXIT
trap 'exit 143' TERM INT

rc=0
while ! grep -q '^@@@ done' "$com1"; do
	if ! kill -0 $pid 2>/dev/null; then
		wait $pid
		rc=$?
		break
	fi
	sleep 1
done
# Let tail copy the last lines out.
sleep 1
exit $rc
