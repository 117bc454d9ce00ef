/* A GPGPU-Sim cache string (-gpgpu_cache:dl1 and the others,
 * lib/config/gpu_cachestr.c), and the 4.x spelling of what it decoded,
 * which must decode to the same cache. */
#include "fuzz.h"
#include "config/gpu.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_str(data, size);
	gc_gpu_cache c, again;
	char why[256], buf[512], buf2[512];
	memset(&c, 0, sizeof c);
	if (gc_gpu_cache_parse(&c, s, why, sizeof why) > 0 &&
	    gc_gpu_cache_format(&c, buf, sizeof buf) == 0) {
		memset(&again, 0, sizeof again);
		if (gc_gpu_cache_parse(&again, buf, why, sizeof why) != GC_GRAMMAR_4X ||
		    gc_gpu_cache_format(&again, buf2, sizeof buf2) != 0 || strcmp(buf, buf2) != 0)
			abort(); /* the spelling it writes must read back as itself */
	}
	free(s);
	return 0;
}
