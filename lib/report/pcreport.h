/*
 * pcreport.h - the per-PC table of gc-l1 and gc-l2 for people and for
 * --stats (pcreport.c): the rows of a gc_pctab (base/pctab.h) sorted by
 * misses, the first `top` of them (0: all), with hit rates and each row's
 * share of all misses, cg_annotate style.
 *
 * The opcode column is the SASS opcode of (kernel name, PC) from the
 * stream's opcode records (gc-stream(5)), gathered by the stage in a
 * gc_opmap (base/optab.h): "-" in the text and null in JSON where none
 * names it (ops NULL, or a trace without opcodes), GC_OPCODE_MIXED where
 * launches of one kernel name disagree.
 */
#ifndef GC_PCREPORT_H
#define GC_PCREPORT_H

#include "base/optab.h"
#include "base/pctab.h"
#include "report/json.h"

#include <stddef.h>
#include <stdio.h>

/* "pcs": [ {kernel, pc, opcode, requests, hits, misses, hit_rate,
 * miss_share}, ... ] in j. */
void gc_pcreport_json(gc_json *j, const gc_pctab *t, const gc_opmap *ops,
		      const gc_pcrow *rows, size_t n, size_t top);
/* The table as text, every line starting "prefix: ". */
void gc_pcreport_text(FILE *f, const char *prefix, const gc_pctab *t, const gc_opmap *ops,
		      const gc_pcrow *rows, size_t n, size_t top);

#endif
