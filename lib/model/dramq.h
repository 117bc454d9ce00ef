/*
 * dramq.h - an FR-FCFS DRAM controller per channel: the queueing model of
 * gc-dram (gc-dram(1), "The queueing model").
 *
 * Time is DRAM command cycles.  Each channel holds up to `queue`
 * requests in arrival order and issues one command a cycle, first ready,
 * first come: the oldest request whose row is open in its bank and whose
 * column command may go (a row hit), else the oldest request to a bank
 * with no hit left queued, which precharges the bank (if a row is open)
 * and activates its row.  The bank and channel constraints are those of
 * GPGPU-Sim's -gpgpu_dram_timing_opt:
 *
 *   ACT  >= PRE + tRP, >= the bank's last ACT + tRC,
 *           >= the channel's last ACT + tRRD
 *   PRE  >= ACT + tRAS, >= the bank's last read command + tRTPL,
 *           >= the end of its last write data + tWR
 *   RD/WR >= ACT + tRCD, >= the channel's last column command + tCCD,
 *           >= the bank group's last column command + tCCDL
 *   RD   >= the end of the channel's last write data + tCDLR
 *   data: RD + tCL (WR + tWL) .. + tBURST, on a data bus that carries
 *         one burst at a time, in column-command order
 *
 * A request's latency runs from its arrival to the end of its data (a
 * full queue holds the next arrival back: its wait counts); its time in
 * the queue from when it entered to its column command.  No refresh,
 * no write drain mode, no power-down.
 *
 * Each bank keeps its requests in arrival order; a command cycle looks
 * at the banks with a hit queued, oldest hit first, and at the oldest
 * request of each bank with none.  No allocation after gc_dramq_new.
 */
#ifndef GC_DRAMQ_H
#define GC_DRAMQ_H

#include <stddef.h>
#include <stdint.h>

typedef struct gc_dramq_timing {
	unsigned tccd, tccdl, trrd, trcd, tras, trp, trc, tcl, twl, tcdlr, twr, trtpl;
	unsigned tburst;      /* data-bus cycles of one transaction */
} gc_dramq_timing;

/* What one channel did. */
typedef struct gc_dramq_chan {
	uint64_t reads, writes;
	uint64_t hits, empty, conflicts; /* in the order served */
	uint64_t read_latency, write_latency; /* sums, cycles */
	uint64_t queued;      /* sum of the cycles from entering the queue to the
			       * column command */
	uint64_t busy;        /* data-bus cycles */
	uint64_t first, last; /* first arrival, end of the last data */
} gc_dramq_chan;

typedef struct gc_dramq gc_dramq;

/* channels x banks (a power of two), bank_groups dividing banks (a bank's
 * group: bank % bank_groups), queue entries per channel.  NULL with the
 * reason in err. */
gc_dramq *gc_dramq_new(unsigned channels, unsigned banks, unsigned bank_groups,
		       unsigned queue, const gc_dramq_timing *t, char *err, size_t len);
void gc_dramq_free(gc_dramq *q);

/* A transaction arriving at cycle `arrival` (not before the channel's
 * previous one: an earlier time counts as that one).  The controller
 * may hold it until the channel has more (gc_dramq_drain serves all). */
void gc_dramq_add(gc_dramq *q, unsigned chan, unsigned bank, uint64_t row, int write,
		  uint64_t arrival);
/* n (1 to 8) such transactions alike: gc_dramq_add n times. */
void gc_dramq_add_n(gc_dramq *q, unsigned chan, unsigned bank, uint64_t row, int write,
		    uint64_t arrival, unsigned n);
/* Serve everything still queued; the results below are complete after
 * it. */
void gc_dramq_drain(gc_dramq *q);

const gc_dramq_chan *gc_dramq_channel(const gc_dramq *q, unsigned chan);
/* The smallest latency L with at least fraction p (0 < p <= 1) of the
 * reads (write: the writes) at or below L; 0 with none.  Exact up to
 * 65535 cycles, the lower bound of a power-of-two bucket above. */
uint64_t gc_dramq_percentile(const gc_dramq *q, int write, double p);
uint64_t gc_dramq_max_latency(const gc_dramq *q, int write);

#endif
