/* formats.h - the trace formats gc-import reads, one parser module each. */
#ifndef GC_FORMATS_H
#define GC_FORMATS_H

#include "import/import.h"

/* csv.c: the CSV dump of gc-stats (a lossless restore). */
int gc_csv_probe(const char *head, size_t len, const char *path);
int gc_csv_import(gc_import *im, gc_lines *in);

/* accelsim*.c: Accel-Sim NVBit traces (.traceg, raw .trace, kernelslist). */
int gc_accelsim_probe(const char *head, size_t len, const char *path);
int gc_accelsim_import(gc_import *im, gc_lines *in);

/* nvbit.c: NVBit mem_trace output (MEMTRACE: lines, and the older layout). */
int gc_nvbit_probe(const char *head, size_t len, const char *path);
int gc_nvbit_import(gc_import *im, gc_lines *in);

/* ppt.c: PPT-GPU memory traces (kernel_K_block_B.mem, app_config[.py]);
 * options im->app_config and im->ppt_level. */
int gc_ppt_probe(const char *head, size_t len, const char *path);
int gc_ppt_import(gc_import *im, gc_lines *in);

/* ocelot.c: Ocelot .trc traces of the reuse-distance cache model;
 * option im->grid. */
int gc_ocelot_probe(const char *head, size_t len, const char *path);
int gc_ocelot_import(gc_import *im, gc_lines *in);

#endif
