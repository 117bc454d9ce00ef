/* gc-import --format ppt of an app_config: the file fuzzed, with
 * memory_traces/ beside it holding two small .mem files of kernel 1. */
#include "fuzz.h"
#include "fuzz_import.h"

#include <string.h>

static const gc_format f = {"ppt", "", gc_ppt_probe, gc_ppt_import};

static const char mem0[] =
	"\n"
	"=====\n"
	"LDG.E.64.SYS 0x7f3354cc3600 0x7f3354cc3608 0x7f3354cc3610 0x7f3354cc3618 \n"
	"=====\n"
	"LDG.E.64.SYS 0x7f3354cc3800 0x5 0x7f3354cc3810 \n"
	"=====\n"
	"STG.E.64.SYS 0x7f3354e00000 0x7f3354e00008 \n";
static const char mem2[] =
	"\n"
	"=====\n"
	"ATOMG.E.ADD.STRONG.GPU 0x7f3354f00000 \n";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int ready;
	if (!ready) {
		fuzz_file("memory_traces/kernel_1_block_0.mem", (const uint8_t *)mem0, strlen(mem0));
		fuzz_file("memory_traces/kernel_1_block_2.mem", (const uint8_t *)mem2, strlen(mem2));
		ready = 1;
	}
	fuzz_import(&f, "app_config", data, size, size & 1, NULL);
	return 0;
}
