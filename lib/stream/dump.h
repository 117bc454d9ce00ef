/*
 * dump.h - the CSV dump of a gc stream: written by gc-stats --dump
 * (dump.c), read back by gc-import --format csv (import/csv.c), which
 * rebuilds the stream byte for byte.  The columns and names both sides use
 * are defined here once.  The format is described in gc-stats(1).
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
#ifndef GC_DUMP_H
#define GC_DUMP_H

#include "base/optab.h"
#include "stream/format.h"

#include <stdint.h>
#include <stdio.h>

#define GC_CSV_MAGIC "# gc-stats dump 1"
#define GC_CSV_COLUMNS \
	"kernel,sm,block,warp,lane,pc,seq,op,space,addr,size,mask,time,outcome,flags,name,info"
#define GC_CSV_NCOLUMNS 17

/* The columns, in order, and their names. */
enum gc_csv_col {
	GC_CSV_KERNEL, GC_CSV_SM, GC_CSV_BLOCK, GC_CSV_WARP, GC_CSV_LANE, GC_CSV_PC,
	GC_CSV_SEQ, GC_CSV_OP, GC_CSV_SPACE, GC_CSV_ADDR, GC_CSV_SIZE, GC_CSV_MASK,
	GC_CSV_TIME, GC_CSV_OUTCOME, GC_CSV_FLAGS, GC_CSV_NAME, GC_CSV_INFO,
};
extern const char *const gc_csv_colname[GC_CSV_NCOLUMNS];

/* Kernel attribute names in the info column (index: the key; NULL where a
 * key has no name, written attr.N), and the "# kind" tokens (index: enum
 * gc_kind). */
#define GC_CSV_NATTR_NAMES 8
extern const char *const gc_csv_attr_names[GC_CSV_NATTR_NAMES];
extern const char *const gc_csv_kind_tokens[4];

typedef struct gc_csv_out gc_csv_out;

/* Start a dump of a stream with header h on f (name for messages): the
 * header comment lines and the column row.  NULL when out of memory. */
gc_csv_out *gc_csv_out_open(FILE *f, const char *name, const gc_header *h);
/* One row each; 0, or -1 on a write error (gc_csv_out_error). */
int gc_csv_out_kbegin(gc_csv_out *o, const gc_kernel *k);
int gc_csv_out_data(gc_csv_out *o, const gc_rec *r);
/* The opcode records of kernel t names (gc_reader_opcodes), one row
 * each: the kernel, the pc, op "opcode", the name in the name column;
 * before its kend row. */
int gc_csv_out_opcodes(gc_csv_out *o, uint32_t kernel, const gc_optab *t);
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
