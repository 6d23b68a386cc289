// SPDX-License-Identifier: GPL-2.0
/*
 * /init for guests without a shell: Debian 12 has no riscv64 binaries, so
 * the riscv64 guest runs this instead of guest/init. It does what
 * guest/init does in rig.mode=kselftest: mounts the basics, prints the same
 * "RIG ..." facts about memory, nodes, zones and CPUs, runs the kselftest
 * (/opt/rig/numa_emu_test with the rig.args= of the command line) with its
 * lines prefixed "KSFT ", then "RIG done", and powers off.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#define MAX_NODES 1024

static int read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");

	buf[0] = '\0';
	if (!f)
		return -1;
	if (!fgets(buf, len, f))
		buf[0] = '\0';
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

static long meminfo(const char *path, const char *key)
{
	char line[256], *p;
	long kb = -1;
	FILE *f = fopen(path, "r");

	while (f && fgets(line, sizeof(line), f)) {
		p = strstr(line, key);
		if (p && sscanf(p + strlen(key), " %ld", &kb) == 1)
			break;
	}
	if (f)
		fclose(f);
	return kb;
}

/* The same facts as guest/init's facts(), one "RIG" line each. */
static void facts(void)
{
	static long lo[MAX_NODES], hi[MAX_NODES], present[MAX_NODES];
	static char seen[MAX_NODES];
	char path[256], buf[4096], dist[4096], line[256];
	long spanned = 0, v;
	int n, cur = -1, cpu;
	FILE *f;

	printf("RIG meminfo MemTotal %ld\n", meminfo("/proc/meminfo", "MemTotal:"));
	read_line("/sys/devices/system/cpu/online", buf, sizeof(buf));
	printf("RIG cpus online %s\n", buf);
	if (access("/sys/devices/system/node", F_OK)) {
		printf("RIG nodes none\n");
		return;
	}
	read_line("/sys/devices/system/node/online", buf, sizeof(buf));
	printf("RIG nodes online %s\n", buf);
	for (n = 0; n < MAX_NODES; n++) {
		snprintf(path, sizeof(path), "/sys/devices/system/node/node%d/meminfo", n);
		if (access(path, F_OK))
			continue;
		snprintf(path, sizeof(path), "/sys/devices/system/node/node%d/cpulist", n);
		read_line(path, buf, sizeof(buf));
		snprintf(path, sizeof(path), "/sys/devices/system/node/node%d/distance", n);
		read_line(path, dist, sizeof(dist));
		for (char *p = dist; *p; p++)
			if (*p == ' ')
				*p = ',';
		snprintf(path, sizeof(path), "/sys/devices/system/node/node%d/meminfo", n);
		printf("RIG node %d memtotal %ld cpulist %s distance %s\n", n,
		       meminfo(path, "MemTotal:"), buf[0] ? buf : "-", dist);
	}
	/* Node spans and present pages from /proc/zoneinfo. */
	f = fopen("/proc/zoneinfo", "r");
	while (f && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "Node %d, zone", &n) == 1 && n >= 0 && n < MAX_NODES) {
			cur = n;
			seen[n] = 1;
			spanned = 0;
		} else if (cur >= 0 && sscanf(line, " spanned %ld", &v) == 1) {
			spanned = v;
		} else if (cur >= 0 && sscanf(line, " present %ld", &v) == 1) {
			present[cur] += v;
		} else if (cur >= 0 && sscanf(line, " start_pfn: %ld", &v) == 1 && spanned) {
			if (!hi[cur] || v < lo[cur])
				lo[cur] = v;
			if (v + spanned > hi[cur])
				hi[cur] = v + spanned;
		}
	}
	if (f)
		fclose(f);
	for (n = 0; n < MAX_NODES; n++)
		if (seen[n])
			printf("RIG zone node %d start_pfn %ld end_pfn %ld present %ld\n",
			       n, lo[n], hi[n], present[n]);
	for (cpu = 0; cpu < 4096; cpu++) {
		char list[4096] = "";
		struct dirent *de;
		DIR *d;

		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d", cpu);
		d = opendir(path);
		if (!d)
			continue;
		while ((de = readdir(d)))
			if (!strncmp(de->d_name, "node", 4) && de->d_name[4] >= '0' &&
			    de->d_name[4] <= '9')
				snprintf(list + strlen(list), sizeof(list) - strlen(list),
					 "%s%s", list[0] ? "," : "", de->d_name + 4);
		closedir(d);
		printf("RIG cpu %d node %s\n", cpu, list);
	}
}

/* Run @argv with its output prefixed by @prefix. */
static void run(char *const argv[], const char *prefix)
{
	char line[4096];
	int fd[2];
	pid_t pid;
	FILE *f;

	fflush(stdout);
	if (pipe(fd))
		return;
	pid = fork();
	if (pid == 0) {
		dup2(fd[1], 1);
		dup2(fd[1], 2);
		close(fd[0]);
		execv(argv[0], argv);
		printf("cannot run %s\n", argv[0]);
		_exit(127);
	}
	close(fd[1]);
	f = fdopen(fd[0], "r");
	while (f && fgets(line, sizeof(line), f))
		printf("%s%s", prefix, line);
	if (f)
		fclose(f);
	waitpid(pid, NULL, 0);
}

int main(void)
{
	char cmdline[4096], *args[64] = { "/opt/rig/numa_emu_test" }, *tok, *save;
	int nargs = 1;

	mkdir("/proc", 0755);
	mkdir("/sys", 0755);
	mkdir("/dev", 0755);
	mkdir("/tmp", 0755);
	mount("proc", "/proc", "proc", 0, NULL);
	mount("sysfs", "/sys", "sysfs", 0, NULL);
	mount("devtmpfs", "/dev", "devtmpfs", 0, NULL);
	mount("tmpfs", "/tmp", "tmpfs", 0, NULL);
	setvbuf(stdout, NULL, _IOLBF, 0);

	read_line("/proc/cmdline", cmdline, sizeof(cmdline));
	for (tok = strtok_r(cmdline, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
		if (strncmp(tok, "rig.args=", 9))
			continue;
		for (char *a = strtok(tok + 9, ","); a && nargs < 63; a = strtok(NULL, ","))
			args[nargs++] = a;
	}
	args[nargs] = NULL;

	printf("RIG init mode kselftest\n");
	facts();
	run(args, "KSFT ");
	printf("RIG done\n");
	fflush(stdout);
	/*
	 * The serial driver sends what the tty layer holds after write()
	 * returned; power off only once it is out, or the log loses its tail.
	 */
	(void)tcdrain(STDOUT_FILENO);
	sync();
	reboot(RB_POWER_OFF);
	return 0;
}
