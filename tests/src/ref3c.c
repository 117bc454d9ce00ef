/*
 * ref3c - the three Cs of Hill and Smith, written plainly from the
 * definition as an independent check of gc-l1's classification: two
 * caches fed every reference, the cache itself (SETS sets of WAYS ways,
 * the set the line address modulo SETS) and a fully associative one of
 * the same number of lines, both with the same lines, sectors,
 * replacement and write rules.  A reference misses when one of its
 * sectors is not valid.  A miss is compulsory when one of its missing
 * sectors was never referenced before, else capacity when the fully
 * associative cache misses the same reference, else conflict.
 *
 * Usage: ref3c SETS WAYS LINE SECTOR lru|fifo wb|wt [SETS WAYS ...] <TRACE
 * (each six arguments a configuration, run over the whole trace)
 * TRACE: lines "load|store LINE-ADDRESS MASK" (hex or decimal; the mask
 * of the line's sectors); stores write whole sectors.
 *   wb: write-back with write-allocate: a store is handled as a load
 *       (an absent line is allocated, the written sectors become valid).
 *   wt: write-through without write-allocate: a store to a present line
 *       is a use of it and validates nothing; to an absent line, nothing.
 *   lru: the victim is the line used least recently; fifo: the line
 *       filled first.  An invalid way is taken before either, the lowest
 *       first; ties go to the lowest way.
 * Prints "references R misses M compulsory C capacity P conflict F", a
 * line for each configuration.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct way {
	int used;
	uint64_t line;
	unsigned valid;  /* sector bits */
	uint64_t stamp;  /* lru: last use; fifo: fill */
};

struct cache {
	unsigned sets, ways;
	struct way *w;
	uint64_t clock;
};

static int fifo, write_through;

static void cache_make(struct cache *c, unsigned sets, unsigned ways)
{
	c->sets = sets;
	c->ways = ways;
	c->clock = 0;
	c->w = calloc((size_t)sets * ways, sizeof *c->w);
	if (!c->w) {
		fprintf(stderr, "ref3c: out of memory\n");
		exit(2);
	}
}

/* One reference; 1 when it hits. */
static int cache_ref(struct cache *c, int store, uint64_t line, unsigned mask)
{
	struct way *set = c->w + (size_t)(line % c->sets) * c->ways;
	struct way *found = NULL;
	for (unsigned i = 0; i < c->ways; i++)
		if (set[i].used && set[i].line == line)
			found = &set[i];
	int hit = found && (found->valid & mask) == mask;
	if (found) {
		if (!fifo)
			found->stamp = ++c->clock;
		if (!(store && write_through))
			found->valid |= mask;
		return hit;
	}
	if (store && write_through)
		return 0;
	struct way *victim = NULL;
	for (unsigned i = 0; i < c->ways && !victim; i++)
		if (!set[i].used)
			victim = &set[i];
	if (!victim) {
		victim = &set[0];
		for (unsigned i = 1; i < c->ways; i++)
			if (set[i].stamp < victim->stamp)
				victim = &set[i];
	}
	victim->used = 1;
	victim->line = line;
	victim->valid = mask;
	victim->stamp = ++c->clock;
	return 0;
}

/* Sectors referenced so far, by line: an open-addressed table. */
static uint64_t *seen_line;
static unsigned *seen_mask;
static size_t seen_cap, seen_n;

static unsigned *seen_slot(uint64_t line)
{
	if (2 * (seen_n + 1) > seen_cap) {
		size_t oc = seen_cap;
		uint64_t *ol = seen_line;
		unsigned *om = seen_mask;
		seen_cap = oc ? 2 * oc : 1024;
		seen_line = malloc(seen_cap * sizeof *seen_line);
		seen_mask = calloc(seen_cap, sizeof *seen_mask);
		if (!seen_line || !seen_mask) {
			fprintf(stderr, "ref3c: out of memory\n");
			exit(2);
		}
		for (size_t i = 0; i < seen_cap; i++)
			seen_line[i] = UINT64_MAX;
		seen_n = 0;
		for (size_t i = 0; i < oc; i++)
			if (ol[i] != UINT64_MAX)
				*seen_slot(ol[i]) = om[i];
		free(ol);
		free(om);
	}
	size_t i = (size_t)(line * 0x9e3779b97f4a7c15u) & (seen_cap - 1);
	while (seen_line[i] != UINT64_MAX && seen_line[i] != line)
		i = (i + 1) & (seen_cap - 1);
	if (seen_line[i] == UINT64_MAX) {
		seen_line[i] = line;
		seen_n++;
	}
	return &seen_mask[i];
}

struct op {
	int store;
	uint64_t addr;
	unsigned mask;
};

/* One configuration over the trace: its line. */
static void run(char **arg, const struct op *ops, size_t nops)
{
	unsigned sets = (unsigned)strtoul(arg[0], NULL, 0);
	unsigned ways = (unsigned)strtoul(arg[1], NULL, 0);
	unsigned linesz = (unsigned)strtoul(arg[2], NULL, 0);
	unsigned sector = (unsigned)strtoul(arg[3], NULL, 0);
	if (!sets || !ways || !linesz || !sector || linesz % sector || linesz / sector > 8) {
		fprintf(stderr, "ref3c: bad geometry\n");
		exit(2);
	}
	fifo = strcmp(arg[4], "fifo") == 0;
	write_through = strcmp(arg[5], "wt") == 0;
	struct cache real, full;
	cache_make(&real, sets, ways);
	cache_make(&full, 1, sets * ways);
	free(seen_line);
	free(seen_mask);
	seen_line = NULL;
	seen_mask = NULL;
	seen_cap = seen_n = 0;

	uint64_t misses = 0, comp = 0, cap = 0, conf = 0;
	for (size_t k = 0; k < nops; k++) {
		int store = ops[k].store;
		uint64_t line = ops[k].addr / linesz;
		unsigned mask = ops[k].mask;
		/* What is missing, before either cache changes. */
		unsigned valid = 0;
		struct way *set = real.w + (size_t)(line % sets) * ways;
		for (unsigned i = 0; i < ways; i++)
			if (set[i].used && set[i].line == line)
				valid = set[i].valid;
		unsigned missing = mask & ~valid;
		unsigned *seen = seen_slot(line);
		int first = (missing & ~*seen) != 0;
		*seen |= mask;
		int hit = cache_ref(&real, store, line, mask);
		int full_hit = cache_ref(&full, store, line, mask);
		if (hit)
			continue;
		misses++;
		if (first)
			comp++;
		else if (!full_hit)
			cap++;
		else
			conf++;
	}
	printf("references %llu misses %llu compulsory %llu capacity %llu conflict %llu\n",
	       (unsigned long long)nops, (unsigned long long)misses, (unsigned long long)comp,
	       (unsigned long long)cap, (unsigned long long)conf);
	free(real.w);
	free(full.w);
}

int main(int argc, char **argv)
{
	if (argc < 7 || (argc - 1) % 6) {
		fprintf(stderr, "usage: ref3c SETS WAYS LINE SECTOR lru|fifo wb|wt [...] <TRACE\n");
		return 2;
	}
	struct op *ops = NULL;
	size_t n = 0, cap = 0;
	char op[16], a[64], m[64];
	while (scanf("%15s %63s %63s", op, a, m) == 3) {
		if (n == cap) {
			cap = cap ? 2 * cap : 4096;
			ops = realloc(ops, cap * sizeof *ops);
			if (!ops) {
				fprintf(stderr, "ref3c: out of memory\n");
				return 2;
			}
		}
		ops[n].store = strcmp(op, "store") == 0;
		if (!ops[n].store && strcmp(op, "load") != 0) {
			fprintf(stderr, "ref3c: bad operation '%s'\n", op);
			return 2;
		}
		ops[n].addr = strtoull(a, NULL, 0);
		ops[n].mask = (unsigned)strtoul(m, NULL, 0);
		n++;
	}
	for (int i = 1; i < argc; i += 6)
		run(argv + i, ops, n);
	free(ops);
	return 0;
}
