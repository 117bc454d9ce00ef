/*
 * l1queue.h - a min-heap of timed events: the event queue of gc-l1's
 * timing model (miss returns, warps that become ready again).
 *
 * Events leave in (time, order) order: the earliest time first and, at
 * one time, the lowest `order` first.  gc-l1 gives every event the
 * sequence number of the issue that caused it as its order, so effects
 * that fall on the same time apply in issue order (seed 000 §4.2).
 *
 * The heap grows by doubling and never shrinks; it holds at most one
 * event per in-flight miss or per warp, so its size is bounded by the
 * MSHRs and the active warps.
 */
#ifndef GC_L1QUEUE_H
#define GC_L1QUEUE_H

#include <stddef.h>
#include <stdint.h>

typedef struct gc_l1event {
	uint64_t time;
	uint64_t order;
	uint32_t item; /* the caller's: an MSHR entry, a warp */
	uint32_t kind;
} gc_l1event;

typedef struct gc_l1queue {
	gc_l1event *ev;
	size_t n, cap;
} gc_l1queue;

void gc_l1queue_init(gc_l1queue *q);
void gc_l1queue_free(gc_l1queue *q);
/* -1 when out of memory. */
int gc_l1queue_push(gc_l1queue *q, uint64_t time, uint64_t order, uint32_t item, uint32_t kind);
/* The first event (NULL when empty); gc_l1queue_pop removes it. */
static inline const gc_l1event *gc_l1queue_top(const gc_l1queue *q)
{
	return q->n ? &q->ev[0] : NULL;
}
void gc_l1queue_pop(gc_l1queue *q);

#endif
