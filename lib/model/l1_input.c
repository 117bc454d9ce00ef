/*
 * l1_input.c - the timing model's buffered input: the records each warp
 * has read but not yet issued (as instructions in slots, see l1_impl.h),
 * the kernel's warps and blocks as they appear, and the end of a warp (no
 * record of it in params.window records).  Records come from the read
 * callback; l1_timing.c takes them from here.
 */
#include "model/l1.h"
#include "model/l1_impl.h"

#include <stdlib.h>
#include <string.h>

/* The slots' memory: slabs of 2 MiB, carved in order, never returned
 * before the end (free slots are reused by size class). */
#define SLAB (1u << 21)

/* A slot of 2^c records. */
static struct islot *slot_get(gc_l1 *R, unsigned c)
{
	struct islot *p = R->ifree[c];
	if (p) {
		/* the list's next slot is cold (freed long ago): its link
		 * is read on the next call, and the records go there */
		R->ifree[c] = p->next;
		if (p->next)
			__builtin_prefetch(p->next, 1);
		return p;
	}
	size_t bytes = sizeof *p + ((size_t)1 << c) * sizeof(gc_rec);
	if (R->slab_left < bytes) {
		R->slabs = l1_alloc(R, R->slabs, (R->nslabs + 1) * sizeof *R->slabs);
		R->slabs[R->nslabs] = gc_bigpool_alloc(R->seenp, 1, SLAB);
		if (!R->slabs[R->nslabs])
			l1_fail(R, "out of memory");
		R->nslabs++;
		R->slab_left = SLAB;
	}
	p = (struct islot *)(R->slabs[R->nslabs - 1] + (SLAB - R->slab_left));
	R->slab_left -= bytes;
	return p;
}

static void slot_put(gc_l1 *R, struct islot *p)
{
	if (!R->ifree[p->cls])
		R->ifree_tail[p->cls] = p; /* a thread's copy hands its list back */
	p->next = R->ifree[p->cls];
	R->ifree[p->cls] = p;
}

/* Room for one more element in array *p of *cap (each `size` bytes). */
static void grow(gc_l1 *R, void **p, size_t n, size_t *cap, size_t size)
{
	if (n < *cap)
		return;
	*cap = *cap ? 2 * *cap : 256;
	*p = l1_alloc(R, *p, *cap * size);
}

/* --dispatch free: warp widx took records that its SM's steps do not see
 * yet.  The list's growth stays out of the reader's loop. */
static __attribute__((noinline)) void dirty_add(gc_l1 *R, uint32_t widx)
{
	grow(R, (void **)&R->dirty, R->ndirty, &R->dirtycap, sizeof *R->dirty);
	R->dirty[R->ndirty++] = widx;
}

static inline void mark_dirty(gc_l1 *R, uint32_t widx)
{
	struct wread *w = &R->wrd[widx];
	if (w->dirty)
		return;
	w->dirty = 1;
	dirty_add(R, widx);
}

/* The open instruction's records, stage_n of them: the first stage_cp
 * in R->stage, the rest where they were read, from R->batch[stage_b0] on
 * (a record of the open instruction is not copied until the batch is
 * refilled or the instruction closes: most close in the batch they were
 * read in, and go to their slot in one copy). */
static void stage_spill(gc_l1 *R)
{
	unsigned k = R->stage_n - R->stage_cp;
	memcpy(R->stage + R->stage_cp, R->batch + R->stage_b0, k * sizeof *R->stage);
	R->stage_cp = R->stage_n;
}

/* The open instruction closes: to a slot, at the end of its warp's list. */
static void inst_close(gc_l1 *R)
{
	unsigned n = R->stage_n;
	if (!n)
		return;
	unsigned c = 0;
	while ((1u << c) < n)
		c++;
	struct islot *p = slot_get(R, c);
	p->next = NULL;
	p->off = 0;
	p->n = (uint16_t)n;
	p->cls = (uint8_t)c;
	unsigned cp = R->stage_cp;
	if (cp)
		memcpy(p->rec, R->stage, cp * sizeof *R->stage);
	memcpy(p->rec + cp, R->batch + R->stage_b0, (n - cp) * sizeof *R->stage);
	struct warp *w = &R->warps[R->stage_warp];
	if (R->dfree) {
		/* the SMs' steps see it after l1_free_publish */
		struct wread *wr = &R->wrd[R->stage_warp];
		mark_dirty(R, R->stage_warp);
		if (wr->ntail)
			wr->ntail->next = p;
		else
			wr->nhead = p;
		wr->ntail = p;
	} else {
		if (w->itail)
			w->itail->next = p;
		else
			w->ihead = p;
		w->itail = p;
	}
	R->stage_n = R->stage_cp = 0;
	R->stage_warp = NONE32;
}

/* Record R->batch[bpos] joins warp widx: as the first of a new
 * instruction (closing the open one), or the next of the open one. */
static inline void warp_append(gc_l1 *R, uint32_t widx, unsigned bpos, int start)
{
	if (start) {
		inst_close(R);
		R->stage_b0 = bpos;
	}
	R->stage_n++;
	R->stage_warp = widx;
	if (++R->buffered > R->peak_buffered)
		R->peak_buffered = R->buffered;
}

/* The first k records of warp widx's head instruction have issued; the
 * rest of a split instruction stays at the head. */
void l1_warp_pop(gc_l1 *R, uint32_t widx, unsigned k)
{
	struct warp *w = &R->warps[widx];
	struct islot *in = w->ihead;
	R->buffered -= k;
	in->off = (uint16_t)(in->off + k);
	in->n = (uint16_t)(in->n - k);
	if (in->n)
		return;
	w->ihead = in->next;
	if (!w->ihead)
		w->itail = NULL;
	slot_put(R, in);
}

/* Room for cap warps. */
static void warps_room(gc_l1 *R, size_t cap)
{
	R->wcap = cap;
	R->warps = l1_alloc(R, R->warps, cap * sizeof *R->warps);
	R->wrd = l1_alloc(R, R->wrd, cap * sizeof *R->wrd);
}

/* A warp slot for warp `id` of block bidx, in no block's list yet. */
static uint32_t warp_alloc(gc_l1 *R, uint32_t bidx, uint16_t id)
{
	uint32_t widx;
	if (R->wfree != NONE32) {
		widx = R->wfree;
		R->wfree = R->warps[widx].next;
		/* the next free one is cold (it ended long ago): its link
		 * comes towards the CPU for the next call */
		if (R->wfree != NONE32)
			__builtin_prefetch(&R->warps[R->wfree], 1);
	} else {
		if (R->nwarps == R->wcap)
			warps_room(R, R->wcap ? 2 * R->wcap : 256);
		widx = (uint32_t)R->nwarps++;
	}
	struct warp *w = &R->warps[widx];
	memset(w, 0, sizeof *w);
	memset(&R->wrd[widx], 0, sizeof *R->wrd);
	w->block = bidx;
	w->id = id;
	w->sm = R->blocks[bidx].sm;
	w->next = NONE32;
	w->state = W_PENDING;
	return widx;
}

/* Warp widx joins its block's list, by warp id. */
static void warp_link(gc_l1 *R, uint32_t widx)
{
	struct warp *w = &R->warps[widx];
	struct block *b = &R->blocks[w->block];
	uint32_t *p = &b->first;
	if (BLOCK_WL(R, b, 1)) {
		unsigned k = b->nwarps;
		while (k && b->wid[k - 1] > w->id)
			k--;
		if (k)
			p = &R->warps[b->wl[k - 1]].next;
		memmove(b->wl + k + 1, b->wl + k, (b->nwarps - k) * sizeof *b->wl);
		memmove(b->wid + k + 1, b->wid + k, (b->nwarps - k) * sizeof *b->wid);
		b->wl[k] = widx;
		b->wid[k] = w->id;
	} else {
		while (*p != NONE32 && R->warps[*p].id < w->id)
			p = &R->warps[*p].next;
	}
	w->next = *p;
	*p = widx;
	b->nwarps++;
}

static uint32_t new_warp(gc_l1 *R, uint32_t bidx, uint16_t id)
{
	uint32_t widx = warp_alloc(R, bidx, id);
	warp_link(R, widx);
	return widx;
}

static _Noreturn void late_record(gc_l1 *R, const gc_rec *r)
{
	l1_fail(R, "%s: record %llu: block %u warp %u has a request after the timing "
		"model ended it (no request of it in %llu records); raise --window",
		R->p.input ? R->p.input : "input", (unsigned long long)R->recno, r->block,
		r->warp, (unsigned long long)R->p.window);
}

/* --dispatch free: a record that comes too late: of a warp with no
 * record in the window before it, or a new warp of a block with no new
 * warp in the window before it, or of a block that started (with all
 * the warps its kernel's threads per block make) or ended.  But for a
 * block with more warps than its threads make, decided by the records
 * alone, so that it is the same error whatever the SMs' steps had
 * reached when it was read. */
static _Noreturn void late_free(gc_l1 *R, const gc_rec *r)
{
	l1_fail(R, "%s: record %llu: block %u warp %u has a request after the timing model "
		"ended the warp or started its block (no request of the warp, or no new warp of "
		"the block, in %llu records, or the block had its warps); raise --window",
		R->p.input ? R->p.input : "input", (unsigned long long)R->recno, r->block,
		r->warp, (unsigned long long)R->p.window);
}

/* A warp of a block that already had as many as its kernel's threads
 * make, on an SM stepped ahead on the word that it had them all. */
static _Noreturn void surplus_warp(gc_l1 *R, const gc_rec *r, const struct sm *s)
{
	l1_fail(R, "%s: record %llu: block %u has more warps than its kernel's threads per "
		"block make (%u), and SM %u ran ahead taking that number; "
		"GC_L1_IN_ORDER=1 runs without running ahead",
		R->p.input ? R->p.input : "input", (unsigned long long)R->recno, r->block,
		R->wpb, s->id);
}

/* A new block's slot. */
static uint32_t new_block(gc_l1 *R)
{
	uint32_t bidx;
	if (R->bfree != NONE32) {
		bidx = R->bfree;
		R->bfree = R->blocks[bidx].next_pending;
		if (R->bfree != NONE32)
			__builtin_prefetch(&R->blocks[R->bfree], 1);
		return bidx;
	}
	if (R->nblocks == R->bcap) {
		R->bcap = R->bcap ? 2 * R->bcap : 64;
		R->blocks = l1_alloc(R, R->blocks, R->bcap * sizeof *R->blocks);
	}
	return (uint32_t)R->nblocks++;
}

/* Block bidx waits for a slot on SM s, behind its other waiting blocks. */
static void pend_push(gc_l1 *R, struct sm *s, uint32_t bidx)
{
	if (s->pend_tail == NONE32)
		s->pend_head = bidx;
	else
		R->blocks[s->pend_tail].next_pending = bidx;
	s->pend_tail = bidx;
}

/* The block of record r, made on first sight (*added set); a block that
 * ended is a late record. */
static uint32_t block_of(gc_l1 *R, const gc_rec *r, int *added)
{
	uint64_t *bv = gc_hmap_put(&R->blockmap, r->block, added);
	if (!bv)
		l1_fail(R, "out of memory");
	if (!*added)
		return (uint32_t)*bv;
	if (gc_hset_has(&R->doneblocks, r->block)) {
		if (R->dfree)
			late_free(R, r);
		late_record(R, r);
	}
	uint32_t bidx = new_block(R);
	*bv = bidx;
	struct block *b = &R->blocks[bidx];
	b->id = r->block;
	b->sm = r->sm;
	b->resident = b->done = 0;
	b->first = b->next_pending = NONE32;
	b->nwarps = b->ndone = 0;
	b->last_new = b->rlast_new = 0;
	return bidx;
}

/* --dispatch free: the new warp of record r, and its block on first
 * sight.  Nothing starts here: a block waits in its SM's queue until
 * the SM has a free slot and the block's warps are all known
 * (l1_block_known); the SM's own step starts it. */
static uint32_t warp_of_free(gc_l1 *R, const gc_rec *r, uint64_t wkey)
{
	int added;
	uint32_t bidx = block_of(R, r, &added);
	if (added) {
		get_sm(R, r->sm);
		grow(R, (void **)&R->nbq, R->nnbq, &R->nbqcap, sizeof *R->nbq);
		R->nbq[R->nnbq++] = bidx;
	} else if (R->nread - R->blocks[bidx].rlast_new > R->p.window) {
		late_free(R, r);
	}
	uint32_t widx = warp_alloc(R, bidx, r->warp);
	R->blocks[bidx].rlast_new = R->nread;
	grow(R, (void **)&R->nwq, R->nnwq, &R->nwqcap, sizeof *R->nwq);
	R->nwq[R->nnwq++] = (struct newwarp){widx, R->nread, R->recno};
	uint64_t *wv = gc_hmap_put(&R->warpmap, wkey, NULL);
	if (!wv)
		l1_fail(R, "out of memory");
	*wv = widx;
	return widx;
}

void l1_free_reserve(gc_l1 *R, size_t n)
{
	if (R->wcap < R->nwarps + n)
		warps_room(R, R->nwarps + n);
	if (R->bcap < R->nblocks + n) {
		R->bcap = R->nblocks + n;
		R->blocks = l1_alloc(R, R->blocks, R->bcap * sizeof *R->blocks);
	}
}

void l1_free_publish(gc_l1 *R)
{
	for (size_t i = 0; i < R->ndirty; i++) {
		struct warp *w = &R->warps[R->dirty[i]];
		struct wread *wr = &R->wrd[R->dirty[i]];
		wr->dirty = 0;
		w->last_read = wr->rlast;
		if (wr->nhead) {
			if (w->itail)
				w->itail->next = wr->nhead;
			else
				w->ihead = wr->nhead;
			w->itail = wr->ntail;
			wr->nhead = wr->ntail = NULL;
		}
	}
	R->ndirty = 0;
	for (size_t i = 0; i < R->nnbq; i++) {
		uint32_t bidx = R->nbq[i];
		pend_push(R, R->sms[R->blocks[bidx].sm], bidx);
	}
	R->nnbq = 0;
	for (size_t i = 0; i < R->nnwq; i++) {
		const struct newwarp *q = &R->nwq[i];
		struct warp *w = &R->warps[q->w];
		struct block *b = &R->blocks[w->block];
		if (b->resident || b->done) {
			/* its block started without it */
			gc_rec r;
			memset(&r, 0, sizeof r);
			r.block = b->id;
			r.warp = w->id;
			R->recno = q->recno;
			late_free(R, &r);
		}
		warp_link(R, q->w);
		b->last_new = q->n;
	}
	R->nnwq = 0;
}

/* The warp of record r, made (with its block) on first sight. */
static uint32_t warp_of(gc_l1 *R, const gc_rec *r)
{
	uint64_t wkey = ((uint64_t)r->block << 16) | r->warp;
	if (R->last_warp != NONE32 && R->last_key == wkey) {
		/* the common case: the record before was of the same warp */
		if (!R->dfree && R->warps[R->last_warp].state == W_DONE)
			late_record(R, r);
		return R->last_warp;
	}
	uint64_t *v = gc_hmap_get(&R->warpmap, wkey);
	if (v) {
		if (R->dfree) {
			/* (its state is its SM's steps', not the reader's) */
			if (R->nread - R->wrd[*v].rlast > R->p.window)
				late_free(R, r);
		} else if (R->warps[*v].state == W_DONE) {
			late_record(R, r);
		}
		return (uint32_t)*v;
	}
	if (R->dfree)
		return warp_of_free(R, r, wkey);
	int added;
	uint32_t bidx = block_of(R, r, &added);
	if (!added && R->blocks[bidx].done)
		late_record(R, r);
	uint32_t widx = new_warp(R, bidx, r->warp);
	uint64_t *wv = gc_hmap_put(&R->warpmap, wkey, NULL);
	if (!wv)
		l1_fail(R, "out of memory");
	*wv = widx;
	struct block *b = &R->blocks[bidx];
	struct sm *s = get_sm(R, b->sm);
	if (added) {
		if (s->resident < R->active)
			l1_block_start(R, s, bidx);
		else
			pend_push(R, s, bidx);
	} else if (b->resident) {
		/* a warp of a running block seen for the first time */
		if (b->nwarps == R->wpb)
			s->inc_res--; /* the block has all its warps */
		else if (b->nwarps > R->wpb && s->ahead_t &&
			 (s->ahead_t - 1 > R->gnow || (s->ahead_t - 1 == R->gnow && R->cur >= 0 && s->id > R->cur)))
			surplus_warp(R, r, s);
		l1_sm_arrive(R, s);
		R->warps[widx].state = W_QUEUED;
		l1_queue_warp(R, s, widx);
		l1_sm_reschedule(R, s);
	}
	return widx;
}

/* One data record, R->batch[bpos], into its warp's buffer. */
static inline void take(gc_l1 *R, unsigned bpos)
{
	const gc_rec *rec = &R->batch[bpos];
	R->nread++;
	count_inst(R, get_sm(R, rec->sm), rec);
	uint32_t widx = warp_of(R, rec);
	/* Requests of one instruction come together: a record of another
	 * warp or instruction closes the open one. */
	int start = !(R->last_warp == widx && R->last_seq == rec->seq) || R->stage_n == INST_MAX;
	warp_append(R, widx, bpos, start);
	if (R->dfree) {
		R->wrd[widx].rlast = R->nread;
		mark_dirty(R, widx);
	} else {
		R->warps[widx].last_read = R->nread;
	}
	R->last_warp = widx;
	R->last_key = ((uint64_t)rec->block << 16) | rec->warp;
	R->last_seq = rec->seq;
}

/* The next batch of records: 0 at the end of the kernel's input, where
 * the open instruction closes and R->kend is set. */
static unsigned refill(gc_l1 *R)
{
	if (R->stage_n > R->stage_cp)
		stage_spill(R); /* the batch is about to be overwritten */
	R->stage_b0 = 0;
	long n = R->p.read(R->p.read_ctx, R->batch, R->bnum, BATCH, R->err, sizeof R->err);
	if (n < 0)
		l1_fail(R, NULL);
	R->bpos = 0;
	R->bn = (unsigned)n;
	if (!n) {
		inst_close(R);
		R->kend = 1;
	}
	return (unsigned)n;
}

#define PF_AHEAD 8

/* Read one record of the kernel into the buffers; at the end of the
 * kernel's input R->kend is set.  Records come in batches.  *pf: the
 * warp whose map slot was prefetched last. */
static inline void read_one(gc_l1 *R, uint64_t *pf)
{
	if (R->bpos == R->bn && !refill(R))
		return;
	unsigned i = R->bpos++;
	/* the map's slot of a record a few ahead, once a run of its warp:
	 * a warp other than the last one's is looked up there, and the map
	 * is far from the CPU */
	if (i + PF_AHEAD < R->bn) {
		const gc_rec *f = &R->batch[i + PF_AHEAD];
		uint64_t key = ((uint64_t)f->block << 16) | f->warp;
		if (key != *pf) {
			*pf = key;
			gc_hmap_prefetch(&R->warpmap, key);
		}
	}
	R->recno = R->bnum[i];
	take(R, i);
}

void l1_read_n(gc_l1 *R, size_t n)
{
	uint64_t pf = GC_HASH_EMPTY;
	for (size_t i = 0; i < n && !R->kend; i++)
		read_one(R, &pf);
}

void l1_read_one(gc_l1 *R)
{
	uint64_t pf = GC_HASH_EMPTY;
	read_one(R, &pf);
}

unsigned l1_read_inst(gc_l1 *R, uint32_t widx, int *complete)
{
	unsigned k = warp_inst(R, widx, complete);
	uint64_t pf = GC_HASH_EMPTY;
	while (!*complete && !R->kend) {
		if (!k && R->nread - R->warps[widx].last_read >= R->p.window)
			break;
		read_one(R, &pf);
		k = warp_inst(R, widx, complete);
	}
	return k;
}

/* Warp widx has nothing left to issue. */
void l1_warp_done(gc_l1 *R, struct sm *s, uint32_t widx)
{
	struct warp *w = &R->warps[widx];
	w->state = W_DONE;
	struct block *b = &R->blocks[w->block];
	if (++b->ndone < b->nwarps)
		return;
	b->done = 1;
	if (R->par) {
		/* a thread's step: the engine-wide part waits for the main
		 * thread (nothing reads it before the phase ends) */
		if (s->ndblk == s->dblkcap) {
			s->dblkcap = s->dblkcap ? 2 * s->dblkcap : 16;
			s->dblk = l1_alloc(R, s->dblk, s->dblkcap * sizeof *s->dblk);
		}
		s->dblk[s->ndblk++] = w->block;
	} else {
		l1_block_release(R, w->block);
	}
	/* First done, first served: the block's slot on the SM goes to the
	 * SM's next pending block. */
	s->resident--;
	s->inc_res -= b->nwarps < R->wpb;
	if (R->dfree)
		return; /* the SM's step fills the slot (l1_sm_fill) */
	if (s->pend_head != NONE32) {
		uint32_t next = s->pend_head;
		s->pend_head = R->blocks[next].next_pending;
		if (s->pend_head == NONE32)
			s->pend_tail = NONE32;
		l1_block_start(R, s, next);
	}
}

/* Warp x (map key `key`) of a released block: out of the map, its slot
 * free. */
static inline void warp_release(gc_l1 *R, uint32_t x, uint64_t key)
{
	gc_hmap_del(&R->warpmap, key);
	if (R->last_warp == x)
		R->last_warp = NONE32;
	R->warps[x].next = R->wfree;
	R->wfree = x;
}

void l1_block_release(gc_l1 *R, uint32_t bidx)
{
	/* The block's warps and its own slot are free again; its id stays
	 * known, so that a late record of it is an error. */
	struct block *b = &R->blocks[bidx];
	l1_oom(R, gc_hset_add(&R->doneblocks, b->id) < 0 ? -1 : 0);
	gc_hmap_del(&R->blockmap, b->id);
	/* The warps' keys leave the map in the list's order (the map's
	 * layout stays that of one walk), their slots fetched first in a
	 * bunch: each is a miss of its own. */
	uint64_t key[64];
	uint32_t x = b->first;
	if (BLOCK_WL(R, b, 0)) {
		for (unsigned i = 0; i < b->nwarps; i++) {
			key[i] = ((uint64_t)b->id << 16) | b->wid[i];
			gc_hmap_prefetch(&R->warpmap, key[i]);
		}
		for (unsigned i = 0; i < b->nwarps; i++)
			warp_release(R, b->wl[i], key[i]);
		x = NONE32;
	}
	while (x != NONE32) {
		unsigned k = 0;
		for (uint32_t y = x; y != NONE32 && k < 64; y = R->warps[y].next) {
			key[k] = ((uint64_t)b->id << 16) | R->warps[y].id;
			gc_hmap_prefetch(&R->warpmap, key[k++]);
		}
		for (unsigned i = 0; i < k; i++) {
			uint32_t nx = R->warps[x].next;
			warp_release(R, x, key[i]);
			x = nx;
		}
	}
	b->next_pending = R->bfree;
	R->bfree = bidx;
}

/* A kernel's input begins: no warps, blocks or records yet. */
void l1_input_reset(gc_l1 *R)
{
	R->kend = 0;
	R->nread = 0;
	R->last_warp = NONE32;
	R->stage_n = R->stage_cp = 0;
	R->stage_warp = NONE32;
	R->nwarps = R->nblocks = 0;
	R->wfree = R->bfree = NONE32;
	R->ndirty = R->nnwq = R->nnbq = 0;
	gc_hmap_clear(&R->warpmap);
	gc_hmap_clear(&R->blockmap);
	gc_hset_clear(&R->doneblocks);
}

void l1_dry_free(struct dryset *list[2])
{
	for (int c = 0; c < 2; c++)
		while (list[c]) {
			struct dryset *p = list[c];
			void *next; /* a free block holds the next one's address */
			memcpy(&next, p, sizeof next);
			list[c] = next;
			free(p);
		}
}

void l1_input_free(gc_l1 *R)
{
	l1_pool_free(R);
	for (size_t i = 0; i < R->nslabs; i++)
		gc_bigpool_put(R->seenp, R->slabs[i], 1, SLAB);
	free(R->slabs);
	for (size_t i = 0; i < R->nwarps; i++)
		if (R->warps[i].dry) {
			free(R->warps[i].dry);
		}
	free(R->warps);
	free(R->wrd);
	free(R->blocks);
	free(R->dirty);
	free(R->nwq);
	free(R->nbq);
	l1_dry_free(R->dryfree);
	gc_hmap_free(&R->warpmap);
	gc_hmap_free(&R->blockmap);
	gc_hset_free(&R->doneblocks);
}
