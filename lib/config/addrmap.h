/*
 * addrmap.h - the L2/DRAM address mapping of GPGPU-Sim (addrdec.cc,
 * reference §3.5): which memory channel ("chip") and sub-partition (L2
 * slice) a byte address belongs to, its bank, row and column, and the
 * partition address the slice indexes its sets with.
 *
 * A mapping string "[dramid@S;]<64 symbols>" names every address bit from
 * 63 down to 0: D chip, B bank, R row, C column, S burst (a column bit
 * too), 0 unused; '.', '|' and ' ' are ignored.  With dramid@S the chip id
 * sits at bit S: log2(channels) bits are inserted there when the channel
 * count is a power of two, otherwise the chip is (addr >> S) % channels
 * and the other fields come from the rest of the address ("gap").
 *
 * The local sub-partition is the lowest log2(sub_partitions) bank bits.
 * Partition indexing (enum gc_gpu_pindex) then permutes the global
 * sub-partition: consecutive (as decoded), bitwise permutation, IPOLY,
 * random (a seeded hash here: see gc_addrmap_init) and IPOLY-modulo (our
 * own definition: GPGPU-Sim's body was not available).
 *
 * Pure functions of the address; no allocation after gc_addrmap_init.
 */
#ifndef GC_ADDRMAP_H
#define GC_ADDRMAP_H

#include "base/ipoly.h"
#include <stddef.h>
#include <stdint.h>

/* How a partition index is formed (gpu.l2.pindex; GPGPU-Sim
 * -gpgpu_memory_partition_indexing). */
enum gc_gpu_pindex {
	GC_PINDEX_CONSECUTIVE,
	GC_PINDEX_BITWISE_PERMUTATION,
	GC_PINDEX_IPOLY,
	GC_PINDEX_RANDOM,
	GC_PINDEX_IPOLY_MODULO,
};

enum gc_am_field {
	GC_AM_CHIP,
	GC_AM_BANK,
	GC_AM_ROW,
	GC_AM_COL,
	GC_AM_BURST,
	GC_AM_NFIELDS,
};

/* Gather the bits of a mask into the low bits of the result, in order:
 * one (mask, shift) pair per run of consecutive mask bits. */
typedef struct gc_am_pack {
	int nrun;
	uint8_t shift[32];
	uint64_t mask[32];
} gc_am_pack;

/* IPOLY by table: the hash is linear over GF(2), so it is the XOR of
 * one table entry per byte of `hi` (only its low 24 bits matter for
 * n = 16, 32, 64) and the index.  Built from gc_ipoly_hash itself. */
typedef struct gc_ipoly_table {
	unsigned n;
	uint8_t t[3][256];
} gc_ipoly_table;

/* 0, or -1 when n is not 16, 32 or 64. */
int gc_ipoly_table_init(gc_ipoly_table *t, unsigned n);

static inline unsigned gc_ipoly_table_hash(const gc_ipoly_table *t, uint64_t hi, unsigned index)
{
	return t->t[0][hi & 0xff] ^ t->t[1][(hi >> 8) & 0xff] ^ t->t[2][(hi >> 16) & 0xff] ^
	       (index & (t->n - 1));
}

typedef struct gc_addrmap {
	unsigned channels, subs;     /* -gpgpu_n_mem, sub-partitions per channel */
	int pindex;                  /* enum gc_gpu_pindex */
	int dramid;                  /* S of dramid@S, or -1 (D bits) */
	int gap;                     /* dramid@S with a channel count not a power of two */
	unsigned chip_bits, sub_bits;/* log2 of channels (no gap) and of subs */
	unsigned hi_shift;           /* no gap: addr >> hi_shift is the hashes' `hi` */
	unsigned ipoly_n;            /* IPOLY: nextpow2(channels) * subs */
	gc_ipoly_table ipoly;        /* IPOLY, or IPOLY-modulo's power-of-two part */
	unsigned mod_pow2, mod_odd;  /* IPOLY-modulo: channels*subs = pow2 * odd */
	/* The masks GPGPU-Sim prints as addr_dec_mask[] (after the chip bits
	 * are inserted; with a gap, masks of the rest of the address). */
	uint64_t mask[GC_AM_NFIELDS];
	uint64_t sub_mask;           /* sub_partition_id_mask */
	gc_am_pack pack[GC_AM_NFIELDS];
	gc_am_pack subpack;          /* the sub-partition bits */
	gc_am_pack paddr;            /* everything but CHIP and sub bits */
	gc_am_pack paddr_gap;        /* with a gap: everything but the sub bits */
} gc_addrmap;

/* An address decoded. */
typedef struct gc_dram_addr {
	unsigned chip;   /* channel after partition indexing */
	unsigned sub;    /* global sub-partition (L2 slice): chip * subs + local */
	unsigned bank;
	uint64_t row, col, burst;
} gc_dram_addr;

/* Only the syntax of a mapping string: dramid (S of dramid@S, or -1) and
 * mask[] (the symbols' bits before any chip-bit insertion; S bits count
 * in GC_AM_COL too).  -1 with the reason in why.  gc_addrmap_init calls
 * it; gpu.c uses it to check the l2.mapping key. */
int gc_addrmap_parse(gc_addrmap *m, const char *mapping, char *why, size_t len);

/* Ramulator's address-mapping schemes by name, as a mapping string for
 * gc_addrmap_init: from the highest bit down, RoBaRaCoCh is row, bank,
 * rank, column, channel and ChRaBaRoCo channel, rank, bank, row, column,
 * both over the burst's byte offset (S: log2 burst_bytes); one rank, so
 * no rank bits; the bank bits hold the bank group's; C + S bits make a row
 * of row_bytes.  RoBaRaCoCh's row takes every bit above the bank's; a
 * channel count not a power of two becomes dramid@S (the channel is the
 * rest modulo the count).  ChRaBaRoCo has 16 row bits (rows beyond wrap)
 * and needs a power-of-two channel count.  Returns 1 with the string in
 * out, 0 when `name` is no scheme's name (case-insensitive), -1 with the
 * reason in why. */
int gc_addrmap_scheme(const char *name, unsigned channels, unsigned banks, uint64_t row_bytes,
		      unsigned burst_bytes, char *out, size_t outlen, char *why, size_t len);
#define GC_AM_SCHEME_ROW_BITS 16

/* Parse `mapping` for `channels` x `subs` sub-partitions and partition
 * indexing `pindex`.  -1 with the reason in why. */
int gc_addrmap_init(gc_addrmap *m, const char *mapping, unsigned channels, unsigned subs,
		    int pindex, char *why, size_t len);

static inline uint64_t gc_am_packbits(const gc_am_pack *p, uint64_t x)
{
	uint64_t v = 0;
	for (int i = 0; i < p->nrun; i++)
		v |= (x & p->mask[i]) >> p->shift[i];
	return v;
}

/* Every field of addr, the chip and sub-partition after partition
 * indexing. */
void gc_addrmap_decode(const gc_addrmap *m, uint64_t addr, gc_dram_addr *d);
/* The chip, sub-partition, bank and row of addr alone, as gc_addrmap_
 * decode gives them (col and burst 0): what a bank's row buffer needs. */
void gc_addrmap_bank_row(const gc_addrmap *m, uint64_t addr, gc_dram_addr *d);
/* gc_addrmap_bank_row by table, where it is linear over GF(2) (no gap,
 * a power-of-two channel count, consecutive, bitwise-permutation or
 * IPOLY indexing: every field a selection of address bits, the indexing
 * an XOR of them): the sub-partition, bank and row of an address below
 * 2^48 are the XOR of one entry per byte, each entry the decode of its
 * byte alone.  Built from gc_addrmap_bank_row itself. */
typedef struct gc_addrmap_tab {
	struct gc_am_entry {
		uint64_t row;
		uint64_t bank_sub; /* the bank, the sub-partition above bit 32 */
	} t[6][256];
	unsigned sub_bits;
} gc_addrmap_tab;

/* 1 when m's decode is linear over GF(2) as above (the sub-partition
 * and the partition address too: gc-l2 locates lines by table), else 0. */
int gc_addrmap_linear(const gc_addrmap *m);
/* 0, or -1 when m's decode is not linear (decode without the table). */
int gc_addrmap_tab_init(gc_addrmap_tab *t, const gc_addrmap *m);

static inline void gc_addrmap_tab_decode(const gc_addrmap_tab *t, uint64_t addr, gc_dram_addr *d)
{
	/* the six bytes written out: a loop was not unrolled (-O2), and its
	 * counter and address arithmetic doubled the instructions; the bank
	 * and sub-partition in one word, one load and XOR for both */
	const struct gc_am_entry *a = &t->t[0][addr & 0xff], *b = &t->t[1][addr >> 8 & 0xff],
		*c = &t->t[2][addr >> 16 & 0xff], *e = &t->t[3][addr >> 24 & 0xff],
		*f = &t->t[4][addr >> 32 & 0xff], *g = &t->t[5][addr >> 40 & 0xff];
	uint64_t bs = a->bank_sub ^ b->bank_sub ^ c->bank_sub ^ e->bank_sub ^ f->bank_sub ^
		      g->bank_sub;
	uint32_t sub = (uint32_t)(bs >> 32);
	d->row = a->row ^ b->row ^ c->row ^ e->row ^ f->row ^ g->row;
	d->bank = (uint32_t)bs;
	d->sub = sub;
	d->chip = sub >> t->sub_bits;
	d->col = d->burst = 0;
}

/* The global sub-partition (L2 slice) of addr, 0 .. channels*subs-1. */
unsigned gc_addrmap_slice(const gc_addrmap *m, uint64_t addr);
/* Both at once: the slice, and the partition address in *paddr. */
unsigned gc_addrmap_slice_paddr(const gc_addrmap *m, uint64_t addr, uint64_t *paddr);
/* The address with the chip and sub-partition bits squeezed out (with a
 * gap: the rest of the address without its sub-partition bits): what an
 * L2 slice takes its set index from. */
uint64_t gc_addrmap_partition_address(const gc_addrmap *m, uint64_t addr);
/* The number of low address bits that never change the chip,
 * sub-partition, bank or row: addresses that differ only below this bit
 * decode to the same channel, bank and row (the sectors of a line, with
 * every shipped mapping). */
unsigned gc_addrmap_row_shift(const gc_addrmap *m);
/* The name of a field ("chip", "bank", ...). */
const char *gc_addrmap_field_name(int f);

#endif
