/*
 * gc-mkbad/mkbad.h - the encoder the corpus members are written with,
 * field by field from stream/format.h and gc-stream(5), independently of
 * lib/stream/stream.c's writer; the base stream every member starts from
 * (its offsets: main.c's table); the member table.
 */
#ifndef GC_MKBAD_H
#define GC_MKBAD_H

#include "base/endian.h"
#include "prog/prog.h"
#include "stream/stream.h"

#include <stddef.h>
#include <stdint.h>

typedef struct buf {
	unsigned char *p;
	size_t len, cap;
} buf;

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

#define BASE_TEXT "source=gc-mkbad test corpus\n"
#define BASE_HS 96
#define GZ_HEAD 10 /* magic, method, flags, mtime, xfl, os */
#define BASE_NAME "_Z13vector_add_kernelPKfS0_Pfi_v2" /* 33 bytes: 30 + 3 */

unsigned char *grow(buf *b, size_t n);
void append(buf *b, const void *p, size_t n);
void put_header(enc *e, const hdr *h);
unsigned char *rec_slot(enc *e);
void put_time(enc *e, uint64_t t);
void put_data(enc *e, const gc_rec *r);
void put_data_timed(enc *e, const gc_rec *r);
void put_kbegin_raw(enc *e, const gc_kernel *k, unsigned namelen, unsigned nattr);
void put_kattr(enc *e, uint16_t key, uint64_t val);
void put_kname(enc *e, unsigned len, const char *s, size_t n);
void put_kbegin(enc *e, const gc_kernel *k);
void put_kend_n(enc *e, uint32_t id, uint64_t count);
void put_kend(enc *e, uint32_t id);
void put_end_n(enc *e, uint64_t nrec, uint64_t ndata);
void put_end(enc *e);
unsigned char *rec_at(enc *e, size_t hs, unsigned n);
void gzip_in_place(enc *e);
void xz_in_place(enc *e);
void base_kernel(gc_kernel *k, uint32_t id);
gc_rec base_rec(int op, uint64_t time);
void base_header(enc *e);
void base_begin(enc *e);
void base(enc *e);
void cut(enc *e, size_t len);

/* A corpus member: valid but for one defect, and the message a reader
 * must give for it (after "PROG: stdin: "). */
struct mkbad_member {
	const char *name;
	void (*make)(enc *e);
	const char *message;
};
extern const struct mkbad_member mkbad_corpus[];
extern const size_t mkbad_ncorpus;
/* Valid: a kernel with opcode records (good-opcodes). */
void make_opcodes(enc *e);

#endif
