/* optab.c - SASS opcode names by PC (optab.h). */
#include "base/optab.h"

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
		size_t cap = t->cap ? 2 * t->cap : 64;
		gc_opent *e = realloc(t->e, cap * sizeof *e);
		if (!e)
			return -1;
		t->e = e;
		t->cap = cap;
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
	memset(m, 0, sizeof *m);
	/* These allocate nothing: they cannot fail. */
	gc_hmap_init(&m->byname, 0);
	gc_hmap_init(&m->map, 0);
	gc_hmap_init(&m->opbyhash, 0);
}

void gc_opmap_free(gc_opmap *m)
{
	for (size_t i = 0; i < m->nnames; i++)
		free(m->names[i]);
	for (size_t i = 0; i < m->nops; i++)
		free(m->ops[i]);
	free(m->names);
	free(m->ops);
	gc_hmap_free(&m->byname);
	gc_hmap_free(&m->map);
	gc_hmap_free(&m->opbyhash);
	memset(m, 0, sizeof *m);
}

/* FNV-1a over the bytes, then the tables' mixer. */
static uint64_t str_hash(const char *s)
{
	uint64_t h = UINT64_C(0xcbf29ce484222325);
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * UINT64_C(0x100000001b3);
	return gc_hash64(h);
}

/* The index of s among strs (byhash: hash -> index + 1; two strings of
 * one hash probe hash + 1, ...): found, or -1 when absent. */
static long find(const gc_hmap *byhash, char *const *strs, const char *s)
{
	for (uint64_t h = str_hash(s);; h++) {
		const uint64_t *v = gc_hmap_get(byhash, h);
		if (!v)
			return -1;
		if (strcmp(strs[*v - 1], s) == 0)
			return (long)(*v - 1);
	}
}

/* The index of s, added when absent; -1 when out of memory. */
static long intern(gc_hmap *byhash, char ***strs, size_t *n, size_t *cap, const char *s)
{
	long i = find(byhash, *strs, s);
	if (i >= 0)
		return i;
	uint64_t h = str_hash(s);
	while (gc_hmap_get(byhash, h))
		h++;
	if (*n == *cap) {
		size_t c = *cap ? 2 * *cap : 16;
		char **p = realloc(*strs, c * sizeof *p);
		if (!p)
			return -1;
		*strs = p;
		*cap = c;
	}
	char *copy = strdup(s);
	uint64_t *v = copy ? gc_hmap_put(byhash, h, NULL) : NULL;
	if (!v) {
		free(copy);
		return -1;
	}
	(*strs)[*n] = copy;
	*v = ++*n;
	return (long)(*n - 1);
}

/* The value of a PC whose launches disagree. */
#define MIXED UINT64_MAX

int gc_opmap_add(gc_opmap *m, const char *kernel, const gc_optab *t)
{
	if (!t || !t->n)
		return 0;
	long k = intern(&m->byname, &m->names, &m->nnames, &m->capnames, kernel ? kernel : "");
	if (k < 0)
		return -1;
	for (size_t i = 0; i < t->n; i++) {
		long op = intern(&m->opbyhash, &m->ops, &m->nops, &m->capops, t->e[i].name);
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
	long k = find(&m->byname, m->names, kernel ? kernel : "");
	if (k < 0)
		return NULL;
	const uint64_t *v = gc_hmap_get(&m->map, (uint64_t)k << 32 | pc);
	if (!v)
		return NULL;
	return *v == MIXED ? GC_OPCODE_MIXED : m->ops[*v - 1];
}
