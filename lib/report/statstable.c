/*
 * statstable.c - the CSV table of gc-stats --merge (statstable.h).
 *
 * Rows are kept as text until every column is known.  The files of a
 * sweep share their keys, so the column a key belongs to is found by
 * trying the column after the previous key first.
 */
#include "report/statstable.h"
#include "report/jsonflat.h"
#include "base/grow.h"

#include <stdlib.h>
#include <string.h>

/* A row: a file's values, or (long form) one element of its kernels. */
struct srow {
	size_t file;
	char *id, *name; /* long form: the element's "id" and "name" */
	char **vals;     /* per column, or NULL */
	size_t nvals;
};

struct gc_statstable {
	int longform, arrays;
	char **files; /* the names added */
	size_t nfiles, fcap;
	char **cols;
	size_t ncols, ccap;
	size_t next; /* the column expected for the next key */
	struct srow *rows;
	size_t nrows, rcap;
	long kernel; /* long form: the element the last row is of, -1 none */
	int oom;
};

/* p grown to hold one more of n items of size sz (cap doubled from 64). */
static int grow(void *pp, size_t n, size_t *cap, size_t sz)
{
	void **p = pp;
	void *q = gc_grow(*p, cap, n + 1, sz, 64);
	if (!q)
		return -1;
	*p = q;
	return 0;
}

/* The column of path, added at the end if new; -1: out of memory. */
static long column(gc_statstable *T, const char *path)
{
	if (T->next < T->ncols && strcmp(T->cols[T->next], path) == 0)
		return (long)T->next++;
	for (size_t i = 0; i < T->ncols; i++)
		if (strcmp(T->cols[i], path) == 0) {
			T->next = i + 1;
			return (long)i;
		}
	char *c = strdup(path);
	if (!c || grow(&T->cols, T->ncols, &T->ccap, sizeof *T->cols) < 0) {
		free(c);
		return -1;
	}
	T->cols[T->ncols] = c;
	T->next = T->ncols + 1;
	return (long)T->ncols++;
}

/* A new empty row of the last file added. */
static struct srow *new_row(gc_statstable *T)
{
	if (grow(&T->rows, T->nrows, &T->rcap, sizeof *T->rows) < 0)
		return NULL;
	struct srow *r = &T->rows[T->nrows++];
	memset(r, 0, sizeof *r);
	r->file = T->nfiles - 1;
	return r;
}

/* Slot col of r's values, grown (new slots NULL) to hold it. */
static char **val_slot(struct srow *r, size_t col)
{
	if (col >= r->nvals) {
		size_t was = r->nvals;
		char **v = gc_grow(r->vals, &r->nvals, col + 1, sizeof *v, 64);
		if (!v)
			return NULL;
		memset(v + was, 0, (r->nvals - was) * sizeof *v);
		r->vals = v;
	}
	return &r->vals[col];
}

static int set(gc_statstable *T, char **slot, const char *value)
{
	char *v = slot ? strdup(value) : NULL;
	if (!v) {
		T->oom = 1;
		return 1;
	}
	free(*slot);
	*slot = v;
	return 0;
}

static int wide_value(void *ctx, const char *path, const char *value, int type, int arrays)
{
	gc_statstable *T = ctx;
	(void)type;
	if (arrays && !T->arrays)
		return 0;
	long c = column(T, path);
	return set(T, c < 0 ? NULL : val_slot(&T->rows[T->nrows - 1], (size_t)c), value);
}

/* Long form: only the keys of kernels.N; a row per element. */
static int long_value(void *ctx, const char *path, const char *value, int type, int arrays)
{
	gc_statstable *T = ctx;
	(void)type;
	if (strncmp(path, "kernels.", 8) != 0 || path[8] < '0' || path[8] > '9')
		return 0;
	char *end;
	long k = strtol(path + 8, &end, 10);
	if (*end != '.' || (arrays > 1 && !T->arrays))
		return 0;
	const char *key = end + 1;
	if (k != T->kernel || T->nrows == 0 || T->rows[T->nrows - 1].file != T->nfiles - 1) {
		if (!new_row(T))
			return set(T, NULL, value);
		T->kernel = k;
	}
	struct srow *r = &T->rows[T->nrows - 1];
	if (strcmp(key, "id") == 0)
		return set(T, &r->id, value);
	if (strcmp(key, "name") == 0)
		return set(T, &r->name, value);
	long c = column(T, key);
	return set(T, c < 0 ? NULL : val_slot(r, (size_t)c), value);
}

gc_statstable *gc_statstable_new(int longform, int arrays)
{
	gc_statstable *T = calloc(1, sizeof *T);
	if (T) {
		T->longform = longform;
		T->arrays = arrays;
	}
	return T;
}

int gc_statstable_add(gc_statstable *T, const char *name, const char *text, size_t len,
		      char *err, size_t errlen)
{
	char jerr[256];
	char *n = strdup(name);
	if (!n || grow(&T->files, T->nfiles, &T->fcap, sizeof *T->files) < 0) {
		free(n);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	T->files[T->nfiles++] = n;
	T->next = 0;
	T->kernel = -1;
	T->oom = 0;
	if (!T->longform && !new_row(T)) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	int rc = gc_jsonflat(text, len, T->longform ? long_value : wide_value, T, jerr,
			     sizeof jerr);
	if (T->oom) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	if (rc != 0) {
		snprintf(err, errlen, "%s: %s", name, jerr);
		return -1;
	}
	return 0;
}

/* A CSV field: quoted when it holds a comma, quote, CR or LF. */
static void field(FILE *f, const char *v)
{
	if (!strpbrk(v, ",\"\r\n")) {
		fputs(v, f);
		return;
	}
	putc('"', f);
	for (; *v; v++) {
		if (*v == '"')
			putc('"', f);
		putc(*v, f);
	}
	putc('"', f);
}

void gc_statstable_write(const gc_statstable *T, FILE *f)
{
	fputs(T->longform ? "file,kernel,name" : "file", f);
	for (size_t c = 0; c < T->ncols; c++) {
		putc(',', f);
		field(f, T->cols[c]);
	}
	putc('\n', f);
	for (size_t i = 0; i < T->nrows; i++) {
		const struct srow *r = &T->rows[i];
		field(f, T->files[r->file]);
		if (T->longform) {
			putc(',', f);
			field(f, r->id ? r->id : "");
			putc(',', f);
			field(f, r->name ? r->name : "");
		}
		for (size_t c = 0; c < T->ncols; c++) {
			putc(',', f);
			if (c < r->nvals && r->vals[c])
				field(f, r->vals[c]);
		}
		putc('\n', f);
	}
}

void gc_statstable_free(gc_statstable *T)
{
	if (!T)
		return;
	for (size_t i = 0; i < T->nrows; i++) {
		for (size_t c = 0; c < T->rows[i].nvals; c++)
			free(T->rows[i].vals[c]);
		free(T->rows[i].vals);
		free(T->rows[i].id);
		free(T->rows[i].name);
	}
	for (size_t c = 0; c < T->ncols; c++)
		free(T->cols[c]);
	for (size_t i = 0; i < T->nfiles; i++)
		free(T->files[i]);
	free(T->rows);
	free(T->cols);
	free(T->files);
	free(T);
}
