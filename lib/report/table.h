/*
 * table.h - a CSV table read whole: a header row and rows of fields
 * (RFC 4180 quoting, one record a line, empty lines skipped).  What
 * gc-plot draws from (gc-stats --merge, examples/sweep, gc-rd --csv).
 *
 *     gc_table t;
 *     if (gc_table_read(&t, path, NULL, NULL, err, sizeof err) < 0) ...
 *     t.rows[r][c] is row r's field of column t.cols[c], from line
 *     t.lineno[r].
 *     gc_table_free(&t);
 *
 * Nothing here prints or exits: -1 leaves a one-line message naming the
 * file and the line ("t.csv:4: unterminated quoted field").
 */
#ifndef GC_TABLE_H
#define GC_TABLE_H

#include <stddef.h>
#include <stdint.h>

typedef struct gc_table {
	const char *name;   /* the input's name */
	char **cols;        /* the header row */
	size_t ncols;
	char ***rows;       /* ncols fields each */
	char **bufs;        /* each row's text, which its fields point into */
	uint64_t *lineno;   /* each row's line */
	size_t nrows, cap;
} gc_table;

#define GC_TABLE_ERR 8192

/* Called after each line with the bytes of text read so far. */
typedef void (*gc_table_progress_fn)(void *ctx, uint64_t bytes);

/* Read path ("-" or NULL: standard input; gzip is decompressed) into t:
 * 0, or -1 with the message in err (t is then empty: nothing to free;
 * GC_TABLE_ERR bytes hold any message).
 * progress may be NULL. */
int gc_table_read(gc_table *t, const char *path, gc_table_progress_fn progress, void *ctx,
		  char *err, size_t len);
void gc_table_free(gc_table *t);

#endif
