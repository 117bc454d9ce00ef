/*
 * rd-gen - a random access stream with a known shape, for gc-rd's tests
 * and measurements: N accesses to M distinct 128-byte lines, each either
 * a reuse of a recently used line (probability P percent, the depth drawn
 * geometrically) or a uniformly random line; random SM (0..S-1), PC
 * (0x10..0x40), offset within the line (4-byte accesses, some straddling
 * into the next line with -x), split into K kernels.  Deterministic for a
 * seed.
 *
 * Usage: rd-gen [-n N] [-m M] [-p P] [-S SMS] [-k K] [-x] [-s SEED] [-c]
 *   -c  cyclic: line i mod M, nothing random (a loop over M lines)
 */
#include "prog/prog.h"
#include "stream/stream.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static uint64_t rng = 88172645463325252ull;

static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

int main(int argc, char **argv)
{
	uint64_t n = 10000, m = 1000, p = 50, sms = 4, kernels = 1, seed = 1;
	int straddle = 0, cyclic = 0, c;
	gc_prog_init("rd-gen", argc, argv);
	while ((c = getopt(argc, argv, "n:m:p:S:k:xs:c")) != -1) {
		switch (c) {
		case 'n': n = gc_num("-n", optarg, 1, UINT64_C(1) << 40); break;
		case 'm': m = gc_num("-m", optarg, 1, UINT64_C(1) << 40); break;
		case 'p': p = gc_num("-p", optarg, 0, 100); break;
		case 'S': sms = gc_num("-S", optarg, 1, 65535); break;
		case 'k': kernels = gc_num("-k", optarg, 1, 1000); break;
		case 'x': straddle = 1; break;
		case 's': seed = gc_num("-s", optarg, 0, UINT64_MAX); break;
		case 'c': cyclic = 1; break;
		default: gc_usage_error("bad option");
		}
	}
	rng ^= seed * 0x9e3779b97f4a7c15ull;
	if (!rng)
		rng = 1;
	gc_header h;
	gc_header_init(&h, GC_KIND_ACCESS);
	gc_header_add_provenance(&h, gc_cmdline());
	gc_writer *w = gc_writer_open(NULL, &h, 0);
	if (gc_writer_failed(w))
		gc_die(1, "%s", gc_writer_error(w));
	uint64_t recent[64] = {0};
	uint64_t per = (n + kernels - 1) / kernels, done = 0;
	gc_rec r;
	memset(&r, 0, sizeof r);
	r.op = GC_LOAD;
	r.size = 4;
	for (uint64_t k = 1; done < n; k++) {
		gc_kernel kk;
		gc_kernel_init(&kk, (uint32_t)k, "rdgen");
		if (gc_write_kbegin(w, &kk) < 0)
			gc_die(1, "%s", gc_writer_error(w));
		for (uint64_t i = 0; i < per && done < n; i++, done++) {
			uint64_t line;
			if (cyclic) {
				line = done % m;
			} else if (next() % 100 < p) {
				unsigned depth = 0;
				while (depth < 63 && (next() & 3))
					depth++;
				line = recent[depth];
			} else {
				line = next() % m;
			}
			memmove(recent + 1, recent, 63 * sizeof *recent);
			recent[0] = line;
			unsigned off = (unsigned)(next() % 32) * 4;
			if (straddle && off == 124 && (next() & 1))
				off = 126; /* 4 bytes across the line boundary */
			r.addr = 0x10000000 + line * 128 + (cyclic ? 0 : off);
			r.sm = cyclic ? 0 : (uint16_t)(next() % sms);
			r.pc = cyclic ? 0x10 : 0x10 * (uint32_t)(1 + next() % 4);
			r.seq = (uint32_t)i;
			if (gc_write(w, &r) < 0)
				gc_die(1, "%s", gc_writer_error(w));
		}
		if (gc_write_kend(w, (uint32_t)k) < 0)
			gc_die(1, "%s", gc_writer_error(w));
	}
	if (gc_writer_close(w) < 0)
		gc_die(1, "%s", gc_writer_error(w));
	gc_writer_free(w);
	gc_header_free(&h);
	return 0;
}
