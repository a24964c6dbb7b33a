# Common definitions for the harness scripts. Sourced, not run.
set -eo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=$ROOT/build
TREE=$BUILD/linux
RESULTS=$BUILD/results
BASE_TARBALL=${BASE_TARBALL:-/usr/src/linux-source-6.12.tar.xz}
BASE_PACKAGE=linux-source-6.12
JOBS=${JOBS:-$(nproc)}

# Debian's tools first: the python3 that has python3-ply (checkpatch's
# spdxcheck.py), whatever else a login shell put ahead of it.
export PATH=/usr/sbin:/usr/bin:/sbin:/bin:$PATH

# ccache lives outside the clone, so a fresh clone on the same machine
# reuses it. CCACHE_BASEDIR makes hits independent of the clone's path.
export CCACHE_DIR=${CCACHE_DIR:-/var/cache/perf-series/ccache}
export CCACHE_BASEDIR=$ROOT
export CCACHE_NOHASHDIR=1
export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-8G}
# A static arm64 busybox: the arm64 guest's /bin/sh (scripts/deps.sh)
BUSYBOX_ARM64=/var/cache/perf-series/busybox-arm64/busybox

# Reproducible kernel builds: no time or host in the image.
export KBUILD_BUILD_TIMESTAMP='Thu Jan  1 00:00:00 UTC 2026'
export KBUILD_BUILD_USER=perf-series
export KBUILD_BUILD_HOST=build

die() { echo "error: $*" >&2; exit 1; }
note() { echo "== $*"; }

# Kernel ARCH= and CROSS_COMPILE= for one of our three guest architectures.
arch_vars() {
	case "$1" in
	x86_64)  KARCH=x86_64;  CROSS=;                       KIMAGE=arch/x86/boot/bzImage ;;
	arm64)   KARCH=arm64;   CROSS=aarch64-linux-gnu-;     KIMAGE=arch/arm64/boot/Image ;;
	ppc64le) KARCH=powerpc; CROSS=powerpc64le-linux-gnu-; KIMAGE=vmlinux ;;
	*) die "unknown architecture '$1' (x86_64, arm64 or ppc64le)" ;;
	esac
}

# "6.12.117 (Debian linux-source-6.12 6.12.117-1~deb12u1)"; the first word
# comes from the tree's Makefile once the tree exists.
base_version() {
	local v pkg
	if [ -f "$TREE/Makefile" ]; then
		v=$(make -s -C "$TREE" kernelversion 2>/dev/null)
	fi
	pkg=$(dpkg-query -W -f '${Version}' "$BASE_PACKAGE" 2>/dev/null || true)
	echo "${v:-unknown} (Debian $BASE_PACKAGE ${pkg:-not installed})"
}

# The patch files that 'series' lists, in order, as absolute paths.
series_files() {
	sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$ROOT/series" |
		while read -r p; do echo "$ROOT/patches/$p"; done
}

# One checksum over 'series' and every patch it names.
series_sum() {
	(cat "$ROOT/series"; series_files | xargs -r cat) | sha1sum | cut -c1-40
}
