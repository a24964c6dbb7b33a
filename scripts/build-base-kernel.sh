#!/bin/bash
# The kernel without the series, for make bench's side-by-side numbers and
# for showing a bug on the base (scripts/base-test.sh): the base tag of
# build/linux, checked out in build/base-linux, configured like the guest
# of ARCH (x86_64 or arm64, default x86_64) and built in
# build/obj/ARCH-base. Options of the guest's fragments that only the
# series has (its KUnit suites and test hooks) are left out.
. "$(dirname "$0")/lib.sh"

arch=${1:-x86_64}
case $arch in
x86_64 | arm64) arch_vars "$arch" ;;
*) die "usage: build-base-kernel.sh [x86_64|arm64]" ;;
esac
src=$BUILD/base-linux
obj=$BUILD/obj/$arch-base
kmake() {
	make -s -C "$src" O="$obj" ARCH=$KARCH CROSS_COMPILE=$CROSS \
		CC="ccache ${CROSS}gcc" HOSTCC="ccache gcc" "$@"
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
cat "$ROOT/config/common.config" "$ROOT/config/$arch.config" |
	while read -r line; do
		sym=$(echo "$line" | sed -n 's/^CONFIG_\([A-Za-z0-9_]*\)=.*/\1/p')
		if [ -z "$sym" ] || grep -qxF "$sym" "$known"; then
			echo "$line"
		fi
	done >"$frag"

stamp=$(sha1sum <"$frag" | cut -c1-40)
if [ ! -f "$obj/.config" ] || [ "$(cat "$obj/.fragments" 2>/dev/null)" != "$stamp" ]; then
	note "kernel $arch-base: configuring"
	kmake tinyconfig >/dev/null
	KCONFIG_CONFIG=$obj/.config "$src/scripts/kconfig/merge_config.sh" \
		-m -O "$obj" "$obj/.config" "$frag" >"$obj/merge.log" 2>&1
	kmake olddefconfig >/dev/null
	echo "$stamp" >"$obj/.fragments"
fi
note "kernel $arch-base: building"
kmake -j"$JOBS" all
[ -f "$obj/$KIMAGE" ] || die "kernel $arch-base: $KIMAGE missing after build"
note "kernel $arch-base: $(kmake -s kernelrelease) -> build/obj/$arch-base/$KIMAGE"
