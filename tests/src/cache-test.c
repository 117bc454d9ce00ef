/*
 * cache-test - unit tests of lib/model/cache.c (set-index functions and the
 * cache core), as TAP (check.h); exit 1 if any failed.  `cache-test
 * NAME` runs one case (2 when there is none of that name).
 */
#include "base/ipoly.h"
#include "model/cache.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

static void t_linear(void)
{
	/* 128-byte lines, 4 sets: the line address modulo 4. */
	CHECK_MSG(gc_set_index(GC_INDEX_LINEAR, 0x7f7393708000, 7, 4) == 0, "QV100 L1 set");
	CHECK_MSG(gc_set_index(GC_INDEX_LINEAR, 0x380, 7, 4) == 3, "0x380");
	/* 6 sets (not a power of two): line 13 -> 13 mod 6 = 1. */
	CHECK_MSG(gc_set_index(GC_INDEX_LINEAR, 13 * 128 + 5, 7, 6) == 1, "mod 6");
}

static void t_xor(void)
{
	/* line 4 (0x200): index 0, hi = 1 -> set 1; line 5: 1 ^ 1 = 0. */
	CHECK_MSG(gc_set_index(GC_INDEX_XOR, 0x200, 7, 4) == 1, "0x200");
	CHECK_MSG(gc_set_index(GC_INDEX_XOR, 0x280, 7, 4) == 0, "0x280");
	/* line 0x1b = 0b11011, 4 sets: index 3, hi = 0b110 & 3 = 2 -> 1. */
	CHECK_MSG(gc_set_index(GC_INDEX_XOR, 0x1b * 128, 7, 4) == 1, "0xd80");
}

static void t_fermi(void)
{
	/* Address bits 7-11 XOR bits 13,14,15,17,19; bit 12 is set bit 5. */
	CHECK_MSG(gc_set_index(GC_INDEX_FERMI, 0x2000, 7, 32) == 1, "bit 13");
	CHECK_MSG(gc_set_index(GC_INDEX_FERMI, 0x20000, 7, 32) == 8, "bit 17");
	CHECK_MSG(gc_set_index(GC_INDEX_FERMI, 0x80000, 7, 32) == 16, "bit 19");
	CHECK_MSG(gc_set_index(GC_INDEX_FERMI, 0x10000, 7, 32) == 0, "bit 16 unused");
	CHECK_MSG(gc_set_index(GC_INDEX_FERMI, 0x1000, 7, 32) == 0, "bit 12, 32 sets");
	CHECK_MSG(gc_set_index(GC_INDEX_FERMI, 0x1000, 7, 64) == 32, "bit 12, 64 sets");
	/* line bits 0b00011 XOR upper 0b00011 (bits 13, 14) = 0. */
	CHECK_MSG(gc_set_index(GC_INDEX_FERMI, 0x6180, 7, 32) == 0, "cancel");
	/* Strides: 2^13 bytes apart lands in distinct sets for 32 steps? No:
	 * bits 13,14,15 give 8 sets, bit 16 none -> 0x10000 back to set 0. */
	unsigned seen = 0;
	for (unsigned i = 0; i < 8; i++)
		seen |= 1u << gc_set_index(GC_INDEX_FERMI, (uint64_t)i << 13, 7, 32);
	CHECK_MSG(seen == 0xff, "stride 8K covers sets 0-7, got %#x", seen);
}

static void t_ipoly(void)
{
	/* reference §3.5 worked example: partition address 0x1fdce4dc200,
	 * IPOLY over 32 sets of 128-byte lines -> set 20. */
	CHECK_MSG(gc_set_index(GC_INDEX_IPOLY, 0x1fdce4dc200, 7, 32) == 20, "QV100 L2 set");
	/* hi = 1 only: bit 0 of hi is in rows 0 and 2 (n = 32) -> 0b101. */
	CHECK_MSG(gc_ipoly_hash(1, 0, 32) == 5, "hi=1, n=32 -> %u", gc_ipoly_hash(1, 0, 32));
	/* n = 16: a0 in rows 0 and 1 -> 0b0011; with index 3 it cancels. */
	CHECK_MSG(gc_ipoly_hash(1, 0, 16) == 3, "hi=1, n=16");
	CHECK_MSG(gc_ipoly_hash(1, 3, 16) == 0, "hi=1 index=3, n=16");
	/* n = 64: a0 in rows 0 and 1 -> 3. */
	CHECK_MSG(gc_ipoly_hash(1, 0, 64) == 3, "hi=1, n=64");
	/* Conflict-free for power-of-two strides: 64 lines 2^k lines apart
	 * fill all 64 sets for each k up to 12. */
	for (unsigned k = 0; k <= 12; k++) {
		uint64_t seen = 0;
		for (uint64_t i = 0; i < 64; i++)
			seen |= UINT64_C(1) << gc_set_index(GC_INDEX_IPOLY, (i << k) << 7, 7, 64);
		CHECK_MSG(seen == UINT64_MAX, "stride 2^%u lines: sets %#llx", k,
			  (unsigned long long)seen);
	}
}

static void t_fibonacci(void)
{
	/* floor(frac(line * 0.61803398875) * sets), by hand:
	 * line 1: 0.61803398875 * 64 = 39.55 -> 39;
	 * line 2: frac 1.2360679775 = .2360679775, * 64 = 15.11 -> 15;
	 * line 3: frac 1.85410196625 = .85410196625, * 64 = 54.66 -> 54;
	 * line 5: frac 3.09016994375 = .09016994375, * 64 = 5.77 -> 5. */
	CHECK_MSG(gc_set_index(GC_INDEX_FIBONACCI, 1 * 128, 7, 64) == 39, "line 1 of 64");
	CHECK_MSG(gc_set_index(GC_INDEX_FIBONACCI, 2 * 128 + 127, 7, 64) == 15, "line 2 of 64");
	CHECK_MSG(gc_set_index(GC_INDEX_FIBONACCI, 3 * 128, 7, 64) == 54, "line 3 of 64");
	CHECK_MSG(gc_set_index(GC_INDEX_FIBONACCI, 5 * 128, 7, 64) == 5, "line 5 of 64");
	CHECK_MSG(gc_set_index(GC_INDEX_FIBONACCI, 0, 7, 64) == 0, "line 0");
	/* Any set count: seed 003's one L2 slice of 1,152 sets (line 1:
	 * 0.61803398875 * 1152 = 711.98 -> 711) and the TITAN V's 24
	 * (line 3: .85410196625 * 24 = 20.50 -> 20). */
	CHECK_MSG(gc_set_index(GC_INDEX_FIBONACCI, 128, 7, 1152) == 711, "line 1 of 1152");
	CHECK_MSG(gc_set_index(GC_INDEX_FIBONACCI, 3 * 128, 7, 24) == 20, "line 3 of 24");
	CHECK_MSG(gc_set_index_check(GC_INDEX_FIBONACCI, 1152, 128, NULL, 0) == 0, "1152 sets");
	/* The weakness: line 7286977268805583 * phi rounds to
	 * 4503599627370495.5 (2^52 - 0.5, the last half step), set 32 of 64
	 * or 576 of 1152; from the next line the product is 2^52 or more, a
	 * whole number, and every line goes to set 0. */
	uint64_t flat = GC_FIBONACCI_FLAT;
	CHECK_MSG(flat == UINT64_C(7286977268805584), "the flat line");
	CHECK_MSG(gc_fibonacci_set(flat - 1, 64) == 32, "line before: %u",
		  gc_fibonacci_set(flat - 1, 64));
	CHECK_MSG(gc_fibonacci_set(flat - 1, 1152) == 576, "line before, 1152 sets");
	unsigned nz = 0;
	for (uint64_t i = 0; i < 4096; i++)
		nz += gc_fibonacci_set(flat + i * 12345, 1152) != 0;
	CHECK_MSG(nz == 0, "%u of 4096 lines from the flat line are not in set 0", nz);
	/* Below it the sets are only halves: 2,000 lines before it reach
	 * sets 0 and 32 of 64 and no other. */
	uint64_t seen = 0;
	for (uint64_t i = 1; i <= 2000; i++)
		seen |= UINT64_C(1) << gc_fibonacci_set(flat - i, 64);
	CHECK_MSG(seen == (UINT64_C(1) | UINT64_C(1) << 32), "sets %#llx", (unsigned long long)seen);
	/* From line 227718039650175 (the product's 2^47) a step is 2^-5:
	 * even sets of 64 only; the line before still reaches odd set 45. */
	CHECK_MSG(gc_fibonacci_set(UINT64_C(227718039650174), 64) == 45, "before 2^47");
	CHECK_MSG(gc_fibonacci_set(UINT64_C(227718039650175), 64) == 20, "at 2^47");
	seen = 0;
	for (uint64_t i = 0; i < 4096; i++)
		seen |= UINT64_C(1) << gc_fibonacci_set(UINT64_C(227718039650175) + i, 64);
	CHECK_MSG(seen == UINT64_C(0x5555555555555555), "even sets only: %#llx",
		  (unsigned long long)seen);
}

static void t_checks(void)
{
	char why[128];
	CHECK_MSG(gc_set_index_check(GC_INDEX_FERMI, 16, 128, why, sizeof why) < 0 &&
		  strstr(why, "32 or 64"), "fermi 16 sets");
	CHECK_MSG(gc_set_index_check(GC_INDEX_IPOLY, 128, 128, why, sizeof why) < 0,
		  "ipoly 128");
	CHECK_MSG(gc_set_index_check(GC_INDEX_XOR, 6, 128, why, sizeof why) < 0, "xor 6");
	CHECK_MSG(gc_set_index_check(GC_INDEX_LINEAR, 6, 128, why, sizeof why) == 0, "lin 6");
	gc_cache_geom g = {128, 32, 4, 3, GC_INDEX_LINEAR, GC_REPL_LRU, 0};
	CHECK_MSG(gc_cache_geom_check(&g, why, sizeof why) == 0, "3 ways: %s", why);
	g.sector = 8;
	CHECK_MSG(gc_cache_geom_check(&g, why, sizeof why) < 0 && strstr(why, "16 sectors"),
		  "16 sectors: %s", why);
	g.sector = 256;
	CHECK_MSG(gc_cache_geom_check(&g, why, sizeof why) < 0, "sector > line");
}

static void t_sectors(void)
{
	gc_cache c;
	char why[128];
	gc_cache_geom g = {128, 32, 1, 1, GC_INDEX_LINEAR, GC_REPL_LRU, 0};
	if (!CHECK_MSG(gc_cache_init(&c, &g, why, sizeof why) == 0, "%s", why))
		return;
	CHECK_MSG(gc_cache_sectors(&c, 0x1010, 40) == 0x3, "16..55");
	CHECK_MSG(gc_cache_sectors(&c, 0x1000, 128) == 0xf, "whole");
	CHECK_MSG(gc_cache_sectors(&c, 0x107f, 4) == 0x8, "past the end");
	CHECK_MSG(gc_cache_sectors(&c, 0x1040, 0) == 0x4, "0 bytes");
	gc_cache_free(&c);
}

/* Fill addresses a then b into a 1-set, 2-way cache, use a again, and
 * return the address of the victim the policy picks. */
static uint64_t victim_after(int repl)
{
	gc_cache c;
	char why[128];
	unsigned set;
	gc_cache_geom g = {128, 128, 1, 2, GC_INDEX_LINEAR, repl, 7};
	if (gc_cache_init(&c, &g, why, sizeof why) < 0)
		return 1;
	gc_cache_fill(&c, gc_cache_victim(&c, 0), 0x000);
	gc_cache_fill(&c, gc_cache_victim(&c, 0), 0x080);
	gc_cline *l = gc_cache_find(&c, 0x000, &set);
	if (!l)
		return 1;
	gc_cache_touch(&c, l);
	uint64_t a = gc_cache_line_addr(&c, gc_cache_victim(&c, set));
	gc_cache_free(&c);
	return a;
}

static void t_replacement(void)
{
	CHECK_MSG(victim_after(GC_REPL_LRU) == 0x080, "LRU evicts the unused line");
	CHECK_MSG(victim_after(GC_REPL_FIFO) == 0x000, "FIFO evicts the first fill");
	/* Random: deterministic per seed, every way reachable. */
	gc_cache a, b;
	char why[128];
	gc_cache_geom g = {128, 128, 1, 5, GC_INDEX_LINEAR, GC_REPL_RANDOM, 42};
	gc_cache_init(&a, &g, why, sizeof why);
	gc_cache_init(&b, &g, why, sizeof why);
	for (unsigned i = 0; i < 5; i++) {
		gc_cache_fill(&a, gc_cache_victim(&a, 0), i * 128);
		gc_cache_fill(&b, gc_cache_victim(&b, 0), i * 128);
	}
	unsigned hit = 0;
	for (unsigned i = 0; i < 200; i++) {
		gc_cline *va = gc_cache_victim(&a, 0), *vb = gc_cache_victim(&b, 0);
		if (!CHECK_MSG(va - a.lines == vb - b.lines, "same seed, same victims"))
			return;
		hit |= 1u << (va - a.lines);
	}
	CHECK_MSG(hit == 0x1f, "every way chosen: %#x", hit);
	gc_cache_free(&a);
	gc_cache_free(&b);
}

/* A fully associative LRU cache of n lines misses exactly on the
 * references whose reuse distance (distinct lines since the last use,
 * by a naive stack) is >= n, or first uses. */
static void t_lru_stack(void)
{
	enum { N = 20000, LINES = 300 };
	static uint64_t stack[LINES];
	unsigned depth = 0;
	static unsigned dist[N];
	static uint64_t ref[N];
	uint64_t x = 88172645463325252u;

	for (unsigned i = 0; i < N; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		/* Skewed: half the references to 20 hot lines. */
		uint64_t line = (x & 1) ? (x >> 8) % 20 : (x >> 8) % LINES;
		ref[i] = line * 128 + ((x >> 40) & 127);
		unsigned d = 0;
		while (d < depth && stack[d] != line)
			d++;
		int found = d < depth;
		dist[i] = found ? d : UINT32_MAX;
		if (!found)
			depth++;
		memmove(stack + 1, stack, d * sizeof *stack);
		stack[0] = line;
	}
	unsigned sizes[] = {1, 2, 7, 20, 64, 150, 299, 300};
	for (unsigned s = 0; s < sizeof sizes / sizeof *sizes; s++) {
		unsigned n = sizes[s], want = 0, got = 0;
		gc_cache c;
		char why[128];
		gc_cache_geom g = {128, 32, 1, n, GC_INDEX_LINEAR, GC_REPL_LRU, 0};
		gc_cache_init(&c, &g, why, sizeof why);
		for (unsigned i = 0; i < N; i++) {
			unsigned set;
			want += dist[i] >= n;
			gc_cline *l = gc_cache_find(&c, ref[i], &set);
			if (l) {
				gc_cache_touch(&c, l);
			} else {
				got++;
				gc_cache_fill(&c, gc_cache_victim(&c, set), ref[i]);
			}
		}
		gc_cache_free(&c);
		CHECK_MSG(got == want, "%u lines: %u misses, %u distances >= n", n, got,
			  want);
	}
}

/* gc_cache_probe + gc_cache_victim_hint (one scan) and gc_cache_find +
 * gc_cache_victim (two) drive two caches through the same references,
 * with invalidations between: the same hits, the same ways, every
 * geometry and policy (random: the same draws). */
static void t_probe(void)
{
	static const struct {
		unsigned sets, ways;
		int index, repl;
	} geo[] = {
		{4, 1, GC_INDEX_LINEAR, GC_REPL_LRU},  {4, 4, GC_INDEX_LINEAR, GC_REPL_LRU},
		{6, 3, GC_INDEX_LINEAR, GC_REPL_FIFO}, {8, 24, GC_INDEX_XOR, GC_REPL_LRU},
		{1, 7, GC_INDEX_LINEAR, GC_REPL_FIFO}, {4, 5, GC_INDEX_LINEAR, GC_REPL_RANDOM},
		{32, 24, GC_INDEX_IPOLY, GC_REPL_LRU},
		/* wide sets: the cache keeps an index (GC_CACHE_WIDE) */
		{4, 256, GC_INDEX_LINEAR, GC_REPL_LRU}, {4, 64, GC_INDEX_LINEAR, GC_REPL_FIFO},
		{3, 100, GC_INDEX_LINEAR, GC_REPL_LRU}, {1, 33, GC_INDEX_LINEAR, GC_REPL_LRU},
		{4, 70, GC_INDEX_LINEAR, GC_REPL_RANDOM},
	};
	for (unsigned k = 0; k < sizeof geo / sizeof *geo; k++) {
		gc_cache a, b;
		char why[128];
		gc_cache_geom g = {128, 32, geo[k].sets, geo[k].ways, geo[k].index, geo[k].repl, 7};
		if (!CHECK_MSG(gc_cache_init(&a, &g, why, sizeof why) == 0, "%s", why))
			return;
		if (!CHECK_MSG(gc_cache_init(&b, &g, why, sizeof why) == 0, "%s", why))
			return;
		uint64_t x = 0x9e3779b97f4a7c15u + k;
		unsigned lines = geo[k].sets * geo[k].ways * 2 + 3;
		for (unsigned i = 0; i < 20000; i++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			uint64_t addr = ((x >> 8) % lines) * 128 + ((x >> 40) & 127);
			unsigned set;
			gc_cline *la = gc_cache_find(&a, addr, &set), *hint = NULL;
			if (!CHECK_MSG(set == gc_set_index(g.index, addr, 7, g.sets),
				       "geometry %u: set of %#llx", k, (unsigned long long)addr))
				return;
			gc_cline *lb = gc_cache_probe(&b, addr, set, &hint);
			if (!CHECK_MSG((la ? la - a.lines : -1) == (lb ? lb - b.lines : -1),
				       "geometry %u, reference %u: lookups differ", k, i))
				return;
			if (la && (x >> 60) == 0) {
				/* now and then the line leaves instead */
				gc_cache_invalidate(&a, la);
				gc_cache_invalidate(&b, lb);
				continue;
			}
			if (la) {
				gc_cache_touch(&a, la);
				gc_cache_touch(&b, lb);
				continue;
			}
			/* the rule, by hand: the first invalid way, else the
			 * least stamp (the lowest way of equals) */
			const gc_cline *w0 = a.lines + (size_t)set * g.ways;
			unsigned want = g.ways;
			for (unsigned w = 0; w < g.ways && want == g.ways; w++)
				if (w0[w].tag == GC_CACHE_NO_TAG)
					want = w;
			if (want == g.ways) {
				want = 0;
				for (unsigned w = 1; w < g.ways; w++)
					if (w0[w].stamp < w0[want].stamp)
						want = w;
			}
			gc_cline *va = gc_cache_victim(&a, set);
			gc_cline *vb = gc_cache_victim_hint(&b, set, hint);
			if (!CHECK_MSG(g.repl == GC_REPL_RANDOM || va == w0 + want,
				       "geometry %u, reference %u: victim %td, the rule says %u", k, i,
				       va - w0, want))
				return;
			if (!CHECK_MSG(va - a.lines == vb - b.lines,
				       "geometry %u, reference %u: victims %td and %td", k, i, va - a.lines,
				       vb - b.lines))
				return;
			gc_cache_fill(&a, va, addr);
			gc_cache_fill(&b, vb, addr);
		}
		gc_cache_free(&a);
		gc_cache_free(&b);
	}
}

static const check_unit units[] = {
	{"linear", t_linear},   {"xor", t_xor},       {"fermi", t_fermi},
	{"ipoly", t_ipoly},     {"fibonacci", t_fibonacci}, {"checks", t_checks},
	{"sectors", t_sectors},
	{"replacement", t_replacement}, {"lru-stack", t_lru_stack},
	{"probe", t_probe},
};

int main(int argc, char **argv)
{
	return check_run(units, CHECK_NUNITS(units), argc > 1 ? argv[1] : NULL);
}
