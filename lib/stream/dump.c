/*
 * dump.c - the CSV dump of a gc stream (gc-stats --dump); its lossless
 * restore is import/csv.c, and the columns both use are dump.h.
 *
 * The writer formats numbers by hand into a 1 MiB block:
 * a dump of fifty million records must not cost fifty million printf
 * calls.  Format: dump.h and gc-stats(1).
 */
#include "stream/dump.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define OBUF (1u << 20)
#define ROW_MAX 512            /* longest data row, with room to spare */
#define KROW_MAX (2 * GC_NAME_MAX + 64 + GC_ATTR_MAX * 48)
#define LOW32 UINT64_C(0xffffffff)

const char *const gc_csv_colname[GC_CSV_NCOLUMNS] = {
	"kernel", "sm", "block", "warp", "lane", "pc", "seq", "op", "space",
	"addr", "size", "mask", "time", "outcome", "flags", "name", "info",
};

/* Kernel attribute names in the info column; others are attr.N. */
const char *const gc_csv_attr_names[GC_CSV_NATTR_NAMES] = {
	NULL, "insts", "mem_insts", "stream", "binary", "shmem_base", "local_base",
	"thread_insts",
};

const char *const gc_csv_kind_tokens[4] = {NULL, "accesses", "requests", "dram"};

const char *gc_csv_attr_name(unsigned key, char *buf)
{
	if (key > 0 && key < GC_CSV_NATTR_NAMES)
		return gc_csv_attr_names[key];
	snprintf(buf, 16, "attr.%u", key & 0xffffu);
	return buf;
}

/* ===================================================================== */
/* Writing                                                                */
/* ===================================================================== */

struct gc_csv_out {
	FILE *f;
	char name[256];
	int kind;
	int dist;               /* GC_OPT_DISTANCE: the info column holds it */
	int compute;            /* GC_OPT_COMPUTE: the info column holds it too */
	char *buf;
	size_t len;
	int failed;
	char err[400];
	char outcome[256][GC_OUTCOME_BUFSZ]; /* formatted outcome bytes ("" for 0) */
	char hex2[512];        /* "000102...ff" */
	char ops[4][8], spaces[8][9];
	unsigned char oplen[4], splen[8];
};

static char *put_str(char *p, const char *s)
{
	while (*s)
		*p++ = *s++;
	return p;
}

static const char two_digits[201] =
	"00010203040506070809101112131415161718192021222324252627282930313233343536373839"
	"40414243444546474849505152535455565758596061626364656667686970717273747576777879"
	"8081828384858687888990919293949596979899";

static const uint64_t pow10[20] = {
	UINT64_C(1), UINT64_C(10), UINT64_C(100), UINT64_C(1000), UINT64_C(10000),
	UINT64_C(100000), UINT64_C(1000000), UINT64_C(10000000), UINT64_C(100000000),
	UINT64_C(1000000000), UINT64_C(10000000000), UINT64_C(100000000000),
	UINT64_C(1000000000000), UINT64_C(10000000000000), UINT64_C(100000000000000),
	UINT64_C(1000000000000000), UINT64_C(10000000000000000),
	UINT64_C(100000000000000000), UINT64_C(1000000000000000000),
	UINT64_C(10000000000000000000),
};

/* Decimal, two digits at a time from the right.  The small values that
 * make most columns (lanes, warps, SMs) take the first two branches; the
 * length of a larger one comes from its bit length (log10 2 ~ 1233/4096). */
static char *put_dec(char *p, uint64_t v)
{
	if (v < 10) {
		*p = (char)('0' + v);
		return p + 1;
	}
	if (v < 100) {
		memcpy(p, two_digits + 2 * v, 2);
		return p + 2;
	}
	unsigned t = (unsigned)(64 - __builtin_clzll(v)) * 1233 >> 12;
	unsigned n = t + (v >= pow10[t]);
	char *e = p + n, *q = e;
	/* Four digits a step keeps the chain of divisions short. */
	while (v >= 10000) {
		uint32_t r = (uint32_t)(v % 10000);
		v /= 10000;
		q -= 4;
		memcpy(q, two_digits + 2 * (r / 100), 2);
		memcpy(q + 2, two_digits + 2 * (r % 100), 2);
	}
	uint32_t w = (uint32_t)v;
	if (w >= 100) {
		q -= 2;
		memcpy(q, two_digits + 2 * (w % 100), 2);
		w /= 100;
	}
	v = w;
	if (v >= 10)
		memcpy(q - 2, two_digits + 2 * v, 2);
	else
		q[-1] = (char)('0' + v);
	return e;
}

/* Hex after 0x, two digits at a time from the right. */
static char *put_hex(const gc_csv_out *o, char *p, uint64_t v)
{
	unsigned n = v ? (unsigned)(67 - __builtin_clzll(v)) / 4 : 1;
	char *e = p + 2 + n, *q = e;
	p[0] = '0';
	p[1] = 'x';
	while (v >= 16) {
		q -= 2;
		memcpy(q, o->hex2 + 2 * (v & 255), 2);
		v >>= 8;
	}
	if (q > p + 2)
		q[-1] = "0123456789abcdef"[v];
	return e;
}

int gc_csv_out_flush(gc_csv_out *o)
{
	if (o->failed)
		return -1;
	if (o->len && fwrite(o->buf, 1, o->len, o->f) != o->len) {
		o->failed = 1;
		snprintf(o->err, sizeof o->err, "%s: write error: %s", o->name,
			 strerror(errno ? errno : EIO));
		return -1;
	}
	o->len = 0;
	return 0;
}

/* Room for `need` more bytes in the block. */
static char *room(gc_csv_out *o, size_t need)
{
	if (o->len + need > OBUF && gc_csv_out_flush(o) < 0)
		return NULL;
	return o->buf + o->len;
}

gc_csv_out *gc_csv_out_open(FILE *f, const char *name, const gc_header *h)
{
	gc_csv_out *o = calloc(1, sizeof *o);
	if (!o)
		return NULL;
	o->buf = malloc(OBUF);
	if (!o->buf) {
		free(o);
		return NULL;
	}
	o->f = f;
	snprintf(o->name, sizeof o->name, "%s", name);
	o->kind = h->kind;
	o->dist = (h->optional & GC_OPT_DISTANCE) != 0;
	o->compute = (h->optional & GC_OPT_COMPUTE) != 0;
	for (unsigned i = 1; i < 256; i++)
		gc_outcome_format((uint8_t)i, o->outcome[i], sizeof o->outcome[i]);
	for (int i = 0; i < 256; i++) {
		o->hex2[2 * i] = "0123456789abcdef"[i >> 4];
		o->hex2[2 * i + 1] = "0123456789abcdef"[i & 15];
	}
	for (int i = 0; i < 4; i++)
		o->oplen[i] = (unsigned char)snprintf(o->ops[i], sizeof o->ops[i], "%s,", gc_op_name(i));
	for (int i = 0; i < 8; i++)
		o->splen[i] = (unsigned char)snprintf(o->spaces[i], sizeof o->spaces[i], "%s,",
						      gc_space_name(i));
	/* The header lines; a header holds at most 1 MiB of text, so write
	 * each key straight to f rather than through the block. */
	int kind = h->kind >= GC_KIND_ACCESS && h->kind <= GC_KIND_DRAM ? h->kind : 0;
	fprintf(f, "%s\n# kind %s\n# version %u.%u\n# record_size %u\n"
		"# required 0x%x\n# optional 0x%x\n", GC_CSV_MAGIC,
		kind ? gc_csv_kind_tokens[kind] : "?", h->major, h->minor, h->record_size,
		h->required, h->optional);
	for (int i = 0; i < h->nkv; i++)
		fprintf(f, "# header %s=%s\n", h->key[i], h->val[i]);
	fputs(GC_CSV_COLUMNS "\n", f);
	return o;
}

int gc_csv_out_data(gc_csv_out *o, const gc_rec *r)
{
	char *p = room(o, ROW_MAX), *start = p;
	if (!p)
		return -1;
	int acc = o->kind == GC_KIND_ACCESS;
	p = put_dec(p, r->kernel);
	*p++ = ',';
	p = put_dec(p, r->sm);
	*p++ = ',';
	p = put_dec(p, r->block);
	*p++ = ',';
	p = put_dec(p, r->warp);
	*p++ = ',';
	if (acc)
		p = put_dec(p, r->lane);
	*p++ = ',';
	p = put_hex(o, p, r->pc);
	*p++ = ',';
	p = put_dec(p, r->seq);
	*p++ = ',';
	/* Names with their comma, 8 bytes copied, the length kept. */
	memcpy(p, o->ops[r->op & 3], 8);
	p += o->oplen[r->op & 3];
	memcpy(p, o->spaces[r->space & 7], 8);
	p += o->splen[r->space & 7];
	p = put_hex(o, p, r->addr);
	*p++ = ',';
	p = put_dec(p, r->size);
	*p++ = ',';
	if (!acc)
		p = put_hex(o, p, r->mask);
	*p++ = ',';
	p = put_dec(p, r->time);
	*p++ = ',';
	if (!acc)
		p = put_str(p, o->outcome[r->outcome]);
	*p++ = ',';
	p = put_dec(p, r->flags);
	*p++ = ',';
	*p++ = ',';
	/* A distance stream's reuse distance, in the info column. */
	if (o->dist) {
		memcpy(p, "dist=", 5);
		p += 5;
		if (r->dist == GC_DIST_INF)
			p = put_str(p, "inf");
		else if (r->dist == GC_DIST_NONE)
			p = put_str(p, "none");
		else
			p = put_dec(p, r->dist);
	}
	/* A compute stream's field, after the distance: its counts when the
	 * valid bit is set (and the reserved bit clear), else the value. */
	if (o->compute) {
		uint64_t c = r->compute;
		if (o->dist)
			*p++ = ' ';
		if ((c >> 62) == 2) {
			p = put_str(p, "insts=");
			p = put_dec(p, GC_CF_INSTS(c));
			p = put_str(p, " cycles=");
			p = put_dec(p, GC_CF_CYCLES(c));
			p = put_str(p, " waits=");
			p = put_dec(p, GC_CF_WAITS(c));
		} else if (c == 0) {
			p = put_str(p, "compute=none");
		} else {
			p = put_str(p, "compute=");
			p = put_hex(o, p, c);
		}
	}
	*p++ = '\n';
	o->len += (size_t)(p - start);
	return 0;
}

/* An RFC 4180 field: always quoted, quotes doubled. */
static char *put_quoted(char *p, const char *s)
{
	*p++ = '"';
	for (; *s; s++) {
		if (*s == '"')
			*p++ = '"';
		*p++ = *s;
	}
	*p++ = '"';
	return p;
}

int gc_csv_out_kbegin(gc_csv_out *o, const gc_kernel *k)
{
	char *p = room(o, KROW_MAX), *start = p;
	if (!p)
		return -1;
	p = put_dec(p, k->id);
	p = put_str(p, ",,,,,,,kbegin,,,,,,,,");
	p = put_quoted(p, k->name);
	p = put_str(p, ",grid=");
	for (int i = 0; i < 3; i++) {
		if (i)
			*p++ = 'x';
		p = put_dec(p, k->grid[i]);
	}
	p = put_str(p, " block=");
	for (int i = 0; i < 3; i++) {
		if (i)
			*p++ = 'x';
		p = put_dec(p, k->block[i]);
	}
	p = put_str(p, " regs=");
	p = put_dec(p, k->regs);
	p = put_str(p, " shmem=");
	p = put_dec(p, k->shmem);
	for (int i = 0; i < k->nattr && i < GC_ATTR_MAX; i++) {
		unsigned key = k->attr_key[i];
		char an[16];
		*p++ = ' ';
		p = put_str(p, gc_csv_attr_name(key, an));
		*p++ = '=';
		if (key == GC_A_SHMEM_BASE || key == GC_A_LOCAL_BASE)
			p = put_hex(o, p, k->attr_val[i]);
		else
			p = put_dec(p, k->attr_val[i]);
	}
	*p++ = '\n';
	o->len += (size_t)(p - start);
	return 0;
}

int gc_csv_out_opcodes(gc_csv_out *o, uint32_t kernel, const gc_optab *t)
{
	for (size_t i = 0; t && i < t->n; i++) {
		char *p = room(o, ROW_MAX), *start = p;
		if (!p)
			return -1;
		p = put_dec(p, kernel);
		p = put_str(p, ",,,,,");
		p = put_hex(o, p, t->e[i].pc);
		p = put_str(p, ",,opcode,,,,,,,,");
		p = put_quoted(p, t->e[i].name);
		p = put_str(p, ",\n");
		o->len += (size_t)(p - start);
	}
	return 0;
}

int gc_csv_out_kend(gc_csv_out *o, uint32_t kernel, uint64_t data)
{
	char *p = room(o, ROW_MAX), *start = p;
	if (!p)
		return -1;
	p = put_dec(p, kernel);
	p = put_str(p, ",,,,,,,kend,,,,,,,,,records=");
	p = put_dec(p, data);
	*p++ = '\n';
	o->len += (size_t)(p - start);
	return 0;
}

int gc_csv_out_end(gc_csv_out *o, uint64_t records, uint64_t data)
{
	char *p = room(o, ROW_MAX), *start = p;
	if (!p)
		return -1;
	p = put_str(p, ",,,,,,,end,,,,,,,,,records=");
	p = put_dec(p, records);
	p = put_str(p, " data=");
	p = put_dec(p, data);
	*p++ = '\n';
	o->len += (size_t)(p - start);
	return 0;
}

const char *gc_csv_out_error(const gc_csv_out *o)
{
	return o->err;
}

void gc_csv_out_free(gc_csv_out *o)
{
	if (!o)
		return;
	free(o->buf);
	free(o);
}
