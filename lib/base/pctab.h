/*
 * pctab.h - the per-PC table of the cache stages: one row per (kernel
 * name, PC), counting requests, hits and misses, so that the launches of
 * one kernel function share their rows and two functions whose code sits
 * at the same PC do not (pctab.c).
 *
 * Kernel names are interned once per launch (gc_names: a name to a small
 * id, by hash); a row's key is (name id << 32 | PC) in a gc_rowmap, so a
 * record costs one lookup (none in a run of one PC) and no allocation.
 *
 *   gc_pctab t; gc_pctab_init(&t);
 *   at each kernel begin:  gc_pctab_kernel(&t, k->name);
 *   per request:           gc_pctab_count(&t, pc, hit, miss);
 *   at the end:            rows = gc_pctab_sorted(&t, &n); ...; free(rows);
 *
 * Like the rest of lib/, these calls never print or exit: running out of
 * memory is -1 or NULL.
 */
#ifndef GC_PCTAB_H
#define GC_PCTAB_H

#include "base/hash.h"
#include "base/rowmap.h"

#include <stddef.h>
#include <stdint.h>

/* Kernel names to ids 0, 1, ... in order of first appearance. */
typedef struct gc_names {
	char **name;      /* by id */
	size_t n, cap;
	gc_hmap byhash;   /* a name's probe hash -> its id */
} gc_names;

void gc_names_init(gc_names *t);
void gc_names_free(gc_names *t);
/* The id of name (added when new); -1 when out of memory. */
long gc_names_id(gc_names *t, const char *name);
/* The id of name, or -1 when it has none. */
long gc_names_find(const gc_names *t, const char *name);
static inline const char *gc_names_get(const gc_names *t, uint32_t id)
{
	return id < t->n ? t->name[id] : "";
}

typedef struct gc_pcrow {
	uint32_t kernel;  /* name id (gc_pctab_name) */
	uint32_t pc;
	uint64_t requests, hits, misses;
} gc_pcrow;

typedef struct gc_pctab {
	gc_names names;
	gc_rowmap rows;   /* (kernel << 32 | pc) -> gc_pcrow */
	uint32_t cur;     /* the name id of the kernel running */
} gc_pctab;

void gc_pctab_init(gc_pctab *t);
void gc_pctab_free(gc_pctab *t);
/* A kernel named `name` begins: the rows that follow are its.  -1 when
 * out of memory. */
int gc_pctab_kernel(gc_pctab *t, const char *name);
/* One request of pc in the current kernel: a hit (hit != 0), a miss
 * (miss != 0) or neither (not looked up).  -1 when out of memory. */
static inline int gc_pctab_count(gc_pctab *t, uint32_t pc, int hit, int miss)
{
	int added;
	gc_pcrow *p = gc_rowmap_row(&t->rows, (uint64_t)t->cur << 32 | pc, &added);
	if (!p)
		return -1;
	if (added) {
		p->kernel = t->cur;
		p->pc = pc;
	}
	p->requests++;
	p->hits += hit != 0;
	p->misses += miss != 0;
	return 0;
}
static inline const char *gc_pctab_name(const gc_pctab *t, uint32_t id)
{
	return gc_names_get(&t->names, id);
}
static inline size_t gc_pctab_count_rows(const gc_pctab *t)
{
	return gc_rowmap_count(&t->rows);
}
/* The rows, most misses first, then by kernel name (bytes) and PC: a copy
 * the caller frees; *n their number.  NULL when there are none (*n 0) or
 * when out of memory (*n set to the rows there are). */
gc_pcrow *gc_pctab_sorted(const gc_pctab *t, size_t *n);

#endif
