/*
 * table.c - a CSV table read whole (table.h).
 */
#include "report/table.h"

#include "stream/lines.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Split line (in place) into at most max fields; returns the count or -1
 * with the problem in *why. */
static long split(char *p, char **f, size_t max, const char **why)
{
	size_t n = 0;
	for (;;) {
		if (n == max) {
			*why = "more fields than the header row";
			return -1;
		}
		if (*p == '"') {
			char *o = ++p;
			f[n++] = o;
			for (;;) {
				if (!*p) {
					*why = "unterminated quoted field";
					return -1;
				}
				if (*p == '"') {
					if (p[1] == '"') {
						*o++ = '"';
						p += 2;
						continue;
					}
					p++;
					break;
				}
				*o++ = *p++;
			}
			*o = '\0';
			if (*p && *p != ',') {
				*why = "text after a closing quote";
				return -1;
			}
		} else {
			f[n++] = p;
			while (*p && *p != ',')
				p++;
		}
		if (!*p)
			return (long)n;
		*p++ = '\0';
	}
}

/* Room for one more row; -1 when out of memory. */
static int grow(gc_table *t)
{
	if (t->nrows < t->cap)
		return 0;
	size_t cap = t->cap ? 2 * t->cap : 256;
	char ***rows = realloc(t->rows, cap * sizeof *rows);
	if (rows)
		t->rows = rows;
	uint64_t *lineno = realloc(t->lineno, cap * sizeof *lineno);
	if (lineno)
		t->lineno = lineno;
	char **bufs = realloc(t->bufs, cap * sizeof *bufs);
	if (bufs)
		t->bufs = bufs;
	if (!rows || !lineno || !bufs)
		return -1;
	t->cap = cap;
	return 0;
}

/* The header row (split in place into f, max fields). */
static int header(gc_table *t, char *line, char **f, size_t max, const char **why)
{
	long n = split(line, f, max, why);
	if (n < 0)
		return -1;
	t->cols = calloc((size_t)n, sizeof *t->cols);
	if (!t->cols)
		return -2;
	t->ncols = (size_t)n;
	for (size_t i = 0; i < t->ncols; i++)
		if (!(t->cols[i] = strdup(f[i])))
			return -2;
	return 0;
}

/* A row: its own copy of the line, split into f (ncols fields). */
static int row(gc_table *t, const char *line, char **f, uint64_t lineno, const char **why)
{
	char *copy = strdup(line);
	if (!copy)
		return -2;
	long n = split(copy, f, t->ncols, why);
	if (n >= 0 && (size_t)n != t->ncols) {
		*why = "fewer fields than the header row";
		n = -1;
	}
	char **r = n < 0 ? NULL : malloc(t->ncols * sizeof *r);
	if (!r || grow(t) < 0) {
		free(copy);
		free(r);
		return n < 0 ? -1 : -2;
	}
	memcpy(r, f, t->ncols * sizeof *r);
	t->rows[t->nrows] = r;
	t->bufs[t->nrows] = copy;
	t->lineno[t->nrows++] = lineno;
	return 0;
}

int gc_table_read(gc_table *t, const char *path, gc_table_progress_fn progress, void *ctx,
		  char *err, size_t len)
{
	memset(t, 0, sizeof *t);
	gc_lines *l = gc_lines_open(path);
	if (!l) {
		snprintf(err, len, "out of memory");
		return -1;
	}
	if (gc_lines_failed(l)) {
		snprintf(err, len, "%s", gc_lines_error(l));
		gc_lines_close(l);
		return -1;
	}
	char *name = strdup(gc_lines_name(l));
	t->name = name;
	char *line;
	long n = -1;
	char **f = NULL;
	const char *why = NULL;
	int rc = name ? 0 : -2;
	while (rc == 0 && (n = gc_lines_next(l, &line)) >= 0) {
		if (progress)
			progress(ctx, gc_lines_bytes(l));
		if (n == 0)
			continue;
		if (!t->cols) {
			size_t max = 1;
			for (char *q = line; *q; q++)
				max += *q == ',';
			f = malloc(max * sizeof *f);
			rc = f ? header(t, line, f, max, &why) : -2;
			if (rc == -1)
				snprintf(err, len, "%s:%llu: header row: %s", name,
					 (unsigned long long)gc_lines_number(l), why);
			continue;
		}
		rc = row(t, line, f, gc_lines_number(l), &why);
		if (rc == -1)
			snprintf(err, len, "%s:%llu: %s", name,
				 (unsigned long long)gc_lines_number(l), why);
	}
	if (rc == 0 && n == -2) {
		snprintf(err, len, "%s", gc_lines_error(l));
		rc = -1;
	}
	if (rc == 0 && !t->cols) {
		snprintf(err, len, "%s: empty input (no header row)", name);
		rc = -1;
	}
	if (rc == -2)
		snprintf(err, len, "out of memory");
	free(f);
	gc_lines_close(l);
	if (rc < 0) {
		gc_table_free(t);
		return -1;
	}
	return 0;
}

void gc_table_free(gc_table *t)
{
	for (size_t r = 0; r < t->nrows; r++) {
		free(t->bufs[r]);
		free(t->rows[r]);
	}
	free(t->rows);
	free(t->bufs);
	free(t->lineno);
	for (size_t i = 0; t->cols && i < t->ncols; i++)
		free(t->cols[i]);
	free(t->cols);
	free((char *)t->name);
	memset(t, 0, sizeof *t);
}
