#!/bin/bash
# make tree: build/linux is the base as a git repository (first commit
# tagged 'base') with the series applied by 'git am'.
#
# An existing tree is left alone when it already carries the series. When
# the series changed (a pull, say) and the tree holds no commits of its own,
# it is reset to base and the series is applied again; a tree with local
# commits is never touched.
. "$(dirname "$0")/lib.sh"

apply_series() {
	local p n=0
	for p in $(series_files); do
		n=$((n + 1))
		[ -f "$p" ] || die "series names $(basename "$p"), which is not in patches/"
		if ! git -C "$TREE" am -q --keep-cr "$p" >"$BUILD/am.log" 2>&1; then
			sed 's/^/  /' "$BUILD/am.log" >&2
			git -C "$TREE" am --abort >/dev/null 2>&1 || true
			die "patch $n, $(basename "$p"), does not apply to $(base_version)"
		fi
	done
	git -C "$TREE" rev-parse HEAD >"$TREE/.git/series-head"
	series_sum >"$TREE/.git/series-sum"
	note "tree: $n patches applied on $(base_version)"
}

create_base() {
	[ -f "$BASE_TARBALL" ] || die "$BASE_TARBALL missing (install $BASE_PACKAGE)"
	note "tree: unpacking $BASE_TARBALL"
	rm -rf "$TREE" "$TREE.tmp"
	mkdir -p "$TREE.tmp"
	tar -xJf "$BASE_TARBALL" -C "$TREE.tmp" --strip-components=1
	cd "$TREE.tmp"
	git init -q -b master .
	git config user.name >/dev/null 2>&1 || git config user.name "perf-series"
	git config user.email >/dev/null 2>&1 || git config user.email "perf-series@localhost"
	git config core.abbrev 12
	git config gc.auto 0
	# The tarball has no .gitignore for build outputs we do not make
	# in-tree; add everything it holds, ignored or not.
	git add -A -f .
	local date
	date=$(date -u -r "$BASE_TARBALL" '+%Y-%m-%dT%H:%M:%SZ')
	GIT_AUTHOR_DATE=$date GIT_COMMITTER_DATE=$date \
		git commit -q -m "Linux $(make -s kernelversion) from Debian $BASE_PACKAGE $(dpkg-query -W -f '${Version}' $BASE_PACKAGE)"
	# Debian's .gitignore ignores every top-level path, so a new file
	# would not show up in git status. Drop that rule in a commit of its
	# own, below 'base', so it never lands in patches/.
	if grep -q '^# Debian packaging' .gitignore; then
		sed -i '/^# Debian packaging/,/^!\/debian\/$/d' .gitignore
		GIT_AUTHOR_DATE=$date GIT_COMMITTER_DATE=$date \
			git commit -q -a -m "Let git see new files: drop Debian's ignore-all rule"
	fi
	git tag base
	cd "$ROOT"
	mv "$TREE.tmp" "$TREE"
}

mkdir -p "$BUILD"
if [ ! -d "$TREE/.git" ] || ! git -C "$TREE" rev-parse -q --verify base >/dev/null; then
	create_base
	apply_series
	exit 0
fi

if [ "$(cat "$TREE/.git/series-sum" 2>/dev/null)" = "$(series_sum)" ]; then
	note "tree: up to date ($(git -C "$TREE" rev-list --count base..HEAD) patches on $(base_version))"
	exit 0
fi

head=$(git -C "$TREE" rev-parse HEAD)
if { [ "$head" != "$(cat "$TREE/.git/series-head" 2>/dev/null)" ] &&
     [ "$head" != "$(git -C "$TREE" rev-parse base)" ]; } ||
   [ -n "$(git -C "$TREE" status --porcelain --untracked-files=no)" ]; then
	echo "warning: series changed, but build/linux has commits or edits of its own;" >&2
	echo "warning: leaving it alone (make export, or remove build/linux to start over)" >&2
	exit 0
fi
note "tree: series changed; re-applying on base"
git -C "$TREE" reset -q --hard base
apply_series
