/*
 * kunits.h - per-kernel counts of units (an L1's SMs, the L2's slices):
 * at each kernel's end a stage gives every unit's counters as they are
 * then, and what changed since the kernel before is kept as the
 * kernel's row for that unit; a unit that did not change gets none.
 *
 *   gc_kunits u; gc_kunits_init(&u, GC_KU_WIDTH);
 *   at a kernel's end: gc_kunits_unit(&u, id, now) for each unit, then
 *   gc_kunits_kernel_end(&u);  rows: gc_kunits_rows(&u, k, &row)
 *
 * A row is width + 1 numbers: the unit, then its counters.  A kernel's
 * rows come in unit order.
 *
 * The sector counts gc-l1 and gc-l2 keep this way (and gc_unitjson
 * writes): per operation (loads first, then stores), GC_KU_NFIELDS
 * counters each.
 */
#ifndef GC_KUNITS_H
#define GC_KUNITS_H

#include <stddef.h>
#include <stdint.h>

enum { GC_KU_REQUESTED, GC_KU_HITS, GC_KU_LINE_MISSES, GC_KU_MERGED, GC_KU_RES_FAILS,
       GC_KU_NFIELDS };
#define GC_KU_LOADS 0
#define GC_KU_STORES GC_KU_NFIELDS
#define GC_KU_WIDTH (2 * GC_KU_NFIELDS)

typedef struct gc_kunits {
	unsigned width;
	uint64_t *base;    /* by unit: its counters at the last kernel end */
	size_t nbase;      /* units in base */
	uint64_t *rows;    /* (width + 1) numbers a row */
	size_t n, cap;     /* rows */
	size_t *first;     /* kernel k's rows: first[k] to first[k + 1] (n for the last) */
	size_t nk, kcap;
} gc_kunits;

void gc_kunits_init(gc_kunits *u, unsigned width);
void gc_kunits_free(gc_kunits *u);
/* Unit `unit`'s counters now (width of them), at the open kernel's end:
 * 0, or -1 when out of memory. */
int gc_kunits_unit(gc_kunits *u, uint32_t unit, const uint64_t *now);
/* The kernel ends: its rows are those given since the last end.  0 or -1. */
int gc_kunits_kernel_end(gc_kunits *u);
/* Kernel k's rows (its first in *row) and how many. */
size_t gc_kunits_rows(const gc_kunits *u, size_t k, const uint64_t **row);

#endif
