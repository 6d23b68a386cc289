// SPDX-License-Identifier: GPL-2.0
/*
 * A workload that keeps touching memory for a while under the default
 * memory policy, then says where its pages are and what NUMA balancing did
 * meanwhile ("RIG numaload ..." lines).
 *
 * Usage: numaload procs P MIB SECONDS     P single-threaded processes, each
 *                                         touching its own MIB
 *        numaload threads T MIB SECONDS   one process, T threads touching
 *                                         one shared buffer of MIB (T = 1:
 *                                         the main thread, single-threaded)
 *        numaload siblings T MIB SECONDS NODES
 *                                         threads, with the buffer first
 *                                         touched and then moved page by
 *                                         page over NODES in turn (for
 *                                         example 0.1.2.3: fake nodes of
 *                                         the workers' physical node), as
 *                                         memory that spilled over to a
 *                                         sibling would be
 * Output: page counts per node (move_pages), the CPUs the workers ran on
 * at the end, and the change of the /proc/vmstat NUMA counters.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "vmstat.h"

#define MAX_NODES 1024

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

struct work {
	char *mem;
	size_t bytes, page;
	double until;
	int cpu;
};

/* Write every page, over and over, until the time is up. */
static void *toucher(void *arg)
{
	struct work *w = arg;
	unsigned long round = 0;
	size_t i;

	do {
		for (i = 0; i < w->bytes; i += w->page)
			w->mem[i] = (char)round;
		round++;
	} while (now() < w->until);
	w->cpu = sched_getcpu();
	return NULL;
}

/* Print how many pages of [mem, mem + bytes) sit on each node. */
static int where(const char *who, char *mem, size_t bytes, size_t page)
{
	size_t count = bytes / page, i;
	static long per[MAX_NODES];
	void **pages = calloc(count, sizeof(*pages));
	int *status = calloc(count, sizeof(*status));

	if (!pages || !status)
		return -1;
	memset(per, 0, sizeof(per));
	for (i = 0; i < count; i++)
		pages[i] = mem + i * page;
	if (syscall(__NR_move_pages, 0, count, pages, NULL, status, 0))
		return -1;
	for (i = 0; i < count; i++)
		if (status[i] >= 0 && status[i] < MAX_NODES)
			per[status[i]]++;
	printf("RIG numaload pages %s", who);
	for (i = 0; i < MAX_NODES; i++)
		if (per[i])
			printf(" %zu:%ld", i, per[i]);
	printf("\n");
	free(pages);
	free(status);
	return 0;
}

/* Touch every page, then move page i to the i-th of NODES in turn. */
static int spread_over(char *mem, size_t bytes, size_t page, const char *list)
{
	size_t count = bytes / page, i;
	void **pages = calloc(count, sizeof(*pages));
	int *to = calloc(count, sizeof(*to)), *status = calloc(count, sizeof(*status));
	int nodes[MAX_NODES], nr = 0, moved = 0;
	const char *p = list;
	char *end;

	while (*p && nr < MAX_NODES) {
		long v = strtol(p, &end, 10);

		if (end == p) {
			p++;
			continue;
		}
		nodes[nr++] = v;
		p = end;
	}
	if (!pages || !to || !status || !nr)
		return -1;
	for (i = 0; i < count; i++) {
		mem[i * page] = 1;
		pages[i] = mem + i * page;
		to[i] = nodes[i % nr];
	}
	if (syscall(__NR_move_pages, 0, count, pages, to, status, 0) < 0)
		return -1;
	for (i = 0; i < count; i++)
		moved += status[i] == to[i];
	printf("RIG numaload moved %d of %zu pages over nodes %s\n", moved, count, list);
	free(pages);
	free(to);
	free(status);
	return 0;
}

static char *buffer(size_t bytes)
{
	char *mem = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (mem == MAP_FAILED)
		return NULL;
	/* Base pages only: a huge page would put many pages on one node. */
	madvise(mem, bytes, MADV_NOHUGEPAGE);
	return mem;
}

int main(int argc, char **argv)
{
	unsigned long long before[NR_NUMA_COUNTERS], after[NR_NUMA_COUNTERS];
	size_t page = sysconf(_SC_PAGESIZE), bytes;
	int n, secs, i;
	cpu_set_t allowed;
	unsigned int c;

	if (!(argc == 5 && (!strcmp(argv[1], "procs") || !strcmp(argv[1], "threads"))) &&
	    !(argc == 6 && !strcmp(argv[1], "siblings"))) {
		fprintf(stderr, "usage: numaload procs|threads N MIB SECONDS | siblings N MIB SECONDS NODES\n");
		return 2;
	}
	n = atoi(argv[2]);
	bytes = (size_t)atol(argv[3]) << 20;
	secs = atoi(argv[4]);
	if (n < 1 || n > 64 || !bytes || secs < 1) {
		fprintf(stderr, "numaload: bad arguments\n");
		return 2;
	}
	/* The CPUs the workers may use (oncpus.sh may have narrowed them). */
	if (sched_getaffinity(0, sizeof(allowed), &allowed))
		return 2;
	/* cpu_to_node() of every CPU, as getcpu() reports it. */
	printf("RIG numaload cpu-node");
	for (i = 0; i < CPU_SETSIZE; i++) {
		unsigned int cpu, node;
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET(i, &set);
		if (sched_setaffinity(0, sizeof(set), &set))
			continue;
		if (!syscall(__NR_getcpu, &cpu, &node, NULL))
			printf(" %u:%u", cpu, node);
	}
	printf("\n");
	sched_setaffinity(0, sizeof(allowed), &allowed);
	printf("RIG numaload %s %d, %zu MiB, %d s\n", argv[1], n, bytes >> 20, secs);
	fflush(stdout);
	read_numa_counters(before);

	if (strcmp(argv[1], "procs")) {
		struct work w[64];
		pthread_t t[64];
		char *mem = buffer(bytes);

		if (!mem) {
			printf("RIG numaload error: mmap failed\n");
			return 1;
		}
		if (argc == 6 && spread_over(mem, bytes, page, argv[5])) {
			printf("RIG numaload error: cannot move pages over nodes %s\n", argv[5]);
			return 1;
		}
		for (i = 0; i < n; i++)
			w[i] = (struct work){ mem, bytes, page, now() + secs, -1 };
		/* One worker runs in the main thread: the task stays single-threaded. */
		if (n == 1)
			toucher(&w[0]);
		for (i = 0; n > 1 && i < n; i++)
			pthread_create(&t[i], NULL, toucher, &w[i]);
		for (i = 0; n > 1 && i < n; i++)
			pthread_join(t[i], NULL);
		printf("RIG numaload cpus");
		for (i = 0; i < n; i++)
			printf(" %d", w[i].cpu);
		printf("\n");
		if (where("shared", mem, bytes, page))
			printf("RIG numaload error: move_pages failed\n");
	} else {
		for (i = 0; i < n; i++) {
			if (fork() == 0) {
				struct work w = { buffer(bytes), bytes, page, now() + secs, -1 };
				char who[32];
				int rc;

				if (!w.mem)
					_exit(1);
				toucher(&w);

				snprintf(who, sizeof(who), "proc%d(cpu%d)", i, w.cpu);
				rc = where(who, w.mem, bytes, page);
				fflush(stdout);
				_exit(rc ? 1 : 0);
			}
		}
		while (wait(NULL) > 0)
			;
	}

	read_numa_counters(after);
	printf("RIG numaload vmstat");
	for (c = 0; c < NR_NUMA_COUNTERS; c++)
		printf(" %s=%llu", numa_counters[c], after[c] - before[c]);
	printf("\n");
	printf("RIG numaload done\n");
	return 0;
}
