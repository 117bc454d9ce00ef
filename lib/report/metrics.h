/*
 * metrics.h - the stages' --stats JSON seen as the field's counters:
 * Nsight Compute metric names (gc-stats --metrics ncu), GPGPU-Sim /
 * Accel-Sim log lines (--metrics accelsim), and predicted against
 * measured for an `ncu --csv` export (--compare).  Which of our counts
 * maps to which counter is in metrics.c's tables and in gc-stats(1).
 *
 *   gc_metrics *M = gc_metrics_new();
 *   gc_metrics_add(M, "l1.json", text, len, err, sizeof err);  per file
 *   gc_metrics_ncu(M, stdout, ...) / gc_metrics_accelsim / gc_metrics_compare
 *   gc_metrics_free(M);
 *
 * Files are recognised by their "tool" key (gc-l1, gc-l2, gc-dram); one
 * of each at most.  Every call that can fail returns -1 with a one-line
 * message in err ("FILE: line N: FIELD: what" for the CSV).
 */
#ifndef GC_METRICS_H
#define GC_METRICS_H

#include <stddef.h>
#include <stdio.h>

typedef struct gc_metrics gc_metrics;

gc_metrics *gc_metrics_new(void);
void gc_metrics_free(gc_metrics *M);

/* Read one --stats JSON document (name: for messages). */
int gc_metrics_add(gc_metrics *M, const char *name, const char *text, size_t len, char *err,
		   size_t errlen);

/* Per kernel and for all kernels, the Nsight Compute metrics the files
 * give, named as ncu names them. */
int gc_metrics_ncu(const gc_metrics *M, FILE *f, char *err, size_t errlen);

/* The GPGPU-Sim statistics lines, as its log prints them: per kernel
 * (totals so far, as the log's), then the whole run with the per-SM and
 * per-bank lines. */
int gc_metrics_accelsim(const gc_metrics *M, FILE *f, char *err, size_t errlen);

/* Predicted (the files) against measured (csv[0..len), an ncu --csv
 * export, details or raw page; name: for messages) per kernel and
 * metric, with the error. */
int gc_metrics_compare(const gc_metrics *M, const char *name, const char *csv, size_t len,
		       FILE *f, char *err, size_t errlen);

#endif
