/*
 * gc-mkbad - the test corpus of gc streams, and a reader to try it on.
 *
 * Writes: to stdout, one stream that is valid except for one deliberate
 * defect (gc-mkbad NAME), or a small valid stream (good-access,
 * good-request, good-future, good-opcodes).  --list prints every defective member with
 * the message a reader must give for it, after "PROG: stdin: ".
 * Reads: with `read` or `dump`, one stream (stdin or FILE) through
 * gc_open_stream/gc_read, as tool "gc-read-test".
 *
 * The corpus is encoded here field by field from the layout in
 * stream/format.h and gc-stream(5), independently of lib/stream/stream.c's writer; the good streams
 * come from the writer, and `--hand` encodes the same content here so
 * the two can be compared byte for byte.  Every member starts from one
 * base stream (see base()) so its offsets can be read off this table:
 *
 *   offset  record  what
 *        0       -  header: 64 fixed bytes, text "source=gc-mkbad test
 *                   corpus\n" (28 bytes) at 64..91, zero padding 92..95
 *       96       1  kernel begin: id 1, name of 33 bytes, 1 attribute
 *      128       2  kernel attribute: key 1 (instructions) = 1000
 *      160       3  kernel name: 30 bytes
 *      192       4  kernel name: 3 bytes
 *      224       5  load, time 10
 *      256       6  store, time 20
 *      288       7  kernel end: kernel 1, 2 data records
 *      320       8  end of stream: 7 records, 2 data
 *      352          end of input
 */
#include "base/endian.h"
#include "prog/prog.h"
#include "stream/stream.h"

#include <lzma.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

static const char usage_text[] =
	"Usage: gc-mkbad [-z] [--hand] NAME\n"
	"       gc-mkbad --list\n"
	"       gc-mkbad read|dump [FILE]\n"
	"Write a test stream to stdout: a corpus member (valid but for one defect)\n"
	"or a valid stream (good-access, good-request, good-future, good-opcodes).\n"
	"\n"
	"  -z           gzip a good stream (through the library's writer)\n"
	"  --hand       encode a good stream here instead of with the writer\n"
	"  --list       print each corpus member and the reader's message\n"
	"  read [FILE]  read a stream, print \"records N data N kernels N\"\n"
	"  dump [FILE]  read a stream, print every event\n"
	"  -h, --help   show this help and exit\n"
	"  -V, --version  show the version and exit\n";

/* ===================================================================== */
/* A growing byte buffer and the field-by-field encoder                   */
/* ===================================================================== */

typedef struct buf {
	unsigned char *p;
	size_t len, cap;
} buf;

/* n zeroed bytes appended to b. */
static unsigned char *grow(buf *b, size_t n)
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

static void append(buf *b, const void *p, size_t n)
{
	if (n)
		memcpy(grow(b, n), p, n);
}

/* The 64 fixed bytes of a header, the text area and its padding.  Fields
 * left 0 take their normal values (hsize: 64 + text rounded up to 8;
 * tlen_field: the text's length). */
typedef struct hdr {
	uint16_t major, minor, kind, rsize;
	uint32_t hsize, required, optional, tlen_field;
	const char *text;
	size_t tlen;
} hdr;

typedef struct enc {
	buf b;
	unsigned rs;        /* record size */
	int kind;
	uint64_t nrec, ndata, kdata;
	uint64_t time_hi;   /* for the automatic time-base records */
} enc;

static void put_header(enc *e, const hdr *h)
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
static unsigned char *rec_slot(enc *e)
{
	e->nrec++;
	return grow(&e->b, e->rs);
}

static void put_time(enc *e, uint64_t t)
{
	unsigned char *p = rec_slot(e);
	p[0] = GC_T_TIME;
	gc_put64(p + 8, t);
}

/* A data record: only the low half of the time is encoded. */
static void put_data(enc *e, const gc_rec *r)
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
static void put_data_timed(enc *e, const gc_rec *r)
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
static void put_kbegin_raw(enc *e, const gc_kernel *k, unsigned namelen, unsigned nattr)
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

static void put_kattr(enc *e, uint16_t key, uint64_t val)
{
	unsigned char *p = rec_slot(e);
	p[0] = GC_T_KATTR;
	gc_put16(p + 2, key);
	gc_put64(p + 8, val);
}

/* A name record claiming `len` bytes and carrying `n` of them. */
static void put_kname(enc *e, unsigned len, const char *s, size_t n)
{
	unsigned char *p = rec_slot(e);
	p[0] = GC_T_KNAME;
	p[1] = (unsigned char)len;
	memcpy(p + 2, s, n);
}

/* A whole kernel begin: the record, its attributes, its name in chunks. */
static void put_kbegin(enc *e, const gc_kernel *k)
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

static void put_kend_n(enc *e, uint32_t id, uint64_t count)
{
	unsigned char *p = rec_slot(e);
	p[0] = GC_T_KEND;
	gc_put32(p + 4, id);
	gc_put64(p + 8, count);
}

static void put_kend(enc *e, uint32_t id)
{
	put_kend_n(e, id, e->kdata);
}

/* The end-of-stream record counts the records before it. */
static void put_end_n(enc *e, uint64_t nrec, uint64_t ndata)
{
	unsigned char *p = rec_slot(e);
	p[0] = GC_T_END;
	gc_put64(p + 8, nrec);
	gc_put64(p + 16, ndata);
}

static void put_end(enc *e)
{
	put_end_n(e, e->nrec, e->ndata);
}

/* Record n (1-based) of a stream whose header is hs bytes. */
static unsigned char *rec_at(enc *e, size_t hs, unsigned n)
{
	size_t off = hs + (size_t)(n - 1) * e->rs;
	if (off + e->rs > e->b.len)
		gc_die(GC_EXIT_DATA, "internal error: record %u is past the end", n);
	return e->b.p + off;
}

/* ---- gzip, hand-encoded with stored blocks (RFC 1952, RFC 1951 §3.2.4),
 * so every byte offset below holds whatever compressor zlib is. -------- */

#define GZ_HEAD 10 /* magic, method, flags, mtime, xfl, os */

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
static void gzip_in_place(enc *e)
{
	buf g = {0};
	gzip_stored(&g, e->b.p, e->b.len);
	free(e->b.p);
	e->b = g;
}

/* Replace e's bytes by their xz (liblzma, one stream). */
static void xz_in_place(enc *e)
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

#define BASE_TEXT "source=gc-mkbad test corpus\n"
#define BASE_HS 96
#define BASE_NAME "_Z13vector_add_kernelPKfS0_Pfi_v2" /* 33 bytes: 30 + 3 */

static void base_kernel(gc_kernel *k, uint32_t id)
{
	gc_kernel_init(k, id, BASE_NAME);
	k->grid[0] = 2;
	k->block[0] = 64;
	k->regs = 16;
	gc_kernel_set_attr(k, GC_A_INSTS, 1000);
}

static gc_rec base_rec(int op, uint64_t time)
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

static void base_header(enc *e)
{
	hdr h = {0};
	h.text = BASE_TEXT;
	put_header(e, &h);
}

/* Everything up to the kernel's data: records 1-4. */
static void base_begin(enc *e)
{
	gc_kernel k;
	base_header(e);
	base_kernel(&k, 1);
	put_kbegin(e, &k);
}

static void base(enc *e)
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

static void cut(enc *e, size_t len)
{
	if (len > e->b.len)
		gc_die(GC_EXIT_DATA, "internal error: cut past the end");
	e->b.len = len;
}

/* ===================================================================== */
/* The corpus, in the order the reader checks (read_header, gc_read)      */
/* ===================================================================== */

/* ---- header ----------------------------------------------------------- */

static void m_empty(enc *e) { (void)e; }

static void m_empty_gzip(enc *e) { gzip_in_place(e); }

static void m_empty_xz(enc *e) { xz_in_place(e); }

static void m_short_header(enc *e) { base(e); cut(e, 40); }

static void m_short_header_text(enc *e) { append(&e->b, "gc stream?\n", 11); }

static void m_bad_magic(enc *e)
{
	base(e);
	e->b.p[3] = 'X';
}

/* Binary noise: no gzip or xz magic, control bytes throughout. */
static void m_bad_magic_garbage(enc *e)
{
	unsigned char *p = grow(&e->b, 256);
	unsigned x = 12345;
	for (int i = 0; i < 256; i++) {
		x = x * 1103515245u + 12345u;
		p[i] = (unsigned char)(x >> 16);
	}
	p[0] = 0x00;
}

static void m_bad_magic_text(enc *e)
{
	static const char t[] =
		"-kernel name = _Z13vector_add_kernelPKfS0_Pfi\n"
		"-kernel id = 1\n"
		"-grid dim = (2,1,1)\n"
		"-block dim = (64,1,1)\n";
	append(&e->b, t, sizeof t - 1);
}

static void m_bad_magic_gzip_twice(enc *e)
{
	base(e);
	gzip_in_place(e);
	gzip_in_place(e);
}

/* The xz magic and stream flags, then zeros, inside gzip: the input layer
 * undoes the gzip and the reader finds xz (plain xz input is the input
 * layer's to decompress). */
static void m_bad_magic_xz_in_gzip(enc *e)
{
	static const unsigned char xz[8] = {0xfd, '7', 'z', 'X', 'Z', 0, 0, 4};
	append(&e->b, xz, sizeof xz);
	grow(&e->b, 120);
	gzip_in_place(e);
}

static void m_bad_magic_gzip_in_xz(enc *e)
{
	base(e);
	gzip_in_place(e);
	xz_in_place(e);
}

static void m_bad_magic_xz_twice(enc *e)
{
	base(e);
	xz_in_place(e);
	xz_in_place(e);
}

static void m_bad_major(enc *e)
{
	base(e);
	gc_put16(e->b.p + 8, 2);
}

static void m_header_size_odd(enc *e)
{
	base(e);
	gc_put32(e->b.p + 12, 100);
}

static void m_header_size_small(enc *e)
{
	base(e);
	gc_put32(e->b.p + 12, 56);
}

static void m_header_size_huge(enc *e)
{
	base(e);
	gc_put32(e->b.p + 12, GC_HEADER_MAX + 8);
}

static void m_header_text_overflow(enc *e)
{
	base(e);
	gc_put32(e->b.p + 28, 40);
}

static void m_bad_kind(enc *e)
{
	base(e);
	gc_put16(e->b.p + 16, 4);
}

static void m_record_size_small(enc *e)
{
	base(e);
	gc_put16(e->b.p + 18, 16);
}

static void m_record_size_odd(enc *e)
{
	base(e);
	gc_put16(e->b.p + 18, 36);
}

static void m_record_size_huge(enc *e)
{
	base(e);
	gc_put16(e->b.p + 18, GC_RECORD_MAX + 8);
}

static void m_required_flag(enc *e)
{
	base(e);
	gc_put32(e->b.p + 20, 4);
}

static void m_short_header_area(enc *e) { base(e); cut(e, 80); }

static void m_reserved_byte(enc *e)
{
	base(e);
	e->b.p[63] = 1;
}

static void m_padding_byte(enc *e)
{
	base(e);
	e->b.p[95] = 'x';
}

/* The base stream under another header text. */
static void with_text(enc *e, const char *text, size_t tlen)
{
	hdr h = {0};
	gc_kernel k;
	h.text = text;
	h.tlen = tlen;
	put_header(e, &h);
	base_kernel(&k, 1);
	put_kbegin(e, &k);
	gc_rec r = base_rec(GC_LOAD, 10);
	put_data(e, &r);
	put_kend(e, 1);
	put_end(e);
}

static void m_text_no_newline(enc *e)
{
	with_text(e, "source=gc-mkbad\nnote=no newline", 0);
}

static void m_text_not_kv(enc *e)
{
	with_text(e, "source=gc-mkbad\nnot a key value pair\n", 0);
}

static void m_text_nul(enc *e)
{
	static const char t[] = "source=gc-mkbad\nnote=a\0b\n";
	with_text(e, t, sizeof t - 1);
}

static void m_text_repeated(enc *e)
{
	with_text(e, "source=gc-mkbad\ngpu=volta\nsource=again\n", 0);
}

static void m_text_bad_key(enc *e)
{
	with_text(e, "source=gc-mkbad\nbad key=1\n", 0);
}

static void m_text_too_many_keys(enc *e)
{
	char t[GC_KV_MAX * 8 + 16];
	size_t n = 0;
	for (int i = 0; i <= GC_KV_MAX; i++)
		n += (size_t)snprintf(t + n, sizeof t - n, "k%d=1\n", i);
	with_text(e, t, n);
}

/* ---- records ---------------------------------------------------------- */

static void m_truncated_record(enc *e) { base(e); cut(e, 224 + 10); }

static void m_missing_end(enc *e) { base(e); cut(e, 320); }

static void m_missing_end_empty(enc *e) { base_header(e); }

static void m_missing_attr(enc *e) { base(e); cut(e, 128); }

static void m_missing_name(enc *e) { base(e); cut(e, 192); }

static void m_end_count(enc *e)
{
	base(e);
	gc_put64(rec_at(e, BASE_HS, 8) + 8, 6);
}

static void m_end_data_count(enc *e)
{
	base(e);
	gc_put64(rec_at(e, BASE_HS, 8) + 16, 1);
}

static void m_kend_count(enc *e)
{
	base(e);
	gc_put64(rec_at(e, BASE_HS, 7) + 8, 3);
}

static void m_data_after_end(enc *e)
{
	base(e);
	gc_rec r = base_rec(GC_LOAD, 30);
	put_data(e, &r);
}

static void m_data_after_end_byte(enc *e)
{
	base(e);
	append(&e->b, "\n", 1);
}

static void m_unknown_type(enc *e)
{
	base(e);
	rec_at(e, BASE_HS, 5)[0] = 0x87;
}

/* ---- opcode records (1.3, the opcodes flag) ---------------------------- */

/* An opcode record claiming `len` name bytes, carrying n (at most 24). */
static void put_opcode(enc *e, uint32_t pc, unsigned len, const char *s, size_t n)
{
	unsigned char *p = rec_slot(e);
	p[0] = GC_T_OPCODE;
	p[1] = (unsigned char)len;
	gc_put32(p + 4, pc);
	memcpy(p + 8, s, n);
}

/* A continuation record claiming `len` bytes, carrying them. */
static void put_opmore(enc *e, unsigned len, const char *s)
{
	unsigned char *p = rec_slot(e);
	p[0] = GC_T_OPMORE;
	p[1] = (unsigned char)len;
	memcpy(p + 2, s, len);
}

/* The base kernel with the opcodes flag (records 1-6: begin, data), or
 * without it (flag 0). */
static void op_begin(enc *e, int flag)
{
	hdr h = {0};
	gc_kernel k;
	h.minor = GC_STREAM_MINOR_OPCODES;
	h.required = flag ? GC_REQ_OPCODES : 0;
	h.text = BASE_TEXT;
	put_header(e, &h);
	base_kernel(&k, 1);
	put_kbegin(e, &k);
	gc_rec r = base_rec(GC_LOAD, 10);
	put_data(e, &r);
	r = base_rec(GC_STORE, 20);
	r.pc = 0x20;
	put_data(e, &r);
}

/* ... and to its end after the opcode records (records 7 on). */
static void op_end(enc *e)
{
	put_kend(e, 1);
	put_end(e);
}

/* A long opcode of Ampere's: 31 bytes, 24 in the record, 7 more. */
#define LONG_OP "RED.E.ADD.F32.FTZ.RN.STRONG.GPU"

/* Valid: LDG.E.64 at 0x10, the long one at 0x20 (records 7-9). */
static void make_opcodes(enc *e)
{
	op_begin(e, 1);
	put_opcode(e, 0x10, 8, "LDG.E.64", 8);
	put_opcode(e, 0x20, 31, LONG_OP, 24);
	put_opmore(e, 7, LONG_OP + 24);
	op_end(e);
}

static void m_op_truncated(enc *e)
{
	make_opcodes(e);
	cut(e, BASE_HS + 6 * 32 + 10);
}

static void m_op_len_zero(enc *e)
{
	op_begin(e, 1);
	put_opcode(e, 0x10, 0, "", 0);
	op_end(e);
}

static void m_op_too_long(enc *e)
{
	op_begin(e, 1);
	put_opcode(e, 0x10, GC_OPCODE_MAX + 1, LONG_OP, 24);
	put_opmore(e, 30, LONG_OP LONG_OP);
	op_end(e);
}

static void m_op_pc_order(enc *e)
{
	op_begin(e, 1);
	put_opcode(e, 0x20, 5, "STG.E", 5);
	put_opcode(e, 0x10, 5, "LDG.E", 5);
	op_end(e);
}

static void m_op_pc_repeated(enc *e)
{
	op_begin(e, 1);
	put_opcode(e, 0x10, 5, "LDG.E", 5);
	put_opcode(e, 0x10, 5, "LDG.E", 5);
	op_end(e);
}

static void m_op_more_missing(enc *e)
{
	op_begin(e, 1);
	put_opcode(e, 0x10, 31, LONG_OP, 24);
	op_end(e);
}

static void m_op_more_count(enc *e)
{
	op_begin(e, 1);
	put_opcode(e, 0x10, 31, LONG_OP, 24);
	put_opmore(e, 6, LONG_OP + 24);
	op_end(e);
}

static void m_op_more_outside(enc *e)
{
	op_begin(e, 1);
	put_opmore(e, 7, LONG_OP + 24);
	op_end(e);
}

static void m_op_nul(enc *e)
{
	op_begin(e, 1);
	put_opcode(e, 0x10, 8, "LDG\0E.64", 8);
	op_end(e);
}

static void m_op_outside_kernel(enc *e)
{
	op_begin(e, 1);
	put_kend(e, 1);
	put_opcode(e, 0x10, 5, "LDG.E", 5);
	put_end(e);
}

static void m_op_no_flag(enc *e)
{
	op_begin(e, 0);
	put_opcode(e, 0x10, 5, "LDG.E", 5);
	op_end(e);
}

static void m_op_then_data(enc *e)
{
	op_begin(e, 1);
	put_opcode(e, 0x10, 5, "LDG.E", 5);
	gc_rec r = base_rec(GC_LOAD, 30);
	put_data(e, &r);
	op_end(e);
}

static void m_zero_record(enc *e)
{
	base(e);
	memset(rec_at(e, BASE_HS, 5), 0, 32);
}

static void m_bad_space(enc *e)
{
	base(e);
	rec_at(e, BASE_HS, 5)[1] = GC_NSPACES;
}

static void m_access_size_zero(enc *e)
{
	base(e);
	rec_at(e, BASE_HS, 5)[3] = 0;
}

static void m_data_outside_kernel(enc *e)
{
	gc_kernel k;
	base_header(e);
	gc_rec r = base_rec(GC_LOAD, 10);
	put_data(e, &r);
	base_kernel(&k, 1);
	put_kbegin(e, &k);
	put_kend(e, 1);
	put_end(e);
}

static void m_data_after_kend(enc *e)
{
	base_begin(e);
	gc_rec r = base_rec(GC_LOAD, 10);
	put_data(e, &r);
	put_kend(e, 1);
	r = base_rec(GC_STORE, 20);
	put_data(e, &r);
	put_end(e);
}

static void m_kbegin_inside_kernel(enc *e)
{
	gc_kernel k;
	base_begin(e);
	gc_rec r = base_rec(GC_LOAD, 10);
	put_data(e, &r);
	base_kernel(&k, 2);
	put_kbegin(e, &k);
	put_kend(e, 2);
	put_end(e);
}

static void m_kend_wrong_id(enc *e)
{
	base(e);
	gc_put32(rec_at(e, BASE_HS, 7) + 4, 2);
}

static void m_kend_outside_kernel(enc *e)
{
	base_header(e);
	put_kend_n(e, 1, 0);
	put_end(e);
}

static void m_end_inside_kernel(enc *e)
{
	base_begin(e);
	gc_rec r = base_rec(GC_LOAD, 10);
	put_data(e, &r);
	r = base_rec(GC_STORE, 20);
	put_data(e, &r);
	put_end(e);
}

static void m_attr_outside(enc *e)
{
	base_header(e);
	put_kattr(e, GC_A_INSTS, 1);
	put_end(e);
}

static void m_name_outside(enc *e)
{
	base_header(e);
	put_kname(e, 3, "abc", 3);
	put_end(e);
}

/* The kernel begin announces an attribute; a name record comes instead. */
static void m_attr_missing(enc *e)
{
	gc_kernel k;
	base_header(e);
	base_kernel(&k, 1);
	put_kbegin_raw(e, &k, 33, 1);
	put_kname(e, 30, BASE_NAME, 30);
	put_kname(e, 3, BASE_NAME + 30, 3);
	put_kend(e, 1);
	put_end(e);
}

/* The kernel begin announces a name; data follows its attribute. */
static void m_name_missing(enc *e)
{
	gc_kernel k;
	base_header(e);
	base_kernel(&k, 1);
	put_kbegin_raw(e, &k, 33, 1);
	put_kattr(e, GC_A_INSTS, 1000);
	gc_rec r = base_rec(GC_LOAD, 10);
	put_data(e, &r);
	put_kend(e, 1);
	put_end(e);
}

static void m_name_chunk_short(enc *e)
{
	base(e);
	rec_at(e, BASE_HS, 3)[1] = 29;
}

static void m_name_chunk_long(enc *e)
{
	base(e);
	rec_at(e, BASE_HS, 4)[1] = 4;
}

static void m_name_too_long(enc *e)
{
	base(e);
	gc_put16(rec_at(e, BASE_HS, 1) + 2, GC_NAME_MAX + 1);
}

static void m_too_many_attrs(enc *e)
{
	base(e);
	gc_put16(rec_at(e, BASE_HS, 1) + 28, GC_ATTR_MAX + 1);
}

/* A NUL inside the name's last chunk (record 4, name bytes at 2..). */
static void m_name_nul(enc *e)
{
	base(e);
	rec_at(e, BASE_HS, 4)[3] = 0;
}

static void m_time_backwards(enc *e)
{
	base(e);
	gc_put32(rec_at(e, BASE_HS, 6) + 20, 5);
}

/* Time crosses 2^32 without a time-base record: it seems to go back. */
static void m_time_wrap_no_base(enc *e)
{
	base(e);
	gc_put32(rec_at(e, BASE_HS, 5) + 20, 0xfffffff0u);
	gc_put32(rec_at(e, BASE_HS, 6) + 20, 0x10);
}

static void m_time_base_backwards(enc *e)
{
	base_begin(e);
	gc_rec r = base_rec(GC_LOAD, (UINT64_C(1) << 32) + 5);
	put_data_timed(e, &r);   /* records 5 (time base) and 6 */
	put_time(e, UINT64_C(1) << 32);
	r = base_rec(GC_STORE, (UINT64_C(1) << 32) + 6);
	put_data(e, &r);
	put_kend(e, 1);
	put_end(e);
}

/* ---- gzip ------------------------------------------------------------- */

static void m_gzip_bad_crc(enc *e)
{
	base(e);
	gzip_in_place(e);
	e->b.p[e->b.len - 8] ^= 1;
}

static void m_gzip_bad_length(enc *e)
{
	base(e);
	gzip_in_place(e);
	e->b.p[e->b.len - 4] ^= 1;
}

static void m_gzip_bad_method(enc *e)
{
	base(e);
	gzip_in_place(e);
	e->b.p[2] = 7;
}

/* NLEN of the stored block is not the complement of LEN. */
static void m_gzip_bad_block(enc *e)
{
	base(e);
	gzip_in_place(e);
	e->b.p[GZ_HEAD + 3] ^= 1;
}

static void m_gzip_truncated(enc *e)
{
	base(e);
	gzip_in_place(e);
	cut(e, e->b.len / 2);
}

static void m_gzip_trailing_garbage(enc *e)
{
	base(e);
	gzip_in_place(e);
	append(&e->b, "junk", 4);
}

#define SIZE_RULE "must be a multiple of 8 from 64 to 1048576 holding the text)"
#define TRUNCATED "(upstream stage failed or output was truncated)"

static const struct member {
	const char *name;
	void (*make)(enc *e);
	const char *message; /* after "PROG: stdin: " */
} corpus[] = {
	/* read_header */
	{"empty", m_empty, "empty input"},
	{"empty-gzip", m_empty_gzip, "empty input (after gzip decompression)"},
	{"empty-xz", m_empty_xz, "empty input (after xz decompression)"},
	{"short-header", m_short_header, "short header (40 of 64 bytes)"},
	{"short-header-text", m_short_header_text,
	 "short header (11 of 64 bytes): this looks like text, not a gc stream"},
	{"bad-magic", m_bad_magic, "bad magic: not a gc stream"},
	{"bad-magic-garbage", m_bad_magic_garbage, "bad magic: not a gc stream"},
	{"bad-magic-text", m_bad_magic_text,
	 "bad magic: this looks like text, not a gc stream (a trace file? gc-import reads traces)"},
	{"bad-magic-gzip-twice", m_bad_magic_gzip_twice,
	 "bad magic: gzip inside gzip (the input was compressed twice)"},
	{"bad-magic-xz-in-gzip", m_bad_magic_xz_in_gzip,
	 "bad magic: xz inside gzip (the input was compressed twice)"},
	{"bad-magic-gzip-in-xz", m_bad_magic_gzip_in_xz,
	 "bad magic: gzip inside xz (the input was compressed twice)"},
	{"bad-magic-xz-twice", m_bad_magic_xz_twice,
	 "bad magic: xz inside xz (the input was compressed twice)"},
	{"bad-major", m_bad_major, "unsupported major version 2 (this reader reads 1.x)"},
	{"header-size-odd", m_header_size_odd, "bad header size 100 (text 28 bytes; " SIZE_RULE},
	{"header-size-small", m_header_size_small, "bad header size 56 (text 28 bytes; " SIZE_RULE},
	{"header-size-huge", m_header_size_huge, "bad header size 1048584 (text 28 bytes; " SIZE_RULE},
	{"header-text-overflow", m_header_text_overflow,
	 "bad header size 96 (text 40 bytes; " SIZE_RULE},
	{"bad-kind", m_bad_kind, "unknown record kind 4"},
	{"record-size-small", m_record_size_small, "bad record size 16 for accesses (expected 32)"},
	{"record-size-odd", m_record_size_odd, "bad record size 36 for accesses (expected 32)"},
	{"record-size-huge", m_record_size_huge, "bad record size 264 for accesses (expected 32)"},
	{"required-flag", m_required_flag,
	 "unknown required feature flag 0x4 (written by a newer version?)"},
	{"short-header-area", m_short_header_area, "short header (80 of 96 bytes)"},
	{"reserved-byte", m_reserved_byte, "non-zero reserved byte at header offset 63"},
	{"padding-byte", m_padding_byte, "non-zero reserved byte at header offset 95 (padding)"},
	{"header-text-no-newline", m_text_no_newline, "header text line 2: no newline at the end"},
	{"header-text-not-kv", m_text_not_kv, "header text line 2: not key=value"},
	{"header-text-nul", m_text_nul, "header text line 2: not key=value"},
	{"header-text-repeated", m_text_repeated, "header text line 3: key 'source' repeated"},
	{"header-text-bad-key", m_text_bad_key,
	 "header text line 2: bad key 'bad key' (or more than 256 keys)"},
	{"header-text-too-many-keys", m_text_too_many_keys,
	 "header text line 257: bad key 'k256' (or more than 256 keys)"},
	/* gc_read */
	{"truncated-record", m_truncated_record,
	 "record 5 (offset 224): truncated record (10 of 32 bytes)"},
	{"missing-end", m_missing_end,
	 "record 8 (offset 320): missing end-of-stream record " TRUNCATED},
	{"missing-end-empty", m_missing_end_empty,
	 "record 1 (offset 96): missing end-of-stream record " TRUNCATED},
	{"missing-attr", m_missing_attr,
	 "record 2 (offset 128): missing kernel attribute record " TRUNCATED},
	{"missing-name", m_missing_name,
	 "record 4 (offset 192): missing kernel name record " TRUNCATED},
	{"end-count", m_end_count,
	 "record 8 (offset 320): count mismatch: end-of-stream record says 6 records (2 data), "
	 "the stream holds 7 (2 data)"},
	{"end-data-count", m_end_data_count,
	 "record 8 (offset 320): count mismatch: end-of-stream record says 7 records (1 data), "
	 "the stream holds 7 (2 data)"},
	{"kend-count", m_kend_count,
	 "record 7 (offset 288): count mismatch: kernel 1 end record says 3 data records, "
	 "the stream holds 2"},
	{"data-after-end", m_data_after_end,
	 "record 9 (offset 352): data after the end-of-stream record"},
	{"data-after-end-byte", m_data_after_end_byte,
	 "record 9 (offset 352): data after the end-of-stream record"},
	{"unknown-type", m_unknown_type, "record 5 (offset 224): unknown record type 0x87"},
	{"opcode-truncated", m_op_truncated, "record 7 (offset 288): truncated record (10 of 32 bytes)"},
	{"opcode-length-zero", m_op_len_zero,
	 "record 7 (offset 288): opcode name length 0 (1 to 54 bytes)"},
	{"opcode-too-long", m_op_too_long,
	 "record 7 (offset 288): opcode name length 55 (1 to 54 bytes)"},
	{"opcode-pc-order", m_op_pc_order,
	 "record 8 (offset 320): opcode record for PC 0x10 after PC 0x20 (PCs increase within "
	 "a kernel)"},
	{"opcode-pc-repeated", m_op_pc_repeated,
	 "record 8 (offset 320): opcode record for PC 0x10 after PC 0x10 (PCs increase within "
	 "a kernel)"},
	{"opcode-more-missing", m_op_more_missing,
	 "record 8 (offset 320): opcode continuation record expected, found type 0x83"},
	{"opcode-more-count", m_op_more_count,
	 "record 8 (offset 320): opcode continuation record holds 6 bytes, expected 7"},
	{"opcode-more-outside", m_op_more_outside,
	 "record 7 (offset 288): opcode continuation record outside an opcode record"},
	{"opcode-nul", m_op_nul, "record 7 (offset 288): opcode name contains a NUL byte"},
	{"opcode-outside-kernel", m_op_outside_kernel,
	 "record 8 (offset 320): opcode record outside a kernel"},
	{"opcode-no-flag", m_op_no_flag,
	 "record 7 (offset 288): opcode record in a stream without the opcodes flag (required "
	 "flag 0x1)"},
	{"opcode-then-data", m_op_then_data,
	 "record 8 (offset 320): data record after the kernel's opcode records"},
	{"zero-record", m_zero_record, "record 5 (offset 224): unknown record type 0x00"},
	{"bad-space", m_bad_space, "record 5 (offset 224): bad memory space 6"},
	{"access-size-zero", m_access_size_zero,
	 "record 5 (offset 224): access size 0 (an access has 1 to 255 bytes)"},
	{"data-outside-kernel", m_data_outside_kernel,
	 "record 1 (offset 96): data record outside a kernel"},
	{"data-after-kend", m_data_after_kend, "record 7 (offset 288): data record outside a kernel"},
	{"kbegin-inside-kernel", m_kbegin_inside_kernel,
	 "record 6 (offset 256): kernel 2 begins before kernel 1 ended"},
	{"kend-wrong-id", m_kend_wrong_id, "record 7 (offset 288): kernel 2 ends while kernel 1 is open"},
	{"kend-outside-kernel", m_kend_outside_kernel,
	 "record 1 (offset 96): kernel 1 ends but no kernel began"},
	{"end-inside-kernel", m_end_inside_kernel,
	 "record 7 (offset 288): stream ends inside kernel 1 (its end record is missing)"},
	{"attr-outside", m_attr_outside,
	 "record 1 (offset 96): kernel attribute record outside a kernel begin"},
	{"name-outside", m_name_outside, "record 1 (offset 96): kernel name record outside a kernel begin"},
	{"attr-missing", m_attr_missing,
	 "record 2 (offset 128): kernel attribute record expected (1 of 1), found type 0x82"},
	{"name-missing", m_name_missing,
	 "record 3 (offset 160): kernel name record expected, found type 0x01"},
	{"name-chunk-short", m_name_chunk_short,
	 "record 3 (offset 160): kernel name record holds 29 bytes, expected 30"},
	{"name-chunk-long", m_name_chunk_long,
	 "record 4 (offset 192): kernel name record holds 4 bytes, expected 3"},
	{"name-too-long", m_name_too_long, "record 1 (offset 96): kernel name length 4097 exceeds 4096"},
	{"too-many-attrs", m_too_many_attrs, "record 1 (offset 96): 17 kernel attributes exceed 16"},
	{"name-nul", m_name_nul, "record 4 (offset 192): kernel name contains a NUL byte"},
	{"time-backwards", m_time_backwards,
	 "record 6 (offset 256): timestamp 5 is earlier than the previous record's 10"},
	{"time-wrap-no-base", m_time_wrap_no_base,
	 "record 6 (offset 256): timestamp 16 is earlier than the previous record's 4294967280"},
	{"time-base-backwards", m_time_base_backwards,
	 "record 7 (offset 288): time base 4294967296 is earlier than the previous record's "
	 "4294967301"},
	/* the input layer */
	{"gzip-bad-crc", m_gzip_bad_crc, "gzip data error: incorrect data check"},
	{"gzip-bad-length", m_gzip_bad_length, "gzip data error: incorrect length check"},
	{"gzip-bad-method", m_gzip_bad_method, "gzip data error: unknown compression method"},
	{"gzip-bad-block", m_gzip_bad_block, "gzip data error: invalid stored block lengths"},
	{"gzip-truncated", m_gzip_truncated, "truncated gzip data"},
	{"gzip-trailing-garbage", m_gzip_trailing_garbage, "trailing garbage after gzip data"},
};
#define NCORPUS (sizeof corpus / sizeof corpus[0])

/* ===================================================================== */
/* The good streams: one description, emitted by the writer or by hand    */
/* ===================================================================== */

typedef struct emitter {
	gc_writer *w; /* the library's writer, or */
	enc *e;       /* the hand encoder */
} emitter;

static void em_kbegin(emitter *m, const gc_kernel *k)
{
	if (m->w) {
		if (gc_write_kbegin(m->w, k) < 0)
			gc_die(GC_EXIT_DATA, "%s", gc_writer_error(m->w));
	} else {
		put_kbegin(m->e, k);
	}
}

static void em_data(emitter *m, const gc_rec *r)
{
	if (m->w) {
		if (gc_write(m->w, r) < 0)
			gc_die(GC_EXIT_DATA, "%s", gc_writer_error(m->w));
	} else {
		put_data_timed(m->e, r);
	}
}

static void em_kend(emitter *m, uint32_t id)
{
	if (m->w) {
		if (gc_write_kend(m->w, id) < 0)
			gc_die(GC_EXIT_DATA, "%s", gc_writer_error(m->w));
	} else {
		put_kend(m->e, id);
	}
}

#define LONG_NAME "_Z12matmul_tiledILi32EEvPKfS1_Pfiii_with_a_much_longer_mangled_suffix_for_chunks"

static void good_header(gc_header *h, int kind, const char *what)
{
	gc_header_init(h, kind);
	char prov[64];
	snprintf(prov, sizeof prov, "gc-mkbad %s", what);
	gc_header_set(h, "gpu", "test");
	gc_header_add_provenance(h, prov);
	if (kind == GC_KIND_REQUEST) {
		gc_header_set(h, "line_size", "128");
		gc_header_set(h, "sector_size", "32");
		h->optional = GC_OPT_ANNOTATED | GC_OPT_SCHEDULED;
	}
}

/* Two kernels; the first has a name of three chunks and two attributes,
 * and its times cross 2^32 (a time-base record); the second starts at
 * 2^33 (another). 19 records before the end record, 7 data. */
static void good_access(emitter *m)
{
	gc_kernel k;
	gc_kernel_init(&k, 1, LONG_NAME);
	k.grid[0] = 4;
	k.grid[1] = 2;
	k.block[0] = 64;
	k.regs = 32;
	k.shmem = 1024;
	gc_kernel_set_attr(&k, GC_A_INSTS, 1000);
	gc_kernel_set_attr(&k, GC_A_BINARY, 80);
	em_kbegin(m, &k);
	static const struct {
		uint8_t op, space, lane, size;
		uint16_t sm, warp;
		uint32_t block, pc, seq;
		uint64_t addr, time;
	} a[] = {
		{GC_LOAD, GC_GLOBAL, 0, 4, 0, 0, 0, 0x100, 0, 0x7f0000001000, 100},
		{GC_LOAD, GC_GLOBAL, 31, 4, 0, 0, 0, 0x100, 0, 0x7f000000107c, 100},
		{GC_STORE, GC_SHARED, 3, 8, 1, 2, 5, 0x1a0, 7, 0x40, 200},
		{GC_ATOMIC, GC_GLOBAL, 7, 4, 1, 2, 5, 0x1b0, 8, 0x7f0000002000, 0xfffffff0},
		{GC_LOAD, GC_LOCAL, 0, 16, 3, 1, 7, 0x1c0, 9, 0xfffc, (UINT64_C(1) << 32) + 5},
	};
	for (size_t i = 0; i < sizeof a / sizeof a[0]; i++) {
		gc_rec r;
		memset(&r, 0, sizeof r);
		r.op = a[i].op;
		r.space = a[i].space;
		r.lane = a[i].lane;
		r.size = a[i].size;
		r.sm = a[i].sm;
		r.warp = a[i].warp;
		r.block = a[i].block;
		r.pc = a[i].pc;
		r.seq = a[i].seq;
		r.addr = a[i].addr;
		r.time = a[i].time;
		if (r.op == GC_ATOMIC)
			r.flags = GC_F_BYPASS_L1;
		em_data(m, &r);
	}
	em_kend(m, 1);
	gc_kernel_init(&k, 2, "k2");
	em_kbegin(m, &k);
	for (int i = 0; i < 2; i++) {
		gc_rec r;
		memset(&r, 0, sizeof r);
		r.op = GC_LOAD;
		r.space = GC_GENERIC;
		r.size = 1;
		r.lane = (uint8_t)i;
		r.addr = UINT64_MAX - (uint64_t)i;
		r.time = (UINT64_C(1) << 33) + (uint64_t)i;
		r.pc = 0xffffffff;
		r.seq = 0xffffffff;
		r.block = 0xffffffff;
		r.sm = 0xffff;
		r.warp = 0xffff;
		em_data(m, &r);
	}
	em_kend(m, 2);
}

/* One kernel of line requests: outcomes, sector masks, the 48-bit line
 * address and 16-bit size at their limits.  7 records, 4 data. */
static void good_request(emitter *m)
{
	gc_kernel k;
	gc_kernel_init(&k, 7, "reduce");
	k.grid[0] = 0xffffffff;
	k.grid[1] = 65535;
	k.grid[2] = 65535;
	k.block[0] = 1024;
	em_kbegin(m, &k);
	static const struct {
		uint8_t op, space, flags, outcome, mask;
		uint16_t size;
		uint64_t addr, time;
	} q[] = {
		{GC_LOAD, GC_GLOBAL, 0, GC_OUT_MAKE(GC_R_MISS, GC_C_COMPULSORY), 0x0f, 128, 0x7f0000001000, 1},
		{GC_LOAD, GC_GLOBAL, 0, GC_OUT_MAKE(GC_R_HIT, GC_C_NONE), 0x01, 32, 0x7f0000001000, 2},
		{GC_STORE, GC_LOCAL, 0, GC_OUT_MAKE(GC_R_SECTOR_MISS, GC_C_NONE) | GC_OUT_WRITEBACK,
		 0x0c, 64, 0x80, 3},
		{GC_ATOMIC, GC_GLOBAL, GC_F_BYPASS_L1,
		 GC_OUT_MAKE(GC_R_MISS, GC_C_MSHR) | GC_OUT_BYPASS, 0xff, 0xffff, GC_ADDR48_MAX, 3},
	};
	for (size_t i = 0; i < sizeof q / sizeof q[0]; i++) {
		gc_rec r;
		memset(&r, 0, sizeof r);
		r.op = q[i].op;
		r.space = q[i].space;
		r.flags = q[i].flags;
		r.outcome = q[i].outcome;
		r.mask = q[i].mask;
		r.size = q[i].size;
		r.addr = q[i].addr;
		r.time = q[i].time;
		r.sm = (uint16_t)(i * 10);
		r.warp = (uint16_t)i;
		r.block = (uint32_t)i * 1000;
		r.pc = 0x2000 + (uint32_t)i * 16;
		r.seq = (uint32_t)i;
		em_data(m, &r);
	}
	em_kend(m, 7);
}

static void make_good(const char *name, int gzip, int hand)
{
	int kind = strcmp(name, "good-request") == 0 ? GC_KIND_REQUEST : GC_KIND_ACCESS;
	void (*content)(emitter *) = kind == GC_KIND_REQUEST ? good_request : good_access;
	gc_header h;
	good_header(&h, kind, name + 5);
	emitter m = {0};
	if (hand) {
		size_t tl;
		char *text = gc_header_text(&h, &tl);
		hdr hd = {0};
		enc e = {0};
		if (!text)
			gc_die(GC_EXIT_DATA, "out of memory");
		hd.kind = (uint16_t)kind;
		hd.optional = h.optional;
		hd.text = text;
		hd.tlen = tl;
		put_header(&e, &hd);
		m.e = &e;
		content(&m);
		put_end(&e);
		if (gzip)
			gzip_in_place(&e);
		if (fwrite(e.b.p, 1, e.b.len, stdout) != e.b.len)
			gc_die(GC_EXIT_DATA, "stdout: write error");
		free(text);
		free(e.b.p);
		gc_close_stdout();
	} else {
		gc_common c = {0};
		c.gzip = gzip;
		m.w = gc_open_output(&c, &h);
		content(&m);
		gc_close_output(m.w);
	}
	gc_header_free(&h);
}

/* The corpus base under a future minor version: a larger record size
 * (extra bytes a 1.0 reader skips), unknown optional flags.  Valid. */
static void make_future(enc *e)
{
	hdr h = {0};
	gc_kernel k;
	h.minor = 9;
	h.rsize = 40;
	h.optional = 0x80000003u;
	h.text = BASE_TEXT "future=yes\n";
	put_header(e, &h);
	size_t hs = e->b.len;
	base_kernel(&k, 1);
	put_kbegin(e, &k);
	gc_rec r = base_rec(GC_LOAD, 10);
	put_data(e, &r);
	r = base_rec(GC_STORE, 20);
	put_data(e, &r);
	put_kend(e, 1);
	put_end(e);
	for (unsigned n = 1; n <= e->nrec; n++)
		memset(rec_at(e, hs, n) + GC_RECORD_BASE, 0xa5, e->rs - GC_RECORD_BASE);
}

/* ===================================================================== */
/* read and dump: the corpus's reader                                     */
/* ===================================================================== */

static void dump_kernel(const gc_kernel *k)
{
	printf("kbegin %u name=%s grid=%u,%u,%u block=%u,%u,%u regs=%u shmem=%u attrs=",
	       k->id, k->name, k->grid[0], k->grid[1], k->grid[2], k->block[0], k->block[1],
	       k->block[2], k->regs, k->shmem);
	for (int i = 0; i < k->nattr; i++)
		printf("%s%u:%llu", i ? "," : "", k->attr_key[i], (unsigned long long)k->attr_val[i]);
	printf("\n");
}

static void dump_rec(const gc_header *h, const gc_rec *r)
{
	printf("%s %s flags=%u", gc_op_name(r->op), gc_space_name(r->space), r->flags);
	if (h->kind == GC_KIND_ACCESS) {
		printf(" lane=%u", r->lane);
	} else {
		char out[GC_OUTCOME_BUFSZ];
		gc_outcome_format(r->outcome, out, sizeof out);
		printf(" outcome=%s mask=0x%02x", *out ? out : "-", r->mask);
	}
	printf(" size=%u sm=%u warp=%u block=%u pc=0x%x seq=%u addr=0x%llx time=%llu kernel=%u\n",
	       r->size, r->sm, r->warp, r->block, r->pc, r->seq, (unsigned long long)r->addr,
	       (unsigned long long)r->time, r->kernel);
}

static int cmd_read(int argc, char **argv, int dump)
{
	gc_prog_init("gc-read-test", argc, argv);
	if (argc > 3)
		gc_usage_error("one input at most");
	gc_reader *r = gc_open_stream(argc == 3 ? argv[2] : "-");
	const gc_header *h = gc_reader_header(r);
	uint64_t ndata = 0, nkernels = 0;
	if (dump) {
		printf("header kind=%s version=%u.%u record_size=%u required=0x%x optional=0x%x\n",
		       gc_kind_name(h->kind), h->major, h->minor, h->record_size, h->required,
		       h->optional);
		for (int i = 0; i < h->nkv; i++)
			printf("text %s=%s\n", h->key[i], h->val[i]);
	}
	gc_rec rec;
	int ev;
	while ((ev = gc_read(r, &rec)) > 0) {
		if (ev == GC_DATA) {
			ndata++;
			if (dump)
				dump_rec(h, &rec);
		} else if (ev == GC_KBEGIN) {
			nkernels++;
			if (dump)
				dump_kernel(gc_reader_kernel(r));
		} else if (dump) {
			const gc_optab *t = gc_reader_opcodes(r);
			for (size_t i = 0; i < t->n; i++)
				printf("opcode pc=0x%x %s\n", t->e[i].pc, t->e[i].name);
			printf("kend %u\n", rec.kernel);
		}
	}
	if (ev == GC_ERR)
		gc_die(GC_EXIT_DATA, "%s", gc_reader_error(r));
	/* A verified end stays the end. */
	if (gc_read(r, &rec) != GC_EOF)
		gc_die(GC_EXIT_DATA, "gc_read after the end did not return GC_EOF");
	printf("records %llu data %llu kernels %llu\n", (unsigned long long)gc_reader_records(r),
	       (unsigned long long)ndata, (unsigned long long)nkernels);
	if (dump)
		printf("bytes %llu compressed %d\n", (unsigned long long)gc_reader_bytes(r),
		       gc_reader_compressed(r));
	gc_reader_close(r);
	gc_close_stdout();
	return 0;
}

/* ===================================================================== */

static void emit(const enc *e)
{
	if (e->b.len && fwrite(e->b.p, 1, e->b.len, stdout) != e->b.len)
		gc_die(GC_EXIT_DATA, "stdout: write error");
	gc_close_stdout();
}

int main(int argc, char **argv)
{
	if (argc >= 2 && (strcmp(argv[1], "read") == 0 || strcmp(argv[1], "dump") == 0))
		return cmd_read(argc, argv, argv[1][0] == 'd');
	gc_prog_init("gc-mkbad", argc, argv);
	int gzip = 0, hand = 0;
	const char *name = NULL;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
			fputs(usage_text, stdout);
			gc_close_stdout();
			return 0;
		} else if (strcmp(a, "-V") == 0 || strcmp(a, "--version") == 0) {
			printf("gc-mkbad (gc) %s\n", GC_VERSION_STRING);
			gc_close_stdout();
			return 0;
		} else if (strcmp(a, "--list") == 0) {
			for (size_t j = 0; j < NCORPUS; j++)
				printf("%s\t%s\n", corpus[j].name, corpus[j].message);
			gc_close_stdout();
			return 0;
		} else if (strcmp(a, "-z") == 0) {
			gzip = 1;
		} else if (strcmp(a, "--hand") == 0) {
			hand = 1;
		} else if (a[0] == '-') {
			gc_usage_error("unknown option '%s'", a);
		} else if (name) {
			gc_usage_error("one NAME at most (got '%s' and '%s')", name, a);
		} else {
			name = a;
		}
	}
	if (!name)
		gc_usage_error("a corpus member NAME is needed (see --list)");
	if (isatty(1))
		gc_die(GC_EXIT_USAGE, "refusing to write a binary stream to a terminal");
	if (strcmp(name, "good-access") == 0 || strcmp(name, "good-request") == 0) {
		make_good(name, gzip, hand);
		return 0;
	}
	if (gzip || hand)
		gc_usage_error("-z and --hand apply to good-access and good-request");
	enc e = {0};
	if (strcmp(name, "good-future") == 0) {
		make_future(&e);
	} else if (strcmp(name, "good-opcodes") == 0) {
		make_opcodes(&e);
	} else {
		size_t i;
		for (i = 0; i < NCORPUS; i++)
			if (strcmp(name, corpus[i].name) == 0)
				break;
		if (i == NCORPUS)
			gc_usage_error("no corpus member '%s' (see --list)", name);
		corpus[i].make(&e);
	}
	emit(&e);
	free(e.b.p);
	return 0;
}
