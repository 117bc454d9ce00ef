/*
 * statstable.h - many --stats JSON files as one CSV table (gc-stats
 * --merge): a row per file, or with --long a row per element of each
 * file's "kernels" list.
 *
 *   gc_statstable *T = gc_statstable_new(longform, arrays);
 *   gc_statstable_add(T, "l1.json", text, len, err, sizeof err);  per file
 *   gc_statstable_write(T, stdout);
 *   gc_statstable_free(T);
 *
 * Columns: "file" (with longform "file,kernel,name": the element's id
 * and name), then every scalar path (report/jsonflat.h; objects joined
 * with dots) in order of first appearance, empty where a row lacks the
 * key; array elements (per_sm.0.hits) only with arrays.  A file without
 * a kernels list gives no row in the long form.  Fields are quoted when
 * they hold a comma, quote, CR or LF.  Nothing here prints or exits:
 * gc_statstable_add returns -1 with a one-line message in err ("FILE:
 * line L, column C: what", or "out of memory").
 */
#ifndef GC_STATSTABLE_H
#define GC_STATSTABLE_H

#include <stddef.h>
#include <stdio.h>

typedef struct gc_statstable gc_statstable;

/* NULL: out of memory. */
gc_statstable *gc_statstable_new(int longform, int arrays);
void gc_statstable_free(gc_statstable *T);

/* Read one --stats JSON document, text[0..len); name: its "file" field
 * and the name in messages (kept by the table). */
int gc_statstable_add(gc_statstable *T, const char *name, const char *text, size_t len,
		      char *err, size_t errlen);

/* The table, header row first, once every file has been added. */
void gc_statstable_write(const gc_statstable *T, FILE *f);

#endif
