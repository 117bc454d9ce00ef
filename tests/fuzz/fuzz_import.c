/* fuzz_import.c - gc-import's main, for the fuzz targets: where gc-import
 * exits (a bad line without --lenient, a fatal error) the target jumps
 * back and frees what the import holds.  What the parser held when it was
 * left that way is gc-import's exit to free, not a leak: the strict half
 * of the inputs runs with the leak checker off; the lenient half, where
 * every line is read to the end, with it on. */
#include "fuzz.h"
#include "fuzz_import.h"

#include <sanitizer/lsan_interface.h>
#include <setjmp.h>
#include <stdlib.h>

static jmp_buf back;

static void on_bad(gc_import *im, const char *file, uint64_t line, const char *msg)
{
	(void)file, (void)line, (void)msg;
	if (!im->lenient)
		longjmp(back, 1);
}

static void on_fatal(gc_import *im, const char *msg)
{
	(void)im, (void)msg;
	longjmp(back, 2);
}

static void on_warn(gc_import *im, const char *msg)
{
	(void)im, (void)msg;
}

void fuzz_import(const gc_format *f, const char *name, const uint8_t *data, size_t size,
		 int lenient, void (*setup)(gc_import *im))
{
	const char *path = fuzz_file(name, data, size);
	static gc_import im; /* static: kept across the longjmp */
	static gc_lines *in;
	gc_import_init(&im);
	im.out = "/dev/null";
	im.lenient = lenient;
	im.bad = on_bad;
	im.fatal = on_fatal;
	im.warn = on_warn;
	if (setup)
		setup(&im);
	if (!lenient)
		__lsan_disable();
	in = gc_lines_open(path);
	if (!in)
		abort();
	if (setjmp(back) == 0 && !gc_lines_failed(in)) {
		size_t len;
		const char *head = gc_lines_peek(in, &len);
		if (head && len)
			(void)f->probe(head, len, gc_lines_name(in));
		f->import(&im, in);
		gc_import_text(&im, in);
		gc_import_finish(&im);
	}
	if (im.w)
		gc_writer_free(im.w);
	gc_optab_free(&im.ops); /* gc_import_finish's, when a fatal error skipped it */
	gc_lines_close(in);
	gc_header_free(&im.h);
	if (!lenient)
		__lsan_enable();
}
