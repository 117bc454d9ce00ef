/*
 * proxy-test - unit tests of lib/proxy's distributions (pdist.c), the
 * profile and its anchors (profile.c) and its text form (profile_text.c),
 * as TAP (check.h); exit 1 if any failed.  `proxy-test NAME` runs one case
 * (2 when there is none of that name).  Every expected value is worked by
 * hand in the comment beside it.
 */
#include "base/rng.h"
#include "proxy/pdist.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

/* ---- helpers ---------------------------------------------------------- */

/* d's text form (a static buffer, overwritten by the next call). */
static const char *pd_text(const gc_pdist *d)
{
	static char buf[8192];
	FILE *f = fmemopen(buf, sizeof buf, "w");
	if (!f)
		return "(fmemopen failed)";
	int n = gc_pdist_write(f, d);
	fclose(f);
	return n < 0 ? "(write failed)" : buf;
}

/* Parse s into d, checking that it is accepted. */
static int pd_parse(const char *s, gc_pdist *d)
{
	char err[256] = "";
	const char *p = s;
	int r = gc_pdist_parse(&p, d, err, sizeof err);
	CHECK_MSG(r == 0, "parse '%s': %s", s, err);
	return r;
}

/* The distribution of builder b with max_exact, as text. */
static const char *finish_text(const gc_pdist_builder *b, uint32_t max_exact)
{
	gc_pdist d;
	gc_pdist_init(&d);
	if (gc_pdist_finish(b, max_exact, &d) < 0)
		return "(finish failed)";
	const char *s = pd_text(&d);
	gc_pdist_free(&d);
	return s;
}

/* ---- pdist: building -------------------------------------------------- */

static void t_pdist_lossless(void)
{
	/* 8 x3 then x1 more, -4 x1, 0 x2, two nones: 3 distinct values, at
	 * most 16 exact: every value exact, by descending count (8:4, 0:2,
	 * -4:1); total 4 + 2 + 1 + 2 nones = 9; no bins, align 1. */
	gc_pdist_builder b;
	CHECK(gc_pdist_builder_init(&b) == 0);
	CHECK(gc_pdist_add(&b, 8, 3) == 0);
	CHECK(gc_pdist_add(&b, -4, 1) == 0);
	CHECK(gc_pdist_add(&b, 0, 2) == 0);
	CHECK(gc_pdist_add(&b, 8, 1) == 0);
	CHECK(gc_pdist_add(&b, 77, 0) == 0); /* no samples: nothing */
	gc_pdist_add_none(&b, 2);
	CHECK_STR(finish_text(&b, 16), "total 9 none 2 align 1 exact 8:4,0:2,-4:1");
	/* Exactly max_exact distinct values is still lossless, counts of 1
	 * included. */
	CHECK_STR(finish_text(&b, 3), "total 9 none 2 align 1 exact 8:4,0:2,-4:1");
	gc_pdist_builder_clear(&b);
	CHECK_STR(finish_text(&b, 16), "total 0 none 0 align 1");
	gc_pdist_builder_free(&b);
}

static void t_pdist_bins(void)
{
	/* 64 x5, 128 x3, 4 x2, 96 x1, -48 x1; max_exact 2: 4 distinct values
	 * is lossy.  Seen twice: 64 (5), 128 (3), 4 (2); the top two are
	 * exact.  Binned: 4 x2 in +2 (4 <= 4 < 8), 96 in +6 (64 <= 96 < 128),
	 * -48 in -5 (32 <= 48 < 64).  align: the lowest bit of 4 | 96 | 48 =
	 * 4.  total 5 + 3 + 2 + 1 + 1 = 12. */
	gc_pdist_builder b;
	CHECK(gc_pdist_builder_init(&b) == 0);
	gc_pdist_add(&b, 64, 5);
	gc_pdist_add(&b, 128, 3);
	gc_pdist_add(&b, 4, 2);
	gc_pdist_add(&b, 96, 1);
	gc_pdist_add(&b, -48, 1);
	CHECK_STR(finish_text(&b, 2), "total 12 none 0 align 4 exact 64:5,128:3 bins +2:2,+6:1,-5:1");
	/* max_exact 3 takes 4 as well; the binned 96 and -48 give align 16. */
	CHECK_STR(finish_text(&b, 3),
		  "total 12 none 0 align 16 exact 64:5,128:3,4:2 bins +6:1,-5:1");
	/* 0 has no bin: seen once, it stays exact and takes one of the two
	 * places, so 128 x3 goes to +7 (128 <= 128 < 256); align of 128, 4,
	 * 96, 48: 4. */
	gc_pdist_add(&b, 0, 1);
	CHECK_STR(finish_text(&b, 2),
		  "total 13 none 0 align 4 exact 64:5,0:1 bins +2:2,+6:1,+7:3,-5:1");
	/* max_exact 0: 0 is still exact, alone. */
	CHECK_STR(finish_text(&b, 0),
		  "total 13 none 0 align 4 exact 0:1 bins +2:2,+6:6,+7:3,-5:1");
	gc_pdist_builder_clear(&b);

	/* The cap on align: binned values 2^22 and -3 * 2^21 give 2^21, more
	 * than 2^20. */
	gc_pdist_add(&b, 1, 2);
	gc_pdist_add(&b, INT64_C(1) << 22, 1);
	gc_pdist_add(&b, -3 * (INT64_C(1) << 21), 1);
	CHECK_STR(finish_text(&b, 1), "total 4 none 0 align 1048576 exact 1:2 bins +22:1,-22:1");
	gc_pdist_builder_clear(&b);

	/* The extremes: INT64_MIN is in -63, INT64_MAX in +62. */
	gc_pdist_add(&b, INT64_MIN, 1);
	gc_pdist_add(&b, INT64_MAX, 1);
	gc_pdist_add(&b, 1, 1);
	CHECK_STR(finish_text(&b, 1), "total 3 none 0 align 1 bins +0:1,+62:1,-63:1");
	gc_pdist_builder_free(&b);
}

static void t_pdist_track(void)
{
	/* 4096 distinct values (1024 * k, k = 1..4096) fill the map; 5000 *
	 * 1024 then goes straight to its bin, while 1024, tracked, still
	 * counts one by one, and 0 is counted whatever. */
	gc_pdist_builder b;
	CHECK(gc_pdist_builder_init(&b) == 0);
	for (int64_t k = 1; k <= GC_PDIST_TRACK; k++)
		CHECK(gc_pdist_add(&b, 1024 * k, 1) == 0);
	CHECK_U64(b.overflow, 0);
	gc_pdist_add(&b, 5000 * 1024, 3);
	CHECK_U64(b.overflow, 3);
	CHECK_U64(b.nbins[0][22], 3); /* 2^22 <= 5120000 < 2^23 */
	CHECK_U64(b.align_or, 5000 * 1024);
	gc_pdist_add(&b, 1024, 1);
	gc_pdist_add(&b, 0, 1);
	CHECK_U64(b.overflow, 3);
	CHECK_U64(gc_hmap_count(&b.counts), GC_PDIST_TRACK + 1);
	/* max_exact 1: 0 takes the only place (1024 x2 is binned); every
	 * binned value is a multiple of 1024, and 1024 itself has no higher
	 * bit: align 1024.  Bins: 1024 x2 in +10, 2048 and 3072 in +11, ...,
	 * 1024 * k in +(10 + log2 k).  Total 4096 + 3 + 1 + 1. */
	gc_pdist d;
	gc_pdist_init(&d);
	CHECK(gc_pdist_finish(&b, 1, &d) == 0);
	CHECK_U64(d.total, 4101);
	CHECK_U64(d.nexact, 1);
	CHECK_U64(d.align, 1024);
	CHECK_U64(d.nbin, 13); /* +10 .. +22 */
	CHECK_U64(d.bin[0].exp, 10);
	CHECK_U64(d.bin[0].cnt, 2);
	CHECK_U64(d.bin[1].cnt, 2);    /* 2, 3 */
	CHECK_U64(d.bin[11].cnt, 2048); /* k = 2048 .. 4095 */
	CHECK_U64(d.bin[12].cnt, 1 + 3); /* 4096, and 5000 x3 */
	gc_pdist_free(&d);
	gc_pdist_builder_free(&b);
}

static void t_pdist_order(void)
{
	/* Ties by ascending value: 7 x3 first, then -3, 1, 5 (x2 each). */
	gc_pdist_builder b;
	CHECK(gc_pdist_builder_init(&b) == 0);
	gc_pdist_add(&b, 5, 2);
	gc_pdist_add(&b, -3, 2);
	gc_pdist_add(&b, 7, 3);
	gc_pdist_add(&b, 1, 2);
	CHECK_STR(finish_text(&b, 16), "total 9 none 0 align 1 exact 7:3,-3:2,1:2,5:2");
	/* Lossy, max_exact 2: of the tied three the smallest, -3, is kept;
	 * bins + before -, ascending exponent: 1 in +0, 5 in +2, nothing -. */
	CHECK_STR(finish_text(&b, 2), "total 9 none 0 align 1 exact 7:3,-3:2 bins +0:2,+2:2");
	gc_pdist d;
	gc_pdist_init(&d);
	int64_t v = 99;
	CHECK(gc_pdist_mode(&d, &v) == 0 && v == 99); /* no exact value */
	CHECK(gc_pdist_finish(&b, 16, &d) == 0);
	CHECK(gc_pdist_mode(&d, &v) == 1 && v == 7);
	gc_pdist copy;
	CHECK(gc_pdist_copy(&copy, &d) == 0);
	CHECK_STR(pd_text(&copy), "total 9 none 0 align 1 exact 7:3,-3:2,1:2,5:2");
	CHECK(copy.cum == NULL);
	gc_pdist_free(&copy);
	gc_pdist_free(&d);
	gc_pdist_builder_free(&b);
}

static void t_pdist_merge(void)
{
	/* a: 3 x2, -8 x1, one none; b: 3 x1, 16 x4, two nones.  Merged: 16:4,
	 * 3:3, -8:1, 3 nones. */
	gc_pdist_builder a, b;
	CHECK(gc_pdist_builder_init(&a) == 0);
	CHECK(gc_pdist_builder_init(&b) == 0);
	gc_pdist_add(&a, 3, 2);
	gc_pdist_add(&a, -8, 1);
	gc_pdist_add_none(&a, 1);
	gc_pdist_add(&b, 3, 1);
	gc_pdist_add(&b, 16, 4);
	gc_pdist_add_none(&b, 2);
	/* b's overflow bins come along too: a fake one, -40 in -5. */
	b.nbins[1][5] = 1;
	b.overflow = 1;
	b.align_or = 40;
	CHECK(gc_pdist_merge(&a, &b) == 0);
	CHECK_STR(finish_text(&a, 16), "total 12 none 3 align 8 exact 16:4,3:3 bins -3:1,-5:1");
	gc_pdist_builder_free(&a);
	gc_pdist_builder_free(&b);
}

/* ---- pdist: drawing --------------------------------------------------- */

static void t_pdist_draw(void)
{
	gc_pdist d;
	gc_pdist_init(&d);
	int64_t v;
	/* total 4, 10 x3 and 20 x1: r = k * 2^62 is the point k of [0, 4),
	 * so k = 0, 1, 2 draw 10 and k = 3 draws 20. */
	pd_parse("total 4 none 0 align 1 exact 10:3,20:1", &d);
	CHECK(gc_pdist_prepare(&d) == 0);
	int64_t want[4] = {10, 10, 10, 20};
	for (uint64_t k = 0; k < 4; k++) {
		v = 0;
		CHECK_MSG(gc_pdist_draw(&d, k << 62, &v) == 1 && v == want[k], "k %llu: %lld",
			  (unsigned long long)k, (long long)v);
	}
	/* The last r of each quarter stays in it. */
	CHECK(gc_pdist_draw(&d, (UINT64_C(3) << 62) - 1, &v) == 1 && v == 10);
	CHECK(gc_pdist_draw(&d, UINT64_MAX, &v) == 1 && v == 20);

	/* none last: 10 x2, -7 x1, one none; k = 3 draws none. */
	pd_parse("total 4 none 1 align 1 exact 10:2,-7:1", &d);
	CHECK(gc_pdist_prepare(&d) == 0);
	CHECK(gc_pdist_draw(&d, 0, &v) == 1 && v == 10);
	CHECK(gc_pdist_draw(&d, UINT64_C(1) << 62, &v) == 1 && v == 10);
	CHECK(gc_pdist_draw(&d, UINT64_C(2) << 62, &v) == 1 && v == -7);
	v = 55;
	CHECK(gc_pdist_draw(&d, UINT64_C(3) << 62, &v) == 0 && v == 55);

	/* Bins +6 and -10 with align 16, 4 samples each: r = k * 2^61 for
	 * k < 4 is in +6, else in -10.  A draw from +6 is one of 64, 80, 96,
	 * 112; from -10 a multiple of 16 with 1024 <= |v| < 2048 (64 of
	 * them). */
	pd_parse("total 8 none 0 align 16 bins +6:4,-10:4", &d);
	CHECK(gc_pdist_prepare(&d) == 0);
	for (uint64_t k = 0; k < 8; k++) {
		CHECK(gc_pdist_draw(&d, k << 61, &v) == 1);
		CHECK_MSG(k < 4 ? v >= 64 && v < 128 : v <= -1024 && v > -2048, "k %llu: %lld",
			  (unsigned long long)k, (long long)v);
	}
	unsigned seen = 0, npos = 0, nneg = 0;
	uint64_t st = 42;
	for (int i = 0; i < 4000; i++) {
		CHECK(gc_pdist_draw(&d, gc_splitmix64(&st), &v) == 1);
		if (v > 0) {
			CHECK_MSG(v >= 64 && v < 128 && v % 16 == 0, "+6 drew %lld", (long long)v);
			seen |= 1u << ((v - 64) / 16);
			npos++;
		} else {
			CHECK_MSG(v <= -1024 && v > -2048 && v % 16 == 0, "-10 drew %lld",
				  (long long)v);
			nneg++;
		}
	}
	CHECK_MSG(seen == 0xf, "+6 draws cover 64, 80, 96, 112: %#x", seen);
	CHECK_MSG(npos > 1800 && nneg > 1800, "split %u/%u", npos, nneg);

	/* -63 holds -2^63 alone. */
	pd_parse("total 1 none 0 align 1 bins -63:1", &d);
	CHECK(gc_pdist_prepare(&d) == 0);
	CHECK(gc_pdist_draw(&d, 12345, &v) == 1 && v == INT64_MIN);
	gc_pdist_free(&d);

	/* A bin made by hand with no multiple of align (+2, align 16) draws
	 * 2^2 = 4. */
	gc_pbin bin = {-1, 2, 5};
	gc_pdist h;
	gc_pdist_init(&h);
	h.total = 5;
	h.align = 16;
	h.nbin = 1;
	h.bin = &bin;
	CHECK(gc_pdist_prepare(&h) == 0);
	CHECK(gc_pdist_draw(&h, UINT64_MAX / 3, &v) == 1 && v == -4);
	free(h.cum);
}

static void t_pdist_has(void)
{
	gc_pdist d;
	gc_pdist_init(&d);
	pd_parse("total 9 none 1 align 16 exact 8:3,-1:1 bins +6:2,-10:2", &d);
	CHECK(gc_pdist_has(&d, 8));
	CHECK(gc_pdist_has(&d, -1));
	CHECK(!gc_pdist_has(&d, 0));    /* none is no value */
	CHECK(gc_pdist_has(&d, 80));    /* +6, 80 = 5 * 16 */
	CHECK(gc_pdist_has(&d, 64));
	CHECK(!gc_pdist_has(&d, 72));   /* +6 but not a multiple of 16 */
	CHECK(!gc_pdist_has(&d, 128));  /* +7: no such bin */
	CHECK(!gc_pdist_has(&d, -80));  /* -6: no such bin */
	CHECK(gc_pdist_has(&d, -1024)); /* -10 */
	CHECK(gc_pdist_has(&d, -2032));
	CHECK(!gc_pdist_has(&d, -2048)); /* -11 */
	gc_pdist_free(&d);
}

/* ---- pdist: text ------------------------------------------------------ */

static void t_pdist_text(void)
{
	static const char *const good[] = {
		"total 0 none 0 align 1",
		"total 3 none 3 align 1",
		"total 9 none 1 align 16 exact 8:3,-1:1 bins +6:2,-10:2",
		"total 2 none 0 align 1 exact -9223372036854775808:1,9223372036854775807:1",
		"total 4 none 0 align 1048576 bins +20:1,+62:2,-63:1",
		"total 18446744073709551615 none 18446744073709551614 align 1 exact 0:1",
	};
	gc_pdist d;
	gc_pdist_init(&d);
	for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
		if (pd_parse(good[i], &d) == 0)
			CHECK_STR(pd_text(&d), good[i]);
	}
	/* Leading blanks skipped; *s left at the end of the line. */
	const char *s = "  total 1 none 0 align 1 exact 5:1\nnext";
	char err[200];
	CHECK(gc_pdist_parse(&s, &d, err, sizeof err) == 0);
	CHECK_STR(s, "\nnext");
	CHECK_U64(d.nexact, 1);
	gc_pdist_free(&d);
}

static void t_pdist_bad(void)
{
	static const char *const bad[][2] = {
		{"total 5 none 0 align 1 exact 1:3,2:1", "total: 5, but none, exact and bins add up to 4"},
		{"total 4 none 0 align 1 exact 1:1,2:3", "exact: 2:3 out of order"},
		{"total 4 none 0 align 1 exact 1:2,1:2", "exact: value 1 twice"},
		{"total 6 none 0 align 1 exact 1:3,2:2,1:1", "exact: value 1 twice"},
		{"total 4 none 0 align 1 exact 1:4,2:0", "exact: value 2: count 0"},
		{"total 3 none 0 align 2 bins +1:1,+1:2", "bins: +1 twice"},
		{"total 2 none 0 align 1 bins -1:1,+1:1", "bins: +1 out of order"},
		{"total 2 none 0 align 1 bins +3:1,+1:1", "bins: +1 out of order"},
		{"total 1 none 0 align 1 bins +64:1", "bins: +64: exponent out of range"},
		{"total 1 none 0 align 1 bins +63:1", "bins: +63: exponent out of range"},
		{"total 1 none 0 align 1 bins 3:1", "bins: item 1: want a sign"},
		{"total 1 none 0 align 3 bins +4:1", "align: 3 is not a power of two"},
		{"total 1 none 0 align 2097152 bins +30:1", "align: 2097152 is not a power of two up to 2^20"},
		{"total 1 none 0 align 32 bins +4:1", "bins: +4 holds no multiple of align 32"},
		{"total 1 none 0 align 2 exact 1:1", "align: 2 with no bins (want 1)"},
		{"total 1 none 0 align 1 exact 5:1 extra", "unexpected 'extra'"},
		{"total x none 0 align 1", "total: want"},
		{"total 1 nothing 0 align 1", "none: want"},
		{"total 1 none 0 align 1 exact 9223372036854775808:1", "exact: item 1: want a signed"},
		{"total 1 none 0 align 1 exact 5;1", "exact: item 1: want VALUE:COUNT"},
		{"total 18446744073709551616 none 0 align 1", "total: want"},
		{"total 1 none 0  align 1", "align: want"},
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		gc_pdist d;
		gc_pdist_init(&d);
		char err[256] = "";
		const char *s = bad[i][0];
		int r = gc_pdist_parse(&s, &d, err, sizeof err);
		CHECK_MSG(r == -1, "accepted '%s'", bad[i][0]);
		CHECK_MSG(strncmp(err, bad[i][1], strlen(bad[i][1])) == 0, "'%s': got '%s', want '%s...'",
			  bad[i][0], err, bad[i][1]);
		CHECK(d.val == NULL && d.bin == NULL && d.nexact == 0);
		gc_pdist_free(&d);
	}
}

static const check_unit units[] = {
	{"pdist-lossless", t_pdist_lossless},
	{"pdist-bins", t_pdist_bins},
	{"pdist-track", t_pdist_track},
	{"pdist-order", t_pdist_order},
	{"pdist-merge", t_pdist_merge},
	{"pdist-draw", t_pdist_draw},
	{"pdist-has", t_pdist_has},
	{"pdist-text", t_pdist_text},
	{"pdist-bad", t_pdist_bad},
};

int main(int argc, char **argv)
{
	return check_run(units, CHECK_NUNITS(units), argc > 1 ? argv[1] : NULL);
}
