/*
 * addrmap.c - GPGPU-Sim's address decoding and partition indexing
 * (addrmap.h; reference §3.5).
 */
#include "config/addrmap.h"
#include "base/bits.h"

#include "base/ipoly.h"
#include "base/rng.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

static int fail(char *why, size_t len, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(why, len, fmt, ap);
	va_end(ap);
	return -1;
}



/* The runs of consecutive bits of mask, each shifted down onto the bits
 * the runs below it leave free. */
static void pack_init(gc_am_pack *p, uint64_t mask)
{
	unsigned out = 0;
	p->nrun = 0;
	for (unsigned b = 0; b < 64;) {
		if (!(mask >> b & 1)) {
			b++;
			continue;
		}
		unsigned e = b;
		while (e < 64 && (mask >> e & 1))
			e++;
		uint64_t run = (e - b == 64) ? UINT64_MAX : ((UINT64_C(1) << (e - b)) - 1) << b;
		p->mask[p->nrun] = run;
		p->shift[p->nrun] = (uint8_t)(b - out);
		p->nrun++;
		out += e - b;
		b = e;
	}
}

/* Move the bits of mask at or above bit s up by n. */
static uint64_t insert_at(uint64_t mask, unsigned s, unsigned n)
{
	uint64_t low = s ? mask & ((UINT64_C(1) << s) - 1) : 0;
	return ((mask & ~low) << n) | low;
}

int gc_ipoly_table_init(gc_ipoly_table *t, unsigned n)
{
	if (n != 16 && n != 32 && n != 64)
		return -1;
	t->n = n;
	for (int k = 0; k < 3; k++)
		for (unsigned v = 0; v < 256; v++)
			t->t[k][v] = (uint8_t)gc_ipoly_hash((uint64_t)v << (8 * k), 0, n);
	return 0;
}

const char *gc_addrmap_field_name(int f)
{
	static const char *const names[GC_AM_NFIELDS] = {"chip", "bank", "row", "col", "burst"};
	return f >= 0 && f < GC_AM_NFIELDS ? names[f] : "?";
}

int gc_addrmap_parse(gc_addrmap *m, const char *s, char *why, size_t len)
{
	m->dramid = -1;
	memset(m->mask, 0, sizeof m->mask);
	if (strncmp(s, "dramid@", 7) == 0) {
		const char *p = s + 7;
		int v = 0, digits = 0;
		while (*p >= '0' && *p <= '9' && digits < 3) {
			v = v * 10 + (*p++ - '0');
			digits++;
		}
		if (!digits || *p != ';' || v > 63)
			return fail(why, len, "dramid@ needs a bit number from 0 to 63 and ';'");
		m->dramid = v;
		s = p + 1;
	}
	int bit = 63;
	for (; *s; s++) {
		int f;
		switch (*s) {
		case '.': case '|': case ' ': continue;
		case 'D': case 'd': f = GC_AM_CHIP; break;
		case 'B': f = GC_AM_BANK; break;
		case 'R': f = GC_AM_ROW; break;
		case 'C': f = GC_AM_COL; break;
		case 'S': f = GC_AM_BURST; break;
		case '0': f = -1; break;
		default: return fail(why, len, "'%c' is not a bit symbol", *s);
		}
		if (bit < 0)
			return fail(why, len, "more than 64 bit symbols");
		if (f >= 0)
			m->mask[f] |= UINT64_C(1) << bit;
		if (f == GC_AM_BURST) /* S bits are column bits too */
			m->mask[GC_AM_COL] |= UINT64_C(1) << bit;
		bit--;
	}
	if (bit != -1)
		return fail(why, len, "found %d bit symbols, not 64", 63 - bit);
	if (m->dramid >= 0 && m->mask[GC_AM_CHIP])
		return fail(why, len, "D bits and dramid@ exclude each other");
	if (!m->mask[GC_AM_BANK] || !m->mask[GC_AM_ROW] || !m->mask[GC_AM_COL])
		return fail(why, len, "no B, R or C/S bits");
	return 0;
}

static unsigned log2u(uint64_t v)
{
	unsigned n = 0;
	while (((uint64_t)1 << n) < v)
		n++;
	return n;
}

int gc_addrmap_scheme(const char *name, unsigned channels, unsigned banks, uint64_t row_bytes,
		      unsigned burst_bytes, char *out, size_t outlen, char *why, size_t len)
{
	int ro = strcasecmp(name, "RoBaRaCoCh") == 0, ch = strcasecmp(name, "ChRaBaRoCo") == 0;
	if (!ro && !ch)
		return 0;
	unsigned nS = log2u(burst_bytes), nB = log2u(banks), nD = log2u(channels);
	unsigned nRC = log2u(row_bytes);
	int pow2 = (1u << nD) == channels;
	if ((1u << nS) != burst_bytes || (1u << nB) != banks || ((uint64_t)1 << nRC) != row_bytes ||
	    nS > nRC)
		return fail(why, len, "%s: a burst of %u bytes, %u banks and rows of %llu bytes "
			    "are not powers of two with the burst within the row", name,
			    burst_bytes, banks, (unsigned long long)row_bytes);
	if (ch && !pow2)
		return fail(why, len, "ChRaBaRoCo: %u channels: the channel bits need a power of two",
			    channels);
	/* From bit 0 up: the fields in order, then the row (or 0s) above. */
	char sym[64];
	unsigned b = 0;
	memset(sym, '0', sizeof sym);
#define PUT(c, n) for (unsigned k_ = 0; k_ < (n) && b < 64; k_++) sym[b++] = (c)
	PUT('S', nS);
	if (ro) {
		/* the channel: dramid@S, inserted bits or the modulo */
		PUT('C', nRC - nS);
		PUT('B', nB);
		unsigned nR = 64u - b - (pow2 ? nD : 0); /* room for the inserted bits */
		PUT('R', nR);
	} else {
		PUT('C', nRC - nS);
		PUT('R', (unsigned)GC_AM_SCHEME_ROW_BITS);
		PUT('B', nB);
		PUT('D', nD);
	}
#undef PUT
	if (ch && nS + nRC - nS + GC_AM_SCHEME_ROW_BITS + nB + nD > 64)
		return fail(why, len, "%s: more than 64 address bits", name);
	size_t n = 0;
	if (ro)
		n = (size_t)snprintf(out, outlen, "dramid@%u;", nS);
	for (int i = 63; i >= 0 && n + 1 < outlen; i--)
		out[n++] = sym[i];
	if (n >= outlen)
		return fail(why, len, "%s: no room for the mapping string", name);
	out[n] = 0;
	return 1;
}

int gc_addrmap_init(gc_addrmap *m, const char *mapping, unsigned channels, unsigned subs,
		    int pindex, char *why, size_t len)
{
	memset(m, 0, sizeof *m);
	if (channels == 0 || !gc_is_pow2(subs))
		return fail(why, len, "%u channels x %u sub-partitions: need at least one "
			    "channel and a power-of-two sub-partition count", channels, subs);
	m->channels = channels;
	m->subs = subs;
	m->pindex = pindex;
	m->sub_bits = gc_log2(subs);
	if (gc_addrmap_parse(m, mapping, why, len) < 0)
		return -1;

	unsigned nD = (unsigned)__builtin_popcountll(m->mask[GC_AM_CHIP]);
	if (m->dramid >= 0) {
		m->gap = !gc_is_pow2(channels);
		if (!m->gap) {
			unsigned s = (unsigned)m->dramid, n = gc_log2(channels);
			for (int f = GC_AM_BANK; f < GC_AM_NFIELDS; f++) {
				if (n && (m->mask[f] >> (64 - n)))
					return fail(why, len, "inserting %u chip bits at bit %u pushes "
						    "%s bits past bit 63", n, s,
						    gc_addrmap_field_name(f));
				m->mask[f] = insert_at(m->mask[f], s, n);
			}
			m->chip_bits = n;
			m->mask[GC_AM_CHIP] = (uint64_t)(channels - 1) << s;
		}
	} else {
		if (nD < 32 && (UINT64_C(1) << nD) < channels)
			return fail(why, len, "%u D bits cannot name %u channels", nD, channels);
		m->chip_bits = nD;
	}

	/* sub_partition_id_mask: the lowest log2(subs) bank bits. */
	uint64_t bk = m->mask[GC_AM_BANK];
	if ((unsigned)__builtin_popcountll(bk) < m->sub_bits)
		return fail(why, len, "%d bank bits cannot pick one of %u sub-partitions",
			    __builtin_popcountll(bk), subs);
	for (unsigned i = 0; i < m->sub_bits; i++) {
		uint64_t low = bk & -bk;
		m->sub_mask |= low;
		bk &= ~low;
	}

	if (m->dramid >= 0 && !m->gap)
		m->hi_shift = (unsigned)m->dramid + m->chip_bits + m->sub_bits;
	else if (m->dramid < 0)
		m->hi_shift = 64 - (unsigned)__builtin_clzll(m->mask[GC_AM_CHIP] | m->sub_mask | 1);
	if (m->hi_shift > 63)
		m->hi_shift = 63;

	unsigned total = channels * subs;
	switch (pindex) {
	case GC_PINDEX_CONSECUTIVE:
	case GC_PINDEX_RANDOM:
		break;
	case GC_PINDEX_BITWISE_PERMUTATION:
		if (m->gap || !gc_is_pow2(channels))
			return fail(why, len, "bitwise-permutation partition indexing needs a "
				    "power-of-two channel count, not %u", channels);
		break;
	case GC_PINDEX_IPOLY: {
		unsigned p = 1;
		while (p < channels)
			p <<= 1;
		m->ipoly_n = p * subs;
		if (m->ipoly_n != 16 && m->ipoly_n != 32 && m->ipoly_n != 64)
			return fail(why, len, "ipoly partition indexing needs 16, 32 or 64 "
				    "sub-partitions after rounding the channels up to a power of "
				    "two (%u * %u = %u)", p, subs, m->ipoly_n);
		gc_ipoly_table_init(&m->ipoly, m->ipoly_n);
		break;
	}
	case GC_PINDEX_IPOLY_MODULO:
		m->mod_pow2 = total & -total;
		m->mod_odd = total / m->mod_pow2;
		gc_ipoly_table_init(&m->ipoly, m->mod_pow2);
		break;
	default:
		return fail(why, len, "unknown partition indexing %d", pindex);
	}

	for (int f = 0; f < GC_AM_NFIELDS; f++)
		pack_init(&m->pack[f], m->mask[f]);
	pack_init(&m->subpack, m->sub_mask);
	pack_init(&m->paddr, ~(m->mask[GC_AM_CHIP] | m->sub_mask));
	pack_init(&m->paddr_gap, ~m->sub_mask);
	return 0;
}

/* The raw chip, the rest of the address (gap) and `hi`. */
static inline unsigned raw_chip(const gc_addrmap *m, uint64_t addr, uint64_t *rest, uint64_t *hi)
{
	if (m->gap) {
		unsigned s = (unsigned)m->dramid;
		uint64_t a = addr >> s;
		uint64_t q = a / m->channels;
		*hi = q;
		*rest = (s ? q << s : q) | (s ? addr & ((UINT64_C(1) << s) - 1) : 0);
		return (unsigned)(a % m->channels);
	}
	*rest = addr;
	*hi = addr >> m->hi_shift;
	unsigned chip = (unsigned)gc_am_packbits(&m->pack[GC_AM_CHIP], addr);
	if (chip >= m->channels) /* D bits naming more channels than there are */
		chip %= m->channels;
	return chip;
}

/* The global sub-partition after partition indexing. */
static inline unsigned index_sub(const gc_addrmap *m, uint64_t addr, unsigned chip,
				 unsigned local, uint64_t hi)
{
	unsigned total = m->channels * m->subs;
	switch (m->pindex) {
	case GC_PINDEX_BITWISE_PERMUTATION:
		chip ^= (unsigned)(hi & (m->channels - 1));
		return chip * m->subs + local;
	case GC_PINDEX_IPOLY: {
		unsigned s = gc_ipoly_table_hash(&m->ipoly, hi, chip * m->subs + local);
		return m->gap ? s % total : s;
	}
	case GC_PINDEX_RANDOM: {
		/* GPGPU-Sim draws rand() for each new (addr >> (S - log2 subs))
		 * in the order addresses first appear; a hash of that key is the
		 * same uniform spread without the dependence on order. */
		int base = m->dramid >= 0 ? m->dramid
					  : __builtin_ctzll(m->mask[GC_AM_CHIP] | m->sub_mask | 1);
		int sh = base - (int)m->sub_bits;
		return (unsigned)(gc_splitmix64_at(addr >> (sh > 0 ? sh : 0), 0) % total);
	}
	case GC_PINDEX_IPOLY_MODULO: {
		/* total = 2^k * odd: IPOLY (or XOR) over the 2^k part, a rotation
		 * by hi over the odd part; a bijection for every hi. */
		unsigned raw = chip * m->subs + local;
		unsigned p = m->mod_pow2;
		unsigned lo = raw & (p - 1), q = raw / p;
		if (p == 16 || p == 32 || p == 64)
			lo = gc_ipoly_table_hash(&m->ipoly, hi, lo);
		else
			lo ^= (unsigned)(hi & (p - 1));
		q = (unsigned)((q + hi % m->mod_odd) % m->mod_odd);
		return q * p + lo;
	}
	default:
		return chip * m->subs + local;
	}
}

void gc_addrmap_decode(const gc_addrmap *m, uint64_t addr, gc_dram_addr *d)
{
	uint64_t rest, hi;
	unsigned chip = raw_chip(m, addr, &rest, &hi);
	d->bank = (unsigned)gc_am_packbits(&m->pack[GC_AM_BANK], rest);
	d->row = gc_am_packbits(&m->pack[GC_AM_ROW], rest);
	d->col = gc_am_packbits(&m->pack[GC_AM_COL], rest);
	d->burst = gc_am_packbits(&m->pack[GC_AM_BURST], rest);
	d->sub = index_sub(m, addr, chip, d->bank & (m->subs - 1), hi);
	d->chip = d->sub >> m->sub_bits;
}

void gc_addrmap_bank_row(const gc_addrmap *m, uint64_t addr, gc_dram_addr *d)
{
	uint64_t rest, hi;
	unsigned chip = raw_chip(m, addr, &rest, &hi);
	d->bank = (unsigned)gc_am_packbits(&m->pack[GC_AM_BANK], rest);
	d->row = gc_am_packbits(&m->pack[GC_AM_ROW], rest);
	d->col = d->burst = 0;
	d->sub = index_sub(m, addr, chip, d->bank & (m->subs - 1), hi);
	d->chip = d->sub >> m->sub_bits;
}

unsigned gc_addrmap_slice(const gc_addrmap *m, uint64_t addr)
{
	uint64_t rest, hi;
	unsigned chip = raw_chip(m, addr, &rest, &hi);
	unsigned local = (unsigned)gc_am_packbits(&m->subpack, rest);
	return index_sub(m, addr, chip, local, hi);
}

int gc_addrmap_linear(const gc_addrmap *m)
{
	return !m->gap && gc_is_pow2(m->channels) && m->chip_bits == gc_log2(m->channels) &&
	       (m->pindex == GC_PINDEX_CONSECUTIVE || m->pindex == GC_PINDEX_BITWISE_PERMUTATION ||
		m->pindex == GC_PINDEX_IPOLY);
}

int gc_addrmap_tab_init(gc_addrmap_tab *t, const gc_addrmap *m)
{
	if (!gc_addrmap_linear(m))
		return -1;
	for (unsigned k = 0; k < 6; k++)
		for (unsigned v = 0; v < 256; v++) {
			gc_dram_addr d;
			gc_addrmap_bank_row(m, (uint64_t)v << (8 * k), &d);
			t->t[k][v] = (struct gc_am_entry){d.row, d.bank | (uint64_t)d.sub << 32};
		}
	t->sub_bits = m->sub_bits;
	return 0;
}

unsigned gc_addrmap_row_shift(const gc_addrmap *m)
{
	uint64_t sens = m->mask[GC_AM_CHIP] | m->mask[GC_AM_BANK] | m->mask[GC_AM_ROW] | m->sub_mask;
	unsigned low = sens ? (unsigned)__builtin_ctzll(sens) : 64;
	if (m->dramid >= 0 && (unsigned)m->dramid < low)
		low = (unsigned)m->dramid; /* the gap's modulo, the inserted chip */
	if (!m->gap && m->pindex != GC_PINDEX_CONSECUTIVE && m->pindex != GC_PINDEX_RANDOM &&
	    m->hi_shift < low)
		low = m->hi_shift;
	if (m->pindex == GC_PINDEX_RANDOM) {
		int base = m->dramid >= 0 ? m->dramid
					  : __builtin_ctzll(m->mask[GC_AM_CHIP] | m->sub_mask | 1);
		int sh = base - (int)m->sub_bits;
		if (sh < 0)
			sh = 0;
		if ((unsigned)sh < low)
			low = (unsigned)sh;
	}
	return low;
}

unsigned gc_addrmap_slice_paddr(const gc_addrmap *m, uint64_t addr, uint64_t *paddr)
{
	uint64_t rest, hi;
	unsigned chip = raw_chip(m, addr, &rest, &hi);
	unsigned local = (unsigned)gc_am_packbits(&m->subpack, rest);
	*paddr = m->gap ? gc_am_packbits(&m->paddr_gap, rest) : gc_am_packbits(&m->paddr, addr);
	return index_sub(m, addr, chip, local, hi);
}

uint64_t gc_addrmap_partition_address(const gc_addrmap *m, uint64_t addr)
{
	if (m->gap) {
		uint64_t rest, hi;
		(void)raw_chip(m, addr, &rest, &hi);
		return gc_am_packbits(&m->paddr_gap, rest);
	}
	return gc_am_packbits(&m->paddr, addr);
}
