/*
 * json.h - a small streaming JSON writer (json.c): the --stats reports.
 * Keys and nesting are the caller's; numbers and strings are written with
 * JSON's escapes.  It writes to a FILE and checks nothing: the caller
 * closes the FILE with a check.
 */
#ifndef GC_JSON_H
#define GC_JSON_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef struct gc_json {
	FILE *f;
	int depth;
	int first[32];  /* nothing written yet at this depth */
	char type[32];  /* '{' or '[' opened at this depth */
} gc_json;

void gc_json_begin(gc_json *j, FILE *f);       /* { */
void gc_json_end(gc_json *j);                  /* } and newline */
void gc_json_obj(gc_json *j, const char *key); /* "key": { (key NULL in arrays) */
void gc_json_arr(gc_json *j, const char *key); /* "key": [ */
void gc_json_close(gc_json *j);                /* } or ] */
void gc_json_u64(gc_json *j, const char *key, uint64_t v);
/* "key": [v[0], v[stride], ...], n numbers on one line. */
void gc_json_u64s(gc_json *j, const char *key, const uint64_t *v, size_t n, size_t stride);
void gc_json_i64(gc_json *j, const char *key, int64_t v);
void gc_json_num(gc_json *j, const char *key, double v);
void gc_json_str(gc_json *j, const char *key, const char *s); /* s NULL: null */
void gc_json_bool(gc_json *j, const char *key, int v);
void gc_json_null(gc_json *j, const char *key);
/* Write s with JSON escapes, quoted. */
void gc_json_quote(FILE *f, const char *s);

#endif
