// SPDX-License-Identifier: GPL-2.0
/*
 * The guest's init: runs the tests of a plan one by one, each with its own
 * timeout, and reports them on the console between markers that the host
 * (scripts/results.py) parses. Then it reboots; QEMU runs with -no-reboot,
 * so that ends the guest.
 *
 * Plan lines:
 *   SUITE NAME TIMEOUT COMMAND [ARG...]   run a test
 *   @env NAME=VALUE                       set for the tests that follow
 *   @write FILE VALUE                     write VALUE to FILE (a sysctl, say)
 *   @skip SUITE NAME REASON               a test not run here (results.py reports it)
 *   @poweroff                             power off at the end instead of rebooting
 *                                         (for an emulator that has no -no-reboot)
 *   @heartbeat SECS                       print '@@@ alive' every SECS of guest
 *                                         time, not HEARTBEAT_SECS (for an
 *                                         emulator whose guest time runs many
 *                                         times slower than the host's)
 * Blank lines and lines starting with '#' are ignored.
 *
 * Console protocol:
 *   @@@ start SUITE NAME                  the test starts
 *   @@@ alive SUITE NAME secs=S           the test still runs: every
 *                                         HEARTBEAT_SECS of guest time, so
 *                                         the host (scripts/boot.sh) can tell
 *                                         a stalled guest from a slow test
 *   @@@ begin SUITE NAME                  the test ended; its output follows
 *   ...the test's output (stdout and stderr)...
 *   @@@ end SUITE NAME rc=N secs=S [timeout]
 *   @@@ dmesg begin / @@@ dmesg end   the kernel log, at the very end
 *   @@@ done
 *
 * A test's output goes to a file first and is copied to the console when the
 * test ends, with the console log level lowered, so kernel messages cannot
 * land in the middle of it. The kernel log dump at the end holds whatever the
 * console missed in those windows.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>
#include <sys/klog.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/wait.h>

/*
 * Scratch space for the tests, and $TMPDIR. Not /tmp: the x86_64 guest's
 * root is the host's, and the tests and the plan may live under its /tmp.
 */
#define SCRATCH		"/run"
#define OUTPUT_FILE	SCRATCH "/.runner-output"
#define MAX_ARGS	64
#define HEARTBEAT_SECS	10

#define SYSLOG_ACTION_READ_ALL		3
#define SYSLOG_ACTION_CONSOLE_LEVEL	8
#define SYSLOG_ACTION_SIZE_BUFFER	10

static int is_init;
static int power_off;
static double heartbeat = HEARTBEAT_SECS;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void try_mount(const char *src, const char *dir, const char *type)
{
	mkdir(dir, 0755);
	if (mount(src, dir, type, 0, NULL) && errno != EBUSY)
		fprintf(stderr, "runner: mount %s on %s: %s\n", type, dir,
			strerror(errno));
}

static void setup_init(void)
{
	int fd;

	try_mount("devtmpfs", "/dev", "devtmpfs");
	/* The kernel may have found no /dev/console to give us. */
	if (fcntl(1, F_GETFD) < 0) {
		fd = open("/dev/console", O_RDWR);
		if (fd >= 0) {
			dup2(fd, 0);
			dup2(fd, 1);
			dup2(fd, 2);
			if (fd > 2)
				close(fd);
		}
	}
	try_mount("proc", "/proc", "proc");
	try_mount("sysfs", "/sys", "sysfs");
	try_mount("tmpfs", SCRATCH, "tmpfs");
	try_mount("debugfs", "/sys/kernel/debug", "debugfs");
	try_mount("tracefs", "/sys/kernel/tracing", "tracefs");
	setenv("PATH", "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", 1);
	setenv("HOME", SCRATCH, 1);
	setenv("TMPDIR", SCRATCH, 1);
	setenv("TERM", "dumb", 1);
}

static int console_level(void)
{
	FILE *f = fopen("/proc/sys/kernel/printk", "r");
	int level = 7;

	if (f) {
		if (fscanf(f, "%d", &level) != 1)
			level = 7;
		fclose(f);
	}
	return level;
}

/* Copy a file to stdout, then make sure the output ends with a newline. */
static void copy_out(const char *path)
{
	char buf[4096], last = '\n';
	ssize_t n;
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return;
	while ((n = read(fd, buf, sizeof(buf))) > 0) {
		fwrite(buf, 1, n, stdout);
		last = buf[n - 1];
	}
	close(fd);
	if (last != '\n')
		putchar('\n');
}

static int run_test(const char *suite, const char *name, int timeout,
		    char **argv)
{
	double start = now(), beat = start, secs;
	int status = 0, timed_out = 0, rc, level;
	pid_t child, pid;

	printf("@@@ start %s %s\n", suite, name);
	fflush(stdout);

	child = fork();
	if (child < 0) {
		perror("runner: fork");
		return -1;
	}
	if (child == 0) {
		int fd = open(OUTPUT_FILE, O_WRONLY | O_CREAT | O_TRUNC, 0644);

		setpgid(0, 0);
		if (fd >= 0) {
			dup2(fd, 1);
			dup2(fd, 2);
			close(fd);
		}
		fd = open("/dev/null", O_RDONLY);
		if (fd >= 0) {
			dup2(fd, 0);
			close(fd);
		}
		execvp(argv[0], argv);
		fprintf(stderr, "runner: exec %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	setpgid(child, child);

	for (;;) {
		/* As init we also reap the orphans the tests leave behind. */
		pid = waitpid(-1, &status, WNOHANG);
		if (pid == child)
			break;
		if (pid > 0)
			continue;
		if (pid < 0 && errno == ECHILD)
			break;
		if (!timed_out && now() - start > timeout) {
			timed_out = 1;
			kill(-child, SIGKILL);
			kill(child, SIGKILL);
		}
		if (now() - beat >= heartbeat) {
			beat = now();
			printf("@@@ alive %s %s secs=%.0f\n", suite, name,
			       beat - start);
			fflush(stdout);
		}
		usleep(20000);
	}
	/* Nothing of the test may outlive it. */
	kill(-child, SIGKILL);
	secs = now() - start;

	if (WIFEXITED(status))
		rc = WEXITSTATUS(status);
	else if (WIFSIGNALED(status))
		rc = 128 + WTERMSIG(status);
	else
		rc = 255;

	level = console_level();
	if (is_init)
		klogctl(SYSLOG_ACTION_CONSOLE_LEVEL, NULL, 1);
	printf("@@@ begin %s %s\n", suite, name);
	copy_out(OUTPUT_FILE);
	printf("@@@ end %s %s rc=%d secs=%.1f%s\n", suite, name, rc, secs,
	       timed_out ? " timeout" : "");
	fflush(stdout);
	if (is_init)
		klogctl(SYSLOG_ACTION_CONSOLE_LEVEL, NULL, level);
	unlink(OUTPUT_FILE);
	return rc;
}

static void write_file(const char *path, const char *value)
{
	int fd = open(path, O_WRONLY);

	if (fd < 0 || write(fd, value, strlen(value)) < 0)
		printf("runner: write %s to %s: %s\n", value, path,
		       strerror(errno));
	if (fd >= 0)
		close(fd);
}

static void dump_kernel_log(void)
{
	int size = klogctl(SYSLOG_ACTION_SIZE_BUFFER, NULL, 0);
	int level = console_level();
	char *buf;
	int n;

	if (size <= 0)
		return;
	buf = malloc(size);
	if (!buf)
		return;
	n = klogctl(SYSLOG_ACTION_READ_ALL, buf, size);
	klogctl(SYSLOG_ACTION_CONSOLE_LEVEL, NULL, 1);
	printf("@@@ dmesg begin\n");
	if (n > 0)
		fwrite(buf, 1, n, stdout);
	printf("\n@@@ dmesg end\n");
	fflush(stdout);
	klogctl(SYSLOG_ACTION_CONSOLE_LEVEL, NULL, level);
	free(buf);
}

static void run_plan(FILE *plan)
{
	char line[4096], *argv[MAX_ARGS + 1], *suite, *name, *tmo, *p;
	int argc;

	while (fgets(line, sizeof(line), plan)) {
		line[strcspn(line, "\n")] = 0;
		p = line + strspn(line, " \t");
		if (!*p || *p == '#')
			continue;
		if (!strncmp(p, "@env ", 5)) {
			putenv(strdup(p + 5));
			continue;
		}
		if (!strncmp(p, "@skip ", 6))
			continue;
		if (!strncmp(p, "@heartbeat ", 11)) {
			heartbeat = atof(p + 11);
			if (heartbeat <= 0)
				heartbeat = HEARTBEAT_SECS;
			continue;
		}
		if (!strncmp(p, "@poweroff", 9)) {
			power_off = 1;
			continue;
		}
		if (!strncmp(p, "@write ", 7)) {
			char *file = strtok(p + 7, " \t");
			char *value = strtok(NULL, "");

			if (file && value)
				write_file(file, value);
			continue;
		}
		suite = strtok(p, " \t");
		name = strtok(NULL, " \t");
		tmo = strtok(NULL, " \t");
		argc = 0;
		while (argc < MAX_ARGS && (argv[argc] = strtok(NULL, " \t")))
			argc++;
		argv[argc] = NULL;
		if (!name || !tmo || !argc) {
			printf("runner: bad plan line for suite %s\n", suite);
			continue;
		}
		run_test(suite, name, atoi(tmo), argv);
	}
}

int main(int argc, char **argv)
{
	const char *path = argc > 1 ? argv[1] : "/plan";
	FILE *plan;

	is_init = getpid() == 1;
	if (is_init)
		setup_init();
	setvbuf(stdout, NULL, _IOLBF, 0);

	plan = fopen(path, "r");
	if (!plan)
		printf("runner: cannot open plan %s: %s\n", path, strerror(errno));
	else
		run_plan(plan);

	if (!is_init) {
		printf("@@@ done\n");
		return 0;
	}
	dump_kernel_log();
	printf("@@@ done\n");
	fflush(stdout);
	/* An emulated UART may still be sending: let the host see it all. */
	tcdrain(STDOUT_FILENO);
	sync();
	reboot(power_off ? RB_POWER_OFF : RB_AUTOBOOT);
	/* reboot() only returns on failure; init must never exit. */
	for (;;)
		pause();
}
