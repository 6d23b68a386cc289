#!/bin/bash
# make fresh: try the README as a new user on a machine that has never seen
# the project. Builds a minimal Debian 12 root with debootstrap, puts a clean
# clone of this repository's HEAD in it, and runs the README's commands there
# as a normal user with sudo: the prerequisites, "make run" and, with
# FRESH_CHECK=1, "make check"; FRESH_TARGETS="clients guide" runs those
# targets after "make run" instead (the stand-in layers without the whole
# check). Each step's time is reported;
# the end is the layout "make run" printed. Needs root (or sudo) on the host.
. "$(dirname "$0")/lib.sh"

FRESH=${FRESH:-$BUILD/fresh}
root=$FRESH/root
mirror=${FRESH_MIRROR:-http://deb.debian.org/debian}
user=newuser
log=$FRESH/fresh.log
[ -n "$(git -C "$TOP" status --porcelain --untracked-files=no)" ] &&
	say "note: uncommitted changes are not part of the clone; testing $(git -C "$TOP" rev-parse --short HEAD)"

mounts=(proc sys dev dev/pts)
cleanup() {
	local m i
	for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do
		m=$root/${mounts[i]}
		mountpoint -q "$m" && as_root umount -l "$m"
	done
	return 0
}
trap cleanup EXIT

# Leftovers of an earlier run are removed (never across a live mount).
cleanup
as_root rm -rf --one-file-system "$FRESH"
[ "${1:-}" = clean ] && exit 0
command -v debootstrap >/dev/null || {
	say "installing debootstrap on the host"
	as_root apt-get update -qq && as_root apt-get install -y -qq --no-install-recommends debootstrap >/dev/null
} || die "cannot install debootstrap"

mkdir -p "$FRESH"
: >"$log"

inroot() { # run a command in the fresh root as the new user, in its clone
	as_root chroot "$root" /usr/sbin/runuser -l "$user" -c "cd ~/numa-emu && $*"
}

t_all=$(date +%s)
logged() { "$@" >>"$log" 2>&1; }
step "debootstrap: minimal Debian 12 root in $root" \
	logged as_root debootstrap --variant=minbase bookworm "$root" "$mirror" ||
	die "debootstrap failed ($log)"

# A Debian 12 machine as installed: main, updates and security, a resolver,
# a normal user who may use sudo, and nothing the project needs.
as_root tee "$root/etc/apt/sources.list" >/dev/null <<EOF
deb $mirror bookworm main
deb $mirror bookworm-updates main
deb http://deb.debian.org/debian-security bookworm-security main
EOF
as_root cp /etc/resolv.conf "$root/etc/resolv.conf"
# The installer puts the machine's name in /etc/hosts (sudo looks it up).
echo "127.0.1.1 $(hostname)" | as_root tee -a "$root/etc/hosts" >/dev/null
for m in "${mounts[@]}"; do
	case $m in
	proc) as_root mount -t proc proc "$root/proc" ;;
	sys) as_root mount -t sysfs sysfs "$root/sys" ;;
	*) as_root mount --bind "/$m" "$root/$m" ;;
	esac
done
step "a new user's prerequisites: sudo, git, make" \
	logged as_root chroot "$root" sh -c "apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
		apt-get install -y -qq --no-install-recommends sudo git make ca-certificates" ||
	die "prerequisites failed ($log)"
as_root chroot "$root" useradd -m -s /bin/bash "$user"
echo "$user ALL=(ALL) NOPASSWD: ALL" | as_root tee "$root/etc/sudoers.d/$user" >/dev/null

# The clone: HEAD of this repository, as "git clone" gives it.
as_root git clone -q --no-hardlinks "$TOP" "$root/home/$user/numa-emu" ||
	die "git clone failed"
as_root chroot "$root" chown -R "$user:$user" "/home/$user/numa-emu"

# Progress lines (">>> ...") are shown as they come; everything is in *.out.
shown() { # target output: run "make <target>" in the root, keep its output
	local rc=0
	export OUT=$2
	step "make $1 (as $user, in the fresh root)" \
		bash -c 'set -o pipefail; "$@" 2>&1 | tee "$OUT" | { grep --line-buffered -E "^(>>>|error|FAIL|[0-9]+ passed)" || true; } | sed -u "s/^/    /"' \
		_ inroot make "$1" || rc=$?
	[ $rc -eq 0 ] || { tail -25 "$OUT" >&2; die "make $1 failed on the fresh root ($OUT)"; }
}
export -f inroot as_root die say
export root user
shown run "$FRESH/run.out"
targets=${FRESH_TARGETS:-}
[ -n "${FRESH_CHECK:-}" ] && targets="check $targets"
for t in $targets; do
	shown "$t" "$FRESH/$t.out"
done

echo "=== step times of make run ==="
grep -E '^>>> .* (done in|FAILED after) ' "$FRESH/run.out"
for t in $targets; do
	echo "=== make $t: step times and verdict ==="
	grep -E '^>>> .* (done in|FAILED after) |^[0-9]+ passed, [0-9]+ failed' "$FRESH/$t.out" | tail -40
done
echo "=== what make run printed ==="
sed -n '/^=== kernel NUMA lines/,$p' "$FRESH/run.out"
say "fresh root passed in $(($(date +%s) - t_all)) s (logs: $FRESH)"
