# NUMA emulation for arm64: entry points only; the work is in scripts/.
# Knobs: KERNEL=6.1|6.12  KERNEL_SRC=/path  PAGES=4k|16k|64k  NODES=N
#        MEM=4G  SMP=4  CMDLINE="..."  QEMU_ARGS="..."
#        FRESH_CHECK=1, FRESH_TARGETS="clients guide" (make fresh)
#        IMAGE=path APPEND="..." ARGS="..." KSFT_SRC=path (make selftest; MEM, SMP, QEMU_ARGS too)
SHELL := /bin/bash
export KERNEL PAGES NODES MEM SMP CMDLINE QEMU_ARGS KERNEL_SRC VARIANT FRESH_CHECK FRESH_TARGETS
export IMAGE APPEND ARGS KSFT_SRC
# RIG_O is the per-patch builds' own (one build directory for two configurations).
unexport RIG_O

.PHONY: help run check mutants mutants-sweep compare bench guide fresh clients selftest tree refresh kernel initramfs clean

help:
	@echo "make run        fetch Linux 6.1, apply patches/, build arm64, boot QEMU with numa=fake=4 (NODES=, PAGES=, MEM=, SMP=, CMDLINE=)"
	@echo "make check      every test; ends with 'N passed, N failed' (docs/rig.md)"
	@echo "make selftest   IMAGE=/path/to/Image [APPEND=\"numa=fake=8\"] [ARGS=-S] [KSFT_SRC=/path/to/linux]: the kselftest in QEMU on your own kernel (docs/selftest.md)"
	@echo "make guide      the Raspberry Pi 5 guide's steps, rehearsed on a Raspberry Pi OS stand-in (docs/pi5.md)"
	@echo "make clients    the tools people run (lstopo, atop, numactl...) on the stand-in"
	@echo "make mutants    every plausible defect of tests/mutants.txt; writes results/mutants.md"
	@echo "make mutants-sweep  mechanical mutants of the series' code (tests/sweep.py); writes results/mutants-sweep.md (hours)"
	@echo "make bench      what a fake node costs, side by side with mainline 6.12; writes results/bench.md"
	@echo "make compare    the same matrix and clients on mainline 6.12's emulation"
	@echo "make fresh      the README as a new user, in a debootstrap root (FRESH_CHECK=1: make check too)"
	@echo "make tree       the kernel tree with the series (build/linux-6.1); make refresh writes it back to patches/"
	@echo "make kernel, make initramfs, make clean"

run:
	@scripts/run.sh

check:
	@tests/check.sh

mutants:
	@tests/mutants.sh

mutants-sweep:
	@tests/sweep.sh

compare:
	@tests/compare.sh

bench:
	@scripts/bench.sh

guide:
	@set -o pipefail; tests/guide.sh | awk '{ print } /^FAIL/ { f = 1 } /^PASS/ { n++ } END { exit f || !n }'

fresh:
	@scripts/fresh.sh

selftest:
	@scripts/selftest.sh

# guide and clients print verdicts for make check; alone they fail on a
# FAIL line, when no PASS line came, or when the script itself failed.
clients:
	@set -o pipefail; tests/clients.sh | awk '{ print } /^FAIL/ { f = 1 } /^PASS/ { n++ } END { exit f || !n }'

tree:
	@scripts/deps.sh && scripts/tree.sh

refresh:
	@scripts/refresh.sh

kernel: tree
	@scripts/build.sh

initramfs:
	@scripts/initramfs.sh

clean:
	@[ ! -d build/fresh ] || scripts/fresh.sh clean
	rm -rf build
