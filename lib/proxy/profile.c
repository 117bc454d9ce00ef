/*
 * profile.c - a G-MAP profile in memory: its life cycle, the coordinates
 * and inter-thread anchors of threads, and --obfuscate (see profile.h).
 *
 * Choices the header leaves to the code:
 *   - gc_profile_init sets version GC_PROFILE_VERSION, warp_size 32 and
 *     max_exact GC_PDIST_EXACT_DEFAULT, everything else 0 or empty.
 *   - gc_panchor_ctx of a thread with the same coordinates as the
 *     previous executor (the same thread) is GC_PE_TX.
 *   - Obfuscation: an instruction's region is [base + lo, base + hi)
 *     widened to hold base itself.  Regions are placed in address order,
 *     each on a whole number of 16 MiB chunks of [2^32, 2^46) that no
 *     other region uses: a chunk drawn with splitmix64 from the seed (64
 *     tries), else the first free chunks from the bottom; a region too
 *     large for what is left stays where it is.
 */
#include "proxy/profile.h"

#include "base/rng.h"

#include <stdlib.h>
#include <string.h>

const char *const gc_pe_ctx_name[GC_PE_NCTX] = {"bz", "by", "bx", "tz", "ty", "tx"};

void gc_profile_init(gc_profile *p)
{
	memset(p, 0, sizeof *p);
	p->version = GC_PROFILE_VERSION;
	p->warp_size = 32;
	p->max_exact = GC_PDIST_EXACT_DEFAULT;
}

void gc_pkernel_free(gc_pkernel *k)
{
	for (uint32_t i = 0; i < k->ninst && k->inst; i++) {
		for (int c = 0; c < GC_PE_NCTX; c++)
			gc_pdist_free(&k->inst[i].pe[c]);
		gc_pdist_free(&k->inst[i].pa);
	}
	for (uint32_t i = 0; i < k->nprof && k->prof; i++) {
		free(k->prof[i].e);
		gc_pdist_free(&k->prof[i].pr);
	}
	free(k->inst);
	free(k->prof);
	free(k->run);
	memset(k, 0, sizeof *k);
}

void gc_profile_free(gc_profile *p)
{
	for (uint32_t i = 0; i < p->nkernel; i++)
		gc_pkernel_free(&p->kern[i]);
	free(p->kern);
	gc_profile_init(p);
}

int gc_profile_add_kernel(gc_profile *p, gc_pkernel *k)
{
	/* The array doubles: it is full when nkernel is 0 or a power of two. */
	uint32_t n = p->nkernel;
	if ((n & (n - 1)) == 0) {
		size_t cap = n ? (size_t)n * 2 : 4;
		gc_pkernel *a = realloc(p->kern, cap * sizeof *a);
		if (!a)
			return -1;
		p->kern = a;
	}
	p->kern[n] = *k;
	p->nkernel = n + 1;
	memset(k, 0, sizeof *k);
	return 0;
}

/* ---- thread coordinates and anchors ----------------------------------- */

static uint64_t dim(uint64_t v)
{
	return v ? v : 1;
}

void gc_pthread_coords(const gc_kernel *k, uint64_t t, uint64_t c[GC_PE_NCTX])
{
	uint64_t bx = dim(k->block[0]), by = dim(k->block[1]);
	uint64_t gx = dim(k->grid[0]), gy = dim(k->grid[1]);
	uint64_t bs = bx * by * dim(k->block[2]);
	uint64_t b = t / bs, i = t % bs;
	c[GC_PE_TX] = i % bx;
	c[GC_PE_TY] = i / bx % by;
	c[GC_PE_TZ] = i / (bx * by);
	c[GC_PE_BX] = b % gx;
	c[GC_PE_BY] = b / gx % gy;
	c[GC_PE_BZ] = b / (gx * gy);
}

int gc_panchor_ctx(const gc_kernel *k, const gc_panchor *a, uint64_t t)
{
	if (!a->seen)
		return -1;
	uint64_t ct[GC_PE_NCTX], cp[GC_PE_NCTX];
	gc_pthread_coords(k, t, ct);
	gc_pthread_coords(k, a->last, cp);
	for (int c = 0; c < GC_PE_NCTX; c++)
		if (ct[c] != cp[c])
			return c;
	return GC_PE_TX;
}

void gc_panchor_set(gc_panchor *a, int c, uint64_t t, uint64_t addr)
{
	for (int i = c < 0 ? 0 : c; i < GC_PE_NCTX; i++)
		a->first[i] = addr;
	a->last = t;
	a->seen = 1;
}

/* ---- obfuscation ------------------------------------------------------ */

#define CHUNK_BITS 24 /* 16 MiB */
#define CHUNK (UINT64_C(1) << CHUNK_BITS)
#define SPACE_LO (UINT64_C(1) << 32)
#define SPACE_HI (UINT64_C(1) << 46)
#define NCHUNKS ((SPACE_HI - SPACE_LO) >> CHUNK_BITS)

typedef struct region {
	uint64_t lo, hi;   /* [lo, hi) */
	uint64_t shift;    /* added to every address in it (mod 2^64) */
	uint64_t c0, nc;   /* the chunks it takes: [c0, c0 + nc) */
	int placed;
} region;

static int region_cmp(const void *pa, const void *pb)
{
	const region *a = pa, *b = pb;
	if (a->lo != b->lo)
		return a->lo < b->lo ? -1 : 1;
	return (a->hi > b->hi) - (a->hi < b->hi);
}

/* Do chunks [c0, c0 + nc) miss those of the n regions placed before? */
static int chunks_free(const region *r, size_t n, uint64_t c0, uint64_t nc)
{
	for (size_t i = 0; i < n; i++)
		if (r[i].placed && c0 < r[i].c0 + r[i].nc && r[i].c0 < c0 + nc)
			return 0;
	return 1;
}

/* Place region n (after regions 0..n-1) on free chunks. */
static void place(region *r, size_t n, uint64_t *state)
{
	uint64_t off = r[n].lo & (CHUNK - 1), size = r[n].hi - r[n].lo;
	if (size > SPACE_HI)
		return;
	uint64_t nc = (off + size + CHUNK - 1) >> CHUNK_BITS;
	if (nc > NCHUNKS)
		return;
	uint64_t room = NCHUNKS - nc + 1, c0 = room;
	for (int i = 0; i < 64 && c0 == room; i++) {
		uint64_t c = (uint64_t)(((unsigned __int128)gc_splitmix64(state) * room) >> 64);
		if (chunks_free(r, n, c, nc))
			c0 = c;
	}
	/* Else the lowest free stretch: chunk 0, or just past a placed region. */
	if (c0 == room)
		for (size_t i = 0; i <= n; i++) {
			uint64_t c = i == n ? 0 : r[i].c0 + r[i].nc;
			if ((i == n || r[i].placed) && c < c0 && chunks_free(r, n, c, nc))
				c0 = c;
		}
	if (c0 == room)
		return;
	r[n].c0 = c0;
	r[n].nc = nc;
	r[n].placed = 1;
	r[n].shift = SPACE_LO + (c0 << CHUNK_BITS) + off - r[n].lo;
}

/* The region of an instruction's extent, base included. */
static void inst_span(const gc_pinst *in, uint64_t *lo, uint64_t *hi)
{
	uint64_t below = in->lo < 0 ? UINT64_C(0) - (uint64_t)in->lo : 0;
	uint64_t above = in->hi > 1 ? (uint64_t)in->hi : 1;
	*lo = below > in->base ? 0 : in->base - below;
	*hi = above > UINT64_MAX - in->base ? UINT64_MAX : in->base + above;
}

static void drop_attr(gc_kernel *k, uint16_t key)
{
	int j = 0;
	for (int i = 0; i < k->nattr; i++) {
		if (k->attr_key[i] == key)
			continue;
		k->attr_key[j] = k->attr_key[i];
		k->attr_val[j++] = k->attr_val[i];
	}
	k->nattr = j;
}

int gc_profile_obfuscate(gc_profile *p, uint64_t seed)
{
	size_t n = 0;
	for (uint32_t i = 0; i < p->nkernel; i++)
		n += p->kern[i].ninst;
	region *r = n ? malloc(n * sizeof *r) : NULL;
	if (n && !r)
		return -1;
	size_t k = 0;
	for (uint32_t i = 0; i < p->nkernel; i++)
		for (uint32_t j = 0; j < p->kern[i].ninst; j++) {
			memset(&r[k], 0, sizeof r[k]);
			inst_span(&p->kern[i].inst[j], &r[k].lo, &r[k].hi);
			k++;
		}
	if (n)
		qsort(r, n, sizeof *r, region_cmp);
	/* The union: overlapping or adjacent extents merge. */
	size_t m = 0;
	for (size_t i = 0; i < n; i++) {
		if (m && r[i].lo <= r[m - 1].hi) {
			if (r[i].hi > r[m - 1].hi)
				r[m - 1].hi = r[i].hi;
			continue;
		}
		r[m++] = r[i];
	}
	uint64_t state = seed;
	for (size_t i = 0; i < m; i++)
		place(r, i, &state);
	for (uint32_t i = 0; i < p->nkernel; i++) {
		gc_pkernel *pk = &p->kern[i];
		for (uint32_t j = 0; j < pk->ninst; j++) {
			uint64_t lo, hi;
			inst_span(&pk->inst[j], &lo, &hi);
			/* The last region starting at or below lo holds it. */
			size_t a = 0, b = m;
			while (b - a > 1) {
				size_t mid = a + (b - a) / 2;
				if (r[mid].lo <= lo)
					a = mid;
				else
					b = mid;
			}
			pk->inst[j].base += r[a].shift;
		}
		drop_attr(&pk->k, GC_A_SHMEM_BASE);
		drop_attr(&pk->k, GC_A_LOCAL_BASE);
	}
	p->obfuscated = 1;
	free(r);
	return 0;
}
