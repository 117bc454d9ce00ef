/*
 * test-lib.h - what the files of test-lib share: the unit tests, which
 * main.c runs (its table names them), and the helpers they use.
 */
#ifndef GC_TEST_LIB_H
#define GC_TEST_LIB_H

#include "stream/format.h"

#include <stddef.h>
#include <stdio.h>

/* Temporary files, removed at exit (main.c). */
const char *tmp_file(void);
const char *tmp_with(const void *data, size_t n);
const char *tmp_gzip_with(const void *data, size_t n);

/* The JSON writer's sample document (text.c; the json driver prints it). */
void json_sample(FILE *f);

/* A data record of op, space, addr and time, the rest fixed (stream.c;
 * the write drivers use it). */
gc_rec mkrec(int op, int space, uint64_t addr, uint64_t time);

/* The units, in the order of main.c's table. */
void t_endian(void);
void t_header(void);
void t_header_provenance(void);
void t_header_text(void);
void t_kernel(void);
void t_names(void);
void t_outcome(void);
void t_outcome_strict(void);
void t_sass_width(void);
void t_sass_memop(void);
void t_sass_memop_nonmem(void);
void t_parse_hex(void);
void t_parse_dec(void);
void t_parse_dec_min(void);
void t_lines(void);
void t_lines_long(void);
void t_lines_limit(void);
void t_json(void);
void t_stream_roundtrip(void);
void t_stream_large(void);
void t_stream_limits(void);
void t_stream_lanes(void);
void t_writer_refuses(void);
void t_writer_grid_range(void);
void t_writer_open_checks(void);
void t_reader_open(void);
void t_read_data(void);
void t_write_raw_decode(void);
void t_stream_compute(void);
void t_write_raw(void);
void t_l1wheel(void);
void t_abs_normal(void);
void t_rng(void);
void t_rowmap(void);
void t_grow(void);
void t_bigmem(void);
void t_bigpool(void);
void t_counts64(void); /* wide.c */

#endif
