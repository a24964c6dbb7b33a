#!/bin/bash
# Build tools/perf from the patched tree for the host (x86_64), out of tree
# in build/obj/perf. The x86_64 guest runs it from the host's filesystem.
# With 'arm64': a static arm64 perf in build/obj/perf-arm64, for the arm64
# guest's initramfs.
. "$(dirname "$0")/lib.sh"

[ -d "$TREE/.git" ] || die "no build/linux (run make tree)"

if [ "${1:-}" = arm64 ]; then
	# The arm64 guest boots from an initramfs without libraries: a static
	# perf with the features that need none of them (no DWARF, no libelf).
	obj=$BUILD/obj/perf-arm64
	mkdir -p "$obj"
	note "perf arm64 (static): building"
	make -s -C "$TREE/tools/perf" O="$obj" -j"$JOBS" ARCH=arm64 \
		CROSS_COMPILE=aarch64-linux-gnu- CC="ccache aarch64-linux-gnu-gcc" \
		LDFLAGS=-static NO_LIBELF=1 NO_LIBTRACEEVENT=1 NO_JEVENTS=1 \
		NO_LIBPYTHON=1 NO_LIBPERL=1 NO_SLANG=1 NO_GTK2=1 NO_LIBUNWIND=1 \
		NO_LIBDW_DWARF_UNWIND=1 NO_LIBBPF=1 NO_LIBCAP=1 NO_LIBNUMA=1 \
		NO_LIBZSTD=1 NO_LZMA=1 NO_ZLIB=1 NO_SDT=1 NO_LIBCRYPTO=1 \
		BUILD_BPF_SKEL=0 NO_LIBBABELTRACE=1 NO_LIBLLVM=1 NO_CAPSTONE=1 \
		NO_LIBAUDIT=1 NO_LIBPFM4=1 NO_DEMANGLE=1 NO_LIBDEBUGINFOD=1 \
		NO_JVMTI=1 NO_SHELLCHECK=1 "$obj/perf" >"$obj/build.log" 2>&1 || {
		tail -n 40 "$obj/build.log" >&2
		die "perf arm64: build failed (build/obj/perf-arm64/build.log)"
	}
	note "perf arm64: -> build/obj/perf-arm64/perf"
	exit 0
fi

obj=$BUILD/obj/perf
mkdir -p "$obj"
note "perf: building"
# Features the guests and tests do not use are off, to keep the build short.
make -s -C "$TREE/tools/perf" O="$obj" -j"$JOBS" CC="ccache gcc" \
	NO_LIBPYTHON=1 NO_LIBPERL=1 NO_GTK2=1 NO_SLANG=1 NO_LIBBABELTRACE=1 \
	NO_LIBNUMA=1 NO_JVMTI=1 NO_LIBUNWIND=1 NO_LIBLLVM=1 BUILD_BPF_SKEL=0 \
	NO_SHELLCHECK=1 >"$obj/build.log" 2>&1 || {
	tail -n 40 "$obj/build.log" >&2
	die "perf: build failed (build/obj/perf/build.log)"
}
note "perf: $("$obj/perf" version) -> build/obj/perf/perf"
