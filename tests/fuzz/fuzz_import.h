/* fuzz_import.h - gc-import's driver for the import targets (fuzz_import.c). */
#ifndef GC_FUZZ_IMPORT_H
#define GC_FUZZ_IMPORT_H

#include "import/formats.h"

/* Import data, written to fuzz_dir()/name, with format f the way
 * gc-import does (the records go to /dev/null).  Malformed lines are
 * skipped (--lenient) when lenient is set, else the import stops at the
 * first, as gc-import stops; a fatal error stops it either way. */
void fuzz_import(const gc_format *f, const char *name, const uint8_t *data, size_t size,
		 int lenient, void (*setup)(gc_import *im));

#endif
