/*
 * gc-sched - the GPU's execution model: blocks to SMs, warps interleaved,
 * issue timestamps (seed 000 §4.1; occupancy by seed 003 formulas 3-6).
 *
 * Reads: an access stream whose warps each hold their memory instructions
 * in program order (unscheduled, as gc-gen and gc-import write it).
 * Writes: the same access records in issue order, with the SM and the
 * timestamp set, the optional flag `scheduled`, and the GPU (gpu.*) and the
 * scheduling (sched.*) in the header.
 *
 * Per kernel, the active blocks per SM follow from the occupancy.  Blocks
 * go to SMs round-robin until every SM is full; then a slot that frees
 * takes the next block (first done, first served).  Every SM with work
 * issues one memory warp instruction per time step, all SMs in the same
 * step, so they run in parallel; within a step the SMs are written in
 * ascending order.  Which warp issues is the policy's choice (lrr, gto,
 * pself).  A block is done when its last instruction has issued, so its
 * work -- its number of memory warp instructions -- decides when it ends.
 *
 * Memory: when the input is grouped by block (gc-gen, Accel-Sim .traceg,
 * PPT-GPU, Ocelot), the active blocks plus the one being read; a block is
 * known complete when the next one begins.  A kernel whose blocks are
 * interleaved (NVBit, raw Accel-Sim traces) is noticed when a finished
 * block reappears before anything of the kernel was issued, and is then
 * buffered whole; --whole-kernels asks for that from the start.
 */
#include "base/endian.h"
#include "base/hash.h"
#include "base/rng.h"
#include "config/gpu.h"
#include "prog/gpuopt.h"
#include "prog/prog.h"
#include "report/json.h"
#include "stream/stream.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NONE UINT32_MAX
#define REC_MAX (UINT32_MAX - 1) /* records one block may hold */

enum policy { POL_LRR, POL_GTO, POL_PSELF, NPOLICIES };
static const char *const policy_names[NPOLICIES] = {"lrr", "gto", "pself"};

static const char help[] =
	"Usage: gc-sched [options] [file]\n"
	"Schedule an access stream: blocks to SMs, warps interleaved, issue times.\n"
	"\n"
	"      --policy P       warp policy: lrr, gto or pself (default lrr)\n"
	"      --p-self P       pself: probability that a warp issues again (default 0.5)\n"
	"      --seed S         pself: random seed (default 1)\n"
	"      --sms N          write only SMs 0 to N-1 of the GPU (default: all)\n"
	"      --waves K        schedule only the first K waves of blocks (default: all)\n"
	"      --active N       active blocks per SM (default: the occupancy)\n"
	"      --whole-kernels  buffer each kernel whole (blocks interleaved in the input)\n"
	"      --gpu NAME|FILE  GPU preset or file (default: the input's, else fermi-gtx470-16k)\n"
	"      --list-gpus      list the GPU presets and exit\n"
	"      --emit WHAT      accesses (default): write the stream; none: no stream,\n"
	"                       the report on stdout (or -o FILE) instead\n"
	"      --report FILE    write the report (-v's) to FILE\n"
	"  -o, --output FILE    write the stream to FILE (default: stdout)\n"
	"  -z, --gzip           write gzip-compressed output\n"
	"      --force          write binary output to a terminal\n"
	"      --stats FILE     write a JSON summary to FILE\n"
	"      --progress       show progress on a terminal\n"
	"  -q, --quiet          no warnings\n"
	"  -v, --verbose        print each kernel's occupancy and schedule on stderr\n"
	"  -h, --help           show this help and exit\n"
	"  -V, --version        show versions and exit\n";

enum {
	OPT_POLICY = GC_OPT_TOOL,
	OPT_PSELF,
	OPT_SEED,
	OPT_SMS,
	OPT_WAVES,
	OPT_ACTIVE,
	OPT_WHOLE,
};

struct cmdline {
	gc_common c;
	const char *input;
	int policy;
	double pself;
	int have_pself, have_seed;
	uint64_t seed;
	unsigned sms, waves, active; /* 0: all, all, the occupancy */
	int whole;
};

/* A run: records of one warp instruction that lie one after the other
 * (all of its records, in input grouped by warp), kept at its first
 * record's index.  A warp's runs are chained in program order. */
struct run {
	uint32_t n;        /* records, and RUN_CONT: the next run is of the
			      same instruction */
	uint32_t next;     /* the warp's next run, NONE at its end */
};
#define RUN_CONT UINT32_C(0x80000000)
#define RUN_MAX (RUN_CONT - 1)

/* One warp of a block: its records are chained in program order. */
struct warp {
	uint32_t id;       /* warp within the block */
	uint32_t head;     /* next record to issue; NONE when done */
	uint32_t tail;     /* last record read */
	uint32_t seq, pc;  /* of the last record read */
	uint32_t rstart;   /* the run its tail ends */
};

enum bstate { B_READING, B_COMPLETE, B_ACTIVE };

struct block {
	uint32_t id;
	int state;
	uint64_t order;       /* dispatch order: first appearance in the input */
	unsigned char *raw;   /* records in input order, as they lie in the stream */
	struct run *run;      /* at the first record of each run */
	uint32_t n, cap;
	struct warp *w;
	uint32_t nw, wcap;
	uint32_t *widx;       /* warp id -> index in w + 1 (0: none yet) */
	uint32_t widx_cap;
	uint32_t *live;       /* warps with instructions left, by warp id */
	uint32_t nlive, live_cap;
	struct block *qnext;  /* the pending queue, or the free list */
};

struct sm {
	struct block **slot;  /* `active` slots; NULL when free */
	uint32_t nblocks;     /* occupied slots */
	uint32_t cs, cp;      /* where the policy looks first: slot, live position */
	int again;            /* gto, pself: (cs, cp) is the warp to issue again */
	uint64_t rng;         /* pself */
};

struct kstats {
	uint32_t id;
	char name[64];
	unsigned threads, regs;
	uint32_t shmem;
	gc_occupancy occ;
	unsigned active;      /* blocks per SM used */
	uint64_t grid_blocks, blocks, blocks_written, blocks_dropped;
	uint64_t insts, accesses, written, dropped;
	uint64_t t_first, t_last;
	double scale;
	int whole;
};

struct sched {
	const struct cmdline *cl;
	gc_gpu_config gpu;
	gc_reader *r;
	gc_writer *w;
	unsigned nsm, nwrite;  /* SMs simulated, SMs written */
	struct sm *sms;
	unsigned active;       /* slots per SM, this kernel */
	uint64_t time;         /* the next free time step */

	/* the kernel being read */
	const gc_kernel *k;
	size_t rs;             /* the stream's record size */
	const unsigned char *rp; /* the records of gc_read_raw's block not yet taken */
	size_t rn;
	uint64_t grid_blocks;  /* 0: unknown */
	int whole, input_done;
	int dropping, drop_any;  /* past --waves: records read and dropped */
	uint32_t drop_block;
	struct block *cur;     /* the block the last record went to */
	struct block *qhead, *qtail; /* blocks read and not yet launched */
	uint64_t nqueued, norder, dispatched, limit;
	gc_hmap buffered;      /* block id -> struct block * (queued ones) */
	uint8_t *seen;         /* bitmap of block ids met in this kernel */
	size_t seen_bytes;
	struct block *free;    /* spare blocks, buffers kept */
	struct block **fill;   /* the first wave, before it is launched */
	size_t fill_cap;
	uint64_t buffered_now, peak_blocks, peak_records, records_now;

	/* freed slots of this step: (sm, slot), in the order they freed */
	uint32_t *refill;
	size_t nrefill, refill_cap;

	struct kstats ks;
	struct kstats *kern;
	size_t nkern, kcap;
	uint64_t read_total, written_total, insts_total, blocks_total;
	uint64_t whole_kernels;
	int first_time_set;
	uint64_t t_first, t_last;
};

/* ---- command line ------------------------------------------------------ */

static void parse_cmdline(int argc, char **argv, struct cmdline *cl)
{
	static const struct option longopts[] = {
		GC_COMMON_LONGOPTS,
		GC_REPORT_LONGOPTS,
		{"policy", required_argument, NULL, OPT_POLICY},
		{"p-self", required_argument, NULL, OPT_PSELF},
		{"seed", required_argument, NULL, OPT_SEED},
		{"sms", required_argument, NULL, OPT_SMS},
		{"waves", required_argument, NULL, OPT_WAVES},
		{"active", required_argument, NULL, OPT_ACTIVE},
		{"whole-kernels", no_argument, NULL, OPT_WHOLE},
		{NULL, 0, NULL, 0},
	};
	int c;
	memset(cl, 0, sizeof *cl);
	cl->pself = 0.5;
	cl->seed = 1;
	while ((c = gc_getopt(argc, argv, GC_COMMON_SHORTOPTS, longopts)) != -1) {
		if (gc_common_option(&cl->c, c, optarg, help))
			continue;
		switch (c) {
		case OPT_POLICY:
			cl->policy = -1;
			for (int i = 0; i < NPOLICIES; i++)
				if (strcmp(optarg, policy_names[i]) == 0)
					cl->policy = i;
			if (cl->policy < 0)
				gc_usage_error("--policy: '%s' is not lrr, gto or pself", optarg);
			break;
		case OPT_PSELF:
			cl->pself = gc_real("--p-self", optarg, 0, 1);
			cl->have_pself = 1;
			break;
		case OPT_SEED:
			cl->seed = gc_num("--seed", optarg, 0, UINT64_MAX);
			cl->have_seed = 1;
			break;
		case OPT_SMS: cl->sms = (unsigned)gc_num("--sms", optarg, 1, 65535); break;
		case OPT_WAVES: cl->waves = (unsigned)gc_num("--waves", optarg, 1, UINT32_MAX); break;
		case OPT_ACTIVE: cl->active = (unsigned)gc_num("--active", optarg, 1, 65535); break;
		case OPT_WHOLE: cl->whole = 1; break;
		case GC_OPT_EMIT: {
			static const char *const emits[] = {"accesses", NULL};
			(void)gc_emit_option(&cl->c, optarg, emits);
			break;
		}
		default: gc_usage_error("unexpected option");
		}
	}
	if ((cl->have_pself || cl->have_seed) && cl->policy != POL_PSELF)
		gc_usage_error("--p-self and --seed go with --policy pself");
	cl->input = gc_one_input(argc, argv);
}

/* ---- memory ------------------------------------------------------------ */


static void *grow(void *p, uint32_t *cap, uint32_t need, size_t size)
{
	if (need <= *cap)
		return p;
	uint64_t c = *cap ? *cap : 16;
	while (c < need)
		c *= 2;
	if (c > UINT32_MAX)
		c = UINT32_MAX;
	*cap = (uint32_t)c;
	return gc_xrealloc(p, (size_t)c * size);
}

static struct block *block_new(struct sched *s, uint32_t id)
{
	struct block *b = s->free;
	if (b) {
		s->free = b->qnext;
	} else {
		b = calloc(1, sizeof *b);
		if (!b)
			gc_die(GC_EXIT_DATA, "out of memory");
	}
	b->id = id;
	b->state = B_READING;
	b->order = s->norder++;
	b->n = 0;
	b->nw = 0;
	b->nlive = 0;
	b->qnext = NULL;
	if (b->widx_cap)
		memset(b->widx, 0, b->widx_cap * sizeof *b->widx);
	if (++s->buffered_now > s->peak_blocks)
		s->peak_blocks = s->buffered_now;
	return b;
}

static void block_free(struct sched *s, struct block *b)
{
	/* records_now only falls here: its peak is before a fall */
	if (s->records_now > s->peak_records)
		s->peak_records = s->records_now;
	s->records_now -= b->n;
	s->buffered_now--;
	b->qnext = s->free;
	s->free = b;
}

/* ---- reading ----------------------------------------------------------- */

static _Noreturn void read_failed(struct sched *s)
{
	gc_writer_free(s->w);
	gc_die(GC_EXIT_DATA, "%s", gc_reader_error(s->r));
}

static int seen_test_set(struct sched *s, uint32_t id)
{
	size_t byte = id >> 3;
	if (byte >= s->seen_bytes) {
		size_t n = s->seen_bytes ? s->seen_bytes : 64;
		while (n <= byte)
			n *= 2;
		s->seen = gc_xrealloc(s->seen, n);
		memset(s->seen + s->seen_bytes, 0, n - s->seen_bytes);
		s->seen_bytes = n;
	}
	int was = (s->seen[byte] >> (id & 7)) & 1;
	s->seen[byte] |= (uint8_t)(1u << (id & 7));
	return was;
}

/* A bad record, `back` records before the last one read (add_record's,
 * of a gc_read_raw block): "record N (offset X): what", exit 1. */
#define die_record(s, back, ...) gc_die_record_back((s)->r, (s)->w, back, __VA_ARGS__)

/* The block a record goes to when it is not the current one. */
static struct block *switch_block(struct sched *s, uint32_t block, size_t back)
{
	if (s->grid_blocks && block >= s->grid_blocks)
		die_record(s, back, "block %u is outside the kernel's grid of %llu blocks", block,
			   (unsigned long long)s->grid_blocks);
	if (!seen_test_set(s, block)) {
		if (s->cur && !s->whole)
			s->cur->state = B_COMPLETE;
		struct block *b = block_new(s, block);
		if (s->qtail)
			s->qtail->qnext = b;
		else
			s->qhead = b;
		s->qtail = b;
		s->nqueued++;
		uint64_t *v = gc_hmap_put(&s->buffered, block, NULL);
		if (!v)
			gc_die(GC_EXIT_DATA, "out of memory");
		*v = (uint64_t)(uintptr_t)b;
		return s->cur = b;
	}
	uint64_t *v = gc_hmap_get(&s->buffered, block);
	if (!v)
		die_record(s, back, "block %u continues after gc-sched scheduled it: the input's blocks "
			   "are interleaved (use --whole-kernels)", block);
	if (!s->whole) {
		/* Interleaved blocks: none is complete before the kernel ends. */
		s->whole = 1;
		for (struct block *q = s->qhead; q; q = q->qnext)
			q->state = B_READING;
	}
	return s->cur = (struct block *)(uintptr_t)*v;
}

/* find_warp's rare case: a warp the block has not met, its index made. */
static __attribute__((noinline)) struct warp *new_warp(struct block *b, uint32_t id, uint32_t seq,
						       uint32_t pc)
{
	uint32_t old = b->widx_cap;
	if (id >= old) {
		b->widx = grow(b->widx, &b->widx_cap, id + 1, sizeof *b->widx);
		memset(b->widx + old, 0, (size_t)(b->widx_cap - old) * sizeof *b->widx);
	}
	b->w = grow(b->w, &b->wcap, b->nw + 1, sizeof *b->w);
	struct warp *w = &b->w[b->nw++];
	b->widx[id] = b->nw;
	w->id = id;
	w->head = NONE;
	w->tail = NONE;
	w->seq = seq;
	w->pc = pc;
	return w;
}

/* Room for need records in b. */
static __attribute__((noinline)) void block_grow(struct sched *s, struct block *b, uint32_t need)
{
	b->raw = grow(b->raw, &b->cap, need, s->rs);
	b->run = gc_xrealloc(b->run, (size_t)b->cap * sizeof *b->run);
}

static inline struct warp *find_warp(struct block *b, uint32_t id, uint32_t seq, uint32_t pc)
{
	uint32_t i = id < b->widx_cap ? b->widx[id] : 0;
	return i ? &b->w[i - 1] : new_warp(b, id, seq, pc);
}

/* A data record p (gc-stream(5)'s bytes) into its block; `back` records
 * were read after it (for messages).  Its warp. */
static inline __attribute__((always_inline)) struct warp *add_record(struct sched *s,
								     const unsigned char *p, size_t back)
{
	uint32_t block = gc_get32(p + 8), pc = gc_get32(p + 12), seq = gc_get32(p + 16);
	struct block *b = s->cur;
	if (!b || block != b->id)
		b = switch_block(s, block, back);
	if (b->n == REC_MAX)
		die_record(s, back, "block %u holds more than %u records", b->id, REC_MAX);
	struct warp *w = find_warp(b, gc_get16(p + 6), seq, pc);
	if (w->tail != NONE) {
		if (seq < w->seq)
			die_record(s, back, "block %u warp %u: seq %u after seq %u (not in program order)",
				   b->id, w->id, seq, w->seq);
		if (seq == w->seq && pc != w->pc)
			die_record(s, back, "block %u warp %u seq %u: pc 0x%x, but the instruction's pc "
				   "is 0x%x", b->id, w->id, seq, pc, w->pc);
	}
	uint32_t i = b->n, tail = w->tail;
	if (i == b->cap)
		block_grow(s, b, i + 1);
	b->n = i + 1;
	struct run *r = &b->run[w->rstart];
	if (tail != NONE && tail + 1 == i && seq == w->seq && (r->n & RUN_MAX) < RUN_MAX) {
		r->n++;
	} else {
		if (tail == NONE) {
			w->head = i;
		} else {
			r->next = i;
			r->n |= seq == w->seq ? RUN_CONT : 0;
		}
		b->run[i].n = 1;
		b->run[i].next = NONE;
		w->rstart = i;
	}
	w->tail = i;
	w->seq = seq;
	w->pc = pc;
	s->records_now++; /* its peak: block_free */
	s->ks.accesses++;
	/* the copy last: stores through bytes could be any field's */
	if (s->rs == GC_RECORD_BASE) /* a copy of known size: no call */
		memcpy(b->raw + (size_t)i * GC_RECORD_BASE, p, GC_RECORD_BASE);
	else
		memcpy(b->raw + (size_t)i * s->rs, p, s->rs);
	return w;
}

/* How many of the n records at p (rs bytes apart) are of the instruction
 * of record `ref` (its warp, block, pc and seq: bytes 6-19). */
static inline size_t same_inst(const unsigned char *ref, const unsigned char *p, size_t n,
			       size_t rs)
{
	uint64_t x = gc_get64(ref + 6), y = gc_get64(ref + 12);
	size_t k = 0;
	while (k < n && gc_get64(p + 6) == x && gc_get64(p + 12) == y)
		k++, p += rs;
	return k;
}

/* k records at p after one add_record put into warp w of the current
 * block, of its instruction (same_inst): add_record's work for each, at
 * once (its checks pass: the block and instruction are the last one's). */
static void add_same(struct sched *s, struct warp *w, const unsigned char *p, size_t k)
{
	struct block *b = s->cur;
	uint32_t i = b->n;
	if (i + k > b->cap)
		block_grow(s, b, (uint32_t)(i + k));
	b->run[w->rstart].n += (uint32_t)k;
	w->tail = (uint32_t)(i + k - 1);
	b->n = (uint32_t)(i + k);
	s->records_now += k;
	s->ks.accesses += k;
	memcpy(b->raw + (size_t)i * s->rs, p, k * s->rs);
}

/* Read one event of the kernel: a record, or its end.  Records come in
 * gc_read_raw's blocks, taken one at a time: a block is read only when a
 * slot frees for it, as with gc_read. */
static void read_one(struct sched *s)
{
	if (!s->rn) {
		uint64_t hi;
		s->rp = gc_read_raw(s->r, SIZE_MAX, &s->rn, &hi);
		if (s->rn && s->cl->c.progress)
			gc_progress_reader_block(1, s->r);
	}
	if (s->rn) {
		const unsigned char *p = s->rp;
		s->rp += s->rs;
		s->rn--;
		if (s->dropping) {
			/* past --waves: counted, not kept */
			uint32_t block = gc_get32(p + 8);
			s->ks.accesses++;
			s->ks.dropped++;
			if (!s->drop_any || block != s->drop_block)
				s->ks.blocks_dropped++;
			s->drop_any = 1;
			s->drop_block = block;
		} else {
			add_record(s, p, s->rn);
		}
		return;
	}
	gc_rec rec;
	int ev = gc_read(s->r, &rec);
	if (ev == GC_KEND) {
		s->input_done = 1;
		for (struct block *q = s->qhead; q; q = q->qnext)
			q->state = B_COMPLETE;
	} else if (ev == GC_ERR) {
		read_failed(s);
	} else if (ev == GC_DATA) {
		/* gc_read_raw gives every record gc_read would (stream.h) */
		gc_die_record(s->r, s->w, "a data record the block reader left (a bug in gc-sched)");
	} else {
		/* The reader ends a kernel only with its end record. */
		gc_writer_free(s->w);
		gc_die(GC_EXIT_DATA, "%s: the stream ended inside kernel %u",
		       gc_reader_name(s->r), s->k->id);
	}
	if (s->cl->c.progress)
		gc_progress_reader(1, s->r);
}

/* Sort the warps by id and make them all live (a block being launched). */
static int warp_cmp(const void *a, const void *b)
{
	const struct warp *x = a, *y = b;
	return (x->id > y->id) - (x->id < y->id);
}

static void block_ready(struct block *b)
{
	qsort(b->w, b->nw, sizeof *b->w, warp_cmp);
	b->live = grow(b->live, &b->live_cap, b->nw, sizeof *b->live);
	for (uint32_t i = 0; i < b->nw; i++)
		b->live[i] = i;
	b->nlive = b->nw;
	b->state = B_ACTIVE;
}

/* The next block to launch, in the order blocks appear in the input; NULL
 * when the kernel has no more (or --waves has them all). */
static struct block *next_block(struct sched *s)
{
	for (;;) {
		if (s->limit && s->dispatched >= s->limit)
			return NULL;
		struct block *b = s->qhead;
		if (b && b->state == B_COMPLETE) {
			s->qhead = b->qnext;
			if (!s->qhead)
				s->qtail = NULL;
			if (s->cur == b)
				s->cur = NULL;
			s->nqueued--;
			s->dispatched++;
			return b;
		}
		if (s->input_done)
			return NULL;
		/* the records read until the head block is complete (a
		 * record of another block completes it): read_one's common
		 * case, in one loop */
		const unsigned char *p = s->rp;
		size_t left = s->rn;
		size_t rs = s->rs;
		while (left && !(s->qhead && s->qhead->state == B_COMPLETE)) {
			left--;
			struct warp *w = add_record(s, p, left);
			if (s->qhead && s->qhead->state == B_COMPLETE) {
				p += rs; /* it began a block: read no further */
				break;
			}
			/* the rest of its instruction's run at once (of its
			 * block: the head stays incomplete), up to REC_MAX
			 * (one more: add_record's message) */
			size_t k = same_inst(p, p + rs, left, rs);
			uint32_t room = RUN_MAX - (s->cur->run[w->rstart].n & RUN_MAX);
			if (k > REC_MAX - s->cur->n)
				k = REC_MAX - s->cur->n;
			if (k > room)
				k = room;
			p += rs;
			if (k) {
				add_same(s, w, p, k);
				p += k * rs;
				left -= k;
			}
		}
		s->rp = p;
		s->rn = left;
		if (!s->rn)
			read_one(s);
	}
}

/* ---- issuing ----------------------------------------------------------- */

/* Loose round robin: the first live warp from (cs, cp) on, slot by slot. */
static int pick_lrr(struct sched *s, struct sm *m, uint32_t *slot, uint32_t *pos)
{
	uint32_t sl = m->cs, p = m->cp;
	for (unsigned i = 0; i <= s->active; i++) {
		struct block *b = m->slot[sl];
		if (b && p < b->nlive) {
			*slot = sl;
			*pos = p;
			return 1;
		}
		sl = sl + 1 == s->active ? 0 : sl + 1;
		p = 0;
	}
	return 0;
}

/* Greedy then oldest: the oldest block's first live warp. */
static int pick_oldest(struct sched *s, struct sm *m, uint32_t *slot, uint32_t *pos)
{
	int found = 0;
	uint64_t best = 0;
	for (uint32_t sl = 0; sl < s->active; sl++) {
		struct block *b = m->slot[sl];
		if (b && b->nlive && (!found || b->order < best)) {
			found = 1;
			best = b->order;
			*slot = sl;
			*pos = 0;
		}
	}
	return found;
}

/* From here on the block's records are final: one that comes later is an
 * error (switch_block). */
static void launch(struct sched *s, struct block *b, unsigned smi, uint32_t sl)
{
	struct sm *m = &s->sms[smi];
	gc_hmap_del(&s->buffered, b->id);
	block_ready(b);
	m->slot[sl] = b;
	m->nblocks++;
	if (smi < s->nwrite)
		s->ks.blocks_written++;
	s->ks.blocks++;
}

/* Issue one warp instruction on SM smi at time t. */
static void issue(struct sched *s, unsigned smi, uint64_t t)
{
	struct sm *m = &s->sms[smi];
	uint32_t sl = 0, p = 0;
	int ok;
	if (m->again)
		sl = m->cs, p = m->cp, ok = 1;
	else if (s->cl->policy == POL_GTO)
		ok = pick_oldest(s, m, &sl, &p);
	else
		ok = pick_lrr(s, m, &sl, &p);
	if (!ok)
		return;
	struct block *b = m->slot[sl];
	struct warp *w = &b->w[b->live[p]];
	size_t rs = s->rs;
	uint32_t i = w->head, cont;
	int write = smi < s->nwrite;
	do {
		/* A run of the instruction is written at once, each record as
		 * read with its SM and clock set. */
		uint32_t first = i, n = b->run[i].n & RUN_MAX;
		cont = b->run[i].n & RUN_CONT;
		i = b->run[i].next;
		if (write) {
			if (s->w && gc_write_issued(s->w, b->raw + (size_t)first * rs, n, smi, t) < 0)
				gc_die(GC_EXIT_DATA, "%s", gc_writer_error(s->w));
			s->ks.written += n;
		} else {
			s->ks.dropped += n;
		}
	} while (cont);
	w->head = i;
	s->ks.insts++;
	if (write) {
		if (!s->first_time_set) {
			s->first_time_set = 1;
			s->t_first = t;
		}
		if (s->ks.t_first == UINT64_MAX)
			s->ks.t_first = t;
		s->ks.t_last = t;
		s->t_last = t;
	}

	int alive = i != NONE;
	if (!alive) {
		memmove(b->live + p, b->live + p + 1, (size_t)(b->nlive - p - 1) * sizeof *b->live);
		b->nlive--;
	}
	/* Where the policy looks next. */
	m->again = 0;
	if (alive && s->cl->policy == POL_GTO) {
		m->again = 1;
	} else if (alive && s->cl->policy == POL_PSELF) {
		double u = gc_splitmix64_unit(&m->rng);
		m->again = u < s->cl->pself;
	}
	m->cs = sl;
	m->cp = alive && !m->again ? p + 1 : p;
	if (b->nlive == 0) {
		/* The block is done: its slot frees, the round goes on. */
		m->slot[sl] = NULL;
		m->nblocks--;
		block_free(s, b);
		m->again = 0;
		m->cs = sl + 1 == s->active ? 0 : sl + 1;
		m->cp = 0;
		if (s->nrefill == s->refill_cap) {
			s->refill_cap = s->refill_cap ? 2 * s->refill_cap : 64;
			s->refill = gc_xrealloc(s->refill, s->refill_cap * 2 * sizeof *s->refill);
		}
		s->refill[2 * s->nrefill] = smi;
		s->refill[2 * s->nrefill + 1] = sl;
		s->nrefill++;
	}
}

/* ---- kernels ----------------------------------------------------------- */

static void kernel_setup(struct sched *s, const gc_kernel *k)
{
	struct kstats *ks = &s->ks;
	memset(ks, 0, sizeof *ks);
	ks->id = k->id;
	snprintf(ks->name, sizeof ks->name, "%.63s", k->name);
	ks->t_first = UINT64_MAX;
	uint64_t threads = gc_kernel_threads_per_block(k);
	ks->threads = threads > UINT32_MAX ? UINT32_MAX : (unsigned)threads;
	ks->regs = k->regs;
	ks->shmem = k->shmem;
	ks->grid_blocks = gc_kernel_blocks(k);
	unsigned occ = gc_gpu_occupancy(&s->gpu, ks->threads, ks->regs, ks->shmem, &ks->occ);
	if (s->cl->active) {
		ks->active = s->cl->active;
	} else if (threads == 0) {
		gc_writer_free(s->w);
		gc_die(GC_EXIT_DATA, "%s: kernel %u (%s) has no block size: gc-sched needs it "
		       "for the occupancy (or give --active N)", gc_reader_name(s->r), k->id,
		       ks->name);
	} else if (occ == 0) {
		gc_writer_free(s->w);
		gc_die(GC_EXIT_DATA, "%s: kernel %u (%s): a block of %u threads, %u registers "
		       "per thread and %u bytes of shared memory cannot run on %s: %s",
		       gc_reader_name(s->r), k->id, ks->name, ks->threads, ks->regs, ks->shmem,
		       s->gpu.name, ks->occ.why ? ks->occ.why : "no block fits");
	} else {
		ks->active = occ;
	}
	/* Slots no block can reach (fewer blocks than SMs x active) are not
	 * made: the round-robin fill leaves them empty anyway. */
	s->active = ks->active;
	if (ks->grid_blocks && (ks->grid_blocks + s->nsm - 1) / s->nsm < s->active)
		s->active = (unsigned)((ks->grid_blocks + s->nsm - 1) / s->nsm);
	s->k = k;
	s->grid_blocks = ks->grid_blocks;
	s->whole = s->cl->whole;
	ks->whole = s->whole;
	s->input_done = 0;
	s->cur = NULL;
	s->qhead = s->qtail = NULL;
	s->nqueued = s->norder = s->dispatched = 0;
	uint64_t wave = (uint64_t)s->nsm * ks->active;
	s->limit = s->cl->waves ? wave * s->cl->waves : 0;
	if (s->seen)
		memset(s->seen, 0, s->seen_bytes);
	gc_hmap_clear(&s->buffered);
	for (unsigned i = 0; i < s->nsm; i++) {
		struct sm *m = &s->sms[i];
		m->slot = gc_xrealloc(m->slot, s->active * sizeof *m->slot);
		memset(m->slot, 0, s->active * sizeof *m->slot);
		m->nblocks = 0;
		m->cs = m->cp = 0;
		m->again = 0;
	}
}

/* The scale factor of a kernel: its blocks over the blocks written. */
static double kernel_scale(const struct sched *s, uint64_t grid_blocks, unsigned active)
{
	double f = (double)s->nsm / s->nwrite;
	uint64_t kept = (uint64_t)s->nsm * active * s->cl->waves;
	if (s->cl->waves && grid_blocks > kept)
		f *= (double)grid_blocks / (double)kept;
	return f;
}

static void kernel_run(struct sched *s, const gc_kernel *k)
{
	kernel_setup(s, k);
	if (s->w && gc_write_kbegin(s->w, k) < 0)
		gc_die(GC_EXIT_DATA, "%s", gc_writer_error(s->w));

	/* Round-robin until every SM is full.  The first blocks are taken
	 * before any is launched, so that interleaved input shows itself
	 * while nothing has been issued; then such a kernel is read whole. */
	uint64_t nfill = 0, want = (uint64_t)s->nsm * s->active;
	struct block *b;
	while (nfill < want && (b = next_block(s)) != NULL) {
		if (nfill == s->fill_cap) {
			s->fill_cap = s->fill_cap ? 2 * s->fill_cap : 256;
			s->fill = gc_xrealloc(s->fill, s->fill_cap * sizeof *s->fill);
		}
		s->fill[nfill++] = b;
	}
	while (s->whole && !s->input_done)
		read_one(s);
	unsigned busy = 0;
	for (uint64_t f = 0; f < nfill; f++) {
		unsigned i = (unsigned)(f % s->nsm);
		launch(s, s->fill[f], i, (uint32_t)(f / s->nsm));
		busy += s->sms[i].nblocks == 1;
	}
	/* Every busy SM issues once per step; freed slots take the next
	 * blocks, first freed first served. */
	uint64_t t = s->time;
	while (busy) {
		s->nrefill = 0;
		for (unsigned i = 0; i < s->nsm; i++)
			if (s->sms[i].nblocks) {
				issue(s, i, t);
				busy -= s->sms[i].nblocks == 0;
			}
		for (size_t j = 0; j < s->nrefill; j++) {
			b = next_block(s);
			if (!b)
				break;
			unsigned smi = s->refill[2 * j];
			launch(s, b, smi, s->refill[2 * j + 1]);
			busy += s->sms[smi].nblocks == 1;
		}
		t++;
	}
	s->time = t;

	/* What --waves left out: read to the kernel's end, dropping it. */
	s->dropping = 1;
	s->drop_any = s->cur != NULL; /* its records are counted with it below */
	s->drop_block = s->cur ? s->cur->id : 0;
	while (!s->input_done)
		read_one(s);
	s->dropping = 0;
	for (struct block *q = s->qhead, *nx; q; q = nx) {
		nx = q->qnext;
		s->ks.blocks_dropped++;
		s->ks.dropped += q->n;
		block_free(s, q);
	}
	s->qhead = s->qtail = NULL;
	s->cur = NULL;
	if (s->w && (gc_write_opcodes(s->w, gc_reader_opcodes(s->r)) < 0 ||
		     gc_write_kend(s->w, k->id) < 0))
		gc_die(GC_EXIT_DATA, "%s", gc_writer_error(s->w));

	struct kstats *ks = &s->ks;
	ks->whole = s->whole;
	ks->scale = kernel_scale(s, ks->grid_blocks, ks->active);
	s->read_total += ks->accesses;
	s->written_total += ks->written;
	s->insts_total += ks->insts;
	s->blocks_total += ks->blocks;
	s->whole_kernels += ks->whole;
	if (s->nkern == s->kcap) {
		s->kcap = s->kcap ? 2 * s->kcap : 8;
		s->kern = gc_xrealloc(s->kern, s->kcap * sizeof *s->kern);
	}
	s->kern[s->nkern++] = *ks;
}

/* ---- header and summary ------------------------------------------------- */

static void set_header(struct sched *s, gc_header *h, const gc_header *in,
		       const gc_kernel *first)
{
	const struct cmdline *cl = s->cl;
	char buf[64];
	if (gc_header_copy(h, in) < 0)
		gc_die(GC_EXIT_DATA, "out of memory");
	h->optional |= GC_OPT_SCHEDULED;
	if (gc_header_add_provenance(h, gc_cmdline()) < 0)
		gc_die(GC_EXIT_DATA, "out of memory");
	gc_gpu_config_header(&s->gpu, cl->c.gpu, h);
	gc_header_set(h, "sched.policy", policy_names[cl->policy]);
	if (cl->policy == POL_PSELF) {
		snprintf(buf, sizeof buf, "%g", cl->pself);
		gc_header_set(h, "sched.p_self", buf);
		snprintf(buf, sizeof buf, "%llu", (unsigned long long)cl->seed);
		gc_header_set(h, "sched.seed", buf);
	}
	snprintf(buf, sizeof buf, "%u", s->nwrite);
	gc_header_set(h, "sched.sms", buf);
	snprintf(buf, sizeof buf, "%u", cl->waves);
	gc_header_set(h, "sched.waves", buf);
	if (cl->active) {
		snprintf(buf, sizeof buf, "%u", cl->active);
		gc_header_set(h, "sched.active", buf);
	}
	/* The first kernel's factor (the others' are in --stats and -v). */
	double scale = (double)s->nsm / s->nwrite;
	if (first) {
		unsigned a = cl->active;
		if (!a) {
			uint64_t th = gc_kernel_threads_per_block(first);
			a = gc_gpu_occupancy(&s->gpu, th > UINT32_MAX ? UINT32_MAX : (unsigned)th,
					     first->regs, first->shmem, NULL);
		}
		if (a)
			scale = kernel_scale(s, gc_kernel_blocks(first), a);
	}
	snprintf(buf, sizeof buf, "%.17g", scale);
	if (gc_header_set(h, "sched.scale", buf) < 0)
		gc_die(GC_EXIT_DATA, "output header: too many keys");
}

static void write_stats(const struct sched *s, const char *path)
{
	FILE *f = gc_open_text(path);
	gc_json j;
	gc_json_begin(&j, f);
	gc_json_str(&j, "tool", "gc-sched");
	gc_json_str(&j, "input", gc_reader_name(s->r));
	gc_json_str(&j, "gpu", s->gpu.name);
	gc_json_obj(&j, "config");
	gc_json_str(&j, "policy", policy_names[s->cl->policy]);
	if (s->cl->policy == POL_PSELF) {
		gc_json_num(&j, "p_self", s->cl->pself);
		gc_json_u64(&j, "seed", s->cl->seed);
	}
	gc_json_u64(&j, "sms", s->nsm);
	gc_json_u64(&j, "waves", s->cl->waves);
	gc_json_close(&j);
	gc_json_u64(&j, "sms_written", s->nwrite);
	gc_json_u64(&j, "kernel_count", s->nkern);
	gc_json_u64(&j, "blocks", s->blocks_total);
	gc_json_u64(&j, "instructions", s->insts_total);
	gc_json_u64(&j, "accesses", s->read_total);
	gc_json_u64(&j, "accesses_written", s->written_total);
	if (s->first_time_set) {
		gc_json_u64(&j, "time_first", s->t_first);
		gc_json_u64(&j, "time_last", s->t_last);
	} else {
		gc_json_null(&j, "time_first");
		gc_json_null(&j, "time_last");
	}
	gc_json_u64(&j, "peak_buffered_blocks", s->peak_blocks);
	gc_json_u64(&j, "peak_buffered_accesses", s->peak_records);
	gc_json_u64(&j, "kernels_buffered_whole", s->whole_kernels);
	gc_json_arr(&j, "kernels");
	for (size_t i = 0; i < s->nkern; i++) {
		const struct kstats *k = &s->kern[i];
		gc_json_obj(&j, NULL);
		gc_json_u64(&j, "id", k->id);
		gc_json_str(&j, "name", k->name);
		gc_json_u64(&j, "threads_per_block", k->threads);
		gc_json_u64(&j, "registers", k->regs);
		gc_json_u64(&j, "shmem", k->shmem);
		gc_json_u64(&j, "active_blocks_per_sm", k->active);
		static const char *const lkey[GC_NLIMITS] = {"threads", "warps", "blocks",
							     "registers", "shmem"};
		gc_json_str(&j, "limiter", s->cl->active ? "--active" :
			    k->occ.limiter >= 0 ? lkey[k->occ.limiter] : "none");
		gc_json_obj(&j, "limits");
		for (int l = 0; l < GC_NLIMITS; l++) {
			if (k->occ.limit[l] == GC_GPU_UNLIMITED)
				gc_json_null(&j, lkey[l]);
			else
				gc_json_u64(&j, lkey[l], k->occ.limit[l]);
		}
		gc_json_close(&j);
		gc_json_u64(&j, "grid_blocks", k->grid_blocks);
		gc_json_u64(&j, "blocks", k->blocks);
		gc_json_u64(&j, "blocks_written", k->blocks_written);
		gc_json_u64(&j, "blocks_dropped", k->blocks_dropped);
		gc_json_u64(&j, "instructions", k->insts);
		gc_json_u64(&j, "accesses", k->accesses);
		gc_json_u64(&j, "accesses_written", k->written);
		if (k->written) {
			gc_json_u64(&j, "time_first", k->t_first);
			gc_json_u64(&j, "time_last", k->t_last);
		} else {
			gc_json_null(&j, "time_first");
			gc_json_null(&j, "time_last");
		}
		gc_json_num(&j, "scale", k->scale);
		gc_json_bool(&j, "buffered_whole", k->whole);
		gc_json_close(&j);
	}
	gc_json_close(&j);
	gc_json_end(&j);
	gc_close_text(f, path);
}

static void sched_free(struct sched *s)
{
	for (struct block *b = s->free, *nx; b; b = nx) {
		nx = b->qnext;
		free(b->raw);
		free(b->run);
		free(b->w);
		free(b->widx);
		free(b->live);
		free(b);
	}
	for (unsigned i = 0; i < s->nsm; i++)
		free(s->sms[i].slot);
	free(s->sms);
	free(s->seen);
	free(s->refill);
	free(s->fill);
	free(s->kern);
	gc_hmap_free(&s->buffered);
}

/* The text report (-v, --report, --emit none): each kernel's occupancy
 * and schedule, then the totals. */
static void report(FILE *f, const void *ctx)
{
	const struct sched *s = ctx;
	for (size_t i = 0; i < s->nkern; i++) {
		const struct kstats *ks = &s->kern[i];
		fprintf(f, "%s: kernel %u (%s): %u threads, %u registers, %u bytes of shared "
			"memory per block: %u active blocks per SM (%s)\n", gc_progname, ks->id,
			ks->name, ks->threads, ks->regs, ks->shmem, ks->active,
			s->cl->active ? "--active" : gc_gpu_limit_name(ks->occ.limiter));
		fprintf(f, "%s: kernel %u: %llu blocks (%llu written), %llu instructions, "
			"%llu accesses (%llu written), time %llu to %llu%s\n", gc_progname, ks->id,
			(unsigned long long)ks->blocks, (unsigned long long)ks->blocks_written,
			(unsigned long long)ks->insts, (unsigned long long)ks->accesses,
			(unsigned long long)ks->written,
			(unsigned long long)(ks->written ? ks->t_first : 0),
			(unsigned long long)(ks->written ? ks->t_last : 0),
			ks->whole ? ", buffered whole" : "");
	}
	fprintf(f, "%s: %llu accesses, %llu written, %llu kernels; at most %llu "
		"blocks (%llu accesses) buffered\n", gc_progname,
		(unsigned long long)s->read_total, (unsigned long long)s->written_total,
		(unsigned long long)s->nkern, (unsigned long long)s->peak_blocks,
		(unsigned long long)s->peak_records);
}

/* ---- main -------------------------------------------------------------- */

int main(int argc, char **argv)
{
	struct cmdline cl;
	struct sched s;
	gc_header h;
	gc_rec rec;

	gc_prog_init("gc-sched", argc, argv);
	parse_cmdline(argc, argv, &cl);
	memset(&s, 0, sizeof s);
	s.cl = &cl;
	s.r = gc_open_stream(cl.input);
	gc_require_kind(s.r, GC_KIND_ACCESS);
	gc_gpu_for_stream(&s.gpu, cl.c.gpu, gc_reader_header(s.r));
	gc_gpu_config_finish(&s.gpu);
	s.nsm = s.gpu.sm.count;
	if (cl.sms > s.nsm)
		gc_usage_error("--sms: %u is more than the %u SMs of %s", cl.sms, s.nsm,
			       s.gpu.name);
	s.nwrite = cl.sms ? cl.sms : s.nsm;
	s.rs = gc_reader_header(s.r)->record_size;
	s.sms = calloc(s.nsm, sizeof *s.sms);
	if (!s.sms || gc_hmap_init(&s.buffered, 0) < 0)
		gc_die(GC_EXIT_DATA, "out of memory");
	for (unsigned i = 0; i < s.nsm; i++)
		s.sms[i].rng = cl.seed ^ (UINT64_C(0x9E3779B97F4A7C15) * (i + 1));

	/* The first event comes before the header: it names the first
	 * kernel, whose scale factor the header records. */
	int ev = gc_read(s.r, &rec);
	if (ev == GC_ERR)
		gc_die(GC_EXIT_DATA, "%s", gc_reader_error(s.r));
	set_header(&s, &h, gc_reader_header(s.r), ev == GC_KBEGIN ? gc_reader_kernel(s.r) : NULL);
	s.w = gc_open_output(&cl.c, &h);
	for (; ev != GC_EOF; ev = gc_read(s.r, &rec)) {
		if (ev == GC_KBEGIN)
			kernel_run(&s, gc_reader_kernel(s.r));
		else if (ev == GC_ERR)
			read_failed(&s);
	}
	gc_progress_end(cl.c.progress);
	gc_close_output(s.w);
	gc_write_report(&cl.c, report, &s);
	if (cl.c.stats)
		write_stats(&s, cl.c.stats);
	gc_header_free(&h);
	gc_reader_close(s.r);
	sched_free(&s);
	return 0;
}
