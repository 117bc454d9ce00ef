/*
 * model/l2.c - the L2 engine (model/l2.h): gc-l2's model of the shared,
 * sliced L2.
 *
 * One slice per memory sub-partition (l2.channels x l2.sub_partitions).
 * A line goes to the slice of its address under l2.mapping and
 * l2.partition_index (config/addrmap.h); within the slice its set is the
 * set-index function of the partition address, and its tag the whole line
 * address.  All slices live in one tag store whose set s of slice k is
 * set k * sets + s.
 *
 * Sector states: invalid, partial (write-validate only: some bytes
 * written, which ones unknown; kept in the line's `aux` bits) and valid;
 * dirty is separate.  What each policy does is in gc-l2(1), DESCRIPTION.
 * When the input's times are cycles (gc-l1 --timing), a sector read from
 * DRAM stays pending for mem.dram_latency cycles (model/pending.h), and
 * a sector found pending counts as merged, not as a hit.
 */
#include "model/l2.h"

#include "base/bits.h"
#include "config/addrmap.h"
#include "model/cache.h"
#include "model/l2map.h"
#include "model/pending.h"

#ifdef __SSE2__
#include <emmintrin.h>
#endif
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct gc_l2 {
	gc_gpu_config gpu;
	gc_l2map map;             /* slice and set of a line */
	uint8_t *ts;              /* the tag store: a block of tsb bytes a set */
	size_t tsb, nsets_all;
	unsigned ways;            /* and the offsets of the block's arrays */
	unsigned o_hi, o_st, o_valid, o_dirty, o_part, o_pf, o_clk;
	int repl;                 /* l2.replacement */
	uint64_t rng;             /* random replacement's generator */
	uint8_t full_mask;        /* every sector of a line */
	uint16_t *scratch;        /* renumber's, a stamp a way */
	unsigned sets, nslices, line, sector, nsectors, lshift, sshift;
	int index, write, walloc, lazy, flush, emit_all;
	uint8_t *pbytes;          /* lazy: bytes written per partial sector (only
				   a sector whose partial bit is set has one) */
	gc_writer *w;
	uint64_t last_time;       /* the latest request's, for flush records */
	gc_l2_totals s;
	gc_l2_slice *sl;
	int by_pc;                /* count pcs (--stats or -v) */
	gc_pctab pcs;             /* (kernel name, pc) -> requests, hits, misses */
	gc_opmap ops;             /* (kernel name, pc) -> opcode, for the table */
	gc_l2_kstat *ks;          /* the kernels so far, in order */
	size_t nks, kscap;
	gc_l2_kcounts kbase;      /* the counters at the open kernel's begin */
	gc_pf pf;                 /* l2.prefetch (model/prefetch.h), one for the L2 */
	gc_pf_counts pfc;         /* its prefetches and what became of them */
	uint64_t l1_prefetches;   /* requests that are L1's prefetches */
	uint8_t dram_flags;       /* GC_F_PREFETCH while a prefetch reads DRAM */
	uint64_t pf_lines[GC_PF_OUT_MAX]; /* --emit all: the last request's prefetches */
	unsigned npf_lines;
	gc_kunits kslices;        /* each kernel's sectors by slice */
	gc_pending pend;          /* timed: when fetched sectors arrive */
	uint64_t miss_latency;    /* timed: mem.dram_latency; 0: times are no cycles */
	void (*progress)(const gc_reader *r);
	gc_l2_statistics st;      /* gc_l2_stats' */
	struct event *ring;       /* gc_l2_run's events read ahead */
	int failed;
	jmp_buf jb;               /* gc_l2_run's: a failure inside returns there */
	uint64_t back;            /* a bad record: 1 + records before the last */
	char err[512];
};

/* A failure inside gc_l2_run: the message kept, back to gc_l2_run. */
static _Noreturn void fail(gc_l2 *m, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(m->err, sizeof m->err, fmt, ap);
	va_end(ap);
	m->failed = 1;
	longjmp(m->jb, 1);
}

/* ---- the tag store ------------------------------------------------------------ */

/*
 * Every field a lookup reads, for all the ways of a set, lies in one block
 * of the set's (whole cache lines of the processor's), so that a request
 * brings in 5 lines of a 24-way set, not the 9 of its gc_clines:
 *
 *   uint32_t lo[W]    the low 32 bits of each way's tag (all ones: none)
 *   uint16_t hi[W]    the tag's bits 32-47 (a tag is a line address, below 2^48)
 *   uint16_t st[W]    the way's stamp: 0 invalid (no tag), else its last use
 *                     (LRU) or its fill (FIFO and random), by the set's clock
 *   uint8_t valid[W], dirty[W], part[W] (write-validate's partial sectors),
 *           pf[W] (a prefetch filled it and no demand used it yet)
 *   uint16_t clock    the set's last stamp
 *
 * W is the ways rounded up to 4 (the tags are compared four at a time).
 * The stamps are gc_cache's order (gc_cache_probe: the least stamp, the
 * lowest way on a tie; an invalid way first) with a clock per set: when a
 * set's clock reaches STAMP_MAX its valid ways are renumbered 1..n in
 * their order, which changes no choice.
 */
#define STAMP_MAX 0x7fff
/* The bytes of a set's block (whole cache lines). */
#define BLOCK_BYTES(ways) ((12 * (((size_t)(ways) + 3) & ~(size_t)3) + 2 + 63) / 64 * 64)
#define NO_LO UINT32_MAX

/* A line: its set's block, set and way. */
struct ln {
	uint8_t *b;
	unsigned set, w;
};

#define LO(b) ((uint32_t *)(b))
#define HI(b) ((uint16_t *)((b) + m->o_hi))
#define ST(b) ((uint16_t *)((b) + m->o_st))
#define CLK(b) ((uint16_t *)((b) + m->o_clk))
#define VALID(l) ((l).b[m->o_valid + (l).w])
#define DIRTY(l) ((l).b[m->o_dirty + (l).w])
#define PART(l) ((l).b[m->o_part + (l).w])
#define PF(l) ((l).b[m->o_pf + (l).w])

static inline uint8_t *set_block(const gc_l2 *m, unsigned set)
{
	return m->ts + (size_t)set * m->tsb;
}

/* The line's number, set-major (pending.h's and pbytes' index). */
static inline size_t line_index(const gc_l2 *m, struct ln l)
{
	return (size_t)l.set * m->ways + l.w;
}

static inline uint64_t line_tag(const gc_l2 *m, struct ln l)
{
	return (uint64_t)HI(l.b)[l.w] << 32 | LO(l.b)[l.w];
}

static inline uint64_t line_addr(const gc_l2 *m, struct ln l)
{
	return line_tag(m, l) << m->lshift;
}

/* Set the layout for `ways` ways; the block's bytes. */
static size_t store_layout(gc_l2 *m, unsigned ways)
{
	unsigned W = (ways + 3) & ~3u;
	m->ways = ways;
	m->o_hi = 4 * W;
	m->o_st = 6 * W;
	m->o_valid = 8 * W;
	m->o_dirty = 9 * W;
	m->o_part = 10 * W;
	m->o_pf = 11 * W;
	m->o_clk = 12 * W;
	return BLOCK_BYTES(ways);
}

/* Every line invalid, the clocks and the generator reset (gc_cache_clear). */
static void store_clear(gc_l2 *m)
{
	memset(m->ts, 0, m->nsets_all * m->tsb);
	for (size_t s = 0; s < m->nsets_all; s++)
		memset(m->ts + s * m->tsb, 0xff, (size_t)(m->o_hi));
	m->rng = gc_cache_rng_seed(1);
}

/* The set's valid ways renumbered 1..n in their order; the clock n. */
static void renumber(gc_l2 *m, uint8_t *b)
{
	uint16_t *st = ST(b), *old = m->scratch;
	unsigned n = 0;
	memcpy(old, st, m->ways * sizeof *st);
	for (unsigned w = 0; w < m->ways; w++) {
		if (!old[w])
			continue;
		unsigned rank = 1;
		for (unsigned v = 0; v < m->ways; v++)
			rank += old[v] && old[v] < old[w];
		st[w] = (uint16_t)rank;
		n++;
	}
	*CLK(b) = (uint16_t)n;
}

/* The set's next stamp. */
static inline uint16_t next_stamp(gc_l2 *m, uint8_t *b)
{
	if (*CLK(b) == STAMP_MAX)
		renumber(m, b);
	return ++*CLK(b);
}

/* A use of line l: with LRU it becomes the most recent. */
static inline void touch(gc_l2 *m, struct ln l)
{
	if (m->repl == GC_REPL_LRU)
		ST(l.b)[l.w] = next_stamp(m, l.b);
}

/* Give way l to the line of tag `tag`: no sector valid or dirty yet,
 * most recent. */
static inline void fill(gc_l2 *m, struct ln l, uint64_t tag)
{
	LO(l.b)[l.w] = (uint32_t)tag;
	HI(l.b)[l.w] = (uint16_t)(tag >> 32);
	VALID(l) = DIRTY(l) = PF(l) = PART(l) = 0;
	ST(l.b)[l.w] = next_stamp(m, l.b);
}

static inline void invalidate(gc_l2 *m, struct ln l)
{
	LO(l.b)[l.w] = NO_LO;
	HI(l.b)[l.w] = 0;
	ST(l.b)[l.w] = 0;
	VALID(l) = DIRTY(l) = PF(l) = 0;
}

/* The way of the least stamp, the lowest on a tie (an invalid way first). */
static inline __attribute__((always_inline)) unsigned least(const gc_l2 *m, const uint8_t *b,
							    unsigned ways)
{
	const uint16_t *st = (const uint16_t *)(b + m->o_st);
#ifdef __SSE2__
	if (ways % 8 == 0 && ways <= 32) {
		/* the least of eight at a time (stamps are below 0x8000), then
		 * the lowest way that has it */
		__m128i mn = _mm_loadu_si128((const __m128i *)st);
		for (unsigned w = 8; w < ways; w += 8)
			mn = _mm_min_epi16(mn, _mm_loadu_si128((const __m128i *)(st + w)));
		mn = _mm_min_epi16(mn, _mm_shuffle_epi32(mn, 0x4e));
		mn = _mm_min_epi16(mn, _mm_shuffle_epi32(mn, 0xb1));
		mn = _mm_min_epi16(mn, _mm_shufflehi_epi16(_mm_shufflelo_epi16(mn, 0xb1), 0xb1));
		uint64_t eq = 0;
		for (unsigned w = 0; w < ways; w += 8)
			eq |= (uint64_t)_mm_movemask_epi8(_mm_cmpeq_epi16(
				      _mm_loadu_si128((const __m128i *)(st + w)), mn)) << (2 * w);
		return (unsigned)__builtin_ctzll(eq) / 2;
	}
#endif
	unsigned v = 0, s = st[0];
	for (unsigned w = 1; w < ways; w++) {
		v = st[w] < s ? w : v;
		s = st[w] < s ? st[w] : s;
	}
	return v;
}

/* Look tag up in set `set`: its way, or -1 with *victim the way a fill
 * would take now (-1 with random replacement: the draw is victim()'s,
 * made only when the caller allocates).  The set unchanged. */
static inline __attribute__((always_inline)) int probe_ways(gc_l2 *m, uint64_t tag, unsigned set,
							    int *victim, unsigned ways)
{
	uint8_t *b = set_block(m, set);
	const uint32_t *lo = LO(b);
	uint32_t cand = 0;
#ifdef __SSE2__
	__m128i t = _mm_set1_epi32((int)(uint32_t)tag);
#pragma GCC unroll 8
	for (unsigned w = 0; w < ways; w += 4)
		cand |= (uint32_t)_mm_movemask_ps(_mm_castsi128_ps(
				_mm_cmpeq_epi32(_mm_load_si128((const __m128i *)(lo + w)), t))) << w;
	cand &= ways >= 32 ? UINT32_MAX : (UINT32_C(1) << ways) - 1;
#else
	for (unsigned w = 0; w < ways; w++)
		cand |= (uint32_t)(lo[w] == (uint32_t)tag) << w;
#endif
	for (; cand; cand &= cand - 1) {
		unsigned w = (unsigned)__builtin_ctz(cand);
		if (HI(b)[w] == (uint16_t)(tag >> 32) && ST(b)[w])
			return (int)w;
	}
	*victim = m->repl == GC_REPL_RANDOM ? -1 : (int)least(m, b, ways);
	return -1;
}

/* The same for any ways (unrolled for the presets' 16 and 24). */
static inline __attribute__((always_inline)) int probe(gc_l2 *m, uint64_t tag, unsigned set, int *victim)
{
	if (m->ways == 24)
		return probe_ways(m, tag, set, victim, 24);
	if (m->ways == 16)
		return probe_ways(m, tag, set, victim, 16);
	if (m->ways < 32)
		return probe_ways(m, tag, set, victim, m->ways);
	/* wider sets: the candidates 32 ways at a time */
	uint8_t *b = set_block(m, set);
	for (unsigned w = 0; w < m->ways; w++)
		if (LO(b)[w] == (uint32_t)tag && HI(b)[w] == (uint16_t)(tag >> 32) && ST(b)[w])
			return (int)w;
	*victim = m->repl == GC_REPL_RANDOM ? -1 : (int)least(m, b, m->ways);
	return -1;
}

/* The way a new line of `set` goes to: the probe's, or (random
 * replacement) the first invalid way, else a seeded random way. */
static inline unsigned victim(gc_l2 *m, unsigned set, int hint)
{
	if (hint >= 0)
		return (unsigned)hint;
	const uint16_t *st = ST(set_block(m, set));
	for (unsigned w = 0; w < m->ways; w++)
		if (!st[w])
			return w;
	return (unsigned)((gc_cache_rng_next(&m->rng) >> 32) % m->ways);
}

/* What a probe of `set` reads, on its way to the processor's cache (a
 * constant `bytes` unrolls the loop). */
static inline __attribute__((always_inline)) void prefetch_bytes(const gc_l2 *m, unsigned set,
								  size_t bytes)
{
	const char *p = (const char *)set_block(m, set);
	for (size_t off = 0; off < bytes; off += 64)
		__builtin_prefetch(p + off, 1);
}

static inline void prefetch_set(const gc_l2 *m, unsigned set)
{
	prefetch_bytes(m, set, m->tsb);
}

/* ---- the model ------------------------------------------------------------------ */

static _Noreturn void die_write(gc_l2 *m)
{
	fail(m, "%s", gc_writer_error(m->w));
}

/* Bytes of sector i of a request of `bytes` over the k sectors of mask,
 * when it does not fill them: an even share, the remainder to the lowest. */
static unsigned share(unsigned bytes, unsigned k, unsigned rank)
{
	return bytes / k + (rank < bytes % k);
}
/* Emit one DRAM transaction on account of request r. */
static void dram(gc_l2 *m, const gc_rec *r, int op, uint64_t line_addr, uint8_t mask,
		 unsigned bytes, uint8_t outcome, unsigned slice)
{
	unsigned n = gc_popcount8(mask);
	if (op == GC_LOAD) {
		m->s.dram_reads += n;
		m->s.dram_read_bytes += bytes;
		m->s.read_records++;
		m->sl[slice].dram_reads += n;
	} else {
		m->s.dram_writes += n;
		m->s.dram_write_bytes += bytes;
		m->s.write_records++;
		m->sl[slice].dram_writes += n;
	}
	if (m->emit_all || !m->w) /* --emit all, none */
		return;
	gc_rec d = *r;
	d.op = (uint8_t)op;
	/* a read for a prefetch (L1's or L2's own) is one too */
	d.flags = (uint8_t)(op == GC_LOAD ? (r->flags | m->dram_flags) & GC_F_PREFETCH : 0);
	d.lane = 0;
	d.outcome = outcome;
	d.mask = mask;
	d.size = (uint16_t)bytes;
	d.addr = line_addr;
	if (gc_write(m->w, &d) < 0)
		die_write(m);
}

/* The dirty sectors of line l and their bytes (partial ones as written). */
static unsigned dirty_bytes(const gc_l2 *m, struct ln l)
{
	uint8_t dirty = DIRTY(l), part = (uint8_t)(PART(l) & dirty);
	if (!part)
		return m->sector * gc_popcount8(dirty);
	unsigned bytes = 0;
	for (unsigned i = 0; i < m->nsectors; i++) {
		if (!(dirty >> i & 1))
			continue;
		if (part >> i & 1)
			bytes += m->pbytes[line_index(m, l) * m->nsectors + i];
		else
			bytes += m->sector;
	}
	return bytes;
}

/* Write back line l's dirty sectors (if any) at a flush. */
static void write_back(gc_l2 *m, const gc_rec *r, struct ln l)
{
	if (!DIRTY(l))
		return;
	unsigned slice = l.set / m->sets;
	m->s.wr[GC_L2_WR_FLUSH] += gc_popcount8(DIRTY(l));
	dram(m, r, GC_STORE, line_addr(m, l), DIRTY(l), dirty_bytes(m, l), GC_OUT_WRITEBACK,
	     slice);
}

/* Mark sectors `secs` of l partially written by one request of `bytes`
 * over the sectors of `reqmask`. */
static void add_partial_many(gc_l2 *m, struct ln l, uint8_t secs, uint8_t reqmask,
			     unsigned bytes);

static inline void add_partial(gc_l2 *m, struct ln l, uint8_t secs, uint8_t reqmask,
			       unsigned bytes)
{
	if (secs == reqmask && !(reqmask & (reqmask - 1))) { /* one sector: all the bytes */
		uint8_t *pb = m->pbytes + line_index(m, l) * m->nsectors;
		uint8_t part = PART(l);
		unsigned i = (unsigned)__builtin_ctz(reqmask);
		unsigned b = (part >> i & 1 ? pb[i] : 0) + bytes;
		pb[i] = (uint8_t)(b > m->sector ? m->sector : b);
		PART(l) = part | secs;
		return;
	}
	add_partial_many(m, l, secs, reqmask, bytes);
}

/* add_partial of more than one sector. */
static void add_partial_many(gc_l2 *m, struct ln l, uint8_t secs, uint8_t reqmask,
			     unsigned bytes)
{
	uint8_t *pb = m->pbytes + line_index(m, l) * m->nsectors;
	uint8_t part = PART(l);
	unsigned k = gc_popcount8(reqmask), rank = 0;
	unsigned q = bytes / k, r = bytes % k;
	for (unsigned i = 0; reqmask >> i; i++) {
		if (!(reqmask >> i & 1))
			continue;
		if (secs >> i & 1) {
			/* A sector becoming partial starts from 0 bytes; an even
			 * share of the request's bytes, the remainder to the lowest. */
			unsigned b = (part >> i & 1 ? pb[i] : 0) + q + (rank < r);
			pb[i] = (uint8_t)(b > m->sector ? m->sector : b);
		}
		rank++;
	}
	PART(l) = part | secs;
}

/* The dirty data of an evicted line, written after the fill's reads (as
 * GPGPU-Sim queues them). */
struct victim {
	uint64_t addr;
	uint8_t dirty;
	unsigned bytes;
};

/* Allocate a way of `set` to the line of tag `tag`; the line it held, if
 * dirty, goes to *wb. */
static struct ln allocate(gc_l2 *m, uint64_t tag, unsigned set, int hint, struct victim *wb)
{
	struct ln v = {set_block(m, set), set, victim(m, set, hint)};
	if (ST(v.b)[v.w]) {
		m->s.evictions++;
		m->pfc.useless += PF(v);
		if (DIRTY(v)) {
			m->s.dirty_evictions++;
			wb->addr = line_addr(m, v);
			wb->dirty = DIRTY(v);
			wb->bytes = dirty_bytes(m, v);
		}
	}
	fill(m, v, tag);
	if (m->miss_latency)
		gc_pending_clear(&m->pend, line_index(m, v));
	return v;
}

/* Write the victim's dirty sectors, if any; 1 when there were some. */
static int evict_write(gc_l2 *m, const gc_rec *r, const struct victim *wb, unsigned slice)
{
	if (!wb->dirty)
		return 0;
	m->s.wr[GC_L2_WR_EVICT] += gc_popcount8(wb->dirty);
	dram(m, r, GC_STORE, wb->addr, wb->dirty, wb->bytes, GC_OUT_WRITEBACK, slice);
	return 1;
}

/* Does this store write back (dirty) or through? */
static int writes_back(const gc_l2 *m, const gc_rec *r)
{
	return m->write == GC_WRITE_BACK ||
	       (m->write == GC_WRITE_LOCAL_BACK && r->space == GC_LOCAL);
}

/* The slice of line address addr, and its set in the one cache of every
 * slice. */
static inline unsigned locate(const gc_l2 *m, uint64_t addr, unsigned *slice)
{
	return gc_l2map_locate(&m->map, addr, slice);
}

/* Sectors `fetch` of line l are read from DRAM for request r: pending
 * until they arrive (timed input). */
static void fetched(gc_l2 *m, const gc_rec *r, struct ln l, uint8_t fetch)
{
	if (m->miss_latency)
		gc_pending_set(&m->pend, line_index(m, l), fetch, r->time + m->miss_latency);
}

/* The L2 prefetcher after load r of line addr (trigger: it missed or hit
 * a prefetched line): each line it names that is absent is read from
 * DRAM whole, with the prefetch flag, and filled marked as prefetched;
 * timed, its sectors are pending as a demand fill's are (fetched). */
static void l2_prefetch(gc_l2 *m, const gc_rec *r, uint64_t addr, int trigger)
{
	uint64_t lines[GC_PF_OUT_MAX];
	unsigned n = gc_pf_access(&m->pf, r->pc, r->warp, addr >> m->lshift, trigger, lines);
	m->dram_flags = GC_F_PREFETCH;
	for (unsigned i = 0; i < n; i++) {
		uint64_t a = lines[i] << m->lshift;
		unsigned slice, set = locate(m, a, &slice);
		int hint = -1;
		if (probe(m, lines[i], set, &hint) >= 0)
			continue;
		struct victim wb = {0, 0, 0};
		struct ln l = allocate(m, lines[i], set, hint, &wb);
		VALID(l) = m->full_mask;
		PF(l) = 1;
		fetched(m, r, l, m->full_mask);
		m->pfc.issued++;
		m->s.rd[GC_L2_RD_PREFETCH] += m->nsectors;
		if (m->emit_all)
			m->pf_lines[m->npf_lines++] = a;
		dram(m, r, GC_LOAD, a, m->full_mask, m->line, GC_OUT_MAKE(GC_R_MISS, 0), slice);
		evict_write(m, r, &wb, slice);
	}
	m->dram_flags = 0;
}

/* --emit all: the prefetches request r caused, after it: loads of whole
 * lines with the prefetch flag, no compute field and no outcome (they are
 * no lookups of a request's). */
static void emit_prefetches(gc_l2 *m, const gc_rec *r)
{
	for (unsigned i = 0; i < m->npf_lines; i++) {
		gc_rec d = *r;
		d.op = GC_LOAD;
		d.addr = m->pf_lines[i];
		d.mask = m->full_mask;
		d.size = (uint16_t)m->line;
		d.flags = (uint8_t)((d.flags & ~GC_F_BYPASS_L1) | GC_F_PREFETCH);
		d.outcome = 0;
		d.compute = 0;
		if (gc_write(m->w, &d) < 0)
			die_write(m);
	}
	m->npf_lines = 0;
}

/* A request's sectors (mask; `have` present at the lookup, `pend` of them
 * in flight; `absent`: its line was not there) in the counts o. */
static void count_sectors(gc_l2_op_sectors *o, uint8_t mask, uint8_t have, uint8_t pend,
			  int absent)
{
	o->requested += gc_popcount8(mask);
	o->hits += gc_popcount8(have) - gc_popcount8(pend);
	o->merged += gc_popcount8(pend);
	o->hw_hits += gc_popcount8(have);
	o->line_misses += (uint64_t)absent;
}

/* One request: look up, update, emit.  Returns its outcome byte. */
static uint8_t l2_access(gc_l2 *m, gc_rec *r, unsigned slice, unsigned set)
{
	uint8_t mask = r->mask;
	uint64_t addr = r->addr & ~(uint64_t)(m->line - 1);
	int hint = -1, w = probe(m, addr >> m->lshift, set, &hint), present = w >= 0;
	struct ln l = {set_block(m, set), set, (unsigned)w};
	struct victim wb = {0, 0, 0};
	int bypass = 0;

	int op = r->op;
	uint8_t valid = present ? VALID(l) : 0, part = present ? PART(l) : 0;
	uint8_t have = op == GC_STORE ? (uint8_t)((valid | part) & mask) : (uint8_t)(valid & mask);
	int res = have == mask ? GC_R_HIT : present ? GC_R_SECTOR_MISS : GC_R_MISS;

	/* sectors still on their way from DRAM are merged, not hits */
	uint8_t pend = m->miss_latency && present ? gc_pending_mask(&m->pend, line_index(m, l),
							       have, r->time)
					     : 0;
	gc_l2_slice *sl = &m->sl[slice];
	int pf_hit = present && PF(l);
	if (pf_hit) { /* a prefetched line used: late while its fill is on the way */
		PF(l) = 0;
		if (pend)
			m->pfc.late++;
		else
			m->pfc.useful++;
	}
	m->l1_prefetches += (r->flags & GC_F_PREFETCH) != 0;
	m->s.requests++;
	m->s.results[res]++;
	m->s.ops[op]++;
	/* the sectors by slice only: settle() sums them */
	count_sectors(&sl->op[op & 3], mask, have, pend, !present);
	if (res == GC_R_HIT) {
		m->s.op_hits[op]++;
		sl->hits++;
	} else {
		sl->misses++;
	}
	uint8_t out = GC_OUT_MAKE(res, 0);

	if (op != GC_STORE) {
		/* Loads and atomics read: fetch what is not valid (partial
		 * sectors are fetched and merged), then an atomic writes. */
		if (!present)
			l = allocate(m, addr >> m->lshift, set, hint, &wb);
		else
			touch(m, l);
		uint8_t fetch = (uint8_t)(mask & ~VALID(l));
		if (fetch) {
			uint8_t pf = (uint8_t)(fetch & PART(l));
			m->s.rd[GC_L2_RD_PARTIAL] += gc_popcount8(pf);
			m->s.rd[op == GC_ATOMIC ? GC_L2_RD_ATOMIC : GC_L2_RD_LOAD] +=
				gc_popcount8(fetch & ~pf);
			dram(m, r, GC_LOAD, addr, fetch, m->sector * gc_popcount8(fetch),
			     out, slice);
			fetched(m, r, l, fetch);
			VALID(l) |= fetch;
			PART(l) = (uint8_t)(PART(l) & ~fetch);
		}
		if (op == GC_ATOMIC) {
			if (writes_back(m, r)) {
				DIRTY(l) |= mask;
			} else {
				unsigned bytes = r->size ? r->size : m->sector * gc_popcount8(mask);
				m->s.wr[GC_L2_WR_THROUGH] += gc_popcount8(mask);
				dram(m, r, GC_STORE, addr, mask, bytes, 0, slice);
			}
		}
		uint8_t o = (uint8_t)(out | (evict_write(m, r, &wb, slice) ? GC_OUT_WRITEBACK : 0));
		if (op == GC_LOAD && m->pf.p.kind != GC_PF_NONE)
			l2_prefetch(m, r, addr, res != GC_R_HIT || pf_hit);
		return o;
	}

	/* Stores. */
	unsigned k = gc_popcount8(mask);
	unsigned bytes = r->size ? r->size : m->sector * k;
	int full = bytes >= m->sector * k;
	int back = writes_back(m, r);
	if (!back) {
		m->s.wr[GC_L2_WR_THROUGH] += k;
		dram(m, r, GC_STORE, addr, mask, bytes, 0, slice);
	}
	if (m->write == GC_WRITE_EVICT) {
		/* Write-evict: the write goes on; the sectors it wrote leave. */
		if (present) {
			VALID(l) &= (uint8_t)~mask;
			PART(l) = (uint8_t)(PART(l) & ~mask);
			if (!VALID(l) && !PART(l)) {
				invalidate(m, l);
			}
		}
		return (uint8_t)(out | GC_OUT_BYPASS);
	}
	if (m->walloc == GC_WALLOC_NONE) {
		/* Present sectors are written in the line; the rest go around. */
		uint8_t in = have, around = (uint8_t)(mask & ~have);
		if (around) {
			bypass = 1;
			if (back) {
				unsigned ab = 0, rank = 0;
				for (unsigned i = 0; i < m->nsectors; i++) {
					if (!(mask >> i & 1))
						continue;
					if (around >> i & 1)
						ab += full ? m->sector : share(bytes, k, rank);
					rank++;
				}
				m->s.wr[GC_L2_WR_AROUND] += gc_popcount8(around);
				dram(m, r, GC_STORE, addr, around, ab, GC_OUT_BYPASS, slice);
			}
		}
		if (in) {
			touch(m, l);
			if (full) {
				VALID(l) |= in;
				PART(l) = (uint8_t)(PART(l) & ~in);
			} else if (in & PART(l)) {
				add_partial(m, l, (uint8_t)(in & PART(l)), mask, bytes);
			}
			if (back)
				DIRTY(l) |= in;
		}
		return (uint8_t)(out | (bypass ? GC_OUT_BYPASS : 0));
	}

	if (!present)
		l = allocate(m, addr >> m->lshift, set, hint, &wb);
	else
		touch(m, l);
	uint8_t missing = (uint8_t)(mask & ~VALID(l) & ~PART(l));
	uint8_t fetch = 0;
	if (m->walloc == GC_WALLOC_WRITE)
		fetch = missing; /* seed 003 Fig. 4: a write miss reads the sector first */
	else if (m->walloc == GC_WALLOC_FETCH_ON_WRITE && !full)
		fetch = missing;
	/* the hardware's write hit: allocated without reading DRAM */
	sl->op[GC_STORE].hw_hits += gc_popcount8(missing & ~fetch);
	if (fetch) {
		m->s.rd[GC_L2_RD_WRITE_FETCH] += gc_popcount8(fetch);
		dram(m, r, GC_LOAD, addr, fetch, m->sector * gc_popcount8(fetch), out,
		     slice);
		fetched(m, r, l, fetch);
		VALID(l) |= fetch;
	}
	if (full) {
		VALID(l) |= mask;
		PART(l) = (uint8_t)(PART(l) & ~mask);
	} else if (m->lazy) {
		/* Write-validate: unfetched sectors take the bytes, partially. */
		uint8_t p = (uint8_t)(mask & ~VALID(l));
		if (p)
			add_partial(m, l, p, mask, bytes);
	}
	if (back)
		DIRTY(l) |= mask;
	return (uint8_t)(out | (evict_write(m, r, &wb, slice) ? GC_OUT_WRITEBACK : 0));
}

/* Events are read AHEAD records in advance: a request's slice and set are
 * known, and its set's lines on their way into the processor's cache,
 * while the requests before it are modelled (the tags of a 6 MB L2 do not
 * fit a core's cache, and one request of lead is too little to hide the
 * next level's latency).  A kernel begin keeps a copy of its kernel: the
 * reader's is replaced by the next begin, which may come within AHEAD. */
#define AHEAD 8 /* a power of two */

struct event {
	int ev;
	gc_rec rec;
	unsigned slice, set;
	gc_kernel *k; /* GC_KBEGIN: this slot's copy */
	gc_optab ops; /* GC_KEND: this slot's copy of the kernel's opcodes */
};

/* The message of a mask that is no set of the line's sectors. */
static __attribute__((noinline, cold)) void bad_mask(gc_l2 *m, uint8_t mask)
{
	snprintf(m->err, sizeof m->err, "field mask: 0x%x is not a set of the %u sectors "
		 "of a %u-byte line", mask, m->nsectors, m->line);
}

/* Whether mask is a set of the line's sectors; if not, the message. */
static inline int mask_ok(gc_l2 *m, uint8_t mask)
{
	if (__builtin_expect(mask && !(mask >> m->nsectors), 1))
		return 1;
	bad_mask(m, mask);
	return 0;
}

/* A bad mask `back` records before the reader's last: gc_l2_run fails. */
static __attribute__((noinline, cold)) _Noreturn void fail_back(gc_l2 *m, uint64_t back)
{
	m->back = back + 1;
	m->failed = 1;
	longjmp(m->jb, 1);
}

/* A request's mask checked, as it is read (`back` records before the
 * reader's last), and its slice and set found. */
static inline void place(gc_l2 *m, struct event *e, uint64_t back)
{
	if (!mask_ok(m, e->rec.mask))
		fail_back(m, back);
	e->set = locate(m, e->rec.addr & ~(uint64_t)(m->line - 1), &e->slice);
}

/* The data records of gc_read_raw's block not yet read into the ring. */
struct block {
	const unsigned char *p;
	size_t n, rs;
	uint64_t hi;
};

/* The next event: a data record from the block (another block when it
 * is used up), else gc_read's. */
static void read_event(gc_l2 *m, gc_reader *r, struct block *b, struct event *e)
{
	if (!b->n)
		b->p = gc_read_raw(r, SIZE_MAX, &b->n, &b->hi);
	if (b->n) {
		gc_reader_decode(r, b->p, b->hi, &e->rec);
		b->p += b->rs;
		e->ev = GC_DATA;
		place(m, e, --b->n);
	} else {
		e->ev = gc_read(r, &e->rec);
		if (e->ev == GC_DATA)
			place(m, e, 0);
	}
	if (e->ev == GC_KBEGIN)
		memcpy(e->k, gc_reader_kernel(r), sizeof *e->k);
	if (e->ev == GC_KEND && gc_optab_copy(&e->ops, gc_reader_opcodes(r)) < 0)
		fail(m, "out of memory");
	if (e->ev != GC_DATA)
		return;
	prefetch_set(m, e->set);
	if (m->lazy && e->rec.op == GC_STORE) /* loads need it only to evict partial lines */
		__builtin_prefetch(m->pbytes + (size_t)e->set * m->ways * m->nsectors, 1);
}

/* --flush at kernel end: every dirty sector written back, every line
 * invalidated, in line order (slice, set, way). */
static void flush_all(gc_l2 *m, uint32_t kernel)
{
	/* the latest request's time; dram() sets the fields that differ */
	gc_rec r = {.kernel = kernel, .space = GC_GLOBAL, .time = m->last_time};
	for (unsigned s = 0; s < m->nsets_all; s++) {
		struct ln l = {set_block(m, s), s, 0};
		for (l.w = 0; l.w < m->ways; l.w++) {
			if (!ST(l.b)[l.w])
				continue;
			m->pfc.useless += PF(l);
			write_back(m, &r, l);
		}
	}
	store_clear(m);
	m->s.flushes++;
}

static uint64_t dirty_sectors(const gc_l2 *m)
{
	uint64_t n = 0;
	for (unsigned s = 0; s < m->nsets_all; s++) {
		struct ln l = {set_block(m, s), s, 0};
		for (l.w = 0; l.w < m->ways; l.w++)
			if (ST(l.b)[l.w])
				n += gc_popcount8(DIRTY(l));
	}
	return n;
}

/* ---- kernels ------------------------------------------------------------------ */

/* The sector counts of the whole L2 and each slice's totals, from the
 * slices' counts by operation (the only ones l2_access keeps). */
static void settle(gc_l2 *m)
{
	memset(m->s.op, 0, sizeof m->s.op);
	m->s.sec = (gc_l2_sectors){0, 0};
	for (unsigned i = 0; i < m->nslices; i++) {
		gc_l2_slice *p = &m->sl[i];
		p->requests = p->hits + p->misses;
		p->sec = (gc_l2_sectors){0, 0};
		for (int op = 0; op < 4; op++) {
			const gc_l2_op_sectors *o = &p->op[op];
			gc_l2_op_sectors *t = &m->s.op[op];
			p->sec.requested += o->requested;
			p->sec.hits += o->hits;
			t->requested += o->requested;
			t->hits += o->hits;
			t->line_misses += o->line_misses;
			t->merged += o->merged;
			t->hw_hits += o->hw_hits;
		}
		m->s.sec.requested += p->sec.requested;
		m->s.sec.hits += p->sec.hits;
	}
}

static void snapshot(gc_l2 *m, gc_l2_kcounts *k)
{
	settle(m);
	const gc_l2_totals *s = &m->s;
	k->requests = s->requests;
	k->hits = s->results[GC_R_HIT];
	k->sec_requested = s->sec.requested;
	k->sec_hits = s->sec.hits;
	k->dram_reads = s->dram_reads;
	k->dram_read_bytes = s->dram_read_bytes;
	k->dram_writes = s->dram_writes;
	k->dram_write_bytes = s->dram_write_bytes;
	memcpy(k->op, s->op, sizeof k->op);
}

static void kernel_begin(gc_l2 *m, const gc_kernel *k)
{
	if (m->nks == m->kscap) {
		m->kscap = m->kscap ? 2 * m->kscap : 16;
		m->ks = realloc(m->ks, m->kscap * sizeof *m->ks);
		if (!m->ks)
			fail(m, "out of memory");
	}
	gc_l2_kstat *e = &m->ks[m->nks++];
	memset(e, 0, sizeof *e);
	e->id = k->id;
	e->name = strdup(k->name);
	if (!e->name)
		fail(m, "out of memory");
	snapshot(m, &m->kbase);
}

/* The open kernel ends (its flush done): its counts are the difference. */
static void kernel_end(gc_l2 *m)
{
	if (!m->nks)
		return;
	gc_l2_kcounts now;
	snapshot(m, &now);
	uint64_t *x = (uint64_t *)&now;
	const uint64_t *b = (const uint64_t *)&m->kbase;
	for (size_t i = 0; i < sizeof now / sizeof(uint64_t); i++)
		x[i] -= b[i];
	m->ks[m->nks - 1].n = now;
	snapshot(m, &m->kbase);
	for (unsigned i = 0; i < m->nslices; i++) {
		const gc_l2_op_sectors *o = m->sl[i].op;
		uint64_t v[GC_KU_WIDTH] = {0};
		for (int op = GC_LOAD, at = GC_KU_LOADS; op <= GC_STORE; op++, at = GC_KU_STORES) {
			v[at + GC_KU_REQUESTED] = o[op].requested;
			v[at + GC_KU_HITS] = o[op].hits;
			v[at + GC_KU_LINE_MISSES] = o[op].line_misses;
			v[at + GC_KU_MERGED] = o[op].merged;
		}
		if (gc_kunits_unit(&m->kslices, i, v) < 0)
			fail(m, "out of memory");
	}
	if (gc_kunits_kernel_end(&m->kslices) < 0)
		fail(m, "out of memory");
}

/* ---- the API ------------------------------------------------------------------ */

/* What gc_l2_new checks, in order; the message in err, -1 on a refusal. */
static int configure(gc_l2 *m, const gc_l2_params *p, char *err, size_t len)
{
	char why[256];
	const gc_gpu_cache *g = &m->gpu.l2;
	if (g->write == GC_WRITE_READ_ONLY) {
		snprintf(err, len, "l2.write read-only: gc-l2 needs a policy for stores "
			 "(write-back, write-through, write-evict, local-write-back)");
		return -1;
	}
	gc_addrmap am;
	if (gc_addrmap_init(&am, g->mapping, g->channels, g->sub_partitions, g->pindex, why,
			    sizeof why) < 0) {
		snprintf(err, len, "l2.mapping: %s", why);
		return -1;
	}
	if (gc_set_index_check(g->index, g->sets, g->line, why, sizeof why) < 0) {
		snprintf(err, len, "l2.index: %s", why);
		return -1;
	}
	m->nslices = g->channels * g->sub_partitions;
	m->sets = g->sets;
	m->line = g->line;
	m->sector = g->sector;
	m->index = g->index;
	m->write = g->write;
	m->walloc = g->walloc;
	m->lazy = g->walloc == GC_WALLOC_LAZY_FETCH_ON_READ;
	m->flush = p->flush;
	m->emit_all = p->emit_all;
	m->by_pc = p->by_pc;
	m->progress = p->progress;
	m->miss_latency = p->miss_latency;
	m->lshift = gc_log2(m->line);
	m->sshift = gc_log2(m->sector);
	m->nsectors = m->line / m->sector;
	gc_l2map_init(&m->map, &am, m->index, m->sets, m->line);
	if ((uint64_t)m->nslices * m->sets > UINT32_MAX) {
		snprintf(err, len, "%u slices x %u sets is too many", m->nslices, m->sets);
		return -1;
	}
	/* Every slice in one cache; the set index is ours (linear here). */
	gc_cache_geom geom = {
		.line = g->line, .sector = g->sector, .sets = m->nslices * m->sets,
		.ways = g->ways, .index = GC_INDEX_LINEAR, .repl = g->repl, .seed = 1,
	};
	if (gc_cache_geom_check(&geom, why, sizeof why) < 0) {
		snprintf(err, len, "L2: %s", why);
		return -1;
	}
	m->nsets_all = (size_t)m->nslices * m->sets;
	m->repl = g->repl;
	m->full_mask = (uint8_t)((1u << m->nsectors) - 1);
	m->tsb = store_layout(m, g->ways);
	return 0;
}

gc_l2 *gc_l2_new(const gc_l2_params *p, int *refused, char *err, size_t len)
{
	char why[256];
	*refused = 0;
	gc_l2 *m = calloc(1, sizeof *m);
	if (!m) {
		snprintf(err, len, "out of memory");
		return NULL;
	}
	m->gpu = *p->gpu;
	gc_pctab_init(&m->pcs);
	gc_opmap_init(&m->ops);
	gc_kunits_init(&m->kslices, GC_KU_WIDTH);
	if (configure(m, p, err, len) < 0) {
		*refused = 1;
		gc_l2_free(m);
		return NULL;
	}
	if (p->sweep) /* the sweep keeps its own stacks */
		return m;
	const gc_gpu_cache *g = &m->gpu.l2;
	size_t nlines = m->nsets_all * m->ways;
	m->ts = aligned_alloc(64, m->nsets_all * m->tsb);
	m->scratch = calloc(m->ways, sizeof *m->scratch);
	if (!m->ts || !m->scratch)
		goto nomem;
	store_clear(m);
	if (m->lazy) {
		m->pbytes = calloc(nlines, m->nsectors);
		if (!m->pbytes)
			goto nomem;
	}
	m->sl = calloc(m->nslices, sizeof *m->sl);
	gc_l2_op_sectors *ops = calloc((size_t)m->nslices * 4, sizeof *ops);
	if (!m->sl || !ops) {
		free(ops);
		goto nomem;
	}
	for (unsigned i = 0; i < m->nslices; i++)
		m->sl[i].op = ops + 4 * (size_t)i;
	gc_pf_params pp = {g->prefetch, g->pf_degree, g->pf_distance, g->pf_table, g->pf_window,
			   GC_ADDR48_MAX >> m->lshift};
	if (gc_pf_init(&m->pf, &pp, why, sizeof why) < 0) {
		snprintf(err, len, "L2: %s", why);
		*refused = 1;
		gc_l2_free(m);
		return NULL;
	}
	if (m->miss_latency && gc_pending_init(&m->pend, nlines, m->nsectors) < 0)
		goto nomem;
	return m;
nomem:
	snprintf(err, len, "out of memory");
	gc_l2_free(m);
	return NULL;
}

void gc_l2_free(gc_l2 *m)
{
	if (!m)
		return;
	free(m->ts);
	free(m->scratch);
	gc_pf_free(&m->pf);
	gc_pctab_free(&m->pcs);
	gc_opmap_free(&m->ops);
	free(m->pbytes);
	if (m->sl)
		free(m->sl[0].op);
	free(m->sl);
	gc_kunits_free(&m->kslices);
	gc_pending_free(&m->pend);
	for (size_t i = 0; i < m->nks; i++)
		free(m->ks[i].name);
	free(m->ks);
	free(m);
}

const char *gc_l2_error(const gc_l2 *m)
{
	return m->err;
}

long gc_l2_place(gc_l2 *m, const gc_rec *rec, unsigned *slice)
{
	if (!mask_ok(m, rec->mask))
		return -1;
	return (long)locate(m, rec->addr & ~(uint64_t)(m->line - 1), slice);
}

/* One event of the stream, in order. */
static void event(gc_l2 *m, struct event *cur)
{
	gc_rec *rec = &cur->rec;
	if (cur->ev == GC_DATA) {
		uint8_t out = l2_access(m, rec, cur->slice, cur->set);
		if (m->by_pc) {
			unsigned res = GC_OUT_RESULT(out);
			if (gc_pctab_count(&m->pcs, rec->pc, res == GC_R_HIT,
					   res >= GC_R_SECTOR_MISS) < 0)
				fail(m, "out of memory");
		}
		m->last_time = rec->time;
		if (m->emit_all && m->w) {
			rec->outcome = out;
			if (gc_write(m->w, rec) < 0)
				die_write(m);
			emit_prefetches(m, rec);
		}
		m->npf_lines = 0;
	} else if (cur->ev == GC_KBEGIN) {
		m->s.kernels++;
		if (m->by_pc && gc_pctab_kernel(&m->pcs, cur->k->name) < 0)
			fail(m, "out of memory");
		kernel_begin(m, cur->k);
		if (m->w && gc_write_kbegin(m->w, cur->k) < 0)
			die_write(m);
	} else if (cur->ev == GC_KEND) {
		if (m->flush)
			flush_all(m, rec->kernel);
		kernel_end(m);
		if (m->by_pc && gc_opmap_add(&m->ops, gc_pctab_name(&m->pcs, m->pcs.cur),
					     &cur->ops) < 0)
			fail(m, "out of memory");
		if (m->w && (gc_write_opcodes(m->w, &cur->ops) < 0 ||
			     gc_write_kend(m->w, rec->kernel) < 0))
			die_write(m);
	}
}

/* The ring of events read ahead, with its kernels' copies. */
static void ring_free(gc_l2 *m)
{
	if (!m->ring)
		return;
	for (int i = 0; i < AHEAD; i++) {
		free(m->ring[i].k);
		gc_optab_free(&m->ring[i].ops);
	}
	free(m->ring);
	m->ring = NULL;
}

int gc_l2_run(gc_l2 *m, gc_reader *r, gc_writer *w, uint64_t *back)
{
	*back = 0;
	m->w = w;
	if (m->failed)
		return -1;
	if (setjmp(m->jb)) {
		*back = m->back;
		ring_free(m);
		return -1;
	}
	struct event *ring = m->ring = calloc(AHEAD, sizeof *m->ring);
	if (!ring)
		fail(m, "out of memory");
	struct block blk = {NULL, 0, gc_reader_header(r)->record_size, 0};
	unsigned filled = 0, head = 0;
	int more = 1;
	for (int i = 0; i < AHEAD; i++) {
		ring[i].k = malloc(sizeof *ring[i].k);
		gc_optab_init(&ring[i].ops);
		if (!ring[i].k)
			fail(m, "out of memory");
	}
	for (;;) {
		/* Keep AHEAD events read, until the end or an error. */
		while (more && filled < AHEAD) {
			struct event *e = &ring[(head + filled) & (AHEAD - 1)];
			read_event(m, r, &blk, e);
			filled++;
			more = e->ev != GC_EOF && e->ev != GC_ERR;
		}
		struct event *cur = &ring[head];
		if (cur->ev == GC_EOF)
			break;
		if (cur->ev == GC_ERR)
			fail(m, "%s", gc_reader_error(r));
		event(m, cur);
		if (m->progress)
			m->progress(r);
		head = (head + 1) & (AHEAD - 1);
		filled--;
	}
	ring_free(m);
	return 0;
}

void gc_l2_finish(gc_l2 *m)
{
	if (m->sl)
		m->s.dirty_left = dirty_sectors(m);
	if (m->sl)
		settle(m);
	m->st = (gc_l2_statistics){
		.nslices = m->nslices, .s = m->s, .sl = m->sl, .ks = m->ks, .nks = m->nks,
		.kslices = &m->kslices, .pcs = &m->pcs, .ops = &m->ops, .pfc = m->pfc,
		.l1_prefetches = m->l1_prefetches,
	};
}

const gc_l2_statistics *gc_l2_stats(const gc_l2 *m)
{
	return &m->st;
}
