#!/bin/bash
# Write the commits after "base" back to patches/ and regenerate series.
# An unchanged series refreshes byte-identically.
. "$(dirname "$0")/lib.sh"

[ -z "$PORT" ] || die "the $KERNEL tree carries a generated port of the selftest; refresh from the 6.1 tree"
git -C "$TREE" rev-parse -q --verify base >/dev/null || die "no tree at $TREE (run 'make tree')"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
git -C "$TREE" -c core.abbrev=12 format-patch -q -N --zero-commit --no-signature \
	-o "$tmp" base..HEAD
# Keep the cover letter and anything else that is not a numbered patch.
find "$SERIES_DIR" -maxdepth 1 -name '[0-9][0-9][0-9][0-9]-*.patch' \
	! -name '0000-*' -delete
cp "$tmp"/*.patch "$SERIES_DIR"/ 2>/dev/null || true
{
	echo "# Applied in this order on the pristine base (see README)."
	(cd "$SERIES_DIR" && ls [0-9][0-9][0-9][0-9]-*.patch 2>/dev/null | grep -v '^0000-' || true)
} >"$SERIES_FILE"
# Record the new state so "make tree" reuses the tree.
echo "$(series_stamp) $(git -C "$TREE" rev-parse HEAD)" >"$TREE/.git/rig-series"
say "patches/ refreshed: $(grep -vc '^#' "$SERIES_FILE") patch(es)"
