/*
 * unitjson.c - per-kernel unit counts as JSON (unitjson.h).
 */
#include "report/unitjson.h"

static void op(gc_json *j, const char *key, const uint64_t *v)
{
	uint64_t misses = v[GC_KU_REQUESTED] - v[GC_KU_HITS];
	gc_json_obj(j, key);
	gc_json_u64(j, "requested", v[GC_KU_REQUESTED]);
	gc_json_u64(j, "hits", v[GC_KU_HITS]);
	gc_json_u64(j, "misses", misses);
	gc_json_u64(j, "line_misses", v[GC_KU_LINE_MISSES]);
	gc_json_u64(j, "sector_misses", misses - v[GC_KU_LINE_MISSES] - v[GC_KU_MERGED]);
	gc_json_u64(j, "merged", v[GC_KU_MERGED]);
	gc_json_u64(j, "reservation_fails", v[GC_KU_RES_FAILS]);
	gc_json_close(j);
}

void gc_unitjson(gc_json *j, const char *list, const char *idkey, const gc_kunits *u, size_t k)
{
	const uint64_t *row;
	size_t n = gc_kunits_rows(u, k, &row);
	gc_json_arr(j, list);
	for (size_t i = 0; i < n; i++, row += u->width + 1) {
		gc_json_obj(j, NULL);
		gc_json_u64(j, idkey, row[0]);
		gc_json_obj(j, "sectors");
		op(j, "loads", row + 1 + GC_KU_LOADS);
		op(j, "stores", row + 1 + GC_KU_STORES);
		gc_json_close(j);
		gc_json_close(j);
	}
	gc_json_close(j);
}
