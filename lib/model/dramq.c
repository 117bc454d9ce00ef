/*
 * dramq.c - the FR-FCFS controller of dramq.h: per channel a queue in
 * arrival order, per bank its open row and the earliest times of its next
 * commands, per channel the command clock, the data bus and the last
 * activate and column commands.
 *
 * The speed (tools/bench dramq): a command cycle reads no request and
 * no bank.  The banks with a hit queued are an array of candidates in
 * the order of their oldest hits (key, column readiness, group: 24
 * bytes), kept in order by the commands and arrivals that change it (a
 * new hit is the channel's youngest: it goes last); the channel's part
 * of a column command's readiness is worked out once per column command.
 * So a cycle walks the candidates until one may go now.  A channel's
 * requests sit in `queue` slots of its own (not a ring per bank sized
 * for the whole queue), each bank's linked in arrival order, and a bank
 * finds its next hit from where the last one was.
 *
 * Session 6: the channels share nothing but the latency histogram (sums,
 * in any order), so arrivals are held per channel (one entry a record:
 * its transactions alike) and a channel runs PEND records' worth at a
 * time with its ~4 KB of state in L1 instead of all 32 channels' ~125 KB
 * touched in stream order (simulated D1 misses on the bench stream 13.0
 * M -> 5.9 M); reads and writes are counted by kind and the bus time at
 * the end.
 */
#include "model/dramq.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NONE UINT64_MAX
#define NIL UINT32_MAX
#define EXACT 65536u /* latencies below this are counted one by one */
/* A command cycle's parts, inlined into the loops that run them (their
 * calls cost as much as what they do). */
#define HOT static inline __attribute__((always_inline))

struct req {
	uint64_t arrival, enq, row; /* enq: when it entered the queue */
	uint64_t seq;               /* arrival order in the channel */
	uint32_t next;              /* the bank's next request, or NIL */
	uint32_t write;
};

/* A bank with a hit queued, as a command cycle reads it: its oldest
 * hit's seq * 2 + write, its earliest column command (ACT + tRCD), the
 * bank and its group. */
struct cand {
	uint64_t key, col_ok;
	uint32_t bank, group;
};

/* A bank: its requests in arrival order (a list through the channel's
 * slots), its open row and the earliest times of its next commands. */
struct bank {
	uint32_t head, tail; /* oldest and newest request, or NIL */
	uint32_t hit, hprev; /* the oldest hit (NIL: none queued) and the
			      * request before it */
	uint32_t n;          /* requests queued */
	uint64_t open;       /* the open row, or NONE */
	uint64_t col_ok;     /* earliest column command (ACT + tRCD) */
	uint64_t pre_ok;     /* earliest precharge */
	uint64_t act_ok;     /* earliest activate (last ACT + tRC) */
};

/* Arrivals held until their channel has PEND of them, each n (1 to 8)
 * transactions alike (a record's sectors). */
#define PEND 128
struct pend {
	uint64_t row, arrival;
	uint32_t bank;
	uint16_t write, n;
};

struct chan {
	struct bank *bk;
	struct req *slot;  /* `cap` requests */
	uint32_t free;     /* the free slots, linked through next */
	struct cand *cand; /* the banks with a row hit queued, oldest hit first */
	unsigned ncand;
	uint64_t *miss;    /* a bit per bank with requests, none a hit */
	uint64_t *bg_ok;   /* per bank group: its last column command + tCCDL, or 0 */
	uint64_t col_ok[2]; /* the channel's part of a column command's
			     * readiness, for a read and a write */
	unsigned n;        /* requests queued */
	uint64_t seq;
	uint64_t now;      /* the command clock: next cycle a command may issue */
	uint64_t last_act;  /* + 1; 0: none yet */
	uint64_t rd_ok;     /* the end of the last write data + tCDLR (0: no
			     * write yet): no read before */
	uint64_t prev;     /* the last arrival */
	uint64_t wake;     /* no command may issue before this cycle; 0: unknown */
	int any;
	uint64_t done[2], lat[2]; /* column commands and their latencies, by
				   * kind (into st at the end) */
	gc_dramq_chan st;
	struct pend *pend; /* arrivals not yet added, PEND at most */
	unsigned npend;
};

struct gc_dramq {
	unsigned channels, banks, groups, cap, words;
	gc_dramq_timing t;
	/* by the column command's kind (0 read, 1 write): cycles from it to
	 * the end of its data, to the bank's earliest precharge, and to the
	 * next column command of each kind (tCCD after it, and the data bus
	 * free when the next one's data would start) */
	unsigned data[2], pre[2], after[2][2];
	struct chan *ch;
	struct pend *one;    /* a channel's held arrivals, one a transaction
			      * (PEND * 8 and 4 more: run writes four) */
	uint64_t *hist[2];   /* [write][latency < EXACT], then [EXACT + log2
			      * latency] at and above EXACT */
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
	    banks % bank_groups || !queue || queue >= NIL) {
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
	unsigned lat[2] = {t->tcl, t->twl};
	for (int w = 0; w < 2; w++) {
		q->data[w] = lat[w] + t->tburst;
		for (int n = 0; n < 2; n++)
			q->after[w][n] = q->data[w] > lat[n] + t->tccd ? q->data[w] - lat[n] : t->tccd;
	}
	q->pre[0] = t->trtpl;
	q->pre[1] = q->data[1] + t->twr;
	q->ch = calloc(channels, sizeof *q->ch);
	q->one = malloc((PEND * 8 + 4) * sizeof *q->one);
	q->hist[0] = calloc(EXACT + 64, sizeof *q->hist[0]);
	q->hist[1] = calloc(EXACT + 64, sizeof *q->hist[1]);
	if (!q->ch || !q->one || !q->hist[0] || !q->hist[1])
		goto oom;
	for (unsigned c = 0; c < channels; c++) {
		struct chan *h = &q->ch[c];
		h->bk = calloc(banks, sizeof *h->bk);
		h->slot = calloc(queue, sizeof *h->slot);
		h->cand = calloc(banks, sizeof *h->cand);
		h->miss = calloc(q->words, sizeof *h->miss);
		h->bg_ok = calloc(bank_groups, sizeof *h->bg_ok);
		h->pend = malloc(PEND * sizeof *h->pend);
		if (!h->bk || !h->slot || !h->cand || !h->miss || !h->bg_ok || !h->pend)
			goto oom;
		for (unsigned b = 0; b < banks; b++) {
			h->bk[b].open = NONE;
			h->bk[b].head = h->bk[b].tail = h->bk[b].hit = h->bk[b].hprev = NIL;
		}
		for (unsigned i = 0; i < queue; i++)
			h->slot[i].next = i + 1 < queue ? i + 1 : NIL;
		h->free = 0;
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
		free(q->ch[c].slot);
		free(q->ch[c].cand);
		free(q->ch[c].miss);
		free(q->ch[c].bg_ok);
		free(q->ch[c].pend);
	}
	free(q->ch);
	free(q->one);
	free(q->hist[0]);
	free(q->hist[1]);
	free(q);
}

static inline void count_latency(gc_dramq *q, unsigned w, uint64_t lat)
{
	uint64_t b = EXACT + 63 - (unsigned)__builtin_clzll(lat | 1);
	q->hist[w][lat < EXACT ? lat : b]++;
	q->max[w] = max64(q->max[w], lat);
}

/* Bank bi's bit in the channel's miss set (requests, none a hit): on
 * or off. */
static void miss(struct chan *h, unsigned bi, int on)
{
	uint64_t bit = (uint64_t)1 << (bi % 64);
	uint64_t *m = &h->miss[bi / 64];
	*m = on ? *m | bit : *m & ~bit;
}

/* Bank bi's oldest hit: the first request to its open row from slot i
 * on, slot p before it (NIL: i is the head); its key (seq * 2 + write),
 * NONE when there is none. */
HOT uint64_t seek_hit(struct chan *h, unsigned bi, uint32_t p, uint32_t i)
{
	struct bank *b = &h->bk[bi];
	while (i != NIL && h->slot[i].row != b->open) {
		p = i;
		i = h->slot[i].next;
	}
	b->hit = i;
	b->hprev = p;
	return i == NIL ? NONE : h->slot[i].seq * 2 + h->slot[i].write;
}

/* The column command, now, of the oldest hit of candidate i, ready
 * now. */
HOT void column(gc_dramq *q, struct chan *h, unsigned i)
{
	unsigned bi = h->cand[i].bank;
	const gc_dramq_timing *t = &q->t;
	struct bank *b = &h->bk[bi];
	uint32_t k = b->hit, p = b->hprev;
	const struct req *r = &h->slot[k];
	unsigned g = h->cand[i].group;
	unsigned w = r->write;
	uint64_t col = h->now;
	uint64_t end = col + q->data[w];
	uint64_t lat = end - r->arrival;
	h->bg_ok[g] = col + t->tccdl;
	b->pre_ok = max64(b->pre_ok, col + q->pre[w]);
	h->rd_ok = w ? end + t->tcdlr : h->rd_ok;
	h->done[w]++;
	h->lat[w] += lat;
	count_latency(q, w, lat);
	h->st.queued += col - r->enq;
	h->st.last = max64(h->st.last, end);
	/* the channel's part of the next column command's readiness */
	h->col_ok[0] = max64(col + q->after[w][0], h->rd_ok);
	h->col_ok[1] = col + q->after[w][1];
	/* out of the bank's list, into the free slots */
	uint32_t x = r->next;
	*(p == NIL ? &b->head : &h->slot[p].next) = x;
	b->tail = b->tail == k ? p : b->tail;
	h->slot[k].next = h->free;
	h->free = k;
	b->n--;
	h->n--;
	uint64_t key = seek_hit(h, bi, p, x);
	if (key != NONE) {
		/* a younger oldest hit: later in the order */
		struct cand c = h->cand[i];
		c.key = key;
		for (; i + 1 < h->ncand && h->cand[i + 1].key < key; i++)
			h->cand[i] = h->cand[i + 1];
		h->cand[i] = c;
	} else {
		for (h->ncand--; i < h->ncand; i++)
			h->cand[i] = h->cand[i + 1];
		if (b->n)
			miss(h, bi, 1);
	}
}

/* The oldest request of bank bi opens its row: precharge (a conflict) or
 * not (an empty bank), then activate. */
static void activate(gc_dramq *q, struct chan *h, unsigned bi)
{
	const gc_dramq_timing *t = &q->t;
	struct bank *b = &h->bk[bi];
	uint64_t row = h->slot[b->head].row;
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
	uint64_t key = seek_hit(h, bi, NIL, b->head);
	miss(h, bi, 0);
	/* into the order, after the banks with older hits */
	unsigned i = h->ncand++;
	for (; i > 0 && h->cand[i - 1].key > key; i--)
		h->cand[i] = h->cand[i - 1];
	h->cand[i] = (struct cand){key, b->col_ok, bi, bi & (q->groups - 1)};
}

/* One command cycle of a channel with a non-empty queue, at most up to
 * cycle `limit`: 1 when it issued a command, 0 when none may before
 * `limit` (the clock is then at `limit`).  First ready: the oldest row
 * hit whose column command may go now; else the oldest request of a bank
 * with no hit queued opens its row; else the clock moves to the first
 * cycle a hit may go, and the oldest hit ready then goes.  A bank's
 * candidate hit is its oldest. */
HOT int step(gc_dramq *q, struct chan *h, uint64_t limit)
{
	uint64_t next = NONE, mseq = NONE;
	unsigned ni = 0, mb = 0;
	const uint64_t now = h->now;
	/* The banks with hits, oldest hit first: the first ready now goes;
	 * else the first of those ready soonest is the one to wait for. */
	for (unsigned i = 0; i < h->ncand; i++) {
		const struct cand *o = &h->cand[i];
		uint64_t c = max64(max64(o->col_ok, h->col_ok[o->key & 1]), h->bg_ok[o->group]);
		if (c <= now) {
			column(q, h, i);
			h->now++;
			return 1;
		}
		/* no branch: which is the soonest is no pattern */
		ni = c < next ? i : ni;
		next = c < next ? c : next;
	}
	for (unsigned w = 0; w < q->words; w++) {
		for (uint64_t m = h->miss[w]; m; m &= m - 1) {
			unsigned bi = w * 64 + (unsigned)__builtin_ctzll(m);
			uint64_t s = h->slot[h->bk[bi].head].seq;
			if (s < mseq) {
				mseq = s;
				mb = bi;
			}
		}
	}
	if (mseq != NONE) {
		activate(q, h, mb);
	} else if (next >= limit) {
		h->now = max64(now, limit);
		h->wake = next;
		return 0;
	} else {
		/* nothing before `next`; then the oldest hit ready at `next`
		 * (every other is ready later: readiness only moves with a
		 * command) */
		h->now = next;
		column(q, h, ni);
	}
	h->now++;
	return 1;
}

/* One arrival into channel h. */
static void add(gc_dramq *q, struct chan *h, unsigned bank, uint64_t row, unsigned write,
		uint64_t arrival)
{
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
	uint32_t i = h->free;
	uint64_t seq = h->seq++;
	h->free = h->slot[i].next;
	h->slot[i] = (struct req){arrival, enq, row, seq, NIL, write};
	/* What the newcomer changes of the wake-up time: a miss to an empty
	 * bank may go now, a hit when its column command may; a miss behind
	 * a bank's hits changes nothing. */
	int hit = b->open == row;
	if ((!b->n & !hit) | (hit & (b->col_ok < h->wake)))
		h->wake = 0;
	if (!b->n)
		miss(h, bi, b->open != row);
	if (b->open == row && b->hit == NIL) {
		/* the youngest hit of the channel: last in the order */
		b->hit = i;
		b->hprev = b->tail;
		h->cand[h->ncand++] =
			(struct cand){seq * 2 + write, b->col_ok, bi, bi & (q->groups - 1)};
		miss(h, bi, 0);
	}
	if (b->tail == NIL)
		b->head = i;
	else
		h->slot[b->tail].next = i;
	b->tail = i;
	b->n++;
	h->n++;
}

/* The arrivals channel h holds, in order: first one entry a transaction
 * (four copies whatever n: a loop of n copies mispredicts its exit),
 * then each to the controller. */
static void run(gc_dramq *q, struct chan *h)
{
	struct pend *o = q->one;
	unsigned m = 0;
	for (unsigned i = 0; i < h->npend; i++) {
		struct pend e = h->pend[i];
		o[m] = o[m + 1] = o[m + 2] = o[m + 3] = e;
		for (unsigned k = 4; k < e.n; k++)
			o[m + k] = e;
		m += e.n;
	}
	h->npend = 0;
	for (unsigned i = 0; i < m; i++)
		add(q, h, o[i].bank, o[i].row, o[i].write, o[i].arrival);
}

void gc_dramq_add_n(gc_dramq *q, unsigned chan, unsigned bank, uint64_t row, int write,
		    uint64_t arrival, unsigned n)
{
	struct chan *h = &q->ch[chan];
	h->pend[h->npend++] = (struct pend){row, arrival, bank, (uint16_t)!!write, (uint16_t)n};
	if (h->npend == PEND)
		run(q, h);
}

void gc_dramq_add(gc_dramq *q, unsigned chan, unsigned bank, uint64_t row, int write,
		  uint64_t arrival)
{
	gc_dramq_add_n(q, chan, bank, row, write, arrival, 1);
}

void gc_dramq_drain(gc_dramq *q)
{
	for (unsigned c = 0; c < q->channels; c++)
		run(q, &q->ch[c]);
	for (unsigned c = 0; c < q->channels; c++) {
		struct chan *h = &q->ch[c];
		while (h->n && step(q, h, NONE))
			;
		h->st.reads = h->done[0];
		h->st.writes = h->done[1];
		h->st.read_latency = h->lat[0];
		h->st.write_latency = h->lat[1];
		h->st.busy = (h->done[0] + h->done[1]) * q->t.tburst;
	}
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
		seen += q->hist[w][EXACT + b];
		if (seen >= k)
			return (uint64_t)1 << b;
	}
	return q->max[w];
}

uint64_t gc_dramq_max_latency(const gc_dramq *q, int write)
{
	return q->max[!!write];
}
