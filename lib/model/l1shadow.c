/* l1shadow.c - the fully associative LRU shadow (l1shadow.h). */
#include "model/l1shadow.h"

#include <stdlib.h>
#include <string.h>

int gc_l1shadow_init(gc_l1shadow *s, size_t lines)
{
	memset(s, 0, sizeof *s);
	if (lines == 0 || lines > INT32_MAX)
		return -1;
	s->lines = lines;
	s->node = malloc(lines * sizeof *s->node);
	if (!s->node || gc_hmap_init(&s->map, lines) < 0) {
		free(s->node);
		s->node = NULL;
		return -1;
	}
	gc_l1shadow_clear(s);
	return 0;
}

void gc_l1shadow_free(gc_l1shadow *s)
{
	free(s->node);
	s->node = NULL;
	gc_hmap_free(&s->map);
}

void gc_l1shadow_clear(gc_l1shadow *s)
{
	for (size_t i = 0; i < s->lines; i++) {
		s->node[i].next = i + 1 < s->lines ? (int32_t)(i + 1) : -1;
		s->node[i].prev = -1;
		s->node[i].valid = 0;
	}
	s->free = 0;
	s->head = s->tail = -1;
	s->used = 0;
	gc_hmap_clear(&s->map);
}

static void unlink_node(gc_l1shadow *s, int32_t i)
{
	gc_l1shadow_node *n = &s->node[i];
	if (n->prev >= 0)
		s->node[n->prev].next = n->next;
	else
		s->head = n->next;
	if (n->next >= 0)
		s->node[n->next].prev = n->prev;
	else
		s->tail = n->prev;
}

static void push_front(gc_l1shadow *s, int32_t i)
{
	gc_l1shadow_node *n = &s->node[i];
	n->prev = -1;
	n->next = s->head;
	if (s->head >= 0)
		s->node[s->head].prev = i;
	else
		s->tail = i;
	s->head = i;
}

int gc_l1shadow_probe(const gc_l1shadow *s, uint64_t tag, uint8_t mask)
{
	const uint64_t *v = gc_hmap_get(&s->map, tag);
	return v && (s->node[*v].valid & mask) == mask;
}

int gc_l1shadow_use(gc_l1shadow *s, uint64_t tag, uint8_t valid, int alloc)
{
	uint64_t *v = gc_hmap_get(&s->map, tag);
	if (v) {
		int32_t i = (int32_t)*v;
		s->node[i].valid |= valid;
		if (s->head != i) {
			unlink_node(s, i);
			push_front(s, i);
		}
		return 0;
	}
	if (!alloc)
		return 0;
	int32_t i;
	if (s->free >= 0) {
		i = s->free;
		s->free = s->node[i].next;
		s->used++;
	} else {
		i = s->tail;
		unlink_node(s, i);
		gc_hmap_del(&s->map, s->node[i].tag);
	}
	s->node[i].tag = tag;
	s->node[i].valid = valid;
	push_front(s, i);
	int added;
	uint64_t *slot = gc_hmap_put(&s->map, tag, &added);
	if (!slot)
		return -1;
	*slot = (uint64_t)i;
	return 0;
}

void gc_l1shadow_drop(gc_l1shadow *s, uint64_t tag)
{
	uint64_t *v = gc_hmap_get(&s->map, tag);
	if (!v)
		return;
	int32_t i = (int32_t)*v;
	unlink_node(s, i);
	gc_hmap_del(&s->map, tag);
	s->node[i].valid = 0;
	s->node[i].next = s->free;
	s->node[i].prev = -1;
	s->free = i;
	s->used--;
}
