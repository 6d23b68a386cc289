// SPDX-License-Identifier: GPL-2.0
/*
 * How long the guest has run since the machine was reset, read from the
 * arm64 virtual counter (CNTVCT_EL0), next to CLOCK_BOOTTIME. The kernel's
 * clock starts only when time_init() registers the timer, after the memory
 * map, the zones, the zonelists and the page allocator have been set up:
 * printk's clock (sched_clock) is the same counter less its value at that
 * moment, so a line written to /dev/kmsg right after the counter is read
 * ("rigclock counter-s <seconds>") carries, in its time stamp, the counter
 * less the part of the boot before time_init(): the difference is that
 * early part, which printk time stamps and /proc/uptime cannot see
 * (CLOCK_BOOTTIME counts jiffies until the clocksource switch and is
 * shown for comparison only). Under QEMU's -icount the counter counts
 * executed instructions. Prints
 *
 *   RIG boot counter-s <seconds since reset> boottime-s <CLOCK_BOOTTIME>
 *
 * or "RIG boot counter-s none" where there is no such counter.
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

int main(void)
{
#ifdef __aarch64__
	unsigned long cnt, frq;
	struct timespec ts;

	asm volatile("isb; mrs %0, cntvct_el0" : "=r"(cnt));
	clock_gettime(CLOCK_BOOTTIME, &ts);
	asm volatile("mrs %0, cntfrq_el0" : "=r"(frq));
	if (frq) {
		char line[64];
		int fd = open("/dev/kmsg", O_WRONLY);

		snprintf(line, sizeof(line), "rigclock counter-s %.6f\n", (double)cnt / frq);
		if (fd >= 0) {
			if (write(fd, line, strlen(line)) < 0)
				perror("/dev/kmsg");
			close(fd);
		}
		printf("RIG boot counter-s %.6f boottime-s %.6f\n", (double)cnt / frq,
		       ts.tv_sec + ts.tv_nsec / 1e9);
		return 0;
	}
#endif
	printf("RIG boot counter-s none\n");
	return 0;
}
