/*
 * stream.c - reading and writing gc streams (gc-stream(5)).
 *
 * Records are encoded field by field, little-endian, into and out of 1 MiB
 * blocks.  A reader checks the header in the order gc-stream(5) lists, and
 * while reading tells a record, a clean end (a verified end-of-stream
 * record) and an error naming the input, the record and its offset.
 */
#include "stream/stream.h"
#include "base/atomic.h"
#include "base/bits.h"
#include "base/endian.h"
#include "stream/input.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#define IOBUF GC_WRITE_BLOCK
/* A reader's buffer holds stream byte X at an address of X modulo
 * RALIGN (fill), for the copy of read(2): the file's page cache and a
 * pipe's pages hold it so. */
#define RALIGN 64
#define RBUF (IOBUF + GC_HEADER_MAX + GC_RECORD_MAX + RALIGN)
#define LOW32 UINT64_C(0xffffffff)
#define READ_CHUNK GC_READ_CHUNK

static const unsigned char magic[8] = {0x89, 'G', 'C', 'S', '\r', '\n', 0x1a, '\n'};

/* ===================================================================== */
/* Reading                                                                */
/* ===================================================================== */

struct gc_reader {
	gc_input *in;
	unsigned char *buf;
	size_t pos, len;  /* unread bytes are buf[pos..len) */
	int eof;          /* input exhausted */
	uint64_t off;     /* stream offset of buf[pos] */
	gc_header h;
	unsigned rs;      /* record size */
	int dist;         /* GC_OPT_DISTANCE: a distance at byte 32 */
	unsigned coff;    /* GC_OPT_COMPUTE: 40, the compute field's offset; else 0 */
	uint64_t cmask;   /* ... and all ones; else 0 (decode_data: no branch) */
	int failed, done;
	char err[600];
	uint64_t nrec, ndata, kdata;
	int in_kernel;    /* 0 outside, 1 in a kernel, 2 after its first opcode record */
	uint32_t kid;
	uint64_t time_hi, last_time;
	gc_kernel k;
	gc_optab ops;     /* the opcode records of the kernel open or last ended */
	uint32_t oplast;  /* the PC of the last opcode record */
	size_t chunk;     /* bytes a read(2) asks for: READ_CHUNK, or gc_reader_set_chunk's */
};

/* "NAME: message" into a handle's err[600] (the message cut to 400). */
__attribute__((format(printf, 3, 0)))
static void set_error(char err[600], const char *name, const char *fmt, va_list ap)
{
	char msg[400];
	vsnprintf(msg, sizeof msg, fmt, ap);
	snprintf(err, 600, "%s: %s", name, msg);
}

static int rfail(gc_reader *r, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	set_error(r->err, gc_input_name(r->in), fmt, ap);
	va_end(ap);
	r->failed = 1;
	return GC_ERR;
}

/* Error at the record being read (1-based index, its byte offset). */
static int recfail(gc_reader *r, uint64_t off, const char *fmt, ...)
{
	char msg[400];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	return rfail(r, "record %llu (offset %llu): %s",
		     (unsigned long long)(r->nrec + 1), (unsigned long long)off, msg);
}

/* Make at least `need` unread bytes available unless the input ends. */
static int fill(gc_reader *r, size_t need)
{
	if (r->len - r->pos >= need)
		return 0;
	/* The unread bytes go where the buffer's address is their stream
	 * offset modulo RALIGN, so that the reads after them copy between
	 * equally aligned addresses (a file read from offset 4 KiB on; a
	 * pipe's writer packs its pages): a copy to a misaligned
	 * destination took 12% more system time (gc-stats FILE). */
	size_t at = (size_t)(r->off % RALIGN);
	if (r->pos != at) {
		memmove(r->buf + at, r->buf + r->pos, r->len - r->pos);
		r->len = at + (r->len - r->pos);
		r->pos = at;
	}
	while (r->len - r->pos < need && !r->eof) {
		/* Reads of READ_CHUNK keep the block in the cache the records
		 * are checked from; a header asks for more at once. */
		size_t room = RBUF - r->len, want = need - (r->len - r->pos);
		size_t chunk = r->chunk ? r->chunk : READ_CHUNK;
		size_t cap = room < chunk || want > chunk ? room : chunk;
		ssize_t n = gc_input_read(r->in, r->buf + r->len, cap);
		if (n < 0) {
			r->failed = 1;
			snprintf(r->err, sizeof r->err, "%s", gc_input_error(r->in));
			return -1;
		}
		if (n == 0)
			r->eof = 1;
		r->len += (size_t)n;
	}
	return 0;
}

static int looks_like_text(const unsigned char *p, size_t n)
{
	if (n == 0)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (p[i] < 0x20 && p[i] != '\n' && p[i] != '\r' && p[i] != '\t')
			return 0;
		else if (p[i] == 0x7f)
			return 0;
	return 1;
}

static int parse_text(gc_reader *r, const unsigned char *p, size_t n)
{
	size_t i = 0;
	int line = 1;
	while (i < n) {
		const unsigned char *nl = memchr(p + i, '\n', n - i);
		if (!nl)
			return rfail(r, "header text line %d: no newline at the end", line);
		size_t l = (size_t)(nl - (p + i));
		char *s = malloc(l + 1);
		if (!s)
			return rfail(r, "out of memory");
		memcpy(s, p + i, l);
		s[l] = 0;
		char *eq = strchr(s, '=');
		if (!eq || memchr(s, 0, l)) {
			free(s);
			return rfail(r, "header text line %d: not key=value", line);
		}
		*eq = 0;
		if (gc_header_get(&r->h, s)) {
			int rc = rfail(r, "header text line %d: key '%s' repeated", line, s);
			free(s);
			return rc;
		}
		if (gc_header_set(&r->h, s, eq + 1) < 0) {
			int rc = rfail(r, "header text line %d: bad key '%s' (or more than %d keys)",
				       line, s, GC_KV_MAX);
			free(s);
			return rc;
		}
		free(s);
		i += l + 1;
		line++;
	}
	return 0;
}

static int read_header(gc_reader *r)
{
	if (fill(r, GC_HEADER_FIXED) < 0)
		return -1;
	const unsigned char *p = r->buf;
	size_t have = r->len;
	const char *codec = gc_input_codec(r->in);
	if (have == 0) {
		if (codec)
			return rfail(r, "empty input (after %s decompression)", codec);
		return rfail(r, "empty input");
	}
	if (have < GC_HEADER_FIXED)
		return rfail(r, "short header (%zu of %u bytes)%s", have, GC_HEADER_FIXED,
			     looks_like_text(p, have) ? ": this looks like text, not a gc stream" : "");
	if (memcmp(p, magic, 8) != 0) {
		/* Compressed data after decompression: compressed twice (the
		 * input layer takes off one layer only). */
		const char *inner = p[0] == 0x1f && p[1] == 0x8b ? "gzip"
			: memcmp(p, "\xfd" "7zXZ", 6) == 0 ? "xz" : NULL;
		if (inner)
			return rfail(r, "bad magic: %s inside %s (the input was compressed twice)",
				     inner, codec ? codec : "the input");
		if (looks_like_text(p, GC_HEADER_FIXED))
			return rfail(r, "bad magic: this looks like text, not a gc stream "
				     "(a trace file? gc-import reads traces)");
		return rfail(r, "bad magic: not a gc stream");
	}
	r->h.major = gc_get16(p + 8);
	r->h.minor = gc_get16(p + 10);
	uint32_t hs = gc_get32(p + 12);
	r->h.kind = gc_get16(p + 16);
	r->h.record_size = gc_get16(p + 18);
	r->h.required = gc_get32(p + 20);
	r->h.optional = gc_get32(p + 24);
	uint32_t tl = gc_get32(p + 28);
	if (r->h.major != GC_STREAM_MAJOR)
		return rfail(r, "unsupported major version %u (this reader reads %u.x)",
			     r->h.major, GC_STREAM_MAJOR);
	if (hs < GC_HEADER_FIXED || hs % 8 || hs > GC_HEADER_MAX || tl > hs - GC_HEADER_FIXED)
		return rfail(r, "bad header size %u (text %u bytes; must be a multiple of 8 "
			     "from 64 to %u holding the text)", hs, tl, GC_HEADER_MAX);
	if (r->h.kind < GC_KIND_ACCESS || r->h.kind > GC_KIND_DRAM)
		return rfail(r, "unknown record kind %u", r->h.kind);
	if (r->h.record_size < GC_RECORD_BASE || r->h.record_size > GC_RECORD_MAX ||
	    r->h.record_size % 8)
		return rfail(r, "bad record size %u for %s (expected %u)", r->h.record_size,
			     gc_kind_name(r->h.kind), GC_RECORD_BASE);
	if (r->h.required & ~GC_REQ_KNOWN)
		return rfail(r, "unknown required feature flag 0x%x (written by a newer version?)",
			     r->h.required & ~GC_REQ_KNOWN);
	if (fill(r, hs) < 0)
		return -1;
	p = r->buf;
	if (r->len < hs)
		return rfail(r, "short header (%zu of %u bytes)", r->len, hs);
	for (unsigned i = 32; i < GC_HEADER_FIXED; i++)
		if (p[i])
			return rfail(r, "non-zero reserved byte at header offset %u", i);
	for (unsigned i = GC_HEADER_FIXED + tl; i < hs; i++)
		if (p[i])
			return rfail(r, "non-zero reserved byte at header offset %u (padding)", i);
	if (parse_text(r, p + GC_HEADER_FIXED, tl) < 0)
		return -1;
	r->rs = r->h.record_size;
	r->dist = (r->h.optional & GC_OPT_DISTANCE) != 0;
	if (r->dist && r->rs < GC_RECORD_DISTANCE)
		return rfail(r, "the distance flag needs records of at least %u bytes, not %u",
			     GC_RECORD_DISTANCE, r->rs);
	if ((r->h.optional & GC_OPT_COMPUTE) && r->rs < GC_RECORD_COMPUTE)
		return rfail(r, "the compute flag needs records of at least %u bytes, not %u",
			     GC_RECORD_COMPUTE, r->rs);
	if (r->h.optional & GC_OPT_COMPUTE) {
		r->coff = 40;
		r->cmask = ~UINT64_C(0);
	}
	r->pos = hs;
	r->off = hs;
	return 0;
}

gc_reader *gc_reader_open(const char *path)
{
	gc_reader *r = calloc(1, sizeof *r);
	if (!r)
		return NULL;
	r->buf = aligned_alloc(RALIGN, RBUF);
	r->in = gc_input_open(path);
	if (!r->buf || !r->in) {
		gc_input_close(r->in);
		free(r->buf);
		free(r);
		return NULL;
	}
	if (gc_input_failed(r->in)) {
		r->failed = 1;
		snprintf(r->err, sizeof r->err, "%s", gc_input_error(r->in));
		return r;
	}
	read_header(r);
	return r;
}

/* Take the next encoded record; NULL with the error set at the end. */
static const unsigned char *next_raw(gc_reader *r, uint64_t *off, const char *what)
{
	if (r->len - r->pos < r->rs) {
		if (fill(r, r->rs) < 0)
			return NULL;
		size_t have = r->len - r->pos;
		if (have < r->rs) {
			if (have == 0)
				recfail(r, r->off, "missing %s (upstream stage failed or "
					"output was truncated)", what);
			else
				recfail(r, r->off, "truncated record (%zu of %u bytes)", have, r->rs);
			return NULL;
		}
	}
	const unsigned char *p = r->buf + r->pos;
	*off = r->off;
	r->pos += r->rs;
	r->off += r->rs;
	return p;
}

static int read_kernel(gc_reader *r, const unsigned char *p, uint64_t off)
{
	gc_kernel *k = &r->k;
	if (r->in_kernel)
		return recfail(r, off, "kernel %u begins before kernel %u ended", gc_get32(p + 4), r->kid);
	unsigned namelen = gc_get16(p + 2), nattr = gc_get16(p + 28);
	gc_kernel_init(k, gc_get32(p + 4), NULL);
	k->grid[0] = gc_get32(p + 8);
	k->grid[1] = gc_get16(p + 12);
	k->grid[2] = gc_get16(p + 14);
	k->block[0] = gc_get16(p + 16);
	k->block[1] = gc_get16(p + 18);
	k->block[2] = gc_get16(p + 20);
	k->regs = gc_get16(p + 22);
	k->shmem = gc_get32(p + 24);
	if (namelen > GC_NAME_MAX)
		return recfail(r, off, "kernel name length %u exceeds %u", namelen, GC_NAME_MAX);
	if (nattr > GC_ATTR_MAX)
		return recfail(r, off, "%u kernel attributes exceed %u", nattr, GC_ATTR_MAX);
	r->nrec++;
	for (unsigned i = 0; i < nattr; i++) {
		const unsigned char *q = next_raw(r, &off, "kernel attribute record");
		if (!q)
			return GC_ERR;
		if (q[0] != GC_T_KATTR)
			return recfail(r, off, "kernel attribute record expected (%u of %u), found type 0x%02x",
				       i + 1, nattr, q[0]);
		k->attr_key[i] = gc_get16(q + 2);
		k->attr_val[i] = gc_get64(q + 8);
		k->nattr++;
		r->nrec++;
	}
	for (unsigned got = 0; got < namelen;) {
		const unsigned char *q = next_raw(r, &off, "kernel name record");
		if (!q)
			return GC_ERR;
		unsigned want = namelen - got < GC_NAME_CHUNK ? namelen - got : GC_NAME_CHUNK;
		if (q[0] != GC_T_KNAME)
			return recfail(r, off, "kernel name record expected, found type 0x%02x", q[0]);
		if (q[1] != want)
			return recfail(r, off, "kernel name record holds %u bytes, expected %u", q[1], want);
		if (memchr(q + 2, 0, want))
			return recfail(r, off, "kernel name contains a NUL byte");
		memcpy(k->name + got, q + 2, want);
		got += want;
		r->nrec++;
	}
	k->name[namelen] = 0;
	gc_optab_clear(&r->ops);
	r->in_kernel = 1;
	r->kid = k->id;
	r->kdata = 0;
	return GC_KBEGIN;
}

/* Why a data record is refused; data_refused words it. */
enum { D_OK, D_OUTSIDE, D_SPACE, D_SIZE, D_TIME };

/*
 * Decode data record p (type GC_LOAD to GC_ATOMIC) into rec, the clock's
 * high half time_hi, the previous record at last_time: D_OK, or the first
 * check it fails (rec is filled either way).  The reader does not change:
 * the caller counts the record.  Shared by gc_read and gc_read_data, whose
 * loop keeps the clock in registers.  The checks come last, in one test
 * of the common case.
 */
static inline int decode_data(const gc_reader *r, const unsigned char *p, uint64_t time_hi,
			      uint64_t last_time, gc_rec *rec)
{
	uint64_t a = gc_get64(p + 24);
	unsigned space = p[1] & 15;
	int access = r->h.kind == GC_KIND_ACCESS;
	rec->op = p[0];
	rec->space = (uint8_t)space;
	rec->flags = p[1] >> 4;
	if (access) {
		rec->lane = p[2];
		rec->size = p[3];
		rec->outcome = 0;
		rec->mask = 0;
		rec->addr = a;
	} else {
		rec->outcome = p[2];
		rec->mask = p[3];
		rec->lane = 0;
		rec->addr = a & GC_ADDR48_MAX;
		rec->size = (uint16_t)(a >> 48);
	}
	rec->sm = gc_get16(p + 4);
	rec->warp = gc_get16(p + 6);
	rec->block = gc_get32(p + 8);
	rec->pc = gc_get32(p + 12);
	rec->seq = gc_get32(p + 16);
	rec->time = time_hi | gc_get32(p + 20);
	rec->dist = r->dist ? gc_get64(p + 32) : GC_DIST_NONE;
	/* Without the flag, bytes 0-7 masked to 0: a load, no branch. */
	rec->compute = gc_get64(p + r->coff) & r->cmask;
	rec->kernel = r->kid;
	if (r->in_kernel == 1 && space < GC_NSPACES && !(access && rec->size == 0) &&
	    rec->time >= last_time)
		return D_OK;
	return r->in_kernel != 1 ? D_OUTSIDE : space >= GC_NSPACES ? D_SPACE
		: access && rec->size == 0 ? D_SIZE : D_TIME;
}

/* The error for data record rec at offset off, refused for `why`. */
static int data_refused(gc_reader *r, uint64_t off, const gc_rec *rec, int why)
{
	switch (why) {
	case D_OUTSIDE:
		return recfail(r, off, r->in_kernel ? "data record after the kernel's opcode records"
				       : "data record outside a kernel");
	case D_SPACE:
		return recfail(r, off, "bad memory space %u", rec->space);
	case D_SIZE:
		return recfail(r, off, "access size 0 (an access has 1 to 255 bytes)");
	}
	return recfail(r, off, "timestamp %llu is earlier than the previous record's %llu",
		       (unsigned long long)rec->time, (unsigned long long)r->last_time);
}

/* An opcode record p at off, and its continuation when the name needs
 * one, into r->ops (gc-stream(5) "Opcode records"). */
static int read_opcode(gc_reader *r, const unsigned char *p, uint64_t off)
{
	unsigned len = p[1];
	uint32_t pc = gc_get32(p + 4);
	char name[GC_OPCODE_MAX];
	if (!(r->h.required & GC_REQ_OPCODES))
		return recfail(r, off, "opcode record in a stream without the opcodes flag "
			       "(required flag 0x%x)", GC_REQ_OPCODES);
	if (!r->in_kernel)
		return recfail(r, off, "opcode record outside a kernel");
	if (len == 0 || len > GC_OPCODE_MAX)
		return recfail(r, off, "opcode name length %u (1 to %u bytes)", len, GC_OPCODE_MAX);
	if (r->in_kernel == 2 && pc <= r->oplast)
		return recfail(r, off, "opcode record for PC 0x%x after PC 0x%x (PCs increase "
			       "within a kernel)", pc, r->oplast);
	unsigned first = len < GC_OPCODE_FIRST ? len : GC_OPCODE_FIRST;
	memcpy(name, p + 8, first);
	if (memchr(name, 0, first))
		return recfail(r, off, "opcode name contains a NUL byte");
	r->nrec++;
	if (len > first) {
		const unsigned char *q = next_raw(r, &off, "opcode continuation record");
		if (!q)
			return GC_ERR;
		if (q[0] != GC_T_OPMORE)
			return recfail(r, off, "opcode continuation record expected, found type 0x%02x",
				       q[0]);
		if (q[1] != len - first)
			return recfail(r, off, "opcode continuation record holds %u bytes, expected %u",
				       q[1], len - first);
		memcpy(name + first, q + 2, len - first);
		if (memchr(name + first, 0, len - first))
			return recfail(r, off, "opcode name contains a NUL byte");
		r->nrec++;
	}
	if (gc_optab_set(&r->ops, pc, name, len) < 0)
		return recfail(r, off, "out of memory");
	r->in_kernel = 2;
	r->oplast = pc;
	return 0;
}

int gc_read(gc_reader *r, gc_rec *rec)
{
	if (r->failed)
		return GC_ERR;
	if (r->done)
		return GC_EOF;
	uint64_t off;
	const unsigned char *p;
	unsigned t;
	/* Time-base records only set the high half of the clock; opcode
	 * records fill the kernel's table (both come back here). */
again:
	for (;;) {
		if (r->len - r->pos >= r->rs) {
			/* next_raw's common case, inline: the hot path */
			p = r->buf + r->pos;
			off = r->off;
			r->pos += r->rs;
			r->off += r->rs;
		} else if (!(p = next_raw(r, &off, "end-of-stream record"))) {
			return GC_ERR;
		}
		if ((t = p[0]) != GC_T_TIME)
			break;
		uint64_t tm = gc_get64(p + 8);
		if (tm < r->last_time)
			return recfail(r, off, "time base %llu is earlier than the previous record's %llu",
				       (unsigned long long)tm, (unsigned long long)r->last_time);
		r->time_hi = tm & ~LOW32;
		r->nrec++;
	}
	if (t >= GC_LOAD && t <= GC_ATOMIC) {
		int why = decode_data(r, p, r->time_hi, r->last_time, rec);
		if (why != D_OK)
			return data_refused(r, off, rec, why);
		r->last_time = rec->time;
		r->nrec++;
		r->ndata++;
		r->kdata++;
		return GC_DATA;
	}
	switch (t) {
	case GC_T_KBEGIN: {
		int rc = read_kernel(r, p, off);
		if (rc == GC_KBEGIN)
			rec->kernel = r->k.id;
		return rc;
	}
	case GC_T_KEND: {
		uint32_t id = gc_get32(p + 4);
		uint64_t n = gc_get64(p + 8);
		if (!r->in_kernel)
			return recfail(r, off, "kernel %u ends but no kernel began", id);
		if (id != r->kid)
			return recfail(r, off, "kernel %u ends while kernel %u is open", id, r->kid);
		if (n != r->kdata)
			return recfail(r, off, "count mismatch: kernel %u end record says %llu data "
				       "records, the stream holds %llu", id, (unsigned long long)n,
				       (unsigned long long)r->kdata);
		r->in_kernel = 0;
		r->nrec++;
		rec->kernel = id;
		return GC_KEND;
	}
	case GC_T_END: {
		uint64_t n = gc_get64(p + 8), d = gc_get64(p + 16);
		if (r->in_kernel)
			return recfail(r, off, "stream ends inside kernel %u (its end record is missing)", r->kid);
		if (n != r->nrec || d != r->ndata)
			return recfail(r, off, "count mismatch: end-of-stream record says %llu records "
				       "(%llu data), the stream holds %llu (%llu data)",
				       (unsigned long long)n, (unsigned long long)d,
				       (unsigned long long)r->nrec, (unsigned long long)r->ndata);
		if (fill(r, 1) < 0)
			return GC_ERR;
		if (r->len > r->pos) {
			r->nrec++;
			return recfail(r, r->off, "data after the end-of-stream record");
		}
		r->done = 1;
		return GC_EOF;
	}
	case GC_T_OPCODE:
		if (read_opcode(r, p, off) < 0)
			return GC_ERR;
		goto again;
	case GC_T_OPMORE:
		return recfail(r, off, "opcode continuation record outside an opcode record");
	case GC_T_KATTR:
	case GC_T_KNAME:
		return recfail(r, off, "kernel %s record outside a kernel begin",
			       t == GC_T_KATTR ? "attribute" : "name");
	}
	return recfail(r, off, "unknown record type 0x%02x", t);
}

/*
 * The head of the block for gc_read_block: a time-base record there is
 * taken first (when it is in order), one later ends the run checked; 0
 * when the next record is anything but a data record of the open kernel
 * (a kernel or end record, the end of the input, an error): gc_read
 * takes it next.  Otherwise the whole records buffered (up to max), as
 * they lie, and what their checks start from in *b.
 */
static size_t block_head(gc_reader *r, size_t max, gc_block *b)
{
	if (r->failed || r->done || r->in_kernel != 1)
		return 0;
	size_t rs = r->rs;
	for (;;) {
		if (r->len - r->pos < rs && (fill(r, rs) < 0 || r->len - r->pos < rs))
			return 0; /* an error or the end: gc_read reports it */
		const unsigned char *p = r->buf + r->pos;
		if (p[0] != GC_T_TIME)
			break;
		uint64_t tm = gc_get64(p + 8);
		if (tm < r->last_time)
			return 0;
		r->time_hi = tm & ~LOW32;
		r->pos += rs;
		r->off += rs;
		r->nrec++;
	}
	size_t avail = (r->len - r->pos) / rs;
	b->p = r->buf + r->pos;
	b->n = avail < max ? avail : max;
	b->time_hi = r->time_hi;
	/* A record's time is time_hi | its low half; with the previous one's
	 * high half below time_hi, any low half is in order. */
	b->low = r->time_hi > r->last_time ? 0 : (uint32_t)r->last_time;
	int access = r->h.kind == GC_KIND_ACCESS;
	b->word_mask = access ? GC_WORD_ACCESS : GC_WORD_OTHER;
	b->word_min = access ? UINT32_C(1) << 24 : 0;
	return b->n;
}

size_t gc_read_block(gc_reader *r, size_t max, gc_block *b)
{
	if (!block_head(r, max, b)) {
		b->p = NULL;
		b->n = 0;
		b->time_hi = r->time_hi;
		b->low = 0;
		b->word_mask = GC_WORD_ACCESS;
		b->word_min = UINT32_C(1) << 24;
	}
	return b->n;
}

void gc_read_take(gc_reader *r, size_t n, uint32_t low)
{
	if (!n)
		return;
	size_t rs = r->rs;
	r->pos += n * rs;
	r->off += n * rs;
	r->nrec += n;
	r->ndata += n;
	r->kdata += n;
	r->last_time = r->time_hi | low;
}

/* The records of [p, end), rs bytes apart, that pass gc_read's checks
 * (gc_word_ok on a change of the checked word, the clock on each), from the clock's low half *low on: how many; *low the last
 * one's. */
static inline __attribute__((always_inline)) size_t
check_run(const unsigned char *p, const unsigned char *end, size_t rs, uint32_t mask,
	  uint32_t min, uint32_t *low)
{
	const unsigned char *start = p;
	uint32_t last = GC_WORD_NONE, lo = *low;
	for (; p < end; p += rs) {
		uint32_t w = gc_get32(p) & mask, t = gc_get32(p + 20);
		/* each test its own branch: taken only at the run's end */
		if (w != last) {
			if (!gc_word_ok(w, min))
				break;
			last = w;
		}
		if (t < lo)
			break;
		lo = t;
	}
	*low = lo;
	return (size_t)(p - start) / rs;
}

/*
 * The plain data records at the head of the block, up to max: how many
 * pass every check gc_read makes, scanned in one tight loop over the
 * encoded bytes.  The records are taken: counted and the clock set as
 * gc_read leaves them.  0 when the next record is anything else (a
 * kernel or end record, the end of the input, an error, a record gc_read
 * refuses): gc_read takes it next.
 */
static size_t scan_data(gc_reader *r, size_t max)
{
	gc_block b;
	if (!block_head(r, max, &b))
		return 0;
	uint32_t low = b.low;
	const unsigned char *end = b.p + b.n * r->rs;
	size_t n = r->rs == GC_RECORD_BASE
		? check_run(b.p, end, GC_RECORD_BASE, b.word_mask, b.word_min, &low)
		: check_run(b.p, end, r->rs, b.word_mask, b.word_min, &low);
	gc_read_take(r, n, low);
	return n;
}

const unsigned char *gc_read_raw(gc_reader *r, size_t max, size_t *n, uint64_t *time_hi)
{
	*n = scan_data(r, max);
	*time_hi = r->time_hi;
	return *n ? r->buf + r->pos - *n * r->rs : NULL;
}

void gc_reader_decode(const gc_reader *r, const unsigned char *p, uint64_t time_hi, gc_rec *rec)
{
	(void)decode_data(r, p, time_hi, 0, rec);
}

size_t gc_read_data(gc_reader *r, gc_rec *recs, uint64_t *nums, size_t max)
{
	size_t n = 0;
	while (n < max) {
		size_t k = scan_data(r, max - n);
		if (!k)
			break; /* not a plain data record: gc_read's */
		const unsigned char *p = r->buf + r->pos - k * r->rs;
		uint64_t first = r->nrec - k; /* time-base records taken come before */
		uint64_t hi = r->time_hi;
		for (size_t i = 0; i < k; i++, p += r->rs) {
			(void)decode_data(r, p, hi, 0, &recs[n + i]);
			if (nums)
				nums[n + i] = first + i + 1;
		}
		n += k;
	}
	return n;
}

int gc_reader_failed(const gc_reader *r) { return r->failed; }
const gc_header *gc_reader_header(const gc_reader *r) { return &r->h; }
const char *gc_reader_name(const gc_reader *r) { return gc_input_name(r->in); }
const gc_kernel *gc_reader_kernel(const gc_reader *r) { return &r->k; }
const gc_optab *gc_reader_opcodes(const gc_reader *r) { return &r->ops; }
const char *gc_reader_error(const gc_reader *r) { return r->err; }
uint64_t gc_reader_records(const gc_reader *r) { return r->nrec; }
uint64_t gc_reader_bytes(const gc_reader *r) { return r->off; }
int gc_reader_compressed(const gc_reader *r) { return gc_input_compressed(r->in); }
uint64_t gc_reader_raw_bytes(const gc_reader *r) { return gc_input_consumed(r->in); }
uint64_t gc_reader_raw_size(const gc_reader *r) { return gc_input_size(r->in); }

void gc_reader_set_chunk(gc_reader *r, size_t bytes)
{
	r->chunk = bytes < GC_READ_CHUNK ? GC_READ_CHUNK : bytes > IOBUF ? IOBUF : bytes;
}

void gc_reader_close(gc_reader *r)
{
	if (!r)
		return;
	gc_input_close(r->in);
	gc_header_free(&r->h);
	gc_optab_free(&r->ops);
	free(r->buf);
	free(r);
}

/* ===================================================================== */
/* Writing                                                                */
/* ===================================================================== */

struct gc_writer {
	char name[256];
	int fd, own;
	int gz;
	z_stream z;
	unsigned char *zout;
	unsigned char *buf;
	size_t len;
	int kind;
	unsigned rs;
	int dist;         /* GC_OPT_DISTANCE: rec->dist at byte 32 */
	int compute;      /* GC_OPT_COMPUTE: rec->compute at byte 40 */
	uint64_t nrec, ndata, kdata;
	int in_kernel;    /* 0 outside, 1 in a kernel, 2 after its opcode records */
	uint32_t kid;
	uint32_t oplast;  /* the PC of the last opcode record */
	int opcodes;      /* GC_REQ_OPCODES: opcode records may be written */
	uint64_t time_hi, last_time;
	int failed;
	int closed;       /* gc_writer_close succeeded */
	char err[600];
};

static int wfail(gc_writer *w, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	set_error(w->err, w->name, fmt, ap);
	va_end(ap);
	w->failed = 1;
	return -1;
}

static int write_all(gc_writer *w, const unsigned char *p, size_t n)
{
	while (n) {
		ssize_t k = write(w->fd, p, n);
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0)
			return wfail(w, "write error: %s", strerror(errno));
		p += k;
		n -= (size_t)k;
	}
	return 0;
}

static int flush_buf(gc_writer *w, int finish)
{
	if (!w->gz) {
		int rc = write_all(w, w->buf, w->len);
		w->len = 0;
		return rc;
	}
	w->z.next_in = w->buf;
	w->z.avail_in = (uInt)w->len;
	for (;;) {
		w->z.next_out = w->zout;
		w->z.avail_out = IOBUF;
		int rc = deflate(&w->z, finish ? Z_FINISH : Z_NO_FLUSH);
		if (rc == Z_STREAM_ERROR)
			return wfail(w, "gzip compression failed");
		if (write_all(w, w->zout, IOBUF - w->z.avail_out) < 0)
			return -1;
		if (finish ? rc == Z_STREAM_END : w->z.avail_in == 0 && w->z.avail_out != 0)
			break;
	}
	w->len = 0;
	return 0;
}

/* Room for one control record, all zero: fields not set stay reserved. */
static unsigned char *slot(gc_writer *w)
{
	if (w->len + w->rs > IOBUF && flush_buf(w, 0) < 0)
		return NULL;
	unsigned char *p = w->buf + w->len;
	memset(p, 0, w->rs);
	w->len += w->rs;
	w->nrec++;
	return p;
}

gc_writer *gc_writer_open(const char *path, const gc_header *h, int flags)
{
	gc_writer *w = calloc(1, sizeof *w);
	if (!w)
		return NULL;
	w->buf = malloc(IOBUF + GC_HEADER_MAX);
	if (!w->buf) {
		free(w);
		return NULL;
	}
	w->kind = h->kind;
	w->rs = h->record_size;
	w->dist = (h->optional & GC_OPT_DISTANCE) != 0;
	w->compute = (h->optional & GC_OPT_COMPUTE) != 0;
	w->opcodes = (h->required & GC_REQ_OPCODES) != 0;
	w->fd = -1;
	snprintf(w->name, sizeof w->name, "%s", !path || strcmp(path, "-") == 0 ? "stdout" : path);
	/* The header asked for must be one this writer can honour; checked
	 * before the output is opened, so a file is not truncated for nothing. */
	if (h->kind < GC_KIND_ACCESS || h->kind > GC_KIND_DRAM) {
		wfail(w, "cannot write record kind %u (a bug in this tool)", h->kind);
		return w;
	}
	if (h->record_size < GC_RECORD_BASE || h->record_size > GC_RECORD_MAX ||
	    h->record_size % 8) {
		wfail(w, "cannot write record size %u (a multiple of 8 from %u to %u; "
		      "a bug in this tool)", h->record_size, GC_RECORD_BASE, GC_RECORD_MAX);
		return w;
	}
	if (w->dist && h->record_size < GC_RECORD_DISTANCE) {
		wfail(w, "cannot write distances in %u-byte records (a bug in this tool)",
		      h->record_size);
		return w;
	}
	if (w->compute && h->record_size < GC_RECORD_COMPUTE) {
		wfail(w, "cannot write compute fields in %u-byte records (a bug in this tool)",
		      h->record_size);
		return w;
	}
	if (h->required & ~GC_REQ_KNOWN) {
		wfail(w, "cannot write unknown required feature flag 0x%x (a bug in this tool)",
		      h->required & ~GC_REQ_KNOWN);
		return w;
	}
	if (!path || strcmp(path, "-") == 0) {
		w->fd = 1;
	} else {
		w->fd = gc_atomic_open(path); /* renamed to path by gc_writer_close */
		if (w->fd < 0) {
			wfail(w, "%s", strerror(errno));
			return w;
		}
		w->own = 1;
	}
	if (isatty(w->fd) && !(flags & GC_W_FORCE)) {
		wfail(w, "refusing to write a binary stream to a terminal "
		      "(redirect it, pipe it, use -o FILE, or --force)");
		return w;
	}
	gc_fd_tune(w->fd);
	if (flags & GC_W_GZIP) {
		w->zout = malloc(IOBUF);
		if (!w->zout || deflateInit2(&w->z, 1, Z_DEFLATED, 15 + 16, 8,
					     Z_DEFAULT_STRATEGY) != Z_OK) {
			wfail(w, "cannot start gzip compression");
			return w;
		}
		w->gz = 1;
	}
	size_t tl;
	char *text = gc_header_text(h, &tl);
	if (!text) {
		wfail(w, "out of memory");
		return w;
	}
	size_t hs = (GC_HEADER_FIXED + tl + 7) & ~(size_t)7;
	if (hs > GC_HEADER_MAX) {
		free(text);
		wfail(w, "header text too long (%zu bytes)", tl);
		return w;
	}
	unsigned char *p = w->buf;
	memset(p, 0, hs);
	memcpy(p, magic, 8);
	gc_put16(p + 8, GC_STREAM_MAJOR);
	gc_put16(p + 10, gc_header_minor(h));
	gc_put32(p + 12, (uint32_t)hs);
	gc_put16(p + 16, h->kind);
	gc_put16(p + 18, (uint16_t)w->rs);
	gc_put32(p + 20, h->required);
	gc_put32(p + 24, h->optional);
	gc_put32(p + 28, (uint32_t)tl);
	memcpy(p + GC_HEADER_FIXED, text, tl);
	free(text);
	w->len = hs;
	return w;
}

/* Why gc_write refuses rec, its checks in their order: the cold path. */
static int write_refused(gc_writer *w, const gc_rec *rec)
{
	uint64_t rn = w->nrec + 1;
	if (w->failed)
		return -1;
	if (w->in_kernel != 1)
		return wfail(w, "record %llu: data record %s (a bug in this tool)",
			     (unsigned long long)rn, w->in_kernel ? "after the kernel's opcode records"
								  : "outside a kernel");
	if (rec->time < w->last_time)
		return wfail(w, "record %llu: timestamp %llu is earlier than the previous "
			     "record's %llu (a bug in this tool)", (unsigned long long)rn,
			     (unsigned long long)rec->time, (unsigned long long)w->last_time);
	if (rec->op < GC_LOAD || rec->op > GC_ATOMIC || rec->space >= GC_NSPACES || rec->flags > 15)
		return wfail(w, "record %llu: bad operation, space or flags (a bug in this tool)",
			     (unsigned long long)rn);
	return wfail(w, "record %llu: %s out of range for %s", (unsigned long long)rn,
		     w->kind == GC_KIND_ACCESS ? "access size" : "line address beyond 48 bits",
		     gc_kind_name(w->kind));
}

/* A time-base record: the high half of the clock becomes time's. */
static int write_time(gc_writer *w, uint64_t time)
{
	unsigned char *q = slot(w);
	if (!q)
		return -1;
	q[0] = GC_T_TIME;
	gc_put64(q + 8, time);
	w->time_hi = time & ~LOW32;
	return 0;
}

/*
 * Data record rec, checked, encoded at p (a stream of that kind): its
 * first 32 bytes, four little-endian words: op, space and flags, lane and
 * size (accesses) or outcome and mask (requests), sm, warp; block, pc;
 * seq, the clock's low half; the address (with the size above bit 48 in
 * requests).  The bytes of a larger record size are the caller's.
 */
static inline void encode_at(unsigned char *p, int kind, const gc_rec *rec)
{
	uint64_t w0 = rec->op | (uint64_t)(rec->space | rec->flags << 4) << 8 |
		      (uint64_t)rec->sm << 32 | (uint64_t)rec->warp << 48;
	if (kind == GC_KIND_ACCESS) {
		w0 |= (uint64_t)rec->lane << 16 | (uint64_t)(rec->size & 0xff) << 24;
		gc_put64(p + 24, rec->addr);
	} else {
		w0 |= (uint64_t)rec->outcome << 16 | (uint64_t)rec->mask << 24;
		gc_put64(p + 24, rec->addr | (uint64_t)rec->size << 48);
	}
	gc_put64(p, w0);
	gc_put64(p + 8, rec->block | (uint64_t)rec->pc << 32);
	gc_put64(p + 16, rec->seq | (uint64_t)(uint32_t)rec->time << 32);
}

/* encode_at the block's end, and counted. */
static inline void encode_data(gc_writer *w, const gc_rec *rec)
{
	encode_at(w->buf + w->len, w->kind, rec);
	w->len += w->rs;
	w->nrec++;
	w->ndata++;
	w->kdata++;
	w->last_time = rec->time;
}

/* gc_write's rare cases, kept out of line so that the common one saves
 * no registers: a time-base record first, a full block flushed, records
 * larger than 32 bytes (a distance, a compute field, or reserved bytes
 * cleared). */
__attribute__((noinline)) static int write_slow(gc_writer *w, const gc_rec *rec)
{
	if ((rec->time & ~LOW32) != w->time_hi && write_time(w, rec->time) < 0)
		return -1;
	if (w->len + w->rs > IOBUF && flush_buf(w, 0) < 0)
		return -1;
	unsigned char *p = w->buf + w->len;
	encode_data(w, rec);
	if (w->rs > GC_RECORD_BASE) {
		memset(p + GC_RECORD_BASE, 0, w->rs - GC_RECORD_BASE);
		if (w->dist)
			gc_put64(p + 32, rec->dist);
		if (w->compute)
			gc_put64(p + 40, rec->compute);
	}
	return 0;
}

int gc_write(gc_writer *w, const gc_rec *rec)
{
	/* Every check in one test; write_refused says which failed first. */
	if (w->failed || w->in_kernel != 1 || rec->time < w->last_time ||
	    rec->op < GC_LOAD || rec->op > GC_ATOMIC || rec->space >= GC_NSPACES ||
	    rec->flags > 15 ||
	    (w->kind == GC_KIND_ACCESS ? rec->size > 255 || rec->size == 0
				       : rec->addr > GC_ADDR48_MAX))
		return write_refused(w, rec);
	if ((rec->time & ~LOW32) != w->time_hi || w->len + w->rs > IOBUF ||
	    w->rs > GC_RECORD_BASE)
		return write_slow(w, rec);
	encode_data(w, rec);
	return 0;
}

/*
 * n data records as gc_read_raw gives them, passed on as gc_write would
 * write each one decoded: the same bytes (a request's size above bit 48,
 * the address below, time-base records where the clock's high half
 * changes), the distance and compute fields kept as the header has them
 * and the other bytes past the first 32 cleared.  The reader's checks
 * hold for them (their kind and record size are the writer's, one run
 * of one time base, in time order); the writer's own order is checked.
 */
/* gc_write_raw, and with `issued` gc_write_issued: each record's SM
 * (bytes 4-5) set to sm and its clock to time (time_hi its high half) in
 * the block, after the copy. */
static inline __attribute__((always_inline)) int
write_raw(gc_writer *w, const unsigned char *p, size_t n, uint64_t time_hi, int issued,
	  uint16_t sm, uint64_t time)
{
	size_t rs = w->rs;
	if (w->failed)
		return -1;
	if (!n)
		return 0;
	gc_rec first = {.op = p[0], .time = issued ? time : time_hi | gc_get32(p + 20)};
	if (w->in_kernel != 1 || first.time < w->last_time)
		return write_refused(w, &first);
	if (time_hi != w->time_hi && write_time(w, first.time) < 0)
		return -1;
	w->ndata += n;
	w->kdata += n;
	w->last_time = issued ? time : time_hi | gc_get32(p + (n - 1) * rs + 20);
	while (n) {
		if (w->len + rs > IOBUF && flush_buf(w, 0) < 0)
			return -1;
		size_t k = (IOBUF - w->len) / rs;
		if (k > n)
			k = n;
		unsigned char *q = w->buf + w->len;
		memcpy(q, p, k * rs);
		for (size_t i = 0; issued && i < k; i++) {
			gc_put16(q + i * rs + 4, sm);
			gc_put32(q + i * rs + 20, (uint32_t)time);
		}
		for (size_t i = 0; rs > GC_RECORD_BASE && i < k; i++, q += rs) {
			/* as write_slow fills them */
			uint64_t dist = gc_get64(q + 32), compute = w->compute ? gc_get64(q + 40) : 0;
			memset(q + GC_RECORD_BASE, 0, rs - GC_RECORD_BASE);
			if (w->dist)
				gc_put64(q + 32, dist);
			if (w->compute)
				gc_put64(q + 40, compute);
		}
		w->len += k * rs;
		w->nrec += k;
		p += k * rs;
		n -= k;
	}
	return 0;
}

int gc_write_raw(gc_writer *w, const unsigned char *p, size_t n, uint64_t time_hi)
{
	return write_raw(w, p, n, time_hi, 0, 0, 0);
}

int gc_write_issued(gc_writer *w, const unsigned char *p, size_t n, unsigned sm, uint64_t time)
{
	return write_raw(w, p, n, time & ~LOW32, 1, (uint16_t)sm, time);
}

int gc_write_lanes(gc_writer *w, const gc_rec *rec, uint32_t mask, const uint64_t *addr,
		   uint64_t stride)
{
	size_t n = gc_popcount32(mask);
	/* Encoded straight into the block when every record passes
	 * gc_write's checks, needs no time-base record and fits the block as
	 * 32 bytes; else through gc_write one at a time, so that a refusal
	 * names the record it would have. */
	int direct = !w->failed && w->in_kernel == 1 && rec->time >= w->last_time &&
		     rec->op >= GC_LOAD && rec->op <= GC_ATOMIC && rec->space < GC_NSPACES &&
		     rec->flags <= 15 && w->kind == GC_KIND_ACCESS && rec->size <= 255 &&
		     rec->size != 0 && w->rs == GC_RECORD_BASE &&
		     (rec->time & ~LOW32) == w->time_hi && w->len + n * GC_RECORD_BASE <= IOBUF;
	if (!direct) {
		gc_rec r = *rec;
		for (uint64_t k = 0; mask; mask &= mask - 1, k++) {
			unsigned lane = (unsigned)__builtin_ctz(mask);
			r.lane = (uint8_t)lane;
			r.addr = addr ? addr[lane] : rec->addr + k * stride;
			if (gc_write(w, &r) < 0)
				return -1;
		}
		return 0;
	}
	/* The record encoded once, its words kept in registers; each lane
	 * changes only its lane byte (bits 16-23 of the first word) and its
	 * address (a char store could alias rec, so its fields would be
	 * loaded again for every lane). */
	unsigned char t[GC_RECORD_BASE];
	gc_rec r = *rec;
	r.lane = 0;
	encode_at(t, GC_KIND_ACCESS, &r);
	uint64_t w0 = gc_get64(t), w1 = gc_get64(t + 8), w2 = gc_get64(t + 16);
	unsigned char *p = w->buf + w->len;
	uint64_t a = rec->addr;
	for (; mask; mask &= mask - 1, p += GC_RECORD_BASE) {
		unsigned lane = (unsigned)__builtin_ctz(mask);
		gc_put64(p, w0 | (uint64_t)lane << 16);
		gc_put64(p + 8, w1);
		gc_put64(p + 16, w2);
		gc_put64(p + 24, addr ? addr[lane] : a);
		a += stride;
	}
	w->len += n * GC_RECORD_BASE;
	w->nrec += n;
	w->ndata += n;
	w->kdata += n;
	w->last_time = rec->time;
	return 0;
}

int gc_write_kbegin(gc_writer *w, const gc_kernel *k)
{
	if (w->failed)
		return -1;
	if (w->in_kernel)
		return wfail(w, "kernel %u begins before kernel %u ended (a bug in this tool)",
			     k->id, w->kid);
	size_t nl = strlen(k->name);
	if (nl > GC_NAME_MAX || k->nattr < 0 || k->nattr > GC_ATTR_MAX)
		return wfail(w, "kernel %u: name or attributes too long", k->id);
	/* CUDA's limits, and the record's 16-bit fields. */
	if (k->grid[1] > 65535 || k->grid[2] > 65535)
		return wfail(w, "kernel %u: grid %u,%u,%u: y and z must be at most 65535 "
			     "(a bug in this tool)", k->id, k->grid[0], k->grid[1], k->grid[2]);
	unsigned char *p = slot(w);
	if (!p)
		return -1;
	p[0] = GC_T_KBEGIN;
	gc_put16(p + 2, (uint16_t)nl);
	gc_put32(p + 4, k->id);
	gc_put32(p + 8, k->grid[0]);
	gc_put16(p + 12, (uint16_t)k->grid[1]);
	gc_put16(p + 14, (uint16_t)k->grid[2]);
	gc_put16(p + 16, k->block[0]);
	gc_put16(p + 18, k->block[1]);
	gc_put16(p + 20, k->block[2]);
	gc_put16(p + 22, k->regs);
	gc_put32(p + 24, k->shmem);
	gc_put16(p + 28, (uint16_t)k->nattr);
	for (int i = 0; i < k->nattr; i++) {
		if (!(p = slot(w)))
			return -1;
		p[0] = GC_T_KATTR;
		gc_put16(p + 2, k->attr_key[i]);
		gc_put64(p + 8, k->attr_val[i]);
	}
	for (size_t got = 0; got < nl; got += GC_NAME_CHUNK) {
		size_t n = nl - got < GC_NAME_CHUNK ? nl - got : GC_NAME_CHUNK;
		if (!(p = slot(w)))
			return -1;
		p[0] = GC_T_KNAME;
		p[1] = (unsigned char)n;
		memcpy(p + 2, k->name + got, n);
	}
	w->in_kernel = 1;
	w->kid = k->id;
	w->kdata = 0;
	return 0;
}

int gc_write_opcodes(gc_writer *w, const gc_optab *t)
{
	if (w->failed)
		return -1;
	if (!t || !t->n)
		return 0;
	if (!w->opcodes)
		return wfail(w, "opcode records in a stream without the opcodes flag "
			     "(a bug in this tool)");
	if (!w->in_kernel)
		return wfail(w, "opcode records outside a kernel (a bug in this tool)");
	for (size_t i = 0; i < t->n; i++) {
		const gc_opent *e = &t->e[i];
		if ((w->in_kernel == 2 && e->pc <= w->oplast) || e->len == 0 ||
		    e->len > GC_OPCODE_MAX || memchr(e->name, 0, e->len))
			return wfail(w, "kernel %u: opcode of PC 0x%x out of order, empty or too "
				     "long (a bug in this tool)", w->kid, e->pc);
		unsigned first = e->len < GC_OPCODE_FIRST ? e->len : GC_OPCODE_FIRST;
		unsigned char *p = slot(w);
		if (!p)
			return -1;
		p[0] = GC_T_OPCODE;
		p[1] = e->len;
		gc_put32(p + 4, e->pc);
		memcpy(p + 8, e->name, first);
		if (e->len > first) {
			if (!(p = slot(w)))
				return -1;
			p[0] = GC_T_OPMORE;
			p[1] = (unsigned char)(e->len - first);
			memcpy(p + 2, e->name + first, e->len - first);
		}
		w->in_kernel = 2;
		w->oplast = e->pc;
	}
	return 0;
}

int gc_write_kend(gc_writer *w, uint32_t kernel)
{
	if (w->failed)
		return -1;
	if (!w->in_kernel || kernel != w->kid)
		return wfail(w, "kernel %u ends but is not open (a bug in this tool)", kernel);
	unsigned char *p = slot(w);
	if (!p)
		return -1;
	p[0] = GC_T_KEND;
	gc_put32(p + 4, kernel);
	gc_put64(p + 8, w->kdata);
	w->in_kernel = 0;
	return 0;
}

static void wfree(gc_writer *w)
{
	if (w->gz)
		deflateEnd(&w->z);
	free(w->zout);
	free(w->buf);
	free(w);
}

int gc_writer_close(gc_writer *w)
{
	int rc = -1;
	if (w->closed)
		return 0;
	if (!w->failed && w->in_kernel)
		wfail(w, "stream closed inside kernel %u (a bug in this tool)", w->kid);
	if (!w->failed) {
		uint64_t n = w->nrec;
		unsigned char *p = slot(w);
		if (p) {
			p[0] = GC_T_END;
			gc_put64(p + 8, n);
			gc_put64(p + 16, w->ndata);
			if (flush_buf(w, 1) == 0)
				rc = 0;
		}
	}
	if (w->own && w->fd >= 0) {
		if (close(w->fd) < 0 && rc == 0)
			rc = wfail(w, "close: %s", strerror(errno));
		if (rc == 0 && gc_atomic_commit(w->fd) < 0)
			rc = wfail(w, "rename: %s", strerror(errno));
		if (rc < 0)
			gc_atomic_discard(w->fd);
		w->fd = -1;
	}
	if (rc < 0)
		return -1;
	w->closed = 1;
	return 0;
}

void gc_writer_free(gc_writer *w)
{
	if (!w)
		return;
	if (!w->closed && w->own && w->fd >= 0) {
		close(w->fd);
		gc_atomic_discard(w->fd); /* no end record: no file */
	}
	wfree(w);
}

int gc_writer_failed(const gc_writer *w) { return w->failed; }
const char *gc_writer_error(const gc_writer *w) { return w->err; }
uint64_t gc_writer_records(const gc_writer *w) { return w->ndata; }
