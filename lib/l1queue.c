/* l1queue.c - the timed event heap (l1queue.h). */
#include "l1queue.h"

#include <stdlib.h>

static int before(const gc_l1event *a, const gc_l1event *b)
{
	return a->time < b->time || (a->time == b->time && a->order < b->order);
}

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
		size_t cap = q->cap ? 2 * q->cap : 64;
		gc_l1event *ev = realloc(q->ev, cap * sizeof *ev);
		if (!ev)
			return -1;
		q->ev = ev;
		q->cap = cap;
	}
	gc_l1event e = {time, order, item, kind};
	size_t i = q->n++;
	while (i > 0) {
		size_t p = (i - 1) / 2;
		if (!before(&e, &q->ev[p]))
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
		if (c + 1 < n && before(&q->ev[c + 1], &q->ev[c]))
			c++;
		if (!before(&q->ev[c], &e))
			break;
		q->ev[i] = q->ev[c];
		i = c;
	}
	if (n)
		q->ev[i] = e;
}
