/*
 * proxy-test - unit tests of lib/proxy's distributions (pdist.c), the
 * profile and its anchors (profile.c) and its text form (profile_text.c),
 * as TAP (check.h); exit 1 if any failed.  `proxy-test NAME` runs one case
 * (2 when there is none of that name); `proxy-test parse FILE` reads a
 * profile and writes it back (tests/proxy-lib.bats: the manual's example).
 * Every expected value is worked by hand in the comment beside it.
 */
#include "base/rng.h"
#include "proxy/pdist.h"
#include "proxy/profile.h"

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


/* ---- profile: text ---------------------------------------------------- */

/* Two kernels: the first with attributes, two instructions (the first
 * with three contexts of P_E), two profiles (one with grouped entries,
 * one empty) and three runs; the second with no name, no instruction and
 * one empty profile.  Line numbers below count from this text. */
static const char good_profile[] =
	"gc-profile 1\n"                               /*  1 */
	"warp_size 32\n"                               /*  2 */
	"source_format accelsim\n"                     /*  3 */
	"similarity 0.9\n"                             /*  4 */
	"max_exact 16\n"                               /*  5 */
	"reuse_depth 16\n"                             /*  6 */
	"max_profiles 64\n"                            /*  7 */
	"max_runs 64\n"                                /*  8 */
	"obfuscated 0\n"                               /*  9 */
	"kernels 2\n"                                  /* 10 */
	"kernel 1 vecadd(float*, float*)\n"            /* 11 */
	"grid 2 1 1\n"                                 /* 12 */
	"block 4 2 1\n"                                /* 13 */
	"regs 16\n"                                    /* 14 */
	"shmem 0\n"                                    /* 15 */
	"attr 1 120\n"                                 /* 16 */
	"attr 4 70\n"                                  /* 17 */
	"threads 16\n"                                 /* 18 */
	"accesses 40\n"                                /* 19 */
	"insts 2\n"                                    /* 20 */
	"inst 0 pc 0x10 op load space global flags 0 size 4 base 0x7f0000001000 extent 0 64 accesses 32\n"
	"pe 0 bx total 1 none 0 align 1 exact 256:1\n" /* 22 */
	"pe 0 ty total 2 none 0 align 1 exact 64:2\n"  /* 23 */
	"pe 0 tx total 12 none 0 align 1 exact 4:12\n" /* 24 */
	"pa 0 total 16 none 0 align 1 exact 4:16\n"    /* 25 */
	"inst 1 pc 0x28 op store space global flags 1 size 8 base 0x7f0000100000 extent -8 120 accesses 8\n"
	"pa 1 total 0 none 0 align 1\n"                /* 27 */
	"profiles 2\n"                                 /* 28 */
	"profile 0 threads 12 len 7 0/3*2 (0/1,1/2)*2 1/5\n"
	"pr 0 total 6 none 2 align 1 exact 0:3,1:1\n"  /* 30 */
	"profile 1 threads 4 len 0\n"                  /* 31 */
	"pr 1 total 0 none 0 align 1\n"                /* 32 */
	"runs 3\n"                                     /* 33 */
	"run 0 0\n"                                    /* 34 */
	"run 8 1\n"                                    /* 35 */
	"run 12 0\n"                                   /* 36 */
	"end kernel 1\n"                               /* 37 */
	"kernel 2\n"                                   /* 38 */
	"grid 1 1 1\n"                                 /* 39 */
	"block 32 1 1\n"                               /* 40 */
	"regs 8\n"                                     /* 41 */
	"shmem 1024\n"                                 /* 42 */
	"threads 32\n"                                 /* 43 */
	"accesses 0\n"                                 /* 44 */
	"insts 0\n"                                    /* 45 */
	"profiles 1\n"                                 /* 46 */
	"profile 0 threads 32 len 0\n"                 /* 47 */
	"pr 0 total 0 none 0 align 1\n"                /* 48 */
	"runs 0\n"                                     /* 49 */
	"end kernel 2\n"                               /* 50 */
	"end\n";                                       /* 51 */

/* p's text form (malloc'd; NULL on failure). */
static char *prof_text(const gc_profile *p)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (!f)
		return NULL;
	int r = gc_profile_write(f, p);
	fclose(f);
	CHECK(r == 0);
	return buf;
}

static int prof_parse(const char *text, gc_profile *p)
{
	char err[512] = "";
	int r = gc_profile_parse(text, strlen(text), "t", p, err, sizeof err);
	CHECK_MSG(r == 0, "parse: %s", err);
	return r;
}

static void set_dist(gc_pdist *d, const char *s)
{
	gc_pdist_init(d);
	pd_parse(s, d);
}

/* good_profile built field by field. */
static void build_profile(gc_profile *p)
{
	gc_profile_init(p);
	p->warp_size = 32;
	strcpy(p->source_format, "accelsim");
	p->similarity = 0.9;
	p->max_exact = 16;
	p->reuse_depth = 16;
	p->max_profiles = 64;
	p->max_runs = 64;

	gc_pkernel k;
	memset(&k, 0, sizeof k);
	gc_kernel_init(&k.k, 1, "vecadd(float*, float*)");
	k.k.grid[0] = 2;
	k.k.block[0] = 4;
	k.k.block[1] = 2;
	k.k.regs = 16;
	gc_kernel_set_attr(&k.k, GC_A_INSTS, 120);
	gc_kernel_set_attr(&k.k, GC_A_BINARY, 70);
	k.threads = 16;
	k.accesses = 40;
	k.ninst = 2;
	k.inst = calloc(2, sizeof *k.inst);
	for (int i = 0; i < 2; i++)
		for (int c = 0; c < GC_PE_NCTX; c++)
			gc_pdist_init(&k.inst[i].pe[c]);
	gc_pinst *in = &k.inst[0];
	in->pc = 0x10;
	in->op = GC_LOAD;
	in->space = GC_GLOBAL;
	in->size = 4;
	in->base = UINT64_C(0x7f0000001000);
	in->lo = 0;
	in->hi = 64;
	in->accesses = 32;
	set_dist(&in->pe[GC_PE_BX], "total 1 none 0 align 1 exact 256:1");
	set_dist(&in->pe[GC_PE_TY], "total 2 none 0 align 1 exact 64:2");
	set_dist(&in->pe[GC_PE_TX], "total 12 none 0 align 1 exact 4:12");
	set_dist(&in->pa, "total 16 none 0 align 1 exact 4:16");
	in = &k.inst[1];
	in->pc = 0x28;
	in->op = GC_STORE;
	in->space = GC_GLOBAL;
	in->flags = 1;
	in->size = 8;
	in->base = UINT64_C(0x7f0000100000);
	in->lo = -8;
	in->hi = 120;
	in->accesses = 8;
	gc_pdist_init(&in->pa);
	k.nprof = 2;
	k.prof = calloc(2, sizeof *k.prof);
	static const gc_pentry e[7] = {{0, 3}, {0, 3}, {0, 1}, {1, 2}, {0, 1}, {1, 2}, {1, 5}};
	k.prof[0].threads = 12;
	k.prof[0].len = 7;
	k.prof[0].e = malloc(sizeof e);
	memcpy(k.prof[0].e, e, sizeof e);
	set_dist(&k.prof[0].pr, "total 6 none 2 align 1 exact 0:3,1:1");
	k.prof[1].threads = 4;
	gc_pdist_init(&k.prof[1].pr);
	k.nrun = 3;
	k.run = calloc(3, sizeof *k.run);
	k.run[1].first = 8;
	k.run[1].prof = 1;
	k.run[2].first = 12;
	CHECK(gc_profile_add_kernel(p, &k) == 0);
	CHECK(k.inst == NULL && k.ninst == 0); /* moved */

	gc_kernel_init(&k.k, 2, "");
	k.k.block[0] = 32;
	k.k.regs = 8;
	k.k.shmem = 1024;
	k.threads = 32;
	k.nprof = 1;
	k.prof = calloc(1, sizeof *k.prof);
	k.prof[0].threads = 32;
	gc_pdist_init(&k.prof[0].pr);
	CHECK(gc_profile_add_kernel(p, &k) == 0);
	CHECK_U64(p->nkernel, 2);
}

static void t_profile_text(void)
{
	gc_profile p, q;
	build_profile(&p);
	char *t = prof_text(&p);
	CHECK_STR(t, good_profile);
	/* Read back: the same fields, and written again byte for byte. */
	if (prof_parse(good_profile, &q) == 0) {
		char *t2 = prof_text(&q);
		CHECK_STR(t2, good_profile);
		free(t2);
		CHECK_STR(q.source_format, "accelsim");
		CHECK(q.similarity == 0.9);
		CHECK_U64(q.nkernel, 2);
		const gc_pkernel *k = &q.kern[0];
		CHECK_STR(k->k.name, "vecadd(float*, float*)");
		CHECK_U64(k->k.nattr, 2);
		CHECK_U64(k->inst[0].base, 0x7f0000001000);
		CHECK_U64(k->inst[1].lo, -8);
		CHECK_U64(k->inst[0].pe[GC_PE_BX].val[0], 256);
		CHECK_U64(k->inst[0].pe[GC_PE_BY].total, 0);
		CHECK_U64(k->inst[0].pe[GC_PE_BY].align, 1);
		CHECK_U64(k->prof[0].len, 7);
		CHECK(memcmp(k->prof[0].e, p.kern[0].prof[0].e, 7 * sizeof(gc_pentry)) == 0);
		CHECK_U64(k->run[2].first, 12);
		CHECK_STR(q.kern[1].k.name, "");
		gc_profile_free(&q);
	}
	free(t);
	gc_profile_free(&p);
	CHECK(p.kern == NULL && p.nkernel == 0);

	/* Comments and blank lines anywhere are skipped; "-" is no source
	 * format; no text at all is cut short at line 1. */
	char *c = malloc(sizeof good_profile + 200);
	strcpy(c, "# a comment\n\n");
	strcat(c, good_profile);
	strcat(c, "  \n# trailing comment\n");
	char *at = strstr(c, "insts 2\n");
	memmove(at + 13, at, strlen(at) + 1);
	memcpy(at, "  # indented\n", 13);
	if (prof_parse(c, &q) == 0) {
		char *t2 = prof_text(&q);
		CHECK_STR(t2, good_profile);
		free(t2);
		gc_profile_free(&q);
	}
	free(c);
	char err[200];
	CHECK(gc_profile_parse("", 0, "empty", &q, err, sizeof err) == -1);
	CHECK_STR(err, "empty: line 1: cut short: the text ends where 'gc-profile' is wanted");
	gc_profile_init(&p);
	p.reuse_depth = 8;
	t = prof_text(&p);
	CHECK_STR(t, "gc-profile 1\nwarp_size 32\nsource_format -\nsimilarity 0\nmax_exact 16\n"
		     "reuse_depth 8\nmax_profiles 0\nmax_runs 0\nobfuscated 0\nkernels 0\nend\n");
	if (prof_parse(t, &q) == 0) {
		CHECK_STR(q.source_format, "");
		gc_profile_free(&q);
	}
	free(t);
}

/* The entries line profile 0 of kernel 1 gets from e[0..n). */
static char *entries_text(const gc_pentry *e, uint32_t n)
{
	gc_profile p;
	build_profile(&p);
	gc_pprof *pr = &p.kern[0].prof[0];
	free(pr->e);
	pr->e = malloc(n * sizeof *e);
	memcpy(pr->e, e, n * sizeof *e);
	pr->len = n;
	char *t = prof_text(&p);
	gc_profile_free(&p);
	char *line = t ? strstr(t, "profile 0 threads 12 ") : NULL;
	char *out = NULL;
	if (line) {
		line += strlen("profile 0 threads 12 ");
		out = strndup(line, strcspn(line, "\n"));
	}
	free(t);
	return out;
}

static void t_profile_entries(void)
{
	/* A = 0/1, B = 1/2.  ABABABA: period 2 covers 6 -> (A,B)*3, then A. */
	gc_pentry ab[7] = {{0, 1}, {1, 2}, {0, 1}, {1, 2}, {0, 1}, {1, 2}, {0, 1}};
	char *s = entries_text(ab, 7);
	CHECK_STR(s, "len 7 (0/1,1/2)*3 0/1");
	free(s);
	/* AAAA: periods 1 and 2 both cover 4; the smaller wins. */
	gc_pentry a4[4] = {{0, 1}, {0, 1}, {0, 1}, {0, 1}};
	s = entries_text(a4, 4);
	CHECK_STR(s, "len 4 0/1*4");
	free(s);
	/* AABAABAAB: period 1 covers 2, period 3 covers 9. */
	gc_pentry aab[9] = {{0, 1}, {0, 1}, {1, 2}, {0, 1}, {0, 1}, {1, 2}, {0, 1}, {0, 1}, {1, 2}};
	s = entries_text(aab, 9);
	CHECK_STR(s, "len 9 (0/1,0/1,1/2)*3");
	free(s);
	/* A period of 17 is past 16: 34 entries, A then 16 B's, twice:
	 * A, B*16, A, B*16. */
	gc_pentry p17[34];
	for (int i = 0; i < 34; i++)
		p17[i] = i % 17 ? (gc_pentry){1, 2} : (gc_pentry){0, 1};
	s = entries_text(p17, 34);
	CHECK_STR(s, "len 34 0/1 1/2*16 0/1 1/2*16");
	free(s);
	/* Nothing repeats: single entries; a period of 16 is found. */
	gc_pentry one[3] = {{0, 1}, {1, 1}, {0, 2}};
	s = entries_text(one, 3);
	CHECK_STR(s, "len 3 0/1 1/1 0/2");
	free(s);
	gc_pentry p16[32];
	for (int i = 0; i < 32; i++)
		p16[i] = (gc_pentry){(uint32_t)(i % 16 == 15), (uint32_t)(i % 16)};
	s = entries_text(p16, 32);
	CHECK_STR(s, "len 32 (0/0,0/1,0/2,0/3,0/4,0/5,0/6,0/7,0/8,0/9,0/10,0/11,0/12,0/13,0/14,1/15)*2");
	free(s);
	/* Read back, an entries line expands to the same entries. */
	gc_profile p;
	const char *from = "profile 0 threads 12 len 7 0/3*2 (0/1,1/2)*2 1/5";
	char *t = malloc(sizeof good_profile + 100);
	strcpy(t, good_profile);
	char *at = strstr(t, from);
	const char *to = "profile 0 threads 12 len 7 0/3 0/3*1 (0/1,1/2)*1 (0/1,1/2)*1 1/5*1";
	memmove(at + strlen(to), at + strlen(from), strlen(at + strlen(from)) + 1);
	memcpy(at, to, strlen(to));
	if (prof_parse(t, &p) == 0) {
		static const gc_pentry want[7] = {{0, 3}, {0, 3}, {0, 1}, {1, 2}, {0, 1}, {1, 2}, {1, 5}};
		CHECK(memcmp(p.kern[0].prof[0].e, want, sizeof want) == 0);
		gc_profile_free(&p);
	}
	free(t);
}

/* good_profile with the first `from` replaced by `to` must be refused
 * with a message that starts with `want`. */
static void bad_profile(const char *from, const char *to, const char *want)
{
	size_t n = sizeof good_profile + strlen(to) + 1;
	char *t = malloc(n);
	const char *at = strstr(good_profile, from);
	if (!CHECK_MSG(at != NULL, "'%s' not in the profile", from)) {
		free(t);
		return;
	}
	snprintf(t, n, "%.*s%s%s", (int)(at - good_profile), good_profile, to, at + strlen(from));
	gc_profile p;
	char err[512] = "";
	int r = gc_profile_parse(t, strlen(t), "t", &p, err, sizeof err);
	CHECK_MSG(r == -1, "'%s' -> '%s' accepted", from, to);
	CHECK_MSG(strncmp(err, want, strlen(want)) == 0,
		  "'%s' -> '%s':\n#     got:  %s\n#     want: %s...", from, to, err, want);
	CHECK(p.nkernel == 0 && p.kern == NULL);
	free(t);
}

static void t_profile_bad(void)
{
	/* {from, to, the message's start} */
	static const char *const bad[][3] = {
		{"gc-profile 1", "gc-profile 2", "t: line 1: version: 2 not supported (want 1)"},
		{"gc-profile 1", "gc-profil 1", "t: line 1: want 'gc-profile', got 'gc-profil'"},
		{"max_exact 16", "max_exact 1",
		 "t: line 30: pr 0: exact: 2 values, more than max_exact 1"},
		{"max_runs 64", "max_runs 2", "t: line 33: runs: 3 out of range (0..2)"},
		{"similarity 0.9", "similarity 1.5",
		 "t: line 4: similarity: want a number from 0 to 1"},
		{"kernels 2", "kernels 3", "t: line 51: kernels: 3, but 'end' after 2"},
		{"kernels 2", "kernels 1",
		 "t: line 38: kernels: 1, but another kernel section follows"},
		{"grid 2 1 1", "grid 2 0 1", "t: line 12: grid y: 0 out of range (1..65535)"},
		{"attr 4 70", "attr 1 70", "t: line 17: attr: key 1 twice"},
		{"threads 16", "threads 17",
		 "t: line 18: threads: 17, but the grid and block make 16"},
		{"accesses 40", "accesses 41",
		 "t: line 27: accesses: the kernel's 41, but its instructions' add up to 40"},
		{"inst 1 pc", "inst 2 pc", "t: line 26: inst: index 2, want 1"},
		{"op load", "op fetch", "t: line 21: op: 'fetch' is not load, store or atomic"},
		{"space global flags 0", "space global flags 16",
		 "t: line 21: flags: 16 out of range (0..15)"},
		{"extent 0 64", "extent 64 0", "t: line 21: extent: lo 64 above hi 0"},
		{"pe 0 bx", "pe 0 tx",
		 "t: line 23: pe: context ty out of order (bz by bx tz ty tx)"},
		{"pe 0 ty", "pe 0 tx", "t: line 24: pe: context tx twice"},
		{"pe 0 bx total 1 none 0 align 1 exact 256:1", "pe 0 bx total 0 none 0 align 1",
		 "t: line 22: pe 0 bx: total 0 (a context without samples has no line)"},
		{"pe 0 bx", "pe 1 bx", "t: line 22: pe: instruction 1, want 0"},
		{"pe 0 bx", "pe 0 bq",
		 "t: line 22: pe: want a context (bz by bx tz ty tx), got 'bq'"},
		{"pa 0 total 16", "pa 0 total 17",
		 "t: line 25: pa 0: total: 17, but none, exact and bins add up to 16"},
		{"pa 1 total 0 none 0 align 1\n", "",
		 "t: line 27: want 'pe' or 'pa', got 'profiles'"},
		{"len 7", "len 8", "t: line 29: entries: 7, but len 8"},
		{"len 7", "len 6", "t: line 29: entries: more than len 6"},
		{"1/5\n", "2/5\n", "t: line 29: entries: instruction 2 out of range (insts 2)"},
		{"(0/1,1/2)*2", "(0/1,1/2)",
		 "t: line 29: entries: '(0/1,1/2)' is not K/D, K/D*N or (K/D,...)*N"},
		{"0/3*2", "0/3*0", "t: line 29: entries: '0/3*0' is not K/D"},
		{"profile 1 threads 4", "profile 1 threads 13",
		 "t: line 31: threads: 13, more than profile 0's 12 (profiles by descending threads)"},
		{"profile 1 threads 4", "profile 1 threads 3",
		 "t: line 32: profiles: their threads add up to 15, not the kernel's 16"},
		{"profile 1 threads", "profile 2 threads", "t: line 31: profile: index 2, want 1"},
		{"pr 1 total", "pr 0 total", "t: line 32: pr: profile 0, want 1"},
		{"run 0 0", "run 1 0",
		 "t: line 34: run first: 1, but the first run starts at thread 0"},
		{"run 12 0", "run 8 0", "t: line 36: run first: 8, not above the run before's 8"},
		{"run 12 0", "run 16 0", "t: line 36: run first: 16 out of range (0..15)"},
		{"run 8 1", "run 8 2", "t: line 35: run profile: 2 out of range (0..1)"},
		{"run 12 0", "run 12 1",
		 "t: line 36: run profile: 1, the same as the run before's"},
		{"end kernel 1", "end kernel 7",
		 "t: line 37: end kernel: 7, but the section is kernel 1"},
		{"runs 0\nend kernel 2\nend\n", "runs 0\nend kernel 2\n",
		 "t: line 51: cut short: the text ends where 'end' is wanted"},
		{"runs 0\nend kernel 2\nend\n", "runs 0\nend kernel 2\nend\nmore\n",
		 "t: line 52: unexpected 'more' after the final 'end'"},
		{"regs 16\n", "regs 16 \n", "t: line 14: regs: trailing blanks"},
		{"insts 2", "insts 99999",
		 "t: line 20: insts: 99999, more than the rest of the text holds"},
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		bad_profile(bad[i][0], bad[i][1], bad[i][2]);
}

/* ---- profile: anchors ------------------------------------------------- */

static void t_profile_coords(void)
{
	gc_kernel k;
	gc_kernel_init(&k, 0, "k");
	/* block 4x2x3 (24 threads), grid 2x3x2.  t = 100: block 4, thread 4;
	 * thread 4 = (tx 0, ty 1, tz 0); block 4 = (bx 0, by 2, bz 0). */
	k.block[0] = 4;
	k.block[1] = 2;
	k.block[2] = 3;
	k.grid[0] = 2;
	k.grid[1] = 3;
	k.grid[2] = 2;
	uint64_t c[GC_PE_NCTX];
	gc_pthread_coords(&k, 100, c);
	uint64_t w1[GC_PE_NCTX] = {0, 2, 0, 0, 1, 0};
	CHECK(memcmp(c, w1, sizeof c) == 0);
	/* t = 191 = 7 * 24 + 23: block 7 = (1, 0, 1) (7 % 2, 3 % 3, 7 / 6);
	 * thread 23 = (3, 1, 2) (23 % 4, 5 % 2, 23 / 8). */
	gc_pthread_coords(&k, 191, c);
	uint64_t w2[GC_PE_NCTX] = {1, 0, 1, 2, 1, 3};
	CHECK(memcmp(c, w2, sizeof c) == 0);
	CHECK_STR(gc_pe_ctx_name[GC_PE_BZ], "bz");
	CHECK_STR(gc_pe_ctx_name[GC_PE_TY], "ty");
	CHECK_STR(gc_pe_ctx_name[GC_PE_TX], "tx");
}

/* Address of thread t of a 4x2 block, 2x1 grid, linear in each
 * coordinate: block x 0x100 apart, rows 0x40, lanes 4. */
static uint64_t addr_2d(uint64_t t)
{
	uint64_t b = t / 8, i = t % 8;
	return 0x1000 + b * 0x100 + i / 4 * 0x40 + i % 4 * 4;
}

static void t_profile_anchor(void)
{
	gc_kernel k;
	gc_kernel_init(&k, 0, "k");
	k.block[0] = 4;
	k.block[1] = 2;
	k.grid[0] = 2;
	gc_panchor a;
	memset(&a, 0, sizeof a);
	/* Every thread, in order.  Contexts by hand: t 0 the first (-1);
	 * t 1-3, 5-7, 9-11, 13-15 tx; t 4, 12 ty (a new row); t 8 bx (a new
	 * block).  Strides: tx 4 from the previous thread; ty 0x40 from the
	 * first of p's row (t 0, t 8); bx 0x100 from the first of p's block
	 * (t 0). */
	int wantc[16] = {-1, 5, 5, 5, 4, 5, 5, 5, 2, 5, 5, 5, 4, 5, 5, 5};
	int64_t wants[16] = {0, 4, 4, 4, 0x40, 4, 4, 4, 0x100, 4, 4, 4, 0x40, 4, 4, 4};
	for (uint64_t t = 0; t < 16; t++) {
		int c = gc_panchor_ctx(&k, &a, t);
		CHECK_MSG(c == wantc[t], "t %llu: context %d, want %d", (unsigned long long)t, c,
			  wantc[t]);
		if (c >= 0) {
			int64_t stride = (int64_t)(addr_2d(t) - a.first[c]);
			CHECK_MSG(stride == wants[t], "t %llu: stride %lld, want %lld",
				  (unsigned long long)t, (long long)stride, (long long)wants[t]);
		}
		gc_panchor_set(&a, c, t, addr_2d(t));
		CHECK(a.seen == 1 && a.last == t);
		if (t == 4) {
			/* first: bz, by, bx, tz from t 0; ty, tx t 4. */
			uint64_t w[GC_PE_NCTX] = {0x1000, 0x1000, 0x1000, 0x1000, 0x1040, 0x1040};
			CHECK(memcmp(a.first, w, sizeof w) == 0);
		}
		if (t == 9) {
			/* bx, tz, ty from t 8 (0x1100); tx t 9. */
			uint64_t w[GC_PE_NCTX] = {0x1000, 0x1000, 0x1100, 0x1100, 0x1100, 0x1104};
			CHECK(memcmp(a.first, w, sizeof w) == 0);
		}
	}
	/* Only threads 2, 6 and 11 execute it: 6 (row 1, x 2: 0x1048) is in a
	 * new row (ty), 0x1048 - 0x1008 (t 2, the first of t 2's row) = 0x40;
	 * 11 (block 1, row 0, x 3: 0x110c) in a new block (bx), 0x110c -
	 * 0x1008 (t 2, the first of t 6's block) = 0x104. */
	memset(&a, 0, sizeof a);
	CHECK(gc_panchor_ctx(&k, &a, 2) == -1);
	gc_panchor_set(&a, -1, 2, addr_2d(2));
	CHECK(gc_panchor_ctx(&k, &a, 6) == GC_PE_TY);
	CHECK_U64(addr_2d(6) - a.first[GC_PE_TY], 0x40);
	gc_panchor_set(&a, GC_PE_TY, 6, addr_2d(6));
	CHECK(gc_panchor_ctx(&k, &a, 11) == GC_PE_BX);
	CHECK_U64(addr_2d(11) - a.first[GC_PE_BX], 0x104);
	/* The same thread again: tx. */
	CHECK(gc_panchor_ctx(&k, &a, 6) == GC_PE_TX);
}

/* ---- profile: obfuscation --------------------------------------------- */

static void add_inst(gc_pkernel *k, uint64_t base, int64_t lo, int64_t hi)
{
	k->inst = realloc(k->inst, (k->ninst + 1) * sizeof *k->inst);
	gc_pinst *in = &k->inst[k->ninst++];
	memset(in, 0, sizeof *in);
	for (int c = 0; c < GC_PE_NCTX; c++)
		gc_pdist_init(&in->pe[c]);
	gc_pdist_init(&in->pa);
	in->op = GC_LOAD;
	in->size = 4;
	in->base = base;
	in->lo = lo;
	in->hi = hi;
}

/* Kernel 1: [A, A + 0x1000) and [A + 0x700, A + 0x3800) overlap; kernel
 * 2: [A + 0x3800, A + 0x3900) touches them: one region.  Kernel 2 also
 * [B, B + 64) far away: another.  A = 0x7f0000001000, B = 0x10000000. */
static void obf_profile(gc_profile *p)
{
	gc_profile_init(p);
	gc_pkernel k;
	memset(&k, 0, sizeof k);
	gc_kernel_init(&k.k, 1, "a");
	gc_kernel_set_attr(&k.k, GC_A_INSTS, 9);
	gc_kernel_set_attr(&k.k, GC_A_SHMEM_BASE, 0x7e0000000000);
	gc_kernel_set_attr(&k.k, GC_A_LOCAL_BASE, 0x7d0000000000);
	gc_kernel_set_attr(&k.k, GC_A_THREAD_INSTS, 33);
	add_inst(&k, UINT64_C(0x7f0000001000), 0, 0x1000);
	add_inst(&k, UINT64_C(0x7f0000001800), -0x100, 0x2000);
	gc_profile_add_kernel(p, &k);
	gc_kernel_init(&k.k, 2, "b");
	gc_kernel_set_attr(&k.k, GC_A_LOCAL_BASE, 0x7d0000000000);
	add_inst(&k, UINT64_C(0x10000000), 0, 64);
	add_inst(&k, UINT64_C(0x7f0000004800), -0x1000, 0x100);
	gc_profile_add_kernel(p, &k);
}

static void t_profile_obfuscate(void)
{
	gc_profile p, q;
	obf_profile(&p);
	CHECK(gc_profile_obfuscate(&p, 7) == 0);
	CHECK(p.obfuscated == 1);
	uint64_t b0 = p.kern[0].inst[0].base, b1 = p.kern[0].inst[1].base;
	uint64_t b2 = p.kern[1].inst[0].base, b3 = p.kern[1].inst[1].base;
	/* One shift for the first region. */
	uint64_t sh = b0 - UINT64_C(0x7f0000001000);
	CHECK_U64(b1 - UINT64_C(0x7f0000001800), sh);
	CHECK_U64(b3 - UINT64_C(0x7f0000004800), sh);
	CHECK(sh != 0);
	/* Offsets within 16 MiB kept; the regions inside [2^32, 2^46): the
	 * first is [b0, b0 + 0x3900), the second [b2, b2 + 64). */
	uint64_t m = (UINT64_C(1) << 24) - 1;
	CHECK_U64(b0 & m, 0x001000);
	CHECK_U64(b2 & m, 0x000000);
	CHECK_U64(b3 & m, 0x004800);
	CHECK(b0 >= UINT64_C(1) << 32 && b0 + 0x3900 <= UINT64_C(1) << 46);
	CHECK(b2 >= UINT64_C(1) << 32 && b2 + 64 <= UINT64_C(1) << 46);
	/* Distinct 16 MiB chunks. */
	CHECK((b0 >> 24) != (b2 >> 24));
	/* Attributes 5 and 6 gone, the others kept in order. */
	CHECK_U64(p.kern[0].k.nattr, 2);
	CHECK_U64(p.kern[0].k.attr_key[0], GC_A_INSTS);
	CHECK_U64(p.kern[0].k.attr_key[1], GC_A_THREAD_INSTS);
	CHECK_U64(p.kern[0].k.attr_val[1], 33);
	CHECK_U64(p.kern[1].k.nattr, 0);
	/* The same seed, the same places; another seed, others. */
	obf_profile(&q);
	CHECK(gc_profile_obfuscate(&q, 7) == 0);
	CHECK_U64(q.kern[0].inst[0].base, b0);
	CHECK_U64(q.kern[1].inst[0].base, b2);
	gc_profile_free(&q);
	obf_profile(&q);
	CHECK(gc_profile_obfuscate(&q, 8) == 0);
	CHECK(q.kern[0].inst[0].base != b0 || q.kern[1].inst[0].base != b2);
	gc_profile_free(&q);
	/* Many regions still land on distinct chunks in range: 300 of 4 KiB,
	 * 32 MiB apart. */
	gc_profile_free(&p);
	gc_profile_init(&p);
	gc_pkernel k;
	memset(&k, 0, sizeof k);
	gc_kernel_init(&k.k, 1, "many");
	for (uint64_t i = 0; i < 300; i++)
		add_inst(&k, (i << 25) + 0x123, 0, 4096);
	gc_profile_add_kernel(&p, &k);
	CHECK(gc_profile_obfuscate(&p, 1) == 0);
	for (uint32_t i = 0; i < 300; i++) {
		uint64_t b = p.kern[0].inst[i].base;
		CHECK_MSG((b & m) == 0x123 && b >= UINT64_C(1) << 32 && b < UINT64_C(1) << 46,
			  "region %u at %#llx", i, (unsigned long long)b);
		for (uint32_t j = 0; j < i; j++)
			CHECK_MSG(b >> 24 != p.kern[0].inst[j].base >> 24, "regions %u and %u share a chunk",
				  j, i);
	}
	gc_profile_free(&p);
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
	{"profile-text", t_profile_text},
	{"profile-entries", t_profile_entries},
	{"profile-bad", t_profile_bad},
	{"profile-coords", t_profile_coords},
	{"profile-anchor", t_profile_anchor},
	{"profile-obfuscate", t_profile_obfuscate},
};

/* `proxy-test parse FILE`: read a profile and write it back on stdout;
 * 1 and the reader's message on stderr when it is refused. */
static int parse_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		fprintf(stderr, "proxy-test: %s: cannot open\n", path);
		return 2;
	}
	char *text = NULL;
	size_t len = 0, cap = 0, n;
	do {
		if (len + 4096 > cap) {
			cap = cap ? cap * 2 : 8192;
			char *t = realloc(text, cap);
			if (!t)
				abort();
			text = t;
		}
		n = fread(text + len, 1, cap - len, f);
		len += n;
	} while (n > 0);
	fclose(f);
	gc_profile p;
	char err[512];
	int rc = 0;
	if (gc_profile_parse(text, len, path, &p, err, sizeof err) < 0) {
		fprintf(stderr, "proxy-test: %s\n", err);
		rc = 1;
	} else {
		rc = gc_profile_write(stdout, &p) < 0;
		gc_profile_free(&p);
	}
	free(text);
	return rc;
}

int main(int argc, char **argv)
{
	if (argc == 3 && strcmp(argv[1], "parse") == 0)
		return parse_file(argv[2]);
	return check_run(units, CHECK_NUNITS(units), argc > 1 ? argv[1] : NULL);
}
