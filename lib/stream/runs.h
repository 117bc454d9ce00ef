/*
 * runs.h - the sectors of a run of access records, four records at a
 * time with AVX2 (runs.c; gc-stats's count of the distinct sectors).
 */
#ifndef GC_RUNS_H
#define GC_RUNS_H

#include <stddef.h>
#include <stdint.h>

/* 1 where gc_run_sectors counts (an x86-64 CPU with AVX2, a GCC-like
 * compiler), else 0: gc_run_sectors then takes no record. */
int gc_run_sectors_fast(void);

/*
 * From p, 32-byte access records in gc-stream(5)'s layout with 32-byte
 * sectors, each within a sector: the records that are of run rk (their
 * first word masked with 0xff00ffff), in clock order from *lo (bytes
 * 20-23, none below the one before), whose bytes 24-31 (the address and
 * size) a have a - base < lim (in the open sector group whose first
 * byte is base; lim leaves room for the access's last byte, `last` past
 * its first).  Their sectors, bit (a - base) >> 5 and (a - base + last)
 * >> 5, are ORed into *acc and *lo is the last one's clock.  Returns how
 * many: a block of four all of them, or the first of a block that pass
 * (the record after them the caller's, with its checks and messages).
 * The same counts as one record at a time: sectors are ORed either way.
 */
size_t gc_run_sectors(const unsigned char *p, const unsigned char *end, uint32_t rk,
		      uint64_t base, uint64_t lim, uint32_t last, uint64_t *acc, uint32_t *lo);

#endif
