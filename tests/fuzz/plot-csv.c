/* gc-plot's CSV table (RFC 4180 quoting), read by the reader gc-plot
 * calls (lib/report/table.c): a table that reads has every row of the
 * header's width, in order of line, and a refused one leaves a message
 * and nothing to free (leak checks on). */
#include "fuzz.h"
#include "report/table.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_file("t.csv", data, size);
	gc_table t;
	char err[GC_TABLE_ERR];
	err[0] = 0;
	if (gc_table_read(&t, path, NULL, NULL, err, sizeof err) < 0) {
		if (!err[0] || strchr(err, '\n') || t.nrows || t.cols)
			abort();
		return 0;
	}
	if (!t.ncols || !t.cols)
		abort();
	for (size_t r = 0; r < t.nrows; r++) {
		if (r && t.lineno[r] <= t.lineno[r - 1])
			abort();
		for (size_t c = 0; c < t.ncols; c++)
			(void)strlen(t.rows[r][c]);
	}
	gc_table_free(&t);
	return 0;
}
