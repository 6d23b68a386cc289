#!/bin/bash
# Kernel hygiene of the series: checkpatch --strict per patch, kernel-doc
# on new files, W=1 and sparse on touched files. Prints "PASS|name|detail"
# or "FAIL|name|detail" lines. Needs the 16k emu build in $O16.
. "$(dirname "$0")/../scripts/lib.sh"
res() { echo "$1|$2|$3"; }

for p in $(series_patches); do
	n=$(basename "$p" .patch)
	out=$("$TREE/scripts/checkpatch.pl" --strict --no-tree -q "$p" 2>&1) || true
	if [ -z "$out" ]; then
		res PASS "checkpatch-${n:0:4}" "clean"
	else
		res FAIL "checkpatch-${n:0:4}" "$(echo "$out" | grep -m1 -E '^(ERROR|WARNING|CHECK)')"
	fi
done

touched=$(git -C "$TREE" diff --name-only base HEAD -- '*.c' '*.h' | sort -u)
new=$(git -C "$TREE" diff --name-only --diff-filter=A base HEAD -- '*.c' '*.h')
out=$(cd "$TREE" && scripts/kernel-doc -none $new 2>&1) || true
if [ -z "$out" ]; then res PASS kernel-doc "$(echo $new)"; else res FAIL kernel-doc "$(echo "$out" | head -1)"; fi

# W=1 and sparse (C=2 checks files even when up to date) on touched objects:
# no warnings in new files, no new warnings in files that exist in the base
# (compared with the same check on the unpatched tree, $BASE_TREE/$BASE_O).
# The check builds an arm64 kernel: another architecture's files (riscv's
# mm/init.c) are built by its own kernel and per patch, not checked here.
objs=$(echo "$touched" | grep '\.c$' | grep -v -e '/test/' -e '^tools/' | awk '!/^arch\// || /^arch\/arm64\//' |
	sed 's/\.c$/.o/')
other=$(echo "$touched" | grep '\.c$' | grep '^arch/' | grep -v '^arch/arm64/' | tr '\n' ' ')
old_objs=$(for o in $objs; do git -C "$TREE" cat-file -e "base:${o%.o}.c" 2>/dev/null && echo "$o"; done)
wcheck() { # tree outdir objs... -> normalized warnings of those files
	local tree=$1 out=$2 files
	shift 2
	files=$(echo "$@" | sed 's/\.o\b/.c/g; s/ /|/g')
	# Compiled again on both sides, so that W=1 sees every file (C=2
	# alone re-checks with sparse only).
	(cd "$out" && rm -f "$@")
	make -C "$tree" O="$out" CC="ccache ${CROSS_COMPILE}gcc" W=1 C=2 "$@" >"$out/hygiene.log" 2>&1 ||
		{ echo "BUILD-FAILED $(grep -m1 -i error "$out/hygiene.log")"; return; }
	echo "CHECKED $(grep -cE "^  CHECK .*($files)" "$out/hygiene.log")"
	grep -E 'warning|error' "$out/hygiene.log" | grep -E "($files)" |
		sed -E 's#^.*/(linux-[^/]*)/##; s/:[0-9]+:[0-9]+:/:/' | sort -u || true
}
# shellcheck disable=SC2086
head_w=$(wcheck "$TREE" "$O16" $objs)
base_w=
# shellcheck disable=SC2086
[ -n "$old_objs" ] && [ -n "${BASE_O:-}" ] && base_w=$(wcheck "$BASE_TREE" "$BASE_O" $old_objs)
checked=$(echo "$head_w" | sed -n 's/^CHECKED //p')
new=$(comm -23 <(echo "$head_w" | grep -v '^CHECKED' | sort) <(echo "$base_w" | grep -v '^CHECKED' | sort))
if echo "$head_w$base_w" | grep -q BUILD-FAILED; then
	res FAIL w1-sparse "$(echo "$head_w$base_w" | grep -m1 BUILD-FAILED)"
elif [ -n "$old_objs" ] && [ -z "$base_w" ]; then
	res FAIL w1-sparse "no base build to compare with (BASE_O unset)"
elif [ "${checked:-0}" -lt "$(echo $objs | wc -w)" ]; then
	res FAIL w1-sparse "sparse checked ${checked:-0} of $(echo $objs | wc -w) files"
elif [ -z "$new" ]; then
	res PASS w1-sparse "no new W=1 or sparse warnings in $(echo $objs)${other:+ (not checked: $other)}"
else
	res FAIL w1-sparse "$(echo "$new" | head -1)"
fi

# MAINTAINERS: get_maintainer.pl names a maintainer for every new file.
miss=
for f in $(git -C "$TREE" diff --name-only --diff-filter=A base HEAD); do
	(cd "$TREE" && scripts/get_maintainer.pl --no-git --no-rolestats -f "$f" 2>/dev/null) |
		grep -q 'numa-emu@lists.invalid' || miss="$miss $f"
done
if [ -z "$miss" ]; then
	res PASS get-maintainer "every new file has the NUMA EMULATION entry's maintainer"
else
	res FAIL get-maintainer "no maintainer for:$miss"
fi
