# NUMA emulation for arm64: entry points only; the work is in scripts/.
# Knobs: KERNEL=6.1|6.12  KERNEL_SRC=/path  PAGES=4k|16k|64k  NODES=N
#        MEM=4G  SMP=4  CMDLINE="..."  QEMU_ARGS="..."  FRESH_CHECK=1 (make fresh)
SHELL := /bin/bash
export KERNEL PAGES NODES MEM SMP CMDLINE QEMU_ARGS KERNEL_SRC VARIANT FRESH_CHECK

.PHONY: run check mutants compare bench guide fresh clients tree refresh kernel initramfs clean

run:
	@scripts/run.sh

check:
	@tests/check.sh

mutants:
	@tests/mutants.sh

compare:
	@tests/compare.sh

bench:
	@scripts/bench.sh

guide:
	@tests/guide.sh

fresh:
	@scripts/fresh.sh

clients:
	@tests/clients.sh

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
