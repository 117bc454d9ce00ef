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
	uint32_t bank;
	uint32_t write;
};

struct bank {
	uint64_t open;     /* the open row, or NONE */
	uint64_t col_ok;   /* earliest column command (ACT + tRCD) */
	uint64_t pre_ok;   /* earliest precharge */
	uint64_t act_ok;   /* earliest activate (last ACT + tRC) */
	uint32_t nhit;     /* queued requests to the open row */
};

struct chan {
	struct req *q;     /* queue entries, oldest first */
	unsigned n;
	struct bank *bk;
	uint64_t *bg_col;  /* per bank group: its last column command + 1, or 0 */
	uint64_t now;      /* the command clock: next cycle a command may issue */
	uint64_t last_act, last_col, bus_free, wdata_end; /* + 1; 0: none yet */
	uint64_t prev;     /* the last arrival */
	int any;
	gc_dramq_chan st;
};

struct gc_dramq {
	unsigned channels, banks, groups, cap;
	gc_dramq_timing t;
	struct chan *ch;
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
	q->t = *t;
	q->ch = calloc(channels, sizeof *q->ch);
	q->hist[0] = calloc(EXACT, sizeof *q->hist[0]);
	q->hist[1] = calloc(EXACT, sizeof *q->hist[1]);
	if (!q->ch || !q->hist[0] || !q->hist[1])
		goto oom;
	for (unsigned c = 0; c < channels; c++) {
		struct chan *h = &q->ch[c];
		h->q = calloc(queue, sizeof *h->q);
		h->bk = calloc(banks, sizeof *h->bk);
		h->bg_col = calloc(bank_groups, sizeof *h->bg_col);
		if (!h->q || !h->bk || !h->bg_col)
			goto oom;
		for (unsigned b = 0; b < banks; b++)
			h->bk[b].open = NONE;
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
		free(q->ch[c].q);
		free(q->ch[c].bk);
		free(q->ch[c].bg_col);
	}
	free(q->ch);
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

/* The earliest cycle the column command of r, a row hit, may issue. */
static uint64_t col_ready(const gc_dramq *q, const struct chan *h, const struct req *r)
{
	const gc_dramq_timing *t = &q->t;
	uint64_t col = h->bk[r->bank].col_ok;
	unsigned g = r->bank % q->groups;
	if (h->last_col)
		col = max64(col, h->last_col - 1 + t->tccd);
	if (h->bg_col[g])
		col = max64(col, h->bg_col[g] - 1 + t->tccdl);
	unsigned lat = r->write ? t->twl : t->tcl;
	if (!r->write && h->wdata_end)
		col = max64(col, h->wdata_end - 1 + t->tcdlr);
	if (h->bus_free > col + lat)
		col = h->bus_free - lat; /* the data waits for the bus */
	return col;
}

/* The column command of queue entry i, a row hit ready now. */
static void column(gc_dramq *q, struct chan *h, unsigned i)
{
	const gc_dramq_timing *t = &q->t;
	struct req r = h->q[i];
	struct bank *b = &h->bk[r.bank];
	unsigned g = r.bank % q->groups;
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
	memmove(&h->q[i], &h->q[i + 1], (h->n - i - 1) * sizeof *h->q);
	h->n--;
}

/* Queue entry i opens its row: precharge (a conflict) or not (an empty
 * bank), then activate. */
static void activate(gc_dramq *q, struct chan *h, unsigned i)
{
	const gc_dramq_timing *t = &q->t;
	const struct req *r = &h->q[i];
	struct bank *b = &h->bk[r->bank];
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
	b->open = r->row;
	b->nhit = 0;
	for (unsigned k = 0; k < h->n; k++)
		b->nhit += h->q[k].bank == r->bank && h->q[k].row == r->row;
}

/* One command cycle of a channel with a non-empty queue, at most up to
 * cycle `limit`: 1 when it issued a command or moved to the next cycle
 * one may issue, 0 when none may before `limit` (the clock is then at
 * `limit`). */
static int step(gc_dramq *q, struct chan *h, uint64_t limit)
{
	uint64_t next = NONE;
	unsigned miss = h->n;
	for (unsigned i = 0; i < h->n; i++) {
		const struct req *r = &h->q[i];
		const struct bank *b = &h->bk[r->bank];
		if (r->row == b->open) {
			uint64_t c = b->col_ok > h->now ? b->col_ok : col_ready(q, h, r);
			if (c <= h->now) {
				column(q, h, i);
				h->now++;
				return 1;
			}
			if (c < next)
				next = c;
		} else if (miss == h->n && !b->nhit) {
			miss = i;
		}
	}
	if (miss < h->n) {
		activate(q, h, miss);
		h->now++;
		return 1;
	}
	if (next >= limit) {
		h->now = max64(h->now, limit);
		return 0;
	}
	h->now = next;
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
	/* Everything the controller does before the request arrives. */
	while (h->n && h->now < arrival && step(q, h, arrival))
		;
	if (h->now < arrival)
		h->now = arrival;
	uint64_t enq = arrival;
	if (h->n == q->cap) {
		while (h->n == q->cap && step(q, h, NONE))
			;
		enq = max64(h->now, arrival); /* held back until there was room */
	}
	struct bank *b = &h->bk[bank & (q->banks - 1)];
	h->q[h->n++] = (struct req){arrival, enq, row, bank & (q->banks - 1), (uint32_t)!!write};
	b->nhit += b->open == row;
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
