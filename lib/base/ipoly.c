/* ipoly.c - the IPOLY index hash of ipoly.h. */
#include "base/ipoly.h"

/*
 * Each bit i of the hashed index is the parity of (hi & mask[i]) XORed
 * with bit i of the linear index: the H-matrix of an irreducible
 * polynomial over GF(2), one row per index bit.  The rows are the
 * equations of reference §3.2 (GPGPU-Sim hashing.cc) written as masks.
 */
#define B(n) (UINT64_C(1) << (n))

static const uint64_t ipoly16[4] = {
	B(11) | B(10) | B(9) | B(8) | B(6) | B(4) | B(3) | B(0),
	B(12) | B(8) | B(7) | B(6) | B(5) | B(3) | B(1) | B(0),
	B(9) | B(8) | B(7) | B(6) | B(4) | B(2) | B(1),
	B(10) | B(9) | B(8) | B(7) | B(5) | B(3) | B(2),
};

static const uint64_t ipoly32[5] = {
	B(13) | B(12) | B(11) | B(10) | B(9) | B(6) | B(5) | B(3) | B(0),
	B(14) | B(13) | B(12) | B(11) | B(10) | B(7) | B(6) | B(4) | B(1),
	B(14) | B(10) | B(9) | B(8) | B(7) | B(6) | B(3) | B(2) | B(0),
	B(11) | B(10) | B(9) | B(8) | B(7) | B(4) | B(3) | B(1),
	B(12) | B(11) | B(10) | B(9) | B(8) | B(5) | B(4) | B(2),
};

static const uint64_t ipoly64[6] = {
	B(18) | B(17) | B(16) | B(15) | B(12) | B(10) | B(6) | B(5) | B(0),
	B(15) | B(13) | B(12) | B(11) | B(10) | B(7) | B(5) | B(1) | B(0),
	B(16) | B(14) | B(13) | B(12) | B(11) | B(8) | B(6) | B(2) | B(1),
	B(17) | B(15) | B(14) | B(13) | B(12) | B(9) | B(7) | B(3) | B(2),
	B(18) | B(16) | B(15) | B(14) | B(13) | B(10) | B(8) | B(4) | B(3),
	B(17) | B(16) | B(15) | B(14) | B(11) | B(9) | B(5) | B(4),
};

#undef B

unsigned gc_ipoly_hash(uint64_t hi, unsigned index, unsigned n)
{
	const uint64_t *rows;
	unsigned bits;

	switch (n) {
	case 16:
		rows = ipoly16;
		bits = 4;
		break;
	case 32:
		rows = ipoly32;
		bits = 5;
		break;
	case 64:
		rows = ipoly64;
		bits = 6;
		break;
	default:
		return index % (n ? n : 1);
	}
	unsigned out = 0;
	for (unsigned i = 0; i < bits; i++) {
		unsigned bit = (unsigned)__builtin_parityll(hi & rows[i]) ^ ((index >> i) & 1u);
		out |= bit << i;
	}
	return out;
}

