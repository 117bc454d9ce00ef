/*
 * text.c - test-lib units of the text side: SASS opcodes and numbers
 * (import/), text lines (stream/lines.h) and the JSON writer (report/).
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

void t_sass_width(void)
{
	/* trace-formats.md §1.6 */
	static const struct {
		const char *op;
		unsigned w;
	} t[] = {
		{"LDG.E.64.SYS", 8}, {"LDG.E.128", 16}, {"LDS.U.128", 16},
		{"LDG.E.U8.SYS", 1}, {"STG.E.U16", 2}, {"STG.E", 4},
		{"LDG.E.CG", 4}, {"ATOM.E.ADD.F32.FTZ.RN", 4},
		{"LDGSTS.E.BYPASS.LTC128B.128", 16}, {"ATOM.E.ADD.F64.RN", 4},
		{"LDG", 4}, {"STS.64", 8}, {"LDG.E.U8.64", 8}, {"LDG.E.S16", 4},
		{"LDG..E.32", 4}, {"ST.E.U32.STRONG.GPU", 4},
	};
	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
		if (!CHECK_U64(gc_sass_width(t[i].op), t[i].w))
			printf("#     opcode %s\n", t[i].op);
}

void t_sass_memop(void)
{
	static const struct {
		const char *opc;
		int is_mem;
		uint8_t op, space, flags;
	} t[] = {
		{"LDG.E.64.SYS", 1, GC_LOAD, GC_GLOBAL, 0},
		{"LDG.E.STRONG.GPU", 1, GC_LOAD, GC_GLOBAL, GC_F_BYPASS_L1},
		{"LDG.E.STRONG.SYS", 1, GC_LOAD, GC_GLOBAL, 0},
		{"LDG.E.GPU", 1, GC_LOAD, GC_GLOBAL, 0},
		{"LDGSTS.E.BYPASS.LTC128B.128", 1, GC_LOAD, GC_GLOBAL, 0},
		{"STG.E.U16", 1, GC_STORE, GC_GLOBAL, 0},
		{"LDL.64", 1, GC_LOAD, GC_LOCAL, 0},
		{"STL.128", 1, GC_STORE, GC_LOCAL, 0},
		{"LDS.U.128", 1, GC_LOAD, GC_SHARED, 0},
		{"LDSM.16.M88.4", 1, GC_LOAD, GC_SHARED, 0},
		{"STS.64", 1, GC_STORE, GC_SHARED, 0},
		{"ATOMS.ADD", 1, GC_ATOMIC, GC_SHARED, 0},
		{"ATOMG.E.ADD.STRONG.GPU", 1, GC_ATOMIC, GC_GLOBAL, GC_F_BYPASS_L1},
		{"ATOM.E.ADD.F32.FTZ.RN", 1, GC_ATOMIC, GC_GLOBAL, GC_F_BYPASS_L1},
		{"RED.E.ADD.STRONG.GPU", 1, GC_ATOMIC, GC_GLOBAL, GC_F_BYPASS_L1},
		{"LDC.64", 1, GC_LOAD, GC_CONST, 0},
		{"TEX.B.LL", 1, GC_LOAD, GC_TEXTURE, 0},
		{"TLD4.R", 1, GC_LOAD, GC_TEXTURE, 0},
		{"TLD.LZ", 1, GC_LOAD, GC_TEXTURE, 0},
		{"TLD4S.R", 1, GC_LOAD, GC_TEXTURE, 0},
		{"TXD.B", 1, GC_LOAD, GC_TEXTURE, 0},
		/* Surfaces are global memory. */
		{"SULD.P.2D", 1, GC_LOAD, GC_GLOBAL, 0},
		{"SUST.D.BA.2D.STRONG.GPU", 1, GC_STORE, GC_GLOBAL, 0},
		{"SUATOM.D.2D.ADD", 1, GC_ATOMIC, GC_GLOBAL, GC_F_BYPASS_L1},
		{"SURED.D.1D.ADD", 1, GC_ATOMIC, GC_GLOBAL, GC_F_BYPASS_L1},
		{"LDU.E.64", 1, GC_LOAD, GC_GLOBAL, 0},
		{"LD.E.64", 1, GC_LOAD, GC_GENERIC, 0},
		{"ST.E.64", 1, GC_STORE, GC_GENERIC, 0},
		{"IMAD.MOV.U32", 0, 0, 0, 0},
		{"FFMA", 0, 0, 0, 0},
		{"BAR.SYNC", 0, 0, 0, 0},
		{"MEMBAR.SC.GPU", 0, 0, 0, 0},
		{"DEPBAR.LE", 0, 0, 0, 0},
		{"EXIT", 0, 0, 0, 0},
		{"", 0, 0, 0, 0},
	};
	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
		uint8_t op = 99, space = 99, flags = 99;
		int m = gc_sass_memop(t[i].opc, &op, &space, &flags);
		int ok = CHECK_U64(m != 0, t[i].is_mem);
		if (ok && m)
			ok = CHECK_U64(op, t[i].op) && CHECK_U64(space, t[i].space) &&
			     CHECK_U64(flags, t[i].flags);
		if (!ok)
			printf("#     opcode %s\n", t[i].opc);
	}
}

/* Opcodes that share a prefix with memory instructions but are not. */
void t_sass_memop_nonmem(void)
{
	static const char *const t[] = {"LDGDEPBAR", "TEXDEPBAR", "DEPBAR", "DEPBAR.LE",
					"REDUX.SUM", "REDUX.MIN.S32", "TXQ.B", "TMML.LOD",
					"SUQ.D", "STSX", "LDX", "ATOMX", "REDX", "LDGX.E",
					"ST_E", "LDSLK", ".LDG", "ldg.e"};
	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
		uint8_t op, space, flags;
		if (!CHECK(gc_sass_memop(t[i], &op, &space, &flags) == 0))
			printf("#     %s classified as %s %s\n", t[i], gc_op_name(op),
			       gc_space_name(space));
	}
}

void t_parse_hex(void)
{
	const char *end = NULL;
	uint64_t v = 0;
	const char *s = "0x1f zz";
	CHECK(gc_parse_hex(s, &end, &v) == 1 && v == 0x1f && end == s + 4);
	s = "7fFfA,";
	CHECK(gc_parse_hex(s, &end, &v) == 1 && v == 0x7fffa && end == s + 5);
	s = "0XAB";
	CHECK(gc_parse_hex(s, &end, &v) == 1 && v == 0xab && end == s + 4);
	CHECK(gc_parse_hex("0xffffffffffffffff", &end, &v) == 1 && v == UINT64_MAX);
	CHECK(gc_parse_hex("ffffffffffffffff", &end, &v) == 1 && v == UINT64_MAX);
	CHECK(gc_parse_hex("0x10000000000000000", &end, &v) == 0); /* 17 digits */
	CHECK(gc_parse_hex("0", &end, &v) == 1 && v == 0);
	v = 5;
	end = NULL;
	CHECK(gc_parse_hex("", &end, &v) == 0 && v == 5 && end == NULL);
	CHECK(gc_parse_hex("0x", &end, &v) == 0);
	CHECK(gc_parse_hex("0xg", &end, &v) == 0);
	CHECK(gc_parse_hex("g", &end, &v) == 0);
	CHECK(gc_parse_hex("-1", &end, &v) == 0);
	CHECK(gc_parse_hex(" 1", &end, &v) == 0);
}

void t_parse_dec(void)
{
	const char *end = NULL;
	int64_t v = 0;
	const char *s = "123 4";
	CHECK(gc_parse_dec(s, &end, &v) == 1 && v == 123 && end == s + 3);
	s = "-42x";
	CHECK(gc_parse_dec(s, &end, &v) == 1 && v == -42 && end == s + 3);
	CHECK(gc_parse_dec("+7", &end, &v) == 1 && v == 7);
	CHECK(gc_parse_dec("0", &end, &v) == 1 && v == 0);
	CHECK(gc_parse_dec("-0", &end, &v) == 1 && v == 0);
	CHECK(gc_parse_dec("007", &end, &v) == 1 && v == 7);
	CHECK(gc_parse_dec("9223372036854775807", &end, &v) == 1 && v == INT64_MAX);
	CHECK(gc_parse_dec("-9223372036854775807", &end, &v) == 1 && v == -INT64_MAX);
	CHECK(gc_parse_dec("9223372036854775808", &end, &v) == 0);
	CHECK(gc_parse_dec("18446744073709551616", &end, &v) == 0);
	CHECK(gc_parse_dec("99999999999999999999999", &end, &v) == 0);
	v = 5;
	end = NULL;
	CHECK(gc_parse_dec("", &end, &v) == 0 && v == 5 && end == NULL);
	CHECK(gc_parse_dec("-", &end, &v) == 0);
	CHECK(gc_parse_dec("+", &end, &v) == 0);
	CHECK(gc_parse_dec("x1", &end, &v) == 0);
	CHECK(gc_parse_dec(" 1", &end, &v) == 0);
	CHECK(gc_parse_dec("--1", &end, &v) == 0);
}

/* INT64_MIN has no positive twin, so the magnitude check refuses it. */
void t_parse_dec_min(void)
{
	const char *end = NULL;
	int64_t v = 0;
	CHECK(gc_parse_dec("-9223372036854775808", &end, &v) == 1 && v == INT64_MIN);
	CHECK(gc_parse_dec("-9223372036854775809", &end, &v) == 0);
	CHECK(gc_parse_dec("9223372036854775808", &end, &v) == 0);
}

/* Every line of path as "N:LEN:TEXT|", checking numbers as it goes. */
static char *lines_of(const char *path)
{
	static char out[4096];
	size_t n = 0;
	gc_lines *l = gc_lines_open(path);
	out[0] = 0;
	if (!CHECK(l != NULL) || !CHECK(!gc_lines_failed(l)))
		return out;
	char *s;
	long len;
	uint64_t want = 0;
	while ((len = gc_lines_next(l, &s)) >= 0) {
		CHECK_U64(gc_lines_number(l), ++want);
		CHECK_U64(strlen(s), len);
		n += (size_t)snprintf(out + n, sizeof out - n, "%llu:%ld:%.20s|",
				      (unsigned long long)gc_lines_number(l), len, s);
	}
	CHECK(len == -1);
	CHECK(gc_lines_next(l, &s) == -1); /* the end stays the end */
	gc_lines_close(l);
	return out;
}

void t_lines(void)
{
	static const char text[] = "one\r\ntwo\n\nfour\r\n\r\nsix\rseven\nlast";
	const char *plain = tmp_with(text, sizeof text - 1);
	const char *want = "1:3:one|2:3:two|3:0:|4:4:four|5:0:|6:9:six\rseven|7:4:last|";
	CHECK_STR(lines_of(plain), want);
	CHECK_STR(lines_of(tmp_gzip_with(text, sizeof text - 1)), want);
	CHECK_STR(lines_of(tmp_with("", 0)), "");
	CHECK_STR(lines_of(tmp_with("\n", 1)), "1:0:|");
	CHECK_STR(lines_of(tmp_with("x", 1)), "1:1:x|");
	CHECK_STR(lines_of(tmp_with("\r\n", 2)), "1:0:|");
	/* Byte counts, peek, regular files. */
	gc_lines *l = gc_lines_open(plain);
	size_t n = 0;
	const char *head = gc_lines_peek(l, &n);
	CHECK_U64(n, sizeof text - 1);
	CHECK(memcmp(head, text, n) == 0);
	CHECK(gc_lines_is_regular(l));
	CHECK_STR(gc_lines_name(l), plain);
	char *s;
	CHECK(gc_lines_next(l, &s) == 3);
	CHECK_STR(s, "one");
	CHECK_U64(gc_lines_bytes(l), 5);
	while (gc_lines_next(l, &s) >= 0)
		;
	CHECK_U64(gc_lines_bytes(l), sizeof text - 1);
	gc_lines_close(l);
	/* A file that is not there. */
	l = gc_lines_open("/nonexistent/file.trace");
	CHECK(l && gc_lines_failed(l));
	CHECK_STR(gc_lines_error(l), "/nonexistent/file.trace: No such file or directory");
	CHECK(gc_lines_next(l, &s) == -2);
	gc_lines_close(l);
}

/* A line three times the 1 MiB chunk, between two short ones, plain and
 * gzip. */
void t_lines_long(void)
{
	size_t big = 3u << 20, n = big + 16;
	char *text = malloc(n);
	memcpy(text, "a\n", 2);
	for (size_t i = 0; i < big; i++)
		text[2 + i] = (char)('a' + i % 26);
	memcpy(text + 2 + big, "\r\nlast\n", 7);
	n = 2 + big + 7;
	for (int gz = 0; gz < 2; gz++) {
		const char *path = gz ? tmp_gzip_with(text, n) : tmp_with(text, n);
		gc_lines *l = gc_lines_open(path);
		char *s;
		CHECK(gc_lines_next(l, &s) == 1);
		CHECK(gc_lines_next(l, &s) == (long)big);
		CHECK_U64(gc_lines_number(l), 2);
		CHECK(memcmp(s, text + 2, big) == 0 && s[big] == 0);
		CHECK(gc_lines_next(l, &s) == 4);
		CHECK_STR(s, "last");
		CHECK_U64(gc_lines_number(l), 3);
		CHECK(gc_lines_next(l, &s) == -1);
		CHECK_U64(gc_lines_bytes(l), n);
		gc_lines_close(l);
	}
	free(text);
}

/* One line of n 'x' bytes then tail (tn bytes), then "next\n"; what
 * gc_lines makes of it: the length of the first line, or -2. */
static long long_line(size_t n, const char *tail, size_t tn, int next, char *err, size_t elen)
{
	char *text = malloc(n + tn + 5);
	memset(text, 'x', n);
	memcpy(text + n, tail, tn);
	if (next)
		memcpy(text + n + tn, "next\n", 5);
	const char *path = tmp_with(text, n + tn + (next ? 5 : 0));
	free(text);
	gc_lines *l = gc_lines_open(path);
	char *s;
	long got = gc_lines_next(l, &s);
	if (got >= 0 && next) {
		CHECK(gc_lines_next(l, &s) == 4);
		CHECK_STR(s, "next");
		CHECK_U64(gc_lines_number(l), 2);
	}
	if (got == -2) {
		snprintf(err, elen, "%s", gc_lines_error(l));
		char want[600];
		snprintf(want, sizeof want, "%s:1: line too long (more than %u bytes)", path,
			 GC_LINE_MAX);
		CHECK_STR(err, want);
		CHECK(gc_lines_next(l, &s) == -2); /* the failure sticks */
	}
	gc_lines_close(l);
	unlink(path);
	return got;
}

/* lines.h: a line of GC_LINE_MAX bytes is read, one byte more is an
 * error naming the file and the line; the newline and a CR before it do
 * not count, nor does a missing newline at the end. */
void t_lines_limit(void)
{
	char err[600];
	size_t max = GC_LINE_MAX;
	CHECK_U64(max, 16u << 20);
	CHECK_U64(long_line(max, "\n", 1, 1, err, sizeof err), max);
	CHECK_U64(long_line(max, "\r\n", 2, 1, err, sizeof err), max);
	CHECK_U64(long_line(max, "", 0, 0, err, sizeof err), max);
	CHECK_U64(long_line(max, "\r", 1, 0, err, sizeof err), max);
	CHECK(long_line(max + 1, "\n", 1, 1, err, sizeof err) == -2);
	CHECK(long_line(max + 1, "\r\n", 2, 1, err, sizeof err) == -2);
	CHECK(long_line(max + 1, "", 0, 0, err, sizeof err) == -2);
	CHECK(long_line(max, "x\r\n", 3, 1, err, sizeof err) == -2);
	CHECK(long_line(2 * max, "\n", 1, 1, err, sizeof err) == -2);
}

void json_sample(FILE *f)
{
	gc_json j;
	gc_json_begin(&j, f);
	gc_json_str(&j, "name", "a\"b\\c\nd\te\x01" "f\x7f/");
	gc_json_obj(&j, "o");
	gc_json_u64(&j, "u", UINT64_MAX);
	gc_json_arr(&j, "a");
	gc_json_i64(&j, NULL, INT64_MIN);
	gc_json_num(&j, NULL, 1.5);
	gc_json_num(&j, NULL, 3.0);
	gc_json_num(&j, NULL, -0.25);
	gc_json_num(&j, NULL, 1e20);
	gc_json_num(&j, NULL, NAN);
	gc_json_num(&j, NULL, INFINITY);
	gc_json_obj(&j, NULL);
	gc_json_close(&j);
	gc_json_arr(&j, NULL);
	gc_json_str(&j, NULL, "");
	gc_json_close(&j);
	gc_json_close(&j);
	gc_json_bool(&j, "t", 1);
	gc_json_bool(&j, "f", 0);
	gc_json_null(&j, "n");
	gc_json_close(&j);
	gc_json_arr(&j, "empty");
	gc_json_close(&j);
	gc_json_str(&j, "k\"ey", "v");
	gc_json_end(&j);
}

static const char json_want[] =
	"{\n"
	"  \"name\": \"a\\\"b\\\\c\\nd\\te\\u0001f\x7f/\",\n"
	"  \"o\": {\n"
	"    \"u\": 18446744073709551615,\n"
	"    \"a\": [\n"
	"      -9223372036854775808,\n"
	"      1.5,\n"
	"      3,\n"
	"      -0.25,\n"
	"      1e+20,\n"
	"      null,\n"
	"      null,\n"
	"      {},\n"
	"      [\n"
	"        \"\"\n"
	"      ]\n"
	"    ],\n"
	"    \"t\": true,\n"
	"    \"f\": false,\n"
	"    \"n\": null\n"
	"  },\n"
	"  \"empty\": [],\n"
	"  \"k\\\"ey\": \"v\"\n"
	"}\n";

void t_json(void)
{
	char *p = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&p, &n);
	if (!CHECK(f != NULL))
		return;
	json_sample(f);
	fclose(f);
	CHECK_STR(p, json_want);
	free(p);
	f = open_memstream(&p, &n);
	gc_json_quote(f, "\r\b\f");
	fclose(f);
	CHECK_STR(p, "\"\\u000d\\u0008\\u000c\"");
	free(p);
}

/* ---- streams: the writer and the reader together ----------------------- */
