// SPDX-License-Identifier: GPL-2.0
/*
 * Helpers for the stand-in's client checks, linked against the guest's
 * own glibc and libnuma (dlopen, so that no libnuma headers are needed to
 * build it).
 *
 *   rigtool cpus        for every online CPU: the node getcpu() reports
 *                       there, and libnuma's numa_node_of_cpu()
 *   rigtool pages MIB   touch MIB MiB and count the pages on each node
 *                       (move_pages() with no target reports where each
 *                       page is)
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#define MAX_NODES 64

static int cpus(void)
{
	void *h = dlopen("libnuma.so.1", RTLD_NOW);
	int (*available)(void), (*node_of_cpu)(int);
	long n = sysconf(_SC_NPROCESSORS_CONF), cpu;
	int bad = 0;

	if (!h) {
		printf("RIG rigtool error: %s\n", dlerror());
		return 1;
	}
	available = (int (*)(void))dlsym(h, "numa_available");
	node_of_cpu = (int (*)(int))dlsym(h, "numa_node_of_cpu");
	if (!available || !node_of_cpu || available() < 0) {
		printf("RIG rigtool error: libnuma unusable\n");
		return 1;
	}
	for (cpu = 0; cpu < n && cpu < CPU_SETSIZE; cpu++) {
		unsigned int c, node;
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET(cpu, &set);
		if (sched_setaffinity(0, sizeof(set), &set))
			continue;
		if (syscall(SYS_getcpu, &c, &node, NULL) || c != cpu) {
			printf("RIG rigtool error: getcpu on cpu %ld\n", cpu);
			bad = 1;
			continue;
		}
		printf("RIG nodeofcpu cpu %ld getcpu %u libnuma %d\n", cpu, node,
		       node_of_cpu(cpu));
	}
	return bad;
}

static int pages(long mib)
{
	long page = sysconf(_SC_PAGESIZE), n = (mib << 20) / page, i;
	long count[MAX_NODES] = { 0 }, other = 0;
	char *mem = mmap(NULL, n * page, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	void **addr = calloc(n, sizeof(*addr));
	int *status = calloc(n, sizeof(*status));

	if (mem == MAP_FAILED || !addr || !status)
		return 1;
	madvise(mem, n * page, MADV_NOHUGEPAGE);
	for (i = 0; i < n; i++) {
		mem[i * page] = 1;
		addr[i] = mem + i * page;
	}
	if (syscall(SYS_move_pages, 0, n, addr, NULL, status, 0)) {
		perror("move_pages");
		return 1;
	}
	for (i = 0; i < n; i++) {
		if (status[i] >= 0 && status[i] < MAX_NODES)
			count[status[i]]++;
		else
			other++;
	}
	printf("RIG pages %ld of %ld bytes:", n, page);
	for (i = 0; i < MAX_NODES; i++)
		if (count[i])
			printf(" %ld:%ld", i, count[i]);
	printf(other ? " unknown:%ld\n" : "\n", other);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "cpus"))
		return cpus();
	if (argc == 3 && !strcmp(argv[1], "pages") && atol(argv[2]) > 0)
		return pages(atol(argv[2]));
	fprintf(stderr, "usage: rigtool cpus | rigtool pages MIB\n");
	return 2;
}
