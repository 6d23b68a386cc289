/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The /proc/vmstat NUMA counters the guest programs report, read into an
 * array in the order of numa_counters[] (0 for a counter the kernel lacks).
 */
#ifndef RIG_VMSTAT_H
#define RIG_VMSTAT_H

#include <stdio.h>
#include <string.h>

static const char *const numa_counters[] = {
	"numa_hit", "numa_miss", "numa_foreign", "numa_interleave", "numa_local",
	"numa_other", "numa_pte_updates", "numa_hint_faults",
	"numa_hint_faults_local", "numa_pages_migrated",
};
#define NR_NUMA_COUNTERS (sizeof(numa_counters) / sizeof(numa_counters[0]))

static void read_numa_counters(unsigned long long *v)
{
	char name[64];
	unsigned long long val;
	FILE *f = fopen("/proc/vmstat", "r");
	unsigned int i;

	memset(v, 0, NR_NUMA_COUNTERS * sizeof(*v));
	while (f && fscanf(f, "%63s %llu", name, &val) == 2)
		for (i = 0; i < NR_NUMA_COUNTERS; i++)
			if (!strcmp(name, numa_counters[i]))
				v[i] = val;
	if (f)
		fclose(f);
}

#endif
