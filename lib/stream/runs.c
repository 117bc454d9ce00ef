/*
 * runs.c - the sectors of a run of access records four at a time
 * (runs.h): the records' 64-bit words 0, 2 (the clock above bit 32) and
 * 3 (the address and size) gathered one record a lane by unpacks and
 * permutes, then the run's word, each clock against the one before and
 * the open group's bound checked for all four, and the two sector bits
 * ORed into a vector accumulator.  A block that is not all good commits
 * its good prefix.
 */
#include "stream/runs.h"
#include "stream/format.h"

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>

int gc_run_sectors_fast(void)
{
	return __builtin_cpu_supports("avx2");
}

__attribute__((target("avx2"))) size_t
gc_run_sectors(const unsigned char *p, const unsigned char *end, uint32_t rk, uint64_t base,
	       uint64_t lim, uint32_t last, uint64_t *acc, uint32_t *lo)
{
	const unsigned char *start = p;
	const __m256i one = _mm256_set1_epi64x(1), wmask = _mm256_set1_epi64x(0xff00ffff);
	const __m256i rkv = _mm256_set1_epi64x(rk), basev = _mm256_set1_epi64x((long long)base);
	const __m256i sign = _mm256_set1_epi64x(INT64_MIN), lastv = _mm256_set1_epi64x(last);
	const __m256i limx = _mm256_set1_epi64x((long long)(lim ^ (uint64_t)INT64_MIN));
	__m256i accv = _mm256_setzero_si256(), lov = _mm256_set1_epi64x(*lo);
	while (end - p >= 4 * GC_RECORD_BASE) {
		__m256i r0 = _mm256_loadu_si256((const __m256i *)(const void *)p);
		__m256i r1 = _mm256_loadu_si256((const __m256i *)(const void *)(p + 32));
		__m256i r2 = _mm256_loadu_si256((const __m256i *)(const void *)(p + 64));
		__m256i r3 = _mm256_loadu_si256((const __m256i *)(const void *)(p + 96));
		/* the records' 64-bit words 0, 2 (the clock above bit 32) and
		 * 3 (the address and size), one record a lane */
		__m256i lo01 = _mm256_unpacklo_epi64(r0, r1), lo23 = _mm256_unpacklo_epi64(r2, r3);
		__m256i hi01 = _mm256_unpackhi_epi64(r0, r1), hi23 = _mm256_unpackhi_epi64(r2, r3);
		__m256i w = _mm256_permute2x128_si256(lo01, lo23, 0x20);
		__m256i t = _mm256_srli_epi64(_mm256_permute2x128_si256(lo01, lo23, 0x31), 32);
		__m256i a = _mm256_permute2x128_si256(hi01, hi23, 0x31);
		__m256i wok = _mm256_cmpeq_epi64(_mm256_and_si256(w, wmask), rkv);
		/* each clock against the one before it ([lo, t0, t1, t2]) */
		__m256i prev = _mm256_blend_epi32(_mm256_permute4x64_epi64(t, 0x90), lov, 0x03);
		__m256i early = _mm256_cmpgt_epi64(prev, t);
		__m256i d = _mm256_sub_epi64(a, basev);
		__m256i in = _mm256_cmpgt_epi64(limx, _mm256_xor_si256(d, sign)); /* d < lim */
		__m256i ok = _mm256_andnot_si256(early, _mm256_and_si256(wok, in));
		__m256i bits = _mm256_or_si256(
			_mm256_sllv_epi64(one, _mm256_srli_epi64(d, 5)),
			_mm256_sllv_epi64(one, _mm256_srli_epi64(_mm256_add_epi64(d, lastv), 5)));
		unsigned m = (unsigned)_mm256_movemask_pd(_mm256_castsi256_pd(ok));
		if (m == 15) {
			accv = _mm256_or_si256(accv, bits);
			lov = _mm256_permute4x64_epi64(t, 0xff);
			p += 4 * GC_RECORD_BASE;
			continue;
		}
		unsigned k = (unsigned)__builtin_ctz(~m); /* the first that fails */
		if (k) {
			uint64_t tk[4];
			const __m256i lane = _mm256_setr_epi64x(0, 1, 2, 3);
			__m256i keep = _mm256_cmpgt_epi64(_mm256_set1_epi64x(k), lane);
			accv = _mm256_or_si256(accv, _mm256_and_si256(bits, keep));
			_mm256_storeu_si256((__m256i *)(void *)tk, t);
			lov = _mm256_set1_epi64x((long long)tk[k - 1]);
			p += k * GC_RECORD_BASE;
		}
		break;
	}
	__m128i x = _mm_or_si128(_mm256_castsi256_si128(accv), _mm256_extracti128_si256(accv, 1));
	x = _mm_or_si128(x, _mm_unpackhi_epi64(x, x));
	*acc |= (uint64_t)_mm_cvtsi128_si64(x);
	*lo = (uint32_t)_mm_cvtsi128_si64(_mm256_castsi256_si128(lov));
	return (size_t)(p - start) / GC_RECORD_BASE;
}
#else

int gc_run_sectors_fast(void)
{
	return 0;
}

size_t gc_run_sectors(const unsigned char *p, const unsigned char *end, uint32_t rk,
		      uint64_t base, uint64_t lim, uint32_t last, uint64_t *acc, uint32_t *lo)
{
	(void)p, (void)end, (void)rk, (void)base, (void)lim, (void)last, (void)acc, (void)lo;
	return 0;
}

#endif
