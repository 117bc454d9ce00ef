/*
 * sweeptab.h - a sweep of associativities as people and scripts read it
 * (gc-l1 and gc-l2 --ways-sweep): the CSV table, a row per
 * associativity; the JSON `sweep` list, an object per associativity
 * with its kernels; the lines of the -v report.  The L2's (st->l2) have
 * its counts too: line misses, hits by operation, DRAM sector reads.
 * gc(7) VOCABULARY names every column and key.
 */
#ifndef GC_SWEEPTAB_H
#define GC_SWEEPTAB_H

#include "base/waycounts.h"
#include "report/json.h"

#include <stdio.h>

/* The table: a header line, then a row per associativity.  The first
 * eleven columns are the same for both levels. */
void gc_sweeptab_csv(FILE *f, const gc_waysweep_stats *st);

/* "sweep": [{ways, size, the counts, kernels: [{id, name, the counts}]}]. */
void gc_sweeptab_json(gc_json *j, const gc_waysweep_stats *st);

/* A line per associativity, then a line per kernel, each led by prog. */
void gc_sweeptab_text(FILE *f, const char *prog, const gc_waysweep_stats *st);

#endif
