/* gc-import --format ocelot of trace.trc: an Ocelot .trc of the reuse-distance model. */
#include "fuzz.h"
#include "fuzz_import.h"

static const gc_format f = {"ocelot", "", gc_ocelot_probe, gc_ocelot_import};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_import(&f, "trace.trc", data, size, size & 1, NULL);
	return 0;
}
