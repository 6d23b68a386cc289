#!/bin/bash
# Apply the series on top of "base" with git am, one commit per patch.
# Reuses the tree when the series is unchanged; refuses to discard commits
# that were made in the tree but not yet written back with "make refresh".
. "$(dirname "$0")/lib.sh"

stamp=$TREE/.git/rig-series
mapfile -t patches < <(series_patches)
want=$(series_stamp)

head=$(git -C "$TREE" rev-parse HEAD)
if [ -f "$stamp" ]; then
	read -r have applied_head <"$stamp"
	if [ "$have" = "$want" ]; then
		[ "$head" = "$applied_head" ] || say "$TREE has commits not in patches/ (run 'make refresh' to keep them)"
		exit 0
	fi
	[ "$head" = "$applied_head" ] ||
		die "$TREE has commits that are not in patches/; run 'make refresh' first or 'git -C $TREE reset --hard $applied_head' to drop them"
fi
[ -z "$(git -C "$TREE" status --porcelain --untracked-files=no)" ] ||
	die "$TREE has uncommitted changes; commit them (and 'make refresh') or discard them"

# A mainline comparison tree gets the selftest alone: its own files, and
# its line in the selftests Makefile of that kernel.
port() {
	git -C "$TREE" am -q --keep-cr --include='tools/testing/selftests/numa_emu/*' "$1" &&
		sed -i '/^TARGETS += nsfs$/a TARGETS += numa_emu' "$TREE/tools/testing/selftests/Makefile" &&
		grep -qx 'TARGETS += numa_emu' "$TREE/tools/testing/selftests/Makefile" &&
		git -C "$TREE" commit -q -a --amend --no-edit
}

git -C "$TREE" reset -q --hard base
for p in "${patches[@]}"; do
	if [ -n "$PORT" ]; then
		port "$p" || die "cannot port $(basename "$p") to $(basename "$TREE")"
		continue
	fi
	if ! out=$(git -C "$TREE" am -q --keep-cr "$p" 2>&1); then
		git -C "$TREE" am --abort >/dev/null 2>&1 || true
		git -C "$TREE" reset -q --hard "$head"
		echo "$out" | grep -E '^(error|Patch failed|Applying)' >&2 || echo "$out" >&2
		die "patch $(basename "$p") does not apply; tree left as it was"
	fi
done
echo "$want $(git -C "$TREE" rev-parse HEAD)" >"$stamp"
say "applied ${#patches[@]} patch(es)${PORT:+ (the selftest, ported)} on base in $TREE"
