/* gc-mkbad/enc.c - the field-by-field encoder, gzip and xz by hand, and
 * the base stream of the corpus. */
#include "gc-mkbad/mkbad.h"

#include <lzma.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
/* ===================================================================== */
/* A growing byte buffer and the field-by-field encoder                   */
/* ===================================================================== */


/* n zeroed bytes appended to b. */
unsigned char *grow(buf *b, size_t n)
{
	if (b->len + n > b->cap) {
		size_t cap = b->cap ? b->cap : 4096;
		while (cap < b->len + n)
			cap *= 2;
		unsigned char *p = realloc(b->p, cap);
		if (!p)
			gc_die(GC_EXIT_DATA, "out of memory");
		b->p = p;
		b->cap = cap;
	}
	unsigned char *q = b->p + b->len;
	memset(q, 0, n);
	b->len += n;
	return q;
}

void append(buf *b, const void *p, size_t n)
{
	if (n)
		memcpy(grow(b, n), p, n);
}



void put_header(enc *e, const hdr *h)
{
	size_t tl = h->text ? (h->tlen ? h->tlen : strlen(h->text)) : 0;
	size_t hs = (GC_HEADER_FIXED + tl + 7) & ~(size_t)7;
	unsigned char *p = grow(&e->b, hs);
	static const unsigned char magic[8] = {0x89, 'G', 'C', 'S', '\r', '\n', 0x1a, '\n'};
	memcpy(p, magic, 8);
	gc_put16(p + 8, h->major ? h->major : GC_STREAM_MAJOR);
	gc_put16(p + 10, h->minor);
	gc_put32(p + 12, h->hsize ? h->hsize : (uint32_t)hs);
	gc_put16(p + 16, h->kind ? h->kind : GC_KIND_ACCESS);
	gc_put16(p + 18, h->rsize ? h->rsize : GC_RECORD_BASE);
	gc_put32(p + 20, h->required);
	gc_put32(p + 24, h->optional);
	gc_put32(p + 28, h->tlen_field ? h->tlen_field : (uint32_t)tl);
	if (tl)
		memcpy(p + GC_HEADER_FIXED, h->text, tl);
	e->rs = h->rsize ? h->rsize : GC_RECORD_BASE;
	e->kind = h->kind ? h->kind : GC_KIND_ACCESS;
}

/* One record slot, counted. */
unsigned char *rec_slot(enc *e)
{
	e->nrec++;
	return grow(&e->b, e->rs);
}

void put_time(enc *e, uint64_t t)
{
	unsigned char *p = rec_slot(e);
	p[0] = GC_T_TIME;
	gc_put64(p + 8, t);
}

/* A data record: only the low half of the time is encoded. */
void put_data(enc *e, const gc_rec *r)
{
	unsigned char *p = rec_slot(e);
	p[0] = r->op;
	p[1] = (unsigned char)(r->space | r->flags << 4);
	if (e->kind == GC_KIND_ACCESS) {
		p[2] = r->lane;
		p[3] = (unsigned char)r->size;
		gc_put64(p + 24, r->addr);
	} else {
		p[2] = r->outcome;
		p[3] = r->mask;
		gc_put64(p + 24, r->addr | (uint64_t)r->size << 48);
	}
	gc_put16(p + 4, r->sm);
	gc_put16(p + 6, r->warp);
	gc_put32(p + 8, r->block);
	gc_put32(p + 12, r->pc);
	gc_put32(p + 16, r->seq);
	gc_put32(p + 20, (uint32_t)r->time);
	e->ndata++;
	e->kdata++;
}

/* A data record preceded by a time-base record when the high half of its
 * time differs from the current base (the writer's rule). */
void put_data_timed(enc *e, const gc_rec *r)
{
	uint64_t hi = r->time & ~UINT64_C(0xffffffff);
	if (hi != e->time_hi) {
		put_time(e, r->time);
		e->time_hi = hi;
	}
	put_data(e, r);
}

/* The kernel begin record alone, with the name length and attribute count
 * given (so they can disagree with what follows). */
void put_kbegin_raw(enc *e, const gc_kernel *k, unsigned namelen, unsigned nattr)
{
	unsigned char *p = rec_slot(e);
	p[0] = GC_T_KBEGIN;
	gc_put16(p + 2, (uint16_t)namelen);
	gc_put32(p + 4, k->id);
	gc_put32(p + 8, k->grid[0]);
	gc_put16(p + 12, (uint16_t)k->grid[1]);
	gc_put16(p + 14, (uint16_t)k->grid[2]);
	gc_put16(p + 16, k->block[0]);
	gc_put16(p + 18, k->block[1]);
	gc_put16(p + 20, k->block[2]);
	gc_put16(p + 22, k->regs);
	gc_put32(p + 24, k->shmem);
	gc_put16(p + 28, (uint16_t)nattr);
	e->kdata = 0;
}

void put_kattr(enc *e, uint16_t key, uint64_t val)
{
	unsigned char *p = rec_slot(e);
	p[0] = GC_T_KATTR;
	gc_put16(p + 2, key);
	gc_put64(p + 8, val);
}

/* A name record claiming `len` bytes and carrying `n` of them. */
void put_kname(enc *e, unsigned len, const char *s, size_t n)
{
	unsigned char *p = rec_slot(e);
	p[0] = GC_T_KNAME;
	p[1] = (unsigned char)len;
	memcpy(p + 2, s, n);
}

/* A whole kernel begin: the record, its attributes, its name in chunks. */
void put_kbegin(enc *e, const gc_kernel *k)
{
	size_t nl = strlen(k->name);
	put_kbegin_raw(e, k, (unsigned)nl, (unsigned)k->nattr);
	for (int i = 0; i < k->nattr; i++)
		put_kattr(e, k->attr_key[i], k->attr_val[i]);
	for (size_t got = 0; got < nl; got += GC_NAME_CHUNK) {
		size_t n = nl - got < GC_NAME_CHUNK ? nl - got : GC_NAME_CHUNK;
		put_kname(e, (unsigned)n, k->name + got, n);
	}
}

void put_kend_n(enc *e, uint32_t id, uint64_t count)
{
	unsigned char *p = rec_slot(e);
	p[0] = GC_T_KEND;
	gc_put32(p + 4, id);
	gc_put64(p + 8, count);
}

void put_kend(enc *e, uint32_t id)
{
	put_kend_n(e, id, e->kdata);
}

/* The end-of-stream record counts the records before it. */
void put_end_n(enc *e, uint64_t nrec, uint64_t ndata)
{
	unsigned char *p = rec_slot(e);
	p[0] = GC_T_END;
	gc_put64(p + 8, nrec);
	gc_put64(p + 16, ndata);
}

void put_end(enc *e)
{
	put_end_n(e, e->nrec, e->ndata);
}

/* Record n (1-based) of a stream whose header is hs bytes. */
unsigned char *rec_at(enc *e, size_t hs, unsigned n)
{
	size_t off = hs + (size_t)(n - 1) * e->rs;
	if (off + e->rs > e->b.len)
		gc_die(GC_EXIT_DATA, "internal error: record %u is past the end", n);
	return e->b.p + off;
}

/* ---- gzip, hand-encoded with stored blocks (RFC 1952, RFC 1951 §3.2.4),
 * so every byte offset below holds whatever compressor zlib is. -------- */


static void gzip_stored(buf *out, const unsigned char *p, size_t n)
{
	static const unsigned char head[GZ_HEAD] = {0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff};
	append(out, head, sizeof head);
	size_t done = 0;
	do {
		size_t k = n - done < 65535 ? n - done : 65535;
		unsigned char *b = grow(out, 5);
		b[0] = done + k == n; /* BFINAL, BTYPE 00 (stored) */
		gc_put16(b + 1, (uint16_t)k);
		gc_put16(b + 3, (uint16_t)~k);
		append(out, p + done, k);
		done += k;
	} while (done < n);
	unsigned char *t = grow(out, 8);
	gc_put32(t, (uint32_t)crc32(crc32(0L, Z_NULL, 0), p, (uInt)n));
	gc_put32(t + 4, (uint32_t)n);
}

/* Replace e's bytes by their gzip. */
void gzip_in_place(enc *e)
{
	buf g = {0};
	gzip_stored(&g, e->b.p, e->b.len);
	free(e->b.p);
	e->b = g;
}

/* Replace e's bytes by their xz (liblzma, one stream). */
void xz_in_place(enc *e)
{
	buf x = {0};
	size_t cap = e->b.len + e->b.len / 2 + 4096, pos = 0;
	unsigned char *p = grow(&x, cap);
	if (lzma_easy_buffer_encode(1, LZMA_CHECK_CRC64, NULL, e->b.p, e->b.len, p, &pos,
				    cap) != LZMA_OK)
		gc_die(GC_EXIT_DATA, "xz compression failed");
	x.len = pos;
	free(e->b.p);
	e->b = x;
}

/* ===================================================================== */
/* The base stream of the corpus (see the table at the top)               */
/* ===================================================================== */


void base_kernel(gc_kernel *k, uint32_t id)
{
	gc_kernel_init(k, id, BASE_NAME);
	k->grid[0] = 2;
	k->block[0] = 64;
	k->regs = 16;
	gc_kernel_set_attr(k, GC_A_INSTS, 1000);
}

gc_rec base_rec(int op, uint64_t time)
{
	gc_rec r;
	memset(&r, 0, sizeof r);
	r.op = (uint8_t)op;
	r.space = GC_GLOBAL;
	r.size = 4;
	r.pc = 0x10;
	r.addr = 0x7f0000001000;
	r.time = time;
	return r;
}

void base_header(enc *e)
{
	hdr h = {0};
	h.text = BASE_TEXT;
	put_header(e, &h);
}

/* Everything up to the kernel's data: records 1-4. */
void base_begin(enc *e)
{
	gc_kernel k;
	base_header(e);
	base_kernel(&k, 1);
	put_kbegin(e, &k);
}

void base(enc *e)
{
	base_begin(e);
	gc_rec r = base_rec(GC_LOAD, 10);
	put_data(e, &r);
	r = base_rec(GC_STORE, 20);
	r.lane = 1;
	put_data(e, &r);
	put_kend(e, 1);
	put_end(e);
}

void cut(enc *e, size_t len)
{
	if (len > e->b.len)
		gc_die(GC_EXIT_DATA, "internal error: cut past the end");
	e->b.len = len;
}