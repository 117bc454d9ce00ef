/* gc-import --format nvbit of trace.txt: NVBit mem_trace output (both layouts). */
#include "fuzz.h"
#include "fuzz_import.h"

static const gc_format f = {"nvbit", "", gc_nvbit_probe, gc_nvbit_import};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_import(&f, "trace.txt", data, size, size & 1, NULL);
	return 0;
}
