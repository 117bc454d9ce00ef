/*
 * unitjson.c - per-kernel unit counts as JSON columns (unitjson.h).
 */
#include "report/unitjson.h"

#include <stdlib.h>

/* One operation's columns: rows of `stride` numbers, its counters at
 * row + 1 + at. */
static void op(gc_json *j, const char *key, const uint64_t *row, size_t n, size_t stride,
	       int at, uint64_t *tmp)
{
	const uint64_t *v = row + 1 + at;
	gc_json_obj(j, key);
	gc_json_u64s(j, "requested", v + GC_KU_REQUESTED, n, stride);
	gc_json_u64s(j, "hits", v + GC_KU_HITS, n, stride);
	for (size_t i = 0; i < n; i++)
		tmp[i] = v[i * stride + GC_KU_REQUESTED] - v[i * stride + GC_KU_HITS];
	gc_json_u64s(j, "misses", tmp, n, 1);
	gc_json_u64s(j, "line_misses", v + GC_KU_LINE_MISSES, n, stride);
	for (size_t i = 0; i < n; i++)
		tmp[i] -= v[i * stride + GC_KU_LINE_MISSES] + v[i * stride + GC_KU_MERGED];
	gc_json_u64s(j, "sector_misses", tmp, n, 1);
	gc_json_u64s(j, "merged", v + GC_KU_MERGED, n, stride);
	gc_json_u64s(j, "reservation_fails", v + GC_KU_RES_FAILS, n, stride);
	gc_json_close(j);
}

int gc_unitjson(gc_json *j, const char *list, const char *idkey, const gc_kunits *u, size_t k)
{
	static const uint64_t none[1 + GC_KU_WIDTH];
	const uint64_t *row;
	size_t n = gc_kunits_rows(u, k, &row), stride = u->width + 1;
	if (!n)
		row = none;
	uint64_t *tmp = malloc((n ? n : 1) * sizeof *tmp);
	if (!tmp)
		return -1;
	gc_json_obj(j, list);
	gc_json_u64s(j, idkey, row, n, stride);
	gc_json_obj(j, "sectors");
	op(j, "loads", row, n, stride, GC_KU_LOADS, tmp);
	op(j, "stores", row, n, stride, GC_KU_STORES, tmp);
	gc_json_close(j);
	gc_json_close(j);
	free(tmp);
	return 0;
}
