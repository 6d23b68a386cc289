# NUMA emulation for arm64: entry points only; the work is in scripts/.
# Knobs: KERNEL=6.1|6.12  KERNEL_SRC=/path  PAGES=4k|16k|64k  NODES=N
#        MEM=4G  SMP=4  CMDLINE="..."  QEMU_ARGS="..."
#        FRESH_CHECK=1, FRESH_TARGETS="clients guide" (make fresh)
SHELL := /bin/bash
export KERNEL PAGES NODES MEM SMP CMDLINE QEMU_ARGS KERNEL_SRC VARIANT FRESH_CHECK FRESH_TARGETS

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
	@set -o pipefail; tests/guide.sh | awk '{ print } /^FAIL/ { f = 1 } /^PASS/ { n++ } END { exit f || !n }'

fresh:
	@scripts/fresh.sh

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
