#!/bin/bash
# Kernel hygiene of the series: checkpatch --strict per patch, kernel-doc
# on new files, W=1 and sparse on touched files. Prints "PASS|name|detail"
# or "FAIL|name|detail" lines. Needs the 16k emu build in $O16.
. "$(dirname "$0")/../scripts/lib.sh"
res() { echo "$1|$2|$3"; }

for p in $(series_patches); do
	n=$(basename "$p" .patch)
	out=$("$TREE/scripts/checkpatch.pl" --strict --no-tree -q "$p" 2>&1)
	if [ -z "$out" ]; then
		res PASS "checkpatch-${n:0:4}" "clean"
	else
		res FAIL "checkpatch-${n:0:4}" "$(echo "$out" | grep -m1 -E '^(ERROR|WARNING|CHECK)')"
	fi
done

touched=$(git -C "$TREE" diff --name-only base HEAD -- '*.c' '*.h' | sort -u)
new=$(git -C "$TREE" diff --name-only --diff-filter=A base HEAD -- '*.c' '*.h')
out=$(cd "$TREE" && scripts/kernel-doc -none $new 2>&1)
if [ -z "$out" ]; then res PASS kernel-doc "$(echo $new)"; else res FAIL kernel-doc "$(echo "$out" | head -1)"; fi

# W=1 and sparse (C=2 checks files even when up to date) on touched objects.
objs=$(echo "$touched" | grep '\.c$' | grep -v '/test/' | sed 's/\.c$/.o/')
export CCACHE_DIR=${CCACHE_DIR:-$BUILD/ccache}
out=$(make -C "$TREE" -s O="$O16" CC="${CROSS_COMPILE}gcc" W=1 C=2 $objs 2>&1 |
	grep -E 'warning|error' | grep -E "$(echo $touched | tr ' ' '|')")
if [ -z "$out" ]; then
	res PASS w1-sparse "no warnings in $(echo $objs)"
else
	res FAIL w1-sparse "$(echo "$out" | head -1)"
fi
