/*
 * dramq.c - the FR-FCFS controller of dramq.h: per channel a queue in
 * arrival order, per bank its open row and the earliest times of its next
 * commands, per channel the command clock, the data bus and the last
 * activate and column commands.
 */
#include "model/dramq.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NONE UINT64_MAX
#define EXACT 65536u /* latencies below this are counted one by one */

struct req {
	uint64_t arrival, enq, row; /* enq: when it entered the queue */
	uint64_t seq;               /* arrival order in the channel */
	uint32_t write;
};

/* A bank: its requests in arrival order (a ring of `cap`), its open row
 * and the earliest times of its next commands. */
struct bank {
	struct req *q;
	unsigned head, n;
	uint32_t nhit;     /* queued requests to the open row */
	uint64_t open;     /* the open row, or NONE */
	uint64_t col_ok;   /* earliest column command (ACT + tRCD) */
	uint64_t pre_ok;   /* earliest precharge */
	uint64_t act_ok;   /* earliest activate (last ACT + tRC) */
};

struct chan {
	struct bank *bk;
	uint64_t *busy;    /* a bit per bank with requests */
	uint64_t *bg_col;  /* per bank group: its last column command + 1, or 0 */
	unsigned n;        /* requests queued */
	uint64_t seq;
	uint64_t now;      /* the command clock: next cycle a command may issue */
	uint64_t last_act, last_col, bus_free, wdata_end; /* + 1; 0: none yet */
	uint64_t prev;     /* the last arrival */
	uint64_t wake;     /* no command may issue before this cycle; 0: unknown */
	int any;
	gc_dramq_chan st;
};

struct gc_dramq {
	unsigned channels, banks, groups, cap, words;
	gc_dramq_timing t;
	struct chan *ch;
	struct req *pool;
	uint64_t *hist[2];   /* [write][latency < EXACT] */
	uint64_t big[2][64]; /* [write][log2 latency] at and above EXACT */
	uint64_t max[2];
};

static uint64_t max64(uint64_t a, uint64_t b)
{
	return a > b ? a : b;
}


gc_dramq *gc_dramq_new(unsigned channels, unsigned banks, unsigned bank_groups,
		       unsigned queue, const gc_dramq_timing *t, char *err, size_t len)
{
	if (!channels || !banks || (banks & (banks - 1)) || !bank_groups ||
	    banks % bank_groups || !queue) {
		snprintf(err, len, "%u channels, %u banks, %u bank groups, queue %u: not a "
			 "controller (banks a power of two, groups dividing them, none 0)",
			 channels, banks, bank_groups, queue);
		return NULL;
	}
	gc_dramq *q = calloc(1, sizeof *q);
	if (!q)
		goto oom;
	q->channels = channels;
	q->banks = banks;
	q->groups = bank_groups;
	q->cap = queue;
	q->words = (banks + 63) / 64;
	q->t = *t;
	q->ch = calloc(channels, sizeof *q->ch);
	q->pool = calloc((size_t)channels * banks * queue, sizeof *q->pool);
	q->hist[0] = calloc(EXACT, sizeof *q->hist[0]);
	q->hist[1] = calloc(EXACT, sizeof *q->hist[1]);
	if (!q->ch || !q->pool || !q->hist[0] || !q->hist[1])
		goto oom;
	for (unsigned c = 0; c < channels; c++) {
		struct chan *h = &q->ch[c];
		h->bk = calloc(banks, sizeof *h->bk);
		h->busy = calloc(q->words, sizeof *h->busy);
		h->bg_col = calloc(bank_groups, sizeof *h->bg_col);
		if (!h->bk || !h->busy || !h->bg_col)
			goto oom;
		for (unsigned b = 0; b < banks; b++) {
			h->bk[b].open = NONE;
			h->bk[b].q = q->pool + ((size_t)c * banks + b) * queue;
		}
	}
	return q;
oom:
	gc_dramq_free(q);
	snprintf(err, len, "out of memory");
	return NULL;
}

void gc_dramq_free(gc_dramq *q)
{
	if (!q)
		return;
	for (unsigned c = 0; q->ch && c < q->channels; c++) {
		free(q->ch[c].bk);
		free(q->ch[c].busy);
		free(q->ch[c].bg_col);
	}
	free(q->ch);
	free(q->pool);
	free(q->hist[0]);
	free(q->hist[1]);
	free(q);
}

static void count_latency(gc_dramq *q, int w, uint64_t lat)
{
	if (lat < EXACT) {
		q->hist[w][lat]++;
	} else {
		int b = 63 - __builtin_clzll(lat);
		q->big[w][b]++;
	}
	if (lat > q->max[w])
		q->max[w] = lat;
}

static struct req *at(const gc_dramq *q, const struct bank *b, unsigned k)
{
	unsigned i = b->head + k;
	return &b->q[i >= q->cap ? i - q->cap : i];
}

/* The column command, now, of request k of bank bi, a row hit ready now. */
static void column(gc_dramq *q, struct chan *h, unsigned bi, unsigned k)
{
	const gc_dramq_timing *t = &q->t;
	struct bank *b = &h->bk[bi];
	struct req r = *at(q, b, k);
	unsigned g = bi % q->groups;
	uint64_t col = h->now;
	unsigned lat = r.write ? t->twl : t->tcl;
	uint64_t end = col + lat + t->tburst;
	h->bus_free = end;
	h->last_col = col + 1;
	h->bg_col[g] = col + 1;
	if (r.write) {
		b->pre_ok = max64(b->pre_ok, end + t->twr);
		h->wdata_end = end + 1;
		h->st.writes++;
		h->st.write_latency += end - r.arrival;
	} else {
		b->pre_ok = max64(b->pre_ok, col + t->trtpl);
		h->st.reads++;
		h->st.read_latency += end - r.arrival;
	}
	count_latency(q, (int)r.write, end - r.arrival);
	h->st.queued += col - r.enq;
	h->st.busy += t->tburst;
	h->st.last = max64(h->st.last, end);
	b->nhit--;
	/* out of the ring: the older ones move up a place */
	for (unsigned j = k; j > 0; j--)
		*at(q, b, j) = *at(q, b, j - 1);
	b->head = b->head + 1 == q->cap ? 0 : b->head + 1;
	if (!--b->n)
		h->busy[bi / 64] &= ~((uint64_t)1 << (bi % 64));
	h->n--;
}

/* The oldest request of bank bi opens its row: precharge (a conflict) or
 * not (an empty bank), then activate. */
static void activate(gc_dramq *q, struct chan *h, unsigned bi)
{
	const gc_dramq_timing *t = &q->t;
	struct bank *b = &h->bk[bi];
	uint64_t row = at(q, b, 0)->row;
	uint64_t act = h->now;
	if (b->open != NONE) {
		act = max64(act, b->pre_ok) + t->trp;
		h->st.conflicts++;
	} else {
		h->st.empty++;
	}
	act = max64(act, b->act_ok);
	if (h->last_act)
		act = max64(act, h->last_act - 1 + t->trrd);
	h->last_act = act + 1;
	b->act_ok = act + t->trc;
	b->pre_ok = act + t->tras;
	b->col_ok = act + t->trcd;
	b->open = row;
	b->nhit = 0;
	for (unsigned k = 0; k < b->n; k++)
		b->nhit += at(q, b, k)->row == row;
}

/* One command cycle of a channel with a non-empty queue, at most up to
 * cycle `limit`: 1 when it issued a command, 0 when none may before
 * `limit` (the clock is then at `limit`).  First ready: the oldest row
 * hit whose column command may go now; else the oldest request of a bank
 * with no hit queued opens its row; else the clock moves to the first
 * cycle a hit may go, and the oldest hit ready then goes. */
static int step(gc_dramq *q, struct chan *h, uint64_t limit)
{
	uint64_t next = NONE, hseq = NONE, nseq = NONE, mseq = NONE;
	unsigned hb = 0, hk = 0, nb = 0, nk = 0, mb = 0;
	/* the channel's part of col_ready, for a read and a write */
	const gc_dramq_timing *t = &q->t;
	uint64_t cmin[2];
	for (int w = 0; w < 2; w++) {
		uint64_t c = h->last_col ? h->last_col - 1 + t->tccd : 0;
		unsigned lat = w ? t->twl : t->tcl;
		if (!w && h->wdata_end)
			c = max64(c, h->wdata_end - 1 + t->tcdlr);
		if (h->bus_free > c + lat)
			c = h->bus_free - lat;
		cmin[w] = c;
	}
	for (unsigned w = 0; w < q->words; w++) {
		for (uint64_t m = h->busy[w]; m; m &= m - 1) {
			unsigned bi = w * 64 + (unsigned)__builtin_ctzll(m);
			const struct bank *b = &h->bk[bi];
			if (!b->nhit) {
				const struct req *r = at(q, b, 0);
				if (r->seq < mseq) {
					mseq = r->seq;
					mb = bi;
				}
				continue;
			}
			unsigned k = 0;
			const struct req *r = at(q, b, 0);
			while (r->row != b->open)
				r = at(q, b, ++k);
			uint64_t c = max64(b->col_ok, cmin[r->write]);
			uint64_t g = h->bg_col[bi % q->groups];
			if (g)
				c = max64(c, g - 1 + t->tccdl);
			if (c < h->now)
				c = h->now;
			if (c == h->now) {
				if (r->seq < hseq) {
					hseq = r->seq;
					hb = bi;
					hk = k;
				}
			} else if (c < next || (c == next && r->seq < nseq)) {
				next = c;
				nseq = r->seq;
				nb = bi;
				nk = k;
			}
		}
	}
	if (hseq != NONE) {
		column(q, h, hb, hk);
	} else if (mseq != NONE) {
		activate(q, h, mb);
	} else if (next >= limit) {
		h->now = max64(h->now, limit);
		h->wake = next;
		return 0;
	} else {
		/* nothing before `next`; then the oldest hit ready at `next`
		 * (every other is ready later: readiness only moves with a
		 * command) */
		h->now = next;
		column(q, h, nb, nk);
	}
	h->now++;
	return 1;
}

void gc_dramq_add(gc_dramq *q, unsigned chan, unsigned bank, uint64_t row, int write,
		  uint64_t arrival)
{
	struct chan *h = &q->ch[chan];
	if (!h->any) {
		h->any = 1;
		h->st.first = arrival;
		h->now = arrival;
	}
	if (arrival < h->prev)
		arrival = h->prev;
	h->prev = arrival;
	/* Everything the controller does before the request arrives (none
	 * when it is known to wait until then). */
	if (h->wake != 0 && h->wake >= arrival)
		h->now = max64(h->now, arrival);
	while (h->n && h->now < arrival && step(q, h, arrival))
		h->wake = 0;
	if (h->now < arrival)
		h->now = arrival;
	uint64_t enq = arrival;
	if (h->n == q->cap) {
		while (h->n == q->cap && step(q, h, NONE))
			h->wake = 0;
		enq = max64(h->now, arrival); /* held back until there was room */
	}
	unsigned bi = bank & (q->banks - 1);
	struct bank *b = &h->bk[bi];
	unsigned i = b->head + b->n;
	b->q[i >= q->cap ? i - q->cap : i] =
		(struct req){arrival, enq, row, h->seq++, (uint32_t)!!write};
	/* What the newcomer changes of the wake-up time: a miss to an empty
	 * bank may go now, a hit when its column command may; a miss behind
	 * a bank's hits changes nothing. */
	if ((!b->n && b->open != row) || (b->open == row && b->col_ok < h->wake))
		h->wake = 0;
	if (!b->n++)
		h->busy[bi / 64] |= (uint64_t)1 << (bi % 64);
	b->nhit += b->open == row;
	h->n++;
}

void gc_dramq_drain(gc_dramq *q)
{
	for (unsigned c = 0; c < q->channels; c++)
		while (q->ch[c].n && step(q, &q->ch[c], NONE))
			;
}

const gc_dramq_chan *gc_dramq_channel(const gc_dramq *q, unsigned chan)
{
	return &q->ch[chan].st;
}

uint64_t gc_dramq_percentile(const gc_dramq *q, int write, double p)
{
	int w = !!write;
	uint64_t n = 0, seen = 0;
	for (unsigned c = 0; c < q->channels; c++)
		n += w ? q->ch[c].st.writes : q->ch[c].st.reads;
	if (!n)
		return 0;
	/* the rank of the percentile: ceil(p * n), at least 1 */
	uint64_t k = (uint64_t)(p * (double)n);
	if ((double)k < p * (double)n)
		k++;
	if (k < 1)
		k = 1;
	for (uint64_t l = 0; l < EXACT; l++) {
		seen += q->hist[w][l];
		if (seen >= k)
			return l;
	}
	for (int b = 0; b < 64; b++) {
		seen += q->big[w][b];
		if (seen >= k)
			return (uint64_t)1 << b;
	}
	return q->max[w];
}

uint64_t gc_dramq_max_latency(const gc_dramq *q, int write)
{
	return q->max[!!write];
}
