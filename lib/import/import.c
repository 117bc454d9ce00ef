/* import.c - what every trace parser shares: output, errors, SASS rules. */
#include "import/import.h"
#include "base/bits.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>

void gc_import_init(gc_import *im)
{
	memset(im, 0, sizeof *im);
	gc_header_init(&im->h, GC_KIND_ACCESS);
	im->warp_size = 32;
	im->ppt_level = 1;
	im->accelsim_spool = GC_ACCELSIM_SPOOL_DEFAULT;
}

void gc_import_unknown_opcode(gc_import *im, const char *opcode)
{
	const int cap = (int)(sizeof im->iv_warned / sizeof im->iv_warned[0]);
	size_t n = strcspn(opcode, ". \t");
	if (n >= sizeof im->iv_warned[0])
		n = sizeof im->iv_warned[0] - 1;
	for (int i = 0; i < im->iv_nwarned && i < cap; i++)
		if (strncmp(im->iv_warned[i], opcode, n) == 0 && im->iv_warned[i][n] == 0)
			return;
	if (im->iv_nwarned > cap)
		return; /* warned that there are more */
	char msg[160];
	if (im->iv_nwarned == cap)
		snprintf(msg, sizeof msg, "--intervals: more than %d opcodes are not in the "
			 "class table (timed as int); no more warnings of them", cap);
	else
		snprintf(msg, sizeof msg, "--intervals: opcode %.*s is not in the class table; "
			 "timed as int", (int)n, opcode);
	if (im->iv_nwarned < cap) {
		memcpy(im->iv_warned[im->iv_nwarned], opcode, n);
		im->iv_warned[im->iv_nwarned][n] = 0;
	}
	im->iv_nwarned++;
	if (im->warn)
		im->warn(im, msg);
}

__attribute__((format(printf, 4, 0)))
static void bad_line(gc_import *im, const char *file, uint64_t line, const char *fmt, va_list ap)
{
	char msg[512];
	vsnprintf(msg, sizeof msg, fmt, ap);
	im->bad_lines++;
	im->bad(im, file, line, msg);
}

void gc_import_bad_at(gc_import *im, const char *file, uint64_t line, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	bad_line(im, file, line, fmt, ap);
	va_end(ap);
}

void gc_import_bad(gc_import *im, gc_lines *in, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	bad_line(im, gc_lines_name(in), gc_lines_number(in), fmt, ap);
	va_end(ap);
}

static void open_output(gc_import *im)
{
	if (im->w || im->no_stream)
		return;
	im->w = gc_writer_open(im->out, &im->h, im->wflags);
	if (!im->w)
		im->fatal(im, "out of memory");
	if (gc_writer_failed(im->w))
		im->fatal(im, gc_writer_error(im->w));
}

static void check(gc_import *im, int rc)
{
	if (rc < 0)
		im->fatal(im, gc_writer_error(im->w));
}

void gc_import_will_read(gc_import *im, const char *path, int passes)
{
	struct stat st;
	int rc = strcmp(path, "-") == 0 ? fstat(0, &st) : stat(path, &st);
	if (rc < 0 || !S_ISREG(st.st_mode))
		im->read_unknown = 1;
	else
		im->read_total += (uint64_t)passes * (uint64_t)st.st_size;
}

void gc_import_will_reread(gc_import *im, const gc_lines *in)
{
	if (!gc_lines_is_regular(in))
		im->read_unknown = 1;
	else
		im->read_total += gc_lines_size(in);
}

uint32_t gc_import_next_id(gc_import *im)
{
	if (im->max_id == UINT32_MAX)
		im->fatal(im, "kernel ids exhausted (more than 2^32-1 kernels)");
	return im->max_id + 1;
}

void gc_import_text(gc_import *im, gc_lines *in)
{
	im->lines += gc_lines_number(in);
	im->text_bytes += gc_lines_bytes(in);
}

void gc_import_kbegin(gc_import *im, const gc_kernel *k)
{
	open_output(im);
	if (im->w)
		check(im, gc_write_kbegin(im->w, k));
	gc_optab_clear(&im->ops);
	im->in_kernel = 1;
	im->kernel_id = k->id;
	if (k->id > im->max_id)
		im->max_id = k->id;
	im->kernels++;
	uint64_t v;
	if (gc_kernel_get_attr(k, GC_A_MEM_INSTS, &v)) {
		im->mem_instructions += v;
		im->instructions += v;
	}
	if (gc_kernel_get_attr(k, GC_A_INSTS, &v))
		im->instructions += v;
}

void gc_import_addr48_msg(char *buf, size_t len, uint64_t addr, unsigned size)
{
	snprintf(buf, len, "address 0x%llx (%u bytes) reaches 2^48, where no GPU modelled "
		 "has memory", (unsigned long long)addr, size);
}

int gc_import_addr48(gc_import *im, gc_lines *in, int lane, uint64_t addr, unsigned size)
{
	if (gc_import_below48(addr, size))
		return 0;
	char msg[400];
	gc_import_addr48_msg(msg, sizeof msg, addr, size);
	gc_import_bad(im, in, "lane %d: %s (an inactive lane's junk? --junk inactive drops it)",
		      lane, msg);
	return -1;
}

int gc_import_junk_match(const gc_import *im, uint64_t addr)
{
	for (int i = 0; i < im->njunk; i++)
		if (addr >= im->junk[i].lo && addr <= im->junk[i].hi)
			return i;
	return -1;
}

int gc_import_junk(gc_import *im, uint64_t addr)
{
	int i = gc_import_junk_match(im, addr);
	if (i < 0)
		return 0;
	im->junk_dropped[i]++;
	return 1;
}

void gc_import_access(gc_import *im, const gc_rec *r)
{
	/* The parsers that read tracers' lane addresses refuse these at their
	 * line (gc_import_addr48); this is the rule for all the other trace
	 * parsers.  A restore carries what the stream held. */
	if (!im->restore && im->h.kind == GC_KIND_ACCESS && !gc_import_below48(r->addr, r->size)) {
		char msg[400], full[512];
		gc_import_addr48_msg(msg, sizeof msg, r->addr, r->size);
		snprintf(full, sizeof full, "kernel %u block %u warp %u seq %u lane %u: %s",
			 im->kernel_id, r->block, r->warp, r->seq, r->lane, msg);
		if (im->w)
			gc_writer_free(im->w);
		im->w = NULL; /* fatal may return to a caller that abandons im->w */
		im->fatal(im, full);
	}
	if (im->w)
		check(im, gc_write(im->w, r));
	im->accesses++;
}

void gc_import_lanes(gc_import *im, const gc_rec *r, uint32_t mask, const uint64_t *addr,
		     uint64_t stride)
{
	if (im->restore || im->h.kind != GC_KIND_ACCESS ||
	    !gc_import_lanes_below48(mask, addr, r->addr, stride, r->size)) {
		/* One at a time: gc_import_access's rule and its message. */
		gc_rec x = *r;
		uint64_t a = r->addr;
		for (; mask; mask &= mask - 1, a += stride) {
			unsigned lane = (unsigned)__builtin_ctz(mask);
			x.lane = (uint8_t)lane;
			x.addr = addr ? addr[lane] : a;
			gc_import_access(im, &x);
		}
		return;
	}
	if (im->w)
		check(im, gc_write_lanes(im->w, r, mask, addr, stride));
	im->accesses += gc_popcount32(mask);
}

void gc_import_opcode(gc_import *im, uint32_t pc, const char *name, size_t len)
{
	if (!(im->h.required & GC_REQ_OPCODES))
		return;
	if (gc_optab_set(&im->ops, pc, name, len) < 0)
		im->fatal(im, "out of memory");
}

void gc_import_kend(gc_import *im)
{
	if (im->w) {
		check(im, gc_write_opcodes(im->w, &im->ops));
		check(im, gc_write_kend(im->w, im->kernel_id));
	}
	gc_optab_clear(&im->ops);
	im->in_kernel = 0;
}

void gc_import_finish(gc_import *im)
{
	gc_optab_free(&im->ops);
	open_output(im);
	if (!im->w)
		return;
	if (gc_writer_close(im->w) < 0)
		im->fatal(im, gc_writer_error(im->w)); /* a caller that goes on frees im->w */
	gc_writer_free(im->w);
	im->w = NULL;
}

/* ---- SASS opcodes ------------------------------------------------------- */

unsigned gc_sass_width(const char *op)
{
	const char *p = strchr(op, '.');
	unsigned u = 0;
	while (p) {
		const char *t = p + 1, *e = strchr(t, '.');
		size_t n = e ? (size_t)(e - t) : strlen(t);
		size_t i = 0;
		while (i < n && t[i] >= '0' && t[i] <= '9')
			i++;
		if (n && i == n) {
			unsigned v = 0;
			for (i = 0; i < n && v < 100000; i++)
				v = v * 10 + (unsigned)(t[i] - '0');
			return v / 8;
		}
		if (!u && n > 1 && t[0] == 'U') {
			size_t j = 1;
			while (j < n && t[j] >= '0' && t[j] <= '9')
				j++;
			if (j == n) {
				unsigned v = 0;
				for (j = 1; j < n && v < 100000; j++)
					v = v * 10 + (unsigned)(t[j] - '0');
				u = v / 8;
			}
		}
		p = e;
	}
	return u ? u : 4;
}

/* Has the dot-separated token tok (after the mnemonic)? */
static int has_token(const char *op, const char *tok)
{
	size_t n = strlen(tok);
	for (const char *p = strchr(op, '.'); p; p = strchr(p + 1, '.'))
		if (strncmp(p + 1, tok, n) == 0 && (p[1 + n] == '.' || p[1 + n] == 0))
			return 1;
	return 0;
}

/* The memory instructions, by whole mnemonic (the opcode up to its first
 * dot): a prefix match would take LDGDEPBAR, TEXDEPBAR (scoreboard waits)
 * and REDUX (a warp reduction in registers) for memory instructions.
 * Surface instructions (SU*) access global memory through the texture
 * path; they are global accesses here.  Anything else, including the
 * queries TXQ, TMML and SUQ, is not a memory instruction. */
enum { BYPASS_NO, BYPASS_YES, BYPASS_STRONG_GPU };
static const struct memop {
	const char *mnemonic;
	uint8_t op, space, bypass;
} memops[] = {
	{"LDG", GC_LOAD, GC_GLOBAL, BYPASS_STRONG_GPU},
	{"LDGSTS", GC_LOAD, GC_GLOBAL, BYPASS_NO},
	{"LDU", GC_LOAD, GC_GLOBAL, BYPASS_NO},
	{"STG", GC_STORE, GC_GLOBAL, BYPASS_NO},
	{"ATOMG", GC_ATOMIC, GC_GLOBAL, BYPASS_YES},
	{"ATOM", GC_ATOMIC, GC_GLOBAL, BYPASS_YES},
	{"RED", GC_ATOMIC, GC_GLOBAL, BYPASS_YES},
	{"SULD", GC_LOAD, GC_GLOBAL, BYPASS_NO},
	{"SUST", GC_STORE, GC_GLOBAL, BYPASS_NO},
	{"SUATOM", GC_ATOMIC, GC_GLOBAL, BYPASS_YES},
	{"SURED", GC_ATOMIC, GC_GLOBAL, BYPASS_YES},
	{"LDL", GC_LOAD, GC_LOCAL, BYPASS_NO},
	{"STL", GC_STORE, GC_LOCAL, BYPASS_NO},
	{"LDS", GC_LOAD, GC_SHARED, BYPASS_NO},
	{"LDSM", GC_LOAD, GC_SHARED, BYPASS_NO},
	{"STS", GC_STORE, GC_SHARED, BYPASS_NO},
	{"ATOMS", GC_ATOMIC, GC_SHARED, BYPASS_NO},
	{"LDC", GC_LOAD, GC_CONST, BYPASS_NO},
	{"TEX", GC_LOAD, GC_TEXTURE, BYPASS_NO},
	{"TEXS", GC_LOAD, GC_TEXTURE, BYPASS_NO},
	{"TLD", GC_LOAD, GC_TEXTURE, BYPASS_NO},
	{"TLDS", GC_LOAD, GC_TEXTURE, BYPASS_NO},
	{"TLD4", GC_LOAD, GC_TEXTURE, BYPASS_NO},
	{"TLD4S", GC_LOAD, GC_TEXTURE, BYPASS_NO},
	{"TXD", GC_LOAD, GC_TEXTURE, BYPASS_NO},
	{"LD", GC_LOAD, GC_GENERIC, BYPASS_NO},
	{"ST", GC_STORE, GC_GENERIC, BYPASS_NO},
};

int gc_sass_memop(const char *opc, uint8_t *op, uint8_t *space, uint8_t *flags)
{
	size_t n = strcspn(opc, ".");
	*flags = 0;
	for (size_t i = 0; i < sizeof memops / sizeof memops[0]; i++) {
		const struct memop *m = &memops[i];
		if (strlen(m->mnemonic) != n || strncmp(opc, m->mnemonic, n) != 0)
			continue;
		*op = m->op;
		*space = m->space;
		if (m->bypass == BYPASS_YES ||
		    (m->bypass == BYPASS_STRONG_GPU && has_token(opc, "STRONG") &&
		     has_token(opc, "GPU")))
			*flags = GC_F_BYPASS_L1;
		return 1;
	}
	return 0;
}

/* A hex digit's value plus one; 0 for any other byte. */
static const unsigned char hexv[256] = {
	['0'] = 1, ['1'] = 2, ['2'] = 3, ['3'] = 4, ['4'] = 5, ['5'] = 6, ['6'] = 7,
	['7'] = 8, ['8'] = 9, ['9'] = 10, ['a'] = 11, ['b'] = 12, ['c'] = 13,
	['d'] = 14, ['e'] = 15, ['f'] = 16, ['A'] = 11, ['B'] = 12, ['C'] = 13,
	['D'] = 14, ['E'] = 15, ['F'] = 16,
};

int gc_parse_hex(const char *s, const char **end, uint64_t *v)
{
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		s += 2;
	uint64_t x = 0;
	const unsigned char *p = (const unsigned char *)s;
	unsigned d;
	/* At most 16 digits: a 17th is an error, as is none. */
	for (; (d = hexv[*p]) != 0; p++) {
		if (p - (const unsigned char *)s >= 16)
			return 0;
		x = x << 4 | (d - 1);
	}
	if (p == (const unsigned char *)s)
		return 0;
	*v = x;
	*end = (const char *)p;
	return 1;
}

int gc_parse_dec(const char *s, const char **end, int64_t *v)
{
	int neg = 0;
	if (*s == '-' || *s == '+')
		neg = *s++ == '-';
	uint64_t x = 0;
	const char *p = s;
	for (; *p >= '0' && *p <= '9'; p++) {
		if (x > (UINT64_C(1) << 62) / 5)
			return 0;
		x = x * 10 + (uint64_t)(*p - '0');
	}
	/* INT64_MIN's magnitude is one more than INT64_MAX's. */
	if (p == s || x > (uint64_t)INT64_MAX + neg)
		return 0;
	*v = neg ? (int64_t)(0 - x) : (int64_t)x;
	*end = p;
	return 1;
}

int gc_parse_udec(const char **p, uint64_t max, uint64_t *v)
{
	const char *s = *p, *b = s;
	uint64_t x = 0;
	if (*s < '0' || *s > '9')
		return 0;
	/* 19 digits cannot overflow; the value only grows with each digit, so
	 * comparing it with max once at the end refuses what a check at each
	 * digit would. */
	for (; *s >= '0' && *s <= '9' && s - b < 19; s++)
		x = x * 10 + (unsigned)(*s - '0');
	for (; *s >= '0' && *s <= '9'; s++) {
		unsigned d = (unsigned)(*s - '0');
		if (x > (UINT64_MAX - d) / 10)
			return 0;
		x = x * 10 + d;
	}
	if (x > max)
		return 0;
	*v = x;
	*p = s;
	return 1;
}

/*
 * A large array (a parser keeps a kernel's or a file's accesses) is
 * allocated afresh and asked for huge pages before its first touch: taking
 * its 4 KiB pages one fault at a time costs as much as the parsing on some
 * machines (measured on a 2-CPU virtual machine: 200 MB of fresh pages
 * touched in 1.3 s, in 0.025 s as huge pages).  Not realloc: the advice
 * would come after its copy touched the pages, and a block it moves
 * without copying lands at another offset from a huge page, where the
 * kernel splits them.  Only advice: nothing changes where it is not taken.
 */
#define HUGE_ARRAY ((size_t)8 << 20)

static void *grow_huge(gc_import *im, void *p, size_t old, size_t len)
{
	void *q = malloc(len);
	if (!q)
		im->fatal(im, "out of memory");
#ifdef MADV_HUGEPAGE
	const uintptr_t huge = (uintptr_t)2 << 20;
	uintptr_t a = ((uintptr_t)q + huge - 1) & ~(huge - 1), e = ((uintptr_t)q + len) & ~(huge - 1);
	if (e > a)
		(void)madvise((void *)a, e - a, MADV_HUGEPAGE);
#endif
	if (old)
		memcpy(q, p, old);
	free(p);
	return q;
}

void *gc_import_grow(gc_import *im, void *p, size_t *cap, size_t need, size_t size)
{
	if (need <= *cap)
		return p;
	size_t n = *cap ? *cap : 16;
	while (n < need) {
		if (n > SIZE_MAX / 4 / size)
			im->fatal(im, "out of memory");
		n *= n * size >= HUGE_ARRAY ? 4 : 2; /* fewer copies of a large one */
	}
	void *q = n * size >= HUGE_ARRAY ? grow_huge(im, p, *cap * size, n * size)
					     : realloc(p, n * size);
	if (!q)
		im->fatal(im, "out of memory");
	*cap = n;
	return q;
}
