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
objs=$(echo "$touched" | grep '\.c$' | grep -v -e '/test/' -e '^tools/' | sed 's/\.c$/.o/')
export CCACHE_DIR=${CCACHE_DIR:-$BUILD/ccache} CCACHE_DEPEND=1
make -C "$TREE" O="$O16" CC="ccache ${CROSS_COMPILE}gcc" W=1 C=2 $objs \
	>"$O16/hygiene.log" 2>&1 || { res FAIL w1-sparse "build failed: $(grep -m1 -i error "$O16/hygiene.log")"; exit 0; }
checked=$(grep -cE "^  CHECK .*($(echo $objs | sed 's/\.o//g; s/ /|/g'))\.c" "$O16/hygiene.log" || true)
out=$(grep -E 'warning|error' "$O16/hygiene.log" | grep -E "$(echo $touched | tr ' ' '|')" || true)
if [ "$checked" -lt "$(echo $objs | wc -w)" ]; then
	res FAIL w1-sparse "sparse checked $checked of $(echo $objs | wc -w) files"
elif [ -z "$out" ]; then
	res PASS w1-sparse "no W=1 or sparse warnings in $(echo $objs)"
else
	res FAIL w1-sparse "$(echo "$out" | head -1)"
fi
