/*
 * ocelot.c - the Ocelot tracer of the reuse-distance GPU cache model
 * (seed 000; tue-es/gpu-cache-model, trace-formats §2.3): one file a
 * kernel, <name>_NN.trc,
 *
 *   blocksize: BX BY BZ
 *   GID DIR ADDRESS BYTES        all decimal; DIR 0 load, 1 store
 *
 * One line is one thread's access.  GID = BID * (BX*BY*BZ) + T, where T is
 * the thread's index in the block and BID numbers blocks x-major
 * (bx*GY*GZ + by*GZ + bz), unlike CUDA's x-fastest linear id; converting
 * needs the grid dimensions, which the file does not hold (--grid; without
 * it the grid is taken as one-dimensional, where both numberings agree).
 *
 * Ocelot emulates one block at a time, one PTX instruction for all the
 * block's active threads in thread order, so the lines of one instruction
 * have increasing thread indices.  Grouping rule: a new instruction starts
 * when the block, the direction or the size changes, or when the thread
 * index does not increase.  Threads go to warps by T / warp size (lane
 * T % warp size), and the threads of one warp in one instruction form one
 * warp instruction, numbered per warp in file order.
 *
 * Thread order (im->order, detected by default): the reuse-distance model
 * reads a thread's k-th line as its k-th access, whatever the file's
 * order; a file written thread by thread is read so, its records sorted
 * into the order Ocelot would have written (thread_order, read_by_thread).
 *
 * The accesses wait for the kernel's begin record (its grid and warp
 * instructions are known at the end) delta-coded in a spool (spool.h),
 * 2 to 4 bytes each.  The array of struct acc that the thread order needs
 * (40 bytes an access) is kept only while the file may still be in thread
 * order: with --order auto, until a thread comes back after another
 * thread's line, which in Ocelot's order happens at a block's second
 * instruction.
 */
#include "base/hash.h"
#include "import/formats.h"
#include "import/spool.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct acc {
	uint64_t addr, gid, line;
	uint32_t block, seq, border; /* border: thread order, the block's rank */
	uint16_t warp;
	uint8_t lane, op, size;
};


/* Unsigned decimal (at most max) after blanks, followed by a blank or the
 * end. */
static int num(const char **p, uint64_t max, uint64_t *v)
{
	const char *s = *p;
	while (*s == ' ' || *s == '\t')
		s++;
	if (!gc_parse_udec(&s, max, v) || (*s && *s != ' ' && *s != '\t'))
		return 0;
	*p = s;
	return 1;
}

static int blank(const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return *p == 0;
}

/* The kernel name: the file name without its directory and suffixes. */
static void kernel_name(const char *path, char *buf, size_t len)
{
	const char *b = strrchr(path, '/');
	b = b ? b + 1 : path;
	size_t n = strlen(b);
	if (n > 3 && (strcmp(b + n - 3, ".gz") == 0 || strcmp(b + n - 3, ".xz") == 0))
		n -= 3;
	if (n > 4 && strncmp(b + n - 4, ".trc", 4) == 0)
		n -= 4;
	if (n >= len)
		n = len - 1;
	memcpy(buf, b, n);
	buf[n] = 0;
}

int gc_ocelot_probe(const char *head, size_t len, const char *path)
{
	if (len >= 11 && memcmp(head, "blocksize: ", 11) == 0)
		return 90;
	char name[256];
	const char *b = strrchr(path, '/');
	b = b ? b + 1 : path;
	snprintf(name, sizeof name, "%s", b);
	size_t n = strlen(name);
	if (n > 3 && (strcmp(name + n - 3, ".gz") == 0 || strcmp(name + n - 3, ".xz") == 0))
		name[n -= 3] = 0;
	return n > 4 && strcmp(name + n - 4, ".trc") == 0 ? 40 : 0;
}

/* One file as it is read: the accesses in file order, and what groups
 * them into warp instructions. */
struct trc {
	uint64_t bdim[3], threads, ws;
	const uint64_t *g; /* the grid of --grid, or NULL */
	uint64_t gd[3], nblocks;
	struct acc *a; /* while keep_array: the accesses, for the thread order */
	size_t na, ca;
	int keep_array, keep_spool;
	gc_spool spool;   /* while keep_spool: the accesses */
	/* --order auto: whether the accesses so far are in thread order. */
	gc_hset seen;     /* the threads seen */
	int contiguous, repeats;
	uint64_t last_gid;
	gc_hmap warps; /* block << 16 | warp -> last instruction << 32 | next seq */
	uint64_t wkey, *w; /* the last warp looked up (w NULL: none) */
	uint64_t ninst, event, maxbid;
	uint64_t prev_bid, prev_t;
	int prev_op, prev_size, any;
};

/* The 'blocksize:' line and what follows from it; 0, or -1 when the file
 * must be skipped (reported). */
static int read_blocksize(gc_import *im, gc_lines *in, struct trc *f)
{
	char *line;
	for (;;) {
		if (gc_lines_next(in, &line) < 0) {
			if (!gc_lines_failed(in)) /* else gc-import reports the read error */
				gc_import_bad(im, in, "no 'blocksize:' line");
			return -1;
		}
		if (!blank(line))
			break;
	}
	const char *p = line + strspn(line, " \t");
	int ok = strncmp(p, "blocksize:", 10) == 0;
	p += ok ? 10 : 0;
	for (int i = 0; i < 3 && ok; i++)
		ok = num(&p, UINT16_MAX, &f->bdim[i]) && f->bdim[i] > 0;
	if (!ok || !blank(p)) {
		/* Nothing after it can be placed: the file is skipped. */
		gc_import_bad(im, in, "expected 'blocksize: X Y Z' with positive sizes");
		return -1;
	}
	f->threads = f->bdim[0] * f->bdim[1] * f->bdim[2];
	f->ws = (uint64_t)im->warp_size;
	if ((f->threads + f->ws - 1) / f->ws > UINT16_MAX) {
		gc_import_bad(im, in, "block of %llu threads has too many warps",
			      (unsigned long long)f->threads);
		return -1;
	}
	f->g = NULL;
	f->nblocks = (uint64_t)UINT32_MAX + 1;
	if (im->grid[0]) {
		for (int i = 0; i < 3; i++)
			f->gd[i] = im->grid[i];
		f->g = f->gd;
		f->nblocks = f->gd[0] * f->gd[1] * f->gd[2];
	}
	return 0;
}

/* The block (x-fastest) of thread gid's block bid; -1 when out of range
 * (reported). */
static int64_t place_block(gc_import *im, gc_lines *in, const struct trc *f, uint64_t gid,
			   uint64_t bid)
{
	if (bid >= f->nblocks) {
		if (f->g)
			gc_import_bad(im, in, "thread %llu is in block %llu, outside --grid "
				      "%u,%u,%u", (unsigned long long)gid, (unsigned long long)bid,
				      im->grid[0], im->grid[1], im->grid[2]);
		else
			gc_import_bad(im, in, "thread %llu is in block %llu, beyond 32-bit "
				      "block ids", (unsigned long long)gid,
				      (unsigned long long)bid);
		return -1;
	}
	if (!f->g)
		return (int64_t)bid;
	/* x-major (x*GY*GZ + y*GZ + z) to x-fastest. */
	const uint64_t *g = f->g;
	uint64_t bx = bid / (g[1] * g[2]), by = bid / g[2] % g[1], bz = bid % g[2];
	return (int64_t)(bx + g[0] * (by + g[1] * bz));
}

/* Follow thread_order over the accesses as they come: once a thread comes
 * back, the file is not in thread order and f->a is let go. */
static void follow_order(gc_import *im, struct trc *f, uint64_t gid)
{
	if (f->na && gid == f->last_gid) {
		f->repeats = 1;
		return;
	}
	f->last_gid = gid;
	int added = gc_hset_add(&f->seen, gid);
	if (added < 0)
		im->fatal(im, "out of memory");
	if (!added) {
		f->contiguous = 0;
		f->keep_array = 0;
		free(f->a);
		f->a = NULL;
		f->na = f->ca = 0;
		gc_hset_free(&f->seen);
	}
}

/* One access into f->a (and for --order auto, followed). */
static void keep(gc_import *im, gc_lines *in, struct trc *f, uint64_t gid, uint64_t block,
		 uint32_t seq, uint16_t warp, uint64_t t, int op, uint64_t bytes, uint64_t addr)
{
	if (im->order == GC_ORDER_AUTO) {
		follow_order(im, f, gid);
		if (!f->keep_array)
			return;
	}
	f->a = gc_import_grow(im, f->a, &f->ca, f->na + 1, sizeof *f->a);
	struct acc *e = &f->a[f->na++];
	e->addr = addr;
	e->gid = gid;
	e->line = gc_lines_number(in);
	e->block = (uint32_t)block;
	e->seq = seq;
	e->warp = warp;
	e->lane = (uint8_t)(t % f->ws);
	e->op = (uint8_t)op;
	e->size = (uint8_t)bytes;
}

/* One access line, spooled and (while the thread order may need it) kept
 * in f->a; a bad one is reported and skipped. */
static void read_access(gc_import *im, gc_lines *in, struct trc *f, const char *line)
{
	uint64_t gid, dir, addr, bytes;
	const char *p = line;
	if (blank(p))
		return;
	if (!num(&p, UINT64_MAX, &gid) || !num(&p, UINT64_MAX, &dir) ||
	    !num(&p, UINT64_MAX, &addr) || !num(&p, UINT64_MAX, &bytes) || !blank(p)) {
		gc_import_bad(im, in, "expected 'THREAD DIRECTION ADDRESS BYTES' in decimal");
		return;
	}
	if (dir > 1) {
		gc_import_bad(im, in, "direction %llu is neither 0 (load) nor 1 (store)",
			      (unsigned long long)dir);
		return;
	}
	if (bytes < 1 || bytes > 255) {
		gc_import_bad(im, in, "access size %llu is out of range (1-255)",
			      (unsigned long long)bytes);
		return;
	}
	if (addr > GC_ADDR48_MAX - (bytes - 1)) {
		char msg[400];
		gc_import_addr48_msg(msg, sizeof msg, addr, (unsigned)bytes);
		gc_import_bad(im, in, "%s", msg);
		return;
	}
	uint64_t bid = gid / f->threads, t = gid % f->threads;
	int64_t placed = place_block(im, in, f, gid, bid);
	if (placed < 0)
		return;
	uint64_t block = (uint64_t)placed;
	int op = dir ? GC_STORE : GC_LOAD;
	if (bid != f->prev_bid || op != f->prev_op || (int)bytes != f->prev_size || t <= f->prev_t)
		f->event++;
	f->prev_bid = bid;
	f->prev_op = op;
	f->prev_size = (int)bytes;
	f->prev_t = t;
	if (!f->any || bid > f->maxbid)
		f->maxbid = bid;
	f->any = 1;

	uint16_t warp = (uint16_t)(t / f->ws);
	int added = 0;
	uint64_t key = block << 16 | warp, *w = f->w;
	if (!w || key != f->wkey) {
		/* Only an insertion moves the values: f->w stays valid until
		 * the next lookup. */
		w = gc_hmap_put(&f->warps, key, &added);
		if (!w)
			im->fatal(im, "out of memory");
		f->w = w;
		f->wkey = key;
	}
	if (added || *w >> 32 != (f->event & 0xffffffffu)) {
		/* The warp's first thread in this instruction: a new warp
		 * instruction, numbered after the warp's previous one. */
		uint64_t seq = added ? 0 : (*w & 0xffffffffu) + 1;
		*w = (f->event & 0xffffffffu) << 32 | seq;
		f->ninst++;
	}
	if (f->keep_spool) {
		gc_rec r;
		r.op = (uint8_t)op;
		r.space = GC_GLOBAL;
		r.flags = 0;
		r.size = (uint16_t)bytes;
		r.block = (uint32_t)block;
		r.warp = warp;
		r.seq = (uint32_t)*w;
		r.lane = (uint8_t)(t % f->ws);
		r.addr = addr;
		gc_spool_put(im, &f->spool, &r);
	}
	if (f->keep_array)
		keep(im, in, f, gid, block, (uint32_t)*w, warp, t, op, bytes, addr);
}

/* Thread order: every thread's lines are contiguous (no thread comes
 * back after another thread's line) and some thread has two or more
 * (follow_order saw them come).  A file in Ocelot order where two threads
 * take part in two instructions has a thread that comes back, so it is
 * never taken for one. */
static int thread_order(const struct trc *f)
{
	return f->contiguous && f->repeats;
}

/* Emission order in thread order: blocks by first appearance, then the
 * k-th accesses, then threads (as Ocelot would have written them). */
static int by_block_seq_thread(const void *pa, const void *pb)
{
	const struct acc *a = pa, *b = pb;
	if (a->border != b->border)
		return a->border < b->border ? -1 : 1;
	if (a->seq != b->seq)
		return a->seq < b->seq ? -1 : 1;
	return a->gid < b->gid ? -1 : a->gid > b->gid;
}

/* The reuse-distance model's reading: a thread's k-th line is its k-th
 * access, and the k-th accesses of a warp's threads are one warp
 * instruction, which must have one direction; -1 when it has two
 * (reported). */
static int read_by_thread(gc_import *im, gc_lines *in, struct trc *f)
{
	gc_hmap count, rank;
	gc_hmap_init(&count, 0); /* gid -> the thread's accesses so far */
	gc_hmap_init(&rank, 0);  /* block -> its rank in order of appearance */
	int rc = 0;
	for (size_t i = 0; i < f->na && rc == 0; i++) {
		struct acc *e = &f->a[i];
		int added = 0;
		uint64_t *c = gc_hmap_put(&count, e->gid, NULL);
		uint64_t *r = c ? gc_hmap_put(&rank, e->block, &added) : NULL;
		if (!r)
			im->fatal(im, "out of memory");
		if (added)
			*r = gc_hmap_count(&rank) - 1;
		e->border = (uint32_t)*r;
		if (*c > UINT32_MAX) {
			gc_import_bad_at(im, gc_lines_name(in), e->line, "thread %llu has more "
					 "than 2^32 accesses", (unsigned long long)e->gid);
			rc = -1;
		}
		e->seq = (uint32_t)(*c)++;
	}
	gc_hmap_free(&count);
	gc_hmap_free(&rank);
	if (rc < 0)
		return -1;
	/* Sorted, a warp instruction's accesses are adjacent. */
	qsort(f->a, f->na, sizeof *f->a, by_block_seq_thread);
	f->ninst = 0;
	for (size_t i = 0; i < f->na; i++) {
		const struct acc *e = &f->a[i], *p = i ? e - 1 : NULL;
		if (!p || p->border != e->border || p->seq != e->seq || p->warp != e->warp) {
			f->ninst++;
		} else if (p->op != e->op) {
			gc_import_bad_at(im, gc_lines_name(in), e->line, "thread order: access %u of "
					 "thread %llu is a %s, but access %u of thread %llu in its "
					 "warp is a %s", e->seq, (unsigned long long)e->gid,
					 e->op == GC_STORE ? "store" : "load", p->seq,
					 (unsigned long long)p->gid,
					 p->op == GC_STORE ? "store" : "load");
			return -1;
		}
	}
	return 0;
}

/* The file's one kernel and its accesses, from f->a when by_array, else
 * from the spool. */
static void emit_kernel(gc_import *im, gc_lines *in, struct trc *f, int by_array)
{
	gc_kernel k;
	char name[256];
	kernel_name(gc_lines_name(in), name, sizeof name);
	gc_kernel_init(&k, gc_import_next_id(im), name);
	if (f->g) {
		for (int i = 0; i < 3; i++)
			k.grid[i] = (uint32_t)f->g[i];
	} else if (f->any) {
		k.grid[0] = (uint32_t)(f->maxbid + 1);
	}
	for (int i = 0; i < 3; i++)
		k.block[i] = (uint16_t)f->bdim[i];
	gc_kernel_set_attr(&k, GC_A_MEM_INSTS, f->ninst);
	gc_import_kbegin(im, &k);
	gc_rec r;
	memset(&r, 0, sizeof r);
	r.kernel = k.id;
	r.space = GC_GLOBAL;
	if (!by_array) {
		gc_spool_emit(im, &f->spool, &r, NULL);
		gc_import_kend(im);
		return;
	}
	for (size_t i = 0; i < f->na; i++) {
		const struct acc *e = &f->a[i];
		r.op = e->op;
		r.size = e->size;
		r.block = e->block;
		r.warp = e->warp;
		r.lane = e->lane;
		r.seq = e->seq;
		r.addr = e->addr;
		gc_import_access(im, &r);
	}
	gc_import_kend(im);
}

int gc_ocelot_import(gc_import *im, gc_lines *in)
{
	char buf[32];
	snprintf(buf, sizeof buf, "%d", im->warp_size);
	if (!gc_header_get(&im->h, "warp_size"))
		gc_header_set(&im->h, "warp_size", buf);

	struct trc f;
	memset(&f, 0, sizeof f);
	if (read_blocksize(im, in, &f) < 0)
		return 0;
	gc_hmap_init(&f.warps, 0);
	gc_hset_init(&f.seen, 0);
	gc_spool_init(&f.spool);
	f.keep_array = im->order != GC_ORDER_FILE;
	f.keep_spool = im->order != GC_ORDER_THREAD;
	f.contiguous = 1;
	f.prev_bid = UINT64_MAX;
	char *line;
	while (gc_lines_next(in, &line) >= 0)
		read_access(im, in, &f, line);
	gc_hmap_free(&f.warps);
	gc_hset_free(&f.seen);
	int by_thread = im->order == GC_ORDER_THREAD ||
		(im->order == GC_ORDER_AUTO && thread_order(&f));
	/* gc-import reports a read error; --lenient skips a file whose thread
	 * order fails. */
	if (!gc_lines_failed(in) && (!by_thread || read_by_thread(im, in, &f) == 0)) {
		im->thread_order += by_thread;
		emit_kernel(im, in, &f, !f.keep_spool || by_thread);
	}
	gc_spool_free(&f.spool);
	free(f.a);
	return 0;
}
