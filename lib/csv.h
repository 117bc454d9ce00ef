/*
 * csv.h - the CSV dump of a gc stream: written by gc-stats --dump, read
 * back by gc-import --format csv (gc_csv_import in formats.h), which
 * rebuilds the stream byte for byte.  Both sides live in csv.c so the
 * columns are defined once.  The format is described in gc-stats(1).
 *
 *   # gc-stats dump 1              first line, identifies the format
 *   # kind accesses                accesses, requests or dram
 *   # version 1.0                  major.minor of the stream
 *   # record_size 32
 *   # required 0x0                 header flag words
 *   # optional 0x0
 *   # header KEY=VALUE             one per header key, in order
 *   kernel,sm,...,info             the column row (GC_CSV_COLUMNS)
 *   ...                            one row per record, control records too
 */
#ifndef GC_CSV_H
#define GC_CSV_H

#include "gc.h"

#include <stdint.h>
#include <stdio.h>

#define GC_CSV_MAGIC "# gc-stats dump 1"
#define GC_CSV_COLUMNS \
	"kernel,sm,block,warp,lane,pc,seq,op,space,addr,size,mask,time,outcome,flags,name,info"
#define GC_CSV_NCOLUMNS 17

typedef struct gc_csv_out gc_csv_out;

/* Start a dump of a stream with header h on f (name for messages): the
 * header comment lines and the column row.  NULL when out of memory. */
gc_csv_out *gc_csv_out_open(FILE *f, const char *name, const gc_header *h);
/* One row each; 0, or -1 on a write error (gc_csv_out_error). */
int gc_csv_out_kbegin(gc_csv_out *o, const gc_kernel *k);
int gc_csv_out_data(gc_csv_out *o, const gc_rec *r);
/* Kernel end with its data record count. */
int gc_csv_out_kend(gc_csv_out *o, uint32_t kernel, uint64_t data);
/* End of stream with the counts of its end record: records before it
 * (time-base records included) and data records. */
int gc_csv_out_end(gc_csv_out *o, uint64_t records, uint64_t data);
/* Write out what is buffered (the FILE is left open); 0 or -1. */
int gc_csv_out_flush(gc_csv_out *o);
const char *gc_csv_out_error(const gc_csv_out *o);
void gc_csv_out_free(gc_csv_out *o);

/* The name of a kernel attribute in the dump's info column and in reports:
 * "insts", "mem_insts", ... or "attr.N" for a key without a name (written
 * into buf, which must hold 16 bytes). */
const char *gc_csv_attr_name(unsigned key, char *buf);

#endif
