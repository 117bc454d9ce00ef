/*
 * rdplot.h - gc-rd's picture (SVG): the reuse-distance histogram over the
 * miss-ratio curve of a fully associative LRU cache, with the cache's
 * cut-off marked in both.  The caller hands over the figures (the
 * histogram's rows, the misses at any size); nothing here knows the
 * engine.
 */
#ifndef GC_RDPLOT_H
#define GC_RDPLOT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define GC_RDPLOT_INF UINT64_MAX /* a distance of infinity (rd.h's GC_RD_INF) */

/* A row of the histogram: distances lo..hi (lo == hi: one distance;
 * lo GC_RDPLOT_INF: the first references). */
typedef struct gc_rdplot_bin {
	uint64_t lo, hi;
	double count;
} gc_rdplot_bin;

typedef struct gc_rdplot {
	const char *input;          /* for the title */
	const char *unit;           /* "lines of 128 B", "sectors of 32 B", "bytes" */
	const gc_rdplot_bin *bins;  /* in increasing distance */
	size_t nbins;
	double total;               /* every reference */
	uint64_t top;               /* the largest finite distance + 1 (1: none) */
	/* references of distance >= size: the misses of a cache of size units */
	double (*misses)(const void *ctx, uint64_t size);
	const void *ctx;
	uint64_t lines, ways;       /* the cache (0 lines: none) */
	double lru_misses, sdcm;    /* its LRU misses, its SDCM hit rate */
} gc_rdplot;

/* A row's distances as a label: "7", "16-31", "inf". */
void gc_rdplot_range(char *buf, size_t len, const gc_rdplot_bin *b);

/* The picture, a whole SVG document, to f. */
void gc_rdplot_svg(FILE *f, const gc_rdplot *p);

#endif
