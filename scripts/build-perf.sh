#!/bin/bash
# Build tools/perf from the patched tree for the host (x86_64), out of tree
# in build/obj/perf. The x86_64 guest runs it from the host's filesystem.
. "$(dirname "$0")/lib.sh"

[ -d "$TREE/.git" ] || die "no build/linux (run make tree)"
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
