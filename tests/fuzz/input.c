/* Raw input with gzip and xz taken off (lib/stream/input.c) and the text
 * lines over it (lines.c): what every text reader reads through. */
#include "fuzz.h"
#include "stream/input.h"
#include "stream/lines.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_file("in", data, size);
	gc_input *in = gc_input_open(path);
	if (in) {
		char buf[4096];
		if (!gc_input_failed(in))
			while (gc_input_read(in, buf, sizeof buf) > 0)
				;
		if (size & 1 && gc_input_rewind(in) == 0)
			while (gc_input_read(in, buf, sizeof buf) > 0)
				;
		gc_input_close(in);
	}
	gc_lines *l = gc_lines_open(path);
	if (l) {
		size_t len;
		char *line;
		if (!gc_lines_failed(l)) {
			(void)gc_lines_peek(l, &len);
			while (gc_lines_next(l, &line) >= 0)
				;
		}
		gc_lines_close(l);
	}
	return 0;
}
