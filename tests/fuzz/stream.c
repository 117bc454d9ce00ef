/* The stream reader (gc-stream(5)): every stage's input.  Read to the end
 * or the first error, by records (gc_read) or in batches (gc_read_data),
 * the way the stages do, and look at what a stage looks at. */
#include "fuzz.h"
#include "stream/stream.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_file("in.gcs", data, size);
	gc_reader *r = gc_reader_open(path);
	if (!r)
		return 0;
	if (!gc_reader_failed(r)) {
		const gc_header *h = gc_reader_header(r);
		(void)h;
		gc_rec recs[64];
		uint64_t nums[64];
		int batch = size & 1; /* both paths, chosen by the input */
		for (;;) {
			if (batch && gc_read_data(r, recs, nums, 64) > 0)
				continue;
			int e = gc_read(r, recs);
			if (e == GC_KBEGIN) {
				const gc_kernel *k = gc_reader_kernel(r);
				(void)k;
			}
			if (e == GC_EOF || e == GC_ERR)
				break;
		}
		(void)gc_reader_records(r);
		(void)gc_reader_bytes(r);
	}
	(void)gc_reader_error(r);
	gc_reader_close(r);
	return 0;
}
