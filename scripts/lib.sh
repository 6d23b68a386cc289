# Shared settings and helpers, sourced by the other scripts.
# shellcheck shell=bash
set -euo pipefail

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# Tools that live in /usr/sbin but need no root (mkfs.vfat): a normal
# user's PATH on Debian leaves /usr/sbin and /sbin out.
case ":$PATH:" in
*:/usr/sbin:*) ;;
*) PATH=$PATH:/usr/sbin:/sbin ;;
esac
BUILD=${BUILD:-$TOP/build}
KERNEL=${KERNEL:-6.1}
PAGES=${PAGES:-16k}
# The guest architecture: arm64 (the Raspberry Pi 5 stand-in) or riscv64.
RIG_ARCH=${RIG_ARCH:-arm64}
case "$RIG_ARCH" in
arm64)
	ARCH=arm64 KSYM=ARM64 SUFFIX=
	CROSS_COMPILE=${CROSS_COMPILE:-aarch64-linux-gnu-}
	IMAGE=arch/arm64/boot/Image ;;
riscv64)
	ARCH=riscv KSYM=RISCV SUFFIX=-riscv64 PAGES=4k
	CROSS_COMPILE=riscv64-linux-gnu-
	IMAGE=arch/riscv/boot/Image ;;
*)
	echo "error: RIG_ARCH=$RIG_ARCH is not supported (arm64 or riscv64)" >&2
	exit 1 ;;
esac
export ARCH CROSS_COMPILE RIG_ARCH

# The kernel tree to work on (TREE may be preset, e.g. to the base worktree).
if [ -n "${TREE:-}" ]; then
	:
elif [ -n "${KERNEL_SRC:-}" ]; then
	TREE=$BUILD/linux-custom
else
	TREE=$BUILD/linux-$KERNEL
fi

# Patch series: the product (patches/) for 6.1 or a user's tree; for a
# mainline comparison kernel, only its selftest, ported when it is applied.
SERIES_DIR=$TOP/patches
SERIES_FILE=$SERIES_DIR/series
PORT=
if [ "$KERNEL" != 6.1 ] && [ -z "${KERNEL_SRC:-}" ]; then
	PORT=1
fi

# One compiler cache for every build of the rig, kept outside build/ so that
# "make clean" or a new clone of the repository starts warm; paths under
# $BUILD are hashed relative to the directory the compiler runs in (the
# build directory), so a clone at another path hits too
# (the kernel maps __FILE__ to the tree, and the configs have no debug
# info, whose directory names would differ).
# A home that cannot be written keeps the cache in build/ as before.
rig_home=${HOME:-$(getent passwd "$(id -u)" | cut -d: -f6 || true)}
export CCACHE_DIR=${CCACHE_DIR:-${XDG_CACHE_HOME:-${rig_home:-$BUILD}/.cache}/numa-emu-ccache}
{ mkdir -p "$CCACHE_DIR" && [ -w "$CCACHE_DIR" ]; } 2>/dev/null || CCACHE_DIR=$BUILD/ccache
export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$(mkdir -p "$BUILD" && cd "$BUILD" && pwd -P)} CCACHE_DEPEND=1
export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-10G}
# The compiler cache's keys hold the locale (it changes the compiler's
# messages): every caller (CI, a login shell, a desktop terminal) builds
# in the same one, the C locale, and shares the cache.
unset LANG LANGUAGE "${!LC_@}"

die() { echo "error: $*" >&2; exit 1; }
say() { echo ">>> $*" >&2; }

# step "description" cmd...: run cmd, report how long it took.
step() {
	local what=$1 t0 rc=0
	shift
	t0=$(date +%s)
	say "$what ..."
	"$@" || rc=$?
	if [ "$rc" -ne 0 ]; then
		say "$what FAILED after $(($(date +%s) - t0)) s"
		return "$rc"
	fi
	say "$what done in $(($(date +%s) - t0)) s"
}

check_pages() {
	case "$1" in
	4k|16k|64k) ;;
	*) die "PAGES=$1 is not supported (use 4k, 16k or 64k)" ;;
	esac
}

# Configuration variant: "emu" (default: NUMA + NUMA emulation), "noemu"
# (NUMA, emulation compiled out), "nonuma".
VARIANT=${VARIANT:-emu}
# OUT_TAG: a build of its own (make mutants-sweep's schemata kernel).
# A tree's build directories sit beside it, under out/.
outdir() { echo "$(dirname "$TREE")/out/$(basename "$TREE")$SUFFIX${OUT_TAG:-}-$PAGES-$VARIANT"; }
# The unpatched base: a worktree of the tree at "base", laid out as the
# tree is (build/base/linux-6.1, its builds in build/base/out/). The
# compiler cache hashes paths relative to the build directory, so the
# unpatched kernel serves its objects to the builds of the series' first
# commits (per-patch), which hold the same sources.
BASE_TREE=$BUILD/base/$(basename "$TREE")
base_worktree() {
	[ ! -d "$BASE_TREE" ] || return 0
	# (The layout before: build/linux-6.1-base, built in build/out/.)
	rm -rf "$BUILD/$(basename "$TREE")-base" "$BUILD/out/$(basename "$TREE")-base-"*
	git -C "$TREE" worktree prune
	git -C "$TREE" worktree add -q --detach "$BASE_TREE" base
}

# The patch files named by $SERIES_FILE, one path per line.
series_patches() {
	[ -f "$SERIES_FILE" ] || return 0
	local p
	{ grep -v -e '^#' -e '^[[:space:]]*$' "$SERIES_FILE" || true; } | while read -r p _; do
		[ -f "$SERIES_DIR/$p" ] || die "$SERIES_FILE names $p, which does not exist"
		[ -z "$PORT" ] || [[ $p == *selftests-numa_emu* ]] || continue
		echo "$SERIES_DIR/$p"
	done
}

# A checksum of the series file and every patch it names.
series_stamp() {
	{
		echo "$SERIES_FILE ${PORT:+port}"
		series_patches | while read -r p; do sha1sum "$p"; done
	} | sha1sum | cut -c1-40
}

# The series a generated report describes: the short hash of the last
# commit that changed patches/ ("+dirty" while patches/ has changes of its
# own). tests/docs_check.py holds every results/ file to it.
# Printed with the tree id of patches/ there, which a shallow clone can
# compare too: "SERIES TREE".
series_id() {
	local id tree
	id=$(git -C "$TOP" log -1 --format=%h -- patches 2>/dev/null || true)
	tree=$(git -C "$TOP" rev-parse --short=12 HEAD:patches 2>/dev/null || true)
	[ -z "$(git -C "$TOP" status --porcelain -- patches 2>/dev/null)" ] || id="${id:-none}+dirty"
	echo "${id:-none} ${tree:-none}"
}

# Run a command as root (directly, or through sudo for a normal user).
as_root() {
	if [ "$(id -u)" -eq 0 ]; then
		"$@"
	else
		command -v sudo >/dev/null || die "need root or sudo for: $*"
		sudo "$@"
	fi
}

# The gen_init_cpio list of everything under a directory (as root:root).
cpio_list() { # dir
	local f p
	(cd "$1" && find . -mindepth 1 | sort) | while read -r f; do
		p=${f#.}
		if [ -L "$1$p" ]; then
			echo "slink $p $(readlink "$1$p") 0777 0 0"
		elif [ -d "$1$p" ]; then
			echo "dir $p 0755 0 0"
		else
			echo "file $p $1$p $(stat -c %a "$1$p") 0 0"
		fi
	done
}
