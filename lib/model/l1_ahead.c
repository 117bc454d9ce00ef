/*
 * l1_ahead.c - the output of SMs stepped ahead of the global (time, SM)
 * order (l1_timing.c says when an SM may be): each such step's records
 * wait in the SM's own buffer, with the step's time and the records it
 * issued, until the global order reaches the step; then the waiting steps
 * of all SMs go out merged by (time, SM), so that the stream is the one
 * the global order writes.  The records a step issued leave the count of
 * buffered input only then, which keeps peak_buffered the global order's.
 */
#include "model/l1.h"
#include "model/l1_impl.h"

#include <stdlib.h>
#include <string.h>

/* Room for one more element at the end of array p (*n used from *head
 * on, *cap in all, each `size` bytes): the used part moved down when
 * something before it has gone out, else the array doubled.  Returns
 * the array. */
static void *room(gc_l1 *R, void *p, size_t *head, size_t *n, size_t *cap, size_t size)
{
	if (*n < *cap)
		return p;
	if (*head) {
		memmove(p, (char *)p + *head * size, (*n - *head) * size);
		*n -= *head;
		*head = 0;
		return p;
	}
	*cap = *cap ? 2 * *cap : 256;
	return l1_alloc(R, p, *cap * size);
}

/* The entry of the step being taken (R->cur at R->gnow), made on its
 * first record. */
static struct astep *step_entry(gc_l1 *R)
{
	struct sm *s = R->sms[R->cur];
	if (R->astep_open)
		return &s->ast[s->asn - 1];
	s->ast = room(R, s->ast, &s->ash, &s->asn, &s->ascap, sizeof *s->ast);
	if (s->ash == s->asn)
		l1_oom(R, gc_l1queue_push(&R->aheap, R->gnow, s->id, s->id, 0));
	struct astep *e = &s->ast[s->asn++];
	e->t = R->gnow;
	e->nrec = e->issued = 0;
	R->astep_open = 1;
	return e;
}

gc_rec *l1_ahead_slot(gc_l1 *R)
{
	step_entry(R)->nrec++;
	struct sm *s = R->sms[R->cur];
	s->arec = room(R, s->arec, &s->arh, &s->arn, &s->arcap, sizeof *s->arec);
	return &s->arec[s->arn++];
}

/* The step issued k records (l1_warp_pop took them off the count). */
void l1_ahead_issued(gc_l1 *R, unsigned k)
{
	step_entry(R)->issued += k;
	R->buffered += k;
}

void l1_ahead_flush(gc_l1 *R, uint64_t t, uint64_t id)
{
	const gc_l1event *e;
	while ((e = gc_l1queue_top(&R->aheap)) &&
	       (e->time < t || (e->time == t && e->order <= id) || t == UINT64_MAX)) {
		struct sm *s = R->sms[e->item];
		gc_l1queue_pop(&R->aheap);
		const struct astep *st = &s->ast[s->ash++];
		R->buffered -= st->issued;
		for (uint32_t i = 0; i < st->nrec; i++)
			*out_slot(R) = s->arec[s->arh++];
		if (s->ash == s->asn)
			s->ash = s->asn = s->arh = s->arn = 0;
		else
			l1_oom(R, gc_l1queue_push(&R->aheap, s->ast[s->ash].t, s->id, s->id, 0));
	}
}

void l1_ahead_free(struct sm *s)
{
	free(s->arec);
	free(s->ast);
}
