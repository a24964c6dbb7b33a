// SPDX-License-Identifier: GPL-2.0
/*
 * A QEMU TCG plugin that counts the guest kernel's instructions, block by
 * block, for scripts/insnprof.sh.
 *
 * Every translation block that starts at a kernel address (the top half
 * of the address space) counts its executions; a block of n instructions
 * that ran k times ran n * k instructions. Each time the guest runs the
 * block at mark=ADDR, every count so far is written to out=FILE, as
 *
 *   snap N
 *   VADDR INSNS EXECS
 *   ...
 *
 * so that the difference of two snapshots is what the kernel ran between
 * two passes through ADDR. insnprof.sh maps the addresses to functions.
 * Made for one vCPU: the counts are not atomic.
 *
 * Only the few entry points of QEMU's plugin interface that this uses are
 * declared here, as QEMU documents them; QEMU installs no header.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef uint64_t qemu_plugin_id_t;

typedef struct {
	const char *target_name;
	struct {
		int min;
		int cur;
	} version;
	bool system_emulation;
	union {
		struct {
			int smp_vcpus;
			int max_vcpus;
		} system;
	};
} qemu_info_t;

struct qemu_plugin_tb;

void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id,
		void (*cb)(qemu_plugin_id_t id, struct qemu_plugin_tb *tb));
void qemu_plugin_register_vcpu_tb_exec_cb(struct qemu_plugin_tb *tb,
		void (*cb)(unsigned int vcpu, void *udata),
		int flags, void *udata);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
uint64_t qemu_plugin_tb_vaddr(const struct qemu_plugin_tb *tb);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id,
		void (*cb)(qemu_plugin_id_t id, void *udata), void *udata);

__attribute__((visibility("default"))) int qemu_plugin_version = 2;

#define SLOTS		(1u << 20)
#define KERNEL_BASE	0xffff000000000000ull

/* One block: its start and length; a block is translated again alike */
struct block {
	uint64_t vaddr;
	uint64_t insns;
	uint64_t execs;
	uint32_t n;
	bool used;
};

static struct block *blocks;
static uint64_t mark;
static unsigned int snaps;
static FILE *out;

static struct block *block_of(uint64_t vaddr, uint32_t n)
{
	uint32_t h = (uint32_t)((vaddr >> 2) * 2654435761u + n) & (SLOTS - 1);

	while (blocks[h].used && (blocks[h].vaddr != vaddr || blocks[h].n != n))
		h = (h + 1) & (SLOTS - 1);
	if (!blocks[h].used) {
		blocks[h].used = true;
		blocks[h].vaddr = vaddr;
		blocks[h].n = n;
	}
	return &blocks[h];
}

static void snapshot(void)
{
	uint32_t i;

	fprintf(out, "snap %u\n", snaps++);
	for (i = 0; i < SLOTS; i++)
		if (blocks[i].used && blocks[i].execs)
			fprintf(out, "%" PRIx64 " %" PRIu64 " %" PRIu64 "\n",
				blocks[i].vaddr, blocks[i].insns,
				blocks[i].execs);
	fflush(out);
}

static void ran(unsigned int vcpu, void *udata)
{
	struct block *b = udata;

	b->execs++;
	b->insns += b->n;
}

static void ran_mark(unsigned int vcpu, void *udata)
{
	snapshot();
	ran(vcpu, udata);
}

static void translated(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	uint64_t vaddr = qemu_plugin_tb_vaddr(tb);
	struct block *b;

	if (vaddr < KERNEL_BASE)
		return;
	b = block_of(vaddr, qemu_plugin_tb_n_insns(tb));
	qemu_plugin_register_vcpu_tb_exec_cb(tb, vaddr == mark ? ran_mark : ran,
					     0, b);
}

static void finished(qemu_plugin_id_t id, void *udata)
{
	snapshot();
	fclose(out);
}

__attribute__((visibility("default")))
int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info,
			int argc, char **argv)
{
	const char *path = NULL;
	int i;

	for (i = 0; i < argc; i++) {
		if (!strncmp(argv[i], "out=", 4))
			path = argv[i] + 4;
		else if (!strncmp(argv[i], "mark=", 5))
			mark = strtoull(argv[i] + 5, NULL, 16);
	}
	if (!path) {
		fprintf(stderr, "insnprof: out=FILE missing\n");
		return -1;
	}
	out = fopen(path, "w");
	blocks = calloc(SLOTS, sizeof(*blocks));
	if (!out || !blocks)
		return -1;
	qemu_plugin_register_vcpu_tb_trans_cb(id, translated);
	qemu_plugin_register_atexit_cb(id, finished, NULL);
	return 0;
}
