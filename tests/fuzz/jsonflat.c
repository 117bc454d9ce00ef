/* gc-stats --merge's reader of --stats JSON (lib/report/jsonflat.c). */
#include "fuzz.h"
#include "report/jsonflat.h"

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
	(void)gc_jsonflat(text, size, each, &n, err, sizeof err);
	free(text);
	return 0;
}
