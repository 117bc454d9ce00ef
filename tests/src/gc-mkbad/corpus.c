/* gc-mkbad/corpus.c - the corpus members, in the order the reader checks
 * them (read_header, gc_read, the input layer), and their table. */
#include "gc-mkbad/mkbad.h"

#include <stdlib.h>
#include <string.h>


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
void make_opcodes(enc *e)
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

const struct mkbad_member mkbad_corpus[] = {
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
const size_t mkbad_ncorpus = sizeof mkbad_corpus / sizeof mkbad_corpus[0];
