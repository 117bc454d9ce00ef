/* import.c - what every trace parser shares: output, errors, SASS rules. */
#include "import.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void gc_import_init(gc_import *im)
{
	memset(im, 0, sizeof *im);
	gc_header_init(&im->h, GC_KIND_ACCESS);
	im->warp_size = 32;
	im->junk_below = 0x1000;
}

void gc_import_bad_at(gc_import *im, const char *file, uint64_t line, const char *fmt, ...)
{
	char msg[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	im->bad_lines++;
	im->bad(im, file, line, msg);
}

void gc_import_bad(gc_import *im, gc_lines *in, const char *fmt, ...)
{
	char msg[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	im->bad_lines++;
	im->bad(im, gc_lines_name(in), gc_lines_number(in), msg);
}

static void open_output(gc_import *im)
{
	if (im->w)
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

void gc_import_kbegin(gc_import *im, const gc_kernel *k)
{
	open_output(im);
	check(im, gc_write_kbegin(im->w, k));
	im->in_kernel = 1;
	im->kernel_id = k->id;
	im->kernels++;
}

void gc_import_access(gc_import *im, const gc_rec *r)
{
	check(im, gc_write(im->w, r));
	im->accesses++;
}

void gc_import_kend(gc_import *im)
{
	check(im, gc_write_kend(im->w, im->kernel_id));
	im->in_kernel = 0;
}

void gc_import_finish(gc_import *im)
{
	open_output(im);
	if (gc_writer_close(im->w) < 0)
		im->fatal(im, gc_writer_error(im->w));
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

static int prefix(const char *s, const char *p)
{
	return strncmp(s, p, strlen(p)) == 0;
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

int gc_sass_memop(const char *opc, uint8_t *op, uint8_t *space, uint8_t *flags)
{
	*flags = 0;
	/* Longest prefixes first: LDGSTS before LDG, LDSM before LDS, ... */
	if (prefix(opc, "LDGSTS")) {
		*op = GC_LOAD, *space = GC_GLOBAL;
	} else if (prefix(opc, "LDG")) {
		*op = GC_LOAD, *space = GC_GLOBAL;
		if (has_token(opc, "STRONG") && has_token(opc, "GPU"))
			*flags = GC_F_BYPASS_L1;
	} else if (prefix(opc, "STG")) {
		*op = GC_STORE, *space = GC_GLOBAL;
	} else if (prefix(opc, "LDL")) {
		*op = GC_LOAD, *space = GC_LOCAL;
	} else if (prefix(opc, "STL")) {
		*op = GC_STORE, *space = GC_LOCAL;
	} else if (prefix(opc, "LDSM") || prefix(opc, "LDS")) {
		*op = GC_LOAD, *space = GC_SHARED;
	} else if (prefix(opc, "STS")) {
		*op = GC_STORE, *space = GC_SHARED;
	} else if (prefix(opc, "ATOMS")) {
		*op = GC_ATOMIC, *space = GC_SHARED;
	} else if (prefix(opc, "ATOMG") || prefix(opc, "ATOM") || prefix(opc, "RED")) {
		*op = GC_ATOMIC, *space = GC_GLOBAL;
		*flags = GC_F_BYPASS_L1;
	} else if (prefix(opc, "LDC")) {
		*op = GC_LOAD, *space = GC_CONST;
	} else if (prefix(opc, "TEX") || prefix(opc, "TLD") || prefix(opc, "TLD4") ||
		   prefix(opc, "SULD")) {
		*op = GC_LOAD, *space = GC_TEXTURE;
	} else if (prefix(opc, "LD")) {
		*op = GC_LOAD, *space = GC_GENERIC;
	} else if (prefix(opc, "ST")) {
		*op = GC_STORE, *space = GC_GENERIC;
	} else {
		return 0;
	}
	return 1;
}

int gc_parse_hex(const char *s, const char **end, uint64_t *v)
{
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		s += 2;
	uint64_t x = 0;
	const char *p = s;
	for (;; p++) {
		unsigned d;
		if (*p >= '0' && *p <= '9')
			d = (unsigned)(*p - '0');
		else if (*p >= 'a' && *p <= 'f')
			d = (unsigned)(*p - 'a' + 10);
		else if (*p >= 'A' && *p <= 'F')
			d = (unsigned)(*p - 'A' + 10);
		else
			break;
		if (p - s >= 16)
			return 0;
		x = x << 4 | d;
	}
	if (p == s)
		return 0;
	*v = x;
	*end = p;
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
	if (p == s || x > (uint64_t)INT64_MAX)
		return 0;
	*v = neg ? -(int64_t)x : (int64_t)x;
	*end = p;
	return 1;
}
