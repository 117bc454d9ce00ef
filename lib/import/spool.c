/* spool.c - a kernel's access records, delta-coded in chunks that never
 * move (spool.h). */
#include "import/spool.h"

#include "base/bigmem.h"

#include <stdlib.h>
#include <string.h>

/* The tag byte: which fields follow. */
enum {
	T_META = 1,  /* op, space, flags, size (two bytes): five bytes */
	T_BLOCK = 2, /* varint */
	T_WARP = 4,  /* varint */
	T_SEQ = 8,   /* varint */
	T_LANE = 16, /* one byte; else the previous lane + 1 */
	T_ADDR = 32, /* zigzag varint of the step from the previous address,
			which becomes the step; else the previous address plus
			the step */
};

/* The most bytes one record takes: tag, meta, three varints of 32 bits,
 * lane, a varint of 64 bits. */
#define REC_MAX (1 + 5 + 5 + 5 + 5 + 1 + 10)

static void reset(gc_spool *s)
{
	s->cur = 0;
	s->p = s->nchunk ? s->chunk[0] : NULL;
	s->end = s->nchunk ? s->chunk[0] + GC_SPOOL_CHUNK - REC_MAX : NULL;
	s->n = 0;
	s->op = s->space = s->flags = s->size = 0;
	s->next_lane = 0;
	s->block = s->seq = 0;
	s->warp = 0;
	s->addr = s->step = 0;
}

void gc_spool_init(gc_spool *s) { memset(s, 0, sizeof *s); }



/* Close the chunk being written and move to the next, allocating it (with
 * huge-page advice before its first touch) when it is new. */
static void next_chunk(gc_import *im, gc_spool *s)
{
	if (s->p) {
		s->used[s->cur] = (size_t)(s->p - s->chunk[s->cur]);
		s->cur++;
	}
	if (s->cur == s->nchunk) {
		if (s->nchunk == s->cchunk) {
			size_t c = s->cchunk ? 2 * s->cchunk : 16;
			unsigned char **nc = realloc(s->chunk, c * sizeof *nc);
			if (nc)
				s->chunk = nc;
			size_t *nu = nc ? realloc(s->used, c * sizeof *nu) : NULL;
			if (!nu)
				im->fatal(im, "out of memory");
			s->used = nu;
			s->cchunk = c;
		}
		unsigned char *q = gc_big_calloc(1, GC_SPOOL_CHUNK);
		if (!q)
			im->fatal(im, "out of memory");
		s->chunk[s->nchunk++] = q;
	}
	s->p = s->chunk[s->cur];
	s->end = s->p + GC_SPOOL_CHUNK - REC_MAX;
}

void gc_spool_put(gc_import *im, gc_spool *s, const gc_rec *r)
{
	if (s->p >= s->end)
		next_chunk(im, s);
	unsigned char *p = s->p, *tag = p++;
	unsigned t = 0;
	if (r->op != s->op || r->space != s->space || r->flags != s->flags ||
	    r->size != s->size) {
		t |= T_META;
		s->op = p[0] = (uint8_t)r->op;
		s->space = p[1] = (uint8_t)r->space;
		s->flags = p[2] = (uint8_t)r->flags;
		s->size = r->size;
		p[3] = (uint8_t)r->size;
		p[4] = (uint8_t)(r->size >> 8);
		p += 5;
	}
	if (r->block != s->block) {
		t |= T_BLOCK;
		p = gc_put_varint(p, s->block = r->block);
	}
	if (r->warp != s->warp) {
		t |= T_WARP;
		p = gc_put_varint(p, s->warp = r->warp);
	}
	if (r->seq != s->seq) {
		t |= T_SEQ;
		p = gc_put_varint(p, s->seq = r->seq);
	}
	if (r->lane != s->next_lane) {
		t |= T_LANE;
		*p++ = r->lane;
	}
	s->next_lane = (uint8_t)(r->lane + 1);
	uint64_t d = r->addr - s->addr;
	if (d != s->step) {
		t |= T_ADDR;
		p = gc_put_varint(p, gc_zigzag(d));
		s->step = d;
	}
	s->addr = r->addr;
	*tag = (unsigned char)t;
	s->p = p;
	s->n++;
}

void gc_spool_emit(gc_import *im, gc_spool *s, const gc_rec *tmpl, const uint32_t *blocks)
{
	if (s->p)
		s->used[s->cur] = (size_t)(s->p - s->chunk[s->cur]);
	if (!s->n) {
		gc_spool_clear(s);
		return;
	}
	gc_rec r = *tmpl;
	r.op = r.space = r.flags = 0;
	r.size = 0;
	r.block = blocks ? blocks[0] : 0; /* the encoder starts at block 0 */
	r.seq = 0;
	r.warp = 0;
	uint8_t lane = UINT8_MAX; /* the lane before lane 0 */
	uint64_t addr = 0, step = 0;
	for (size_t c = 0; s->p && c <= s->cur; c++) {
		const unsigned char *p = s->chunk[c], *e = p + s->used[c];
		while (p < e) {
			unsigned t = *p++;
			uint64_t v;
			if (t & T_META) {
				r.op = p[0];
				r.space = p[1];
				r.flags = p[2];
				r.size = (uint16_t)(p[3] | p[4] << 8);
				p += 5;
			}
			if (t & T_BLOCK) {
				p = gc_get_varint(p, &v);
				r.block = blocks ? blocks[v] : (uint32_t)v;
			}
			if (t & T_WARP) {
				p = gc_get_varint(p, &v);
				r.warp = (uint16_t)v;
			}
			if (t & T_SEQ) {
				p = gc_get_varint(p, &v);
				r.seq = (uint32_t)v;
			}
			lane = t & T_LANE ? *p++ : (uint8_t)(lane + 1);
			if (t & T_ADDR) {
				p = gc_get_varint(p, &v);
				step = gc_unzigzag(v);
			}
			addr += step;
			r.lane = lane;
			r.addr = addr;
			gc_import_access(im, &r);
		}
	}
	gc_spool_clear(s);
}

void gc_spool_clear(gc_spool *s) { reset(s); }

void gc_spool_free(gc_spool *s)
{
	for (size_t i = 0; i < s->nchunk; i++)
		gc_big_free(s->chunk[i], 1, GC_SPOOL_CHUNK);
	free(s->chunk);
	free(s->used);
	gc_spool_init(s);
}
