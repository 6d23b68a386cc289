#!/bin/bash
# Make $TREE a git tree whose first commit (tag "base") is the pristine
# kernel source: Debian's linux-source-$KERNEL, or a copy of $KERNEL_SRC.
. "$(dirname "$0")/lib.sh"

if git -C "$TREE" rev-parse -q --verify base >/dev/null 2>&1; then
	exit 0
fi

tmp=$TREE.tmp
rm -rf "$tmp"
mkdir -p "$tmp"
if [ -n "${KERNEL_SRC:-}" ]; then
	[ -f "$KERNEL_SRC/Makefile" ] && [ -f "$KERNEL_SRC/Kconfig" ] &&
		[ -d "$KERNEL_SRC/arch/arm64" ] ||
		die "KERNEL_SRC=$KERNEL_SRC is not a kernel source tree (no Makefile, Kconfig, arch/arm64)"
	rsync -a --exclude=.git "$KERNEL_SRC/" "$tmp/"
else
	tarball=/usr/src/linux-source-$KERNEL.tar.xz
	[ -f "$tarball" ] || die "$tarball missing (package linux-source-$KERNEL)"
	tar -xf "$tarball" -C "$tmp" --strip-components=1
fi
(
	cd "$tmp"
	# Debian's tree ignores everything at the top level ("/*"), which would
	# hide new files from git; drop those two lines so "git add" sees them.
	[ -f .gitignore ] && sed -i -e '\#^/\*$#d' -e '\#^!/debian/$#d' .gitignore
	git init -q
	git config user.name "numa-emu rig"
	git config user.email "rig@localhost"
	git config core.autocrlf false
	git add -A -f .
	# Fixed dates: the same source gives the same base commit everywhere.
	GIT_COMMITTER_DATE="2000-01-01T00:00:00Z" \
		git commit -q -m "base: $(make -s kernelversion 2>/dev/null || echo unknown)" \
		--date="2000-01-01T00:00:00Z"
	git tag base
)
rm -rf "$TREE"
mv "$tmp" "$TREE"
