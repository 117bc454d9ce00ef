/*
 * pcreport.h - the per-PC table of gc-l1 and gc-l2 for people and for
 * --stats (pcreport.c): the rows of a gc_pctab (base/pctab.h) sorted by
 * misses, the first `top` of them (0: all), with hit rates and each row's
 * share of all misses, cg_annotate style.
 *
 * The stream carries no opcodes (gc-stream(5) has no field for one), so
 * the opcode column is "-" in the text and null in JSON; the column is
 * there so that a stream that one day carries them changes no reader.
 */
#ifndef GC_PCREPORT_H
#define GC_PCREPORT_H

#include "base/pctab.h"
#include "report/json.h"

#include <stddef.h>
#include <stdio.h>

/* "pcs": [ {kernel, pc, opcode, requests, hits, misses, hit_rate,
 * miss_share}, ... ] in j. */
void gc_pcreport_json(gc_json *j, const gc_pctab *t, const gc_pcrow *rows, size_t n,
		      size_t top);
/* The table as text, every line starting "prefix: ". */
void gc_pcreport_text(FILE *f, const char *prefix, const gc_pctab *t, const gc_pcrow *rows,
		      size_t n, size_t top);

#endif
