/*
 * jsonflat.c - a strict JSON reader that flattens a document into
 * (path, scalar) pairs (jsonflat.h).  Recursive descent, depth-limited.
 */
#include "report/jsonflat.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DEPTH 64

struct jp {
	const char *s, *end, *p;
	gc_jsonflat_fn fn;
	void *ctx;
	char *err;
	size_t errlen;
	char path[GC_JSONFLAT_PATH];
	size_t plen;
	int arrays;
	char *buf;      /* decoded string, as long as the document */
	int stop;       /* fn's non-zero value */
};

static int fail(struct jp *j, const char *fmt, ...)
{
	unsigned line = 1, col = 1;
	for (const char *q = j->s; q < j->p && q < j->end; q++) {
		if (*q == '\n') {
			line++;
			col = 1;
		} else {
			col++;
		}
	}
	char what[160];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof what, fmt, ap);
	va_end(ap);
	snprintf(j->err, j->errlen, "line %u, column %u: %s", line, col, what);
	return -1;
}

static void ws(struct jp *j)
{
	while (j->p < j->end && (*j->p == ' ' || *j->p == '\t' || *j->p == '\n' || *j->p == '\r'))
		j->p++;
}

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

static int hex4(struct jp *j, unsigned *out)
{
	unsigned v = 0;
	if (j->end - j->p < 4)
		return fail(j, "short \\u escape");
	for (int i = 0; i < 4; i++) {
		int h = hexval((unsigned char)j->p[i]);
		if (h < 0)
			return fail(j, "bad \\u escape");
		v = v << 4 | (unsigned)h;
	}
	j->p += 4;
	*out = v;
	return 0;
}

static char *put_utf8(char *o, unsigned cp)
{
	if (cp < 0x80) {
		*o++ = (char)cp;
	} else if (cp < 0x800) {
		*o++ = (char)(0xc0 | cp >> 6);
		*o++ = (char)(0x80 | (cp & 0x3f));
	} else if (cp < 0x10000) {
		*o++ = (char)(0xe0 | cp >> 12);
		*o++ = (char)(0x80 | ((cp >> 6) & 0x3f));
		*o++ = (char)(0x80 | (cp & 0x3f));
	} else {
		*o++ = (char)(0xf0 | cp >> 18);
		*o++ = (char)(0x80 | ((cp >> 12) & 0x3f));
		*o++ = (char)(0x80 | ((cp >> 6) & 0x3f));
		*o++ = (char)(0x80 | (cp & 0x3f));
	}
	return o;
}

/* A string at j->p (on the quote) decoded into out (NUL-terminated). */
static int string(struct jp *j, char *out)
{
	char *o = out;
	j->p++;
	for (;;) {
		if (j->p >= j->end)
			return fail(j, "unterminated string");
		unsigned char c = (unsigned char)*j->p++;
		if (c == '"')
			break;
		if (c < 0x20)
			return fail(j, "control character in a string");
		if (c != '\\') {
			*o++ = (char)c;
			continue;
		}
		if (j->p >= j->end)
			return fail(j, "unterminated string");
		c = (unsigned char)*j->p++;
		switch (c) {
		case '"': *o++ = '"'; break;
		case '\\': *o++ = '\\'; break;
		case '/': *o++ = '/'; break;
		case 'b': *o++ = '\b'; break;
		case 'f': *o++ = '\f'; break;
		case 'n': *o++ = '\n'; break;
		case 'r': *o++ = '\r'; break;
		case 't': *o++ = '\t'; break;
		case 'u': {
			unsigned cp, lo;
			if (hex4(j, &cp) < 0)
				return -1;
			if (cp >= 0xd800 && cp < 0xdc00) {
				if (j->end - j->p < 2 || j->p[0] != '\\' || j->p[1] != 'u')
					return fail(j, "lone surrogate in \\u escape");
				j->p += 2;
				if (hex4(j, &lo) < 0)
					return -1;
				if (lo < 0xdc00 || lo > 0xdfff)
					return fail(j, "bad surrogate pair");
				cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
			} else if (cp >= 0xdc00 && cp < 0xe000) {
				return fail(j, "lone surrogate in \\u escape");
			}
			if (cp == 0)
				return fail(j, "\\u0000 in a string");
			o = put_utf8(o, cp);
			break;
		}
		default:
			j->p--;
			return fail(j, "bad escape '\\%c'", c);
		}
	}
	*o = '\0';
	return 0;
}

static int number(struct jp *j, char *out)
{
	const char *b = j->p;
	if (j->p < j->end && *j->p == '-')
		j->p++;
	if (j->p >= j->end)
		return fail(j, "bad number");
	if (*j->p == '0') {
		j->p++;
	} else if (*j->p >= '1' && *j->p <= '9') {
		while (j->p < j->end && *j->p >= '0' && *j->p <= '9')
			j->p++;
	} else {
		return fail(j, "bad number");
	}
	if (j->p < j->end && *j->p == '.') {
		j->p++;
		if (j->p >= j->end || *j->p < '0' || *j->p > '9')
			return fail(j, "bad number: no digit after '.'");
		while (j->p < j->end && *j->p >= '0' && *j->p <= '9')
			j->p++;
	}
	if (j->p < j->end && (*j->p == 'e' || *j->p == 'E')) {
		j->p++;
		if (j->p < j->end && (*j->p == '+' || *j->p == '-'))
			j->p++;
		if (j->p >= j->end || *j->p < '0' || *j->p > '9')
			return fail(j, "bad number: no digit in the exponent");
		while (j->p < j->end && *j->p >= '0' && *j->p <= '9')
			j->p++;
	}
	memcpy(out, b, (size_t)(j->p - b));
	out[j->p - b] = '\0';
	return 0;
}

static int literal(struct jp *j, const char *word)
{
	size_t n = strlen(word);
	if ((size_t)(j->end - j->p) < n || memcmp(j->p, word, n) != 0)
		return fail(j, "unexpected '%c'", *j->p);
	j->p += n;
	return 0;
}

static int emit(struct jp *j, const char *value, int type)
{
	int rc = j->fn(j->ctx, j->path, value, type, j->arrays);
	if (rc) {
		j->stop = rc;
		return -1;
	}
	return 0;
}

/* Append ".part" (or "part" at the top) to the path; the old length is
 * returned through *saved. */
static int push(struct jp *j, const char *part, size_t *saved)
{
	size_t n = strlen(part);
	*saved = j->plen;
	if (j->plen + (j->plen ? 1 : 0) + n >= sizeof j->path)
		return fail(j, "key path longer than %d bytes", GC_JSONFLAT_PATH - 1);
	if (j->plen)
		j->path[j->plen++] = '.';
	memcpy(j->path + j->plen, part, n + 1);
	j->plen += n;
	return 0;
}

static void pop(struct jp *j, size_t saved)
{
	j->plen = saved;
	j->path[saved] = '\0';
}

static int value(struct jp *j, int depth);

/* One member or element: its value under path component name (after a
 * ':' for members), then ',' (1: another follows) or close (0: the end). */
static int item(struct jp *j, const char *name, int colon, int depth, char close)
{
	size_t saved;
	if (push(j, name, &saved) < 0)
		return -1;
	if (colon) {
		ws(j);
		if (j->p >= j->end || *j->p != ':')
			return fail(j, "expected ':'");
		j->p++;
	}
	if (value(j, depth + 1) < 0)
		return -1;
	pop(j, saved);
	ws(j);
	if (j->p < j->end && *j->p == ',') {
		j->p++;
		return 1;
	}
	if (j->p < j->end && *j->p == close) {
		j->p++;
		return 0;
	}
	return fail(j, close == '}' ? "expected ',' or '}'" : "expected ',' or ']'");
}

static int object(struct jp *j, int depth)
{
	j->p++;
	ws(j);
	if (j->p < j->end && *j->p == '}') {
		j->p++;
		return 0;
	}
	for (;;) {
		ws(j);
		if (j->p >= j->end || *j->p != '"')
			return fail(j, "expected a member name");
		char *key = j->buf;
		if (string(j, key) < 0)
			return -1;
		if (!*key)
			return fail(j, "empty member name");
		int more = item(j, key, 1, depth, '}');
		if (more <= 0)
			return more;
	}
}

static int array(struct jp *j, int depth)
{
	j->p++;
	ws(j);
	if (j->p < j->end && *j->p == ']') {
		j->p++;
		return 0;
	}
	j->arrays++;
	for (unsigned long i = 0;; i++) {
		char idx[24];
		snprintf(idx, sizeof idx, "%lu", i);
		int more = item(j, idx, 0, depth, ']');
		if (more < 0)
			return -1;
		if (more == 0) {
			j->arrays--;
			return 0;
		}
	}
}

static int value(struct jp *j, int depth)
{
	if (depth > MAX_DEPTH)
		return fail(j, "nested deeper than %d", MAX_DEPTH);
	ws(j);
	if (j->p >= j->end)
		return fail(j, "unexpected end of the document");
	switch (*j->p) {
	case '{':
		return object(j, depth);
	case '[':
		return array(j, depth);
	case '"':
		if (string(j, j->buf) < 0)
			return -1;
		return emit(j, j->buf, GC_JF_STRING);
	case 't':
		if (literal(j, "true") < 0)
			return -1;
		return emit(j, "true", GC_JF_BOOL);
	case 'f':
		if (literal(j, "false") < 0)
			return -1;
		return emit(j, "false", GC_JF_BOOL);
	case 'n':
		if (literal(j, "null") < 0)
			return -1;
		return emit(j, "null", GC_JF_NULL);
	default:
		if (*j->p == '-' || (*j->p >= '0' && *j->p <= '9')) {
			if (number(j, j->buf) < 0)
				return -1;
			return emit(j, j->buf, GC_JF_NUMBER);
		}
		return fail(j, "unexpected '%c'", *j->p);
	}
}

int gc_jsonflat(const char *text, size_t len, gc_jsonflat_fn fn, void *ctx, char *err,
		size_t errlen)
{
	struct jp j;
	memset(&j, 0, sizeof j);
	j.s = j.p = text;
	j.end = text + len;
	j.fn = fn;
	j.ctx = ctx;
	j.err = err;
	j.errlen = errlen;
	j.buf = malloc(len + 1);
	if (!j.buf) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	int rc = value(&j, 0);
	if (rc == 0) {
		ws(&j);
		if (j.p != j.end)
			rc = fail(&j, "data after the document");
	}
	free(j.buf);
	if (j.stop)
		return j.stop;
	return rc;
}
