/* A --gpu FILE preset (gc-gpu(5) keys, lib/config/gpu_file.c): read, checked,
 * and when it is a GPU, written into a stream header and read back the way
 * the next stage reads it. */
#include "fuzz.h"
#include "config/gpu.h"
#include "stream/format.h"

#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_file("test.gpu", data, size);
	static gc_gpu_config c, back;
	char err[512];
	if (gc_gpu_parse_file(&c, path, err, sizeof err) < 0)
		return 0;
	char *text = gc_gpu_text(&c, "", "\n");
	free(text);
	gc_header h;
	gc_header_init(&h, GC_KIND_ACCESS);
	if (gc_gpu_header_write(&c, &h, err, sizeof err) == 0 &&
	    gc_gpu_header_read(&back, &h, err, sizeof err) < 0)
		abort(); /* a configuration that passed the checks must read back */
	gc_header_free(&h);
	return 0;
}
