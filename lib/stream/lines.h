/* lines.h - fast line-by-line reading of (possibly compressed) text. */
#ifndef GC_LINES_H
#define GC_LINES_H

#include <stddef.h>
#include <stdint.h>

typedef struct gc_lines gc_lines;

/* Open path ("-" or NULL: standard input); gzip is decompressed.  NULL
 * only when out of memory; otherwise check gc_lines_failed(). */
gc_lines *gc_lines_open(const char *path);
int gc_lines_failed(const gc_lines *l);
const char *gc_lines_error(const gc_lines *l);
const char *gc_lines_name(const gc_lines *l);
/* The longest line: 16 MiB of text, its newline and a CR before it not
 * counted. */
#define GC_LINE_MAX (16u << 20)

/* The next line, NUL-terminated in place, without its newline or a
 * trailing CR: returns its length, -1 at the end, -2 on a read error (a
 * line longer than GC_LINE_MAX is an error: "FILE:N: line too long (more
 * than 16777216 bytes)").  The pointer is valid until the next call. */
long gc_lines_next(gc_lines *l, char **line);
/* 1-based number of the line last returned. */
uint64_t gc_lines_number(const gc_lines *l);
/* Bytes of text returned so far (for progress and MB/s figures). */
uint64_t gc_lines_bytes(const gc_lines *l);
/* The first bytes of the input without consuming them (for format
 * detection); *len is set to what is available (up to 64 KiB). */
const char *gc_lines_peek(gc_lines *l, size_t *len);
int gc_lines_is_regular(const gc_lines *l);
/* The input's size as on disk (compressed, for compressed input); 0 when
 * it is not a regular file (a pipe). */
uint64_t gc_lines_size(const gc_lines *l);
/* Progress over every gc_lines of the process: fn (NULL: none) is called
 * after each block read with the bytes all of them have read so far, as
 * on disk (compressed ones for compressed input; a rewound file's once
 * more). */
void gc_lines_watch(void (*fn)(uint64_t bytes_read));
/* Read a regular file again from its first line (line numbers and byte
 * counts restart): 0, or -1 when it cannot be rewound (a pipe). */
int gc_lines_rewind(gc_lines *l);
void gc_lines_close(gc_lines *l);

#endif
