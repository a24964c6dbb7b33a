#!/bin/bash
# Install the Debian packages listed in scripts/packages that are missing.
# Idempotent: with everything present it only reads the dpkg database.
. "$(dirname "$0")/lib.sh"

want=$(sed 's/#.*//' "$ROOT/scripts/packages" | xargs)
missing=
for p in $want; do
	dpkg-query -W -f '${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
		missing="$missing $p"
done
if [ -n "$missing" ]; then
	[ "$(id -u)" = 0 ] || die "missing packages:$missing (run as root to install)"
	note "installing:$missing"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq
	# shellcheck disable=SC2086
	apt-get install -y -qq --no-install-recommends $missing >/dev/null
fi
mkdir -p "$CCACHE_DIR"
