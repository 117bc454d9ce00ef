/* gc-stats --merge's reader of --stats JSON (lib/report/jsonflat.c) and,
 * over what it reads, the CSV table (lib/report/statstable.c). */
#include "fuzz.h"
#include "report/jsonflat.h"
#include "report/statstable.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int each(void *ctx, const char *path, const char *value, int type, int depth_arrays)
{
	(void)value, (void)depth_arrays;
	if (strlen(path) >= GC_JSONFLAT_PATH || type < GC_JF_NUMBER || type > GC_JF_NULL)
		abort();
	++*(size_t *)ctx;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* The bytes as they are (no NUL added: the reader takes a length). */
	char *text = malloc(size ? size : 1);
	if (!text)
		abort();
	memcpy(text, data, size);
	size_t n = 0;
	char err[256];
	if (gc_jsonflat(text, size, each, &n, err, sizeof err) == 0) {
		/* a document read whole: both forms of the table, twice over */
		static FILE *null;
		if (!null && !(null = fopen("/dev/null", "w")))
			abort();
		for (int longform = 0; longform < 2; longform++) {
			gc_statstable *T = gc_statstable_new(longform, 1);
			if (!T || gc_statstable_add(T, "a", text, size, err, sizeof err) < 0 ||
			    gc_statstable_add(T, "b,\"c", text, size, err, sizeof err) < 0)
				abort();
			gc_statstable_write(T, null);
			gc_statstable_free(T);
		}
	}
	free(text);
	return 0;
}
