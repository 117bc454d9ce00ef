/* rowmap.c - rows of the caller's type by a uint64_t key (rowmap.h). */
#include "base/rowmap.h"
#include "base/grow.h"

#include <stdlib.h>
#include <string.h>

void gc_rowmap_init(gc_rowmap *m, size_t size, size_t first_cap)
{
	memset(m, 0, sizeof *m);
	gc_hmap_init(&m->keys, 0); /* allocates nothing: cannot fail */
	m->size = size;
	m->first_cap = first_cap ? first_cap : 64;
}

void gc_rowmap_free(gc_rowmap *m)
{
	gc_hmap_free(&m->keys);
	free(m->rows);
	m->rows = NULL;
	m->n = m->cap = 0;
	m->has_last = 0;
}

/* Room for one more row; -1 when out of memory. */
static int room(gc_rowmap *m)
{
	if (m->n < m->cap)
		return 0;
	char *p = gc_grow(m->rows, &m->cap, m->n + 1, m->size ? m->size : 1, m->first_cap);
	if (!p)
		return -1;
	m->rows = p;
	return 0;
}

void *gc_rowmap_lookup(gc_rowmap *m, uint64_t key, int *added)
{
	if (added)
		*added = 0;
	if (m->has_last && key == m->last_key)
		return m->rows + m->last * m->size;
	uint64_t *v = gc_hmap_get(&m->keys, key);
	if (!v) {
		if (room(m) < 0 || !(v = gc_hmap_put(&m->keys, key, NULL)))
			return NULL;
		*v = m->n++;
		memset(m->rows + *v * m->size, 0, m->size);
		if (added)
			*added = 1;
	}
	m->last_key = key;
	m->last = (size_t)*v;
	m->has_last = 1;
	return m->rows + m->last * m->size;
}

void gc_rowmap_forget(gc_rowmap *m)
{
	gc_hmap_clear(&m->keys);
	m->has_last = 0;
}

void *gc_rowmap_take(gc_rowmap *m, size_t *n)
{
	void *rows = m->rows;
	*n = m->n;
	m->rows = NULL;
	m->n = m->cap = 0;
	gc_rowmap_forget(m);
	return rows;
}
