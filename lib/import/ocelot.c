/*
 * imp_ocelot.c - the Ocelot tracer of the reuse-distance GPU cache model
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
 */
#include "base/hash.h"
#include "import/formats.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint32_t opt_grid[3]; /* 0: not given */

void gc_ocelot_configure(const uint32_t grid[3])
{
	for (int i = 0; i < 3; i++)
		opt_grid[i] = grid ? grid[i] : 0;
}

struct acc {
	uint64_t addr;
	uint32_t block, seq;
	uint16_t warp;
	uint8_t lane, op, size;
};


/* Unsigned decimal (at most max) followed by a blank or the end. */
static int num(const char **p, uint64_t max, uint64_t *v)
{
	const char *s = *p;
	uint64_t x = 0;
	while (*s == ' ' || *s == '\t')
		s++;
	if (*s < '0' || *s > '9')
		return 0;
	for (; *s >= '0' && *s <= '9'; s++) {
		unsigned d = (unsigned)(*s - '0');
		if (x > (max - d) / 10)
			return 0;
		x = x * 10 + d;
	}
	if (*s && *s != ' ' && *s != '\t')
		return 0;
	*v = x;
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

int gc_ocelot_import(gc_import *im, gc_lines *in)
{
	char *line;
	uint64_t bdim[3];
	const char *p;
	char buf[32];

	snprintf(buf, sizeof buf, "%d", im->warp_size);
	if (!gc_header_get(&im->h, "warp_size"))
		gc_header_set(&im->h, "warp_size", buf);

	/* The header line. */
	for (;;) {
		if (gc_lines_next(in, &line) < 0) {
			if (!gc_lines_failed(in)) /* else gc-import reports the read error */
				gc_import_bad(im, in, "no 'blocksize:' line");
			return 0;
		}
		if (!blank(line))
			break;
	}
	p = line;
	while (*p == ' ' || *p == '\t')
		p++;
	int ok = strncmp(p, "blocksize:", 10) == 0;
	p += ok ? 10 : 0;
	for (int i = 0; i < 3 && ok; i++)
		ok = num(&p, UINT16_MAX, &bdim[i]) && bdim[i] > 0;
	if (!ok || !blank(p)) {
		/* Nothing after it can be placed: the file is skipped. */
		gc_import_bad(im, in, "expected 'blocksize: X Y Z' with positive sizes");
		return 0;
	}
	const uint64_t threads = bdim[0] * bdim[1] * bdim[2];
	const uint64_t ws = (uint64_t)im->warp_size;
	if ((threads + ws - 1) / ws > UINT16_MAX) {
		gc_import_bad(im, in, "block of %llu threads has too many warps",
			      (unsigned long long)threads);
		return 0;
	}
	const uint64_t *g = NULL;
	uint64_t gd[3], nblocks = (uint64_t)UINT32_MAX + 1;
	if (opt_grid[0]) {
		for (int i = 0; i < 3; i++)
			gd[i] = opt_grid[i];
		g = gd;
		nblocks = gd[0] * gd[1] * gd[2];
	}

	struct acc *a = NULL;
	size_t na = 0, ca = 0;
	gc_hmap warps; /* block << 16 | warp -> last instruction << 32 | next seq */
	gc_hmap_init(&warps, 0);
	uint64_t ninst = 0, event = 0, maxbid = 0;
	uint64_t prev_bid = UINT64_MAX, prev_t = 0;
	int prev_op = 0, prev_size = 0, any = 0;

	while (gc_lines_next(in, &line) >= 0) {
		uint64_t gid, dir, addr, bytes;
		p = line;
		if (blank(p))
			continue;
		if (!num(&p, UINT64_MAX, &gid) || !num(&p, UINT64_MAX, &dir) ||
		    !num(&p, UINT64_MAX, &addr) || !num(&p, UINT64_MAX, &bytes) || !blank(p)) {
			gc_import_bad(im, in, "expected 'THREAD DIRECTION ADDRESS BYTES' in decimal");
			continue;
		}
		if (dir > 1) {
			gc_import_bad(im, in, "direction %llu is neither 0 (load) nor 1 (store)",
				      (unsigned long long)dir);
			continue;
		}
		if (bytes < 1 || bytes > 255) {
			gc_import_bad(im, in, "access size %llu is out of range (1-255)",
				      (unsigned long long)bytes);
			continue;
		}
		uint64_t bid = gid / threads, t = gid % threads, block = bid;
		if (bid >= nblocks) {
			if (g)
				gc_import_bad(im, in, "thread %llu is in block %llu, outside --grid "
					      "%u,%u,%u", (unsigned long long)gid,
					      (unsigned long long)bid, opt_grid[0], opt_grid[1],
					      opt_grid[2]);
			else
				gc_import_bad(im, in, "thread %llu is in block %llu, beyond 32-bit "
					      "block ids", (unsigned long long)gid,
					      (unsigned long long)bid);
			continue;
		}
		if (g) {
			/* x-major (x*GY*GZ + y*GZ + z) to x-fastest. */
			uint64_t bx = bid / (g[1] * g[2]), by = bid / g[2] % g[1], bz = bid % g[2];
			block = bx + g[0] * (by + g[1] * bz);
		}
		int op = dir ? GC_STORE : GC_LOAD;
		if (bid != prev_bid || op != prev_op || (int)bytes != prev_size || t <= prev_t)
			event++;
		prev_bid = bid;
		prev_op = op;
		prev_size = (int)bytes;
		prev_t = t;
		if (!any || bid > maxbid)
			maxbid = bid;
		any = 1;

		uint16_t warp = (uint16_t)(t / ws);
		int added;
		uint64_t *w = gc_hmap_put(&warps, block << 16 | warp, &added);
		if (!w)
			im->fatal(im, "out of memory");
		if (added || *w >> 32 != (event & 0xffffffffu)) {
			/* The warp's first thread in this instruction: a new warp
			 * instruction, numbered after the warp's previous one. */
			uint64_t seq = added ? 0 : (*w & 0xffffffffu) + 1;
			*w = (event & 0xffffffffu) << 32 | seq;
			ninst++;
		}
		a = gc_import_grow(im, a, &ca, na + 1, sizeof *a);
		a[na].addr = addr;
		a[na].block = (uint32_t)block;
		a[na].seq = (uint32_t)*w;
		a[na].warp = warp;
		a[na].lane = (uint8_t)(t % ws);
		a[na].op = (uint8_t)op;
		a[na].size = (uint8_t)bytes;
		na++;
	}
	gc_hmap_free(&warps);
	if (gc_lines_failed(in)) { /* gc-import reports the read error */
		free(a);
		return 0;
	}

	gc_kernel k;
	char name[256];
	kernel_name(gc_lines_name(in), name, sizeof name);
	gc_kernel_init(&k, gc_import_next_id(im), name);
	if (g) {
		for (int i = 0; i < 3; i++)
			k.grid[i] = (uint32_t)g[i];
	} else if (any) {
		k.grid[0] = (uint32_t)(maxbid + 1);
	}
	for (int i = 0; i < 3; i++)
		k.block[i] = (uint16_t)bdim[i];
	gc_kernel_set_attr(&k, GC_A_MEM_INSTS, ninst);
	gc_import_kbegin(im, &k);
	gc_rec r;
	memset(&r, 0, sizeof r);
	r.kernel = k.id;
	r.space = GC_GLOBAL;
	for (size_t i = 0; i < na; i++) {
		r.op = a[i].op;
		r.size = a[i].size;
		r.block = a[i].block;
		r.warp = a[i].warp;
		r.lane = a[i].lane;
		r.seq = a[i].seq;
		r.addr = a[i].addr;
		gc_import_access(im, &r);
	}
	gc_import_kend(im);
	free(a);
	return 0;
}
