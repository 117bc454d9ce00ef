/* pctab.c - the per-PC table keyed by (kernel name, PC) (pctab.h). */
#include "base/pctab.h"
#include "base/grow.h"

#include <stdlib.h>
#include <string.h>

void gc_names_init(gc_names *t)
{
	memset(t, 0, sizeof *t);
	gc_hmap_init(&t->byhash, 0); /* allocates nothing: cannot fail */
}

void gc_names_free(gc_names *t)
{
	for (size_t i = 0; i < t->n; i++)
		free(t->name[i]);
	free(t->name);
	gc_hmap_free(&t->byhash);
	memset(t, 0, sizeof *t);
}

/* FNV-1a over the bytes, then the tables' mixer. */
static uint64_t name_hash(const char *s)
{
	uint64_t h = UINT64_C(0xcbf29ce484222325);
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * UINT64_C(0x100000001b3);
	return gc_hash64(h);
}

long gc_names_find(const gc_names *t, const char *name)
{
	for (uint64_t h = name_hash(name);; h++) {
		const uint64_t *v = gc_hmap_get(&t->byhash, h);
		if (!v)
			return -1;
		if (strcmp(t->name[*v], name) == 0)
			return (long)*v;
	}
}

long gc_names_id(gc_names *t, const char *name)
{
	/* Two names with one hash: the second probes hash + 1, and so on. */
	for (uint64_t h = name_hash(name);; h++) {
		int added;
		uint64_t *v = gc_hmap_put(&t->byhash, h, &added);
		if (!v)
			return -1;
		if (!added) {
			if (strcmp(t->name[*v], name) == 0)
				return (long)*v;
			continue;
		}
		if (t->n == t->cap) {
			char **p = gc_grow(t->name, &t->cap, t->n + 1, sizeof *p, 16);
			if (!p) {
				gc_hmap_del(&t->byhash, h);
				return -1;
			}
			t->name = p;
		}
		char *copy = strdup(name);
		if (!copy) {
			gc_hmap_del(&t->byhash, h);
			return -1;
		}
		t->name[t->n] = copy;
		*v = t->n;
		return (long)t->n++;
	}
}

void gc_pctab_init(gc_pctab *t)
{
	gc_names_init(&t->names);
	gc_rowmap_init(&t->rows, sizeof(gc_pcrow), 256);
	t->cur = 0;
}

void gc_pctab_free(gc_pctab *t)
{
	gc_names_free(&t->names);
	gc_rowmap_free(&t->rows);
}

int gc_pctab_kernel(gc_pctab *t, const char *name)
{
	long id = gc_names_id(&t->names, name ? name : "");
	if (id < 0)
		return -1;
	t->cur = (uint32_t)id;
	return 0;
}

/* qsort has no context argument: the names of the table being sorted. */
static const gc_names *sorting;

static int by_misses(const void *a, const void *b)
{
	const gc_pcrow *x = a, *y = b;
	if (x->misses != y->misses)
		return x->misses > y->misses ? -1 : 1;
	if (x->kernel != y->kernel) {
		int c = strcmp(gc_names_get(sorting, x->kernel), gc_names_get(sorting, y->kernel));
		if (c)
			return c < 0 ? -1 : 1;
	}
	return x->pc < y->pc ? -1 : x->pc > y->pc;
}

gc_pcrow *gc_pctab_sorted(const gc_pctab *t, size_t *n)
{
	*n = gc_rowmap_count(&t->rows);
	if (!*n)
		return NULL;
	gc_pcrow *rows = malloc(*n * sizeof *rows);
	if (!rows)
		return NULL;
	memcpy(rows, gc_rowmap_rows(&t->rows), *n * sizeof *rows);
	sorting = &t->names;
	qsort(rows, *n, sizeof *rows, by_misses);
	sorting = NULL;
	return rows;
}
