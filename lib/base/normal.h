/*
 * normal.h - |N(0, sigma^2)| rounded to an integer, by Box-Muller from two
 * uniforms: llround(fabs(sqrt(-2 log u1) cos(2 pi u2)) sigma) with libm's
 * log and cos, the value gc-l1's miss latencies take (seed 000 §4.2).
 *
 * libm's log and cos cost ~200 instructions a draw, so the value is first
 * worked out with short series (gc_nrm_log, gc_nrm_cos: z within 3.6e-15
 * of libm's in 10^9 draws, where the rounding's half-way points are
 * 1/sigma apart in z).  When that is clearly away from a half-way point,
 * it rounds to libm's integer; within a margin of one (1e-9 + 1e-10 sigma
 * in y = |z| sigma, over 10^4 times the series' error; met 7 times in
 * 10^9 draws at sigma 9) libm's value decides.  So the results are libm's
 * exactly: 0 differed in those 10^9 draws.
 */
#ifndef GC_NORMAL_H
#define GC_NORMAL_H

#include <math.h>
#include <stdint.h>
#include <string.h>

/* ln(u), 0 < u <= 1: u = 2^e m, m in [sqrt(1/2), sqrt(2)), ln m =
 * 2 atanh(t), t = (m - 1) / (m + 1), |t| < 0.172, by its series to t^21
 * (the rest under 1e-18 of ln m). */
static inline double gc_nrm_log(double u)
{
	uint64_t b;
	memcpy(&b, &u, sizeof b);
	int e = (int)(b >> 52) - 1023;
	b = (b & ((UINT64_C(1) << 52) - 1)) | (UINT64_C(1023) << 52);
	double m;
	memcpy(&m, &b, sizeof m);
	if (m > 1.4142135623730951) {
		m *= 0.5;
		e++;
	}
	double t = (m - 1.0) / (m + 1.0), t2 = t * t;
	double p = 1.0 / 21;
	p = p * t2 + 1.0 / 19;
	p = p * t2 + 1.0 / 17;
	p = p * t2 + 1.0 / 15;
	p = p * t2 + 1.0 / 13;
	p = p * t2 + 1.0 / 11;
	p = p * t2 + 1.0 / 9;
	p = p * t2 + 1.0 / 7;
	p = p * t2 + 1.0 / 5;
	p = p * t2 + 1.0 / 3;
	return e * 0.6931471805599453 + 2.0 * t * (1.0 + t2 * p);
}

/* |cos(2 pi u)|, 0 <= u < 1: folded (exactly) to 2 pi w in [0, pi/4],
 * then the Taylor series of cos to x^16 or of sin to x^17 (the rest under
 * 1e-17). */
static inline double gc_nrm_cos(double u)
{
	if (u >= 0.5)
		u -= 0.5; /* |cos| has period pi */
	if (u > 0.25)
		u = 0.5 - u; /* cos(pi - x) = -cos x */
	int sine = u > 0.125;
	if (sine)
		u = 0.25 - u; /* cos x = sin(pi/2 - x) */
	double x = u * 6.283185307179586, x2 = x * x;
	if (sine) {
		double p = -1.0 / 355687428096000.0; /* -1/17! */
		p = p * x2 + 1.0 / 1307674368000.0;  /* 1/15! */
		p = p * x2 - 1.0 / 6227020800.0;
		p = p * x2 + 1.0 / 39916800.0;
		p = p * x2 - 1.0 / 362880.0;
		p = p * x2 + 1.0 / 5040.0;
		p = p * x2 - 1.0 / 120.0;
		p = p * x2 + 1.0 / 6.0;
		return x - x * x2 * p;
	}
	double p = 1.0 / 20922789888000.0; /* 1/16! */
	p = p * x2 - 1.0 / 87178291200.0;  /* -1/14! */
	p = p * x2 + 1.0 / 479001600.0;
	p = p * x2 - 1.0 / 3628800.0;
	p = p * x2 + 1.0 / 40320.0;
	p = p * x2 - 1.0 / 720.0;
	p = p * x2 + 1.0 / 24.0;
	p = p * x2 - 1.0 / 2.0;
	return 1.0 + x2 * p;
}

/* The draw, libm's way: the reference the series stand in for. */
static inline uint64_t gc_abs_normal_round_libm(double u1, double u2, double sigma)
{
	double z = sqrt(-2.0 * log(u1)) * cos(2.0 * M_PI * u2);
	return (uint64_t)llround(fabs(z) * sigma);
}

/* llround(fabs(sqrt(-2 log u1) cos(2 pi u2)) sigma), 0 < u1 <= 1,
 * 0 <= u2 < 1, sigma > 0: libm's value, mostly without libm. */
static inline uint64_t gc_abs_normal_round(double u1, double u2, double sigma)
{
	double y = sqrt(-2.0 * gc_nrm_log(u1)) * gc_nrm_cos(u2) * sigma;
	if (y >= 0 && y < 4503599627370496.0) { /* 2^52: the whole part exact */
		uint64_t k = (uint64_t)y;
		double f = y - (double)k; /* exact */
		double margin = 1e-9 + 1e-10 * sigma;
		if (f < 0.5 - margin)
			return k;
		if (f > 0.5 + margin)
			return k + 1;
	}
	return gc_abs_normal_round_libm(u1, u2, sigma);
}

#endif
