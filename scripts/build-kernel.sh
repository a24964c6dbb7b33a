#!/bin/bash
# Build the guest kernel for one architecture out of tree, in build/obj/ARCH:
# tinyconfig plus config/common.config plus config/ARCH.config. A variant
# such as x86_64-kasan adds config/x86_64-kasan.config, in its own build/obj.
. "$(dirname "$0")/lib.sh"

target=${1:?usage: build-kernel.sh x86_64|arm64|ppc64le|x86_64-kasan}
arch=${target%-kasan}
arch_vars "$arch"
obj=$BUILD/obj/$target
frags="$ROOT/config/common.config $ROOT/config/$arch.config"
[ "$target" = "$arch" ] || frags="$frags $ROOT/config/$target.config"
kmake() {
	make -s -C "$TREE" O="$obj" ARCH=$KARCH CROSS_COMPILE=$CROSS \
		CC="ccache ${CROSS}gcc" HOSTCC="ccache gcc" "$@"
}

[ -d "$TREE/.git" ] || die "no build/linux (run make tree)"
mkdir -p "$obj"

stamp=$(cat $frags | sha1sum | cut -c1-40)
if [ ! -f "$obj/.config" ] || [ "$(cat "$obj/.fragments" 2>/dev/null)" != "$stamp" ]; then
	note "kernel $target: configuring"
	kmake tinyconfig >/dev/null
	# shellcheck disable=SC2086
	KCONFIG_CONFIG=$obj/.config "$TREE/scripts/kconfig/merge_config.sh" \
		-m -O "$obj" "$obj/.config" $frags >"$obj/merge.log" 2>&1
	kmake olddefconfig >/dev/null
	# Every option a fragment asks for must have taken.
	bad=$(sed -n 's/^\(CONFIG_[A-Za-z0-9_]*=.*\)/\1/p' $frags | while read -r want; do
		grep -qxF "$want" "$obj/.config" || echo "  $want"
	done)
	[ -z "$bad" ] || die "kernel $target: options that did not take:
$bad"
	echo "$stamp" >"$obj/.fragments"
fi

note "kernel $target: building"
kmake -j"$JOBS" all
[ -f "$obj/$KIMAGE" ] || die "kernel $target: $KIMAGE missing after build"
note "kernel $target: $(kmake -s kernelrelease) -> build/obj/$target/$KIMAGE"
