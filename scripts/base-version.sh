#!/bin/bash
# Print the base the series applies to, e.g.
# "6.12.117 (Debian linux-source-6.12 6.12.117-1~deb12u1)".
. "$(dirname "$0")/lib.sh"
base_version
