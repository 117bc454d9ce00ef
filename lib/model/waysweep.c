/*
 * waysweep.c - every associativity of an LRU L1 or L2 in one pass
 * (waysweep.h).
 *
 * Per unit (an SM's L1; the L2, all its slices' sets in one) and set,
 * the stack is an array of at most MAX entries, most
 * recent first: a reference scans it for its line (its depth d), moves
 * it to the front and updates its sectors' needs.  Thresholds run from 1
 * to MAX + 1 (NEVER: in no cache swept); three histograms count, per
 * threshold, the lookups that hit from it on (hit), whose line is
 * present from it on (line) and the sectors valid from it on (sec).  A
 * store looks at `held` instead of `need`: the least W with the sector
 * valid or left by a partial store (l1_store's held sectors, which a
 * store hits and a load misses; the L2's partial sectors).  Three more
 * count the loads' and the stores' hits (rhit, whit) and the sectors a
 * request would fetch from DRAM by the least W with them valid (fetch).
 */
#include "model/waysweep.h"
#include "model/cache.h"
#include "model/l1.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct entry {
	uint64_t tag;
	uint16_t need[GC_CACHE_SECTORS_MAX]; /* least W with the sector valid; NEVER: none */
	uint16_t held[GC_CACHE_SECTORS_MAX]; /* least W with it valid or partly written */
};

/* One SM's L1, or the L2: sets stacks of up to MAX entries. */
struct sm {
	struct entry *e;   /* sets * max, set-major */
	uint16_t *n;       /* per set: entries in use */
};

enum { H_HIT, H_LINE, H_SEC, H_FETCH, H_RHIT, H_WHIT, NHIST };
/* Counts that are the same for every W, kept with the histograms (their
 * values at the kernel's begin in kbase): requests, lookups, their
 * sectors, the sectors that fetch where not valid, lookups by operation. */
enum { C_REQ, C_LOOKUPS, C_SECTORS, C_FETCHABLE, C_READS, C_WRITES, C_ATOMICS, NCNT };
/* Which partial stores fetch their sectors that are not valid (L2). */
enum { FETCH_NONE, FETCH_PARTIAL, FETCH_ALL };

struct gc_waysweep {
	gc_waysweep_params p;
	unsigned ways[GC_WAYSWEEP_MAX];
	unsigned max, never;       /* the largest W; max + 1 */
	int l2;                    /* level 2 */
	unsigned sets, line, sector, nsectors, line_shift;
	int index, fast;           /* set index; linear over a power of two */
	uint64_t set_mask;
	int refuse_stores;         /* the policy's reason, or 0 */
	const char *why_stores;
	uint8_t walloc_fetch;      /* fetch-on-write: a partial store validates */
	uint8_t store_fetch;       /* L2: FETCH_*, the stores that read DRAM */
	uint8_t maskmap[256];      /* stream sectors -> L1 sectors */
	gc_l1_routes route;
	struct sm **sms;           /* by SM number, 65536 */
	uint16_t *smlist;
	unsigned nsms;

	uint64_t *hist[NHIST];     /* [never + 1]: counts by threshold */
	uint64_t *base[NHIST];     /* the histograms at the kernel's begin */
	uint64_t cnt[NCNT], kbase[NCNT];
	gc_waysweep_counts *total;
	uint64_t loads, stores, atomics, bypassed, shared;
	gc_waysweep_kernel *ks;
	size_t nks, kscap;
	int open;                  /* a kernel has begun and not ended */
	gc_waysweep_stats st;
	char err[320];
};

/* ---- the list ------------------------------------------------------------ */

size_t gc_waysweep_parse(const char *s, unsigned ways[GC_WAYSWEEP_MAX], char *why, size_t len)
{
	unsigned char on[GC_WAYSWEEP_MAX + 1] = {0};
	const char *p = s;
	for (;;) {
		char *end;
		if (*p < '0' || *p > '9')
			goto bad;
		unsigned long a = strtoul(p, &end, 10), b = a;
		p = end;
		if (p[0] == '.' && p[1] == '.') {
			p += 2;
			if (*p < '0' || *p > '9')
				goto bad;
			b = strtoul(p, &end, 10);
			p = end;
		}
		if (a < 1 || b > GC_WAYSWEEP_MAX || a > b) {
			snprintf(why, len, "'%s': associativities go from 1 to %d, a range upwards",
				 s, GC_WAYSWEEP_MAX);
			return 0;
		}
		for (unsigned long w = a; w <= b; w++)
			on[w] = 1;
		if (!*p)
			break;
		if (*p++ != ',')
			goto bad;
	}
	size_t n = 0;
	for (unsigned w = 1; w <= GC_WAYSWEEP_MAX; w++)
		if (on[w])
			ways[n++] = w;
	return n;
bad:
	snprintf(why, len, "'%s' is not a list of associativities (e.g. 1..32 or 1,2,4,8)", s);
	return 0;
}

/* ---- configuration ------------------------------------------------------- */

/* Why this configuration is no stack algorithm, or NULL. */
static const char *refusal(const gc_waysweep_params *p, const gc_gpu_cache *c)
{
	if (c->repl != GC_REPL_LRU)
		return "the replacement is not LRU: FIFO and random replacement have no stack "
		       "property (a larger cache can miss more); use separate runs";
	if (p->level != 2 && p->gpu->sm.carveout == GC_CARVEOUT_ADAPTIVE)
		return "the adaptive carve-out sets the L1's geometry per kernel; give "
		       "--carveout none or fixed";
	if (p->level == 2 && c->prefetch != GC_PF_NONE)
		return "the L2 prefetcher fills the lines a cache lacks, which differ per "
		       "associativity; give --prefetch none or use separate runs";
	if (p->level == 2 && p->timed)
		return "the input's times are cycles (gc-l1 --timing): a sector still in flight "
		       "from DRAM is merged, not a hit, and when each cache fetched it differs "
		       "per associativity; use separate runs";
	return NULL;
}

/* Why a store breaks the stack property under this policy, or NULL. */
static const char *store_refusal(const gc_waysweep_params *p, const gc_gpu_cache *c)
{
	if (c->write == GC_WRITE_EVICT || c->write == GC_WRITE_READ_ONLY)
		return p->level == 2 ? "a store invalidates its sectors, and its line once none "
				       "is left, only in the caches that hold it (write-evict), so "
				       "the caches' LRU orders part"
				     : "a store invalidates its line only in the caches that hold "
				       "it (write-evict), so the caches' LRU orders part";
	if (c->walloc == GC_WALLOC_NONE)
		return p->level == 2 ? "a store refreshes its line only in the caches that hold "
				       "one of its sectors (no-write-allocate), so the caches' LRU "
				       "orders part"
				     : "a store refreshes its line only in the caches that hold it "
				       "(no-write-allocate), so the caches' LRU orders part";
	return NULL;
}

gc_waysweep *gc_waysweep_new(const gc_waysweep_params *p, int *refused, char *err, size_t len)
{
	int l2 = p->level == 2;
	const gc_gpu_cache *l1 = l2 ? &p->gpu->l2 : &p->gpu->l1;
	*refused = 0;
	const char *why = refusal(p, l1);
	if (why) {
		*refused = 1;
		snprintf(err, len, "--ways-sweep: %s", why);
		return NULL;
	}
	char buf[160];
	if (!l2 && gc_set_index_check(l1->index, l1->sets, l1->line, buf, sizeof buf) < 0) {
		*refused = 1;
		snprintf(err, len, "L1: %s", buf);
		return NULL;
	}
	unsigned in_line = p->in_line && !l2 ? p->in_line : l1->line;
	unsigned in_sector = l2 ? l1->sector : p->in_sector ? p->in_sector : in_line < 32 ? in_line : 32;
	if (in_line != l1->line) {
		snprintf(err, len, "%s: the stream's lines are %u bytes, the L1's %u "
			 "(give gc-coalesce and gc-l1 the same line size)",
			 p->input ? p->input : "input", in_line, l1->line);
		return NULL;
	}
	if (in_sector > in_line)
		in_sector = in_line;
	gc_waysweep *S = calloc(1, sizeof *S);
	if (!S) {
		snprintf(err, len, "out of memory");
		return NULL;
	}
	S->p = *p;
	memcpy(S->ways, p->ways, p->nways * sizeof *p->ways);
	S->p.ways = S->ways;
	S->max = p->ways[p->nways - 1];
	S->never = S->max + 1;
	S->l2 = l2;
	S->sets = l2 ? p->slices * l1->sets : l1->sets;
	S->line = l1->line;
	S->sector = l1->sector;
	S->nsectors = l1->line / l1->sector;
	while ((1u << S->line_shift) < S->line)
		S->line_shift++;
	S->index = l1->index;
	S->fast = l1->index == GC_INDEX_LINEAR && !(l1->sets & (l1->sets - 1));
	S->set_mask = l1->sets - 1;
	S->why_stores = store_refusal(p, l1);
	S->walloc_fetch = l1->walloc == GC_WALLOC_FETCH_ON_WRITE;
	S->store_fetch = l1->walloc == GC_WALLOC_WRITE      ? FETCH_ALL
			 : l1->walloc == GC_WALLOC_FETCH_ON_WRITE ? FETCH_PARTIAL
								  : FETCH_NONE;
	gc_cache_sector_map(S->maskmap, in_sector, S->sector, in_line);
	gc_l1_route_table(S->route, l1->skip_global);
	S->sms = calloc(65536, sizeof *S->sms);
	S->smlist = calloc(65536, sizeof *S->smlist);
	S->total = calloc(p->nways, sizeof *S->total);
	int ok = S->sms && S->smlist && S->total;
	for (int h = 0; h < NHIST; h++) {
		S->hist[h] = calloc(S->never + 1, sizeof(uint64_t));
		S->base[h] = calloc(S->never + 1, sizeof(uint64_t));
		ok = ok && S->hist[h] && S->base[h];
	}
	if (!ok) {
		snprintf(err, len, "out of memory");
		gc_waysweep_free(S);
		return NULL;
	}
	return S;
}

void gc_waysweep_free(gc_waysweep *S)
{
	if (!S)
		return;
	for (unsigned i = 0; S->sms && i < S->nsms; i++) {
		struct sm *m = S->sms[S->smlist[i]];
		free(m->e);
		free(m->n);
		free(m);
	}
	free(S->sms);
	free(S->smlist);
	for (int h = 0; h < NHIST; h++) {
		free(S->hist[h]);
		free(S->base[h]);
	}
	free(S->total);
	for (size_t k = 0; k < S->nks; k++)
		free(S->ks[k].n);
	free(S->ks);
	free(S);
}

const char *gc_waysweep_error(const gc_waysweep *S)
{
	return S->err;
}

/* ---- the stacks ------------------------------------------------------------ */

static struct sm *get_sm(gc_waysweep *S, uint16_t id)
{
	struct sm *m = S->sms[id];
	if (m)
		return m;
	m = calloc(1, sizeof *m);
	if (!m)
		return NULL;
	m->e = malloc((size_t)S->sets * S->max * sizeof *m->e);
	m->n = calloc(S->sets, sizeof *m->n);
	if (!m->e || !m->n) {
		free(m->e);
		free(m->n);
		free(m);
		return NULL;
	}
	S->sms[id] = m;
	S->smlist[S->nsms++] = id;
	return m;
}

/* A lookup of line `tag` in `set` for sectors m; `v`: the sectors it
 * leaves valid (m, or none for a partial store that fetches nothing);
 * `store`: a store, which hits held sectors and leaves its sectors held;
 * `op`: its operation (the hits by operation); `fetch`: its sectors not
 * valid are read from DRAM. */
static void reference(gc_waysweep *S, struct sm *m, unsigned set, uint64_t tag, uint8_t sec,
		      uint8_t v, int store, int op, int fetch)
{
	struct entry *e = m->e + (size_t)set * S->max;
	unsigned n = m->n[set], d = 0;
	while (d < n && e[d].tag != tag)
		d++;
	uint16_t never = (uint16_t)S->never;
	unsigned ns = S->nsectors;
	uint64_t *hs = S->hist[H_SEC], *hf = S->hist[H_FETCH];
	struct entry x;
	unsigned line, hit;
	if (d < n) {
		/* present in every cache of more than d ways */
		x = e[d];
		line = hit = d + 1;
		for (unsigned j = 0; j < ns; j++) {
			unsigned t = x.need[j] > line ? x.need[j] : line;
			unsigned th = x.held[j] > line ? x.held[j] : line;
			if (sec & (1u << j)) {
				unsigned u = store ? th : t;
				hs[u]++;
				hf[t] += (unsigned)fetch;
				hit = u > hit ? u : hit;
			}
			x.need[j] = (v & (1u << j)) ? 1 : (uint16_t)t;
			x.held[j] = ((v | (store ? sec : 0)) & (1u << j)) ? 1 : (uint16_t)th;
		}
		memmove(e + 1, e, d * sizeof *e);
	} else {
		line = hit = never;
		hs[never] += (unsigned)__builtin_popcount(sec);
		hf[never] += fetch ? (unsigned)__builtin_popcount(sec) : 0;
		x.tag = tag;
		for (unsigned j = 0; j < GC_CACHE_SECTORS_MAX; j++) {
			x.need[j] = (v & (1u << j)) ? 1 : never;
			x.held[j] = ((v | (store ? sec : 0)) & (1u << j)) ? 1 : never;
		}
		if (n < S->max)
			m->n[set] = (uint16_t)++n;
		memmove(e + 1, e, (n - 1) * sizeof *e);
	}
	e[0] = x;
	S->hist[H_HIT][hit]++;
	S->hist[H_LINE][line]++;
	S->hist[H_RHIT][hit] += op == GC_LOAD;
	S->hist[H_WHIT][hit] += op == GC_STORE;
	S->cnt[C_LOOKUPS]++;
	S->cnt[C_SECTORS] += (unsigned)__builtin_popcount(sec);
	S->cnt[C_FETCHABLE] += fetch ? (unsigned)__builtin_popcount(sec) : 0;
	S->cnt[op == GC_LOAD ? C_READS : op == GC_STORE ? C_WRITES : C_ATOMICS]++;
}

/* The refusal of record recno, a store the policy makes size-dependent
 * (why): -2. */
static int refuse_store(gc_waysweep *S, uint64_t recno, const char *why)
{
	snprintf(S->err, sizeof S->err,
		 "%s: record %llu: --ways-sweep refuses this store: %s; use separate runs",
		 S->p.input ? S->p.input : "input", (unsigned long long)recno, why);
	return -2;
}

static unsigned set_of(const gc_waysweep *S, uint64_t addr)
{
	if (S->fast)
		return (unsigned)((addr >> S->line_shift) & S->set_mask);
	return gc_set_index(S->index, addr, S->line_shift, S->sets);
}

int gc_waysweep_access(gc_waysweep *S, const gc_rec *rec, const uint64_t *recno, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const gc_rec *r = &rec[i];
		S->cnt[C_REQ]++;
		S->loads += r->op == GC_LOAD;
		S->stores += r->op == GC_STORE;
		S->atomics += r->op == GC_ATOMIC;
		unsigned route = S->route[r->op & 3][r->space][r->flags & 15];
		if (route == GC_L1_SHARED) {
			S->shared++;
			continue;
		}
		if (route == GC_L1_BYPASS) {
			S->bypassed++;
			continue;
		}
		uint8_t sec = S->maskmap[r->mask], v = sec;
		if (r->op != GC_LOAD) {
			/* gc-l1 treats every looked-up non-load as a store */
			const char *why = S->why_stores;
			if (!why && !sec)
				why = "a store of no sector hits whether or not its line is "
				      "present, and refreshes it only where it is";
			if (why)
				return refuse_store(S, recno[i], why);
			unsigned bytes = (unsigned)__builtin_popcount(sec) * S->sector;
			if (r->size < bytes && !S->walloc_fetch)
				v = 0; /* partly written, not fetched: no sector valid */
		}
		struct sm *m = get_sm(S, r->sm);
		if (!m) {
			snprintf(S->err, sizeof S->err, "out of memory");
			return -1;
		}
		uint64_t addr = r->addr & ~(uint64_t)(S->line - 1);
		reference(S, m, set_of(S, addr), addr >> S->line_shift, sec, v, r->op != GC_LOAD,
			  r->op, r->op == GC_LOAD);
	}
	return 0;
}

int gc_waysweep_access_l2(gc_waysweep *S, const gc_rec *r, unsigned set, uint64_t recno)
{
	S->cnt[C_REQ]++;
	S->loads += r->op == GC_LOAD;
	S->stores += r->op == GC_STORE;
	S->atomics += r->op == GC_ATOMIC;
	uint8_t sec = r->mask, v = sec;
	int fetch = 1;
	if (r->op == GC_STORE) {
		if (S->why_stores)
			return refuse_store(S, recno, S->why_stores);
		unsigned k = (unsigned)__builtin_popcount(sec);
		int full = !r->size || r->size >= S->sector * k;
		/* gc-l2: write-allocate reads what is not valid, fetch-on-write
		 * that of a partial store; write-validate leaves a partial
		 * store's sectors partly written, not valid */
		fetch = S->store_fetch == FETCH_ALL || (S->store_fetch == FETCH_PARTIAL && !full);
		if (!full && S->store_fetch == FETCH_NONE)
			v = 0;
	}
	struct sm *m = get_sm(S, 0);
	if (!m) {
		snprintf(S->err, sizeof S->err, "out of memory");
		return -1;
	}
	reference(S, m, set, r->addr >> S->line_shift, sec, v, r->op == GC_STORE, r->op, fetch);
	return 0;
}

/* ---- kernels and results ------------------------------------------------------ */

/* The counts of every associativity from histograms h and counts n
 * (minus b and nb, when given). */
static void counts(const gc_waysweep *S, uint64_t *const h[NHIST], uint64_t *const b[NHIST],
		   const uint64_t n[NCNT], const uint64_t *nb, gc_waysweep_counts *out)
{
	uint64_t at[NHIST] = {0}, c[NCNT];
	for (int i = 0; i < NCNT; i++)
		c[i] = n[i] - (nb ? nb[i] : 0);
	size_t k = 0;
	for (unsigned w = 1; w <= S->max && k < S->p.nways; w++) {
		for (int i = 0; i < NHIST; i++)
			at[i] += h[i][w] - (b ? b[i][w] : 0);
		if (w != S->ways[k])
			continue;
		gc_waysweep_counts *o = &out[k++];
		o->requests = c[C_REQ];
		o->hits = at[H_HIT];
		o->misses = c[C_LOOKUPS] - at[H_HIT];
		o->sector_misses = at[H_LINE] - at[H_HIT]; /* line present, a sector missing */
		o->sec_requested = c[C_SECTORS];
		o->sec_hits = at[H_SEC];
		o->reads = c[C_READS];
		o->read_hits = at[H_RHIT];
		o->writes = c[C_WRITES];
		o->write_hits = at[H_WHIT];
		o->atomics = c[C_ATOMICS];
		o->atomic_hits = at[H_HIT] - at[H_RHIT] - at[H_WHIT];
		o->dram_reads = c[C_FETCHABLE] - at[H_FETCH];
	}
}

int gc_waysweep_kernel_begin(gc_waysweep *S, const gc_kernel *k)
{
	if (S->nks == S->kscap) {
		size_t cap = S->kscap ? 2 * S->kscap : 16;
		gc_waysweep_kernel *ks = realloc(S->ks, cap * sizeof *ks);
		if (!ks) {
			snprintf(S->err, sizeof S->err, "out of memory");
			return -1;
		}
		S->ks = ks;
		S->kscap = cap;
	}
	gc_waysweep_kernel *ks = &S->ks[S->nks];
	memset(ks, 0, sizeof *ks);
	ks->n = calloc(S->p.nways, sizeof *ks->n);
	if (!ks->n) {
		snprintf(S->err, sizeof S->err, "out of memory");
		return -1;
	}
	S->nks++;
	ks->id = k ? k->id : 0;
	if (k) {
		size_t len = strnlen(k->name, sizeof ks->name - 1);
		memcpy(ks->name, k->name, len);
		ks->name[len] = 0;
	}
	for (int h = 0; h < NHIST; h++)
		memcpy(S->base[h], S->hist[h], (S->never + 1) * sizeof(uint64_t));
	memcpy(S->kbase, S->cnt, sizeof S->kbase);
	S->open = 1;
	return 0;
}

int gc_waysweep_kernel_end(gc_waysweep *S)
{
	if (S->p.flush) /* every cache empty: every stack empty */
		for (unsigned i = 0; i < S->nsms; i++)
			memset(S->sms[S->smlist[i]]->n, 0, S->sets * sizeof(uint16_t));
	if (!S->open)
		return 0;
	S->open = 0;
	counts(S, S->hist, S->base, S->cnt, S->kbase, S->ks[S->nks - 1].n);
	return 0;
}

const gc_waysweep_stats *gc_waysweep_stats_get(gc_waysweep *S)
{
	counts(S, S->hist, NULL, S->cnt, NULL, S->total);
	gc_waysweep_stats *st = &S->st;
	st->l2 = S->l2;
	st->line = S->line;
	st->sector = S->sector;
	st->units = S->l2 ? S->p.slices : 1;
	st->sets = S->l2 ? S->sets / S->p.slices : S->sets;
	st->ways = S->ways;
	st->nways = S->p.nways;
	st->requests = S->cnt[C_REQ];
	st->loads = S->loads;
	st->stores = S->stores;
	st->atomics = S->atomics;
	st->bypassed = S->bypassed;
	st->shared = S->shared;
	st->total = S->total;
	st->kernels = S->ks;
	st->nkernels = S->nks;
	return st;
}
