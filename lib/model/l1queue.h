/*
 * l1queue.h - a min-heap of timed events, and the same queue as a timing
 * wheel: the event queues of gc-l1's timing model (SMs by their next
 * time; each SM's miss returns and warps that become ready again).
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

/*
 * The same queue as a timing wheel, for events that fall a little after
 * the last one taken (an SM's miss returns and waking warps): one FIFO
 * list per time slot over a window of `slots` times from the time of the
 * last event taken, and a heap (above) for the rest.  Each operation is
 * a few steps, where the heap's are a dozen comparisons along a path.
 * The order is the heap's exactly: within a slot the list is kept in
 * `order` (appending, when events come in increasing order, as gc-l1's
 * do), and the first of the wheel is compared with the first of the heap.
 */
typedef struct gc_l1wheel {
	gc_l1event *ev;   /* the events in the wheel, by index */
	uint32_t *link;   /* the next in its slot's list, or in the free list */
	uint32_t cap, free_;
	uint32_t *head, *tail; /* per slot; UINT32_MAX when empty */
	uint64_t *bits;   /* the slots that hold events */
	uint64_t base;    /* every event in the wheel has a time in [base, base + slots) */
	unsigned slots;   /* a power of two */
	size_t n;         /* events in the wheel */
	gc_l1queue over;  /* events outside that window */
	uint32_t first;   /* the first event: its index in the wheel, OVER: the
			   * heap's top, NIL: none */
} gc_l1wheel;

#define GC_L1WHEEL_NIL UINT32_MAX
#define GC_L1WHEEL_OVER (UINT32_MAX - 1)

/* -1 when out of memory.  slots: a power of two. */
int gc_l1wheel_init(gc_l1wheel *q, unsigned slots);
void gc_l1wheel_free(gc_l1wheel *q);
static inline const gc_l1event *gc_l1wheel_top(const gc_l1wheel *q)
{
	if (q->first == GC_L1WHEEL_NIL)
		return NULL;
	return q->first == GC_L1WHEEL_OVER ? &q->over.ev[0] : &q->ev[q->first];
}

/* Whether event a leaves before event b. */
static inline int gc_l1event_before(const gc_l1event *a, const gc_l1event *b)
{
	return a->time < b->time || (a->time == b->time && a->order < b->order);
}

/* The common cases (an event inside the window with a free place; the
 * first event in the wheel) are inline, the rest in l1queue.c. */
int gc_l1wheel_push_rest(gc_l1wheel *q, uint64_t time, uint64_t order, uint32_t item, uint32_t kind);
void gc_l1wheel_pop_rest(gc_l1wheel *q);
void gc_l1wheel_find_first(gc_l1wheel *q);

/* -1 when out of memory. */
static inline __attribute__((always_inline)) int gc_l1wheel_push(gc_l1wheel *q, uint64_t time, uint64_t order, uint32_t item,
				  uint32_t kind)
{
	uint32_t i = q->free_;
	if (time < q->base || time - q->base >= q->slots || i == GC_L1WHEEL_NIL)
		return gc_l1wheel_push_rest(q, time, order, item, kind);
	q->free_ = q->link[i];
	q->ev[i] = (gc_l1event){time, order, item, kind};
	unsigned s = (unsigned)(time & (q->slots - 1));
	if (q->head[s] == GC_L1WHEEL_NIL) {
		q->head[s] = q->tail[s] = i;
		q->link[i] = GC_L1WHEEL_NIL;
		q->bits[s / 64] |= UINT64_C(1) << (s % 64);
	} else if (q->ev[q->tail[s]].order <= order) {
		q->link[q->tail[s]] = i;
		q->link[i] = GC_L1WHEEL_NIL;
		q->tail[s] = i;
	} else {
		/* out of order: into its place in the slot's list */
		uint32_t *p = &q->head[s];
		while (q->ev[*p].order <= order)
			p = &q->link[*p];
		q->link[i] = *p;
		*p = i;
	}
	q->n++;
	const gc_l1event *f = gc_l1wheel_top(q);
	if (!f || gc_l1event_before(&q->ev[i], f))
		q->first = i;
	return 0;
}

static inline void gc_l1wheel_pop(gc_l1wheel *q)
{
	uint32_t i = q->first;
	if (i >= GC_L1WHEEL_OVER) { /* the heap's, or none */
		gc_l1wheel_pop_rest(q);
		return;
	}
	unsigned s = (unsigned)(q->ev[i].time & (q->slots - 1));
	q->base = q->ev[i].time; /* the wheel's events are all at or after it */
	uint32_t next = q->head[s] = q->link[i];
	q->link[i] = q->free_;
	q->free_ = i;
	q->n--;
	if (next == GC_L1WHEEL_NIL) {
		q->tail[s] = GC_L1WHEEL_NIL;
		q->bits[s / 64] &= ~(UINT64_C(1) << (s % 64));
		gc_l1wheel_find_first(q);
		return;
	}
	/* the slot's next event has the same time: the wheel's first */
	q->first = q->over.n && gc_l1event_before(&q->over.ev[0], &q->ev[next]) ? GC_L1WHEEL_OVER : next;
}

#endif
