/*
 * gc-mkbad - the test corpus of gc streams, and a reader to try it on.
 *
 * Writes: to stdout, one stream that is valid except for one deliberate
 * defect (gc-mkbad NAME), or a small valid stream (good-access,
 * good-request, good-future, good-opcodes).  --list prints every
 * defective member with the message a reader must give for it, after
 * "PROG: stdin: ".  Reads: with `read` or `dump`, one stream (stdin or
 * FILE) through gc_open_stream/gc_read, as tool "gc-read-test".
 *
 * The corpus (corpus.c) is encoded (enc.c) field by field from the
 * layout in stream/format.h and gc-stream(5), independently of
 * lib/stream/stream.c's writer; the good streams come from the writer,
 * and `--hand` encodes the same content so the two can be compared byte
 * for byte.  Every member starts from one base stream (enc.c, base()) so
 * its offsets can be read off this table:
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
#include "gc-mkbad/mkbad.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>


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
			for (size_t j = 0; j < mkbad_ncorpus; j++)
				printf("%s\t%s\n", mkbad_corpus[j].name, mkbad_corpus[j].message);
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
		for (i = 0; i < mkbad_ncorpus; i++)
			if (strcmp(name, mkbad_corpus[i].name) == 0)
				break;
		if (i == mkbad_ncorpus)
			gc_usage_error("no corpus member '%s' (see --list)", name);
		mkbad_corpus[i].make(&e);
	}
	emit(&e);
	free(e.b.p);
	return 0;
}
