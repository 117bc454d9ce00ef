/*
 * rng.h - splitmix64, the one pseudo-random generator of the tools.
 *
 * The state advances by the golden-ratio constant and each output is that
 * state through a 64-bit finaliser (gc_mix64).  Since output i of a seed
 * is a function of the seed and i alone, a tool can draw the numbers in any
 * order (gc_splitmix64_at) and still get the sequence gc_splitmix64 gives.
 * Changing anything here changes every seeded result the tests pin.
 */
#ifndef GC_RNG_H
#define GC_RNG_H

#include <stdint.h>

#define GC_SPLITMIX64_GAMMA UINT64_C(0x9e3779b97f4a7c15)

/* splitmix64's finaliser: a bijection of 64-bit values that spreads every
 * input bit over the output (also a good hash of an integer key). */
static inline uint64_t gc_mix64(uint64_t z)
{
	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

/* The next output; advances *state. */
static inline uint64_t gc_splitmix64(uint64_t *state)
{
	*state += GC_SPLITMIX64_GAMMA;
	return gc_mix64(*state);
}

/* Output i (from 0) of the generator whose state starts at seed. */
static inline uint64_t gc_splitmix64_at(uint64_t seed, uint64_t i)
{
	return gc_mix64(seed + (i + 1) * GC_SPLITMIX64_GAMMA);
}

/* The next output as a double uniform in [0, 1): its top 53 bits. */
static inline double gc_splitmix64_unit(uint64_t *state)
{
	return (double)(gc_splitmix64(state) >> 11) * 0x1.0p-53;
}

#endif
