#!/bin/bash
# make export: write base..HEAD of build/linux to patches/ and series.
# Deterministic: zero commit ids, fixed abbreviation, no version signature,
# so exporting an unchanged tree changes no file.
. "$(dirname "$0")/lib.sh"

[ -d "$TREE/.git" ] || die "no build/linux (run make tree)"
[ -z "$(git -C "$TREE" status --porcelain --untracked-files=no)" ] ||
	die "build/linux has uncommitted changes; commit them first"

out=$BUILD/export.tmp
rm -rf "$out"
mkdir -p "$out"
git -C "$TREE" -c core.abbrev=12 -c diff.renames=true -c diff.noprefix=false \
	format-patch -q --zero-commit --no-signature --no-numbered \
	--stat=80 --output-directory "$out" base..HEAD

{
	echo "# The patch stack, in order; names are relative to patches/."
	(cd "$out" && ls -1 -- *.patch 2>/dev/null || true)
} >"$ROOT/series"
rm -f "$ROOT"/patches/*.patch
mkdir -p "$ROOT/patches"
if ls "$out"/*.patch >/dev/null 2>&1; then
	mv "$out"/*.patch "$ROOT/patches/"
fi
rmdir "$out"

# The tree now carries exactly the series.
git -C "$TREE" rev-parse HEAD >"$TREE/.git/series-head"
series_sum >"$TREE/.git/series-sum"
note "export: $(series_files | wc -l) patches in series"
