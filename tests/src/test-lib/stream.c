/*
 * stream.c - test-lib units of stream/: endian helpers, headers, kernels,
 * names and outcomes, the writer and the reader.
 */
#include "base/endian.h"
#include "base/rng.h"
#include "base/rowmap.h"
#include "import/import.h"
#include "model/l1queue.h"
#include "prog/gpuopt.h"
#include "prog/prog.h"
#include "report/json.h"
#include "stream/lines.h"
#include "stream/stream.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "check.h"
#include "test-lib/test-lib.h"

void t_endian(void)
{
	unsigned char b[24];
	memset(b, 0xee, sizeof b);
	gc_put16(b + 1, 0x1234);
	CHECK(b[0] == 0xee && b[1] == 0x34 && b[2] == 0x12 && b[3] == 0xee);
	gc_put32(b + 3, 0x89abcdefu);
	CHECK(b[3] == 0xef && b[4] == 0xcd && b[5] == 0xab && b[6] == 0x89 && b[7] == 0xee);
	gc_put64(b + 9, UINT64_C(0x0123456789abcdef));
	static const unsigned char want64[8] = {0xef, 0xcd, 0xab, 0x89, 0x67, 0x45, 0x23, 0x01};
	CHECK(memcmp(b + 9, want64, 8) == 0);
	CHECK(b[8] == 0xee && b[17] == 0xee);
	CHECK_U64(gc_get16(b + 1), 0x1234);
	CHECK_U64(gc_get32(b + 3), 0x89abcdefu);
	CHECK_U64(gc_get64(b + 9), UINT64_C(0x0123456789abcdef));
	memset(b, 0xff, sizeof b);
	CHECK_U64(gc_get16(b), 0xffff);
	CHECK_U64(gc_get32(b), 0xffffffffu);
	CHECK_U64(gc_get64(b), UINT64_MAX);
	gc_put64(b, UINT64_C(1) << 63);
	CHECK(b[7] == 0x80 && b[0] == 0 && b[6] == 0);
}

void t_header(void)
{
	gc_header h;
	gc_header_init(&h, GC_KIND_REQUEST);
	CHECK_U64(h.major, GC_STREAM_MAJOR);
	CHECK_U64(h.minor, GC_STREAM_MINOR);
	CHECK_U64(h.kind, GC_KIND_REQUEST);
	CHECK_U64(h.record_size, GC_RECORD_BASE);
	CHECK_U64(h.nkv, 0);
	CHECK(gc_header_get(&h, "gpu") == NULL);
	CHECK(gc_header_set(&h, "gpu", "volta") == 0);
	CHECK(gc_header_set(&h, "l1.size_KB-2", "128") == 0);
	CHECK_STR(gc_header_get(&h, "gpu"), "volta");
	CHECK(gc_header_set(&h, "gpu", "ampere") == 0);
	CHECK_STR(gc_header_get(&h, "gpu"), "ampere");
	CHECK_U64(h.nkv, 2);
	CHECK(gc_header_set(&h, "empty", "") == 0);
	CHECK_STR(gc_header_get(&h, "empty"), "");
	CHECK(gc_header_set(&h, "eq", "a=b=c") == 0);
	/* Bad keys and values. */
	CHECK(gc_header_set(&h, "", "x") < 0);
	CHECK(gc_header_set(&h, "a b", "x") < 0);
	CHECK(gc_header_set(&h, "a=b", "x") < 0);
	CHECK(gc_header_set(&h, "a/b", "x") < 0);
	CHECK(gc_header_set(&h, "ok", "two\nlines") < 0);
	CHECK(gc_header_get(&h, "ok") == NULL);
	CHECK_U64(h.nkv, 4);
	/* The table holds GC_KV_MAX keys; replacing still works when full. */
	char k[16];
	for (int i = h.nkv; i < GC_KV_MAX; i++) {
		snprintf(k, sizeof k, "k%d", i);
		CHECK(gc_header_set(&h, k, "1") == 0);
	}
	CHECK_U64(h.nkv, GC_KV_MAX);
	CHECK(gc_header_set(&h, "one-too-many", "1") < 0);
	CHECK(gc_header_set(&h, "gpu", "hopper") == 0);
	CHECK_STR(gc_header_get(&h, "gpu"), "hopper");
	/* A copy is deep. */
	gc_header c;
	CHECK(gc_header_copy(&c, &h) == 0);
	CHECK(gc_header_set(&c, "gpu", "fermi") == 0);
	CHECK_STR(gc_header_get(&h, "gpu"), "hopper");
	CHECK_STR(gc_header_get(&c, "gpu"), "fermi");
	CHECK_U64(c.kind, GC_KIND_REQUEST);
	CHECK_U64(c.nkv, GC_KV_MAX);
	gc_header_free(&c);
	gc_header_free(&h);
	CHECK_U64(h.nkv, 0);
	CHECK(gc_header_get(&h, "gpu") == NULL);
}

void t_header_provenance(void)
{
	gc_header h;
	gc_header_init(&h, GC_KIND_ACCESS);
	CHECK(gc_header_add_provenance(&h, "gc-gen -n 5") == 0);
	CHECK_STR(gc_header_get(&h, "provenance"), "gc-gen -n 5");
	CHECK(gc_header_add_provenance(&h, "gc-sched --policy gto") == 0);
	CHECK_STR(gc_header_get(&h, "provenance"), "gc-gen -n 5 | gc-sched --policy gto");
	CHECK(gc_header_add_provenance(&h, "gc-coalesce") == 0);
	CHECK_STR(gc_header_get(&h, "provenance"), "gc-gen -n 5 | gc-sched --policy gto | gc-coalesce");
	CHECK(gc_header_set(&h, "provenance", "") == 0);
	CHECK(gc_header_add_provenance(&h, "gc-l1") == 0);
	CHECK_STR(gc_header_get(&h, "provenance"), "gc-l1");
	CHECK(gc_header_add_provenance(&h, "bad\nentry") < 0);
	CHECK_STR(gc_header_get(&h, "provenance"), "gc-l1");
	gc_header_free(&h);
}

void t_header_text(void)
{
	gc_header h;
	size_t len = 99;
	gc_header_init(&h, GC_KIND_ACCESS);
	char *t = gc_header_text(&h, &len);
	CHECK_STR(t, "");
	CHECK_U64(len, 0);
	free(t);
	gc_header_set(&h, "gpu", "volta");
	gc_header_set(&h, "line_size", "128");
	gc_header_set(&h, "gpu", "turing"); /* replaced in place: order kept */
	t = gc_header_text(&h, &len);
	CHECK_STR(t, "gpu=turing\nline_size=128\n");
	CHECK_U64(len, 25);
	free(t);
	gc_header_free(&h);
	CHECK_STR(gc_kind_name(GC_KIND_ACCESS), "accesses");
	CHECK_STR(gc_kind_name(GC_KIND_REQUEST), "requests");
	CHECK_STR(gc_kind_name(GC_KIND_DRAM), "DRAM transactions");
	CHECK_STR(gc_kind_name(0), "unknown records");
	CHECK_STR(gc_kind_name(4), "unknown records");
}

void t_kernel(void)
{
	static gc_kernel k;
	gc_kernel_init(&k, 42, "saxpy");
	CHECK_U64(k.id, 42);
	CHECK_STR(k.name, "saxpy");
	CHECK(k.grid[0] == 1 && k.grid[1] == 1 && k.grid[2] == 1);
	CHECK(k.block[0] == 1 && k.block[1] == 1 && k.block[2] == 1);
	CHECK(k.regs == 0 && k.shmem == 0 && k.nattr == 0);
	gc_kernel_init(&k, 1, NULL);
	CHECK_STR(k.name, "");
	/* Names longer than GC_NAME_MAX are cut. */
	char *longname = malloc(GC_NAME_MAX + 10);
	memset(longname, 'n', GC_NAME_MAX + 9);
	longname[GC_NAME_MAX + 9] = 0;
	gc_kernel_init(&k, 1, longname);
	CHECK_U64(strlen(k.name), GC_NAME_MAX);
	free(longname);
	/* Attributes: add, replace, look up, a full table. */
	uint64_t v = 0;
	CHECK(gc_kernel_get_attr(&k, GC_A_INSTS, &v) == 0);
	CHECK(gc_kernel_set_attr(&k, GC_A_INSTS, 10) == 0);
	CHECK(gc_kernel_set_attr(&k, GC_A_STREAM, 3) == 0);
	CHECK(gc_kernel_set_attr(&k, GC_A_INSTS, 11) == 0);
	CHECK_U64(k.nattr, 2);
	CHECK(gc_kernel_get_attr(&k, GC_A_INSTS, &v) == 1);
	CHECK_U64(v, 11);
	CHECK(gc_kernel_get_attr(&k, GC_A_STREAM, &v) == 1);
	CHECK_U64(v, 3);
	for (uint16_t key = 100; k.nattr < GC_ATTR_MAX; key++)
		CHECK(gc_kernel_set_attr(&k, key, key) == 0);
	CHECK(gc_kernel_set_attr(&k, 999, 1) < 0);
	CHECK(gc_kernel_set_attr(&k, GC_A_STREAM, 4) == 0);
	CHECK(gc_kernel_get_attr(&k, GC_A_STREAM, &v) == 1 && v == 4);
	/* Sizes. */
	k.block[0] = 32;
	k.block[1] = 8;
	k.block[2] = 2;
	CHECK_U64(gc_kernel_threads_per_block(&k), 512);
	k.grid[0] = 0xffffffffu;
	k.grid[1] = 65535;
	k.grid[2] = 65535;
	CHECK_U64(gc_kernel_blocks(&k), UINT64_C(0xffffffff) * 65535 * 65535);
	k.block[0] = k.block[1] = k.block[2] = 65535;
	CHECK_U64(gc_kernel_threads_per_block(&k), UINT64_C(65535) * 65535 * 65535);
}

void t_names(void)
{
	static const char *const ops[] = {"load", "store", "atomic"};
	for (int i = 0; i < 3; i++) {
		CHECK_STR(gc_op_name(GC_LOAD + i), ops[i]);
		CHECK_U64(gc_op_parse(ops[i]), GC_LOAD + i);
	}
	CHECK_STR(gc_op_name(0), "?");
	CHECK_STR(gc_op_name(4), "?");
	CHECK_STR(gc_op_name(-1), "?");
	CHECK(gc_op_parse("Load") == -1);
	CHECK(gc_op_parse("") == -1);
	CHECK(gc_op_parse("loads") == -1);
	static const char *const spaces[] = {"global", "local", "shared", "const", "texture",
					     "generic"};
	for (int i = 0; i < GC_NSPACES; i++) {
		CHECK_STR(gc_space_name(i), spaces[i]);
		CHECK_U64(gc_space_parse(spaces[i]), i);
	}
	CHECK_STR(gc_space_name(GC_NSPACES), "?");
	CHECK_STR(gc_space_name(-1), "?");
	CHECK(gc_space_parse("constant") == -1);
	CHECK(gc_space_parse("") == -1);
	static const char *const classes[] = {"", "compulsory", "capacity", "conflict",
					      "latency", "mshr", "partial-write"};
	for (int i = 0; i < GC_NCLASSES; i++)
		CHECK_STR(gc_class_name(i), classes[i]);
	CHECK_STR(gc_class_name(GC_NCLASSES), "?");
	CHECK_STR(gc_result_name(GC_R_NONE), "");
	CHECK_STR(gc_result_name(GC_R_HIT), "hit");
	CHECK_STR(gc_result_name(GC_R_SECTOR_MISS), "sector-miss");
	CHECK_STR(gc_result_name(GC_R_MISS), "miss");
	CHECK_STR(gc_result_name(4), "?");
}

void t_outcome(void)
{
	char buf[GC_OUTCOME_BUFSZ]; /* the longest, "sector-miss/partial-write+wb+bypass", needs 36 */
	/* Every byte survives format then parse. */
	for (unsigned o = 0; o < 256; o++) {
		uint8_t back = 0;
		gc_outcome_format((uint8_t)o, buf, sizeof buf);
		if (!CHECK(gc_outcome_parse(buf, &back) == 0) || !CHECK_U64(back, o))
			printf("#     outcome 0x%02x formatted as '%s'\n", o, buf);
	}
	static const struct {
		uint8_t o;
		const char *s;
	} t[] = {
		{0, ""},
		{GC_OUT_MAKE(GC_R_HIT, 0), "hit"},
		{GC_OUT_MAKE(GC_R_SECTOR_MISS, 0), "sector-miss"},
		{GC_OUT_MAKE(GC_R_MISS, GC_C_COMPULSORY), "miss/compulsory"},
		{GC_OUT_MAKE(GC_R_MISS, GC_C_CAPACITY) | GC_OUT_WRITEBACK, "miss/capacity+wb"},
		{GC_OUT_MAKE(GC_R_MISS, GC_C_CONFLICT) | GC_OUT_BYPASS, "miss/conflict+bypass"},
		{GC_OUT_MAKE(GC_R_MISS, GC_C_LATENCY), "miss/latency"},
		{GC_OUT_MAKE(GC_R_MISS, GC_C_MSHR) | GC_OUT_WRITEBACK | GC_OUT_BYPASS,
		 "miss/mshr+wb+bypass"},
		{GC_OUT_WRITEBACK, "+wb"},
		{GC_OUT_MAKE(GC_R_NONE, GC_C_CAPACITY), "0x08"},   /* a class without a result */
		{GC_OUT_MAKE(GC_R_SECTOR_MISS, GC_C_PARTIAL) | GC_OUT_WRITEBACK | GC_OUT_BYPASS,
		 "sector-miss/partial-write+wb+bypass"},           /* the longest */
		{GC_OUT_MAKE(GC_R_MISS, 7), "0x1f"},               /* no class 7 */
		{0x80, "0x80"},                                     /* unknown bit */
		{0xff, "0xff"},
	};
	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
		gc_outcome_format(t[i].o, buf, sizeof buf);
		CHECK_STR(buf, t[i].s);
	}
	/* What the parser refuses. */
	static const char *const bad[] = {"bogus", "Hit", "miss/", "miss/bogus", "hit/",
					  "miss+", "miss+bypass+wb", "miss/capacity/conflict",
					  "0x", "0x100", "0xzz", "0x1g", " hit", "hit "};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		uint8_t o = 0;
		if (!CHECK(gc_outcome_parse(bad[i], &o) < 0))
			printf("#     '%s' was accepted as 0x%02x\n", bad[i], o);
	}
}

/* "0x" then one or two hex digits, nothing else (strtoul would take
 * blanks and a sign); the longest text fits GC_OUTCOME_BUFSZ. */
void t_outcome_strict(void)
{
	static const struct {
		const char *s;
		uint8_t o;
	} good[] = {{"0x5", 5}, {"0x05", 5}, {"0xff", 0xff}, {"0xFF", 0xff}, {"0x80", 0x80}};
	for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
		uint8_t o = 0;
		CHECK(gc_outcome_parse(good[i].s, &o) == 0 && o == good[i].o);
	}
	char buf[GC_OUTCOME_BUFSZ];
	uint8_t longest = GC_OUT_MAKE(GC_R_SECTOR_MISS, GC_C_PARTIAL) | GC_OUT_WRITEBACK |
			  GC_OUT_BYPASS;
	gc_outcome_format(longest, buf, sizeof buf);
	CHECK_STR(buf, "sector-miss/partial-write+wb+bypass");
	CHECK(GC_OUTCOME_BUFSZ >= 36);
	static const char *const bad[] = {"0x 5", "0x+5", "0x-0", "0x0x5", "0x005", "0x5 ",
					  "0x\t5", "0X05"};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		uint8_t o = 0;
		if (!CHECK(gc_outcome_parse(bad[i], &o) < 0))
			printf("#     '%s' was accepted as 0x%02x\n", bad[i], o);
	}
}

gc_rec mkrec(int op, int space, uint64_t addr, uint64_t time)
{
	gc_rec r;
	memset(&r, 0, sizeof r);
	r.op = (uint8_t)op;
	r.space = (uint8_t)space;
	r.addr = addr;
	r.time = time;
	r.size = 4;
	return r;
}

static int same_rec(const gc_rec *a, const gc_rec *b, int kind)
{
	int same = a->op == b->op && a->space == b->space && a->flags == b->flags &&
		   a->size == b->size && a->sm == b->sm && a->warp == b->warp &&
		   a->block == b->block && a->pc == b->pc && a->seq == b->seq &&
		   a->addr == b->addr && a->time == b->time && a->kernel == b->kernel;
	if (kind == GC_KIND_ACCESS)
		return same && a->lane == b->lane;
	return same && a->outcome == b->outcome && a->mask == b->mask;
}

/* Write n data records of every op, space and flag, times crossing 2^32
 * now and then, in kernels of k records; read them back. */
static void roundtrip(int kind, int flags, uint64_t n, uint64_t per_kernel)
{
	const char *path = tmp_file();
	gc_header h;
	gc_header_init(&h, (enum gc_kind)kind);
	gc_header_set(&h, "gpu", "test");
	h.optional = GC_OPT_SCHEDULED;
	gc_writer *w = gc_writer_open(path, &h, flags);
	if (!CHECK(w && !gc_writer_failed(w)))
		return;
	static gc_kernel k;
	uint64_t t = 0, nk = 0;
	for (uint64_t i = 0; i < n; i++) {
		if (i % per_kernel == 0) {
			if (i)
				CHECK(gc_write_kend(w, (uint32_t)nk) == 0);
			gc_kernel_init(&k, (uint32_t)++nk, "k");
			CHECK(gc_write_kbegin(w, &k) == 0);
		}
		t += i % 1000 == 999 ? UINT64_C(0x80000000) : i % 3;
		gc_rec r = mkrec(GC_LOAD + (int)(i % 3), (int)(i % GC_NSPACES), i * 64, t);
		r.flags = (uint8_t)(i & 1);
		r.lane = (uint8_t)(i % 32);
		r.outcome = kind == GC_KIND_ACCESS ? 0 : (uint8_t)(i & 0x7f);
		r.mask = kind == GC_KIND_ACCESS ? 0 : (uint8_t)i;
		r.size = (uint16_t)(kind == GC_KIND_ACCESS ? 1 + i % 255 : i);
		r.sm = (uint16_t)i;
		r.warp = (uint16_t)(i >> 3);
		r.block = (uint32_t)(i * 7);
		r.pc = (uint32_t)(i * 16);
		r.seq = (uint32_t)~i;
		if (!CHECK(gc_write(w, &r) == 0)) {
			printf("#     %s\n", gc_writer_error(w));
			break;
		}
	}
	if (nk)
		CHECK(gc_write_kend(w, (uint32_t)nk) == 0);
	CHECK_U64(gc_writer_records(w), n);
	CHECK(gc_writer_close(w) == 0);
	/* Closed once: a second close writes nothing more (the reader below
	 * sees one end record), and free keeps the renamed file. */
	CHECK(gc_writer_close(w) == 0);
	gc_writer_free(w);
	gc_header_free(&h);

	gc_reader *r = gc_reader_open(path);
	if (!CHECK(r && !gc_reader_failed(r))) {
		if (r)
			printf("#     %s\n", gc_reader_error(r));
		gc_reader_close(r);
		return;
	}
	CHECK_U64(gc_reader_compressed(r), (flags & GC_W_GZIP) != 0);
	CHECK_STR(gc_reader_name(r), path);
	CHECK_STR(gc_header_get(gc_reader_header(r), "gpu"), "test");
	CHECK_U64(gc_reader_header(r)->optional, GC_OPT_SCHEDULED);
	CHECK_U64(gc_reader_header(r)->kind, kind);
	gc_rec got;
	uint64_t i = 0, kernels = 0, ends = 0, bad = 0;
	int ev;
	t = 0;
	while ((ev = gc_read(r, &got)) > 0) {
		if (ev == GC_KBEGIN) {
			kernels++;
			CHECK_U64(got.kernel, kernels);
			CHECK_U64(gc_reader_kernel(r)->id, kernels);
			continue;
		}
		if (ev == GC_KEND) {
			ends++;
			CHECK_U64(got.kernel, kernels);
			continue;
		}
		t += i % 1000 == 999 ? UINT64_C(0x80000000) : i % 3;
		gc_rec want = mkrec(GC_LOAD + (int)(i % 3), (int)(i % GC_NSPACES), i * 64, t);
		want.flags = (uint8_t)(i & 1);
		want.lane = (uint8_t)(i % 32);
		want.outcome = kind == GC_KIND_ACCESS ? 0 : (uint8_t)(i & 0x7f);
		want.mask = kind == GC_KIND_ACCESS ? 0 : (uint8_t)i;
		want.size = (uint16_t)(kind == GC_KIND_ACCESS ? 1 + i % 255 : i);
		want.sm = (uint16_t)i;
		want.warp = (uint16_t)(i >> 3);
		want.block = (uint32_t)(i * 7);
		want.pc = (uint32_t)(i * 16);
		want.seq = (uint32_t)~i;
		want.kernel = (uint32_t)kernels;
		if (!same_rec(&got, &want, kind) && bad++ < 3)
			printf("#     data record %llu differs\n", (unsigned long long)i);
		i++;
	}
	CHECK(ev == GC_EOF);
	if (ev == GC_ERR)
		printf("#     %s\n", gc_reader_error(r));
	CHECK_U64(bad, 0);
	CHECK_U64(i, n);
	CHECK_U64(kernels, nk);
	CHECK_U64(ends, nk);
	CHECK(gc_read(r, &got) == GC_EOF);
	gc_reader_close(r);
}

void t_stream_roundtrip(void)
{
	roundtrip(GC_KIND_ACCESS, 0, 5000, 1000);
	roundtrip(GC_KIND_REQUEST, 0, 5000, 700);
	roundtrip(GC_KIND_DRAM, 0, 100, 100);
	roundtrip(GC_KIND_ACCESS, 0, 0, 1);
}

/* Enough records for several 1 MiB blocks, plain and gzip. */
void t_stream_large(void)
{
	roundtrip(GC_KIND_ACCESS, 0, 200000, 65536);
	roundtrip(GC_KIND_REQUEST, GC_W_GZIP, 200000, 50000);
}

/* The biggest header (text filling GC_HEADER_MAX), a kernel with the
 * longest name and the most attributes. */
void t_stream_limits(void)
{
	const char *path = tmp_file();
	gc_header h;
	gc_header_init(&h, GC_KIND_ACCESS);
	/* Text "big=V\nx=\n" is |V| + 8 bytes: first one byte too many. */
	size_t vlen = GC_HEADER_MAX - GC_HEADER_FIXED - 8 + 1;
	char *v = malloc(vlen + 1);
	memset(v, 'v', vlen);
	v[vlen] = 0;
	gc_header_set(&h, "big", v);
	gc_header_set(&h, "x", "");
	gc_writer *w = gc_writer_open(path, &h, 0);
	CHECK(gc_writer_failed(w));
	char want[600];
	snprintf(want, sizeof want, "%s: header text too long (%u bytes)", path,
		 GC_HEADER_MAX - GC_HEADER_FIXED + 1);
	CHECK_STR(gc_writer_error(w), want);
	gc_writer_free(w);
	/* One byte less fills the largest header exactly. */
	v[vlen - 1] = 0;
	gc_header_set(&h, "big", v);
	size_t tl;
	free(gc_header_text(&h, &tl));
	CHECK_U64(tl, GC_HEADER_MAX - GC_HEADER_FIXED);
	w = gc_writer_open(path, &h, 0);
	CHECK(!gc_writer_failed(w));
	static gc_kernel k;
	char *name = malloc(GC_NAME_MAX + 1);
	for (int i = 0; i < GC_NAME_MAX; i++)
		name[i] = (char)('A' + i % 26);
	name[GC_NAME_MAX] = 0;
	gc_kernel_init(&k, 0xffffffffu, name);
	for (int i = 0; i < GC_ATTR_MAX; i++)
		gc_kernel_set_attr(&k, (uint16_t)(0xffff - i), UINT64_MAX - (uint64_t)i);
	k.grid[0] = 0xffffffffu;
	k.grid[1] = k.grid[2] = 65535;
	k.block[0] = k.block[1] = k.block[2] = 65535;
	k.regs = 65535;
	k.shmem = 0xffffffffu;
	CHECK(gc_write_kbegin(w, &k) == 0);
	gc_rec rec = mkrec(GC_STORE, GC_GENERIC, UINT64_MAX, UINT64_MAX);
	rec.size = 255;
	CHECK(gc_write(w, &rec) == 0);
	CHECK(gc_write_kend(w, k.id) == 0);
	CHECK(gc_writer_close(w) == 0);
	gc_writer_free(w);
	gc_reader *r = gc_reader_open(path);
	if (!CHECK(!gc_reader_failed(r))) {
		printf("#     %s\n", gc_reader_error(r));
	} else {
		CHECK_U64(strlen(gc_header_get(gc_reader_header(r), "big")), vlen - 1);
		gc_rec got;
		CHECK(gc_read(r, &got) == GC_KBEGIN);
		const gc_kernel *rk = gc_reader_kernel(r);
		CHECK_STR(rk->name, name);
		CHECK_U64(rk->id, 0xffffffffu);
		CHECK_U64(rk->nattr, GC_ATTR_MAX);
		for (int i = 0; i < GC_ATTR_MAX && i < rk->nattr; i++)
			CHECK(rk->attr_key[i] == 0xffff - i && rk->attr_val[i] == UINT64_MAX - (uint64_t)i);
		CHECK(rk->grid[0] == 0xffffffffu && rk->grid[1] == 65535 && rk->grid[2] == 65535);
		CHECK(rk->block[0] == 65535 && rk->block[1] == 65535 && rk->block[2] == 65535);
		CHECK(rk->regs == 65535 && rk->shmem == 0xffffffffu);
		CHECK(gc_read(r, &got) == GC_DATA);
		CHECK(got.addr == UINT64_MAX && got.time == UINT64_MAX && got.size == 255);
		CHECK(gc_read(r, &got) == GC_KEND);
		CHECK(gc_read(r, &got) == GC_EOF);
		/* kbegin + 16 attributes + 137 name chunks + time base + data + kend */
		CHECK_U64(gc_reader_records(r), 1 + GC_ATTR_MAX + (GC_NAME_MAX + 29) / 30 + 1 + 1 + 1);
		CHECK_U64(gc_reader_bytes(r), GC_HEADER_MAX + 32 * gc_reader_records(r) + 32);
	}
	gc_reader_close(r);
	free(name);
	free(v);
	gc_header_free(&h);
}

/* The writer's refusals: each a bug in the calling tool. */
/* No ".NAME.XXXXXX" beside path (what gc_atomic_open makes). */
static int no_temporary(const char *path)
{
	char dir[512], pre[300];
	const char *slash = strrchr(path, '/');
	snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - path) : 1, slash ? path : ".");
	snprintf(pre, sizeof pre, ".%s.", slash ? slash + 1 : path);
	DIR *d = opendir(dir);
	if (!d)
		return 0;
	struct dirent *e;
	int none = 1;
	while ((e = readdir(d)))
		if (strncmp(e->d_name, pre, strlen(pre)) == 0)
			none = 0;
	closedir(d);
	return none;
}

void t_writer_refuses(void)
{
	const char *path = tmp_file();
	char want[700];
	gc_header h;
	gc_header_init(&h, GC_KIND_ACCESS);
	static gc_kernel k;
	gc_kernel_init(&k, 3, "k");
	gc_rec r = mkrec(GC_LOAD, GC_GLOBAL, 0x100, 50);

	gc_writer *w = gc_writer_open(path, &h, 0);
	CHECK(gc_write(w, &r) < 0);
	snprintf(want, sizeof want, "%s: record 1: data record outside a kernel (a bug in this tool)", path);
	CHECK_STR(gc_writer_error(w), want);
	CHECK(gc_write_kbegin(w, &k) < 0); /* the failure sticks */
	CHECK(gc_writer_close(w) < 0);
	gc_writer_free(w);

	w = gc_writer_open(path, &h, 0);
	CHECK(gc_write_kbegin(w, &k) == 0);
	CHECK(gc_write(w, &r) == 0);
	r.time = 49;
	CHECK(gc_write(w, &r) < 0);
	snprintf(want, sizeof want, "%s: record 4: timestamp 49 is earlier than the previous "
		 "record's 50 (a bug in this tool)", path);
	CHECK_STR(gc_writer_error(w), want);
	gc_writer_free(w);
	/* Nothing reached the file (the first block was never flushed). */
	gc_reader *rd = gc_reader_open(path);
	gc_rec got;
	CHECK(gc_read(rd, &got) == GC_ERR);
	snprintf(want, sizeof want, "%s: empty input", path);
	CHECK_STR(gc_reader_error(rd), want);
	gc_reader_close(rd);

	static const struct {
		int kind;
		gc_rec r;
		const char *msg;
	} bad[] = {
		{GC_KIND_ACCESS, {.op = 0, .time = 60}, "record 4: bad operation, space or flags (a bug in this tool)"},
		{GC_KIND_ACCESS, {.op = GC_ATOMIC + 1, .time = 60}, "record 4: bad operation, space or flags (a bug in this tool)"},
		{GC_KIND_ACCESS, {.op = GC_LOAD, .space = GC_NSPACES, .time = 60}, "record 4: bad operation, space or flags (a bug in this tool)"},
		{GC_KIND_ACCESS, {.op = GC_LOAD, .flags = 16, .time = 60}, "record 4: bad operation, space or flags (a bug in this tool)"},
		{GC_KIND_ACCESS, {.op = GC_LOAD, .size = 256, .time = 60}, "record 4: access size out of range for accesses"},
		{GC_KIND_ACCESS, {.op = GC_LOAD, .size = 0, .time = 60}, "record 4: access size out of range for accesses"},
		{GC_KIND_REQUEST, {.op = GC_LOAD, .addr = GC_ADDR48_MAX + 1, .time = 60},
		 "record 4: line address beyond 48 bits out of range for requests"},
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		gc_header hb;
		gc_header_init(&hb, (enum gc_kind)bad[i].kind);
		w = gc_writer_open(path, &hb, 0);
		gc_kernel_init(&k, 1, "k");
		CHECK(gc_write_kbegin(w, &k) == 0);
		gc_rec ok = mkrec(GC_LOAD, GC_GLOBAL, 0, 10);
		CHECK(gc_write(w, &ok) == 0);
		CHECK(gc_write(w, &bad[i].r) < 0);
		snprintf(want, sizeof want, "%s: %s", path, bad[i].msg);
		CHECK_STR(gc_writer_error(w), want);
		gc_writer_free(w);
	}

	w = gc_writer_open(path, &h, 0);
	gc_kernel_init(&k, 1, "k");
	CHECK(gc_write_kbegin(w, &k) == 0);
	gc_kernel_init(&k, 2, "k");
	CHECK(gc_write_kbegin(w, &k) < 0);
	snprintf(want, sizeof want, "%s: kernel 2 begins before kernel 1 ended (a bug in this tool)", path);
	CHECK_STR(gc_writer_error(w), want);
	gc_writer_free(w);

	w = gc_writer_open(path, &h, 0);
	gc_kernel_init(&k, 1, "k");
	CHECK(gc_write_kbegin(w, &k) == 0);
	CHECK(gc_write_kend(w, 2) < 0);
	snprintf(want, sizeof want, "%s: kernel 2 ends but is not open (a bug in this tool)", path);
	CHECK_STR(gc_writer_error(w), want);
	gc_writer_free(w);

	w = gc_writer_open(path, &h, 0);
	CHECK(gc_write_kend(w, 0) < 0);
	snprintf(want, sizeof want, "%s: kernel 0 ends but is not open (a bug in this tool)", path);
	CHECK_STR(gc_writer_error(w), want);
	gc_writer_free(w);

	/* Closed inside a kernel after more than one 1 MiB block: what was
	 * flushed (64 header bytes and 32766 records) went to a temporary
	 * beside the file (base/atomic.h), which abandon removes: the file is
	 * as it was (empty here), and no temporary is left. */
	w = gc_writer_open(path, &h, 0);
	gc_kernel_init(&k, 5, "k");
	CHECK(gc_write_kbegin(w, &k) == 0);
	for (int i = 0; i < 40000; i++)
		gc_write(w, &r);
	CHECK(gc_writer_close(w) < 0);
	snprintf(want, sizeof want, "%s: stream closed inside kernel 5 (a bug in this tool)", path);
	CHECK_STR(gc_writer_error(w), want);
	struct stat st;
	CHECK(stat(path, &st) == 0 && st.st_size == 0);
	gc_writer_free(w);
	CHECK(stat(path, &st) == 0 && st.st_size == 0);
	CHECK(no_temporary(path));
	rd = gc_reader_open(path);
	CHECK(gc_reader_failed(rd));
	snprintf(want, sizeof want, "%s: empty input", path);
	CHECK_STR(gc_reader_error(rd), want);
	gc_reader_close(rd);

	w = gc_writer_open("/nonexistent/dir/out.gcs", &h, 0);
	CHECK(gc_writer_failed(w));
	CHECK_STR(gc_writer_error(w), "/nonexistent/dir/out.gcs: No such file or directory");
	gc_writer_free(w);
	gc_header_free(&h);
}

/* stream/format.h: grid[1..2] are up to 65535 (16 bits in the record). */
void t_writer_grid_range(void)
{
	const char *path = tmp_file();
	gc_header h;
	gc_header_init(&h, GC_KIND_ACCESS);
	gc_writer *w = gc_writer_open(path, &h, 0);
	static gc_kernel k;
	gc_kernel_init(&k, 1, "k");
	k.grid[1] = 70000;
	if (!CHECK(gc_write_kbegin(w, &k) < 0))
		printf("#     grid y 70000 was written (it reads back as %u)\n", 70000u & 0xffff);
	char want[700];
	snprintf(want, sizeof want, "%s: kernel 1: grid 1,70000,1: y and z must be at most 65535 "
		 "(a bug in this tool)", path);
	CHECK_STR(gc_writer_error(w), want);
	gc_writer_free(w);
	w = gc_writer_open(path, &h, 0);
	k.grid[1] = 1;
	k.grid[2] = 65536;
	CHECK(gc_write_kbegin(w, &k) < 0);
	gc_writer_free(w);
	/* The limits themselves are written and read back. */
	w = gc_writer_open(path, &h, 0);
	k.grid[0] = 0xffffffffu;
	k.grid[1] = k.grid[2] = 65535;
	CHECK(gc_write_kbegin(w, &k) == 0 && gc_write_kend(w, 1) == 0 && gc_writer_close(w) == 0);
	gc_writer_free(w);
	gc_reader *r = gc_reader_open(path);
	gc_rec rec;
	CHECK(gc_read(r, &rec) == GC_KBEGIN);
	const gc_kernel *rk = gc_reader_kernel(r);
	CHECK(rk->grid[0] == 0xffffffffu && rk->grid[1] == 65535 && rk->grid[2] == 65535);
	gc_reader_close(r);
	gc_header_free(&h);
}

/* gc_writer_open refuses a header it cannot honour, before it opens (and
 * truncates) the output. */
void t_writer_open_checks(void)
{
	const char *path = tmp_with("keep", 4);
	static const struct {
		unsigned kind, record_size;
		uint32_t required;
		const char *msg;
	} t[] = {
		{0, 32, 0, "cannot write record kind 0 (a bug in this tool)"},
		{4, 32, 0, "cannot write record kind 4 (a bug in this tool)"},
		{GC_KIND_ACCESS, 0, 0, "cannot write record size 0 (a multiple of 8 from 32 to 256; a bug in this tool)"},
		{GC_KIND_ACCESS, 24, 0, "cannot write record size 24 (a multiple of 8 from 32 to 256; a bug in this tool)"},
		{GC_KIND_REQUEST, 36, 0, "cannot write record size 36 (a multiple of 8 from 32 to 256; a bug in this tool)"},
		{GC_KIND_DRAM, 264, 0, "cannot write record size 264 (a multiple of 8 from 32 to 256; a bug in this tool)"},
		{GC_KIND_ACCESS, 32, 2, "cannot write unknown required feature flag 0x2 (a bug in this tool)"},
		{GC_KIND_ACCESS, 32, 0x80000000u, "cannot write unknown required feature flag 0x80000000 (a bug in this tool)"},
	};
	char want[700];
	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
		gc_header h;
		gc_header_init(&h, GC_KIND_ACCESS);
		h.kind = (uint16_t)t[i].kind;
		h.record_size = (uint16_t)t[i].record_size;
		h.required = t[i].required;
		gc_writer *w = gc_writer_open(path, &h, 0);
		CHECK(w && gc_writer_failed(w));
		snprintf(want, sizeof want, "%s: %s", path, t[i].msg);
		CHECK_STR(gc_writer_error(w), want);
		CHECK(gc_writer_close(w) < 0);
		gc_writer_free(w);
		gc_header_free(&h);
	}
	/* The file was not touched. */
	struct stat st;
	CHECK(stat(path, &st) == 0 && st.st_size == 4);
	/* A larger record size is written, its extra bytes zero (for data
	 * records too), and read back. */
	gc_header h;
	gc_header_init(&h, GC_KIND_ACCESS);
	h.record_size = 40;
	gc_writer *w = gc_writer_open(path, &h, 0);
	static gc_kernel k;
	gc_kernel_init(&k, 1, "k");
	gc_rec r = mkrec(GC_LOAD, GC_GLOBAL, UINT64_MAX, 7);
	r.lane = 0xff;
	r.sm = r.warp = 0xffff;
	r.block = r.pc = r.seq = 0xffffffffu;
	CHECK(gc_write_kbegin(w, &k) == 0);
	for (int i = 0; i < 3; i++)
		CHECK(gc_write(w, &r) == 0);
	CHECK(gc_write_kend(w, 1) == 0 && gc_writer_close(w) == 0);
	gc_writer_free(w);
	FILE *f = fopen(path, "rb");
	unsigned char b[512];
	size_t n = f ? fread(b, 1, sizeof b, f) : 0;
	if (f)
		fclose(f);
	/* header 64 bytes; kbegin, name, 3 data, kend, end: 7 records of 40 */
	CHECK_U64(n, 64 + 7 * 40);
	for (int rec = 0; rec < 7 && n == 64 + 7 * 40; rec++)
		for (int i = 32; i < 40; i++)
			if (!CHECK(b[64 + rec * 40 + i] == 0))
				printf("#     record %d byte %d\n", rec + 1, i);
	gc_reader *rd = gc_reader_open(path);
	gc_rec got;
	int ev, ndata = 0;
	while ((ev = gc_read(rd, &got)) > 0)
		if (ev == GC_DATA) {
			ndata++;
			CHECK(got.addr == UINT64_MAX && got.lane == 0xff && got.seq == 0xffffffffu &&
			      got.time == 7 && got.size == 4);
		}
	CHECK(ev == GC_EOF);
	CHECK(ndata == 3);
	gc_reader_close(rd);
	gc_header_free(&h);
}

void t_reader_open(void)
{
	gc_reader *r = gc_reader_open("/nonexistent/in.gcs");
	CHECK(r && gc_reader_failed(r));
	CHECK_STR(gc_reader_error(r), "/nonexistent/in.gcs: No such file or directory");
	gc_rec rec;
	CHECK(gc_read(r, &rec) == GC_ERR);
	gc_reader_close(r);
	r = gc_reader_open("/");
	CHECK(r && gc_reader_failed(r));
	CHECK_STR(gc_reader_error(r), "/: is a directory");
	gc_reader_close(r);
	const char *path = tmp_with("", 0);
	r = gc_reader_open(path);
	char want[600];
	snprintf(want, sizeof want, "%s: empty input", path);
	CHECK(gc_reader_failed(r));
	CHECK_STR(gc_reader_error(r), want);
	gc_reader_close(r);
	gc_reader_close(NULL);
	gc_writer_free(NULL);
}


/* The end of a read of the whole file: no failure, all n records read,
 * none differing; r closed. */
static void read_end(gc_reader *r, uint64_t i, uint64_t n, uint64_t bad)
{
	CHECK(r && !gc_reader_failed(r));
	gc_reader_close(r);
	CHECK_U64(i, n);
	CHECK_U64(bad, 0);
}

/* After a batch: the next event by gc_read, a data record checked as
 * record *i of want (num: its number); 0 at the end or on an error. */
static int read_next(gc_reader *r, const gc_rec *want, const uint64_t *num, uint64_t n,
		     uint64_t *i, uint64_t *bad)
{
	gc_rec got;
	int ev = r ? gc_read(r, &got) : GC_ERR;
	if (ev <= 0)
		return 0;
	if (ev == GC_DATA && *i < n) {
		*bad += got.addr != want[*i].addr || gc_reader_records(r) != num[*i];
		(*i)++;
	}
	return 1;
}

/* A request stream of n loads at path, a kernel every `per` of them,
 * the clock going up 2^31 + jump every 700th record (a time-base
 * record); varied: stores too, and mask, size, flags, sm and seq
 * changing.  The checks count as the caller's. */
static void write_jumping(const char *path, uint64_t n, uint64_t per, uint64_t jump, int varied)
{
	gc_header h;
	gc_header_init(&h, GC_KIND_REQUEST);
	gc_writer *w = gc_writer_open(path, &h, 0);
	if (!CHECK(w))
		return;
	static gc_kernel k;
	uint64_t t = 0;
	for (uint64_t i = 0; i < n; i++) {
		if (i % per == 0) {
			if (i)
				CHECK(gc_write_kend(w, (uint32_t)(i / per)) == 0);
			gc_kernel_init(&k, (uint32_t)(i / per + 1), "k");
			CHECK(gc_write_kbegin(w, &k) == 0);
		}
		t += i % 700 == 699 ? UINT64_C(0x80000000) + jump : i % 2;
		gc_rec r = mkrec(varied && i % 3 == 0 ? GC_STORE : GC_LOAD, GC_GLOBAL, i * 128, t);
		r.mask = 1;
		if (varied) {
			r.mask = (uint8_t)(1 + i % 15);
			r.size = (uint16_t)(32 * (1 + i % 4));
			r.flags = (uint8_t)(i % 16);
			r.sm = (uint16_t)i;
			r.seq = (uint32_t)i;
		}
		CHECK(gc_write(w, &r) == 0);
	}
	CHECK(gc_write_kend(w, (uint32_t)((n - 1) / per + 1)) == 0);
	CHECK(gc_writer_close(w) == 0);
	gc_writer_free(w);
	gc_header_free(&h);
}

/* gc_read_data gives the records gc_read gives, and each one's number as
 * gc_reader_records says it after gc_read, time-base and kernel records
 * counted between them (every 700th record jumps 2^31 cycles). */
void t_read_data(void)
{
	const char *path = tmp_file();
	uint64_t n = 5000;
	write_jumping(path, n, 2000, 0, 0);

	static gc_rec want[5000], got[8];
	static uint64_t num[5000];
	uint64_t m = 0, nums[8];
	gc_reader *r = gc_reader_open(path);
	int ev;
	while (r && (ev = gc_read(r, &got[0])) > 0)
		if (ev == GC_DATA && m < n) {
			want[m] = got[0];
			num[m++] = gc_reader_records(r);
		}
	gc_reader_close(r);
	CHECK_U64(m, n);
	r = gc_reader_open(path);
	uint64_t i = 0, bad = 0;
	for (;;) {
		size_t b = r ? gc_read_data(r, got, nums, 7) : 0;
		for (size_t j = 0; j < b && i < n; j++, i++)
			bad += got[j].addr != want[i].addr || got[j].time != want[i].time ||
			       nums[j] != num[i];
		if (b)
			continue;
		if (!read_next(r, want, num, n, &i, &bad))
			break;
	}
	read_end(r, i, n, bad);
	/* gc_read_raw: the same records in place (the address in bytes 24-29
	 * of a request, the clock's low half in 20-23), taken as gc_read
	 * takes them (the count after a run is its last record's number). */
	r = gc_reader_open(path);
	i = bad = 0;
	for (;;) {
		size_t b = 0;
		uint64_t hi = 0;
		const unsigned char *p = r ? gc_read_raw(r, 5, &b, &hi) : NULL;
		for (size_t j = 0; j < b && i < n; j++, i++, p += 32)
			bad += (gc_get64(p + 24) & GC_ADDR48_MAX) != want[i].addr ||
			       (hi | gc_get32(p + 20)) != want[i].time || p[0] != GC_LOAD;
		if (b) {
			bad += b > 5 || gc_reader_records(r) != num[i - 1];
			continue;
		}
		if (!read_next(r, want, num, n, &i, &bad))
			break;
	}
	read_end(r, i, n, bad);
	/* gc_read_block: the same records, checked here as gc-stats does
	 * (gc_word_ok on a change of the masked word, the clock's low
	 * halves), at most 3 of each block taken (the rest left for the
	 * next call): gc_read_take leaves the count and clock as gc_read. */
	r = gc_reader_open(path);
	i = bad = 0;
	for (;;) {
		gc_block k;
		size_t b = r ? gc_read_block(r, 5, &k) : 0, t = 0;
		uint32_t low = k.low, last = GC_WORD_NONE;
		for (const unsigned char *p = k.p; t < b && t < 3 && i < n; t++, i++, p += 32) {
			uint32_t w = gc_get32(p) & k.word_mask;
			if ((w != last && !gc_word_ok(w, k.word_min)) || gc_get32(p + 20) < low)
				break;
			last = w;
			low = gc_get32(p + 20);
			bad += (gc_get64(p + 24) & GC_ADDR48_MAX) != want[i].addr ||
			       (k.time_hi | low) != want[i].time;
		}
		if (t) {
			gc_read_take(r, t, low);
			bad += b > 5 || gc_reader_records(r) != num[i - 1];
			continue;
		}
		if (!read_next(r, want, num, n, &i, &bad))
			break;
	}
	read_end(r, i, n, bad);
	/* before the last: 5000 data, 3 kernel begins (a begin and a name
	 * record each), 2 kernel ends, 3 time bases (7 jumps of 2^31) */
	CHECK_U64(num[n - 1], n + 3 * 2 + 2 + 3);
}

/* Read path's records (data only) into got[], at most max, with gc_read
 * (batch 0) or gc_read_data batches of `batch`; how many, -1 on an error. */
static long read_all(const char *path, gc_rec *got, long max, size_t batch)
{
	gc_reader *r = gc_reader_open(path);
	long n = 0;
	int ev = GC_ERR;
	for (;;) {
		size_t b = r && batch && n < max ? gc_read_data(r, got + n, NULL,
							    batch < (size_t)(max - n) ? batch : (size_t)(max - n)) : 0;
		n += (long)b;
		if (b)
			continue;
		gc_rec x;
		if (!r || (ev = gc_read(r, &x)) <= 0)
			break;
		if (ev == GC_DATA && n < max)
			got[n++] = x;
	}
	if (ev != GC_EOF && r)
		printf("#     %s\n", gc_reader_error(r));
	gc_reader_close(r);
	return ev == GC_EOF ? n : -1;
}

/* The compute field (gc-stream(5)): bytes 40-47 under GC_OPT_COMPUTE,
 * minor version 2, beside the distance at 32-39; zero in control records
 * and in the bytes after it; 0 in the record read from a stream without
 * the flag, whatever the bytes hold. */
/* The bytes of file path into b, at most max: how many. */
static size_t file_bytes(const char *path, unsigned char *b, size_t max)
{
	FILE *f = fopen(path, "rb");
	size_t n = f ? fread(b, 1, max, f) : 0;
	if (f)
		fclose(f);
	return n;
}

/* Four loads at path in 64-byte records, distance and compute (the
 * distances 10 to 13, the compute fields cf[]); the file's bytes into b
 * (at most max): how many. */
static size_t write_wide(const char *path, const uint64_t cf[4], unsigned char *b, size_t max)
{
	gc_header h;
	gc_header_init(&h, GC_KIND_REQUEST);
	h.optional = GC_OPT_COMPUTE | GC_OPT_DISTANCE;
	h.record_size = 64;
	gc_writer *w = gc_writer_open(path, &h, 0);
	static gc_kernel k;
	gc_kernel_init(&k, 1, "k");
	CHECK(w && gc_write_kbegin(w, &k) == 0);
	for (int i = 0; w && i < 4; i++) {
		gc_rec r = mkrec(GC_LOAD, GC_GLOBAL, 0x1000 + 128 * (uint64_t)i, (uint64_t)i);
		r.mask = 1;
		r.dist = (uint64_t)i + 10;
		r.compute = cf[i];
		CHECK(gc_write(w, &r) == 0);
	}
	CHECK(w && gc_write_kend(w, 1) == 0 && gc_writer_close(w) == 0);
	gc_writer_free(w);
	gc_header_free(&h);
	return file_bytes(path, b, max);
}

void t_stream_compute(void)
{
	CHECK_U64(gc_stream_minor(0), 0);
	CHECK_U64(gc_stream_minor(GC_OPT_SCHEDULED | GC_OPT_ANNOTATED), 0);
	CHECK_U64(gc_stream_minor(GC_OPT_DISTANCE), 1);
	CHECK_U64(gc_stream_minor(GC_OPT_COMPUTE), 2);
	CHECK_U64(gc_stream_minor(GC_OPT_COMPUTE | GC_OPT_DISTANCE), 2);
	CHECK_U64(gc_stream_minor(GC_OPT_PREFETCH | GC_OPT_COMPUTE), 3); /* no field: 32 */
	CHECK_U64(gc_record_size_min(GC_OPT_PREFETCH), 32);
	CHECK_U64(gc_record_size_min(GC_OPT_SCHEDULED), 32);
	CHECK_U64(gc_record_size_min(GC_OPT_DISTANCE), 40);
	CHECK_U64(gc_record_size_min(GC_OPT_COMPUTE), 48);
	CHECK_U64(gc_record_size_min(GC_OPT_COMPUTE | GC_OPT_DISTANCE), 48);
	/* 3 | 5 << 24 | 1 << 50 | valid */
	CHECK_U64(GC_CF_MAKE(3, 5, 1), UINT64_C(0x8004000005000003));
	CHECK_U64(GC_CF_MAKE(1u << 24, 1u << 26, 1u << 12), GC_CF_VALID); /* each wraps to 0 */

	const char *path = tmp_file();
	char want[700];
	gc_header h;
	gc_header_init(&h, GC_KIND_REQUEST);
	h.optional = GC_OPT_COMPUTE;
	h.record_size = 40;
	gc_writer *w = gc_writer_open(path, &h, 0);
	CHECK(w && gc_writer_failed(w));
	snprintf(want, sizeof want, "%s: cannot write compute fields in 40-byte records "
		 "(a bug in this tool)", path);
	CHECK_STR(gc_writer_error(w), want);
	gc_writer_free(w);

	/* 64-byte records, distance and compute: bytes 48-63 stay zero. */
	static const uint64_t cf[4] = {GC_CF_MAKE(3, 5, 1), 0, UINT64_MAX, UINT64_C(0x4000000000000001)};
	unsigned char b[1024];
	size_t n = write_wide(path, cf, b, sizeof b);
	/* header 64 bytes; kbegin, name, 4 data, kend, end: 8 records of 64 */
	if (!CHECK_U64(n, 64 + 8 * 64))
		return;
	CHECK_U64(gc_get16(b + 10), 2);
	for (int rec = 0; rec < 8; rec++) {
		const unsigned char *p = b + 64 + rec * 64;
		int data = rec >= 2 && rec < 6;
		CHECK_U64(gc_get64(p + 32), data ? (uint64_t)rec - 2 + 10 : 0);
		CHECK_U64(gc_get64(p + 40), data ? cf[rec - 2] : 0);
		for (int i = 48; i < 64; i++)
			if (!CHECK(p[i] == 0))
				printf("#     record %d byte %d\n", rec + 1, i);
	}
	gc_rec got[8];
	for (size_t batch = 0; batch < 4; batch += 3) {
		memset(got, 0xee, sizeof got);
		if (!CHECK(read_all(path, got, 8, batch) == 4))
			continue;
		for (int i = 0; i < 4; i++)
			CHECK(got[i].compute == cf[i] && got[i].dist == (uint64_t)i + 10 &&
			      got[i].addr == 0x1000 + 128 * (uint64_t)i);
	}

	/* Without the flag: the reader gives 0, whatever bytes 40-47 hold. */
	gc_put32(b + 24, GC_OPT_DISTANCE);
	for (int rec = 2; rec < 6; rec++)
		memset(b + 64 + rec * 64 + 40, 0xff, 8);
	path = tmp_with(b, n);
	for (size_t batch = 0; batch < 4; batch += 3) {
		memset(got, 0xee, sizeof got);
		if (!CHECK(read_all(path, got, 8, batch) == 4))
			continue;
		for (int i = 0; i < 4; i++)
			CHECK(got[i].compute == 0 && got[i].dist == (uint64_t)i + 10);
	}
	gc_header_free(&h);
}

/* Copy stream `in` to `out`: its data records by gc_write_raw (raw != 0,
 * gc_read_raw's runs of up to 7 as they lie) or by gc_write of each
 * decoded with gc_reader_decode, compared with gc_read's (*bad counts
 * differences); kernel records through.  The records copied. */
static uint64_t copy_decoded(const char *in, const char *out, int raw, const gc_rec *want,
			    uint64_t nwant, uint64_t *bad)
{
	gc_reader *r = gc_reader_open(in);
	gc_writer *w = r ? gc_writer_open(out, gc_reader_header(r), 0) : NULL;
	uint64_t i = 0;
	int ev = GC_ERR;
	gc_rec rec;
	while (w) {
		size_t n;
		uint64_t hi;
		const unsigned char *p = gc_read_raw(r, 7, &n, &hi);
		if (n && raw) {
			*bad += gc_write_raw(w, p, n, hi) != 0;
			i += n;
		}
		for (size_t j = 0; !raw && j < n; j++, i++, p += gc_reader_header(r)->record_size) {
			gc_reader_decode(r, p, hi, &rec);
			*bad += i >= nwant || !same_rec(&rec, &want[i], GC_KIND_ACCESS) ||
				rec.dist != want[i].dist || rec.compute != want[i].compute;
			*bad += gc_write(w, &rec) != 0;
		}
		if (n)
			continue;
		if ((ev = gc_read(r, &rec)) <= 0)
			break;
		*bad += ev == GC_DATA; /* gc_read_raw gives every data record */
		if (ev == GC_KBEGIN)
			*bad += gc_write_kbegin(w, gc_reader_kernel(r)) != 0;
		else if (ev == GC_KEND)
			*bad += gc_write_kend(w, rec.kernel) != 0;
	}
	*bad += ev != GC_EOF || !w || gc_writer_close(w) != 0;
	gc_writer_free(w);
	gc_reader_close(r);
	return i;
}

/* gc_write_raw writes what gc_write writes of the records decoded (and
 * gc_reader_decode gives what gc_read gives): 32-byte records and 64-byte
 * ones with a distance and a compute field and junk in their reserved
 * bytes (written as 0 both ways), 40000 records over a block (1 MiB) in
 * two kernels, the clock jumping 2^31 now and then (time-base records
 * between runs); and its refusals are gc_write's, word for word. */
void t_write_raw_decode(void)
{
	static gc_rec want[40000];
	static unsigned char a[3 << 20], b[3 << 20];
	const uint64_t n = 40000;
	for (int big = 0; big < 2; big++) {
		const char *path = tmp_file(), *p1 = tmp_file(), *p2 = tmp_file();
		gc_header h;
		gc_header_init(&h, GC_KIND_ACCESS);
		if (big) {
			h.optional = GC_OPT_DISTANCE | GC_OPT_COMPUTE;
			h.record_size = 64;
		}
		gc_writer *w = gc_writer_open(path, &h, 0);
		if (!CHECK(w && !gc_writer_failed(w)))
			return;
		static gc_kernel k;
		uint64_t t = 5;
		for (uint64_t i = 0; i < n; i++) {
			if (i % 30000 == 0) {
				if (i)
					CHECK(gc_write_kend(w, 1) == 0);
				gc_kernel_init(&k, (uint32_t)(i / 30000 + 1), "raw");
				CHECK(gc_write_kbegin(w, &k) == 0);
			}
			t += i % 3001 == 3000 ? UINT64_C(0x80000000) : i % 3;
			gc_rec r = mkrec(GC_LOAD + (int)(i % 3), (int)(i % GC_NSPACES), i * 36, t);
			r.flags = (uint8_t)(i % 4);
			r.lane = (uint8_t)(i % 32);
			r.size = (uint16_t)(1 + i % 255);
			r.sm = (uint16_t)(i % 80);
			r.warp = (uint16_t)(i % 48);
			r.block = (uint32_t)(i / 512);
			r.pc = (uint32_t)(i % 7) * 16;
			r.seq = (uint32_t)(i / 32);
			r.dist = big ? i * 3 : GC_DIST_NONE;
			r.compute = big ? GC_CF_MAKE(i % 100, 1, 0) : 0;
			CHECK(gc_write(w, &r) == 0);
		}
		CHECK(gc_write_kend(w, 2) == 0 && gc_writer_close(w) == 0);
		gc_writer_free(w);
		gc_header_free(&h);
		size_t len = file_bytes(path, a, sizeof a), hs = gc_get32(a + 12);
		if (!CHECK(len > hs && len < sizeof a))
			return;
		if (big) { /* junk in the reserved bytes 48-63 of every record */
			for (size_t o = hs; o + 64 <= len; o += 64)
				if (a[o] >= GC_LOAD && a[o] <= GC_ATOMIC)
					memset(a + o + 48, 0xa5, 16);
			FILE *f = fopen(path, "wb");
			CHECK(f && fwrite(a, 1, len, f) == len);
			if (f)
				fclose(f);
		}
		gc_reader *r = gc_reader_open(path);
		uint64_t m = 0, bad = 0;
		gc_rec got;
		int ev;
		while (r && (ev = gc_read(r, &got)) > 0)
			if (ev == GC_DATA && m < n)
				want[m++] = got;
		CHECK(r && !gc_reader_failed(r));
		gc_reader_close(r);
		CHECK_U64(m, n);
		CHECK_U64(copy_decoded(path, p1, 1, want, n, &bad), n);
		CHECK_U64(copy_decoded(path, p2, 0, want, n, &bad), n);
		CHECK_U64(bad, 0);
		size_t l1 = file_bytes(p1, a, sizeof a), l2 = file_bytes(p2, b, sizeof b);
		CHECK(l1 == l2 && l1 > 1 << 20 && memcmp(a, b, l1) == 0);
	}
}

/* Copy stream `in` to `out` event by event, its data records by
 * gc_read_raw runs of at most `batch` and gc_write_raw (batch 0: gc_read
 * and gc_write), or with `issued` each run as gc-sched issues one: its
 * SM the count of runs before it, its clock the first one's, by
 * gc_write_issued (issued 1) or gc_write of each decoded (issued 2):
 * 0, or -1. */
static int copy_issued(const char *in, const char *out, size_t batch, int issued)
{
	uint64_t runs = 0;
	gc_reader *r = gc_reader_open(in);
	gc_writer *w = r && !gc_reader_failed(r) ? gc_writer_open(out, gc_reader_header(r), 0)
						  : NULL;
	int rc = w && !gc_writer_failed(w) ? 0 : -1;
	gc_rec rec;
	while (!rc) {
		size_t n = 0;
		uint64_t hi = 0;
		const unsigned char *p = batch ? gc_read_raw(r, batch, &n, &hi) : NULL;
		uint64_t t = n ? hi | gc_get32(p + 20) : 0;
		unsigned sm = (unsigned)(runs++ & 0xffff);
		if (n && issued == 1)
			rc = gc_write_issued(w, p, n, sm, t);
		for (size_t i = 0; issued == 2 && i < n && !rc; i++) {
			gc_reader_decode(r, p + i * gc_reader_header(r)->record_size, hi, &rec);
			rec.sm = (uint16_t)sm;
			rec.time = t;
			rc = gc_write(w, &rec);
		}
		if (n) {
			if (!issued)
				rc = gc_write_raw(w, p, n, hi);
			continue;
		}
		int ev = gc_read(r, &rec);
		if (ev == GC_DATA)
			rc = gc_write(w, &rec);
		else if (ev == GC_KBEGIN)
			rc = gc_write_kbegin(w, gc_reader_kernel(r));
		else if (ev == GC_KEND)
			rc = gc_write_opcodes(w, gc_reader_opcodes(r)) < 0 ? -1
									   : gc_write_kend(w, rec.kernel);
		else if (ev == GC_EOF)
			break;
		else
			rc = -1;
	}
	if (!rc)
		rc = gc_writer_close(w);
	gc_writer_free(w);
	gc_reader_close(r);
	return rc;
}

static int copy_stream(const char *in, const char *out, size_t batch)
{
	return copy_issued(in, out, batch, 0);
}

/* Whether files a and b hold the same bytes. */
static int same_file(const char *a, const char *b)
{
	FILE *f = fopen(a, "rb"), *g = fopen(b, "rb");
	int same = f && g;
	while (same) {
		int c = getc(f);
		same = c == getc(g);
		if (c == EOF)
			break;
	}
	if (f)
		fclose(f);
	if (g)
		fclose(g);
	return same;
}

/* gc_write_raw writes what gc_write writes for the records decoded: a
 * stream of 40,000 requests over two kernels, the clock jumping 2^31
 * every 700th (time-base records, the writer's 1 MiB block filled in
 * the middle of a run), copied in runs of 3 and whole; 64-byte records
 * whose bytes past the fields hold junk (cleared, the distance and
 * compute fields kept by the flags); its refusals are gc_write's. */
void t_write_raw(void)
{
	const char *path = tmp_file(), *dec = tmp_file(), *raw = tmp_file();
	write_jumping(path, 40000, 20000, 5, 1);
	CHECK(copy_stream(path, dec, 0) == 0 && same_file(path, dec));
	CHECK(copy_stream(path, raw, 3) == 0 && same_file(path, raw));
	CHECK(copy_stream(path, raw, SIZE_MAX) == 0 && same_file(path, raw));
	/* gc_write_issued: gc_write of each with the SM and clock set */
	CHECK(copy_issued(path, dec, 3, 2) == 0 && !same_file(path, dec));
	CHECK(copy_issued(path, raw, 3, 1) == 0 && same_file(dec, raw));

	/* 64 bytes: junk at 48-63 under distance and compute, at 40-63 under
	 * the distance alone */
	static const uint64_t cf[4] = {GC_CF_MAKE(3, 5, 0), GC_CF_MAKE(3, 5, 1),
				       GC_CF_MAKE(3, 5, 2), GC_CF_MAKE(3, 5, 3)};
	for (int flags = 0; flags < 2; flags++) {
		unsigned char b[1024];
		size_t len = write_wide(path, cf, b, sizeof b);
		if (!CHECK_U64(len, 64 + 8 * 64))
			break;
		if (flags)
			gc_put32(b + 24, GC_OPT_DISTANCE);
		for (int rec = 2; rec < 6; rec++)
			memset(b + 64 + rec * 64 + (flags ? 40 : 48), 0xab, flags ? 24 : 16);
		const char *junk = tmp_with(b, len);
		CHECK(copy_stream(junk, dec, 0) == 0);
		CHECK(copy_stream(junk, raw, 3) == 0 && same_file(dec, raw));
		CHECK_U64(file_bytes(raw, b, sizeof b), 64 + 8 * 64);
		for (int rec = 2; rec < 6; rec++) {
			CHECK_U64(gc_get64(b + 64 + rec * 64 + 32), (uint64_t)rec - 2 + 10);
			CHECK_U64(gc_get64(b + 64 + rec * 64 + 40),
				  flags ? 0 : cf[rec - 2]);
			for (int i = 48; i < 64; i++)
				CHECK(b[64 + rec * 64 + i] == 0);
		}
	}

	/* outside a kernel, and a clock going back */
	gc_header h;
	gc_header_init(&h, GC_KIND_REQUEST);
	static gc_kernel k;
	unsigned char p[32] = {GC_LOAD};
	gc_put32(p + 20, 3);
	gc_writer *w = gc_writer_open(path, &h, 0);
	char want[700];
	CHECK(gc_write_raw(w, p, 1, 0) == -1);
	snprintf(want, sizeof want, "%s: record 1: data record outside a kernel (a bug in this "
		 "tool)", path);
	CHECK_STR(gc_writer_error(w), want);
	gc_writer_free(w);
	w = gc_writer_open(path, &h, 0);
	gc_kernel_init(&k, 1, "k");
	gc_rec r = mkrec(GC_LOAD, GC_GLOBAL, 0, 5);
	CHECK(gc_write_kbegin(w, &k) == 0 && gc_write(w, &r) == 0);
	CHECK(gc_write_raw(w, p, 1, 0) == -1);
	snprintf(want, sizeof want, "%s: record 4: timestamp 3 is earlier than the previous "
		 "record's 5 (a bug in this tool)", path);
	CHECK_STR(gc_writer_error(w), want);
	gc_writer_free(w);
	gc_header_free(&h);
}

/* A whole file into memory (its length in *n); NULL when unreadable. */
static unsigned char *lanes_slurp(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	unsigned char *b = NULL;
	size_t cap = 0, len = 0, k;
	do {
		if (len == cap) {
			cap = cap ? 2 * cap : 1 << 20;
			unsigned char *nb = realloc(b, cap);
			if (!nb)
				break;
			b = nb;
		}
		k = fread(b + len, 1, cap - len, f);
		len += k;
	} while (k);
	fclose(f);
	*n = len;
	return b;
}

/* gc_write_lanes writes the bytes gc_write of each lane writes: lists and
 * strides (a negative one), masks sparse and full, 40,000 instructions so
 * that blocks fill mid-instruction, and a clock past 32 bits (a time-base
 * record, the one-at-a-time path). */
void t_stream_lanes(void)
{
	const char *path[2] = {tmp_file(), tmp_file()};
	for (int way = 0; way < 2; way++) {
		gc_header h;
		gc_header_init(&h, GC_KIND_ACCESS);
		gc_writer *w = gc_writer_open(path[way], &h, 0);
		gc_kernel k;
		gc_kernel_init(&k, 7, "lanes");
		CHECK(gc_write_kbegin(w, &k) == 0);
		uint64_t s = 12345, addr[32];
		for (uint32_t i = 0; i < 40000; i++) {
			uint32_t mask = i % 3 == 0 ? 0xffffffffu : (uint32_t)(s >> 7) | 1u << 31;
			int strided = i % 2;
			uint64_t stride = i % 4 == 1 ? (uint64_t)-8 : 4 + i % 5;
			gc_rec r = mkrec(i % 5 == 0 ? GC_STORE : GC_LOAD, GC_GLOBAL, 0x7f0000000000 + i * 64,
					 i < 30000 ? i : (UINT64_C(1) << 32) + i);
			r.kernel = 7;
			r.warp = (uint16_t)(i % 48);
			r.block = i / 48;
			r.pc = i * 16;
			r.seq = i;
			r.sm = (uint16_t)(i % 80);
			r.size = (uint16_t)(1 + i % 16);
			for (int l = 0; l < 32; l++) {
				s = s * 6364136223846793005u + 1442695040888963407u;
				addr[l] = s >> 20;
			}
			if (way == 1) {
				CHECK(gc_write_lanes(w, &r, mask, strided ? NULL : addr, stride) == 0);
				continue;
			}
			uint64_t a = r.addr;
			for (uint32_t m = mask; m; m &= m - 1, a += stride) {
				gc_rec x = r;
				x.lane = (uint8_t)__builtin_ctz(m);
				x.addr = strided ? a : addr[x.lane];
				CHECK(gc_write(w, &x) == 0);
			}
		}
		CHECK(gc_write_kend(w, 7) == 0);
		CHECK(gc_writer_close(w) == 0);
		gc_writer_free(w);
		gc_header_free(&h);
	}
	size_t n0 = 0, n1 = 1;
	unsigned char *b0 = lanes_slurp(path[0], &n0), *b1 = lanes_slurp(path[1], &n1);
	CHECK(b0 && b1);
	CHECK_U64(n1, n0);
	CHECK(b0 && b1 && n0 == n1 && memcmp(b0, b1, n0) == 0);
	free(b0);
	free(b1);
}
