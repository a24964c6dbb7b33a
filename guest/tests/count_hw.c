// SPDX-License-Identifier: GPL-2.0
/*
 * Proves that the hardware counters of the guest's PMU advance: cycles over
 * a busy loop, more cycles over a longer loop, none while disabled, and
 * instructions equal to what the loop executes. QEMU counts instructions
 * only under -icount; without it the event does not open and that test is
 * skipped, naming the reason.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <linux/perf_event.h>

#define LOOPS	1000000UL

static int failed;
static int test_nr;

static void result(int ok, const char *name)
{
	printf("%sok %d %s\n", ok ? "" : "not ", ++test_nr, name);
	if (!ok)
		failed = 1;
}

static int open_counter(uint64_t config)
{
	struct perf_event_attr attr = {
		.type		= PERF_TYPE_HARDWARE,
		.size		= sizeof(attr),
		.config		= config,
		.disabled	= 1,
		.exclude_kernel	= 1,
		.exclude_hv	= 1,
	};

	return syscall(__NR_perf_event_open, &attr, 0, -1, -1, 0);
}

/* Exactly two instructions per iteration on arm64. */
static void spin(unsigned long n)
{
#ifdef __aarch64__
	asm volatile("1: subs %0, %0, #1\n\tb.ne 1b" : "+r" (n) : : "cc");
#else
	volatile unsigned long i;

	for (i = 0; i < n; i++)
		;
#endif
}

static uint64_t count(int fd, unsigned long loops)
{
	uint64_t value = 0;

	ioctl(fd, PERF_EVENT_IOC_RESET, 0);
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	spin(loops);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	if (read(fd, &value, sizeof(value)) != sizeof(value))
		return 0;
	return value;
}

static void test_cycles(void)
{
	uint64_t short_run, long_run, before, after;
	int fd = open_counter(PERF_COUNT_HW_CPU_CYCLES);

	if (fd < 0) {
		printf("# cycles: perf_event_open: %s\n", strerror(errno));
		result(0, "cycles_open");
		return;
	}
	result(1, "cycles_open");

	short_run = count(fd, LOOPS);
	long_run = count(fd, 10 * LOOPS);
	printf("# cycles: %llu over %lu loops, %llu over %lu loops\n",
	       (unsigned long long)short_run, LOOPS,
	       (unsigned long long)long_run, 10 * LOOPS);
	result(short_run > 0, "cycles_advance");
	result(long_run > short_run, "cycles_grow_with_work");

	read(fd, &before, sizeof(before));
	spin(LOOPS);
	read(fd, &after, sizeof(after));
	result(before == after, "cycles_stop_while_disabled");
	close(fd);
}

static void test_instructions(void)
{
	uint64_t n, expect = 2 * LOOPS;
	int fd = open_counter(PERF_COUNT_HW_INSTRUCTIONS);

	if (fd < 0) {
		printf("ok %d instructions_exact # SKIP instructions event not available (%s); QEMU counts instructions only with -icount\n",
		       ++test_nr, strerror(errno));
		return;
	}
	n = count(fd, LOOPS);
	printf("# instructions: %llu for a loop of %llu instructions\n",
	       (unsigned long long)n, (unsigned long long)expect);
#ifdef __aarch64__
	/* The loop, plus the few user instructions around the ioctls. */
	result(n >= expect && n < expect + 1000, "instructions_exact");
#else
	result(n >= LOOPS, "instructions_exact");
#endif
	close(fd);
}

int main(void)
{
	printf("TAP version 13\n1..5\n");
	test_cycles();
	test_instructions();
	return failed;
}
