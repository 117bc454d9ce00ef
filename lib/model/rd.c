/* rd.c - exact and sampled reuse distances, and their histogram (rd.h). */
#include "model/rd.h"
#include "base/bigmem.h"
#include "base/hash.h"

#include <stdlib.h>
#include <string.h>

#define EMPTY UINT64_MAX
#define MIN_CAP 16     /* hash slots */
#define MIN_WORDS 4    /* 256 time slots */
#define MAX_UNITS (UINT64_C(1) << 31) /* times are 32-bit and T = 2M */

/* ===================================================================== */
/* The unit -> last-use table                                             */
/* ===================================================================== */

/* Linear probing over 12-byte slots (key low, key high, time), at most
 * three quarters full, deletion by shifting back (as hash.c).  The key
 * UINT64_MAX marks an empty slot and is kept beside the table. */

static inline uint64_t key_at(const uint32_t *sl, size_t i)
{
	return sl[3 * i] | (uint64_t)sl[3 * i + 1] << 32;
}

static inline void put_at(uint32_t *sl, size_t i, uint64_t key, uint32_t t)
{
	sl[3 * i] = (uint32_t)key;
	sl[3 * i + 1] = (uint32_t)(key >> 32);
	sl[3 * i + 2] = t;
}

static inline size_t home(uint64_t key, unsigned shift)
{
	return (size_t)(gc_hash64(key) >> shift);
}

static uint32_t *new_slots(size_t cap)
{
	uint32_t *sl = gc_big_calloc(cap, 3 * sizeof *sl); /* huge pages if large */
	if (sl)
		memset(sl, 0xff, cap * 3 * sizeof *sl);
	return sl;
}

/* The slot of key, or SIZE_MAX. */
static inline size_t find(const gc_rd *s, uint64_t key)
{
	if (!s->cap)
		return SIZE_MAX;
	size_t mask = s->cap - 1;
	for (size_t i = home(key, s->shift);; i = (i + 1) & mask) {
		uint64_t k = key_at(s->slots, i);
		if (k == key)
			return i;
		if (k == EMPTY)
			return SIZE_MAX;
	}
}

static int grow_table(gc_rd *s)
{
	size_t cap = s->cap ? 2 * s->cap : MIN_CAP;
	if (cap > SIZE_MAX / 12)
		return -1;
	uint32_t *sl = new_slots(cap);
	if (!sl)
		return -1;
	unsigned shift = 64;
	for (size_t c = cap; c > 1; c >>= 1)
		shift--;
	for (size_t i = 0; i < s->cap; i++) {
		uint64_t k = key_at(s->slots, i);
		if (k == EMPTY)
			continue;
		size_t j = home(k, shift);
		while (key_at(sl, j) != EMPTY)
			j = (j + 1) & (cap - 1);
		put_at(sl, j, k, s->slots[3 * i + 2]);
	}
	gc_big_free(s->slots, s->cap, 3 * sizeof *s->slots);
	s->slots = sl;
	s->cap = cap;
	s->shift = shift;
	return 0;
}

/* Insert a key known to be absent. */
static int insert(gc_rd *s, uint64_t key, uint32_t t)
{
	if (key == EMPTY) {
		s->has_empty = 1;
		s->empty_time = t;
		return 0;
	}
	if ((s->n + 1) * 4 > s->cap * 3 && grow_table(s) < 0)
		return -1;
	size_t i = home(key, s->shift);
	while (key_at(s->slots, i) != EMPTY)
		i = (i + 1) & (s->cap - 1);
	put_at(s->slots, i, key, t);
	s->n++;
	return 0;
}

static inline int on_path(size_t h, size_t i, size_t j)
{
	return h <= j ? h <= i && i < j : h <= i || i < j;
}

static void delete_at(gc_rd *s, size_t i)
{
	size_t mask = s->cap - 1;
	for (size_t j = (i + 1) & mask;; j = (j + 1) & mask) {
		uint64_t k = key_at(s->slots, j);
		if (k == EMPTY)
			break;
		if (on_path(home(k, s->shift), i, j)) {
			put_at(s->slots, i, k, s->slots[3 * j + 2]);
			i = j;
		}
	}
	put_at(s->slots, i, EMPTY, UINT32_MAX);
	s->n--;
}

/* ===================================================================== */
/* The timeline: bits and the tree of counts over their words            */
/* ===================================================================== */

/* Bits set in x (SWAR: portable builds have no popcount instruction and
 * __builtin_popcountll becomes a library call). */
static inline unsigned popc(uint64_t x)
{
	x -= (x >> 1) & UINT64_C(0x5555555555555555);
	x = (x & UINT64_C(0x3333333333333333)) + ((x >> 2) & UINT64_C(0x3333333333333333));
	x = (x + (x >> 4)) & UINT64_C(0x0f0f0f0f0f0f0f0f);
	return (unsigned)((x * UINT64_C(0x0101010101010101)) >> 56);
}

/* The counts sit in a complete binary tree over the words (words is a
 * power of two): node 1 is the root, node words + w is word w's count,
 * node i has children 2i and 2i + 1.  Walks from a leaf to the root take
 * the same log2(words) steps every time, so the loops are predicted
 * perfectly (a Fenwick tree's loop lengths vary with the bits of the
 * index, and the mispredictions cost more than the work). */

/* Add delta (mod 2^32) to word w's count. */
static inline void tree_add(uint32_t *tree, size_t words, size_t w, uint32_t delta)
{
	for (size_t i = words + w; i >= 1; i >>= 1)
		tree[i] += delta;
}

/* Set bits in the words after w, while taking one from word w's count
 * (the bit of the reference being moved). */
static inline uint64_t tree_after_take(uint32_t *tree, size_t words, size_t w)
{
	uint64_t sum = 0;
	for (size_t i = words + w; i > 1; i >>= 1) {
		tree[i]--;
		/* the right sibling when i is a left child: a mask, not a
		 * branch, which would mispredict half the time */
		sum += tree[i ^ 1] & ((uint32_t)(i & 1) - 1u);
	}
	tree[1]--;
	return sum;
}

static void tree_build(gc_rd *s)
{
	for (size_t w = 0; w < s->words; w++)
		s->tree[s->words + w] = popc(s->bits[w]);
	for (size_t i = s->words - 1; i >= 1; i--)
		s->tree[i] = s->tree[2 * i] + s->tree[2 * i + 1];
}

static inline uint32_t rank_of(const gc_rd *s, uint32_t t)
{
	/* The leaves hold the exclusive prefix counts of the words here. */
	return s->tree[s->words + (t >> 6)] +
	       popc(s->bits[t >> 6] & ((UINT64_C(1) << (t & 63)) - 1));
}

/* Renumber the live times 0..live-1 in order, and make room for at least
 * 2 * live slots (a power of two of words, at least MIN_WORDS). */
static int compact(gc_rd *s)
{
	if (s->live >= MAX_UNITS)
		return -1;
	size_t words = MIN_WORDS;
	while ((uint64_t)words * 64 < 2 * s->live)
		words *= 2;
	if (words > s->words) {
		/* Grow first (the new words are zero), so the renumbering below
		 * can use the bigger arrays. */
		uint64_t *b = realloc(s->bits, words * sizeof *b);
		if (!b)
			return -1;
		s->bits = b;
		memset(b + s->words, 0, (words - s->words) * sizeof *b);
		uint32_t *t = realloc(s->tree, 2 * words * sizeof *t);
		if (!t)
			return -1;
		s->tree = t;
	} else {
		words = s->words;
	}
	uint32_t acc = 0;
	for (size_t w = 0; w < s->words; w++) {
		uint32_t c = popc(s->bits[w]);
		s->tree[words + w] = acc;
		acc += c;
	}
	s->words = words; /* rank_of reads the leaves at the new offset */
	for (size_t i = 0; i < s->cap; i++)
		if (key_at(s->slots, i) != EMPTY)
			s->slots[3 * i + 2] = rank_of(s, s->slots[3 * i + 2]);
	if (s->has_empty)
		s->empty_time = rank_of(s, s->empty_time);
	memset(s->bits, 0, words * sizeof *s->bits);
	for (uint64_t w = 0; w < s->live / 64; w++)
		s->bits[w] = UINT64_MAX;
	if (s->live % 64)
		s->bits[s->live / 64] = (UINT64_C(1) << (s->live % 64)) - 1;
	tree_build(s);
	s->now = s->live;
	return 0;
}

/* ===================================================================== */
/* The exact engine                                                       */
/* ===================================================================== */

void gc_rd_init(gc_rd *s)
{
	memset(s, 0, sizeof *s);
	s->shift = 64;
}

void gc_rd_free(gc_rd *s)
{
	gc_big_free(s->slots, s->cap, 3 * sizeof *s->slots);
	free(s->bits);
	free(s->tree);
	gc_rd_init(s);
}

void gc_rd_clear(gc_rd *s)
{
	if (s->slots)
		memset(s->slots, 0xff, s->cap * 3 * sizeof *s->slots);
	if (s->bits)
		memset(s->bits, 0, s->words * sizeof *s->bits);
	if (s->tree)
		memset(s->tree, 0, 2 * s->words * sizeof *s->tree);
	s->n = 0;
	s->has_empty = 0;
	s->now = 0;
	s->live = 0;
	s->has_last = 0;
}

int gc_rd_ref(gc_rd *s, uint64_t u, uint64_t *d)
{
	/* The unit of the last reference: distance 0, nothing moves. */
	if (s->has_last && u == s->last) {
		*d = 0;
		return 0;
	}
	if (s->now == (uint64_t)s->words * 64 && compact(s) < 0)
		return -1;
	uint32_t now = (uint32_t)s->now;
	size_t w1 = now >> 6;
	uint32_t *tp;
	size_t i = SIZE_MAX;
	if (u == EMPTY)
		tp = s->has_empty ? &s->empty_time : NULL;
	else
		tp = (i = find(s, u)) != SIZE_MAX ? &s->slots[3 * i + 2] : NULL;
	if (!tp) {
		if (insert(s, u, now) < 0)
			return -1;
		s->live++;
		*d = GC_RD_INF;
		tree_add(s->tree, s->words, w1, 1);
	} else {
		uint32_t t = *tp;
		size_t w = t >> 6;
		unsigned b = t & 63;
		*d = tree_after_take(s->tree, s->words, w) + popc(s->bits[w] >> b >> 1);
		s->bits[w] &= ~(UINT64_C(1) << b);
		*tp = now;
		tree_add(s->tree, s->words, w1, 1);
	}
	s->bits[w1] |= UINT64_C(1) << (now & 63);
	s->now++;
	s->last = u;
	s->has_last = 1;
	return 0;
}

int gc_rd_remove(gc_rd *s, uint64_t u)
{
	uint32_t t;
	if (u == EMPTY) {
		if (!s->has_empty)
			return 0;
		t = s->empty_time;
		s->has_empty = 0;
	} else {
		size_t i = find(s, u);
		if (i == SIZE_MAX)
			return 0;
		t = s->slots[3 * i + 2];
		delete_at(s, i);
	}
	s->bits[t >> 6] &= ~(UINT64_C(1) << (t & 63));
	tree_add(s->tree, s->words, t >> 6, UINT32_MAX);
	s->live--;
	if (u == s->last)
		s->has_last = 0;
	return 1;
}

size_t gc_rd_bytes(const gc_rd *s)
{
	return s->cap * 12 + s->words * (sizeof *s->bits + 2 * sizeof *s->tree);
}

/* ===================================================================== */
/* The sampled engine                                                     */
/* ===================================================================== */

/* The spatial hash (the finaliser of MurmurHash3): a bijection, so two
 * units never share a hash and the stack can be keyed by it. */
static inline uint64_t spatial(uint64_t k)
{
	k ^= k >> 33;
	k *= UINT64_C(0xff51afd7ed558ccd);
	k ^= k >> 33;
	k *= UINT64_C(0xc4ceb9fe1a85ec53);
	k ^= k >> 33;
	return k;
}

int gc_rds_init(gc_rds *s, size_t max)
{
	memset(s, 0, sizeof *s);
	gc_rd_init(&s->st);
	s->thresh = UINT64_MAX;
	s->max = max ? max : 1;
	s->heap = malloc((s->max + 1) * sizeof *s->heap);
	return s->heap ? 0 : -1;
}

void gc_rds_free(gc_rds *s)
{
	gc_rd_free(&s->st);
	free(s->heap);
	s->heap = NULL;
}

void gc_rds_prefetch(const gc_rds *s, uint64_t u)
{
	uint64_t h = spatial(u);
	if (h <= s->thresh)
		GC_RD_PREFETCH(&s->st, h);
}

double gc_rds_rate(const gc_rds *s)
{
	if (s->thresh == UINT64_MAX)
		return 1.0;
	return ((double)s->thresh + 1.0) / 18446744073709551616.0;
}

static void heap_push(gc_rds *s, uint64_t h)
{
	size_t i = s->nheap++;
	while (i > 0) {
		size_t p = (i - 1) / 2;
		if (s->heap[p] >= h)
			break;
		s->heap[i] = s->heap[p];
		i = p;
	}
	s->heap[i] = h;
}

static uint64_t heap_pop(gc_rds *s)
{
	uint64_t top = s->heap[0], x = s->heap[--s->nheap];
	size_t i = 0, n = s->nheap;
	for (;;) {
		size_t c = 2 * i + 1;
		if (c >= n)
			break;
		if (c + 1 < n && s->heap[c + 1] > s->heap[c])
			c++;
		if (s->heap[c] <= x)
			break;
		s->heap[i] = s->heap[c];
		i = c;
	}
	if (n)
		s->heap[i] = x;
	return top;
}

int gc_rds_ref(gc_rds *s, uint64_t u, uint64_t *d, double *w)
{
	s->seen++;
	uint64_t h = spatial(u);
	if (h > s->thresh)
		return 0;
	double rate = gc_rds_rate(s);
	uint64_t dd;
	if (gc_rd_ref(&s->st, h, &dd) < 0)
		return -1;
	if (dd == GC_RD_INF) {
		heap_push(s, h);
		if (s->nheap > s->max) {
			uint64_t big = heap_pop(s);
			gc_rd_remove(&s->st, big);
			s->thresh = big - 1; /* big > 0: max >= 1 smaller hashes exist */
		}
		*d = GC_RD_INF;
	} else {
		*d = rate == 1.0 ? dd : (uint64_t)((double)dd / rate);
	}
	*w = 1.0 / rate;
	s->weight += *w;
	return 1;
}

size_t gc_rds_bytes(const gc_rds *s)
{
	return gc_rd_bytes(&s->st) + (s->max + 1) * sizeof *s->heap;
}

/* ===================================================================== */
/* The histogram                                                          */
/* ===================================================================== */

void gc_rd_hist_init(gc_rd_hist *h, uint64_t bound)
{
	memset(h, 0, sizeof *h);
	h->bound = bound;
}

void gc_rd_hist_free(gc_rd_hist *h)
{
	free(h->exact);
	gc_rd_hist_init(h, h->bound);
}

static inline unsigned log2_floor(uint64_t d)
{
	return 63u - (unsigned)__builtin_clzll(d);
}

static int grow_exact(gc_rd_hist *h, uint64_t d)
{
	size_t n = h->nexact ? h->nexact : 16;
	while (n <= d) {
		if (n > SIZE_MAX / 16)
			return -1;
		n *= 2;
	}
	if (h->bound && n > h->bound)
		n = (size_t)h->bound;
	double *e = realloc(h->exact, n * sizeof *e);
	if (!e)
		return -1;
	for (size_t i = h->nexact; i < n; i++)
		e[i] = 0;
	h->exact = e;
	h->nexact = n;
	return 0;
}

int gc_rd_hist_add(gc_rd_hist *h, uint64_t d, double w)
{
	h->total += w;
	if (d == GC_RD_INF) {
		h->inf += w;
		return 0;
	}
	if (!h->finite || d > h->maxd) {
		h->maxd = d;
		h->finite = 1;
	}
	if (!h->bound || d < h->bound) {
		h->pend_d[h->npend] = d;
		h->pend_w[h->npend] = w;
		if (++h->npend == GC_RD_PENDING)
			return gc_rd_hist_flush(h);
	} else {
		h->bin[log2_floor(d)] += w;
	}
	return 0;
}

int gc_rd_hist_flush(gc_rd_hist *h)
{
	unsigned n = h->npend;
	if (!n)
		return 0;
	uint64_t top = 0;
	for (unsigned i = 0; i < n; i++)
		if (h->pend_d[i] > top)
			top = h->pend_d[i];
	if (top >= h->nexact && grow_exact(h, top) < 0)
		return -1;
	for (unsigned i = 0; i < n; i++)
		__builtin_prefetch(&h->exact[h->pend_d[i]], 1);
	for (unsigned i = 0; i < n; i++)
		h->exact[h->pend_d[i]] += h->pend_w[i];
	h->npend = 0;
	return 0;
}

int gc_rd_hist_merge(gc_rd_hist *into, const gc_rd_hist *from)
{
	if (from->nexact && (from->nexact > into->nexact) &&
	    grow_exact(into, from->nexact - 1) < 0)
		return -1;
	for (size_t d = 0; d < from->nexact; d++)
		into->exact[d] += from->exact[d];
	for (unsigned k = 0; k < GC_RD_BINS; k++)
		into->bin[k] += from->bin[k];
	into->inf += from->inf;
	into->total += from->total;
	if (from->finite && (!into->finite || from->maxd > into->maxd)) {
		into->maxd = from->maxd;
		into->finite = 1;
	}
	return 0;
}

double gc_rd_hist_range(const gc_rd_hist *h, uint64_t lo, uint64_t hi)
{
	double sum = 0;
	uint64_t top = hi == GC_RD_INF ? UINT64_MAX - 2 : hi;
	if (lo > top)
		return 0;
	for (uint64_t d = lo; d < h->nexact && d <= top; d++)
		sum += h->exact[d];
	for (unsigned k = 0; k < GC_RD_BINS; k++) {
		if (!h->bin[k])
			continue;
		uint64_t b0 = UINT64_C(1) << k;
		if (b0 >= lo && b0 <= top)
			sum += h->bin[k];
	}
	return sum;
}

double gc_rd_hist_ge(const gc_rd_hist *h, uint64_t n)
{
	return gc_rd_hist_range(h, n, GC_RD_INF) + h->inf;
}

int gc_rd_hist_next(const gc_rd_hist *h, size_t *it, uint64_t *lo, uint64_t *hi,
		    double *count)
{
	while (*it < h->nexact) {
		size_t d = (*it)++;
		if (h->exact[d]) {
			*lo = *hi = d;
			*count = h->exact[d];
			return 1;
		}
	}
	while (*it < h->nexact + GC_RD_BINS) {
		unsigned k = (unsigned)(*it - h->nexact);
		(*it)++;
		if (h->bin[k]) {
			*lo = UINT64_C(1) << k;
			*hi = k == 63 ? UINT64_MAX - 2 : (UINT64_C(2) << k) - 1;
			if (h->bound && *lo < h->bound)
				*lo = h->bound;
			*count = h->bin[k];
			return 1;
		}
	}
	return 0;
}

uint64_t gc_rd_hist_quantile(const gc_rd_hist *h, double q)
{
	double want = q * h->total, acc = 0;
	size_t it = 0;
	uint64_t lo, hi;
	double c;
	if (h->total <= 0)
		return GC_RD_INF;
	while (gc_rd_hist_next(h, &it, &lo, &hi, &c)) {
		acc += c;
		if (acc >= want * (1 - 1e-12))
			return hi;
	}
	return GC_RD_INF;
}

size_t gc_rd_hist_bytes(const gc_rd_hist *h)
{
	return h->nexact * sizeof *h->exact + sizeof *h;
}
