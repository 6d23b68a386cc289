#!/bin/bash
# numactl's own regression suite for the guest: Debian's numactl source
# package (the version of the arm64 numactl the guest runs), its test
# programs and numademo built for arm64 against Debian's arm64 libnuma.
# Downloads the source with a private apt configuration (no deb-src line
# is added to the machine). Prints the directory to put in the guest.
. "$(dirname "$0")/lib.sh"

out=$BUILD/numactl-tests
apt=$BUILD/apt-src
root=$BUILD/rootfs
[ -f "$out/.done" ] && [ "$out/.done" -nt "$0" ] && { echo "$out"; exit 0; }
deb=$(ls "$BUILD"/debs/numactl_*_arm64.deb 2>/dev/null | head -1)
[ -n "$deb" ] && [ -d "$root/usr/lib/aarch64-linux-gnu" ] ||
	die "build the initramfs first (no numactl:arm64 in $BUILD/debs)"
ver=$(dpkg-deb -f "$deb" Version)

# The source package, from Debian's archive.
mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial" "$apt/src"
echo "deb-src http://deb.debian.org/debian bookworm main" >"$apt/sources.list"
opts=(-o "Dir::Etc::SourceList=$apt/sources.list" -o Dir::Etc::SourceParts=/dev/null
      -o "Dir::State::Lists=$apt/lists" -o "Dir::Cache=$apt/cache"
      -o Debug::NoLocking=1 -o APT::Sandbox::User="$(id -un)")
if ! ls "$apt/src/numactl_${ver%-*}.orig.tar.gz" >/dev/null 2>&1; then
	apt-get "${opts[@]}" update -qq || die "apt-get update (sources) failed"
	(cd "$apt/src" && apt-get "${opts[@]}" source --download-only -qq "numactl=$ver") ||
		die "cannot download the numactl $ver source package"
fi
src=$apt/numactl-${ver%-*}
rm -rf "$src" "$out"
tar -xzf "$apt/src/numactl_${ver%-*}.orig.tar.gz" -C "$apt"
tar -xJf "$apt/src/numactl_$ver.debian.tar.xz" -C "$src"
if [ -f "$src/debian/patches/series" ]; then
	grep -v '^#' "$src/debian/patches/series" | while read -r p _; do
		[ -z "$p" ] || git -C "$src" apply "debian/patches/$p" || exit 1
	done || die "Debian's patches do not apply"
fi

# The programs "make check" and its scripts use, built against the arm64
# libnuma the guest has.
mkdir -p "$out/test"
cc="${CROSS_COMPILE}gcc -O2 -w -I$src"
lib=$root/usr/lib/aarch64-linux-gnu/libnuma.so.1
for t in distance ftok mbind_mig_pages migrate_pages move_pages mynode nodemap \
	 pagesize randmap realloc_test tshared; do
	$cc -o "$out/test/$t" "$src/test/$t.c" "$lib" || die "cannot build test/$t"
done
for t in node-parse prefered tbitmap; do
	$cc -o "$out/test/$t" "$src/test/$t.c" "$src/util.c" "$lib" || die "cannot build test/$t"
done
$cc -o "$out/numademo" "$src/numademo.c" "$src/stream_lib.c" "$src/mt.c" \
	"$src/clearcache.c" "$src/util.c" "$lib" -lm || die "cannot build numademo"
for s in bind_range checkaffinity checktopology numademo printcpu regress regress2 shmtest; do
	install -m 0755 "$src/test/$s" "$out/test/$s"
done
ln -sf /usr/bin/numactl "$out/numactl"
ln -sf /usr/bin/memhog "$out/memhog"
touch "$out/.done"
echo "$out"
