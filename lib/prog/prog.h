/*
 * prog.h - program support for the filters' main(): messages, exit
 * statuses, the shared options, number parsing, JSON summaries.  This is
 * the only part of lib/ that prints or exits.
 *
 * Exit statuses: 0 success, 1 bad data or I/O failure, 2 bad usage or bad
 * configuration.
 */
#ifndef GC_PROG_H
#define GC_PROG_H

#include "stream/stream.h"

#include <getopt.h>
#include <stdint.h>
#include <stdio.h>

#define GC_EXIT_DATA 1
#define GC_EXIT_USAGE 2

extern const char *gc_progname;
/* -q was given (gc_common_option): notes and warnings about the GPU off. */
extern int gc_prog_quiet;

/* Record the tool's name and command line (for provenance), reset SIGPIPE
 * to its default so `| head` ends quietly. */
void gc_prog_init(const char *name, int argc, char **argv);
_Noreturn void gc_die(int status, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void gc_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* "prog: message" and "Try 'prog --help' for more information.", exit 2. */
_Noreturn void gc_usage_error(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

/* The options every tool shares. */
typedef struct gc_common {
	const char *out;   /* -o FILE */
	const char *stats; /* --stats FILE */
	const char *gpu;   /* --gpu NAME|FILE */
	const char *report; /* --report FILE (the stages, gc_emit_option) */
	int verbose, quiet, force, gzip, progress; /* progress: 1 auto, 2 always */
	int emit_none;     /* --emit none (gc_emit_option) */
} gc_common;

enum {
	GC_OPT_STATS = 0x1000,
	GC_OPT_GPU,
	GC_OPT_FORCE,
	GC_OPT_PROGRESS,
	GC_OPT_LIST_GPUS,
	GC_OPT_REPORT,
	GC_OPT_EMIT,
	GC_OPT_TOOL = 0x1100, /* tools number their own long-only options from here */
};

#define GC_COMMON_SHORTOPTS "hVqvo:z"
/* The options of every tool, text-writing tools (gc-stats, gc-plot) too. */
#define GC_BASIC_LONGOPTS                                           \
	{"help", no_argument, NULL, 'h'},                           \
	{"version", no_argument, NULL, 'V'},                        \
	{"quiet", no_argument, NULL, 'q'},                          \
	{"verbose", no_argument, NULL, 'v'},                        \
	{"output", required_argument, NULL, 'o'}
#define GC_COMMON_LONGOPTS                                          \
	GC_BASIC_LONGOPTS,                                          \
	{"gzip", no_argument, NULL, 'z'},                           \
	{"stats", required_argument, NULL, GC_OPT_STATS},           \
	{"gpu", required_argument, NULL, GC_OPT_GPU},               \
	{"force", no_argument, NULL, GC_OPT_FORCE},                 \
	{"progress", optional_argument, NULL, GC_OPT_PROGRESS},     \
	{"list-gpus", no_argument, NULL, GC_OPT_LIST_GPUS}
/* A stage's options of the output rule (gc(7)): --report FILE, --emit. */
#define GC_REPORT_LONGOPTS                                          \
	{"report", required_argument, NULL, GC_OPT_REPORT},         \
	{"emit", required_argument, NULL, GC_OPT_EMIT}

/* getopt_long that turns unknown options and missing values into usage
 * errors (exit 2) naming the option. */
int gc_getopt(int argc, char **argv, const char *shortopts,
	      const struct option *longopts);
/* --list-gpus: the presets on stdout, exit 0 (prog/gpuopt.c, where the
 * preset search path is). */
_Noreturn void gc_gpu_list_exit(void);
/* Handle one of the shared options; returns 1 when it was one.  -h prints
 * `help` on stdout and exits 0; -V prints the versions and exits 0. */
int gc_common_option(gc_common *c, int opt, const char *arg, const char *help);
/* The single input operand: none or "-" is standard input; more is a usage
 * error. */
const char *gc_one_input(int argc, char **argv);

/* Numbers: decimal or 0x hex, optional K, M, G suffix (x1024, x1024^2,
 * x1024^3); out of [min, max] or malformed is a usage error naming opt. */
uint64_t gc_num(const char *opt, const char *arg, uint64_t min, uint64_t max);
double gc_real(const char *opt, const char *arg, double min, double max);
/* An option of two values: 0 for a, 1 for b; anything else is a usage
 * error "OPT: 'ARG' is not A or B". */
int gc_choose(const char *opt, const char *arg, const char *a, const char *b);
/* --kernel-boundary flush|keep (gc(7), VOCABULARY): 1 flush, 0 keep. */
int gc_kernel_boundary(const char *arg);

/* The command line as one shell-quoted string, for provenance. */
const char *gc_cmdline(void);

/* Open a stream or die (exit 1 with the reader's message). */
gc_reader *gc_open_stream(const char *path);
/* Die unless the stream holds `kind`: "gc-l2 reads requests; this stream
 * holds DRAM transactions". */
void gc_require_kind(const gc_reader *r, int kind);
/* A bad value in the data record just read: "prog: input: record N
 * (offset X): what", the writer w (if not NULL) abandoned so the output
 * stays detectably truncated, exit 1. */
_Noreturn void gc_die_record(const gc_reader *r, gc_writer *w, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* The same for a record `back` records before the last one taken (a
 * record of a gc_read_raw block that is not its last). */
_Noreturn void gc_die_record_back(const gc_reader *r, gc_writer *w, uint64_t back,
				  const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* Open the output stream for header h (gzip and --force from c) or die;
 * NULL with --emit none (c->emit_none): no stream. */
gc_writer *gc_open_output(const gc_common *c, const gc_header *h);
/* Close it, dying on a write error (exit 1); NULL: nothing to close. */
void gc_close_output(gc_writer *w);
/* Flush and close stdout, dying on error (a full disk, /dev/full). */
void gc_close_stdout(void);
/* Open a text output file ("-" or NULL: stdout) or die. */
FILE *gc_open_text(const char *path);
/* The whole of a text file ("-": stdin), or die (exit 1) naming it.
 * Caller frees. */
char *gc_read_text_file(const char *path, size_t *len);
void gc_close_text(FILE *f, const char *path);

/* ---- the output rule (gc(7)): a stage's text report ---------------- */

/* --emit ARG of a stage: "none" sets c->emit_none and returns 0; else the
 * index of ARG in `values` (NULL-terminated, the stream's kinds, the
 * default first); anything else is a usage error listing them. */
int gc_emit_option(gc_common *c, const char *arg, const char *const *values);
/* Whether the stage is to make its text report: -v, --report or --emit
 * none. */
int gc_report_wanted(const gc_common *c);
/* Write the report where the output rule says, by calling `write` once
 * per place: with --emit none on stdout (or -o FILE), with --report FILE
 * to FILE, with -v on stderr; the files whole or not at all
 * (gc_open_text), a write error dies (exit 1).  Call it after the stream
 * is closed. */
void gc_write_report(const gc_common *c, void (*write)(FILE *f, const void *ctx),
		     const void *ctx);

/* Memory or death: "out of memory", exit 1 (for main's side only). */
void *gc_xrealloc(void *p, size_t n);
void *gc_xcalloc(size_t n, size_t size);
char *gc_xstrdup(const char *s);

/* ---- progress --------------------------------------------------------- */

/* Draw "done of total" on stderr when enabled and stderr is a terminal, at
 * most a few times a second, with the percentage, the rate and the time
 * left; call freely.  gc_progress_end clears it.  With total 0 (the size is
 * not known) nothing is drawn unless --progress=always asked for it: in a
 * pipeline only the first stage, the one that reads a file (or generates
 * a known amount), draws, and the stages after it, reading a pipe, stay
 * quiet. */
void gc_progress(int enabled, uint64_t done, uint64_t total);
/* The same for a caller that reports once a block read (a megabyte or so)
 * rather than once a record: every call looks at the clock. */
void gc_progress_block(int enabled, uint64_t done, uint64_t total);
/* The same for a stream reader: its input's bytes as on disk (compressed
 * ones for compressed input) of the file's size; a pipe's size is not
 * known. */
void gc_progress_reader(int enabled, const gc_reader *r);
/* gc_progress_reader once a block of records (gc_read_raw's), looking at
 * the clock every call as gc_progress_block does. */
void gc_progress_reader_block(int enabled, const gc_reader *r);
void gc_progress_end(int enabled);

#endif
