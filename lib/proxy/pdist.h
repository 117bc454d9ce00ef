/*
 * pdist.h - the distributions of a G-MAP profile (seed 002 §4.2-4.3,
 * gc-profile(5) "Distributions"): how gc-profile builds them from the
 * values it sees, how they are kept, and how gc-clone draws from them
 * (pdist.c).
 *
 * A distribution is a histogram of signed 64-bit values (strides in
 * bytes, or reuse distances) in two parts:
 *   - exact values with their counts, at most `max_exact` of them: every
 *     value when the distribution has no more distinct values than that
 *     (then it is lossless), else the most frequent values seen at least
 *     twice;
 *   - log2 bins for the rest: a bin is a sign and an exponent e, holding
 *     the values v with 2^e <= |v| < 2^(e+1) (e from 0 to 63); a draw from
 *     a bin is uniform over the bin's multiples of `align`, the largest
 *     power of two (at most 2^20) that divides every binned value;
 * and a count of samples with no value (`none`: a reuse distance of a
 * first use or one deeper than the profiler looked; 0 for strides).
 * total = none + the exact counts + the bin counts.
 *
 * Exact values are kept by descending count, ties by ascending value;
 * bins by sign (+ first) then ascending exponent, so a distribution has one
 * written form and profiles are byte-identical for the same input.
 */
#ifndef GC_PDIST_H
#define GC_PDIST_H

#include "base/hash.h"

#include <stdint.h>
#include <stdio.h>

#define GC_PDIST_EXACT_DEFAULT 16 /* exact values kept by default */
#define GC_PDIST_EXACT_MAX 1024
#define GC_PDIST_TRACK 4096       /* distinct values a builder counts one by one */
#define GC_PDIST_ALIGN_MAX (UINT64_C(1) << 20)

typedef struct gc_pbin {
	int8_t sign;  /* +1 or -1 */
	uint8_t exp;  /* 2^exp <= |v| < 2^(exp+1) */
	uint64_t cnt;
} gc_pbin;

typedef struct gc_pdist {
	uint64_t total; /* every sample, none included */
	uint64_t none;
	uint64_t align; /* of the binned values (1 when there are none) */
	uint32_t nexact, nbin;
	int64_t *val;   /* nexact values ... */
	uint64_t *cnt;  /* ... and their counts */
	gc_pbin *bin;   /* nbin bins */
	/* Drawing (gc_pdist_prepare): cumulative counts over the exact values,
	 * then the bins, then none; NULL until prepared. */
	uint64_t *cum;
} gc_pdist;

/* A builder counts values one by one (a hash map of at most
 * GC_PDIST_TRACK distinct values; values past that go straight to their
 * bins), so its memory is bounded whatever the input. */
typedef struct gc_pdist_builder {
	gc_hmap counts; /* value (as uint64_t) -> count */
	uint64_t none;
	uint64_t nbins[2][64]; /* [sign: 0 +, 1 -][exp]: overflow values */
	uint64_t overflow;     /* samples that went to nbins */
	uint64_t align_or;     /* OR of the overflow values' magnitudes */
} gc_pdist_builder;

void gc_pdist_init(gc_pdist *d); /* empty */
void gc_pdist_free(gc_pdist *d);
/* Deep copy (drawing tables not copied); -1 out of memory. */
int gc_pdist_copy(gc_pdist *dst, const gc_pdist *src);

int gc_pdist_builder_init(gc_pdist_builder *b); /* -1 out of memory */
void gc_pdist_builder_free(gc_pdist_builder *b);
void gc_pdist_builder_clear(gc_pdist_builder *b);
/* Count n samples of v; -1 out of memory. */
int gc_pdist_add(gc_pdist_builder *b, int64_t v, uint64_t n);
void gc_pdist_add_none(gc_pdist_builder *b, uint64_t n);
/* Merge another builder's counts into b (clustering); -1 out of memory. */
int gc_pdist_merge(gc_pdist_builder *b, const gc_pdist_builder *from);
/* The distribution, with at most max_exact exact values; d is
 * overwritten (freed first).  -1 out of memory. */
int gc_pdist_finish(const gc_pdist_builder *b, uint32_t max_exact, gc_pdist *d);

/* The most frequent exact value (ablation: a distribution reduced to its
 * mode); 0 and *v untouched when there is no exact value. */
int gc_pdist_mode(const gc_pdist *d, int64_t *v);
/* Build the drawing table; -1 out of memory. */
int gc_pdist_prepare(gc_pdist *d);
/* One draw with 64 random bits r (prepared; total > 0): 1 and *v set, or
 * 0 for a draw of `none`. */
int gc_pdist_draw(const gc_pdist *d, uint64_t r, int64_t *v);
/* 1 when v is in the support: an exact value, or in a bin with a nonzero
 * count and a multiple of align. */
int gc_pdist_has(const gc_pdist *d, int64_t v);

/* Text form (gc-profile(5)): "total T none N align A exact V:C,V:C bins
 * +E:C,-E:C", the exact and bins parts left out when empty.  Write
 * returns what fprintf returns (negative on error). */
int gc_pdist_write(FILE *f, const gc_pdist *d);
/* Parse the text form from *s (leading blanks skipped), up to the end of
 * the line; *s advanced past it.  -1 with a message in err naming the
 * field on a malformed or inconsistent distribution (counts that do not
 * add up to total, exact values out of order, a bin twice). */
int gc_pdist_parse(const char **s, gc_pdist *d, char *err, size_t errlen);

#endif
