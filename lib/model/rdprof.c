/*
 * rdprof.c - the reuse-distance profile of a stream (rdprof.h): the
 * rules, the stacks, the rows of --by and the cut-offs of gc-rd.
 */
#include "model/rdprof.h"

#include "base/bits.h"
#include "base/grow.h"
#include "model/cache.h"
#include "model/sdcm.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the rules ------------------------------------------------------------ */

static int has_gpu_keys(const gc_header *h)
{
	for (int i = 0; i < h->nkv; i++)
		if (strncmp(h->key[i], GC_GPU_HEADER_PREFIX, strlen(GC_GPU_HEADER_PREFIX)) == 0)
			return 1;
	return 0;
}

/* The stream has been through gc-l1 (what goes on to L2), or is DRAM
 * transactions: the L1's rules are behind it. */
static const char *past_l1(const gc_header *h)
{
	if (h->kind == GC_KIND_DRAM)
		return "DRAM transactions";
	const char *emit = gc_header_get(h, "l1.emit");
	if (emit && strcmp(emit, "all") != 0)
		return "gc-l1's output to L2";
	return NULL;
}

int gc_rdprof_scope_l1(int scope, int gpu_given, const gc_header *h, const char *name,
		       int *have_gpu, char *err, size_t len)
{
	const char *past = past_l1(h);
	*have_gpu = gpu_given || has_gpu_keys(h);
	if (scope == GC_RDP_L1 && past) {
		snprintf(err, len, "--scope l1: %s: the input is %s, past the L1", name, past);
		return -1;
	}
	return scope == GC_RDP_L1 || (scope == GC_RDP_AUTO && *have_gpu && !past);
}

int gc_rdp_has_by(const gc_rdp_params *p, int key)
{
	for (int i = 0; i < p->nby; i++)
		if (p->by[i] == key)
			return 1;
	return 0;
}

static int fail(gc_rdprof *x, const char *msg)
{
	snprintf(x->err, sizeof x->err, "%s", msg);
	return -1;
}

static int oom(gc_rdprof *x)
{
	return fail(x, "out of memory (or more than 2^31 distinct units in one stack)");
}

/* ---- the cut-offs ---------------------------------------------------------- */

/* The cut-off of the L1 of sets x ways lines (the GPU's lines), in units;
 * its index in cfgs, added when new; -1 when out of memory. */
static int cfg_index(gc_rdprof *x, uint64_t lines, uint64_t ways, uint64_t bytes,
		     unsigned l1_sets, unsigned l1_ways)
{
	for (unsigned i = 0; i < x->ncfg; i++)
		if (x->cfgs[i].lines == lines && x->cfgs[i].ways == ways &&
		    x->cfgs[i].l1_sets == l1_sets && x->cfgs[i].l1_ways == l1_ways)
			return (int)i;
	gc_rdp_cfg *cfgs = realloc(x->cfgs, (x->ncfg + 1) * sizeof *x->cfgs);
	if (!cfgs)
		return fail(x, "out of memory");
	x->cfgs = cfgs;
	gc_rdp_cfg *c = &x->cfgs[x->ncfg];
	char why[200];
	*c = (gc_rdp_cfg){lines, ways, bytes, l1_sets, l1_ways, 0};
	c->sdcm_ok = lines && gc_sdcm_check(ways, lines, why, sizeof why) == 0;
	return (int)x->ncfg++;
}

/* The cut-off from the GPU's L1 for kernel k (NULL: the configured L1):
 * its bytes in units, its ways scaled alike (the sets stay the L1's). */
static int gpu_cfg(gc_rdprof *x, const gc_kernel *k)
{
	gc_carveout co;
	gc_gpu_kernel_l1(&x->gpu, k, &co);
	uint64_t unit = UINT64_C(1) << x->ushift, l1line = x->gpu.l1.line;
	uint64_t lines = co.l1_size / unit;
	uint64_t ways = unit < l1line ? co.l1_ways * (l1line / unit) : co.l1_ways;
	if (ways > lines)
		ways = lines;
	if (ways == 0)
		ways = 1;
	return cfg_index(x, lines, ways, co.l1_size, co.l1_sets, co.l1_ways);
}

/* Cut at cfgs[i] from now on: a distance below lines / sets hits. */
static int use_cfg(gc_rdprof *x, int i)
{
	if (i < 0)
		return -1;
	x->cur = (unsigned)i;
	x->cut = x->cfgs[i].lines / x->p.sets;
	return 0;
}

/* ---- set-up ----------------------------------------------------------------- */

int gc_rdprof_init(gc_rdprof *x, const gc_rdp_params *p, char *err, size_t len)
{
	memset(x, 0, sizeof *x);
	x->p = *p;
	x->sampled = p->sample != 0;
	gc_rd_hist_init(&x->all, x->sampled ? GC_RDP_SAMPLED_BOUND : 0);
	gc_hmap_init(&x->skeys, 0);
	gc_hmap_init(&x->tuples, 0);
	gc_hmap_init(&x->pcids, 0);
	gc_rowmap_init(&x->groups, sizeof(gc_rdp_group), 64);

	/* the rules */
	x->scope_l1 = p->scope_l1;
	if (p->gpu) {
		x->gpu = *p->gpu;
		x->have_gpu = 1;
	}
	x->per_sm = x->scope_l1 || gc_rdp_has_by(p, GC_RDP_SM);
	x->flush = p->boundary >= 0 ? p->boundary
		   : (x->scope_l1 && x->gpu.l1.kernel_flush) || gc_rdp_has_by(p, GC_RDP_KERNEL);
	if (x->scope_l1)
		gc_l1_route_table(x->route, x->gpu.l1.skip_global);
	else
		memset(x->route, GC_L1_LOOKUP, sizeof x->route);

	x->lshift = gc_log2(p->line);
	x->sshift = gc_log2(p->sector);
	x->ushift = p->gran == GC_RDP_LINE ? x->lshift : p->gran == GC_RDP_SECTOR ? x->sshift : 0;

	/* The cache: the lines given, else each kernel's L1 (lines and sectors). */
	int rc;
	if (p->lines) {
		rc = use_cfg(x, cfg_index(x, p->lines, p->ways ? p->ways : p->lines, 0, 0, 0));
	} else if (x->have_gpu && p->gran != GC_RDP_BYTE) {
		x->cache_from_gpu = 1;
		rc = use_cfg(x, gpu_cfg(x, NULL));
		if (rc == 0 && x->cfgs[x->cur].lines < p->sets) {
			snprintf(err, len, "--sets %u: more sets than the L1 has units (%llu)",
				 p->sets, (unsigned long long)x->cfgs[x->cur].lines);
			return -2;
		}
	} else {
		rc = use_cfg(x, cfg_index(x, 0, 0, 0, 0, 0));
	}
	if (rc < 0) {
		snprintf(err, len, "%s", x->err);
		return -1;
	}

	if (!x->per_sm) {
		x->stacks = calloc(p->sets, sizeof *x->stacks);
		if (!x->stacks) {
			snprintf(err, len, "out of memory");
			return -1;
		}
		x->nstacks = x->scap = p->sets;
		for (size_t i = 0; i < x->nstacks; i++)
			gc_rd_init(&x->stacks[i].s.st);
		if (x->sampled)
			for (size_t i = 0; i < x->nstacks; i++)
				if (gc_rds_init(&x->stacks[i].s, p->sample) < 0) {
					snprintf(err, len, "out of memory");
					return -1;
				}
	}
	return 0;
}

static void tally_free(gc_rdp_tally *t)
{
	for (unsigned i = 0; i < t->np; i++)
		gc_rd_hist_free(&t->p[i].h);
	free(t->p);
}

static inline gc_rdp_group *group_at(gc_rdprof *x, size_t i)
{
	return (gc_rdp_group *)gc_rowmap_rows(&x->groups) + i;
}

void gc_rdprof_free(gc_rdprof *x)
{
	for (size_t i = 0; i < x->nstacks; i++) {
		if (x->sampled)
			gc_rds_free(&x->stacks[i].s);
		else
			gc_rd_free(&x->stacks[i].s.st);
	}
	free(x->stacks);
	for (size_t i = 0; i < gc_rowmap_count(&x->groups); i++) {
		gc_rd_hist_free(&group_at(x, i)->h);
		tally_free(&group_at(x, i)->t);
	}
	gc_rowmap_free(&x->groups);
	gc_rd_hist_free(&x->all);
	tally_free(&x->tall);
	gc_hmap_free(&x->skeys);
	gc_hmap_free(&x->tuples);
	gc_hmap_free(&x->pcids);
	for (size_t i = 0; i < x->nl; i++)
		free(x->lv[i].name);
	free(x->lv);
	free(x->cfgs);
}

/* ---- stacks and groups -------------------------------------------------------- */

static gc_rdp_stack *new_stack(gc_rdprof *x)
{
	if (x->nstacks == x->scap) {
		gc_rdp_stack *s = gc_grow(x->stacks, &x->scap, x->nstacks + 1, sizeof *s, 64);
		if (!s)
			return NULL;
		x->stacks = s;
	}
	gc_rdp_stack *s = &x->stacks[x->nstacks++];
	gc_rd_init(&s->s.st);
	if (x->sampled && gc_rds_init(&s->s, x->p.sample) < 0)
		return NULL;
	return s;
}

/* The stack of (sm, set) with a stack per SM; pointers move when the
 * array grows, so the map holds indices.  NULL when out of memory. */
static gc_rdp_stack *sm_stack(gc_rdprof *x, uint64_t key)
{
	if (x->prev_stack && key == x->prev_skey)
		return x->prev_stack;
	int added;
	uint64_t *v = gc_hmap_put(&x->skeys, key, &added);
	if (!v)
		return NULL;
	if (added) {
		size_t idx = x->nstacks;
		if (!new_stack(x))
			return NULL;
		v = gc_hmap_get(&x->skeys, key);
		*v = idx;
	}
	x->prev_skey = key;
	x->prev_stack = &x->stacks[*v];
	return x->prev_stack;
}

static int reset_stacks(gc_rdprof *x)
{
	for (size_t i = 0; i < x->nstacks; i++) {
		if (x->sampled) {
			gc_rds_free(&x->stacks[i].s);
			if (gc_rds_init(&x->stacks[i].s, x->p.sample) < 0)
				return -1;
		} else {
			gc_rd_clear(&x->stacks[i].s.st);
		}
	}
	return 0;
}

/* The part of tally t for cut-off i (made on first use); NULL when out
 * of memory. */
static inline gc_rdp_part *part_of(gc_rdp_tally *t, unsigned i, uint64_t bound)
{
	if (i < t->np)
		return &t->p[i];
	gc_rdp_part *p = realloc(t->p, (i + 1) * sizeof *t->p);
	if (!p)
		return NULL;
	t->p = p;
	for (unsigned j = t->np; j <= i; j++) {
		memset(&t->p[j], 0, sizeof t->p[j]);
		gc_rd_hist_init(&t->p[j].h, bound);
	}
	t->np = i + 1;
	return &t->p[i];
}

/* A number for `key` in map m (the next free one when new); -1 when out
 * of memory. */
static int intern(gc_hmap *m, uint64_t key, uint64_t *out)
{
	int added;
	uint64_t *v = gc_hmap_put(m, key, &added);
	if (!v)
		return -1;
	if (added)
		*v = gc_hmap_count(m) - 1;
	*out = *v;
	return 0;
}

/* The row of a record: the values of the --by keys, folded in order into
 * one number ((prefix, value) pairs numbered as they come), so that any
 * combination is one key of the row map.  NULL with x->err. */
static gc_rdp_group *group_for(gc_rdprof *x, const gc_rec *rec)
{
	uint64_t pc = (uint64_t)rec->kernel << 32 | rec->pc;
	if (x->has_last_group && rec->sm == x->last_sm && x->launches == x->last_launch &&
	    pc == x->last_pc)
		return group_at(x, x->last_group);
	uint64_t key = 0;
	for (int i = 0; i < x->p.nby; i++) {
		uint64_t v;
		switch (x->p.by[i]) {
		case GC_RDP_SM: v = rec->sm; break;
		case GC_RDP_KERNEL: v = x->launches; break;
		default:
			if (intern(&x->pcids, pc, &v) < 0)
				return fail(x, "out of memory"), NULL;
			break;
		}
		if (v > UINT32_MAX)
			return fail(x, "more than 2^32 kernel launches or PCs"), NULL;
		key = key << 32 | v;
		if (i + 1 < x->p.nby && intern(&x->tuples, key, &key) < 0)
			return fail(x, "out of memory"), NULL;
	}
	int added;
	gc_rdp_group *g = gc_rowmap_row(&x->groups, key, &added);
	if (!g)
		return fail(x, "out of memory"), NULL;
	if (added) {
		g->key = key;
		g->sm = rec->sm;
		g->kernel = rec->kernel;
		g->pc = rec->pc;
		g->launch = x->launches;
		gc_rd_hist_init(&g->h, GC_RDP_GROUP_BOUND);
	}
	x->has_last_group = 1;
	x->last_sm = rec->sm;
	x->last_launch = x->launches;
	x->last_pc = pc;
	x->last_group = (size_t)(g - group_at(x, 0));
	return g;
}

int gc_rdprof_kernel(gc_rdprof *x, const gc_kernel *k)
{
	unsigned prev = x->cur;
	x->launches++;
	x->kernel = k->id;
	if (x->cache_from_gpu && use_cfg(x, gpu_cfg(x, k)) < 0)
		return -1;
	int remade = x->scope_l1 && x->cache_from_gpu &&
		     (x->cfgs[x->cur].l1_sets != x->cfgs[prev].l1_sets ||
		      x->cfgs[x->cur].l1_ways != x->cfgs[prev].l1_ways);
	if ((x->flush || remade) && x->records && reset_stacks(x) < 0)
		return fail(x, "out of memory");
	if (x->nl == x->lcap) {
		gc_rdp_launch *lv = gc_grow(x->lv, &x->lcap, x->nl + 1, sizeof *lv, 16);
		if (!lv)
			return fail(x, "out of memory");
		x->lv = lv;
	}
	char *name = strdup(k->name);
	if (!name)
		return fail(x, "out of memory");
	x->lv[x->nl++] = (gc_rdp_launch){k->id, name, x->cur, 0, 0};
	return 0;
}

/* ---- the references of a record -------------------------------------------------- */

/* One reference to unit u (its first byte at byte address a); the
 * record's distance becomes the largest of its units'. */
static inline int reference(gc_rdprof *x, const gc_rec *rec, gc_rdp_group *g, uint64_t u,
			    uint64_t a, uint64_t *rdist)
{
	gc_rdp_stack *s;
	unsigned set = x->p.sets > 1 ? gc_set_index(x->p.index, a, x->lshift, x->p.sets) : 0;
	if (x->per_sm) {
		s = sm_stack(x, (uint64_t)rec->sm * x->p.sets + set);
		if (!s)
			return fail(x, "out of memory");
	} else {
		s = &x->stacks[set];
	}
	uint64_t d;
	double w = 1.0;
	gc_rdp_part *p = part_of(&x->tall, x->cur, x->all.bound);
	gc_rdp_part *gp = g ? part_of(&g->t, x->cur, GC_RDP_GROUP_BOUND) : NULL;
	gc_rdp_launch *l = x->nl ? &x->lv[x->nl - 1] : NULL;
	if (!p || (g && !gp))
		return fail(x, "out of memory");
	x->refs++;
	p->refs++;
	if (g) {
		g->refs++;
		gp->refs++;
	}
	if (l)
		l->refs++;
	if (x->sampled) {
		int rc = gc_rds_ref(&s->s, u, &d, &w);
		if (rc < 0)
			return oom(x);
		if (rc == 0)
			return 0;
	} else if (gc_rd_ref(&s->s.st, u, &d) < 0) {
		return oom(x);
	}
	if (gc_rd_hist_add(&p->h, d, w) < 0 || (g && gc_rd_hist_add(&gp->h, d, w) < 0))
		return oom(x);
	if (d < x->cut) {
		p->hits += w;
		if (g)
			gp->hits += w;
		if (l)
			l->hits += w;
	}
	if (*rdist == GC_RD_NONE || d > *rdist)
		*rdist = d;
	return 0;
}

/* The units of a record: an access's bytes [addr, addr + size); a
 * request's masked sectors (the sector at its address when the mask is
 * empty); at byte granularity, the record's address.  With the L1's rules,
 * none for a record the L1 does not look up. */
int gc_rdprof_record(gc_rdprof *x, gc_rec *rec)
{
	uint64_t dist = GC_RD_NONE;
	unsigned us = x->ushift;
	x->records++;
	if (rec->flags & GC_F_PREFETCH) {
		x->prefetches++;
		if (x->p.no_prefetch) {
			rec->dist = dist;
			x->norefs++;
			return 0;
		}
	}
	unsigned route = x->route[rec->op & 3][rec->space < GC_NSPACES ? rec->space : 0]
				 [rec->flags & 15];
	if (route != GC_L1_LOOKUP) {
		if (route == GC_L1_SHARED)
			x->shared++;
		else
			x->bypassed++;
		rec->dist = dist;
		x->norefs++;
		return 0;
	}
	gc_rdp_group *g = NULL;
	if (x->p.nby && !(g = group_for(x, rec)))
		return -1;
	if (x->p.gran == GC_RDP_BYTE) {
		if (reference(x, rec, g, rec->addr, rec->addr, &dist) < 0)
			return -1;
	} else if (x->p.kind == GC_KIND_ACCESS) {
		uint64_t last = rec->addr + (rec->size ? rec->size - 1u : 0);
		if (last < rec->addr)
			last = UINT64_MAX;
		for (uint64_t u = rec->addr >> us;; u++) {
			if (reference(x, rec, g, u, u << us, &dist) < 0)
				return -1;
			if (u == last >> us)
				break;
		}
	} else {
		unsigned mask = rec->mask ? rec->mask : 1;
		uint64_t prev = UINT64_MAX;
		while (mask) {
			unsigned i = (unsigned)__builtin_ctz(mask);
			mask &= mask - 1;
			uint64_t a = rec->addr + ((uint64_t)i << x->sshift);
			uint64_t u = a >> us;
			/* line granularity: one reference a line */
			if (u != prev && reference(x, rec, g, u, a, &dist) < 0)
				return -1;
			prev = u;
		}
	}
	rec->dist = dist;
	if (dist == GC_RD_NONE)
		x->norefs++;
	return 0;
}

void gc_rdprof_prefetch(const gc_rdprof *x, const gc_rec *rec)
{
	if (x->per_sm)
		return;
	uint64_t a = x->p.gran == GC_RDP_BYTE || x->p.kind == GC_KIND_ACCESS ? rec->addr
		     : rec->addr + ((uint64_t)(rec->mask ? (unsigned)__builtin_ctz(rec->mask) : 0)
				    << x->sshift);
	unsigned set = x->p.sets > 1 ? gc_set_index(x->p.index, a, x->lshift, x->p.sets) : 0;
	if (x->sampled)
		gc_rds_prefetch(&x->stacks[set].s, a >> x->ushift);
	else
		GC_RD_PREFETCH(&x->stacks[set].s.st, a >> x->ushift);
}

/* ---- the end ------------------------------------------------------------------------ */

/* SHARDS_adj: the sampled weights of a histogram are corrected to the
 * true number of references at distance 0 (Waldspurger et al. §4.3);
 * distance 0 is a hit of every cache. */
static int adjust(gc_rdp_part *p, int cache)
{
	gc_rd_hist *h = &p->h;
	double diff = (double)p->refs - h->total;
	if (h->nexact == 0 && (gc_rd_hist_add(h, 0, 0) < 0 || gc_rd_hist_flush(h) < 0))
		return -1;
	if (h->exact[0] + diff < 0)
		diff = -h->exact[0];
	h->exact[0] += diff;
	h->total += diff;
	if (cache)
		p->hits += diff;
	if (!h->finite) {
		h->finite = 1;
		h->maxd = 0;
	}
	return 0;
}

/* The parts of t flushed (and adjusted when sampled), summed into h: a
 * single part is moved there whole. */
static int tally_finish(gc_rdprof *x, gc_rdp_tally *t, gc_rd_hist *h)
{
	for (unsigned i = 0; i < t->np; i++) {
		gc_rdp_part *p = &t->p[i];
		if (gc_rd_hist_flush(&p->h) < 0)
			return oom(x);
		if (x->sampled && p->refs && adjust(p, x->cfgs[i].lines != 0) < 0)
			return oom(x);
	}
	if (t->np == 1) {
		gc_rd_hist_free(h);
		*h = t->p[0].h;
		gc_rd_hist_init(&t->p[0].h, h->bound);
		return 0;
	}
	for (unsigned i = 0; i < t->np; i++)
		if (gc_rd_hist_merge(h, &t->p[i].h) < 0)
			return oom(x);
	return 0;
}

int gc_rdprof_finish(gc_rdprof *x)
{
	if (tally_finish(x, &x->tall, &x->all) < 0)
		return -1;
	for (size_t i = 0; i < gc_rowmap_count(&x->groups); i++) {
		gc_rdp_group *g = group_at(x, i);
		if (tally_finish(x, &g->t, &g->h) < 0)
			return -1;
	}
	/* the cache shown: the cut-off of the most references */
	unsigned best = x->cur;
	uint64_t most = 0;
	for (unsigned i = 0; i < x->tall.np; i++)
		if (x->tall.p[i].refs > most) {
			most = x->tall.p[i].refs;
			best = i;
		}
	x->clines = x->cfgs[best].lines;
	x->ways = x->cfgs[best].ways;
	return 0;
}

/* ---- the figures ---------------------------------------------------------------------- */

/* The parts of histogram h: the whole stream's, or a row's. */
static const gc_rdp_tally *tally_of(const gc_rdprof *x, const gc_rd_hist *h)
{
	if (h == &x->all)
		return &x->tall;
	return &((const gc_rdp_group *)(const void *)((const char *)h -
						       offsetof(gc_rdp_group, h)))->t;
}

gc_rdp_cut gc_rdprof_cut(const gc_rdprof *x, const gc_rd_hist *h)
{
	const gc_rdp_tally *t = tally_of(x, h);
	gc_rdp_cut c = {0, 0, 0, 0, 0};
	for (unsigned i = 0; i < t->np; i++)
		c.hits += t->p[i].hits;
	c.misses = h->total - c.hits;
	c.compulsory = h->inf;
	c.capacity = c.misses - h->inf;
	double sdcm = 0;
	for (unsigned i = 0; i < t->np && x->p.sets == 1; i++) {
		const gc_rdp_cfg *g = &x->cfgs[i];
		const gc_rd_hist *ph = t->np == 1 ? h : &t->p[i].h;
		if (!ph->total)
			continue;
		if (!g->sdcm_ok)
			break;
		sdcm += gc_sdcm_hits(ph, g->ways, g->lines);
	}
	c.sdcm = x->p.sets > 1 ? NAN : h->total > 0 ? sdcm / h->total : 0;
	for (unsigned i = 0; i < t->np; i++)
		if (t->p[i].refs && !x->cfgs[i].sdcm_ok)
			c.sdcm = NAN;
	return c;
}

unsigned gc_rdprof_cuts_used(const gc_rdprof *x)
{
	unsigned n = 0;
	for (unsigned i = 0; i < x->tall.np; i++)
		n += x->tall.p[i].refs != 0;
	return n;
}

double gc_rdprof_rate(const gc_rdprof *x)
{
	double rate = 1;
	for (size_t i = 0; x->sampled && i < x->nstacks; i++)
		if (gc_rds_rate(&x->stacks[i].s) < rate)
			rate = gc_rds_rate(&x->stacks[i].s);
	return rate;
}
