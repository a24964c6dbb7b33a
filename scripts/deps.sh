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
