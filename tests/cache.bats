#!/usr/bin/env bats
# lib/model/cache.c: set-index functions (reference §3.2, seed 000 Fig. 6) and
# the shared cache core, through the unit-test program cache-test.

load helpers
use_asan_units

@test "cache: linear set index, power-of-two and modulo set counts" {
	run_status 0 cache-test linear
}

@test "cache: xor set index" {
	run_status 0 cache-test xor
}

@test "cache: the Fermi hash (address bits 7-11 XOR 13,14,15,17,19; bit 12 for 64 sets)" {
	run_status 0 cache-test fermi
}

@test "cache: IPOLY, the QV100 worked example and conflict-free power-of-two strides" {
	run_status 0 cache-test ipoly
}

@test "cache: geometry and set-index checks name the problem" {
	run_status 0 cache-test checks
}

@test "cache: sector masks of byte ranges" {
	run_status 0 cache-test sectors
}

@test "cache: LRU, FIFO and seeded random victims" {
	run_status 0 cache-test replacement
}

@test "cache: fully associative LRU of n lines misses exactly on reuse distance >= n" {
	run_status 0 cache-test lru-stack
}

@test "cache: one-scan probe and victim hint agree with find and victim, and with the rule" {
	run_status 0 cache-test probe
}

@test "cache: an unknown case is a usage error" {
	run_status 2 cache-test nosuch
}
