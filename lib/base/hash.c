/* hash.c - open-addressing uint64_t sets and maps (see hash.h). */
#include "base/hash.h"

#include "base/bigmem.h"

#include <stdlib.h>

#define MIN_CAP 16

/* Slots for `expect` keys at most three quarters full; 0 on overflow. */
static size_t cap_for(size_t expect)
{
	size_t cap = MIN_CAP;
	while (cap - cap / 4 < expect) {
		if (cap > SIZE_MAX / 32)
			return 0;
		cap *= 2;
	}
	return cap;
}

static unsigned shift_for(size_t cap)
{
	unsigned s = 64;
	while (cap > 1) {
		cap >>= 1;
		s--;
	}
	return s;
}

static inline size_t home(uint64_t key, unsigned shift)
{
	return (size_t)(gc_hash64(key) >> shift);
}

/* Does the probe path from home slot h to slot j pass slot i (i in [h, j),
 * going round the table)?  Only then may the entry at j fill a hole at i. */
static inline int on_path(size_t h, size_t i, size_t j)
{
	return h <= j ? h <= i && i < j : h <= i || i < j;
}

/* ===================================================================== */
/* Sets                                                                   */
/* ===================================================================== */

static uint64_t *new_keys(size_t cap)
{
	uint64_t *k = gc_big_calloc(cap, sizeof *k); /* huge pages if large */
	if (k)
		for (size_t i = 0; i < cap; i++)
			k[i] = GC_HASH_EMPTY;
	return k;
}

int gc_hset_init(gc_hset *s, size_t expect)
{
	s->keys = NULL;
	s->cap = s->n = 0;
	s->shift = 64;
	s->has_empty = 0;
	if (!expect)
		return 0;
	size_t cap = cap_for(expect);
	if (!cap || !(s->keys = new_keys(cap)))
		return -1;
	s->cap = cap;
	s->shift = shift_for(cap);
	return 0;
}

void gc_hset_free(gc_hset *s)
{
	gc_big_free(s->keys, s->cap, sizeof *s->keys);
	gc_hset_init(s, 0);
}

void gc_hset_clear(gc_hset *s)
{
	for (size_t i = 0; i < s->cap; i++)
		s->keys[i] = GC_HASH_EMPTY;
	s->n = 0;
	s->has_empty = 0;
}

static int hset_grow(gc_hset *s)
{
	size_t cap = s->cap ? s->cap * 2 : MIN_CAP;
	if (cap < s->cap || cap > SIZE_MAX / sizeof *s->keys)
		return -1;
	uint64_t *keys = new_keys(cap);
	if (!keys)
		return -1;
	unsigned shift = shift_for(cap);
	size_t mask = cap - 1;
	for (size_t i = 0; i < s->cap; i++) {
		uint64_t k = s->keys[i];
		if (k == GC_HASH_EMPTY)
			continue;
		size_t j = home(k, shift);
		while (keys[j] != GC_HASH_EMPTY)
			j = (j + 1) & mask;
		keys[j] = k;
	}
	gc_big_free(s->keys, s->cap, sizeof *s->keys);
	s->keys = keys;
	s->cap = cap;
	s->shift = shift;
	return 0;
}

int gc_hset_add(gc_hset *s, uint64_t key)
{
	if (key == GC_HASH_EMPTY) {
		if (s->has_empty)
			return 0;
		s->has_empty = 1;
		return 1;
	}
	if (s->cap) {
		size_t mask = s->cap - 1;
		for (size_t i = home(key, s->shift);; i = (i + 1) & mask) {
			uint64_t k = s->keys[i];
			if (k == key)
				return 0;
			if (k == GC_HASH_EMPTY) {
				if (s->n + 1 <= s->cap - s->cap / 4) {
					s->keys[i] = key;
					s->n++;
					return 1;
				}
				break;
			}
		}
	}
	/* Full (or never allocated): grow, then place the key. */
	if (hset_grow(s) < 0)
		return -1;
	size_t mask = s->cap - 1, i = home(key, s->shift);
	while (s->keys[i] != GC_HASH_EMPTY)
		i = (i + 1) & mask;
	s->keys[i] = key;
	s->n++;
	return 1;
}

int gc_hset_has(const gc_hset *s, uint64_t key)
{
	if (key == GC_HASH_EMPTY)
		return s->has_empty;
	if (!s->cap)
		return 0;
	size_t mask = s->cap - 1;
	for (size_t i = home(key, s->shift);; i = (i + 1) & mask) {
		if (s->keys[i] == key)
			return 1;
		if (s->keys[i] == GC_HASH_EMPTY)
			return 0;
	}
}

int gc_hset_del(gc_hset *s, uint64_t key)
{
	if (key == GC_HASH_EMPTY) {
		int had = s->has_empty;
		s->has_empty = 0;
		return had;
	}
	if (!s->cap)
		return 0;
	size_t mask = s->cap - 1, i = home(key, s->shift);
	while (s->keys[i] != key) {
		if (s->keys[i] == GC_HASH_EMPTY)
			return 0;
		i = (i + 1) & mask;
	}
	/* Shift later members of the probe run back into the hole. */
	for (size_t j = (i + 1) & mask; s->keys[j] != GC_HASH_EMPTY; j = (j + 1) & mask) {
		size_t h = home(s->keys[j], s->shift);
		if (!on_path(h, i, j))
			continue;
		s->keys[i] = s->keys[j];
		i = j;
	}
	s->keys[i] = GC_HASH_EMPTY;
	s->n--;
	return 1;
}

size_t gc_hset_count(const gc_hset *s)
{
	return s->n + (size_t)s->has_empty;
}

int gc_hset_next(const gc_hset *s, size_t *it, uint64_t *key)
{
	while (*it < s->cap) {
		uint64_t k = s->keys[(*it)++];
		if (k != GC_HASH_EMPTY) {
			*key = k;
			return 1;
		}
	}
	if (*it == s->cap && s->has_empty) {
		(*it)++;
		*key = GC_HASH_EMPTY;
		return 1;
	}
	return 0;
}

/* ===================================================================== */
/* Maps                                                                   */
/* ===================================================================== */

static gc_hslot *new_slots(size_t cap)
{
	gc_hslot *sl = gc_big_calloc(cap, sizeof *sl);
	if (sl)
		for (size_t i = 0; i < cap; i++)
			sl[i].key = GC_HASH_EMPTY;
	return sl;
}

int gc_hmap_init(gc_hmap *m, size_t expect)
{
	m->slots = NULL;
	m->cap = m->n = 0;
	m->shift = 64;
	m->has_empty = 0;
	m->empty_val = 0;
	if (!expect)
		return 0;
	size_t cap = cap_for(expect);
	if (!cap || !(m->slots = new_slots(cap)))
		return -1;
	m->cap = cap;
	m->shift = shift_for(cap);
	return 0;
}

void gc_hmap_free(gc_hmap *m)
{
	gc_big_free(m->slots, m->cap, sizeof *m->slots);
	gc_hmap_init(m, 0);
}

void gc_hmap_clear(gc_hmap *m)
{
	for (size_t i = 0; i < m->cap; i++)
		m->slots[i].key = GC_HASH_EMPTY;
	m->n = 0;
	m->has_empty = 0;
	m->empty_val = 0;
}

static int hmap_grow(gc_hmap *m)
{
	size_t cap = m->cap ? m->cap * 2 : MIN_CAP;
	if (cap < m->cap || cap > SIZE_MAX / sizeof *m->slots)
		return -1;
	gc_hslot *sl = new_slots(cap);
	if (!sl)
		return -1;
	unsigned shift = shift_for(cap);
	size_t mask = cap - 1;
	for (size_t i = 0; i < m->cap; i++) {
		if (m->slots[i].key == GC_HASH_EMPTY)
			continue;
		size_t j = home(m->slots[i].key, shift);
		while (sl[j].key != GC_HASH_EMPTY)
			j = (j + 1) & mask;
		sl[j] = m->slots[i];
	}
	gc_big_free(m->slots, m->cap, sizeof *m->slots);
	m->slots = sl;
	m->cap = cap;
	m->shift = shift;
	return 0;
}

uint64_t *gc_hmap_get(const gc_hmap *m, uint64_t key)
{
	if (key == GC_HASH_EMPTY)
		return m->has_empty ? (uint64_t *)&m->empty_val : NULL;
	if (!m->cap)
		return NULL;
	size_t mask = m->cap - 1;
	for (size_t i = home(key, m->shift);; i = (i + 1) & mask) {
		if (m->slots[i].key == key)
			return &m->slots[i].val;
		if (m->slots[i].key == GC_HASH_EMPTY)
			return NULL;
	}
}

uint64_t *gc_hmap_put(gc_hmap *m, uint64_t key, int *added)
{
	int dummy;
	if (!added)
		added = &dummy;
	*added = 0;
	if (key == GC_HASH_EMPTY) {
		if (!m->has_empty) {
			m->has_empty = 1;
			m->empty_val = 0;
			*added = 1;
		}
		return &m->empty_val;
	}
	if (m->cap) {
		size_t mask = m->cap - 1;
		for (size_t i = home(key, m->shift);; i = (i + 1) & mask) {
			gc_hslot *sl = &m->slots[i];
			if (sl->key == key)
				return &sl->val;
			if (sl->key == GC_HASH_EMPTY) {
				if (m->n + 1 <= m->cap - m->cap / 4) {
					sl->key = key;
					sl->val = 0;
					m->n++;
					*added = 1;
					return &sl->val;
				}
				break;
			}
		}
	}
	if (hmap_grow(m) < 0)
		return NULL;
	size_t mask = m->cap - 1, i = home(key, m->shift);
	while (m->slots[i].key != GC_HASH_EMPTY)
		i = (i + 1) & mask;
	m->slots[i].key = key;
	m->slots[i].val = 0;
	m->n++;
	*added = 1;
	return &m->slots[i].val;
}

int gc_hmap_del(gc_hmap *m, uint64_t key)
{
	if (key == GC_HASH_EMPTY) {
		int had = m->has_empty;
		m->has_empty = 0;
		m->empty_val = 0;
		return had;
	}
	if (!m->cap)
		return 0;
	size_t mask = m->cap - 1, i = home(key, m->shift);
	while (m->slots[i].key != key) {
		if (m->slots[i].key == GC_HASH_EMPTY)
			return 0;
		i = (i + 1) & mask;
	}
	for (size_t j = (i + 1) & mask; m->slots[j].key != GC_HASH_EMPTY; j = (j + 1) & mask) {
		size_t h = home(m->slots[j].key, m->shift);
		if (!on_path(h, i, j))
			continue;
		m->slots[i] = m->slots[j];
		i = j;
	}
	m->slots[i].key = GC_HASH_EMPTY;
	m->n--;
	return 1;
}

size_t gc_hmap_count(const gc_hmap *m)
{
	return m->n + (size_t)m->has_empty;
}

int gc_hmap_next(const gc_hmap *m, size_t *it, uint64_t *key, uint64_t *val)
{
	while (*it < m->cap) {
		const gc_hslot *sl = &m->slots[(*it)++];
		if (sl->key != GC_HASH_EMPTY) {
			*key = sl->key;
			*val = sl->val;
			return 1;
		}
	}
	if (*it == m->cap && m->has_empty) {
		(*it)++;
		*key = GC_HASH_EMPTY;
		*val = m->empty_val;
		return 1;
	}
	return 0;
}
