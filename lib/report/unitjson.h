/*
 * unitjson.h - kernel k's units (base/kunits.h, GC_KU_WIDTH sector
 * counts a unit) as a --stats list:
 *
 *   "LIST": [{"IDKEY": unit, "sectors": {"loads": {...}, "stores": {...}}}]
 *
 * each operation with requested, hits, misses, line_misses,
 * sector_misses, merged and reservation_fails (gc(7), VOCABULARY).
 */
#ifndef GC_UNITJSON_H
#define GC_UNITJSON_H

#include "base/kunits.h"
#include "report/json.h"

void gc_unitjson(gc_json *j, const char *list, const char *idkey, const gc_kunits *u, size_t k);

#endif
