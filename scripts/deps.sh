#!/bin/bash
# Install the Debian packages listed in scripts/packages that are missing.
# NAME/SUITE wants NAME from SUITE (bookworm-backports): a version from the
# stable suite counts as missing. Idempotent: with everything present it
# only reads the dpkg database.
. "$(dirname "$0")/lib.sh"

want=$(sed 's/#.*//' "$ROOT/scripts/packages" | xargs)
missing=
backports=
for p in $want; do
	name=${p%%/*}
	status=$(dpkg-query -W -f '${Status} ${Version}' "$name" 2>/dev/null || true)
	case $status in *"ok installed"*) ;; *) status= ;; esac
	if [ "$name" != "$p" ]; then
		# Debian marks backported versions with ~bpo
		case $status in *~bpo*) ;; *) backports="$backports $name" ;; esac
	elif [ -z "$status" ]; then
		missing="$missing $p"
	fi
done
if [ -n "$missing$backports" ]; then
	[ "$(id -u)" = 0 ] || die "missing packages:$missing$backports (run as root to install)"
	export DEBIAN_FRONTEND=noninteractive
	list=/etc/apt/sources.list.d/bookworm-backports.list
	if [ -n "$backports" ] && [ ! -f "$list" ]; then
		note "adding bookworm-backports to apt"
		echo "deb http://deb.debian.org/debian bookworm-backports main" >"$list"
	fi
	note "installing:$missing${backports:+ (from bookworm-backports:$backports)}"
	apt-get update -qq
	# shellcheck disable=SC2086
	[ -z "$missing" ] || apt-get install -y -qq --no-install-recommends $missing >/dev/null
	# shellcheck disable=SC2086
	[ -z "$backports" ] || apt-get install -y -qq --no-install-recommends \
		-t bookworm-backports $backports >/dev/null
fi
mkdir -p "$CCACHE_DIR"

# The arm64 guest's shell, for its perf test: Debian's static busybox for
# arm64, downloaded (not installed) into the cache next to ccache.
bb=$BUSYBOX_ARM64
if [ ! -x "$bb" ]; then
	[ "$(id -u)" = 0 ] || die "missing $bb (run as root to download busybox-static:arm64)"
	export DEBIAN_FRONTEND=noninteractive
	if ! dpkg --print-foreign-architectures | grep -qx arm64; then
		note "adding arm64 to dpkg's architectures (for busybox-static:arm64)"
		dpkg --add-architecture arm64
		apt-get update -qq
	fi
	note "downloading busybox-static:arm64"
	tmp=$(mktemp -d)
	chmod 0755 "$tmp"	# apt downloads as _apt
	(cd "$tmp" && apt-get download -qq busybox-static:arm64 >/dev/null ||
		{ apt-get update -qq && apt-get download -qq busybox-static:arm64 >/dev/null; })
	mkdir -p "$(dirname "$bb")"
	dpkg-deb --fsys-tarfile "$tmp"/busybox-static_*_arm64.deb |
		tar -xO ./bin/busybox >"$bb.tmp"
	chmod 0755 "$bb.tmp"
	mv "$bb.tmp" "$bb"
	rm -rf "$tmp"
fi
