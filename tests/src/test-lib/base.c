/*
 * base.c - test-lib units of base/ and the L1 event wheel: the
 * generator, rows by key, the wheel against the heap.
 */
#include "base/bigmem.h"
#include "base/endian.h"
#include "base/grow.h"
#include "base/normal.h"
#include "base/rng.h"
#include "base/rowmap.h"
#include "import/import.h"
#include "model/l1queue.h"
#include "prog/gpuopt.h"
#include "prog/prog.h"
#include "report/json.h"
#include "stream/lines.h"
#include "stream/stream.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "check.h"
#include "test-lib/test-lib.h"

/* The event wheel gives the events in the heap's order, exactly: times
 * inside and outside its window, several events to a slot, orders out of
 * sequence within a slot, pops interleaved with pushes. */
void t_l1wheel(void)
{
	gc_l1queue h;
	gc_l1wheel w;
	gc_l1queue_init(&h);
	CHECK(gc_l1wheel_init(&w, 64) == 0);
	/* orders are unique (as gc-l1's): rising ones from 2^40 up, and
	 * out-of-sequence ones from 2^40 down */
	uint64_t rng = 12345, now = 0, order = UINT64_C(1) << 40, low = order, popped = 0;
	for (int step = 0; step < 200000; step++) {
		rng = rng * UINT64_C(6364136223846793005) + UINT64_C(1442695040888963407);
		unsigned r = (unsigned)(rng >> 33);
		if (r % 5 < 3) {
			/* mostly a little ahead, sometimes beyond the window; the
			 * order mostly rising, sometimes not */
			uint64_t t = now + (r % 7 == 0 ? 64 + r % 300 : r % 40);
			uint64_t o = r % 11 == 0 ? --low : ++order;
			uint32_t item = (uint32_t)step;
			CHECK(gc_l1queue_push(&h, t, o, item, r & 1) == 0);
			CHECK(gc_l1wheel_push(&w, t, o, item, r & 1) == 0);
		} else if (h.n) {
			const gc_l1event *a = gc_l1queue_top(&h), *b = gc_l1wheel_top(&w);
			if (!CHECK(b != NULL) || !CHECK(a->time == b->time && a->order == b->order &&
							a->item == b->item && a->kind == b->kind))
				break;
			now = a->time;
			gc_l1queue_pop(&h);
			gc_l1wheel_pop(&w);
			popped++;
		}
	}
	while (h.n) {
		const gc_l1event *a = gc_l1queue_top(&h), *b = gc_l1wheel_top(&w);
		if (!CHECK(b != NULL) || !CHECK(a->item == b->item))
			break;
		gc_l1queue_pop(&h);
		gc_l1wheel_pop(&w);
	}
	CHECK(gc_l1wheel_top(&w) == NULL);
	CHECK(popped > 50000);
	gc_l1queue_free(&h);
	gc_l1wheel_free(&w);
}

/* The rounded |normal| (base/normal.h) is libm's value, written out here
 * as gc-l1 drew it before the series: on draws at three sigmas, and at
 * points within the margin of a half-way point (taken to libm); the
 * series within 1e-14 of libm's log and |cos|. */
static uint64_t abs_normal_ref(double u1, double u2, double sigma)
{
	double z = sqrt(-2.0 * log(u1)) * cos(2.0 * M_PI * u2);
	return (uint64_t)llround(fabs(z) * sigma);
}

void t_abs_normal(void)
{
	static const double sigmas[] = {9, 1000, 0.25};
	uint64_t rng = 1, bad = 0;
	double elog = 0, ecos = 0;
	for (int i = 0; i < 300000; i++) {
		double u1 = ((double)(gc_splitmix64(&rng) >> 11) + 1.0) / 9007199254740992.0;
		double u2 = (double)(gc_splitmix64(&rng) >> 11) / 9007199254740992.0;
		double sigma = sigmas[i % 3];
		bad += gc_abs_normal_round(u1, u2, sigma) != abs_normal_ref(u1, u2, sigma);
		double el = fabs(gc_nrm_log(u1) - log(u1)), ec = fabs(gc_nrm_cos(u2) - fabs(cos(2.0 * M_PI * u2)));
		if (u1 < 1 && el / -log(u1) > elog)
			elog = el / -log(u1);
		if (ec > ecos)
			ecos = ec;
	}
	CHECK_U64(bad, 0);
	CHECK(elog < 1e-14);
	CHECK(ecos < 1e-14);
	/* z = (k + 1/2) / 9 as near as a double gets: the series put y = 9 z
	 * within the margin of k + 1/2, so libm decides */
	unsigned near = 0;
	bad = 0;
	static const double u2s[] = {0, 0.0625, 0.1875, 0.4375}; /* |cos| 1, 0.92, 0.38, 0.92 */
	for (int k = 0; k < 40; k++)
		for (int j = 0; j < 4; j++) {
			double u2 = u2s[j];
			double c = fabs(cos(2.0 * M_PI * u2)), z = (k + 0.5) / 9 / c;
			double u1 = exp(-z * z / 2);
			double y = sqrt(-2.0 * gc_nrm_log(u1)) * gc_nrm_cos(u2) * 9;
			near += fabs(y - (k + 0.5)) < 1e-9;
			bad += gc_abs_normal_round(u1, u2, 9) != abs_normal_ref(u1, u2, 9);
		}
	CHECK_U64(bad, 0);
	CHECK(near > 100);
}

/* splitmix64 against its definition: the first outputs from seed 0
 * (worked out by hand from the algorithm), and the ways of drawing them. */
void t_rng(void)
{
	static const uint64_t want[3] = {
		UINT64_C(0xe220a8397b1dcdaf), UINT64_C(0x6e789e6aa1b965f4),
		UINT64_C(0x06c45d188009454f)};
	uint64_t st = 0;
	for (int i = 0; i < 3; i++) {
		CHECK_U64(gc_splitmix64(&st), want[i]);
		CHECK_U64(gc_splitmix64_at(0, (uint64_t)i), want[i]);
	}
	CHECK_U64(st, 3 * GC_SPLITMIX64_GAMMA);
	/* Output i of any seed, in any order, is the sequence's i-th. */
	st = 12345;
	uint64_t seq[100];
	for (int i = 0; i < 100; i++)
		seq[i] = gc_splitmix64(&st);
	for (int i = 99; i >= 0; i -= 7)
		CHECK_U64(gc_splitmix64_at(12345, (uint64_t)i), seq[i]);
	/* The finaliser alone: output 0 of seed s is gc_mix64(s + gamma). */
	CHECK_U64(gc_mix64(GC_SPLITMIX64_GAMMA), want[0]);
	CHECK_U64(gc_mix64(0), 0);
	/* Uniform doubles: the top 53 bits of the output, in [0, 1). */
	st = 0;
	double u = gc_splitmix64_unit(&st);
	CHECK(u == (double)(want[0] >> 11) / 9007199254740992.0);
	CHECK(u >= 0 && u < 1);
	st = UINT64_MAX - GC_SPLITMIX64_GAMMA + 1; /* the state wraps to 0 */
	CHECK(gc_splitmix64_unit(&st) < 1.0);
}

struct trow {
	uint64_t key, hits;
	char pad[13];
};

/* Rows by key: order of first appearance, zeroed new rows, the remembered
 * last key, growth past the first allocation, forget and take. */
void t_rowmap(void)
{
	gc_rowmap m;
	gc_rowmap_init(&m, sizeof(struct trow), 2);
	CHECK_U64(gc_rowmap_count(&m), 0);
	/* Keys 0 and UINT64_MAX (the hash table's spare slot) are ordinary. */
	static const uint64_t keys[] = {7, 0, UINT64_MAX, 7, 7, 0, 42, UINT64_MAX, 9, 42};
	static const int news[] = {1, 1, 1, 0, 0, 0, 1, 0, 1, 0};
	for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
		int added = -1;
		struct trow *r = gc_rowmap_row(&m, keys[i], &added);
		if (!CHECK(r != NULL))
			return;
		CHECK_MSG(added == news[i], "key %zu: added %d, want %d", i, added, news[i]);
		if (added) {
			CHECK_U64(r->key, 0);
			CHECK_U64(r->hits, 0);
			r->key = keys[i];
		}
		r->hits++;
	}
	CHECK_U64(gc_rowmap_count(&m), 5);
	const struct trow *rows = gc_rowmap_rows(&m);
	static const uint64_t order[] = {7, 0, UINT64_MAX, 42, 9}, hits[] = {3, 2, 2, 2, 1};
	for (int i = 0; i < 5; i++) {
		CHECK_U64(rows[i].key, order[i]);
		CHECK_U64(rows[i].hits, hits[i]);
	}
	CHECK(gc_rowmap_row(&m, 9, NULL) == rows + 4);
	/* Forget: the rows stay, a key seen again gets a new row. */
	gc_rowmap_forget(&m);
	int added = 0;
	struct trow *r = gc_rowmap_row(&m, 9, &added);
	CHECK(added == 1 && r == (struct trow *)gc_rowmap_rows(&m) + 5);
	CHECK_U64(gc_rowmap_count(&m), 6);
	/* Many keys: indices stay right as the array and the table grow. */
	for (uint64_t k = 1000; k < 21000; k++) {
		r = gc_rowmap_row(&m, k * 0x9e3779b97f4a7c15u, NULL);
		if (!CHECK(r != NULL))
			break;
		r->key = k;
	}
	for (uint64_t k = 1000; k < 21000; k += 997) {
		r = gc_rowmap_row(&m, k * 0x9e3779b97f4a7c15u, &added);
		struct trow *want = (struct trow *)gc_rowmap_rows(&m) + 6 + (k - 1000);
		CHECK_MSG(!added && r->key == k && r == want, "key %llu", (unsigned long long)k);
	}
	size_t n;
	struct trow *own = gc_rowmap_take(&m, &n);
	CHECK_U64(n, 20006);
	CHECK_U64(own[0].key, 7);
	CHECK_U64(gc_rowmap_count(&m), 0);
	free(own);
	/* Empty again after take, and usable. */
	r = gc_rowmap_row(&m, 7, &added);
	CHECK(r && added && r->hits == 0);
	gc_rowmap_free(&m);
}

/* gc_grow: the first size, doubling until the need fits, the contents
 * kept, nothing done when it already fits, and NULL with the array as it
 * was when the bytes would overflow. */
void t_grow(void)
{
	size_t cap = 0;
	uint32_t *a = gc_grow(NULL, &cap, 1, sizeof *a, 16);
	if (!CHECK(a != NULL))
		return;
	CHECK_U64(cap, 16);
	for (uint32_t i = 0; i < 16; i++)
		a[i] = i * 7;
	CHECK(gc_grow(a, &cap, 16, sizeof *a, 16) == a);
	CHECK_U64(cap, 16);
	uint32_t *b = gc_grow(a, &cap, 17, sizeof *b, 16);
	if (!CHECK(b != NULL))
		return free(a);
	a = b;
	CHECK_U64(cap, 32);
	b = gc_grow(a, &cap, 100, sizeof *b, 16); /* 32 -> 64 -> 128 */
	if (!CHECK(b != NULL))
		return free(a);
	a = b;
	CHECK_U64(cap, 128);
	CHECK_U64(a[15], 105);
	CHECK(gc_grow(a, &cap, SIZE_MAX / 2, sizeof *a, 16) == NULL);
	CHECK(gc_grow(a, &cap, SIZE_MAX, 1, 16) == NULL);
	CHECK_U64(cap, 128);
	CHECK_U64(a[15], 105);
	free(a);
	size_t c0 = 0;
	char *c = gc_grow(NULL, &c0, 3, 1, 0); /* no first size: from 1 */
	CHECK_U64(c0, 4);
	free(c);
}

/* gc_big_calloc and gc_big_free around GC_BIG_MIN: below it calloc's
 * block, at it and above a mapping of its own, aligned to 2 MiB and
 * rounded to whole 2 MiB pages (its last byte and the rest of its last
 * page usable, the page after it not mapped); each zeroed, and gone once
 * freed (msync of an unmapped page fails with ENOMEM); NULL with ENOMEM
 * when the bytes overflow. */
void t_bigmem(void)
{
	static const size_t sizes[] = {0, 1, GC_BIG_MIN - 8, GC_BIG_MIN, GC_BIG_MIN + 8,
				       GC_BIG_PAGE, GC_BIG_PAGE + 8};
	for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
		size_t n = sizes[k] / 8;
		uint64_t *a = gc_big_calloc(n, sizeof *a);
		if (!CHECK(a != NULL))
			continue;
		uint64_t or = 0;
		for (size_t i = 0; i < n; i++)
			or |= a[i];
		CHECK_U64(or, 0);
		for (size_t i = 0; i < n; i++)
			a[i] = i + 1;
		CHECK_U64(n ? a[n - 1] : 0, n);
		uintptr_t at = (uintptr_t)a;
		int mapped = n * 8 >= GC_BIG_MIN;
		CHECK_U64(mapped && (at & (GC_BIG_PAGE - 1)) == 0, mapped);
		size_t len = (n * 8 + GC_BIG_PAGE - 1) & ~(GC_BIG_PAGE - 1);
		if (mapped) {
			((volatile char *)a)[len - 1] = 1; /* the rounded page is ours */
			CHECK_U64(msync((char *)a + len, 4096, MS_ASYNC) == -1 && errno == ENOMEM, 1);
		}
		gc_big_free(a, n, sizeof *a);
		if (mapped) {
			errno = 0;
			CHECK_U64(msync(a, 4096, MS_ASYNC) == -1 && errno == ENOMEM, 1);
		}
	}
	gc_big_free(NULL, GC_BIG_MIN, 1);
	errno = 0;
	CHECK(gc_big_calloc(SIZE_MAX / 4, 8) == NULL);
	CHECK_U64(errno, ENOMEM);
}

/* gc_bigpool: blocks carved from one 2 MiB page by halving, zeroed again
 * when reused after being written (gc_bigpool_alloc's left as they
 * were), two freed buddies joined (a whole page then fits where they
 * were, no second page), a table below GC_POOL_MIN calloc's and one
 * above 2 MiB a mapping of its own. */
void t_bigpool(void)
{
	gc_bigpool p;
	if (!CHECK(gc_bigpool_init(&p) == 0))
		return;
	size_t half = GC_BIG_PAGE / 2 / 8, q = half / 2; /* in words */
	uint64_t *a = gc_bigpool_calloc(&p, half, 8), *b = gc_bigpool_calloc(&p, q, 8),
		 *c = gc_bigpool_calloc(&p, q, 8);
	if (!CHECK(a && b && c))
		return;
	CHECK_U64(p.nchunk, 1);
	CHECK_U64((uintptr_t)a & (GC_BIG_PAGE - 1), 0);
	CHECK_U64((uintptr_t)b - (uintptr_t)a, GC_BIG_PAGE / 2);
	CHECK_U64((uintptr_t)c - (uintptr_t)b, GC_BIG_PAGE / 4);
	for (size_t i = 0; i < q; i++)
		b[i] = c[i] = i + 1;
	gc_bigpool_put(&p, b, q, 8);
	uint64_t *d = gc_bigpool_calloc(&p, q - 1, 8); /* b again, zeroed */
	uint64_t or = 0;
	for (size_t i = 0; i < q; i++)
		or |= d[i];
	CHECK(d == b);
	CHECK_U64(or, 0);
	d[q - 1] = 7;
	gc_bigpool_put(&p, d, q - 1, 8);
	d = gc_bigpool_alloc(&p, q, 8); /* b again, as left: _alloc does not zero */
	CHECK(d == b);
	CHECK_U64(d ? d[q - 1] : 0, 7);
	gc_bigpool_put(&p, d, q, 8);
	gc_bigpool_put(&p, c, q, 8);
	gc_bigpool_put(&p, a, half, 8); /* b+c, then a: the whole page */
	uint64_t *e = gc_bigpool_calloc(&p, 2 * half, 8);
	CHECK(e == a);
	CHECK_U64(p.nchunk, 1);
	gc_bigpool_put(&p, e, 2 * half, 8);
	uint64_t *s = gc_bigpool_calloc(&p, GC_POOL_MIN / 8 - 1, 8),
		 *l = gc_bigpool_calloc(&p, 2 * half + 1, 8);
	CHECK(s && l);
	CHECK_U64(p.nchunk, 1);
	CHECK_U64((uintptr_t)l & (GC_BIG_PAGE - 1), 0);
	CHECK_U64(l ? l[2 * half] : 1, 0);
	gc_bigpool_put(&p, s, GC_POOL_MIN / 8 - 1, 8);
	gc_bigpool_put(&p, l, 2 * half + 1, 8);
	gc_bigpool_free_all(&p);
	CHECK_U64(p.nchunk, 0);
}
