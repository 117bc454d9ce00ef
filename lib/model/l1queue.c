/* l1queue.c - the timed event heap and timing wheel (l1queue.h). */
#include "model/l1queue.h"
#include "base/grow.h"

#include <stdlib.h>


void gc_l1queue_init(gc_l1queue *q)
{
	q->ev = NULL;
	q->n = q->cap = 0;
}

void gc_l1queue_free(gc_l1queue *q)
{
	free(q->ev);
	gc_l1queue_init(q);
}

int gc_l1queue_push(gc_l1queue *q, uint64_t time, uint64_t order, uint32_t item, uint32_t kind)
{
	if (q->n == q->cap) {
		gc_l1event *ev = gc_grow(q->ev, &q->cap, q->n + 1, sizeof *ev, 64);
		if (!ev)
			return -1;
		q->ev = ev;
	}
	gc_l1event e = {time, order, item, kind};
	size_t i = q->n++;
	while (i > 0) {
		size_t p = (i - 1) / 2;
		if (!gc_l1event_before(&e, &q->ev[p]))
			break;
		q->ev[i] = q->ev[p];
		i = p;
	}
	q->ev[i] = e;
	return 0;
}

void gc_l1queue_pop(gc_l1queue *q)
{
	if (!q->n)
		return;
	gc_l1event e = q->ev[--q->n];
	size_t i = 0, n = q->n;
	for (;;) {
		size_t c = 2 * i + 1;
		if (c >= n)
			break;
		if (c + 1 < n && gc_l1event_before(&q->ev[c + 1], &q->ev[c]))
			c++;
		if (!gc_l1event_before(&q->ev[c], &e))
			break;
		q->ev[i] = q->ev[c];
		i = c;
	}
	if (n)
		q->ev[i] = e;
}

/* ---- the timing wheel ------------------------------------------------------- */

#define NIL GC_L1WHEEL_NIL
#define OVER GC_L1WHEEL_OVER

int gc_l1wheel_init(gc_l1wheel *q, unsigned slots)
{
	q->ev = NULL;
	q->link = NULL;
	q->cap = 0;
	q->free_ = NIL;
	q->slots = slots;
	q->base = 0;
	q->n = 0;
	q->first = NIL;
	gc_l1queue_init(&q->over);
	q->head = malloc(slots * sizeof *q->head);
	q->tail = malloc(slots * sizeof *q->tail);
	q->bits = calloc((slots + 63) / 64, sizeof *q->bits);
	if (!q->head || !q->tail || !q->bits) {
		gc_l1wheel_free(q);
		return -1;
	}
	for (unsigned i = 0; i < slots; i++)
		q->head[i] = q->tail[i] = NIL;
	return 0;
}

void gc_l1wheel_free(gc_l1wheel *q)
{
	free(q->ev);
	free(q->link);
	free(q->head);
	free(q->tail);
	free(q->bits);
	gc_l1queue_free(&q->over);
	q->ev = NULL;
	q->link = q->head = q->tail = NULL;
	q->bits = NULL;
	q->cap = 0;
	q->n = 0;
	q->first = NIL;
}

/* The first event of the wheel's earliest slot, or NIL.  Slots in circular
 * order from the base's are times in increasing order. */
static uint32_t wheel_first(const gc_l1wheel *q)
{
	if (!q->n)
		return NIL;
	unsigned words = (q->slots + 63) / 64, mask = q->slots - 1;
	unsigned s = (unsigned)(q->base & mask);
	unsigned w = s / 64;
	uint64_t b = q->bits[w] & (~UINT64_C(0) << (s % 64));
	for (unsigned i = 0; i <= words; i++) {
		if (b)
			return q->head[w * 64 + (unsigned)__builtin_ctzll(b)];
		w = w + 1 == words ? 0 : w + 1;
		b = q->bits[w];
		if (i + 1 == words)
			b &= ~(~UINT64_C(0) << (s % 64)); /* the base's word again: below it */
	}
	return NIL;
}

/* The first of the wheel's and the heap's. */
void gc_l1wheel_find_first(gc_l1wheel *q)
{
	uint32_t a = wheel_first(q);
	if (!q->over.n)
		q->first = a;
	else if (a == NIL || gc_l1event_before(&q->over.ev[0], &q->ev[a]))
		q->first = OVER;
	else
		q->first = a;
}

/* gc_l1wheel_push's other cases: outside the window (the heap), or no
 * free place (the wheel's arrays grow). */
int gc_l1wheel_push_rest(gc_l1wheel *q, uint64_t time, uint64_t order, uint32_t item, uint32_t kind)
{
	if (time < q->base || time - q->base >= q->slots) {
		if (gc_l1queue_push(&q->over, time, order, item, kind) < 0)
			return -1;
		gc_l1wheel_find_first(q);
		return 0;
	}
	uint32_t cap = q->cap ? 2 * q->cap : 64;
	gc_l1event *ev = realloc(q->ev, cap * sizeof *ev);
	if (!ev)
		return -1;
	q->ev = ev;
	uint32_t *link = realloc(q->link, cap * sizeof *link);
	if (!link)
		return -1;
	q->link = link;
	for (uint32_t i = q->cap; i < cap; i++)
		q->link[i] = i + 1 < cap ? i + 1 : NIL;
	q->free_ = q->cap;
	q->cap = cap;
	return gc_l1wheel_push(q, time, order, item, kind);
}

/* gc_l1wheel_pop's other cases: the first event is the heap's, or none. */
void gc_l1wheel_pop_rest(gc_l1wheel *q)
{
	if (q->first == NIL)
		return;
	gc_l1queue_pop(&q->over);
	gc_l1wheel_find_first(q);
}
