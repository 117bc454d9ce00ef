/* sdcm.c - seed 003 formulas 1 and 2, evaluated stably (sdcm.h). */
#include "model/sdcm.h"

#include <math.h>
#include <stdio.h>

int gc_sdcm_check(uint64_t ways, uint64_t lines, char *why, size_t len)
{
	if (ways < 1 || lines < 1) {
		snprintf(why, len, "the cache needs at least one way and one line");
		return -1;
	}
	if (ways != lines && ways > GC_SDCM_WAYS_MAX) {
		snprintf(why, len, "SDCM sums a term per way: at most %u ways, unless the "
			 "cache is fully associative (ways = lines)", GC_SDCM_WAYS_MAX);
		return -1;
	}
	if (ways > lines) {
		snprintf(why, len, "%llu ways do not fit in %llu lines",
			 (unsigned long long)ways, (unsigned long long)lines);
		return -1;
	}
	return 0;
}

double gc_sdcm_phit(uint64_t d, uint64_t ways, uint64_t lines)
{
	if (d == GC_RD_INF)
		return 0.0;
	if (d < ways)
		return 1.0; /* every term of (p + q)^D is in the sum */
	if (ways == lines)
		return 0.0; /* q = 0: fully associative, d >= A misses */
	double D = (double)d;
	double lq = log((double)(lines - ways)) - log((double)lines);
	double pq = (double)ways / (double)(lines - ways);
	/* t_a = C(D,a) p^a q^(D-a), relative to t_0 = q^D (kept as its log,
	 * which does not underflow): t_a = t_(a-1) (D-a+1)/a p/q.  The sum is
	 * rescaled when it grows large, so nothing overflows; a term that
	 * underflows is below 1e-300 of the sum.  Products of A ratios: a
	 * relative error of about A units in the last place. */
	double lscale = D * lq, t = 1.0, sum = 1.0;
	for (uint64_t a = 1; a < ways; a++) {
		t *= (D - (double)a + 1.0) / (double)a * pq;
		sum += t;
		if (sum > 1e280) {
			sum *= 1e-280;
			t *= 1e-280;
			lscale += 644.72382603833279; /* 280 ln 10 */
		}
	}
	double l = lscale + log(sum);
	if (l < -745.2)
		return 0.0; /* below the smallest double */
	double p = exp(l);
	return p > 1.0 ? 1.0 : p;
}

double gc_sdcm_hits(const gc_rd_hist *h, uint64_t ways, uint64_t lines)
{
	double hits = 0;
	size_t it = 0;
	uint64_t lo, hi;
	double c;
	while (gc_rd_hist_next(h, &it, &lo, &hi, &c)) {
		double p = gc_sdcm_phit(lo, ways, lines);
		if (p == 0.0 && lo >= ways)
			break; /* P(h|D) decreases with D: every later one is 0 */
		hits += c * p;
	}
	return hits;
}
