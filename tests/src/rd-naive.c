/*
 * rd-naive - the textbook reuse-distance stack, O(N*M), as an independent
 * check of gc-rd: read a stream annotated by `gc-rd --annotate`, recompute
 * every record's distance with move-to-front arrays, and compare.
 *
 * Usage: rd-naive [-l LINE] [-s SECTOR] [-g line|sector|byte] [-S SETS]
 *                 [-H L|X|H|P] [-b none|sm|kernel] [FILE]
 * Units as gc-rd(1) cuts them: an access's bytes, a request's masked
 * sectors, or the record's address; a record's distance is the largest of
 * its units' (infinity, all ones, for a first use).  Prints the histogram
 * of the unit distances as "distance,references" lines (inf last), then
 * "records N, mismatches M" on stderr; exit 1 when M > 0.
 */
#include "base/hash.h"
#include "model/cache.h"
#include "prog/prog.h"
#include "stream/stream.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct stk {
	uint64_t *u; /* most recent first */
	size_t n, cap;
};

static struct stk *stacks;
static size_t nstacks;
static gc_hmap keys;
static uint64_t *hist, hmax, inf;

static struct stk *stack_of(uint64_t key)
{
	int added;
	uint64_t *v = gc_hmap_put(&keys, key, &added);
	if (added) {
		stacks = realloc(stacks, (nstacks + 1) * sizeof *stacks);
		memset(&stacks[nstacks], 0, sizeof *stacks);
		v = gc_hmap_get(&keys, key);
		*v = nstacks++;
	}
	return &stacks[*v];
}

static uint64_t ref(struct stk *s, uint64_t u)
{
	size_t i;
	for (i = 0; i < s->n && s->u[i] != u; i++)
		;
	uint64_t d = i < s->n ? i : UINT64_MAX;
	if (i == s->n) {
		if (s->n == s->cap) {
			s->cap = s->cap ? 2 * s->cap : 16;
			s->u = realloc(s->u, s->cap * sizeof *s->u);
		}
		s->n++;
	}
	memmove(s->u + 1, s->u, i * sizeof *s->u);
	s->u[0] = u;
	if (d == UINT64_MAX) {
		inf++;
	} else {
		if (d >= hmax) {
			uint64_t n = 2 * d + 16;
			hist = realloc(hist, n * sizeof *hist);
			memset(hist + hmax, 0, (n - hmax) * sizeof *hist);
			hmax = n;
		}
		hist[d]++;
	}
	return d;
}

static unsigned lg(uint64_t v)
{
	unsigned n = 0;
	while (v > 1) {
		v >>= 1;
		n++;
	}
	return n;
}

int main(int argc, char **argv)
{
	uint64_t line = 128, sector = 32;
	unsigned sets = 1;
	int gran = 0, by = 0, fn = 0, c;
	gc_prog_init("rd-naive", argc, argv);
	while ((c = getopt(argc, argv, "l:s:g:S:H:b:")) != -1) {
		switch (c) {
		case 'l': line = gc_num("-l", optarg, 1, 1u << 30); break;
		case 's': sector = gc_num("-s", optarg, 1, 1u << 30); break;
		case 'g': gran = strcmp(optarg, "line") == 0 ? 0 : strcmp(optarg, "sector") == 0 ? 1 : 2; break;
		case 'S': sets = (unsigned)gc_num("-S", optarg, 1, 1u << 20); break;
		case 'H': fn = (int)(strchr("LXHP", optarg[0]) - "LXHP"); break;
		case 'b': by = strcmp(optarg, "sm") == 0 ? 1 : strcmp(optarg, "kernel") == 0 ? 2 : 0; break;
		default: gc_usage_error("bad option");
		}
	}
	gc_reader *r = gc_open_stream(optind < argc ? argv[optind] : NULL);
	int kind = gc_reader_header(r)->kind;
	unsigned ls = lg(line), ss = lg(sector), us = gran == 0 ? ls : gran == 1 ? ss : 0;
	gc_hmap_init(&keys, 0);
	gc_rec rec;
	uint64_t records = 0, bad = 0;
	int ev;
	while ((ev = gc_read(r, &rec)) != GC_EOF) {
		if (ev == GC_ERR)
			gc_die(1, "%s", gc_reader_error(r));
		if (ev == GC_KBEGIN && by == 2) {
			for (size_t i = 0; i < nstacks; i++)
				stacks[i].n = 0;
			continue;
		}
		if (ev != GC_DATA)
			continue;
		uint64_t units[64], addrs[64];
		int nu = 0;
		if (gran == 2) {
			units[nu] = rec.addr;
			addrs[nu++] = rec.addr;
		} else if (kind == GC_KIND_ACCESS) {
			uint64_t last = rec.addr + rec.size - 1;
			for (uint64_t u = rec.addr >> us; u <= last >> us; u++) {
				units[nu] = u;
				addrs[nu++] = u << us;
			}
		} else {
			unsigned m = rec.mask ? rec.mask : 1;
			for (unsigned i = 0; i < 8; i++) {
				if (!(m >> i & 1))
					continue;
				uint64_t a = rec.addr + ((uint64_t)i << ss);
				if (nu && units[nu - 1] == a >> us)
					continue;
				units[nu] = a >> us;
				addrs[nu++] = a;
			}
		}
		uint64_t dist = 0;
		int any = 0;
		for (int i = 0; i < nu; i++) {
			unsigned set = sets > 1 ? gc_set_index(fn, addrs[i], ls, sets) : 0;
			uint64_t key = (by == 1 ? (uint64_t)rec.sm * sets : 0) + set;
			uint64_t d = ref(stack_of(key), units[i]);
			if (!any || d > dist)
				dist = d;
			any = 1;
		}
		records++;
		if (dist != rec.dist) {
			if (bad < 5)
				fprintf(stderr, "record %llu: distance %llu, annotated %llu\n",
					(unsigned long long)records, (unsigned long long)dist,
					(unsigned long long)rec.dist);
			bad++;
		}
	}
	for (uint64_t d = 0; d < hmax; d++)
		if (hist[d])
			printf("%llu,%llu\n", (unsigned long long)d, (unsigned long long)hist[d]);
	if (inf)
		printf("inf,%llu\n", (unsigned long long)inf);
	fprintf(stderr, "records %llu, mismatches %llu\n", (unsigned long long)records,
		(unsigned long long)bad);
	gc_close_stdout();
	gc_reader_close(r);
	for (size_t i = 0; i < nstacks; i++)
		free(stacks[i].u);
	free(stacks);
	free(hist);
	gc_hmap_free(&keys);
	return bad ? 1 : 0;
}
