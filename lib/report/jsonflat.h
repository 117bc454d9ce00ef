/*
 * jsonflat.h - read a JSON document as a flat list of (path, value)
 * pairs: what `gc-stats --merge` turns into one CSV row per --stats file.
 *
 * Object members are joined with dots ("l1.hits"), array elements by
 * their index ("per_sm.3.hits").  A value is the scalar's text: numbers
 * and true/false/null as written, strings decoded (escapes resolved,
 * \u0000 refused).  The reader is strict JSON (RFC 8259) but for a few
 * limits: depth 64, paths of GC_JSONFLAT_PATH bytes.
 */
#ifndef GC_JSONFLAT_H
#define GC_JSONFLAT_H

#include <stddef.h>

#define GC_JSONFLAT_PATH 512

enum gc_jsonflat_type { GC_JF_NUMBER, GC_JF_STRING, GC_JF_BOOL, GC_JF_NULL };

/* Called once per scalar; `depth_arrays` counts the arrays on its path.
 * Return non-zero to stop (gc_jsonflat returns that value). */
typedef int (*gc_jsonflat_fn)(void *ctx, const char *path, const char *value, int type,
			      int depth_arrays);

/* Parse text[0..len) and call fn for every scalar in document order.
 * Returns 0, fn's non-zero value, or -1 with "line L, column C: what" in
 * err. */
int gc_jsonflat(const char *text, size_t len, gc_jsonflat_fn fn, void *ctx, char *err,
		size_t errlen);

#endif
