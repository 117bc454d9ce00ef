/*
 * accelsim_spool.c - a kernel trace file in one pass: what the second
 * pass would write, kept from the first (accelsim.c says when).
 *
 * The first pass already decides everything the second writes: which
 * kernels begin, the opcode of each PC, every memory warp instruction's
 * record and lanes.  Here those decisions are kept as events, in the order
 * the second pass would meet them, in chunks that never move, and written
 * after the file's last line, when every kernel's counts are known.  A
 * warp instruction costs a tag, its fields as variable-length integers and
 * its lanes' addresses as steps from the lane before (about 15 bytes and
 * 2-3 bytes a listed lane on the bench trace, against 50-60 bytes of text
 * a line).  Past the budget (im->accelsim_spool: GC_ACCELSIM_SPOOL, gc-import(1)) the
 * spool is dropped and the file is read a second time, so memory stays
 * bounded whatever a kernel's size.
 */
#include "base/bigmem.h"
#include "import/accelsim_impl.h"
#include "import/spool.h"

#include <stdlib.h>
#include <string.h>

/* Event tags.  An access's tag also says whether it is strided and
 * whether its mask is full (no mask bytes follow). */
enum { EV_NEXT, EV_BEGIN, EV_OPCODE, EV_ACCESS, EV_END };
#define EV_STRIDED 0x10
#define EV_FULL 0x20

#define CHUNK_MAX ((size_t)2 << 20)
/* The most one access takes: tag, pc, mask, seq, block, warp, sm, op,
 * space, flags, size, base, then 32 steps or a stride. */
#define ACCESS_MAX (1 + 5 + 4 + 5 + 5 + 5 + 5 + 3 + 3 + 10 + 10 + 32 * 10)

void as_spool_start(as_spool *s, const gc_import *im)
{
	size_t b = im->accelsim_spool > SIZE_MAX / 2 ? SIZE_MAX / 2 : (size_t)im->accelsim_spool;
	memset(s, 0, sizeof *s);
	s->on = b > 0;
	if (!s->on)
		return;
	/* Chunks of 2 MiB, or one of the whole budget when it is smaller. */
	s->csize = b < CHUNK_MAX ? (b + 4095) / 4096 * 4096 : CHUNK_MAX;
	if (s->csize < 4096)
		s->csize = 4096;
	s->limit = (b + s->csize - 1) / s->csize;
}

void as_spool_free(as_spool *s)
{
	for (size_t i = 0; i < s->nchunk; i++)
		gc_big_free(s->chunk[i], 1, s->csize);
	free(s->chunk);
	s->chunk = NULL;
	s->nchunk = s->cchunk = 0;
	s->p = s->end = NULL;
}

/* Room for need bytes, in a new chunk if this one lacks it (its end
 * marked); NULL, with the spool dropped, past the budget. */
void as_spool_stop(parser *p)
{
	as_spool_free(&p->sp);
	p->sp.on = 0;
}

static unsigned char *room(parser *p, size_t need)
{
	as_spool *s = &p->sp;
	if (s->p && (size_t)(s->end - s->p) >= need)
		return s->p;
	if (s->nchunk == s->limit || need + 1 > s->csize) {
		as_spool_stop(p);
		return NULL;
	}
	if (s->p)
		*s->p = EV_NEXT;
	if (s->nchunk == s->cchunk) {
		size_t c = s->cchunk ? 2 * s->cchunk : 16;
		unsigned char **nc = realloc(s->chunk, c * sizeof *nc);
		if (!nc)
			as_fatal(p, "out of memory");
		s->chunk = nc;
		s->cchunk = c;
	}
	unsigned char *q = gc_big_calloc(1, s->csize);
	if (!q)
		as_fatal(p, "out of memory");
	s->chunk[s->nchunk++] = q;
	s->p = q;
	s->end = q + s->csize - 1; /* a byte kept for the end mark */
	return q;
}

void as_spool_begin(parser *p, size_t ki, const kstate *c)
{
	unsigned char *q = room(p, 1 + 10 + sizeof *c);
	if (!q)
		return;
	*q++ = EV_BEGIN;
	q = gc_put_varint(q, ki);
	memcpy(q, c, sizeof *c);
	p->sp.p = q + sizeof *c;
}

void as_spool_opcode(parser *p, uint32_t pc, const char *name, size_t len)
{
	unsigned char *q = room(p, 1 + 5 + 10 + len);
	if (!q)
		return;
	*q++ = EV_OPCODE;
	q = gc_put_varint(q, pc);
	q = gc_put_varint(q, len);
	memcpy(q, name, len);
	p->sp.p = q + len;
}

void as_spool_access(parser *p, const gc_rec *r, const minst *m)
{
	unsigned char *q = room(p, ACCESS_MAX);
	if (!q)
		return;
	as_spool *s = &p->sp;
	*q++ = (unsigned char)(EV_ACCESS | (m->strided ? EV_STRIDED : 0) |
			       (m->mask == UINT32_MAX ? EV_FULL : 0));
	q = gc_put_varint(q, r->pc);
	if (m->mask != UINT32_MAX) {
		memcpy(q, &m->mask, 4);
		q += 4;
	}
	q = gc_put_varint(q, r->seq);
	q = gc_put_varint(q, r->block);
	q = gc_put_varint(q, r->warp);
	q = gc_put_varint(q, r->sm);
	*q++ = r->op;
	*q++ = r->space;
	*q++ = r->flags;
	q = gc_put_varint(q, r->size);
	if (p->iv_early)
		q = gc_put_varint(q, r->compute);
	q = gc_put_varint(q, gc_zigzag(r->addr - s->base));
	s->base = r->addr;
	if (m->strided) {
		q = gc_put_varint(q, gc_zigzag((uint64_t)m->stride));
	} else {
		uint64_t a = r->addr;
		for (uint32_t mk = m->mask; mk; mk &= mk - 1) {
			uint64_t x = m->addr[__builtin_ctz(mk)];
			q = gc_put_varint(q, gc_zigzag(x - a));
			a = x;
		}
	}
	s->p = q;
}

void as_spool_end(parser *p)
{
	unsigned char *q = room(p, 1);
	if (!q)
		return;
	*q++ = EV_END;
	p->sp.p = q;
}

/* Write every event kept, as the second pass would have. */
void as_spool_replay(parser *p)
{
	as_spool *s = &p->sp;
	if (!s->p)
		return;
	*s->p = EV_NEXT;
	gc_rec r;
	memset(&r, 0, sizeof r);
	uint64_t addr[LANES], base = 0, v;
	kstate k;
	for (size_t c = 0; c < s->nchunk; c++) {
		const unsigned char *q = s->chunk[c];
		for (;;) {
			unsigned t = *q++;
			switch (t & 0x0f) {
			case EV_BEGIN:
				q = gc_get_varint(q, &v);
				memcpy(&k, q, sizeof k);
				q += sizeof k;
				as_write_begin(p, &k, &p->kc[v]);
				r.kernel = k.k.id;
				continue;
			case EV_OPCODE: {
				uint64_t pc;
				q = gc_get_varint(q, &pc);
				q = gc_get_varint(q, &v);
				gc_import_opcode(p->im, (uint32_t)pc, (const char *)q, (size_t)v);
				q += v;
				continue;
			}
			case EV_END:
				gc_import_kend(p->im);
				continue;
			case EV_ACCESS:
				break;
			default: /* EV_NEXT */
				goto next_chunk;
			}
			uint32_t mask = UINT32_MAX;
			q = gc_get_varint(q, &v);
			r.pc = (uint32_t)v;
			if (!(t & EV_FULL)) {
				memcpy(&mask, q, 4);
				q += 4;
			}
			q = gc_get_varint(q, &v);
			r.seq = (uint32_t)v;
			q = gc_get_varint(q, &v);
			r.block = (uint32_t)v;
			q = gc_get_varint(q, &v);
			r.warp = (uint16_t)v;
			q = gc_get_varint(q, &v);
			r.sm = (uint16_t)v;
			r.op = q[0];
			r.space = q[1];
			r.flags = q[2];
			q += 3;
			q = gc_get_varint(q, &v);
			r.size = (uint16_t)v;
			if (p->iv_early)
				q = gc_get_varint(q, &r.compute);
			q = gc_get_varint(q, &v);
			base += gc_unzigzag(v);
			r.addr = base;
			if (t & EV_STRIDED) {
				q = gc_get_varint(q, &v);
				gc_import_lanes(p->im, &r, mask, NULL, gc_unzigzag(v));
			} else {
				uint64_t a = base;
				for (uint32_t mk = mask; mk; mk &= mk - 1) {
					q = gc_get_varint(q, &v);
					a += gc_unzigzag(v);
					addr[__builtin_ctz(mk)] = a;
				}
				gc_import_lanes(p->im, &r, mask, addr, 0);
			}
		}
next_chunk:;
	}
}
