/*
 * pending.c - sectors in flight by line slot (pending.h).
 */
#include "model/pending.h"

#include <stdlib.h>
#include <string.h>

int gc_pending_init(gc_pending *p, size_t nlines, unsigned nsectors)
{
	p->nsectors = nsectors;
	p->ready = calloc(nlines ? nlines * nsectors : 1, sizeof *p->ready);
	return p->ready ? 0 : -1;
}

void gc_pending_free(gc_pending *p)
{
	free(p->ready);
	p->ready = NULL;
}

void gc_pending_clear(gc_pending *p, size_t line)
{
	memset(p->ready + line * p->nsectors, 0, p->nsectors * sizeof *p->ready);
}

void gc_pending_set(gc_pending *p, size_t line, uint8_t mask, uint64_t until)
{
	uint64_t *t = p->ready + line * p->nsectors;
	for (unsigned i = 0; i < p->nsectors; i++)
		if (mask >> i & 1)
			t[i] = until;
}

uint8_t gc_pending_mask(const gc_pending *p, size_t line, uint8_t mask, uint64_t now)
{
	const uint64_t *t = p->ready + line * p->nsectors;
	uint8_t out = 0;
	for (unsigned i = 0; i < p->nsectors; i++)
		if ((mask >> i & 1) && t[i] > now)
			out |= (uint8_t)(1u << i);
	return out;
}
