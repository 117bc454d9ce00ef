/* formats.h - the trace formats gc-import reads, one parser module each. */
#ifndef GC_FORMATS_H
#define GC_FORMATS_H

#include "import.h"

/* csv.c: the CSV dump of gc-stats (a lossless restore). */
int gc_csv_probe(const char *head, size_t len, const char *path);
int gc_csv_import(gc_import *im, gc_lines *in);

#endif
