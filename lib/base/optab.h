/*
 * optab.h - SASS opcode names by PC (optab.c): one kernel's table as the
 * stream carries it (gc_optab, gc-stream(5) "Opcode records"), and the
 * tables of a whole stream by (kernel name, PC) for the per-PC reports
 * (gc_opmap).
 *
 *   gc_optab t; gc_optab_init(&t);
 *   per memory instruction:  gc_optab_set(&t, pc, "LDG.E.64", 8);
 *   entries in PC order:     t.n, t.e[i].pc, t.e[i].name
 *
 *   gc_opmap m; gc_opmap_init(&m);
 *   at each kernel end:      gc_opmap_add(&m, kernel_name, &t);
 *   in a report:             gc_opmap_get(&m, kernel_name, pc)
 *
 * Like the rest of lib/, these calls never print or exit: running out of
 * memory is -1.
 */
#ifndef GC_OPTAB_H
#define GC_OPTAB_H

#include "base/hash.h"
#include "base/pctab.h"

#include <stddef.h>
#include <stdint.h>

#define GC_OPCODE_MAX 54 /* longest opcode name, bytes (gc-stream(5)) */

typedef struct gc_opent {
	uint32_t pc;
	uint8_t len;
	char name[GC_OPCODE_MAX + 1]; /* NUL-terminated */
} gc_opent;

/* One kernel's table: entries sorted by PC, one per PC. */
typedef struct gc_optab {
	gc_opent *e;
	size_t n, cap;
	size_t last;      /* the entry found last (runs of one PC) */
} gc_optab;

void gc_optab_init(gc_optab *t);
void gc_optab_free(gc_optab *t);
static inline void gc_optab_clear(gc_optab *t)
{
	t->n = 0;
	t->last = 0;
}
/* Set pc's name (len bytes, not NUL-terminated; 1 to GC_OPCODE_MAX, cut
 * to that when longer): 0, or -1 when out of memory.  A PC set again
 * keeps its first name. */
int gc_optab_set(gc_optab *t, uint32_t pc, const char *name, size_t len);
/* pc's name, or NULL. */
const char *gc_optab_get(const gc_optab *t, uint32_t pc);
/* dst becomes a copy of src: 0, or -1 when out of memory. */
int gc_optab_copy(gc_optab *dst, const gc_optab *src);

/* The opcodes of (kernel name, PC) over every launch of a stream. */
typedef struct gc_opmap {
	gc_names kernels; /* kernel names to ids */
	gc_names ops;     /* distinct opcode names to ids */
	gc_hmap map;      /* (kernel id << 32 | pc) -> opcode id + 1 */
} gc_opmap;

/* What gc_opmap_get returns for a PC whose launches name different
 * opcodes (a kernel name shared by different code). */
#define GC_OPCODE_MIXED "*"

void gc_opmap_init(gc_opmap *m);
void gc_opmap_free(gc_opmap *m);
/* The table t of a launch of the kernel named `kernel`: 0, or -1 when
 * out of memory. */
int gc_opmap_add(gc_opmap *m, const char *kernel, const gc_optab *t);
/* The opcode of (kernel, pc): its name, GC_OPCODE_MIXED, or NULL when no
 * table named it. */
const char *gc_opmap_get(const gc_opmap *m, const char *kernel, uint32_t pc);
static inline size_t gc_opmap_count(const gc_opmap *m)
{
	return gc_hmap_count(&m->map);
}

#endif
