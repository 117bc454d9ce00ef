/* lines.c - line reading over gc_input, in large blocks, without copies
 * in the common case. */
#include "stream/lines.h"
#include "stream/input.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHUNK (1u << 20)
#define LINE_MAX_BYTES GC_LINE_MAX

struct gc_lines {
	gc_input *in;
	char *buf;
	size_t cap, pos, len;
	int eof, failed;
	uint64_t lineno, bytes;
	uint64_t counted;   /* the input's raw bytes added to read_all */
	char err[400];
};

/* gc_lines_watch: the raw bytes every gc_lines has read, and who is told. */
static uint64_t read_all;
static void (*watch)(uint64_t);

void gc_lines_watch(void (*fn)(uint64_t bytes_read)) { watch = fn; }

/* Add what the input read since the last call (at its opening too, or
 * after a rewind, when the decoder looks at the first bytes). */
static void account(gc_lines *l)
{
	uint64_t c = gc_input_consumed(l->in);
	read_all += c - l->counted;
	l->counted = c;
	if (watch)
		watch(read_all);
}

gc_lines *gc_lines_open(const char *path)
{
	gc_lines *l = calloc(1, sizeof *l);
	if (!l)
		return NULL;
	l->cap = 2 * CHUNK;
	l->buf = malloc(l->cap + 1);
	l->in = gc_input_open(path);
	if (!l->buf || !l->in) {
		gc_input_close(l->in);
		free(l->buf);
		free(l);
		return NULL;
	}
	if (gc_input_failed(l->in)) {
		l->failed = 1;
		snprintf(l->err, sizeof l->err, "%s", gc_input_error(l->in));
	}
	return l;
}

/* The line being read is longer than the limit: -2 with the message. */
static long too_long(gc_lines *l)
{
	l->failed = 1;
	snprintf(l->err, sizeof l->err, "%s:%llu: line too long (more than %u bytes)",
		 gc_input_name(l->in), (unsigned long long)l->lineno + 1, LINE_MAX_BYTES);
	return -2;
}

/* Read more after the unread bytes; 0 at the end, -1 on error.  The
 * caller has checked that the unread bytes are at most LINE_MAX_BYTES + 1
 * (a line at the limit and its CR), so the buffer never grows past
 * 32 MiB. */
static int more(gc_lines *l)
{
	if (l->eof)
		return 0;
	if (l->pos > 0) {
		memmove(l->buf, l->buf + l->pos, l->len - l->pos);
		l->len -= l->pos;
		l->pos = 0;
	}
	if (l->cap - l->len < CHUNK) {
		char *nb = realloc(l->buf, 2 * l->cap + 1);
		if (!nb) {
			l->failed = 1;
			snprintf(l->err, sizeof l->err, "out of memory");
			return -1;
		}
		l->buf = nb;
		l->cap *= 2;
	}
	ssize_t n = gc_input_read(l->in, l->buf + l->len, l->cap - l->len);
	if (n < 0) {
		l->failed = 1;
		snprintf(l->err, sizeof l->err, "%s", gc_input_error(l->in));
		return -1;
	}
	if (n == 0)
		l->eof = 1;
	l->len += (size_t)n;
	account(l);
	return n > 0;
}

long gc_lines_next(gc_lines *l, char **line)
{
	if (l->failed)
		return -2;
	size_t scan = l->pos;
	for (;;) {
		char *nl = memchr(l->buf + scan, '\n', l->len - scan);
		if (nl) {
			char *s = l->buf + l->pos;
			size_t n = (size_t)(nl - s), raw = n;
			if (n && s[n - 1] == '\r')
				n--;
			if (n > LINE_MAX_BYTES)
				return too_long(l);
			l->pos += raw + 1;
			l->bytes += raw + 1;
			s[n] = 0;
			l->lineno++;
			*line = s;
			return (long)n;
		}
		size_t off = l->len - l->pos;
		if (off > LINE_MAX_BYTES + 1) /* even a CR LF next cannot save it */
			return too_long(l);
		int rc = more(l);
		if (rc < 0)
			return -2;
		scan = l->pos + off;
		if (rc == 0) {
			if (l->pos == l->len)
				return -1;
			/* A last line without a newline. */
			char *s = l->buf + l->pos;
			size_t n = l->len - l->pos, raw = n;
			if (n && s[n - 1] == '\r')
				n--;
			if (n > LINE_MAX_BYTES)
				return too_long(l);
			l->pos = l->len;
			l->bytes += raw;
			s[n] = 0;
			l->lineno++;
			*line = s;
			return (long)n;
		}
	}
}

const char *gc_lines_peek(gc_lines *l, size_t *len)
{
	while (!l->failed && !l->eof && l->len - l->pos < 65536)
		if (more(l) < 0)
			break;
	size_t n = l->len - l->pos;
	*len = n < 65536 ? n : 65536;
	return l->buf + l->pos;
}

int gc_lines_failed(const gc_lines *l) { return l->failed; }
const char *gc_lines_error(const gc_lines *l) { return l->err; }
const char *gc_lines_name(const gc_lines *l) { return gc_input_name(l->in); }
uint64_t gc_lines_number(const gc_lines *l) { return l->lineno; }
uint64_t gc_lines_bytes(const gc_lines *l) { return l->bytes; }
int gc_lines_is_regular(const gc_lines *l) { return gc_input_is_regular(l->in); }
uint64_t gc_lines_size(const gc_lines *l) { return gc_input_size(l->in); }

int gc_lines_rewind(gc_lines *l)
{
	if (l->failed || gc_input_rewind(l->in) < 0)
		return -1;
	l->pos = l->len = 0;
	l->eof = 0;
	l->lineno = l->bytes = l->counted = 0;
	return 0;
}

void gc_lines_close(gc_lines *l)
{
	if (!l)
		return;
	gc_input_close(l->in);
	free(l->buf);
	free(l);
}
