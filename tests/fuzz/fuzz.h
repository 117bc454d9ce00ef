/*
 * fuzz.h - what the libFuzzer targets of tests/fuzz share (make fuzz).
 *
 * Most readers take a path, not bytes: fuzz_file() writes the input to a
 * file of the given name in a private temporary directory (made once,
 * removed at exit) and returns its path, so that readers that look at the
 * name (a .traceg, an app_config beside memory_traces/) see a real one.
 */
#ifndef GC_FUZZ_H
#define GC_FUZZ_H

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The directory (made on the first call). */
const char *fuzz_dir(void);
/* Write data[0..size) to fuzz_dir()/name; its path (static storage). */
const char *fuzz_file(const char *name, const uint8_t *data, size_t size);
/* data as a NUL-terminated string in a buffer of the caller's to free. */
char *fuzz_str(const uint8_t *data, size_t size);

#endif
