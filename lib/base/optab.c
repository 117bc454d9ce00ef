/* optab.c - SASS opcode names by PC (optab.h). */
#include "base/optab.h"
#include "base/grow.h"

#include <stdlib.h>
#include <string.h>

void gc_optab_init(gc_optab *t)
{
	memset(t, 0, sizeof *t);
}

void gc_optab_free(gc_optab *t)
{
	free(t->e);
	memset(t, 0, sizeof *t);
}

/* The index of the first entry whose PC is not below pc. */
static size_t lower(const gc_optab *t, uint32_t pc)
{
	size_t lo = 0, hi = t->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (t->e[mid].pc < pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

int gc_optab_set(gc_optab *t, uint32_t pc, const char *name, size_t len)
{
	if (t->last < t->n && t->e[t->last].pc == pc)
		return 0;
	size_t i = t->n && t->e[t->n - 1].pc < pc ? t->n : lower(t, pc);
	if (i < t->n && t->e[i].pc == pc) {
		t->last = i;
		return 0;
	}
	if (t->n == t->cap) {
		gc_opent *e = gc_grow(t->e, &t->cap, t->n + 1, sizeof *e, 64);
		if (!e)
			return -1;
		t->e = e;
	}
	memmove(t->e + i + 1, t->e + i, (t->n - i) * sizeof *t->e);
	if (len > GC_OPCODE_MAX)
		len = GC_OPCODE_MAX;
	gc_opent *p = &t->e[i];
	p->pc = pc;
	p->len = (uint8_t)len;
	memcpy(p->name, name, len);
	p->name[len] = 0;
	t->n++;
	t->last = i;
	return 0;
}

const char *gc_optab_get(const gc_optab *t, uint32_t pc)
{
	size_t i = lower(t, pc);
	return i < t->n && t->e[i].pc == pc ? t->e[i].name : NULL;
}

int gc_optab_copy(gc_optab *dst, const gc_optab *src)
{
	if (dst->cap < src->n) {
		gc_opent *e = realloc(dst->e, src->n * sizeof *e);
		if (!e)
			return -1;
		dst->e = e;
		dst->cap = src->n;
	}
	if (src->n)
		memcpy(dst->e, src->e, src->n * sizeof *src->e);
	dst->n = src->n;
	dst->last = 0;
	return 0;
}

/* ---- (kernel name, PC) over a stream ------------------------------------ */

void gc_opmap_init(gc_opmap *m)
{
	gc_names_init(&m->kernels);
	gc_names_init(&m->ops);
	gc_hmap_init(&m->map, 0); /* allocates nothing: cannot fail */
}

void gc_opmap_free(gc_opmap *m)
{
	gc_names_free(&m->kernels);
	gc_names_free(&m->ops);
	gc_hmap_free(&m->map);
}

/* The value of a PC whose launches disagree. */
#define MIXED UINT64_MAX

int gc_opmap_add(gc_opmap *m, const char *kernel, const gc_optab *t)
{
	if (!t || !t->n)
		return 0;
	long k = gc_names_id(&m->kernels, kernel ? kernel : "");
	if (k < 0)
		return -1;
	for (size_t i = 0; i < t->n; i++) {
		long op = gc_names_id(&m->ops, t->e[i].name);
		int added;
		uint64_t *v = op < 0 ? NULL
			    : gc_hmap_put(&m->map, (uint64_t)k << 32 | t->e[i].pc, &added);
		if (!v)
			return -1;
		if (added)
			*v = (uint64_t)op + 1;
		else if (*v != (uint64_t)op + 1)
			*v = MIXED;
	}
	return 0;
}

const char *gc_opmap_get(const gc_opmap *m, const char *kernel, uint32_t pc)
{
	long k = gc_names_find(&m->kernels, kernel ? kernel : "");
	if (k < 0)
		return NULL;
	const uint64_t *v = gc_hmap_get(&m->map, (uint64_t)k << 32 | pc);
	if (!v)
		return NULL;
	return *v == MIXED ? GC_OPCODE_MIXED : gc_names_get(&m->ops, (uint32_t)(*v - 1));
}
