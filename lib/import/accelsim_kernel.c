/*
 * accelsim_kernel.c - the kernels of an Accel-Sim trace: the '-key = value'
 * header lines, the kernel begin record once the header is complete, the
 * records of memory instructions, and each kernel's counts, taken in the
 * first pass and checked against the second.  Also the per-warp table of
 * a raw trace.
 */
#include "import/accelsim_impl.h"
#include "import/import.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the raw trace's per-warp table ------------------------------------- */

static void wt_clear(parser *p)
{
	if (p->wt)
		memset(p->wt, 0, p->wcap * sizeof *p->wt);
	p->wn = 0;
	p->ivn = 0;
	memset(&p->ivw, 0, sizeof p->ivw);
	p->wlast = NULL;
}

wslot *as_wt_get(parser *p, uint64_t key)
{
	key++;
	if (p->wlast && p->wlast->key == key)
		return p->wlast;
	if (2 * (p->wn + 1) > p->wcap) {
		size_t ncap = p->wcap ? 2 * p->wcap : 1024;
		wslot *nt = calloc(ncap, sizeof *nt);
		if (!nt)
			as_fatal(p, "out of memory (per-warp table of %zu warps)", p->wn);
		for (size_t i = 0; i < p->wcap; i++) {
			if (!p->wt[i].key)
				continue;
			size_t j = (size_t)(p->wt[i].key * UINT64_C(0x9e3779b97f4a7c15) >> 20) & (ncap - 1);
			while (nt[j].key)
				j = (j + 1) & (ncap - 1);
			nt[j] = p->wt[i];
		}
		free(p->wt);
		p->wt = nt;
		p->wcap = ncap;
	}
	size_t j = (size_t)(key * UINT64_C(0x9e3779b97f4a7c15) >> 20) & (p->wcap - 1);
	while (p->wt[j].key && p->wt[j].key != key)
		j = (j + 1) & (p->wcap - 1);
	if (!p->wt[j].key) {
		p->wt[j].key = key;
		p->wn++;
	}
	return p->wlast = &p->wt[j];
}

/* ---- kernels ------------------------------------------------------------ */

static void begin_kernel(parser *p)
{
	kstate *c = &p->c;
	memset(c, 0, sizeof *c);
	gc_kernel_init(&c->k, 0, NULL);
	strcpy(c->verstr, "none");
	c->core = -1;
	c->state = S_HEADER;
	wt_clear(p);
}

/* The header is complete: check it and, in the second pass, write the
 * kernel begin record. */
void as_body_start(parser *p)
{
	kstate *c = &p->c;
	c->state = S_BODY;
	const char *lacks = !c->have_name ? "-kernel name" : !c->have_grid ? "-grid dim"
			  : !c->have_block ? "-block dim" : NULL;
	if (lacks) {
		as_bad(p, "kernel header lacks '%s = ...'", lacks);
		c->skip = 1;
		return;
	}
	uint64_t threads = (uint64_t)c->k.block[0] * c->k.block[1] * c->k.block[2];
	c->wpb = (uint32_t)((threads + LANES - 1) / LANES);
	if (p->pass == 1 && !p->first_seen) {
		p->first_seen = 1;
		snprintf(p->first_ver, sizeof p->first_ver, "%s", c->verstr);
		snprintf(p->first_nvbit, sizeof p->first_nvbit, "%s", c->nvbit);
		if (c->have_binary)
			snprintf(p->first_binary, sizeof p->first_binary, "%llu",
				 (unsigned long long)c->binary);
	}
	if (p->pass == 1) {
		gc_import *im = p->im;
		if (p->sp.on && im->intervals && !p->iv_early) {
			/* The latencies now, for the first pass to track
			 * registers; where the GPU cannot be chosen, two
			 * passes, and iv_setup's error where they report it. */
			if (im->iv_ready || (im->iv_choose &&
					     im->iv_choose(im, c->have_binary, c->binary) == 0))
				p->iv_early = 1;
			else
				as_spool_stop(p);
		}
		if (p->sp.on) {
			memset(p->pcseen, 0, sizeof p->pcseen);
			as_spool_begin(p, p->nk, c);
		}
		return;
	}
	if (p->ki >= p->nk)
		as_fatal(p, "%s: changed while it was read (more kernels the second time)", p->name);
	as_write_begin(p, c, &p->kc[p->ki]);
}

void as_write_begin(parser *p, kstate *c, const kcount *kc)
{
	gc_kernel *k = &c->k;
	gc_import *im = p->im;
	if (im->intervals && !im->iv_ready) {
		im->iv_setup(im, p->name, c->have_binary, c->binary);
		im->iv_ready = 1;
	}
	k->id = c->have_id ? k->id : gc_import_next_id(im);
	gc_kernel_set_attr(k, GC_A_INSTS, kc->insts);
	gc_kernel_set_attr(k, GC_A_MEM_INSTS, kc->mem);
	if (c->have_stream)
		gc_kernel_set_attr(k, GC_A_STREAM, c->stream);
	if (c->have_binary)
		gc_kernel_set_attr(k, GC_A_BINARY, c->binary);
	if (c->have_shbase)
		gc_kernel_set_attr(k, GC_A_SHMEM_BASE, c->shbase);
	if (c->have_lbase)
		gc_kernel_set_attr(k, GC_A_LOCAL_BASE, c->lbase);
	gc_kernel_set_attr(k, GC_A_THREAD_INSTS, kc->tinsts);
	im->thread_insts += kc->tinsts;
	memset(p->pcseen, 0, sizeof p->pcseen); /* gc_import_kbegin empties the table */
	gc_import_kbegin(p->im, k);
}

/* Write (second pass) and count one memory instruction. */
void as_commit(parser *p, const minst *m, uint32_t *seq, uint32_t block, uint32_t warp,
		   uint16_t sm)
{
	kstate *c = &p->c;
	c->mem++;
	c->tinsts += (uint64_t)gc_popcount32(m->mask);
	uint32_t s = (*seq)++;
	if (!m->mask || (p->pass != 2 && !p->sp.on))
		return;
	gc_rec r;
	memset(&r, 0, sizeof r);
	r.op = m->op;
	r.space = m->space;
	r.flags = m->flags;
	r.size = m->size;
	r.sm = sm;
	r.warp = (uint16_t)warp;
	r.kernel = c->k.id;
	r.block = block;
	r.pc = m->pc;
	r.seq = s;
	r.compute = m->cf;
	if (r.space == GC_GENERIC) {
		/* Accel-Sim's rule, from the first active lane's address. */
		uint64_t a = m->base;
		if (!c->shbase || !c->lbase)
			r.space = GC_SHARED;
		else if (a >= c->shbase && a < c->lbase)
			r.space = GC_SHARED;
		else if (a >= c->lbase && a - c->lbase < LOCAL_WINDOW)
			r.space = GC_LOCAL;
		else
			r.space = GC_GLOBAL;
	}
	r.addr = m->base;
	if (p->pass == 1)
		as_spool_access(p, &r, m);
	else
		gc_import_lanes(p->im, &r, m->mask, m->strided ? NULL : m->addr,
				m->strided ? (uint64_t)m->stride : 0);
}

void as_flush_pending(parser *p)
{
	kstate *c = &p->c;
	if (c->pending) {
		c->pending = 0;
		as_commit(p, &c->pend, &c->seq, c->block, c->warp, 0);
	}
}

/* The end of a .traceg warp section: its line count against insts. */
void as_close_warp(parser *p)
{
	kstate *c = &p->c;
	as_flush_pending(p);
	if (c->have_warp && !c->have_insts)
		as_bad(p, "'warp = %u' of thread block (%u,%u,%u) has no 'insts = N' line",
		       c->warp, c->bx, c->by, c->bz);
	else if (c->have_warp && c->nlines != c->decl)
		as_bad(p, "warp %u of thread block (%u,%u,%u) has %llu instruction lines, "
		       "but its 'insts' line says %llu", c->warp, c->bx, c->by, c->bz,
		       (unsigned long long)c->nlines, (unsigned long long)c->decl);
	c->have_warp = c->have_insts = 0;
}

void as_end_kernel(parser *p, int at_eof)
{
	kstate *c = &p->c;
	if (c->state == S_NONE)
		return;
	if (c->state == S_HEADER)
		as_body_start(p);
	if (!c->skip && c->layout == L_TRACEG) {
		as_close_warp(p);
		if (c->in_tb)
			as_bad(p, "%s inside thread block (%u,%u,%u) (no #END_TB)",
			       at_eof ? "the file ends" : "a kernel header begins", c->bx, c->by, c->bz);
	}
	if (p->pass == 1) {
		if (p->nk == 0)
			p->first_layout = c->layout;
		p->kc = gc_import_grow(p->im, p->kc, &p->capk, p->nk + 1, sizeof *p->kc);
		p->kc[p->nk].insts = c->insts;
		p->kc[p->nk].mem = c->mem;
		p->kc[p->nk].tinsts = c->tinsts;
		p->kc[p->nk].skip = c->skip;
		p->nk++;
		if (p->sp.on && !c->skip)
			as_spool_end(p);
	} else {
		if (p->ki >= p->nk)
			as_fatal(p, "%s: changed while it was read (more kernels the second time)",
				 p->name);
		const kcount *k = &p->kc[p->ki];
		if (k->insts != c->insts || k->mem != c->mem || k->tinsts != c->tinsts ||
		    k->skip != c->skip)
			as_fatal(p, "%s: changed while it was read (kernel %u counts differ)",
				 p->name, c->k.id);
		if (!c->skip)
			gc_import_kend(p->im);
	}
	p->ki++;
	c->state = S_NONE;
}

/* ---- the header --------------------------------------------------------- */

static int parse_triple(char *v, uint64_t out[3])
{
	char *s = skipsp(v);
	if (*s++ != '(')
		return 0;
	for (int i = 0; i < 3; i++) {
		s = skipsp(s);
		char *b = s;
		uint64_t x = 0;
		while (*s >= '0' && *s <= '9' && x < UINT64_C(1) << 40)
			x = x * 10 + (uint64_t)(*s++ - '0');
		if (s == b || (*s >= '0' && *s <= '9'))
			return 0;
		s = skipsp(s);
		if (*s++ != (i < 2 ? ',' : ')'))
			return 0;
		out[i] = x;
	}
	return *skipsp(s) == 0;
}

static int whole_u(char *v, uint64_t *x, uint64_t max)
{
	char *s = v;
	return tok_u(&s, x) && *s == 0 && *x <= max;
}

void as_header_line(parser *p, char *s)
{
	kstate *c = &p->c;
	if (c->state != S_HEADER) {
		as_end_kernel(p, 0);
		begin_kernel(p);
	}
	char *eq = strchr(s, '=');
	if (!eq)
		return; /* not "-key = value": ignored like any unknown line */
	char *ke = eq;
	while (ke > s + 1 && IS_SP(ke[-1]))
		ke--;
	size_t kl = (size_t)(ke - (s + 1));
	const char *key = s + 1;
	char *v = skipsp(eq + 1);
	rtrim(v);
#define KEY(name) (kl == sizeof name - 1 && memcmp(key, name, kl) == 0)
	uint64_t x, t[3];
	if (KEY("kernel name")) {
		size_t n = strlen(v);
		if (!n)
			as_bad(p, "empty kernel name");
		else if (n > GC_NAME_MAX)
			as_bad(p, "kernel name longer than %u bytes", GC_NAME_MAX);
		else {
			memcpy(c->k.name, v, n + 1);
			c->have_name = 1;
		}
	} else if (KEY("kernel id")) {
		if (!whole_u(v, &x, UINT32_MAX))
			as_bad(p, "bad '-kernel id' value '%s'", v);
		else
			c->k.id = (uint32_t)x, c->have_id = 1;
	} else if (KEY("grid dim")) {
		if (!parse_triple(v, t))
			as_bad(p, "bad '-grid dim' value '%s' (expected (x,y,z))", v);
		else if (!t[0] || !t[1] || !t[2] || t[0] > UINT32_MAX || t[1] > 65535 ||
			 t[2] > 65535 || t[0] * t[1] * t[2] > UINT64_C(1) << 32)
			as_bad(p, "'-grid dim' %s out of range (x from 1 to 2^32-1, y and z "
			       "from 1 to 65535, at most 2^32 blocks)", v);
		else {
			for (int i = 0; i < 3; i++)
				c->k.grid[i] = (uint32_t)t[i];
			c->have_grid = 1;
		}
	} else if (KEY("block dim")) {
		if (!parse_triple(v, t))
			as_bad(p, "bad '-block dim' value '%s' (expected (x,y,z))", v);
		else if (!t[0] || !t[1] || !t[2] || t[0] > 65535 || t[1] > 65535 ||
			 t[2] > 65535 || t[0] * t[1] * t[2] > MAX_THREADS)
			as_bad(p, "'-block dim' %s out of range (each from 1 to 65535, at most "
			       "%llu threads)", v, (unsigned long long)MAX_THREADS);
		else {
			for (int i = 0; i < 3; i++)
				c->k.block[i] = (uint16_t)t[i];
			c->have_block = 1;
		}
	} else if (KEY("shmem")) {
		if (!whole_u(v, &x, UINT32_MAX))
			as_bad(p, "bad '-shmem' value '%s'", v);
		else
			c->k.shmem = (uint32_t)x;
	} else if (KEY("nregs")) {
		if (!whole_u(v, &x, 65535))
			as_bad(p, "bad '-nregs' value '%s'", v);
		else
			c->k.regs = (uint16_t)x;
	} else if (KEY("binary version")) {
		if (!whole_u(v, &x, UINT32_MAX))
			as_bad(p, "bad '-binary version' value '%s'", v);
		else
			c->binary = x, c->have_binary = 1;
	} else if (KEY("cuda stream id")) {
		if (!whole_u(v, &x, UINT64_MAX))
			as_bad(p, "bad '-cuda stream id' value '%s'", v);
		else
			c->stream = x, c->have_stream = 1;
	} else if (KEY("shmem base_addr") || KEY("local mem base_addr")) {
		char *e = v;
		int sh = key[0] == 's';
		if (!tok_x(&e, &x) || *e)
			as_bad(p, "bad '-%s' value '%s'", sh ? "shmem base_addr" : "local mem base_addr", v);
		else if (sh)
			c->shbase = x, c->have_shbase = 1;
		else
			c->lbase = x, c->have_lbase = 1;
	} else if (KEY("nvbit version")) {
		snprintf(c->nvbit, sizeof c->nvbit, "%s", v);
	} else if (KEY("accelsim tracer version")) {
		/* "1.2" reads as 1 (< 3) as in Accel-Sim; later versions than 5
		 * are read with the version 5 grammar. */
		char *e = v;
		uint64_t major = 0;
		while (*e >= '0' && *e <= '9' && major < 1000)
			major = major * 10 + (uint64_t)(*e++ - '0');
		if (e == v || (*e && *e != '.') || strlen(v) >= sizeof c->verstr)
			as_bad(p, "bad '-accelsim tracer version' value '%s'", v);
		else {
			c->ver = (int)major;
			snprintf(c->verstr, sizeof c->verstr, "%s", v);
		}
	} else if (KEY("enable lineinfo")) {
		if (!whole_u(v, &x, 1))
			as_bad(p, "bad '-enable lineinfo' value '%s' (0 or 1)", v);
		else
			c->lineinfo = (int)x;
	}
#undef KEY
}
