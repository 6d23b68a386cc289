#!/bin/bash
# The documentation the series adds or changes builds with Sphinx
# (Debian's python3-sphinx) without new warnings: "make htmldocs" for
# Documentation/admin-guide on the unpatched tree and on the series, and
# the warnings about the files the series touches compared. Prints
# "PASS|htmldocs|..." or "FAIL|htmldocs|...".
. "$(dirname "$0")/../scripts/lib.sh"
out=$BUILD/htmldocs
mkdir -p "$out"
touched=$(git -C "$TREE" diff --name-only base HEAD -- Documentation | xargs -n1 basename | sed 's/\.[a-z]*$//' | sort -u)
pattern=$(echo "$touched" | paste -sd'|')

docs() { # tree name -> normalized warnings about touched files
	rm -rf "$out/$2"
	make -C "$1" O="$out/$2" SPHINXDIRS=admin-guide htmldocs >"$out/$2.log" 2>&1 ||
		{ echo "BUILD-FAILED"; return; }
	grep -E "WARNING|ERROR" "$out/$2.log" | grep -E "($pattern)" |
		sed -E 's#^.*/Documentation/#Documentation/#; s/:[0-9]+:/:/' | sort -u || true
}
[ -d "$BASE_TREE" ] || { echo "FAIL|htmldocs|no unpatched tree at $BASE_TREE"; exit 0; }
head=$(docs "$TREE" series)
# The unpatched tree's warnings change only with the base, Sphinx and the
# documents looked at: made once, kept in $RCACHE (when set) after that.
key=$({ dpkg-query -W -f='${Version}' "linux-source-$KERNEL" python3-sphinx python3-docutils 2>/dev/null
	make -s -C "$BASE_TREE" kernelversion; echo "$pattern"; cat "$0"; } | sha1sum | cut -c1-16)
kept=${RCACHE:-0}/htmldocs-base-$key.txt
if [ "${RCACHE:-0}" != 0 ] && [ -f "$kept" ]; then
	base=$(cat "$kept")
else
	base=$(docs "$BASE_TREE" base)
	[ "${RCACHE:-0}" = 0 ] || [ "$base" = BUILD-FAILED ] || echo "$base" >"$kept"
fi
if [ "$head" = BUILD-FAILED ] || [ "$base" = BUILD-FAILED ]; then
	echo "FAIL|htmldocs|make htmldocs failed ($out/series.log, $out/base.log)"
	exit 0
fi
new=$(comm -23 <(echo "$head") <(echo "$base") | grep . || true)
html=$out/series/Documentation/output/admin-guide/mm/numa_emulation.html
if [ -n "$new" ]; then
	echo "FAIL|htmldocs|$(echo "$new" | head -1)"
elif [ ! -s "$html" ]; then
	echo "FAIL|htmldocs|no $html"
else
	echo "PASS|htmldocs|admin-guide builds; no new Sphinx warnings in $(echo $touched | wc -w) touched documents"
fi
