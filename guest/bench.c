// SPDX-License-Identifier: GPL-2.0
/*
 * Memory benchmark for NUMA emulation: what interleaving over (fake) nodes
 * does to page-fault throughput, streaming bandwidth and memory latency,
 * with the machine's own timings. The same program runs in the rig's QEMU
 * guests and natively on a Raspberry Pi 5:
 *
 *   cc -O2 -pthread -o bench bench.c -lm    (static: add -static; needs vmstat.h)
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
 *   BENCH <test> policy=<default|interleave|bind> threads=<n> median=<v> best=<v> spread=<pct> unit=<u>
 *   BENCH vmstat <counter> <delta>      (NUMA counters over the whole run)
 *
 * Tests: fault (first touch of fresh anonymous memory, MiB/s), copy and
 * triad (streaming over arrays far larger than the caches, MiB/s), chase
 * (dependent random loads over a large buffer, ns per load), churn
 * (a write to each of 64 pages of one mapping, then MADV_DONTNEED, over
 * and over, MiB/s: the page allocator's per-CPU fast paths, allocation
 * and free, with little else around them). Classic mode pins thread t to
 * the t-th CPU it may run on and also measures MPOL_BIND to one node (-b,
 * default: the node of the first thread's CPU); with one node only, its
 * interleave and bind runs are the policies' own cost against the default
 * one on the same memory. Owner mode leaves churn out.
 *
 * Owner mode, for a verdict on a real board (the same tests):
 *
 *   ./bench -A [-r REPS] [-m MIB] [-b NODE] [-I PCT] [-o FILE]
 *   ./bench -C FILE:POLICY FILE:POLICY
 *   ./bench -P FILE
 *
 * -A compares two explicit policies that no boot option (numa_policy=)
 * overrides: MPOL_INTERLEAVE over all nodes with memory against MPOL_BIND
 * to one node (-b, default: the node with the most free memory), on 1 CPU
 * and on all CPUs, each thread pinned to a CPU of its own. The two run in
 * turn (bind, interleave, interleave, bind, ...), so a slow drift of the
 * machine falls on both. Threads run over one common time window and
 * their work is added over it. Where the pages went is read back with
 * move_pages() and printed, so that two runs that the boot placed alike
 * cannot pass for a comparison (the verdict is then "none"). Per figure it
 * prints the ratio
 * interleave / bind (above 1: interleave is faster) with a 95 % confidence
 * interval over the REPS pairs, and a verdict:
 *
 *   VERDICT <test> threads=<n> ratio=<r> ci=<lo>..<hi> <words>
 *
 * <words> is "interleave is faster by X % +- Y %", "... slower by ...",
 * or "no difference the runs can show" when the interval covers 1 (or
 * lies within 1 % of it: "... above 1 %", no difference to act on).
 * With one node only the bind runs are made (no verdict), for -C.
 * Each thread stops after its first pass past MIN_TIME; the window
 * includes that tail.
 * -I PCT makes every interleaved pass PCT % longer (a busy wait inside the
 * timed window): the tool's own check that it finds a difference that is
 * there. -o FILE keeps every timed run and the settings (-o refuses to
 * lower -m); -C compares two such files made with the same settings, for
 * example one saved without numa=fake= (policy bind) with one saved with
 * it (policy interleave), as independent samples: the interval covers the
 * noise within each boot, not between boots. -P FILE prints -A's verdicts
 * again from the pairs of runs such a file holds (the k-th bind run with
 * the k-th interleaved one), so that -A's arithmetic can be checked on
 * figures known in advance.
 */
#define _GNU_SOURCE
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sched.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "vmstat.h"

#define MPOL_DEFAULT_		0
#define MPOL_BIND_		2
#define MPOL_INTERLEAVE_	3
#define MAX_NODES		1024
#define MAX_THREADS		64
#define MAX_REPS		32
#define CHURN_PAGES		64	/* churn: pages per cycle */
#define MIN_TIME		0.25	/* seconds: each timed run lasts at least this */
#define RESOLUTION		0.01	/* owner mode: smaller differences are not reported */

static size_t mib = 256;	/* per array, per thread (copy/triad), per run */
static int reps = 5, max_cpus;
static long page;
static int owner;		/* -A: pinned threads, one window, placement */
static double inject;		/* -I: extra time per interleaved pass, fraction */
static int bind_node = -1, bind_set;	/* -b */
static int interleave_min = 2;	/* nodes an interleave needs (classic mode: 1) */

/* Policies: the default one, interleave over all nodes, bind to bind_node. */
enum { DEFAULT, INTERLEAVE, BIND };
static const char *const policies_name[] = { "default", "interleave", "bind" };

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * Node @n has memory: it is in the kernel's has_memory list ("0-3,5"),
 * read once.
 */
static int has_memory(int n)
{
	static unsigned char mem[MAX_NODES];
	static int read;

	if (!read) {
		FILE *f = fopen("/sys/devices/system/node/has_memory", "r");
		int lo, hi, i;
		char sep = ',';

		read = 1;
		while (f && sep == ',' && fscanf(f, "%d", &lo) == 1) {
			hi = lo;
			if (fscanf(f, "%c", &sep) == 1 && sep == '-' &&
			    (fscanf(f, "%d", &hi) != 1 || fscanf(f, "%c", &sep) != 1))
				sep = 0;
			for (i = lo < 0 ? 0 : lo; i <= hi && i < MAX_NODES; i++)
				mem[i] = 1;
		}
		if (f)
			fclose(f);
	}
	return n >= 0 && n < MAX_NODES && mem[n];
}

/* Thread t runs on the t-th CPU it may run on, not on CPU t. */
static int cpus[MAX_THREADS], ncpus, cpus_given;

static int allowed_cpus(void)
{
	cpu_set_t set;
	int c, n = 0;

	if (sched_getaffinity(0, sizeof(set), &set))
		return 0;
	for (c = 0; c < CPU_SETSIZE && n < MAX_THREADS; c++)
		if (CPU_ISSET(c, &set))
			cpus[n++] = c;
	ncpus = n;
	return n;
}

static int set_policy(int policy)
{
	unsigned long mask[MAX_NODES / (8 * sizeof(long))] = { 0 };
	int n, nodes = 0;

	if (policy == DEFAULT)
		return syscall(__NR_set_mempolicy, MPOL_DEFAULT_, NULL, 0);
	for (n = 0; n < MAX_NODES; n++) {
		if (policy == BIND ? n != bind_node : !has_memory(n))
			continue;
		mask[n / (8 * sizeof(long))] |= 1UL << (n % (8 * sizeof(long)));
		nodes++;
	}
	if (nodes < (policy == BIND ? 1 : interleave_min))
		return -1;
	return syscall(__NR_set_mempolicy, policy == BIND ? MPOL_BIND_ : MPOL_INTERLEAVE_,
		       mask, MAX_NODES + 1);
}

/* A node's MemFree in KiB, from its meminfo (0 if it has none). */
static long node_free_kib(int n)
{
	char path[64], line[128];
	long kib = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/devices/system/node/node%d/meminfo", n);
	f = fopen(path, "r");
	while (f && fgets(line, sizeof(line), f))
		if (strstr(line, "MemFree:"))
			sscanf(strstr(line, "MemFree:") + 8, "%ld", &kib);
	if (f)
		fclose(f);
	return kib;
}

/* Pages of [p, p + bytes) per node, from a sample of up to 4096 pages. */
static void placement(void *p, size_t bytes, int *count)
{
	enum { SAMPLE = 4096 };
	void *pages[SAMPLE];
	int status[SAMPLE], i, k = 0;
	size_t step = bytes / page / SAMPLE + 1, off;

	for (off = 0; off < bytes && k < SAMPLE; off += step * page)
		pages[k++] = (char *)p + off;
	static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

	if (syscall(__NR_move_pages, 0, k, pages, NULL, status, 0))
		return;
	pthread_mutex_lock(&lock);
	for (i = 0; i < k; i++)
		if (status[i] >= 0 && status[i] < MAX_NODES)
			count[status[i]]++;
	pthread_mutex_unlock(&lock);
}

/* Spend @frac of @dt more inside the timed window (the -I check). */
static void spin(double frac, double dt)
{
	double until = now() + frac * dt;

	while (now() < until)
		;
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
	int test, policy, cpu;
	size_t bytes;
	double value;		/* MiB/s or ns, over this thread's own time */
	double work;		/* MiB moved or loads done */
	double t_start, t_end;	/* this thread's timed window */
	int *where;		/* pages per node (owner mode) */
	pthread_barrier_t *start;
};

enum { FAULT, COPY, TRIAD, CHASE, CHURN };
static const char *const names[] = { "fault", "copy", "triad", "chase", "churn" };
static const char *const units[] = { "MiB/s", "MiB/s", "MiB/s", "ns", "MiB/s" };

/* One thread's share of one test; the policy is per thread. */
static void *run(void *arg)
{
	struct job *j = arg;
	size_t i, n = j->bytes / sizeof(double);
	double slow = j->policy == INTERLEAVE ? inject : 0;
	double t0, t1, t;

	if (j->cpu >= 0) {
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET(j->cpu, &set);
		sched_setaffinity(0, sizeof(set), &set);
	}
	if (set_policy(j->policy)) {
		fprintf(stderr, "bench: set_mempolicy(%s) failed\n", policies_name[j->policy]);
		exit(1);
	}
	if (j->test == FAULT) {
		char *p = NULL;

		pthread_barrier_wait(j->start);
		j->t_start = now();
		for (t = 0; t < MIN_TIME; j->work += j->bytes / (double)(1 << 20)) {
			if (p)
				munmap(p, j->bytes);
			p = map(j->bytes);
			t0 = now();
			for (i = 0; i < j->bytes; i += page)
				p[i] = 1;
			t1 = now();
			spin(slow, t1 - t0);
			t += now() - t0;
		}
		j->t_end = now();
		j->value = j->work / t;
		if (j->where)
			placement(p, j->bytes, j->where);
		munmap(p, j->bytes);
	} else if (j->test == COPY || j->test == TRIAD) {
		double *a = map(j->bytes), *b = map(j->bytes), *c = map(j->bytes);

		for (i = 0; i < n; i++) {
			a[i] = 1.0;
			b[i] = 2.0;
			c[i] = 0.0;
		}
		if (j->where)
			placement(c, j->bytes, j->where);
		pthread_barrier_wait(j->start);
		t0 = j->t_start = now();
		do {
			t1 = now();
			if (j->test == COPY)
				memcpy(c, a, j->bytes);
			else
				for (i = 0; i < n; i++)
					c[i] = a[i] + 3.0 * b[i];
			spin(slow, now() - t1);
			/* Bytes moved: copy reads a, writes c; triad reads a, b, writes c. */
			j->work += (j->test == COPY ? 2.0 : 3.0) * j->bytes / (1 << 20);
			t = now() - t0;
		} while (t < MIN_TIME);
		j->t_end = now();
		j->value = j->work / t;
		if (c[n / 2] < 0)	/* keep the result alive */
			printf("?\n");
		munmap(a, j->bytes);
		munmap(b, j->bytes);
		munmap(c, j->bytes);
	} else if (j->test == CHASE) {
		size_t count = j->bytes / sizeof(size_t), k;
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
		if (j->where)
			placement(next, j->bytes, j->where);
		pthread_barrier_wait(j->start);
		t0 = j->t_start = now();
		i = 0;
		do {
			t1 = now();
			for (k = 0; k < 1000000; k++)
				i = next[i];
			spin(slow, now() - t1);
			j->work += k;
			t = now() - t0;
		} while (t < MIN_TIME);
		j->t_end = now();
		j->value = t * 1e9 / j->work;
		if (i == count)		/* keep the chase alive */
			printf("?\n");
		munmap(next, j->bytes);
	} else {
		/*
		 * CHURN_PAGES pages, mapped once: write each, give them back
		 * with MADV_DONTNEED, again. Few enough to cycle through the
		 * per-CPU free lists: the allocation and free paths with one
		 * system call per CHURN_PAGES pages around them.
		 */
		size_t len = CHURN_PAGES * page, k;
		char *p = map(len);

		pthread_barrier_wait(j->start);
		t0 = j->t_start = now();
		do {
			for (k = 0; k < 100; k++) {
				for (i = 0; i < len; i += page)
					p[i] = 1;
				madvise(p, len, MADV_DONTNEED);
			}
			j->work += (double)k * len / (1 << 20);
			t = now() - t0;
		} while (t < MIN_TIME);
		j->t_end = now();
		j->value = j->work / t;
		munmap(p, len);
	}
	return NULL;
}

/*
 * One timed run of @test on @threads threads under @policy: the sum of the
 * threads' own rates (classic mode), or in owner mode their work added
 * over the window from the first start to the last end. Latency is the
 * mean. @where, if set, gets the pages per node of the threads' buffers.
 */
static double one_run(int test, int policy, int threads, int *where)
{
	struct job jobs[MAX_THREADS];
	pthread_t tid[MAX_THREADS];
	pthread_barrier_t start;
	double sum = 0, work = 0, t0 = 0, t1 = 0;
	int t;

	pthread_barrier_init(&start, NULL, threads);
	for (t = 0; t < threads; t++) {
		/* Faults are cheap: twice the memory for a longer run. */
		jobs[t] = (struct job){ .test = test, .policy = policy,
					.cpu = ncpus ? cpus[t % ncpus] : -1,
					.bytes = (test == FAULT ? 2 * mib : mib) << 20,
					.where = where, .start = &start };
		pthread_create(&tid[t], NULL, run, &jobs[t]);
	}
	for (t = 0; t < threads; t++) {
		pthread_join(tid[t], NULL);
		sum += jobs[t].value;
		work += jobs[t].work;
		if (!t || jobs[t].t_start < t0)
			t0 = jobs[t].t_start;
		if (!t || jobs[t].t_end > t1)
			t1 = jobs[t].t_end;
	}
	pthread_barrier_destroy(&start);
	if (test == CHASE)
		return sum / threads;
	return owner ? work / (t1 - t0) : sum;
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
static void measure(int test, int policy, int threads)
{
	double v[MAX_REPS];
	int r;

	for (r = -1; r < reps; r++) {
		double x = one_run(test, policy, threads, NULL);

		if (r >= 0)
			v[r] = x;
	}
	qsort(v, reps, sizeof(v[0]), cmp);
	printf("BENCH %s policy=%s threads=%d median=%.2f best=%.2f spread=%.1f unit=%s\n",
	       names[test], policies_name[policy], threads,
	       v[reps / 2], test == CHASE ? v[0] : v[reps - 1],
	       v[reps / 2] ? 100 * (v[reps - 1] - v[0]) / v[reps / 2] : 0, units[test]);
	fflush(stdout);
}

/* Two-sided 95 % quantiles of Student's t, for 1 to 30 degrees of freedom. */
static const double t95[] = {
	12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
	2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
	2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
};

static double tq(int df)
{
	if (df < 1)
		return 0;
	/* Beyond the table, within 0.002 of the true quantile. */
	return df <= 30 ? t95[df - 1] : 1.96 + 2.5 / df;
}

static double mean_var(const double *x, int n, double *var)
{
	double m = 0, s = 0;
	int i;

	for (i = 0; i < n; i++)
		m += x[i];
	m /= n;
	for (i = 0; i < n; i++)
		s += (x[i] - m) * (x[i] - m);
	*var = n > 1 ? s / (n - 1) : 0;
	return m;
}

/*
 * The verdict on log ratios (@what over @than, higher is better): their
 * mean @m and the half-width @h of its 95 % interval. @than is NULL for
 * -A's interleave over bind.
 */
static void verdict(int test, int threads, double m, double h, const char *what, const char *than)
{
	double r = exp(m), lo = exp(m - h), hi = exp(m + h);

	printf("VERDICT %s threads=%d ratio=%.4f ci=%.4f..%.4f ", names[test], threads, r, lo, hi);
	if (lo <= 1 && hi >= 1)
		printf("no difference the runs can show\n");
	else if (lo >= 1 - RESOLUTION && hi <= 1 + RESOLUTION)
		printf("no difference the runs can show above %.0f %% (%+.2f %% +- %.2f %%)\n",
		       100 * RESOLUTION, 100 * (r - 1), 100 * (hi - lo) / 2);
	else
		printf("%s is %s%s%s by %.1f %% +- %.1f %%\n", what, r > 1 ? "faster" : "slower",
		       than ? " than " : "", than ? than : "", 100 * fabs(r - 1), 100 * (hi - lo) / 2);
	fflush(stdout);
}

static FILE *out;
static int bind_only;		/* one node: the bind runs only, for -C */

/* No verdict for a figure: said, and kept in -o's file for -P. */
static void no_verdict(int test, int threads, const char *why)
{
	printf("VERDICT %s threads=%d none: %s\n", names[test], threads, why);
	fflush(stdout);
	if (out)
		fprintf(out, "NONE %s %d %s\n", names[test], threads, why);
}

/*
 * -A's verdict on @n pairs of runs, @v[0] bind and @v[1] interleave (higher
 * is better): the paired interval over the log ratios of the pairs. -P
 * computes the same from a saved file.
 */
static void paired(int test, int threads, double v[2][MAX_REPS], int n)
{
	double lr[MAX_REPS] = { 0 }, m, var;
	int r;

	for (r = 0; r < n; r++)
		lr[r] = log(v[1][r] / v[0][r]);
	m = mean_var(lr, n, &var);
	verdict(test, threads, m, tq(n - 1) * sqrt(var / n), "interleave", NULL);
}

/* Owner mode, one figure: bind and interleave in turn, REPS pairs. */
static void compare(int test, int threads)
{
	double v[2][MAX_REPS];
	int where[2][MAX_NODES] = { { 0 } }, r, k, n;

	for (r = -1; r < reps; r++) {
		for (k = 0; k < 2 - bind_only; k++) {
			/* bind, interleave; interleave, bind; ... */
			int pol = !bind_only && (k ^ (r & 1)) ? INTERLEAVE : BIND;
			double x = one_run(test, pol, threads, r < 0 ? where[pol == INTERLEAVE] : NULL);

			if (r < 0)
				continue;
			/* Higher is better: latency is turned into loads per ns. */
			v[pol == INTERLEAVE][r] = test == CHASE ? 1 / x : x;
			if (out)
				fprintf(out, "SAMPLE %s %d %s %.17g\n", names[test], threads,
					policies_name[pol], x);
		}
	}
	for (k = 0; k < 2 - bind_only; k++) {
		printf("PLACEMENT %s threads=%d policy=%s pages", names[test], threads,
		       k ? "interleave" : "bind");
		for (n = 0; n < MAX_NODES; n++)
			if (where[k][n])
				printf(" %d:%d", n, where[k][n]);
		printf("\n");
	}
	if (bind_only)
		return;
	/* Two placements or no comparison: bind on its node, interleave on more. */
	for (n = 0, k = 0; n < MAX_NODES; n++)
		k += where[1][n] > 0;
	if (!where[0][bind_node] || k < 2) {
		no_verdict(test, threads, "the placements do not differ (see PLACEMENT)");
		return;
	}
	for (n = 0; n < MAX_NODES; n++)
		if (n != bind_node && where[0][n]) {
			char why[64];

			snprintf(why, sizeof(why), "bind left node %d (see PLACEMENT)", bind_node);
			no_verdict(test, threads, why);
			return;
		}
	paired(test, threads, v, reps);
}

/* -C: two saved runs, FILE:POLICY each, as independent samples. */
static int compare_files(const char *a, const char *b)
{
	const char *arg[2] = { a, b };
	static double v[2][MAX_NODES];
	static char cfg[2][256];
	int test, threads, k, any = 0;

	for (test = FAULT; test <= CHASE; test++)
		for (threads = 1; threads <= MAX_THREADS; threads++) {
			double m[2], var[2], h;
			int cnt[2] = { 0, 0 };

			for (k = 0; k < 2; k++) {
				char file[256], pol[32], name[32], p2[32], line[256];
				const char *colon = strrchr(arg[k], ':');
				double x;
				int th;
				FILE *f;

				if (!colon || colon - arg[k] >= (int)sizeof(file) ||
				    strlen(colon + 1) >= sizeof(pol)) {
					fprintf(stderr, "bench: -C wants FILE:POLICY, not %s\n", arg[k]);
					return 2;
				}
				snprintf(file, sizeof(file), "%.*s", (int)(colon - arg[k]), arg[k]);
				snprintf(pol, sizeof(pol), "%s", colon + 1);
				f = fopen(file, "r");
				if (!f) {
					perror(file);
					return 2;
				}
				while (fgets(line, sizeof(line), f)) {
					if (!strncmp(line, "CONFIG ", 7))
						snprintf(cfg[k], sizeof(cfg[k]), "%s", line + 7);
					else if (sscanf(line, "SAMPLE %31s %d %31s %lf", name, &th, p2, &x) == 4 &&
						 !strcmp(name, names[test]) && th == threads &&
						 !strcmp(p2, pol) && cnt[k] < MAX_NODES)
						v[k][cnt[k]++] = log(test == CHASE ? 1 / x : x);
				}
				fclose(f);
			}
			/* Runs of different sizes are not the same experiment. */
			if (strcmp(cfg[0], cfg[1])) {
				fprintf(stderr, "bench: %s and %s were made with different settings:\n  %s  %s",
					a, b, cfg[0][0] ? cfg[0] : "(none)\n", cfg[1][0] ? cfg[1] : "(none)\n");
				return 2;
			}
			if (cnt[0] < 2 || cnt[1] < 2)
				continue;
			m[0] = mean_var(v[0], cnt[0], &var[0]);
			m[1] = mean_var(v[1], cnt[1], &var[1]);
			/* Welch's interval, with the smaller sample's degrees of freedom. */
			h = tq((cnt[0] < cnt[1] ? cnt[0] : cnt[1]) - 1) *
			    sqrt(var[0] / cnt[0] + var[1] / cnt[1]);
			printf("COMPARE %s threads=%d %s (%d runs) against %s (%d runs)\n",
			       names[test], threads, b, cnt[1], a, cnt[0]);
			verdict(test, threads, m[1] - m[0], h, b, a);
			any = 1;
		}
	if (!any)
		fprintf(stderr, "bench: no figure with two runs or more in both %s and %s\n", a, b);
	return any ? 0 : 1;
}

/* -P: -A's verdicts again, from the pairs of runs a file saved with -o. */
static int paired_file(const char *file)
{
	static double v[2][MAX_REPS];
	int test, threads, any = 0;

	for (test = FAULT; test <= CHASE; test++)
		for (threads = 1; threads <= MAX_THREADS; threads++) {
			char name[32], pol[32], line[256], none[128] = "";
			int cnt[2] = { 0, 0 }, th, k, bad = 0;
			double x;
			FILE *f = fopen(file, "r");

			if (!f) {
				perror(file);
				return 2;
			}
			while (fgets(line, sizeof(line), f)) {
				char why[128];

				/* -A gave no verdict for this figure, and why. */
				if (sscanf(line, "NONE %31s %d %127[^\n]", name, &th, why) == 3) {
					if (!strcmp(name, names[test]) && th == threads)
						snprintf(none, sizeof(none), "%s", why);
					continue;
				}
				if (sscanf(line, "SAMPLE %31s %d %31s %lf", name, &th, pol, &x) != 4 ||
				    strcmp(name, names[test]) || th != threads)
					continue;
				k = !strcmp(pol, "interleave");
				if (!k && strcmp(pol, "bind"))
					continue;
				if (cnt[k] == MAX_REPS || !(x > 0))
					bad = 1;
				else
					v[k][cnt[k]++] = test == CHASE ? 1 / x : x;
			}
			fclose(f);
			if (bad) {
				fprintf(stderr, "bench: %s: %s threads=%d: more than %d pairs, or a figure not above 0\n",
					file, names[test], threads, MAX_REPS);
				return 2;
			}
			if (none[0]) {
				printf("VERDICT %s threads=%d none: %s\n", names[test], threads, none);
				any = 1;
				continue;
			}
			if (!cnt[0] && !cnt[1])
				continue;
			/* -A writes a bind and an interleaved run for every pair. */
			if (cnt[0] != cnt[1] || cnt[0] < 2) {
				fprintf(stderr, "bench: %s: %s threads=%d has %d bind and %d interleave runs, not pairs\n",
					file, names[test], threads, cnt[0], cnt[1]);
				return 2;
			}
			printf("PAIRED %s threads=%d %d pairs\n", names[test], threads, cnt[0]);
			paired(test, threads, v, cnt[0]);
			any = 1;
		}
	if (!any)
		fprintf(stderr, "bench: no pairs of runs in %s\n", file);
	return any ? 0 : 1;
}

/* Without -b: the node with memory that has the most of it free. */
static void choose_bind_node(void)
{
	int n;

	for (n = 0; !bind_set && n < MAX_NODES; n++)
		if (has_memory(n) && (bind_node < 0 || node_free_kib(n) > node_free_kib(bind_node)))
			bind_node = n;
}

/*
 * Classic mode without -b: the node of the CPU the first thread runs on,
 * as getcpu() reports it, if it has memory (else as choose_bind_node()),
 * so that bind is local and the same node on every boot.
 */
static void choose_local_node(void)
{
	unsigned int cpu, node;
	cpu_set_t set, old;

	if (bind_set || !ncpus || sched_getaffinity(0, sizeof(old), &old))
		return;
	CPU_ZERO(&set);
	CPU_SET(cpus[0], &set);
	if (!sched_setaffinity(0, sizeof(set), &set) &&
	    !syscall(__NR_getcpu, &cpu, &node, NULL) && has_memory(node))
		bind_node = node;
	sched_setaffinity(0, sizeof(old), &old);
}

/* -A: every figure, after a check that the two policies can be set. */
static int owner_mode(void)
{
	long need, have;
	int n, threads, allowed;

	/* Without -c, every CPU this process may run on (taskset, cpusets). */
	allowed = allowed_cpus();
	if (!cpus_given && allowed > 0 && allowed < max_cpus)
		max_cpus = allowed;
	if (allowed < max_cpus) {
		fprintf(stderr, "bench: -c %d: this process may run on %d CPUs only\n",
			max_cpus, allowed);
		return 2;
	}
	choose_bind_node();
	if (bind_node < 0) {
		printf("VERDICT none: no NUMA nodes in this kernel (no /sys/devices/system/node)\n");
		return 1;
	}
	if (set_policy(BIND)) {
		printf("VERDICT none: -b %d is not a node with memory\n", bind_node);
		return 1;
	}
	if (set_policy(INTERLEAVE)) {
		printf("BENCH note: one node with memory: bind runs only, no verdict (compare saved runs with -C)\n");
		bind_only = 1;
	}
	set_policy(DEFAULT);
	/* Three arrays per thread on all CPUs must fit in the bound node. */
	need = 3L * max_cpus * (long)mib * 1024;
	have = node_free_kib(bind_node);
	if (need > have / 2) {
		if (out) {
			/* Saved runs are compared across boots: the size must be the owner's. */
			fprintf(stderr, "bench: -m %zu does not fit twice into node %d (%ld MiB free); "
				"choose -m %ld or less, the same on every boot\n",
				mib, bind_node, have / 1024, have / 2 / 3 / max_cpus / 1024);
			return 2;
		}
		mib = have / 2 / 3 / max_cpus / 1024;
		if (!mib) {
			printf("VERDICT none: node %d has too little free memory\n", bind_node);
			return 1;
		}
		printf("BENCH note: -m lowered to %zu so that node %d holds every array twice over\n",
		       mib, bind_node);
	}
	printf("BENCH config owner reps=%d mib=%zu cpus=%d page=%ld bind=%d inject=%.0f%%\n",
	       reps, mib, max_cpus, page, bind_node, 100 * inject);
	if (out)
		fprintf(out, "CONFIG mib=%zu cpus=%d page=%ld inject=%.0f%%\n",
			mib, max_cpus, page, 100 * inject);
	for (n = FAULT; n <= CHASE; n++)
		for (threads = 1; threads <= max_cpus; threads = threads == 1 ? max_cpus : max_cpus + 1) {
			compare(n, threads);
			if (n == CHASE || max_cpus == 1)
				break;
		}
	return 0;
}

int main(int argc, char **argv)
{
	unsigned long long before[NR_NUMA_COUNTERS], after[NR_NUMA_COUNTERS];
	int opt, test, pol, threads, policies = 3, ends = 0, compare_only = 0;
	unsigned int i;

	page = sysconf(_SC_PAGESIZE);
	max_cpus = sysconf(_SC_NPROCESSORS_ONLN);
	while ((opt = getopt(argc, argv, "r:m:c:qeAb:I:o:CP")) != -1) {
		if (opt == 'A')
			owner = 1;
		else if (opt == 'b')
			bind_node = atoi(optarg), bind_set = 1;
		else if (opt == 'I')
			inject = atof(optarg) / 100;
		else if (opt == 'o') {
			out = fopen(optarg, "w");
			if (!out) {
				perror(optarg);
				return 2;
			}
		} else if (opt == 'C')
			compare_only = 1;
		else if (opt == 'P')
			compare_only = 2;
		else if (opt == 'r')
			reps = atoi(optarg);
		else if (opt == 'm')
			mib = atol(optarg);
		else if (opt == 'c')
			max_cpus = atoi(optarg), cpus_given = 1;
		else if (opt == 'q')
			policies = 1;	/* default policy only */
		else if (opt == 'e')
			ends = 1;	/* 1 CPU and all CPUs only */
		else {
			fprintf(stderr, "usage: %s [-r REPS] [-m MIB] [-c CPUS] [-q] [-e]\n"
				"       %s -A [-r REPS] [-m MIB] [-c CPUS] [-b NODE] [-I PCT] [-o FILE]\n"
				"       %s -C FILE:POLICY FILE:POLICY\n"
				"       %s -P FILE\n", argv[0], argv[0], argv[0], argv[0]);
			return 2;
		}
	}
	if (compare_only == 2) {
		if (optind + 1 == argc)
			return paired_file(argv[optind]);
		fprintf(stderr, "bench: -P wants one FILE\n");
		return 2;
	}
	if (compare_only) {
		if (optind + 2 == argc)
			return compare_files(argv[optind], argv[optind + 1]);
		fprintf(stderr, "bench: -C wants two FILE:POLICY arguments\n");
		return 2;
	}
	if (reps < 1 || reps > MAX_REPS || !mib || max_cpus < 1 || max_cpus > MAX_THREADS ||
	    inject < 0 || (owner && reps < 2) || (bind_set && (bind_node < 0 || bind_node >= MAX_NODES))) {
		fprintf(stderr, "bench: bad arguments\n");
		return 2;
	}
	if (owner)
		return owner_mode();
	interleave_min = 1;
	if (policies > 1 && set_policy(INTERLEAVE)) {
		printf("BENCH note: no node with memory; default policy only\n");
		policies = 1;
	}
	allowed_cpus();
	choose_local_node();
	if (bind_node < 0)
		choose_bind_node();
	if (policies > 1 && set_policy(BIND)) {
		printf("BENCH note: cannot bind to node %d; no bind runs\n", bind_node);
		policies = 2;
	}
	set_policy(DEFAULT);
	printf("BENCH config reps=%d mib=%zu cpus=%d page=%ld bind=%d\n", reps, mib, max_cpus, page,
	       policies > 2 ? bind_node : -1);
	read_numa_counters(before);
	for (test = FAULT; test <= CHURN; test++)
		for (pol = 0; pol < policies; pol++)
			/* 1, 2, 4, ... CPUs, ending on all of them. */
			for (threads = 1; threads <= max_cpus;
			     threads = threads < max_cpus && 2 * threads > max_cpus ?
				       max_cpus : 2 * threads) {
				if (!ends || threads == 1 || threads == max_cpus)
					measure(test, pol, threads);
				if (test == CHASE || test == CHURN)
					break;		/* latency, churn: one thread */
			}
	read_numa_counters(after);
	for (i = 0; i < NR_NUMA_COUNTERS; i++)
		printf("BENCH vmstat %s %llu\n", numa_counters[i], after[i] - before[i]);
	return 0;
}
