// SPDX-License-Identifier: GPL-2.0
/*
 * Memory benchmark for NUMA emulation: what interleaving over (fake) nodes
 * does to page-fault throughput, streaming bandwidth and memory latency,
 * with the machine's own timings. The same program runs in the rig's QEMU
 * guests and natively on a Raspberry Pi 5:
 *
 *   cc -O2 -pthread -o bench bench.c        (static: add -static; needs vmstat.h)
 *   ./bench [-r REPS] [-m MIB] [-c CPUS] [-q] [-e]
 *
 * -q: the default policy only; -e: 1 CPU and all CPUs, not the steps between.
 *
 * Each timed run repeats its test for at least MIN_TIME seconds, so that a
 * scheduler tick on a busy host is a small part of it. Each figure is
 * measured under the default memory policy and under
 * MPOL_INTERLEAVE over all nodes with memory (set_mempolicy(), as
 * "numactl --interleave=all" does), once to warm up and then REPS times;
 * it prints the median, the best run (highest throughput, lowest latency:
 * the run least disturbed by anything else on the machine) and the spread
 * (max - min) / median. Output lines:
 *
 *   BENCH <test> policy=<default|interleave> threads=<n> median=<v> best=<v> spread=<pct> unit=<u>
 *   BENCH vmstat <counter> <delta>      (NUMA counters over the whole run)
 *
 * Tests: fault (first touch of fresh anonymous memory, MiB/s), copy and
 * triad (streaming over arrays far larger than the caches, MiB/s), chase
 * (dependent random loads over a large buffer, ns per load).
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "vmstat.h"

#define MPOL_DEFAULT_		0
#define MPOL_INTERLEAVE_	3
#define MAX_NODES		1024
#define MAX_THREADS		64
#define MAX_REPS		32
#define MIN_TIME		0.25	/* seconds: each timed run lasts at least this */

static size_t mib = 256;	/* per array, per thread (copy/triad), per run */
static int reps = 5, max_cpus;
static long page;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int set_policy(int interleave)
{
	unsigned long mask[MAX_NODES / (8 * sizeof(long))] = { 0 };
	char path[64];
	int n, nodes = 0;

	if (!interleave)
		return syscall(__NR_set_mempolicy, MPOL_DEFAULT_, NULL, 0);
	for (n = 0; n < MAX_NODES; n++) {
		snprintf(path, sizeof(path), "/sys/devices/system/node/node%d/meminfo", n);
		if (!access(path, F_OK)) {
			mask[n / (8 * sizeof(long))] |= 1UL << (n % (8 * sizeof(long)));
			nodes++;
		}
	}
	if (nodes < 2)
		return -1;
	return syscall(__NR_set_mempolicy, MPOL_INTERLEAVE_, mask, MAX_NODES + 1);
}

static void *map(size_t bytes)
{
	void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED) {
		perror("mmap");
		exit(1);
	}
	/* Base pages: a huge page would sit on one node. */
	madvise(p, bytes, MADV_NOHUGEPAGE);
	return p;
}

struct job {
	int test, interleave;
	size_t bytes;
	double value;		/* MiB/s or ns */
	pthread_barrier_t *start;
};

enum { FAULT, COPY, TRIAD, CHASE };
static const char *const names[] = { "fault", "copy", "triad", "chase" };
static const char *const units[] = { "MiB/s", "MiB/s", "MiB/s", "ns" };

/* One thread's share of one test; the policy is per thread. */
static void *run(void *arg)
{
	struct job *j = arg;
	size_t i, n = j->bytes / sizeof(double);
	double t0, t;

	set_policy(j->interleave);
	if (j->test == FAULT) {
		double bytes = 0;

		pthread_barrier_wait(j->start);
		for (t = 0; t < MIN_TIME; bytes += j->bytes) {
			char *p = map(j->bytes);

			t0 = now();
			for (i = 0; i < j->bytes; i += page)
				p[i] = 1;
			t += now() - t0;
			munmap(p, j->bytes);
		}
		j->value = bytes / t / (1 << 20);
	} else if (j->test == COPY || j->test == TRIAD) {
		double *a = map(j->bytes), *b = map(j->bytes), *c = map(j->bytes);
		double passes = 0;

		for (i = 0; i < n; i++) {
			a[i] = 1.0;
			b[i] = 2.0;
			c[i] = 0.0;
		}
		pthread_barrier_wait(j->start);
		t0 = now();
		do {
			if (j->test == COPY)
				memcpy(c, a, j->bytes);
			else
				for (i = 0; i < n; i++)
					c[i] = a[i] + 3.0 * b[i];
			passes++;
			t = now() - t0;
		} while (t < MIN_TIME);
		/* Bytes moved: copy reads a, writes c; triad reads a, b, writes c. */
		j->value = passes * (j->test == COPY ? 2.0 : 3.0) * j->bytes / t / (1 << 20);
		if (c[n / 2] < 0)	/* keep the result alive */
			printf("?\n");
		munmap(a, j->bytes);
		munmap(b, j->bytes);
		munmap(c, j->bytes);
	} else {
		size_t count = j->bytes / sizeof(size_t), loads = 0, k;
		size_t *next = map(j->bytes);
		uint64_t x = 88172645463325252ULL;

		/* A random cyclic permutation (Sattolo), one line per step. */
		for (i = 0; i < count; i++)
			next[i] = i;
		for (i = count - 1; i > 0; i--) {
			size_t r, tmp;

			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			r = x % i;
			tmp = next[i];
			next[i] = next[r];
			next[r] = tmp;
		}
		pthread_barrier_wait(j->start);
		t0 = now();
		i = 0;
		do {
			for (k = 0; k < 1000000; k++)
				i = next[i];
			loads += k;
			t = now() - t0;
		} while (t < MIN_TIME);
		j->value = t * 1e9 / loads;
		if (i == count)		/* keep the chase alive */
			printf("?\n");
		munmap(next, j->bytes);
	}
	return NULL;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/*
 * Run @test on @threads threads, once to warm up and then @reps times;
 * print the median, the best and the spread of the timed runs.
 */
static void measure(int test, int interleave, int threads)
{
	double v[MAX_REPS];
	int r, t;

	for (r = -1; r < reps; r++) {
		struct job jobs[MAX_THREADS];
		pthread_t tid[MAX_THREADS];
		pthread_barrier_t start;
		double sum = 0;

		pthread_barrier_init(&start, NULL, threads);
		for (t = 0; t < threads; t++) {
			/* Faults are cheap: twice the memory for a longer run. */
			jobs[t] = (struct job){ test, interleave,
						(test == FAULT ? 2 * mib : mib) << 20, 0, &start };
			pthread_create(&tid[t], NULL, run, &jobs[t]);
		}
		for (t = 0; t < threads; t++) {
			pthread_join(tid[t], NULL);
			sum += jobs[t].value;
		}
		pthread_barrier_destroy(&start);
		/* Throughput adds up over threads; latency is the mean. */
		if (r >= 0)
			v[r] = test == CHASE ? sum / threads : sum;
	}
	qsort(v, reps, sizeof(v[0]), cmp);
	printf("BENCH %s policy=%s threads=%d median=%.2f best=%.2f spread=%.1f unit=%s\n",
	       names[test], interleave ? "interleave" : "default", threads,
	       v[reps / 2], test == CHASE ? v[0] : v[reps - 1],
	       v[reps / 2] ? 100 * (v[reps - 1] - v[0]) / v[reps / 2] : 0, units[test]);
	fflush(stdout);
}

int main(int argc, char **argv)
{
	unsigned long long before[NR_NUMA_COUNTERS], after[NR_NUMA_COUNTERS];
	int opt, test, pol, threads, policies = 2, ends = 0;
	unsigned int i;

	page = sysconf(_SC_PAGESIZE);
	max_cpus = sysconf(_SC_NPROCESSORS_ONLN);
	while ((opt = getopt(argc, argv, "r:m:c:qe")) != -1) {
		if (opt == 'r')
			reps = atoi(optarg);
		else if (opt == 'm')
			mib = atol(optarg);
		else if (opt == 'c')
			max_cpus = atoi(optarg);
		else if (opt == 'q')
			policies = 1;	/* default policy only */
		else if (opt == 'e')
			ends = 1;	/* 1 CPU and all CPUs only */
		else {
			fprintf(stderr, "usage: %s [-r REPS] [-m MIB] [-c CPUS] [-q] [-e]\n",
				argv[0]);
			return 2;
		}
	}
	if (reps < 1 || reps > MAX_REPS || !mib || max_cpus < 1 || max_cpus > MAX_THREADS) {
		fprintf(stderr, "bench: bad arguments\n");
		return 2;
	}
	if (policies == 2 && set_policy(1)) {
		printf("BENCH note: fewer than two nodes; default policy only\n");
		policies = 1;
	}
	set_policy(0);
	printf("BENCH config reps=%d mib=%zu cpus=%d page=%ld\n", reps, mib, max_cpus, page);
	read_numa_counters(before);
	for (test = FAULT; test <= CHASE; test++)
		for (pol = 0; pol < policies; pol++)
			/* 1, 2, 4, ... CPUs, ending on all of them. */
			for (threads = 1; threads <= max_cpus;
			     threads = threads < max_cpus && 2 * threads > max_cpus ?
				       max_cpus : 2 * threads) {
				if (!ends || threads == 1 || threads == max_cpus)
					measure(test, pol, threads);
				if (test == CHASE)
					break;		/* latency: one thread */
			}
	read_numa_counters(after);
	for (i = 0; i < NR_NUMA_COUNTERS; i++)
		printf("BENCH vmstat %s %llu\n", numa_counters[i], after[i] - before[i]);
	return 0;
}
