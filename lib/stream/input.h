/* input.h - byte input with transparent decompression, for every reader. */
#ifndef GC_IO_H
#define GC_IO_H

#include <stdint.h>
#include <sys/types.h>

typedef struct gc_input gc_input;

/* Open path ("-" or NULL: standard input).  NULL only when out of memory;
 * otherwise check gc_input_failed(). */
gc_input *gc_input_open(const char *path);
/* Up to cap decompressed bytes: >0, 0 at the end, -1 on error. */
ssize_t gc_input_read(gc_input *in, void *dst, size_t cap);
int gc_input_failed(const gc_input *in);
const char *gc_input_error(const gc_input *in);
const char *gc_input_name(const gc_input *in);
int gc_input_compressed(const gc_input *in);
/* The compression taken off: "gzip", "xz", or NULL for plain input. */
const char *gc_input_codec(const gc_input *in);
int gc_input_is_regular(const gc_input *in);
uint64_t gc_input_consumed(const gc_input *in); /* raw bytes read so far */
/* The size of a regular file in bytes (compressed, as on disk); 0 for a
 * pipe, a terminal or anything else. */
uint64_t gc_input_size(const gc_input *in);
/* Start again from the beginning of a regular file (decompression
 * restarted): 0, or -1 when the input cannot be rewound (a pipe). */
int gc_input_rewind(gc_input *in);
void gc_input_close(gc_input *in);

/* Ask for a 1 MiB pipe buffer when fd is a pipe (ignored elsewhere). */
void gc_fd_tune(int fd);

#endif
