/*
 * addrmap-test - drive lib/config/addrmap.h for tests/gc-l2.bats.
 *
 *   addrmap-test masks MAPPING CHANNELS SUBS PINDEX
 *       the field masks as GPGPU-Sim prints addr_dec_mask[], one line
 *   addrmap-test scheme NAME CHANNELS BANKS ROW_BYTES BURST_BYTES
 *       the mapping string of a Ramulator scheme (gc_addrmap_scheme)
 *   addrmap-test decode MAPPING CHANNELS SUBS PINDEX [-s INDEX:SETS] ADDR...
 *       per address: chip, sub-partition, bank, row, col, burst, the
 *       partition address and (with -s) the L2 set of that address;
 *       gc_addrmap_bank_row and (where it applies) the table decode must
 *       agree with gc_addrmap_decode, and gc-l2's set of the line among
 *       all slices' (gc_l2map_locate, by table where it applies, and
 *       gc_l2map_locate_slow) with its slice * SETS + its set, or it fails
 *
 * PINDEX is a gc-config(5) name (consecutive, bitwise-permutation, ipoly,
 * random, ipoly-modulo); INDEX a set-index name (linear, xor, fermi, ipoly).
 */
#include "config/addrmap.h"
#include "model/cache.h"
#include "model/l2map.h"
#include "prog/prog.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int lookup(const char *s, const char *const *names, int n, const char *what)
{
	for (int i = 0; i < n; i++)
		if (strcmp(s, names[i]) == 0)
			return i;
	gc_die(2, "unknown %s '%s'", what, s);
}

int main(int argc, char **argv)
{
	static const char *const pin[] = {"consecutive", "bitwise-permutation", "ipoly",
					   "random", "ipoly-modulo"};
	static const int pin_val[] = {GC_PINDEX_CONSECUTIVE, GC_PINDEX_BITWISE_PERMUTATION,
				      GC_PINDEX_IPOLY, GC_PINDEX_RANDOM,
				      GC_PINDEX_IPOLY_MODULO};
	static const char *const idx[] = {"linear", "xor", "fermi", "ipoly"};
	static const int idx_val[] = {GC_INDEX_LINEAR, GC_INDEX_XOR, GC_INDEX_FERMI,
				      GC_INDEX_IPOLY};
	gc_addrmap m;
	char why[200];

	gc_prog_init("addrmap-test", argc, argv);
	if (argc == 7 && strcmp(argv[1], "scheme") == 0) {
		char out[160];
		int r = gc_addrmap_scheme(argv[2], (unsigned)gc_num("CHANNELS", argv[3], 1, 4096),
					  (unsigned)gc_num("BANKS", argv[4], 1, 1024),
					  (uint64_t)gc_num("ROW_BYTES", argv[5], 1, 1 << 20),
					  (unsigned)gc_num("BURST_BYTES", argv[6], 1, 4096), out,
					  sizeof out, why, sizeof why);
		if (r < 0)
			gc_die(1, "%s", why);
		printf("%s\n", r ? out : "not a scheme");
		return 0;
	}
	if (argc < 6)
		gc_die(2, "usage: addrmap-test masks|decode MAPPING CHANNELS SUBS PINDEX ...");
	unsigned ch = (unsigned)gc_num("CHANNELS", argv[3], 1, 4096);
	unsigned subs = (unsigned)gc_num("SUBS", argv[4], 1, 64);
	int pindex = pin_val[lookup(argv[5], pin, 5, "partition indexing")];
	if (gc_addrmap_init(&m, argv[2], ch, subs, pindex, why, sizeof why) < 0)
		gc_die(1, "%s", why);

	if (strcmp(argv[1], "masks") == 0) {
		for (int f = 0; f < GC_AM_NFIELDS; f++)
			printf("%s 0x%llx ", gc_addrmap_field_name(f),
			       (unsigned long long)m.mask[f]);
		printf("sub 0x%llx gap %d\n", (unsigned long long)m.sub_mask, m.gap);
		return 0;
	}
	if (strcmp(argv[1], "decode") != 0)
		gc_die(2, "unknown command '%s'", argv[1]);
	static gc_addrmap_tab tab;
	int linear = gc_addrmap_tab_init(&tab, &m) == 0;
	int a = 6, fn = -1;
	unsigned sets = 0;
	if (a + 1 < argc && strcmp(argv[a], "-s") == 0) {
		char buf[64];
		snprintf(buf, sizeof buf, "%s", argv[a + 1]);
		char *colon = strchr(buf, ':');
		if (!colon)
			gc_die(2, "-s INDEX:SETS");
		*colon = 0;
		fn = idx_val[lookup(buf, idx, 4, "set index")];
		sets = (unsigned)gc_num("SETS", colon + 1, 1, 1u << 24);
		if (gc_set_index_check(fn, sets, 128, why, sizeof why) < 0)
			gc_die(2, "%s", why);
		a += 2;
	}
	static gc_l2map lm;
	if (fn >= 0)
		gc_l2map_init(&lm, &m, fn, sets, 128);
	for (; a < argc; a++) {
		uint64_t addr = gc_num("ADDR", argv[a], 0, UINT64_MAX);
		gc_dram_addr d;
		gc_addrmap_decode(&m, addr, &d);
		uint64_t pa = gc_addrmap_partition_address(&m, addr);
		uint64_t pa2;
		if (gc_addrmap_slice_paddr(&m, addr, &pa2) != d.sub || pa2 != pa)
			gc_die(1, "0x%llx: gc_addrmap_slice_paddr disagrees", (unsigned long long)addr);
		gc_dram_addr e[2];
		gc_addrmap_bank_row(&m, addr, &e[0]);
		e[1] = e[0];
		if (linear && !(addr >> 48))
			gc_addrmap_tab_decode(&tab, addr, &e[1]);
		for (int i = 0; i < 2; i++)
			if (e[i].chip != d.chip || e[i].sub != d.sub || e[i].bank != d.bank ||
			    e[i].row != d.row)
				gc_die(1, "0x%llx: %s disagrees", (unsigned long long)addr,
				       i ? "the table decode" : "gc_addrmap_bank_row");
		if (gc_addrmap_slice(&m, addr) != d.sub)
			gc_die(1, "0x%llx: slice %u but decode %u", (unsigned long long)addr,
			       gc_addrmap_slice(&m, addr), d.sub);
		printf("0x%llx chip %u sub %u bank %u row 0x%llx col 0x%llx burst 0x%llx "
		       "paddr 0x%llx", (unsigned long long)addr, d.chip, d.sub, d.bank,
		       (unsigned long long)d.row, (unsigned long long)d.col,
		       (unsigned long long)d.burst, (unsigned long long)pa);
		if (fn >= 0) {
			uint64_t la = addr & ~(uint64_t)127;
			unsigned want = gc_addrmap_slice(&m, la) * sets +
					gc_set_index(fn, gc_addrmap_partition_address(&m, la), 7, sets);
			unsigned s0, s1, got0 = gc_l2map_locate_slow(&lm, la, &s0);
			unsigned got1 = la >> 48 ? got0 : gc_l2map_locate(&lm, la, &s1);
			if (got0 != want || got1 != want || s0 != want / sets ||
			    (!(la >> 48) && s1 != want / sets))
				gc_die(1, "0x%llx: the L2 set %u (by table %u) is not %u",
				       (unsigned long long)addr, got0, got1, want);
			printf(" set %u", gc_set_index(fn, pa, 7, sets));
		}
		printf("\n");
	}
	return 0;
}
