#!/bin/bash
# Series hygiene: every patch applies, in order, to the pristine base, and
# scripts/checkpatch.pl --strict finds no error in any of them. Warnings and
# checks are listed per patch. Writes build/results/-/hygiene.tap.
. "$(dirname "$0")/lib.sh"

[ -d "$TREE/.git" ] || die "no build/linux (run make tree)"
tap=$RESULTS/-/hygiene.tap
mkdir -p "$RESULTS/-"
start=$(date +%s)
n=0
fail=0
body=$(mktemp)
trap 'rm -f "$body" "$BUILD/hygiene.index"' EXIT

ok() { n=$((n + 1)); echo "ok $n $1" >>"$body"; }
not_ok() { n=$((n + 1)); echo "not ok $n $1" >>"$body"; fail=1; }

# Apply to a scratch index holding base, so the check needs no checkout and
# does not depend on what build/linux holds now.
export GIT_INDEX_FILE=$BUILD/hygiene.index
git -C "$TREE" read-tree base
applied=yes
i=0
for p in $(series_files); do
	i=$((i + 1))
	if ! git -C "$TREE" apply --cached "$p" 2>"$BUILD/apply.log"; then
		sed 's/^/# /' "$BUILD/apply.log" >>"$body"
		echo "error: patch $i, $(basename "$p"), does not apply to $(base_version)" >&2
		applied=no
		break
	fi
done
unset GIT_INDEX_FILE
if [ $applied = yes ]; then
	ok "series_applies_to_base ($i patches)"
else
	not_ok "series_applies_to_base"
fi

for p in $(series_files); do
	name=$(basename "$p")
	out=$(cd "$TREE" && ./scripts/checkpatch.pl --strict --showfile "$p" 2>&1 || true)
	total=$(echo "$out" | sed -n 's/^total: //p')
	echo "$out" | sed -e '/^total: /,$d' -e '/^$/d' -e 's/^/# /' >>"$body"
	echo "$name: ${total:-no checkpatch summary}"
	case $total in
	"0 errors"*) ok "checkpatch $name ($total)" ;;
	*) not_ok "checkpatch $name (${total:-checkpatch did not run})" ;;
	esac
done

{
	echo "TAP version 13"
	echo "# suite: hygiene, arch: -, base: $(base_version)"
	echo "# time: $(($(date +%s) - start))"
	echo "1..$n"
	cat "$body"
} >"$tap"
exit $fail
