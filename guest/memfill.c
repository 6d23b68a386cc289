// SPDX-License-Identifier: GPL-2.0
/*
 * Fill a share of MemAvailable under the default memory policy, then report
 * how many of the touched pages sit on each node ("RIG memfill ..." lines).
 * Usage: memfill PERCENT
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#define MAX_NODES 1024

int main(int argc, char **argv)
{
	long page = sysconf(_SC_PAGESIZE), percent = argc > 1 ? atol(argv[1]) : 85;
	unsigned long long avail_kb = 0, bytes, count, i;
	static long per[MAX_NODES];
	char line[256];
	FILE *f = fopen("/proc/meminfo", "r");
	void **pages;
	int *status;
	char *mem;

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "MemAvailable: %llu kB", &avail_kb) == 1)
			break;
	if (f)
		fclose(f);
	bytes = avail_kb * 1024 / 100 * percent / page * page;
	count = bytes / page;
	printf("RIG memfill available %llu kB, filling %llu MiB (%ld%%)\n",
	       avail_kb, bytes >> 20, percent);
	fflush(stdout);
	pages = calloc(count, sizeof(*pages));
	status = calloc(count, sizeof(*status));
	mem = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (!pages || !status || mem == MAP_FAILED) {
		printf("RIG memfill error: allocation failed\n");
		return 1;
	}
	for (i = 0; i < count; i++) {
		mem[i * page] = 1;
		pages[i] = mem + i * page;
	}
	if (syscall(__NR_move_pages, 0, count, pages, NULL, status, 0)) {
		printf("RIG memfill error: move_pages failed\n");
		return 1;
	}
	for (i = 0; i < count; i++)
		if (status[i] >= 0 && status[i] < MAX_NODES)
			per[status[i]]++;
	for (i = 0; i < MAX_NODES; i++)
		if (per[i])
			printf("RIG memfill node %llu pages %ld\n", i, per[i]);
	printf("RIG memfill done %llu pages\n", count);
	return 0;
}
