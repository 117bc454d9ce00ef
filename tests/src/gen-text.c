/*
 * gen-text - write a large synthetic trace of one text format on stdout,
 * for the gc-import benchmark of every text reader (never commit its
 * output; gen-traceg writes Accel-Sim's).
 *
 * The lines follow the format's fixtures under tests/fixtures: a
 * matrix-multiply-like kernel whose warps load a row element (every lane
 * the same address), a run of a column (consecutive words) and store one
 * word each, blocks of 256 threads, as many as make about SIZE bytes.
 *
 *   ocelot  the seed 000 model's .trc: "blocksize: 256 1 1", then
 *           "GID DIR ADDRESS BYTES" lines, a block's threads in order for
 *           each instruction (Ocelot's order)
 *   nvbit   NVBit mem_trace: one LAUNCH line, then a MEMTRACE line a warp
 *           instruction with its 32 lane addresses
 *   ppt     a PPT-GPU block file (kernel_1_block_0.mem): "=====" before
 *           each record, the non-zero lane addresses in 0x hex
 *
 * (The CSV reader's trace is gc-stats --dump of a gc-gen stream.)
 *
 * Usage: gen-text ocelot|nvbit|ppt [-s SIZE]   (SIZE: K/M/G suffixes,
 * default 64M)
 */
#include "prog/prog.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define THREADS 256
#define WARP 32

static char *out;
static size_t olen;
static uint64_t written;

static void flush(void)
{
	if (olen && fwrite(out, 1, olen, stdout) != olen)
		gc_die(GC_EXIT_DATA, "write error");
	written += olen;
	olen = 0;
}

static void put(const char *s, size_t n)
{
	if (olen + n > (1u << 20))
		flush();
	memcpy(out + olen, s, n);
	olen += n;
}

#define PUTF(...)                                                                   \
	do {                                                                        \
		char b_[512];                                                       \
		int n_ = snprintf(b_, sizeof b_, __VA_ARGS__);                      \
		put(b_, (size_t)n_);                                                \
	} while (0)

static const uint64_t A = 0x10000000, B = 0x20000000, C = 0x30000000;

/* The address of thread t of block b in instruction i (0: A row, 1: B
 * column, 2: C store) at step k. */
static uint64_t addr(int i, uint64_t b, unsigned t, unsigned k)
{
	if (i == 0)
		return A + (b * 64 + k) * 4;
	if (i == 1)
		return B + ((uint64_t)k * 4096 + b % 16 * THREADS + t) * 4;
	return C + (b * THREADS + t) * 4;
}

static void ocelot(uint64_t size)
{
	put("blocksize: 256 1 1\n", 19);
	for (uint64_t b = 0; written + olen < size; b++)
		for (unsigned k = 0; k < 8; k++)
			for (int i = 0; i < 3; i++) {
				if (i == 2 && k < 7)
					continue;
				for (unsigned t = 0; t < THREADS; t++)
					PUTF("%llu %d %llu 4\n", (unsigned long long)(b * THREADS + t),
					     i == 2, (unsigned long long)addr(i, b, t, k));
			}
}

static void nvbit(uint64_t size)
{
	const char *ctx = "0x00005600c0ffee00";
	PUTF("MEMTRACE: STARTING CONTEXT %s\n", ctx);
	PUTF("MEMTRACE: CTX %s - LAUNCH - Kernel pc 0x00007f10aa000100 - Kernel name "
	     "matmul(float const*, float const*, float*, int) - grid launch id 0 - grid size "
	     "65536,1,1 - block size 256,1,1 - nregs 32 - shmem 0 - cuda stream id 0\n", ctx);
	for (uint64_t b = 0; written + olen < size && b < 65536; b++)
		for (unsigned k = 0; k < 8; k++)
			for (int i = 0; i < 3; i++) {
				if (i == 2 && k < 7)
					continue;
				for (unsigned w = 0; w < THREADS / WARP; w++) {
					PUTF("MEMTRACE: CTX %s - grid_launch_id 0 - CTA %llu,0,0 - warp %u - %s - ",
					     ctx, (unsigned long long)b, w, i == 2 ? "STG.E" : "LDG.E");
					for (unsigned l = 0; l < WARP; l++)
						PUTF("0x%016llx ", (unsigned long long)addr(i, b, w * WARP + l, k));
					put("\n", 1);
				}
			}
	PUTF("MEMTRACE: TERMINATING CONTEXT %s\n", ctx);
}

static void ppt(uint64_t size)
{
	for (uint64_t b = 0; written + olen < size; b++)
		for (unsigned k = 0; k < 8; k++)
			for (int i = 0; i < 3; i++) {
				if (i == 2 && k < 7)
					continue;
				for (unsigned w = 0; w < THREADS / WARP; w++) {
					PUTF("=====\n%s", i == 2 ? "STG.E.SYS" : "LDG.E.SYS");
					for (unsigned l = 0; l < WARP; l++)
						PUTF(" 0x%llx", (unsigned long long)addr(i, b, w * WARP + l, k));
					put(" \n", 2);
				}
			}
}

int main(int argc, char **argv)
{
	gc_prog_init("gen-text", argc, argv);
	uint64_t size = 64u << 20;
	if (argc == 4 && strcmp(argv[2], "-s") == 0) {
		char *end;
		size = strtoull(argv[3], &end, 10);
		int sh = *end == 'K' || *end == 'k' ? 10 : *end == 'M' || *end == 'm' ? 20
			: *end == 'G' || *end == 'g' ? 30 : 0;
		size <<= sh;
		if (sh)
			end++;
		if (*end || !size)
			gc_usage_error("bad size '%s'", argv[3]);
	} else if (argc != 2) {
		gc_usage_error("usage: gen-text ocelot|nvbit|ppt [-s SIZE]");
	}
	out = gc_xrealloc(NULL, 1u << 20);
	if (strcmp(argv[1], "ocelot") == 0)
		ocelot(size);
	else if (strcmp(argv[1], "nvbit") == 0)
		nvbit(size);
	else if (strcmp(argv[1], "ppt") == 0)
		ppt(size);
	else
		gc_usage_error("no format '%s' (ocelot, nvbit, ppt)", argv[1]);
	flush();
	free(out);
	return fflush(stdout) ? 1 : 0;
}
