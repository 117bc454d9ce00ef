/*
 * unitjson.h - kernel k's units (base/kunits.h, GC_KU_WIDTH sector
 * counts a unit) as --stats columns, one array a key, element i of each
 * the i-th unit (those that looked something up in the kernel, by
 * number):
 *
 *   "LIST": {"IDKEY": [units], "sectors": {"loads": {"requested": [..],
 *            ...}, "stores": {...}}}
 *
 * each operation with requested, hits, misses, line_misses,
 * sector_misses, merged and reservation_fails (gc(7), VOCABULARY).
 */
#ifndef GC_UNITJSON_H
#define GC_UNITJSON_H

#include "base/kunits.h"
#include "report/json.h"

/* 0, or -1 when out of memory (nothing written). */
int gc_unitjson(gc_json *j, const char *list, const char *idkey, const gc_kunits *u, size_t k);

#endif
