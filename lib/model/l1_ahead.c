/*
 * l1_ahead.c - the output of SMs stepped ahead of the global (time, SM)
 * order (l1_timing.c says when an SM may be): each such step's records
 * wait in the SM's own buffer, with the step's time and the records it
 * issued, until the global order reaches the step; then the waiting steps
 * of all SMs go out merged by (time, SM), so that the stream is the one
 * the global order writes.  The records a step issued leave the count of
 * buffered input only then, which keeps peak_buffered the global order's.
 *
 * With --threads, the steps ahead are taken in parallel phases
 * (l1_timing.c says when) by a pool of threads, the main thread one of
 * them, while nothing is read and no step is taken in the global order.
 * Each thread steps whole SMs on its own copy of the engine's struct, so
 * what the steps of one SM write is that SM's, its warps' and its
 * blocks' alone, or the copy's; what would be the engine's (the free
 * slots, the blocks that ended, the per-PC counts, the merge's heap, the
 * latest time) is handed back here after the phase, in SM order.
 */
#include "model/l1.h"
#include "model/l1_impl.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

struct l1_thread {
	gc_l1 W;                   /* the thread's copy of the engine */
	struct dryset *dryfree[2]; /* its own free needs arrays, kept */
	pthread_t id;
	int started;
	struct l1_pool *pool;
};

struct l1_pool {
	unsigned n;                /* threads, the main thread th[0] */
	struct l1_thread *th;
	pthread_mutex_t mu;
	pthread_cond_t go, done;
	unsigned gen;              /* phases begun */
	unsigned busy;             /* threads still in this phase */
	int quit;
	const uint16_t *todo;      /* the phase's SMs */
	unsigned ntodo;
	uint64_t base;
	atomic_uint next;          /* the next SM of todo to take */
	int dpend;                 /* l1_ahead_defer's merge is waiting */
	uint64_t dkey;             /* up to this time */
	atomic_int dclaim;         /* a thread took it on */
	struct l1_thread *dby;     /* that thread */
	int ddone;                 /* it merged them all */
	uint16_t *hand;            /* SMs whose steps left the main thread */
	size_t nhand, handcap;     /* work (l1_pool_drain), in SM order */
};

/* Room for one more element at the end of array p (*n used from *head
 * on, *cap in all, each `size` bytes): the used part moved down when at
 * least half of the array has gone out before it, else moved into a
 * block of twice the size from the engine's pool (huge pages, blocks
 * the other SMs gave back) and p given back to it.  Returns the array.
 * Not realloc: its copy went to fresh small pages each time (61% of
 * gc-l1 --timing's page faults on the bench's transposition) and the
 * block it left was seldom reused. */
static void *room(gc_l1 *R, void *p, size_t *head, size_t *n, size_t *cap, size_t size)
{
	if (*n < *cap)
		return p;
	size_t live = *n - *head;
	if (*head && live <= *cap / 2) {
		memmove(p, (char *)p + *head * size, live * size);
	} else {
		size_t ncap = *cap ? 2 * *cap : 256;
		void *q = gc_bigpool_alloc(R->seenp, ncap, size);
		if (!q)
			l1_fail(R, "out of memory");
		if (live)
			memcpy(q, (char *)p + *head * size, live * size);
		gc_bigpool_put(R->seenp, p, *cap, size);
		*cap = ncap;
		p = q;
	}
	*n = live;
	*head = 0;
	return p;
}

/* The entry of the step being taken (R->cur at R->gnow), made on its
 * first record. */
static struct astep *step_entry(gc_l1 *R)
{
	struct sm *s = R->sms[R->cur];
	struct aseg *a = &s->a;
	if (R->astep_open)
		return &a->st[a->sn - 1];
	a->st = room(R, a->st, &a->sh, &a->sn, &a->scap, sizeof *a->st);
	if (!R->par && !s->aq) { /* a phase's: pushed when it ends */
		l1_oom(R, gc_l1queue_push(&R->aheap, R->gnow, s->id, s->id, 0));
		s->aq = 1;
	}
	struct astep *e = &a->st[a->sn++];
	e->t = R->gnow;
	e->nrec = e->issued = 0;
	R->astep_open = 1;
	return e;
}

gc_rec *l1_ahead_slot(gc_l1 *R)
{
	step_entry(R)->nrec++;
	struct aseg *a = &R->sms[R->cur]->a;
	a->rec = room(R, a->rec, &a->rh, &a->rn, &a->rcap, sizeof *a->rec);
	return &a->rec[a->rn++];
}

/* The step issued k records (l1_warp_pop took them off the count). */
void l1_ahead_issued(gc_l1 *R, unsigned k)
{
	step_entry(R)->issued += k;
	R->buffered += k;
}

/* The run SM s's next step is in: its oldest run set aside, else its own
 * buffer (not when `aside`: its steps may be writing it); NULL when
 * there is none.  An emptied run becomes s's spare, or goes back to
 * the pool when s has one (two spares an SM held 21 MiB more at peak). */
static struct aseg *next_run(gc_l1 *R, struct sm *s, int aside)
{
	for (;;) {
		struct aseg *g = s->aold;
		if (!g) {
			if (aside)
				return NULL;
			g = &s->a;
			if (g->sh < g->sn)
				return g;
			g->sh = g->sn = g->rh = g->rn = 0;
			return NULL;
		}
		if (g->sh < g->sn)
			return g;
		s->aold = g->next;
		if (!s->aold)
			s->aoldtail = NULL;
		g->sh = g->sn = g->rh = g->rn = 0;
		if (s->aspare) { /* one spare kept: the rest back to the pool */
			gc_bigpool_put(R->seenp, g->rec, g->rcap, sizeof *g->rec);
			gc_bigpool_put(R->seenp, g->st, g->scap, sizeof *g->st);
			free(g);
			continue;
		}
		g->next = NULL;
		s->aspare = g;
	}
}

#define RUN_AHEAD 24

/* n records of steps out, in order (R->out, not out_slot: the merge of
 * l1_ahead_defer runs on a thread's copy, R->ahead set). */
static void out_run(gc_l1 *R, const gc_rec *r, size_t n, size_t avail)
{
	/* the run's records are cold (a round old): fetched RUN_AHEAD
	 * ahead, a line each */
	for (size_t i = 0; i < n; i++) {
		if (i + RUN_AHEAD < avail)
			__builtin_prefetch(&r[i + RUN_AHEAD]);
		if (R->nout == OUTBUF)
			l1_emit_flush(R);
		R->out[R->nout++] = r[i];
	}
}

/* Whether (time, order) is at or before (t, id) (t UINT64_MAX: always). */
static inline int upto(uint64_t time, uint64_t order, uint64_t t, uint64_t id)
{
	return t == UINT64_MAX || time < t || (time == t && order <= id);
}

/* The merge up to (t, id): each time the heap's first SM goes out, as
 * many of its steps as come before the next SM's first.  `deferred`:
 * l1_ahead_defer's merge (`aside` while the SMs step). */
static void flush(gc_l1 *R, uint64_t t, uint64_t id, int deferred, int aside)
{
	const gc_l1event *e;
	while ((e = gc_l1queue_top(&R->aheap)) && upto(e->time, e->order, t, id)) {
		struct sm *s = R->sms[e->item];
		gc_l1queue_pop(&R->aheap);
		for (;;) {
			struct aseg *g = next_run(R, s, aside);
			if (!g) {
				s->aq = 0;
				break;
			}
			const gc_l1event *o = gc_l1queue_top(&R->aheap);
			size_t nrec = 0;
			const struct astep *st = &g->st[g->sh];
			while (upto(st->t, s->id, t, id) &&
			       (!o || st->t < o->time || (st->t == o->time && s->id < o->order))) {
				if (!deferred) /* else l1_ahead_defer counted them */
					R->buffered -= st->issued;
				nrec += st->nrec;
				if (++g->sh == g->sn)
					break;
				st++;
			}
			out_run(R, g->rec + g->rh, nrec, g->rn - g->rh);
			g->rh += nrec;
			if (g->sh < g->sn) {
				/* s comes back after the other SMs' steps: its next
				 * steps, cold, come towards the CPU meanwhile (its
				 * records came in out_run) */
				__builtin_prefetch(st + 4);
				l1_oom(R, gc_l1queue_push(&R->aheap, st->t, s->id, s->id, 0));
				break;
			}
		}
	}
}

void l1_ahead_flush(gc_l1 *R, uint64_t t, uint64_t id)
{
	struct l1_pool *P = R->pool;
	if (P && P->dpend) {
		P->dpend = 0;
		flush(R, P->dkey, UINT64_MAX, 1, 0);
	}
	flush(R, t, id, 0, 0);
}

void l1_ahead_defer(gc_l1 *R, uint64_t t)
{
	struct l1_pool *P = R->pool;
	if (P->dpend)
		flush(R, P->dkey, UINT64_MAX, 1, 0);
	for (unsigned i = 0; i < R->nsms; i++) {
		struct sm *s = R->sms[R->smlist[i]];
		if (!s->aq)
			continue;
		const struct aseg *g = next_run(R, s, 0);
		if (!g || g->st[g->sh].t > t)
			continue;
		/* the records its steps up to t issued leave the count now,
		 * as the merge's would have (the next round's reads depend
		 * on it, and peak_buffered) */
		for (; g; g = g == &s->a ? NULL : g->next ? g->next : &s->a) {
			const struct astep *st = g->st + g->sh, *end = g->st + g->sn;
			for (; st < end && st->t <= t; st++)
				R->buffered -= st->issued;
			if (st < end)
				break;
		}
		if (s->a.sh == s->a.sn)
			continue;
		/* s's steps up to t go out while it steps on: its buffer
		 * is set aside, a spare (emptied) takes its place */
		struct aseg *x = s->aspare;
		if (x)
			s->aspare = x->next;
		else
			x = l1_zalloc(R, 1, sizeof *x);
		struct aseg tmp = *x;
		*x = s->a;
		x->next = NULL;
		s->a = tmp;
		s->a.next = NULL;
		if (s->aoldtail)
			s->aoldtail->next = x;
		else
			s->aold = x;
		s->aoldtail = x;
	}
	P->dpend = 1;
	P->dkey = t;
}

void l1_ahead_free(gc_l1 *R, struct sm *s)
{
	struct aseg *lists[2] = {s->aold, s->aspare};
	for (int k = 0; k < 2; k++)
		for (struct aseg *g = lists[k], *nx; g; g = nx) {
			nx = g->next;
			gc_bigpool_put(R->seenp, g->rec, g->rcap, sizeof *g->rec);
			gc_bigpool_put(R->seenp, g->st, g->scap, sizeof *g->st);
			free(g);
		}
	s->aold = s->aoldtail = s->aspare = NULL;
	gc_bigpool_put(R->seenp, s->a.rec, s->a.rcap, sizeof *s->a.rec);
	gc_bigpool_put(R->seenp, s->a.st, s->a.scap, sizeof *s->a.st);
	s->a.rec = NULL;
	s->a.st = NULL;
	free(s->hdblk);
	free(s->hpclog);
	s->hdblk = NULL;
	s->hpclog = NULL;
}

/* ---- --threads ------------------------------------------------------------ */

void l1_pc_defer(gc_l1 *R, struct sm *s, uint32_t pc, uint8_t outcome)
{
	if (s->npc == s->pccap) {
		s->pccap = s->pccap ? 2 * s->pccap : 256;
		s->pclog = l1_alloc(R, s->pclog, s->pccap * sizeof *s->pclog);
	}
	s->pclog[s->npc++] = (uint64_t)pc << 8 | outcome;
}

/* The merge that l1_ahead_defer left, on the copy of the first thread
 * free to take it (the main thread reads first), while the others step:
 * it touches only the runs set aside, the merge's heap and the output
 * (l1_pool_run hands the copy's heap and output buffer back). */
static void deferred_merge(struct l1_thread *th)
{
	struct l1_pool *P = th->pool;
	if (!P->dpend || atomic_exchange_explicit(&P->dclaim, 1, memory_order_relaxed))
		return;
	P->dby = th;
	flush(&th->W, P->dkey, UINT64_MAX, 1, 1);
	P->ddone = 1;
}

/* A thread's part of a phase: the waiting merge if no thread has taken
 * it, then SMs of todo, one at a time, until none is left.  A failure
 * (out of memory, the output's) stops it; the main thread reports it. */
static void phase_share(struct l1_thread *th)
{
	struct l1_pool *P = th->pool;
	gc_l1 *W = &th->W;
	if (sigsetjmp(W->jb, 0))
		return;
	deferred_merge(th);
	for (;;) {
		unsigned i = atomic_fetch_add_explicit(&P->next, 1, memory_order_relaxed);
		if (i >= P->ntodo)
			return;
		l1_step_ahead(W, W->sms[P->todo[i]], P->base);
	}
}

/* --dispatch free with GC_L1_IN_ORDER: the phase's SMs in (time, SM)
 * order, all on the main thread. */
static void in_order_share(struct l1_thread *th)
{
	struct l1_pool *P = th->pool;
	gc_l1 *W = &th->W;
	if (sigsetjmp(W->jb, 0))
		return;
	deferred_merge(th);
	l1_step_in_order(W, P->todo, P->ntodo, P->base);
}

static void *thread_main(void *arg)
{
	struct l1_thread *th = arg;
	struct l1_pool *P = th->pool;
	unsigned seen = 0;
	pthread_mutex_lock(&P->mu);
	for (;;) {
		while (P->gen == seen && !P->quit)
			pthread_cond_wait(&P->go, &P->mu);
		if (P->quit)
			break;
		seen = P->gen;
		pthread_mutex_unlock(&P->mu);
		phase_share(th);
		pthread_mutex_lock(&P->mu);
		if (--P->busy == 0)
			pthread_cond_signal(&P->done);
	}
	pthread_mutex_unlock(&P->mu);
	return NULL;
}

static struct l1_pool *pool_new(gc_l1 *R)
{
	struct l1_pool *P = l1_zalloc(R, 1, sizeof *P);
	R->pool = P;
	P->n = R->p.threads;
	P->th = l1_zalloc(R, P->n, sizeof *P->th);
	pthread_mutex_init(&P->mu, NULL);
	pthread_cond_init(&P->go, NULL);
	pthread_cond_init(&P->done, NULL);
	for (unsigned i = 0; i < P->n; i++) {
		P->th[i].pool = P;
		if (i && pthread_create(&P->th[i].id, NULL, thread_main, &P->th[i]))
			l1_fail(R, "cannot start a thread for --threads");
		P->th[i].started = i > 0;
	}
	return P;
}

/* A thread's copy of R for a phase: the engine as it is, its own scratch
 * (free lists empty but for its kept needs arrays). */
static void copy_in(struct l1_thread *th, const gc_l1 *R)
{
	gc_l1 *W = &th->W;
	memcpy(W, R, sizeof *W);
	W->par = 1;
	W->ahead = 1;
	W->failed = 0;
	W->pf_ntrig = 0;
	memset(W->ifree, 0, sizeof W->ifree);
	memcpy(W->dryfree, th->dryfree, sizeof W->dryfree);
}

/* What the copy leaves to R. */
static void copy_out(struct l1_thread *th, gc_l1 *R)
{
	gc_l1 *W = &th->W;
	memcpy(th->dryfree, W->dryfree, sizeof th->dryfree);
	for (unsigned c = 0; c < NCLASS; c++)
		if (W->ifree[c]) {
			W->ifree_tail[c]->next = R->ifree[c];
			R->ifree[c] = W->ifree[c];
		}
	if (W->tmax > R->tmax)
		R->tmax = W->tmax;
	if (W->cycles > R->cycles)
		R->cycles = W->cycles;
}

/* --dispatch free: while the SMs are stepped, the main thread takes
 * what the last round's steps left it (l1_pool_drain) and reads n
 * records; a failure is kept (R->failed) until the threads are done. */
static void read_guarded(gc_l1 *R, unsigned n)
{
	sigjmp_buf api;
	memcpy(&api, &R->jb, sizeof api);
	if (!sigsetjmp(R->jb, 0)) {
		l1_pool_drain(R);
		l1_read_n(R, n);
	}
	memcpy(&R->jb, &api, sizeof api);
}

/* What a phase's steps of s left to the main thread, taken. */
static void take_left(gc_l1 *R, uint32_t *dblk, size_t ndblk, const uint64_t *pclog, size_t npc)
{
	for (size_t k = 0; k < ndblk; k++)
		l1_block_release(R, dblk[k]);
	for (size_t k = 0; k < npc; k++)
		l1_count_pc(R, (uint32_t)(pclog[k] >> 8), (uint8_t)pclog[k]);
}

void l1_pool_drain(gc_l1 *R)
{
	struct l1_pool *P = R->pool;
	if (!P)
		return;
	for (size_t i = 0; i < P->nhand; i++) {
		struct sm *s = R->sms[P->hand[i]];
		take_left(R, s->hdblk, s->nhdblk, s->hpclog, s->nhpc);
		s->nhdblk = s->nhpc = 0;
	}
	P->nhand = 0;
}

/* --dispatch free: what s's steps left goes to the main thread's part of
 * the next round (before its reads, where it would have been taken). */
static void hand_over(gc_l1 *R, struct l1_pool *P, struct sm *s)
{
#define SWAP(T, a, b) do { T t_ = (a); (a) = (b); (b) = t_; } while (0)
	SWAP(uint32_t *, s->dblk, s->hdblk);
	SWAP(size_t, s->dblkcap, s->hdblkcap);
	SWAP(uint64_t *, s->pclog, s->hpclog);
	SWAP(size_t, s->pccap, s->hpccap);
#undef SWAP
	s->nhdblk = s->ndblk;
	s->nhpc = s->npc;
	s->ndblk = s->npc = 0;
	if (P->nhand == P->handcap) {
		P->handcap = P->handcap ? 2 * P->handcap : 256;
		P->hand = l1_alloc(R, P->hand, P->handcap * sizeof *P->hand);
	}
	P->hand[P->nhand++] = s->id;
}

/* After a phase: the waiting merge's heap and output buffer, from the
 * copy that took it (the main thread's when none did: a read failed
 * under GC_L1_IN_ORDER); 1 when it failed, its message in R->err. */
static int merge_back(gc_l1 *R, struct l1_pool *P)
{
	if (!P->dpend)
		return 0;
	if (!P->dby) {
		struct l1_thread *th = &P->th[0];
		if (!sigsetjmp(th->W.jb, 0))
			deferred_merge(th);
	}
	P->dpend = 0;
	gc_l1 *W = &P->dby->W;
	R->aheap = W->aheap;
	memcpy(R->out, W->out, W->nout * sizeof *R->out);
	R->nout = W->nout;
	if (P->ddone)
		return 0;
	memcpy(R->err, W->err, sizeof R->err);
	return 1;
}

void l1_pool_run(gc_l1 *R, const uint16_t *todo, unsigned n, uint64_t base, unsigned nread)
{
	struct l1_pool *P = R->pool ? R->pool : pool_new(R);
	for (unsigned i = 0; i < P->n; i++)
		copy_in(&P->th[i], R);
	P->todo = todo;
	P->ntodo = n;
	P->base = base;
	atomic_store(&P->next, 0);
	atomic_store(&P->dclaim, 0);
	P->dby = NULL;
	P->ddone = 0;
	int together = !(R->dfree && R->p.in_order);
	if (together) {
		pthread_mutex_lock(&P->mu);
		P->gen++;
		P->busy = P->n - 1;
		pthread_cond_broadcast(&P->go);
		pthread_mutex_unlock(&P->mu);
	}
	/* The main thread reads first (what the steps see was copied in),
	 * then takes its share. */
	if (nread || P->nhand)
		read_guarded(R, nread);
	if (!R->failed) {
		if (together)
			phase_share(&P->th[0]);
		else
			in_order_share(&P->th[0]);
	}
	if (together) {
		pthread_mutex_lock(&P->mu);
		while (P->busy)
			pthread_cond_wait(&P->done, &P->mu);
		pthread_mutex_unlock(&P->mu);
	}

	if (merge_back(R, P)) {
		/* the output failed (before the reads, as it went out
		 * before them): its message stands */
		R->failed = 1;
	}
	if (R->failed) {
		/* the read failed: its message stands */
		R->failed = 0;
		for (unsigned i = 0; i < P->n; i++)
			copy_out(&P->th[i], R);
		l1_fail(R, NULL);
	}
	for (unsigned i = 0; i < P->n; i++) {
		copy_out(&P->th[i], R);
		if (P->th[i].W.failed && !R->failed) {
			memcpy(R->err, P->th[i].W.err, sizeof R->err);
			R->failed = 1;
		}
	}
	if (R->failed)
		l1_fail(R, NULL);
	for (unsigned i = 0; i < n; i++) {
		struct sm *s = R->sms[todo[i]];
		if (!s->aq && s->a.sh != s->a.sn) {
			l1_oom(R, gc_l1queue_push(&R->aheap, s->a.st[s->a.sh].t, s->id, s->id, 0));
			s->aq = 1;
		}
		if (R->dfree && (s->ndblk || s->npc)) {
			hand_over(R, P, s);
		} else {
			take_left(R, s->dblk, s->ndblk, s->pclog, s->npc);
			s->ndblk = s->npc = 0;
		}
		if (s->pstep && !R->dfree) {
			/* as after a run ahead in l1_timing_kernel: at the time
			 * of its last step (its `now` stays) */
			uint64_t g = R->gnow;
			R->gnow = s->ahead_t - 1;
			l1_sm_reschedule(R, s);
			R->gnow = g;
		}
	}
}

void l1_pool_free(gc_l1 *R)
{
	struct l1_pool *P = R->pool;
	free(R->todo);
	if (!P)
		return;
	pthread_mutex_lock(&P->mu);
	P->quit = 1;
	pthread_cond_broadcast(&P->go);
	pthread_mutex_unlock(&P->mu);
	for (unsigned i = 0; i < P->n; i++) {
		if (P->th[i].started)
			pthread_join(P->th[i].id, NULL);
		l1_dry_free(P->th[i].dryfree);
	}
	pthread_mutex_destroy(&P->mu);
	pthread_cond_destroy(&P->go);
	pthread_cond_destroy(&P->done);
	free(P->th);
	free(P->hand);
	free(P);
	R->pool = NULL;
}
