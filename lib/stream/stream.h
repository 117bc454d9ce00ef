/*
 * stream.h - reading and writing a gc stream (stream.c).
 *
 * The byte layout is normative in gc-stream(5); the types the records
 * decode to are format.h, included here.  The library never prints and
 * never exits: every failure returns -1 (or NULL) and leaves a one-line
 * message, already naming the input and the record, in the handle
 * (gc_reader_error, gc_writer_error).
 */
#ifndef GC_STREAM_H
#define GC_STREAM_H

#include "base/optab.h"
#include "stream/format.h"

#include <stddef.h>
#include <stdint.h>

/* The sizes a stage moves a stream in (tests/src/pipe-floor, the bench's
 * floor, moves it in the same): the reader asks read(2) for
 * GC_READ_CHUNK bytes at a time (the header aside), small enough for the
 * block to stay in the cache its records are checked from; the writer
 * gathers records into a block of GC_WRITE_BLOCK bytes, one write(2). */
#define GC_READ_CHUNK (128u << 10)
#define GC_WRITE_BLOCK (1u << 20)

/* ---- reading ---------------------------------------------------------- */

enum gc_event { GC_ERR = -1, GC_EOF = 0, GC_DATA = 1, GC_KBEGIN = 2, GC_KEND = 3 };

typedef struct gc_reader gc_reader;

/* Open path ("-" or NULL: standard input) and read its header.  Returns a
 * handle even on failure (so the message can be read), NULL only when out
 * of memory; gc_reader_failed() tells. */
gc_reader *gc_reader_open(const char *path);
int gc_reader_failed(const gc_reader *r);
const gc_header *gc_reader_header(const gc_reader *r);
const char *gc_reader_name(const gc_reader *r);
/* Next event: GC_DATA fills *rec; GC_KBEGIN makes gc_reader_kernel()
 * valid (and sets rec->kernel); GC_KEND sets rec->kernel; GC_EOF after a
 * verified end-of-stream record; GC_ERR with the message in the handle. */
int gc_read(gc_reader *r, gc_rec *rec);
/* Up to max data records into recs (time-base records taken on the way):
 * how many.  Fewer when the next record is no plain data record (a kernel
 * record, the end, an error, a record gc_read refuses): gc_read takes it
 * next.  The batch form of gc_read for the hot loops.  nums, when not
 * NULL, gets each record's number in the stream (what gc_reader_records
 * says just after gc_read returns it), for messages that name it. */
size_t gc_read_data(gc_reader *r, gc_rec *recs, uint64_t *nums, size_t max);
/* The form of gc_read_data that copies nothing: up to max plain data
 * records as they lie in the stream, *n of them from the pointer returned,
 * the header's record_size apart, in gc-stream(5)'s byte layout (their
 * decoding is the caller's), all of one time base: a record's time is
 * *time_hi | its bytes 20-23.  Each has passed gc_read's checks and is
 * taken (counted, the clock set, as gc_read leaves them); the bytes hold
 * until the next call on r.  NULL with *n 0 as gc_read_data returns 0.
 * Neither gives 0 (with max > 0) while the next record is one that
 * gc_read would return as GC_DATA. */
const unsigned char *gc_read_raw(gc_reader *r, size_t max, size_t *n, uint64_t *time_hi);
/*
 * The form of gc_read_raw whose checks are the caller's, for a loop that
 * reads each record's bytes anyway (gc-stats): up to max data records
 * as they lie, in *b, time-base records at the head taken; neither
 * checked nor taken.  The caller takes a prefix of them with
 * gc_read_take, each record of which it has checked as gc_read_raw
 * would: its first word (bytes 0-3, little-endian) masked with
 * word_mask passes gc_word_ok(w, word_min) (once for a run of one
 * masked word), and the low halves of the clock (bytes 20-23) do not
 * fall, the first not below low; the last one's goes to gc_read_take.
 * The first record that fails is gc_read's next (its message).  Returns
 * b->n: 0 when the next record is no data record of the open kernel (a
 * kernel or end record, the end, an error): gc_read's too.  The bytes
 * hold until the next call on r.  gc_read_raw is this with the checks
 * in a loop of its own.
 */
typedef struct gc_block {
	const unsigned char *p; /* n records, the header's record_size apart */
	size_t n;
	uint64_t time_hi;       /* a record's time: time_hi | bytes 20-23 */
	uint32_t low;           /* the least low half the first may have */
	uint32_t word_mask, word_min;
} gc_block;
size_t gc_read_block(gc_reader *r, size_t max, gc_block *b);
/* Take the first n records of the last gc_read_block, checked; low: the
 * last one's clock, its low half. */
void gc_read_take(gc_reader *r, size_t n, uint32_t low);
/* The checked bits of a data record's first word: op, space and (an
 * access's) size; none of a masked word is GC_WORD_NONE's. */
#define GC_WORD_ACCESS UINT32_C(0xff000fff)
#define GC_WORD_OTHER UINT32_C(0x00000fff)
#define GC_WORD_NONE UINT32_C(0x00fff000)
/* A masked first word w is a data record's gc_read accepts (the op
 * GC_LOAD to GC_ATOMIC, a known space, an access's size not 0). */
static inline int gc_word_ok(uint32_t w, uint32_t word_min)
{
	return (w & 0xffu) - GC_LOAD <= (unsigned)(GC_ATOMIC - GC_LOAD) &&
	       (w >> 8 & 15u) < GC_NSPACES && w >= word_min;
}
/* A record of gc_read_raw's block, at p with its time_hi, decoded into
 * rec as gc_read gives it (the kernel the one open). */
void gc_reader_decode(const gc_reader *r, const unsigned char *p, uint64_t time_hi, gc_rec *rec);
const gc_kernel *gc_reader_kernel(const gc_reader *r);
/* The opcode records of the kernel open or last ended (gc-stream(5)
 * "Opcode records"): whole from its GC_KEND until the next GC_KBEGIN
 * empties it; empty in a stream without them.  gc_read takes them on
 * its way, as it takes time-base records. */
const gc_optab *gc_reader_opcodes(const gc_reader *r);
const char *gc_reader_error(const gc_reader *r);
uint64_t gc_reader_records(const gc_reader *r); /* records consumed */
uint64_t gc_reader_bytes(const gc_reader *r);   /* stream bytes consumed */
int gc_reader_compressed(const gc_reader *r);
/* For progress: the input's bytes read so far as they are on disk
 * (compressed ones for compressed input), and the size of the input when
 * it is a regular file (0: a pipe, where the size is not known). */
uint64_t gc_reader_raw_bytes(const gc_reader *r);
uint64_t gc_reader_raw_size(const gc_reader *r);
/* Ask read(2) for `bytes` at a time from now on (GC_READ_CHUNK to
 * GC_WRITE_BLOCK): fewer system calls where the block is consumed fast
 * (gc-stats reading a file: a call costs ~2 us on these VMs). */
void gc_reader_set_chunk(gc_reader *r, size_t bytes);
void gc_reader_close(gc_reader *r);

/* ---- writing ---------------------------------------------------------- */

#define GC_W_GZIP 1  /* write gzip */
#define GC_W_FORCE 2 /* allow binary output to a terminal */

typedef struct gc_writer gc_writer;

/* Open path ("-" or NULL: standard output) and write the header. */
gc_writer *gc_writer_open(const char *path, const gc_header *h, int flags);
int gc_writer_failed(const gc_writer *w);
const char *gc_writer_error(const gc_writer *w);
/* Each returns 0, or -1 with the message in the handle. */
int gc_write(gc_writer *w, const gc_rec *rec);
/* n data records p as gc_read_raw returned them (time base time_hi),
 * from a reader whose header's kind and record size are the writer's:
 * the bytes gc_write writes for each decoded (the pass-through of a
 * stage that changes no record). */
int gc_write_raw(gc_writer *w, const unsigned char *p, size_t n, uint64_t time_hi);

/* gc_write_raw of n data records as they lie with each one's SM (bytes
 * 4-5) set to sm and its clock to time, in the writer's block (the
 * records at p are not changed): a stage that issues them (gc-sched). */
int gc_write_issued(gc_writer *w, const unsigned char *p, size_t n, unsigned sm, uint64_t time);

/* The records of one warp instruction's active lanes: rec with, for each
 * lane of mask in order, that lane and its address, addr[lane], or when
 * addr is NULL rec->addr + k * stride for the k-th active lane (the same
 * bytes as gc_write of each). */
int gc_write_lanes(gc_writer *w, const gc_rec *rec, uint32_t mask, const uint64_t *addr,
		   uint64_t stride);
int gc_write_kbegin(gc_writer *w, const gc_kernel *k);
int gc_write_kend(gc_writer *w, uint32_t kernel);
/* The opcode table of the open kernel, after its last data record and
 * before its end; nothing when t is NULL or empty.  The header must have
 * GC_REQ_OPCODES.  A stage passes its input's on with
 * gc_write_opcodes(w, gc_reader_opcodes(r)) before gc_write_kend. */
int gc_write_opcodes(gc_writer *w, const gc_optab *t);
/* Write the end-of-stream record, flush and close (not stdout's fd; an
 * atomic file is renamed into place).  Never frees: gc_writer_error still
 * reads a failure, and gc_writer_free follows either way. */
int gc_writer_close(gc_writer *w);
/* Free the handle (NULL: nothing).  A stream not closed, or whose close
 * failed, stays detectably truncated: no end record, and an atomic output
 * file is discarded. */
void gc_writer_free(gc_writer *w);
uint64_t gc_writer_records(const gc_writer *w);

#endif
