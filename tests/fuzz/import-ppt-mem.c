/* gc-import --format ppt of kernel_1_block_0.mem: a PPT-GPU kernel_K_block_B.mem. */
#include "fuzz.h"
#include "fuzz_import.h"

static const gc_format f = {"ppt", "", gc_ppt_probe, gc_ppt_import};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_import(&f, "kernel_1_block_0.mem", data, size, size & 1, NULL);
	return 0;
}
