/* The G-MAP profile text, gc-profile(5) (lib/proxy/profile_text.c): what
 * gc-clone reads.  A profile that parses is written again and must parse
 * to the same text. */
#include "fuzz.h"
#include "proxy/profile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size ? size : 1);
	if (!text)
		abort();
	memcpy(text, data, size);
	gc_profile p;
	gc_profile_init(&p);
	char err[512];
	if (gc_profile_parse(text, size, "in.gcp", &p, err, sizeof err) == 0) {
		char *out = NULL, *out2 = NULL;
		size_t len = 0, len2 = 0;
		FILE *f = open_memstream(&out, &len);
		if (!f || gc_profile_write(f, &p) < 0 || fclose(f) != 0)
			abort();
		gc_profile q;
		gc_profile_init(&q);
		if (gc_profile_parse(out, len, "again.gcp", &q, err, sizeof err) != 0) {
			fprintf(stderr, "%s\n", err);
			abort(); /* what gc-profile writes must read back */
		}
		f = open_memstream(&out2, &len2);
		if (!f || gc_profile_write(f, &q) < 0 || fclose(f) != 0)
			abort();
		if (len != len2 || memcmp(out, out2, len) != 0)
			abort();
		gc_profile_free(&q);
		free(out);
		free(out2);
	}
	gc_profile_free(&p);
	free(text);
	return 0;
}
