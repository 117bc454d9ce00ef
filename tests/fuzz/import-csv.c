/* gc-import --format csv of dump.csv: the CSV dump of gc-stats --dump (a restore). */
#include "fuzz.h"
#include "fuzz_import.h"

static const gc_format f = {"csv", "", gc_csv_probe, gc_csv_import};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_import(&f, "dump.csv", data, size, size & 1, NULL);
	return 0;
}
