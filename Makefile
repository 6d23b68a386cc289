# NUMA emulation for arm64: entry points only; the work is in scripts/.
# Knobs: KERNEL=6.1|6.12  KERNEL_SRC=/path  PAGES=4k|16k|64k  NODES=N
#        MEM=4G  SMP=4  CMDLINE="..."  QEMU_ARGS="..."
SHELL := /bin/bash
export KERNEL PAGES NODES MEM SMP CMDLINE QEMU_ARGS KERNEL_SRC VARIANT

.PHONY: run check compare tree refresh kernel initramfs clean

run:
	@scripts/run.sh

check:
	@tests/check.sh

compare:
	@tests/compare.sh

tree:
	@scripts/deps.sh && scripts/tree.sh

refresh:
	@scripts/refresh.sh

kernel: tree
	@scripts/build.sh

initramfs:
	@scripts/initramfs.sh

clean:
	rm -rf build
