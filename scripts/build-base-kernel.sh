#!/bin/bash
# The kernel without the series, for make bench's side-by-side numbers:
# the base tag of build/linux, checked out in build/base-linux, configured
# like the x86_64 guest and built in build/obj/x86_64-base. Options of the
# guest's fragments that only the series has (its KUnit suites and test
# hooks) are left out.
. "$(dirname "$0")/lib.sh"

arch_vars x86_64
src=$BUILD/base-linux
obj=$BUILD/obj/x86_64-base
kmake() {
	make -s -C "$src" O="$obj" ARCH=$KARCH CC="ccache gcc" HOSTCC="ccache gcc" "$@"
}

[ -d "$TREE/.git" ] || die "no build/linux (run make tree)"
# A checkout left from an earlier build/linux is made again.
if ! git -C "$src" rev-parse -q --verify HEAD >/dev/null 2>&1; then
	rm -rf "$src"
	git -C "$TREE" worktree prune
	git -C "$TREE" worktree add -q -f --detach "$src" base
fi
[ "$(git -C "$src" rev-parse HEAD)" = "$(git -C "$TREE" rev-parse base)" ] ||
	git -C "$src" checkout -q --detach base
mkdir -p "$obj"

# The symbols the base's Kconfig files define
known=$(mktemp)
frag=$obj/base.config
trap 'rm -f "$known"' EXIT
find "$src" -name 'Kconfig*' -not -path '*/tools/*' -print0 |
	xargs -0 sed -n 's/^[[:space:]]*\(menu\)\{0,1\}config[[:space:]]\{1,\}\([A-Za-z0-9_]*\).*/\2/p' |
	sort -u >"$known"
cat "$ROOT/config/common.config" "$ROOT/config/x86_64.config" |
	while read -r line; do
		sym=$(echo "$line" | sed -n 's/^CONFIG_\([A-Za-z0-9_]*\)=.*/\1/p')
		if [ -z "$sym" ] || grep -qxF "$sym" "$known"; then
			echo "$line"
		fi
	done >"$frag"

stamp=$(sha1sum <"$frag" | cut -c1-40)
if [ ! -f "$obj/.config" ] || [ "$(cat "$obj/.fragments" 2>/dev/null)" != "$stamp" ]; then
	note "kernel x86_64-base: configuring"
	kmake tinyconfig >/dev/null
	KCONFIG_CONFIG=$obj/.config "$src/scripts/kconfig/merge_config.sh" \
		-m -O "$obj" "$obj/.config" "$frag" >"$obj/merge.log" 2>&1
	kmake olddefconfig >/dev/null
	echo "$stamp" >"$obj/.fragments"
fi
note "kernel x86_64-base: building"
kmake -j"$JOBS" all
[ -f "$obj/$KIMAGE" ] || die "kernel x86_64-base: $KIMAGE missing after build"
note "kernel x86_64-base: $(kmake -s kernelrelease) -> build/obj/x86_64-base/$KIMAGE"
