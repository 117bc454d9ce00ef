/*
 * pdist.c - the distributions of a G-MAP profile (see pdist.h).
 *
 * Choices the header leaves to the code:
 *   - The value 0 has no log2 bin, so it is never binned: a builder counts
 *     it one by one even when it already tracks GC_PDIST_TRACK values, and
 *     a lossy finish keeps it exact whatever its count, in one of the
 *     max_exact places (the only exact value when max_exact is 0).
 *   - A draw takes the high 64 bits of r * total as its point in
 *     [0, total); inside a bin, the high 64 bits of gc_mix64(r) times the
 *     number of multiples of align in the bin pick one of them.
 *   - A bin holds a multiple of align only when 2^e >= align; the reader
 *     refuses one that does not, and a draw from such a bin (built by
 *     hand) returns 2^e with the bin's sign.  The bin +63 holds no 64-bit
 *     value and -63 only -2^63.
 *   - gc_pdist_parse leaves *s at the end of the line: at its newline (not
 *     past it) or at the NUL.  It takes no more than GC_PDIST_EXACT_MAX
 *     exact values, and no count of 0.
 */
#include "proxy/pdist.h"

#include "base/bits.h"
#include "base/rng.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* |v| as an unsigned value (2^63 for INT64_MIN). */
static uint64_t mag_of(int64_t v)
{
	return v < 0 ? UINT64_C(0) - (uint64_t)v : (uint64_t)v;
}

/* The value of sign s (+1, -1) and magnitude m (m <= 2^63 when s < 0). */
static int64_t val_of(int s, uint64_t m)
{
	if (s > 0)
		return (int64_t)m;
	return m == 0 ? 0 : -(int64_t)(m - 1) - 1;
}

void gc_pdist_init(gc_pdist *d)
{
	memset(d, 0, sizeof *d);
	d->align = 1;
}

void gc_pdist_free(gc_pdist *d)
{
	free(d->val);
	free(d->cnt);
	free(d->bin);
	free(d->cum);
	gc_pdist_init(d);
}

/* Room for nexact values and nbin bins (d empty); -1 out of memory. */
static int pdist_alloc(gc_pdist *d, uint32_t nexact, uint32_t nbin)
{
	if (nexact) {
		d->val = malloc(nexact * sizeof *d->val);
		d->cnt = malloc(nexact * sizeof *d->cnt);
		if (!d->val || !d->cnt)
			return -1;
	}
	if (nbin) {
		d->bin = malloc(nbin * sizeof *d->bin);
		if (!d->bin)
			return -1;
	}
	return 0;
}

int gc_pdist_copy(gc_pdist *dst, const gc_pdist *src)
{
	gc_pdist_init(dst);
	if (pdist_alloc(dst, src->nexact, src->nbin) < 0) {
		gc_pdist_free(dst);
		return -1;
	}
	dst->total = src->total;
	dst->none = src->none;
	dst->align = src->align;
	dst->nexact = src->nexact;
	dst->nbin = src->nbin;
	if (src->nexact) {
		memcpy(dst->val, src->val, src->nexact * sizeof *dst->val);
		memcpy(dst->cnt, src->cnt, src->nexact * sizeof *dst->cnt);
	}
	if (src->nbin)
		memcpy(dst->bin, src->bin, src->nbin * sizeof *dst->bin);
	return 0;
}

/* ---- builder ---------------------------------------------------------- */

int gc_pdist_builder_init(gc_pdist_builder *b)
{
	memset(b, 0, sizeof *b);
	return gc_hmap_init(&b->counts, 0);
}

void gc_pdist_builder_free(gc_pdist_builder *b)
{
	gc_hmap_free(&b->counts);
	memset(b, 0, sizeof *b);
}

void gc_pdist_builder_clear(gc_pdist_builder *b)
{
	gc_hmap_clear(&b->counts);
	b->none = 0;
	memset(b->nbins, 0, sizeof b->nbins);
	b->overflow = 0;
	b->align_or = 0;
}

/* n samples of the nonzero v into its bin. */
static void bin_add(gc_pdist_builder *b, int64_t v, uint64_t n)
{
	uint64_t m = mag_of(v);
	b->nbins[v < 0][gc_log2(m)] += n;
	b->overflow += n;
	b->align_or |= m;
}

int gc_pdist_add(gc_pdist_builder *b, int64_t v, uint64_t n)
{
	if (n == 0)
		return 0;
	uint64_t *c = gc_hmap_get(&b->counts, (uint64_t)v);
	if (!c && v != 0 && gc_hmap_count(&b->counts) >= GC_PDIST_TRACK) {
		bin_add(b, v, n);
		return 0;
	}
	if (!c && !(c = gc_hmap_put(&b->counts, (uint64_t)v, NULL)))
		return -1;
	*c += n;
	return 0;
}

void gc_pdist_add_none(gc_pdist_builder *b, uint64_t n)
{
	b->none += n;
}

int gc_pdist_merge(gc_pdist_builder *b, const gc_pdist_builder *from)
{
	size_t it = 0;
	uint64_t k, c;
	while (gc_hmap_next(&from->counts, &it, &k, &c))
		if (gc_pdist_add(b, (int64_t)k, c) < 0)
			return -1;
	for (int s = 0; s < 2; s++)
		for (int e = 0; e < 64; e++)
			b->nbins[s][e] += from->nbins[s][e];
	b->overflow += from->overflow;
	b->align_or |= from->align_or;
	b->none += from->none;
	return 0;
}

typedef struct vc {
	int64_t v;
	uint64_t c;
} vc;

/* Descending count, ties ascending value: the order of exact values. */
static int vc_cmp(const void *pa, const void *pb)
{
	const vc *a = pa, *b = pb;
	if (a->c != b->c)
		return a->c > b->c ? -1 : 1;
	return (a->v > b->v) - (a->v < b->v);
}

int gc_pdist_finish(const gc_pdist_builder *b, uint32_t max_exact, gc_pdist *d)
{
	gc_pdist_free(d);
	size_t n = gc_hmap_count(&b->counts), it = 0, i = 0;
	vc *a = n ? malloc(n * sizeof *a) : NULL;
	if (n && !a)
		return -1;
	uint64_t k, c;
	while (gc_hmap_next(&b->counts, &it, &k, &c) && i < n) {
		a[i].v = (int64_t)k;
		a[i++].c = c;
	}
	if (n)
		qsort(a, n, sizeof *a, vc_cmp);

	/* Which tracked values stay exact: every one when they fit and none
	 * overflowed; else 0 (it has no bin), then the most frequent of those
	 * seen twice.  The rest join the overflow bins. */
	uint64_t bins[2][64], align_or = b->align_or;
	memcpy(bins, b->nbins, sizeof bins);
	int lossless = n <= max_exact && b->overflow == 0;
	uint32_t nexact = lossless ? (uint32_t)n : 0;
	if (!lossless)
		for (i = 0; i < n; i++)
			nexact += a[i].v == 0;
	for (i = 0; i < n && !lossless; i++) {
		if (a[i].v == 0)
			continue;
		if (a[i].c >= 2 && nexact < max_exact) {
			nexact++;
			continue;
		}
		uint64_t m = mag_of(a[i].v);
		bins[a[i].v < 0][gc_log2(m)] += a[i].c;
		align_or |= m;
		a[i].c = 0; /* binned */
	}

	uint32_t nbin = 0;
	for (int s = 0; s < 2; s++)
		for (int e = 0; e < 64; e++)
			nbin += bins[s][e] != 0;
	if (pdist_alloc(d, nexact, nbin) < 0) {
		free(a);
		gc_pdist_free(d);
		return -1;
	}
	d->none = b->none;
	d->total = b->none;
	for (i = 0; i < n; i++) {
		if (a[i].c == 0)
			continue;
		d->val[d->nexact] = a[i].v;
		d->cnt[d->nexact++] = a[i].c;
		d->total += a[i].c;
	}
	for (int s = 0; s < 2; s++)
		for (int e = 0; e < 64; e++) {
			if (!bins[s][e])
				continue;
			gc_pbin *p = &d->bin[d->nbin++];
			p->sign = s ? -1 : 1;
			p->exp = (uint8_t)e;
			p->cnt = bins[s][e];
			d->total += bins[s][e];
		}
	d->align = 1;
	if (nbin) {
		uint64_t low = align_or & (UINT64_C(0) - align_or);
		d->align = low > GC_PDIST_ALIGN_MAX ? GC_PDIST_ALIGN_MAX : low;
	}
	free(a);
	return 0;
}

/* ---- drawing ---------------------------------------------------------- */

int gc_pdist_mode(const gc_pdist *d, int64_t *v)
{
	if (d->nexact == 0)
		return 0;
	*v = d->val[0];
	return 1;
}

int gc_pdist_prepare(gc_pdist *d)
{
	free(d->cum);
	size_t n = (size_t)d->nexact + d->nbin + 1;
	d->cum = malloc(n * sizeof *d->cum);
	if (!d->cum)
		return -1;
	uint64_t s = 0;
	size_t j = 0;
	for (uint32_t i = 0; i < d->nexact; i++)
		d->cum[j++] = s += d->cnt[i];
	for (uint32_t i = 0; i < d->nbin; i++)
		d->cum[j++] = s += d->bin[i].cnt;
	d->cum[j] = s + d->none;
	return 0;
}

/* The high 64 bits of a * b: a uniform point of [0, b) for a uniform a. */
static uint64_t mul_hi(uint64_t a, uint64_t b)
{
	return (uint64_t)(((unsigned __int128)a * b) >> 64);
}

/* The largest magnitude a value of sign s has in bin e. */
static uint64_t bin_top(int s, unsigned e)
{
	uint64_t top = e == 63 ? UINT64_MAX : (UINT64_C(2) << e) - 1;
	uint64_t lim = s > 0 ? (uint64_t)INT64_MAX : UINT64_C(1) << 63;
	return top < lim ? top : lim;
}

int gc_pdist_draw(const gc_pdist *d, uint64_t r, int64_t *v)
{
	uint64_t x = mul_hi(r, d->total);
	/* The first entry whose cumulative count exceeds x. */
	size_t lo = 0, hi = (size_t)d->nexact + d->nbin;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (d->cum[mid] > x)
			hi = mid;
		else
			lo = mid + 1;
	}
	if (lo < d->nexact) {
		*v = d->val[lo];
		return 1;
	}
	if (lo == (size_t)d->nexact + d->nbin)
		return 0;
	const gc_pbin *b = &d->bin[lo - d->nexact];
	uint64_t bot = UINT64_C(1) << b->exp, top = bin_top(b->sign, b->exp);
	if (d->align > bot || top < bot) {
		*v = val_of(b->sign, bot);
		return 1;
	}
	/* Multiples of align from bot (a multiple: align <= bot, powers of
	 * two) up to top. */
	uint64_t n = (top - bot) / d->align + 1;
	*v = val_of(b->sign, bot + mul_hi(gc_mix64(r), n) * d->align);
	return 1;
}

int gc_pdist_has(const gc_pdist *d, int64_t v)
{
	for (uint32_t i = 0; i < d->nexact; i++)
		if (d->val[i] == v)
			return 1;
	if (v == 0)
		return 0;
	uint64_t m = mag_of(v);
	int s = v < 0 ? -1 : 1;
	unsigned e = gc_log2(m);
	for (uint32_t i = 0; i < d->nbin; i++)
		if (d->bin[i].sign == s && d->bin[i].exp == e)
			return d->bin[i].cnt > 0 && m % d->align == 0;
	return 0;
}

/* ---- text ------------------------------------------------------------- */

int gc_pdist_write(FILE *f, const gc_pdist *d)
{
	int n = fprintf(f, "total %llu none %llu align %llu", (unsigned long long)d->total,
			(unsigned long long)d->none, (unsigned long long)d->align);
	if (n < 0)
		return n;
	int sum = n;
	for (uint32_t i = 0; i < d->nexact; i++) {
		n = fprintf(f, "%s%lld:%llu", i ? "," : " exact ", (long long)d->val[i],
			    (unsigned long long)d->cnt[i]);
		if (n < 0)
			return n;
		sum += n;
	}
	for (uint32_t i = 0; i < d->nbin; i++) {
		n = fprintf(f, "%s%c%u:%llu", i ? "," : " bins ", d->bin[i].sign > 0 ? '+' : '-',
			    (unsigned)d->bin[i].exp, (unsigned long long)d->bin[i].cnt);
		if (n < 0)
			return n;
		sum += n;
	}
	return sum;
}

__attribute__((format(printf, 3, 4)))
static int fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list a;
	va_start(a, fmt);
	if (errlen)
		vsnprintf(err, errlen, fmt, a);
	va_end(a);
	return -1;
}

static int at_eol(const char *s)
{
	return *s == '\0' || *s == '\n';
}

/* An unsigned decimal at *s (digits only); -1 when there is none or it
 * overflows. */
static int get_u64(const char **s, uint64_t *out)
{
	const char *p = *s;
	uint64_t v = 0;
	if (*p < '0' || *p > '9')
		return -1;
	for (; *p >= '0' && *p <= '9'; p++) {
		unsigned dgt = (unsigned)(*p - '0');
		if (v > (UINT64_MAX - dgt) / 10)
			return -1;
		v = v * 10 + dgt;
	}
	*out = v;
	*s = p;
	return 0;
}

/* A signed decimal: an optional '-' and digits, in int64_t's range. */
static int get_i64(const char **s, int64_t *out)
{
	const char *p = *s;
	int neg = *p == '-';
	uint64_t m;
	p += neg;
	if (get_u64(&p, &m) < 0)
		return -1;
	if (neg ? m > UINT64_C(1) << 63 : m > (uint64_t)INT64_MAX)
		return -1;
	*out = val_of(neg ? -1 : 1, m);
	*s = p;
	return 0;
}

/* The keyword kw and one space after it at *s. */
static int get_kw(const char **s, const char *kw)
{
	size_t n = strlen(kw);
	if (strncmp(*s, kw, n) != 0 || (*s)[n] != ' ')
		return -1;
	*s += n + 1;
	return 0;
}

/* Items of a comma-separated list starting at s (up to a blank or the
 * end of the line). */
static uint32_t list_items(const char *s)
{
	uint32_t n = 1;
	for (; *s != ' ' && !at_eol(s); s++)
		n += *s == ',';
	return n;
}

static int i64_cmp(const void *pa, const void *pb)
{
	int64_t a = *(const int64_t *)pa, b = *(const int64_t *)pb;
	return (a > b) - (a < b);
}

/* Add c to *sum; -1 when it overflows. */
static int add_count(uint64_t *sum, uint64_t c)
{
	if (*sum > UINT64_MAX - c)
		return -1;
	*sum += c;
	return 0;
}

static int parse_exact(const char **s, gc_pdist *d, uint64_t *sum, char *err, size_t errlen)
{
	uint32_t n = list_items(*s);
	if (n > GC_PDIST_EXACT_MAX)
		return fail(err, errlen, "exact: %u values, more than %u", n, GC_PDIST_EXACT_MAX);
	d->val = malloc(n * sizeof *d->val);
	d->cnt = malloc(n * sizeof *d->cnt);
	if (!d->val || !d->cnt)
		return fail(err, errlen, "exact: out of memory");
	const char *p = *s;
	for (uint32_t i = 0; i < n; i++) {
		int64_t v;
		uint64_t c;
		if (i && *p++ != ',')
			return fail(err, errlen, "exact: item %u: want ','", i + 1);
		if (get_i64(&p, &v) < 0)
			return fail(err, errlen, "exact: item %u: want a signed 64-bit value", i + 1);
		if (*p++ != ':' || get_u64(&p, &c) < 0)
			return fail(err, errlen, "exact: item %u: want VALUE:COUNT", i + 1);
		if (c == 0)
			return fail(err, errlen, "exact: value %lld: count 0", (long long)v);
		if (i && (c > d->cnt[i - 1] || (c == d->cnt[i - 1] && v <= d->val[i - 1]))) {
			if (v == d->val[i - 1])
				return fail(err, errlen, "exact: value %lld twice", (long long)v);
			return fail(err, errlen,
				    "exact: %lld:%llu out of order (descending count, ties ascending value)",
				    (long long)v, (unsigned long long)c);
		}
		if (add_count(sum, c) < 0)
			return fail(err, errlen, "exact: counts overflow");
		d->val[i] = v;
		d->cnt[i] = c;
		d->nexact = i + 1;
	}
	/* A value twice with different counts is not next to itself. */
	int64_t *sorted = malloc(n * sizeof *sorted);
	if (!sorted)
		return fail(err, errlen, "exact: out of memory");
	memcpy(sorted, d->val, n * sizeof *sorted);
	qsort(sorted, n, sizeof *sorted, i64_cmp);
	for (uint32_t i = 1; i < n; i++)
		if (sorted[i] == sorted[i - 1]) {
			long long v = (long long)sorted[i];
			free(sorted);
			return fail(err, errlen, "exact: value %lld twice", v);
		}
	free(sorted);
	*s = p;
	return 0;
}

static int parse_bins(const char **s, gc_pdist *d, uint64_t *sum, char *err, size_t errlen)
{
	uint32_t n = list_items(*s);
	if (n > 128)
		return fail(err, errlen, "bins: %u bins, more than 128", n);
	d->bin = malloc(n * sizeof *d->bin);
	if (!d->bin)
		return fail(err, errlen, "bins: out of memory");
	const char *p = *s;
	for (uint32_t i = 0; i < n; i++) {
		uint64_t e, c;
		if (i && *p++ != ',')
			return fail(err, errlen, "bins: item %u: want ','", i + 1);
		char sc = *p++;
		if (sc != '+' && sc != '-')
			return fail(err, errlen, "bins: item %u: want a sign, + or -", i + 1);
		if (get_u64(&p, &e) < 0 || *p++ != ':' || get_u64(&p, &c) < 0)
			return fail(err, errlen, "bins: item %u: want +E:COUNT or -E:COUNT", i + 1);
		if (e > 63 || (e == 63 && sc == '+'))
			return fail(err, errlen, "bins: %c%llu: exponent out of range (0..62, -63)", sc,
				    (unsigned long long)e);
		if (c == 0)
			return fail(err, errlen, "bins: %c%llu: count 0", sc, (unsigned long long)e);
		int sign = sc == '+' ? 1 : -1;
		if (i) {
			const gc_pbin *q = &d->bin[i - 1];
			if (q->sign == sign && q->exp == e)
				return fail(err, errlen, "bins: %c%llu twice", sc, (unsigned long long)e);
			if (q->sign < sign || (q->sign == sign && q->exp > e))
				return fail(err, errlen,
					    "bins: %c%llu out of order (+ before -, ascending exponent)",
					    sc, (unsigned long long)e);
		}
		if (add_count(sum, c) < 0)
			return fail(err, errlen, "bins: counts overflow");
		d->bin[i].sign = (int8_t)sign;
		d->bin[i].exp = (uint8_t)e;
		d->bin[i].cnt = c;
		d->nbin = i + 1;
	}
	*s = p;
	return 0;
}

static int parse_body(const char **s, gc_pdist *d, char *err, size_t errlen)
{
	const char *p = *s;
	while (*p == ' ' || *p == '\t')
		p++;
	if (get_kw(&p, "total") < 0 || get_u64(&p, &d->total) < 0)
		return fail(err, errlen, "total: want 'total COUNT'");
	if (*p++ != ' ' || get_kw(&p, "none") < 0 || get_u64(&p, &d->none) < 0)
		return fail(err, errlen, "none: want ' none COUNT' after total");
	if (*p++ != ' ' || get_kw(&p, "align") < 0 || get_u64(&p, &d->align) < 0)
		return fail(err, errlen, "align: want ' align A' after none");
	if (!gc_is_pow2(d->align) || d->align > GC_PDIST_ALIGN_MAX)
		return fail(err, errlen, "align: %llu is not a power of two up to 2^20",
			    (unsigned long long)d->align);
	uint64_t sum = d->none;
	if (*p == ' ' && strncmp(p + 1, "exact ", 6) == 0) {
		p += 7;
		if (parse_exact(&p, d, &sum, err, errlen) < 0)
			return -1;
	}
	if (*p == ' ' && strncmp(p + 1, "bins ", 5) == 0) {
		p += 6;
		if (parse_bins(&p, d, &sum, err, errlen) < 0)
			return -1;
	}
	if (!at_eol(p))
		return fail(err, errlen, "unexpected '%.20s' after the distribution", p + (*p == ' '));
	if (d->nbin == 0 && d->align != 1)
		return fail(err, errlen, "align: %llu with no bins (want 1)",
			    (unsigned long long)d->align);
	for (uint32_t i = 0; i < d->nbin; i++)
		if ((UINT64_C(1) << d->bin[i].exp) < d->align)
			return fail(err, errlen, "bins: %c%u holds no multiple of align %llu",
				    d->bin[i].sign > 0 ? '+' : '-', (unsigned)d->bin[i].exp,
				    (unsigned long long)d->align);
	if (sum != d->total)
		return fail(err, errlen, "total: %llu, but none, exact and bins add up to %llu",
			    (unsigned long long)d->total, (unsigned long long)sum);
	*s = p;
	return 0;
}

int gc_pdist_parse(const char **s, gc_pdist *d, char *err, size_t errlen)
{
	gc_pdist_free(d);
	if (parse_body(s, d, err, errlen) < 0) {
		gc_pdist_free(d);
		return -1;
	}
	return 0;
}
