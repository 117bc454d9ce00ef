/* gc-import --format accelsim of kernel-1.trace: a raw Accel-Sim .trace. */
#include "fuzz.h"
#include "fuzz_import.h"

static const gc_format f = {"accelsim", "", gc_accelsim_probe, gc_accelsim_import};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_import(&f, "kernel-1.trace", data, size, size & 1, NULL);
	return 0;
}
