/*
 * sdcm.h - the Stack Distance Cache Model of seed 003 §2.3 (after
 * PPT-GPU-Mem): the hit probability of a reference of reuse distance D in
 * an A-way LRU cache of B lines, assuming the D distinct lines used since
 * fall into its set independently with probability A/B (formula 1):
 *
 *     P(h|D) = sum_{a=0}^{A-1} C(D,a) (A/B)^a ((B-A)/B)^(D-a),
 *
 * the probability that fewer than A of them share its set, and the hit
 * rate of a whole reuse profile, P_hit = sum_i P(D_i) P(h|D_i) (formula 2).
 *
 * Evaluated exactly in the sense that matters: P(h|D) = 1 for D < A (the
 * sum is then the whole binomial expansion of (p + q)^D) and 0 for D
 * infinite; A = B is the fully associative cache (1 when D < A, else 0);
 * otherwise each term is the one before times (D-a+1)/a * p/q, summed
 * relative to the first, q^D, whose logarithm is kept (rescaling the sum
 * before it overflows), so there is no underflow of q^D for large D, no
 * cancellation and no normal approximation: the relative error is below
 * about 10 A units of the last place (7e-12 at A = 4096, D = 70000 against
 * exact rationals).  (PPT-GPU approximates the binomial by a normal distribution
 * and takes abs() of a difference, which predicts hits for distances far
 * beyond the cache; this does not.)
 */
#ifndef GC_SDCM_H
#define GC_SDCM_H

#include "model/rd.h"

#include <stddef.h>
#include <stdint.h>

#define GC_SDCM_WAYS_MAX 4096

/* 0 when an A-way cache of B lines is a valid SDCM cache (1 <= A <= B,
 * and A <= GC_SDCM_WAYS_MAX unless A = B: each P(h|D) costs A terms);
 * -1 with the reason in why. */
int gc_sdcm_check(uint64_t ways, uint64_t lines, char *why, size_t len);

/* Formula 1: P(h|D); D == GC_RD_INF gives 0. */
double gc_sdcm_phit(uint64_t d, uint64_t ways, uint64_t lines);

/* Formula 2: the expected hits of histogram h (divide by h->total for the
 * rate).  A bin [lo, hi] of a bounded histogram counts at P(h|lo), an
 * upper bound. */
double gc_sdcm_hits(const gc_rd_hist *h, uint64_t ways, uint64_t lines);

#endif
