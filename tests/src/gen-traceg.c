/*
 * gen-traceg - write a large synthetic Accel-Sim trace on stdout, for the
 * gc-import benchmark (never commit its output).
 *
 * One kernel; blocks of 256 threads (8 warps) of 48 instructions each, in
 * the tracer's own text forms: ALU lines, LDG/STG base+stride, divergent
 * STG base+delta with negative deltas, LDS stride 0 (broadcast), address
 * lists, mask-0 "1 0x0 0" lines, generic LD and RED atomics.  The grid is
 * sized from the first block so that the output is about SIZE bytes.
 *
 * Usage: gen-traceg [-s SIZE] [-V 3|4|5] [-l] [-r] [-S SEED]
 *   -s SIZE  bytes to write, K/M/G suffixes (default 64M)
 *   -V N     tracer version (default 4)
 *   -l       a line_num column (-enable lineinfo = 1; version 4 or 5)
 *   -r       the raw .trace layout: a cta/warp prefix on every line and
 *            the warps of 4 blocks interleaved, no #BEGIN_TB sections
 *   -S SEED  random seed (default 1)
 */
#include "prog/prog.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define WARPS 8
#define INSTS 48
#define GROUP 4 /* blocks interleaved in the raw layout */

static char *out;
static size_t olen, ocap = 1u << 20;
static uint64_t written;
static uint64_t rng = 1;
static int version = 4, lineinfo, raw;

static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static void flush(void)
{
	size_t o = 0;
	while (o < olen) {
		ssize_t k = write(1, out + o, olen - o);
		if (k <= 0)
			gc_die(GC_EXIT_DATA, "write error");
		o += (size_t)k;
	}
	written += olen;
	olen = 0;
}

static void put(const char *s, size_t n)
{
	if (olen + n > ocap)
		flush();
	memcpy(out + olen, s, n);
	olen += n;
}

static void puts_(const char *s) { put(s, strlen(s)); }

static void putu(uint64_t v)
{
	char b[24];
	int i = 24;
	do
		b[--i] = (char)('0' + v % 10);
	while (v /= 10);
	put(b + i, (size_t)(24 - i));
}

static void puti(int64_t v)
{
	if (v < 0) {
		put("-", 1);
		putu((uint64_t)0 - (uint64_t)v);
	} else {
		putu((uint64_t)v);
	}
}

/* Hex without leading zeros, at least `min` digits. */
static void putx(uint64_t v, int min)
{
	char b[16];
	int i = 16;
	do {
		b[--i] = "0123456789abcdef"[v & 15];
		v >>= 4;
	} while (v || 16 - i < min);
	put(b + i, (size_t)(16 - i));
}

/* Instruction i of warp w of block b (x only). */
static void inst(uint64_t b, unsigned w, unsigned i)
{
	if (raw) {
		putu(b);
		puts_(" 0 0 ");
		putu(w);
		put(" ", 1);
	}
	if (lineinfo) {
		putu(i / 4);
		put(" ", 1);
	}
	putx(0x10 * i, 4);
	put(" ", 1);
	uint64_t tid = (b * WARPS + w) * 32;
	uint64_t r = next();
	unsigned kind = i % 12;
	switch (kind) {
	case 0: /* LDG, base+stride */
		puts_("ffffffff 1 R4 LDG.E.SYS 1 R2 4 1 0x");
		putx(0x7f0000000000 + tid * 4, 1);
		puts_(" 4 ");
		break;
	case 1: /* divergent STG, base+delta with negative deltas */ {
		uint32_t m = (uint32_t)r | 0x80000001u;
		char hx[9];
		for (int k = 0; k < 8; k++)
			hx[k] = "0123456789abcdef"[m >> (28 - 4 * k) & 15];
		hx[8] = 0;
		puts_(hx);
		puts_(" 0 STG.E.U8.SYS 2 R2 R0 1 2 0x");
		putx(0x7f0000100000 + (r >> 40), 1);
		put(" ", 1);
		for (int k = 1; k < __builtin_popcount(m); k++) {
			puti((int64_t)(next() % 8192) - 4096);
			put(" ", 1);
		}
		break;
	}
	case 2: /* LDS broadcast, stride 0 */
		puts_("ffffffff 1 R12 LDS.U.128 1 R2 16 1 0x");
		putx((r & 0xff) * 16, 1);
		puts_(" 0 ");
		break;
	case 3: /* address list, four lanes */
		puts_("0000000f 1 R6 LDG.E.64 1 R6 8 0 ");
		for (int k = 0; k < 4; k++) {
			puts_("0x");
			putx(0x7f0000200000 + ((r >> (8 * k)) & 0xffff) * 8, 16);
			put(" ", 1);
		}
		break;
	case 4: /* predicated off: "1 0x0 0" */
		puts_("00000000 1 R7 LDG.E.SYS 1 R4 4 1 0x0 0 ");
		break;
	case 5: /* generic LD, global window */
		puts_("ffffffff 1 R9 LD.E 1 R8 4 1 0x");
		putx(0x7f0000300000 + tid * 4, 1);
		puts_(" 4 ");
		break;
	case 6: /* reduction, one lane */
		puts_("00000001 0 RED.E.ADD.STRONG.GPU 2 R2 R3 4 2 0x");
		putx(0x7f0000400000 + (r & 0xfff) * 4, 1);
		put(" ", 1);
		break;
	case 7: /* STG, base+stride, negative stride */
		puts_("ffffffff 0 STG.E 2 R2 R5 4 1 0x");
		putx(0x7f0000500000 + tid * 4 + 124, 1);
		puts_(" -4 ");
		break;
	default: /* ALU */
		puts_("ffffffff 1 R");
		putu(r % 32);
		puts_(i % 2 ? " IMAD.MOV.U32 2 R255 R" : " FFMA 3 R1 R2 R");
		putu((r >> 8) % 32);
		puts_(" 0 ");
		break;
	}
	if (version >= 5)
		puts_("0 ");
	put("\n", 1);
}

static void header(uint64_t grid)
{
	puts_("-kernel name = _Z9synthetic6Pfi\n-kernel id = 1\n-grid dim = (");
	putu(grid);
	puts_(",1,1)\n-block dim = (256,1,1)\n-shmem = 4096\n-nregs = 32\n"
	      "-binary version = 80\n-cuda stream id = 0\n"
	      "-shmem base_addr = 0x00007f73cb000000\n"
	      "-local mem base_addr = 0x00007f73c9000000\n-nvbit version = 1.5.5\n"
	      "-accelsim tracer version = ");
	putu((uint64_t)version);
	if (version >= 4) {
		puts_("\n-enable lineinfo = ");
		putu((uint64_t)lineinfo);
	}
	puts_("\n\n#traces format = [line_num] PC mask dest_num [reg_dests] opcode src_num "
	      "[reg_srcs] mem_width [adrrescompress?] [mem_addresses]\n\n");
}

static void block_traceg(uint64_t b)
{
	puts_("\n#BEGIN_TB\n\nthread block = ");
	putu(b);
	puts_(",0,0\n");
	for (unsigned w = 0; w < WARPS; w++) {
		puts_("\nwarp = ");
		putu(w);
		puts_("\ninsts = ");
		putu(INSTS);
		put("\n", 1);
		for (unsigned i = 0; i < INSTS; i++)
			inst(b, w, i);
	}
	puts_("\n#END_TB\n");
}

static void group_raw(uint64_t b0, uint64_t nb)
{
	for (unsigned i = 0; i < INSTS; i++)
		for (uint64_t b = b0; b < b0 + nb; b++)
			for (unsigned w = 0; w < WARPS; w++)
				inst(b, w, i);
}

int main(int argc, char **argv)
{
	uint64_t size = 64u << 20;
	int c;
	gc_prog_init("gen-traceg", argc, argv);
	while ((c = getopt(argc, argv, "s:V:lrS:")) != -1) {
		switch (c) {
		case 's': size = gc_num("-s", optarg, 1, UINT64_C(1) << 40); break;
		case 'V': version = (int)gc_num("-V", optarg, 3, 5); break;
		case 'l': lineinfo = 1; break;
		case 'r': raw = 1; break;
		case 'S': rng = gc_num("-S", optarg, 1, UINT64_MAX); break;
		default: gc_usage_error("usage: gen-traceg [-s SIZE] [-V 3|4|5] [-l] [-r] [-S SEED]");
		}
	}
	if (lineinfo && version < 4)
		gc_usage_error("-l needs -V 4 or 5");
	if (isatty(1))
		gc_die(GC_EXIT_USAGE, "refusing to write to a terminal");
	out = malloc(ocap);
	if (!out)
		gc_die(GC_EXIT_DATA, "out of memory");
	/* Measure one block, then size the grid to reach `size` bytes. */
	uint64_t seed = rng;
	if (raw)
		group_raw(0, 1);
	else
		block_traceg(0);
	uint64_t per = olen;
	olen = 0;
	rng = seed;
	uint64_t grid = size / per + 1;
	if (grid > UINT32_MAX)
		grid = UINT32_MAX;
	header(grid);
	for (uint64_t b = 0; b < grid; b += raw ? GROUP : 1) {
		if (raw)
			group_raw(b, grid - b < GROUP ? grid - b : GROUP);
		else
			block_traceg(b);
	}
	flush();
	return 0;
}
