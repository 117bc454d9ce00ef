/*
 * gpu_check.c - the end of a layer of the GPU configuration
 * (gc_gpu_finish): derive what the layer left open (a cache's size from
 * its geometry, or its sets from its size; the L2's total), then check
 * the keys against each other (gc-config(5), DERIVED VALUES AND
 * CROSS-CHECKS), blaming the latest line among the keys involved.
 */
#include "config/gpu.h"
#include "base/bits.h"
#include "config/gpu_impl.h"

#include <stdarg.h>
#include <stdio.h>

/* Fail, blaming the latest line among the keys given (-1 ends the list). */
static int failk(gc_gpu_config *c, char *err, size_t len, const int *blame, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

static int failk(gc_gpu_config *c, char *err, size_t len, const int *blame, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
	c->err_line = 0;
	for (; *blame >= 0; blame++)
		if (c->given[*blame] && c->line[*blame] > c->err_line)
			c->err_line = c->line[*blame];
	return -1;
}

#define BLAME(...) ((const int[]){__VA_ARGS__, -1})
#define SZ(buf, v) (gpu_fmt_size(buf, sizeof buf, (v)), buf)

static int derive_cache(gc_gpu_config *c, const struct level *lv, char *err, size_t len)
{
	gc_gpu_cache *k = (gc_gpu_cache *)((char *)c + lv->off);
	char a[32], b[32];
	uint64_t unit = (uint64_t)k->ways * k->line;
	if (c->given[lv->size] && !c->given[lv->sets]) {
		if (k->size % unit || k->size / unit > gpu_keys[lv->sets].max)
			return failk(c, err, len, BLAME(lv->size, lv->ways, lv->line),
				"%s %s is not a multiple of %s * %s = %u * %u = %s (up to %llu sets)",
				gpu_keys[lv->size].name, SZ(a, k->size), gpu_keys[lv->ways].name,
				gpu_keys[lv->line].name, k->ways, k->line, SZ(b, unit),
				(unsigned long long)gpu_keys[lv->sets].max);
		k->sets = (unsigned)(k->size / unit);
	} else if (!c->given[lv->size]) {
		k->size = k->sets * unit;
		if (k->size > gpu_keys[lv->size].max)
			return failk(c, err, len, BLAME(lv->sets, lv->ways, lv->line, lv->cache),
				"%s * %s * %s = %s is more than %s", gpu_keys[lv->sets].name,
				gpu_keys[lv->ways].name, gpu_keys[lv->line].name, SZ(a, k->size),
				SZ(b, gpu_keys[lv->size].max));
	}
	if (k->size != k->sets * unit)
		return failk(c, err, len, BLAME(lv->size, lv->sets, lv->ways, lv->line, lv->cache),
			"%s %s is not %s * %s * %s = %u * %u * %u = %s", gpu_keys[lv->size].name,
			SZ(a, k->size), gpu_keys[lv->sets].name, gpu_keys[lv->ways].name,
			gpu_keys[lv->line].name, k->sets, k->ways, k->line, SZ(b, k->sets * unit));
	return 0;
}

static int check_cache(gc_gpu_config *c, const struct level *lv, char *err, size_t len)
{
	gc_gpu_cache *k = (gc_gpu_cache *)((char *)c + lv->off);
	const char *n = lv->name;
	if (k->sector > k->line || k->line % k->sector)
		return failk(c, err, len, BLAME(lv->sector, lv->line, lv->cache),
			"%s.sector %u does not divide %s.line %u", n, k->sector, n, k->line);
	if (k->line / k->sector > 8)
		return failk(c, err, len, BLAME(lv->sector, lv->line, lv->cache),
			"%s.line %u holds %u sectors of %u bytes; at most 8 are supported", n,
			k->line, k->line / k->sector, k->sector);
	if (k->index == GC_INDEX_XOR && !gc_is_pow2(k->sets))
		return failk(c, err, len, BLAME(lv->index, lv->sets, lv->size, lv->cache),
			"%s.index xor needs a power-of-two number of sets, not %u", n, k->sets);
	if (k->index == GC_INDEX_FERMI && ((k->sets != 32 && k->sets != 64) || k->line != 128))
		return failk(c, err, len, BLAME(lv->index, lv->sets, lv->line, lv->size, lv->cache),
			"%s.index fermi needs 32 or 64 sets of 128-byte lines, not %u sets of %u bytes",
			n, k->sets, k->line);
	if (k->index == GC_INDEX_IPOLY && k->sets != 16 && k->sets != 32 && k->sets != 64)
		return failk(c, err, len, BLAME(lv->index, lv->sets, lv->size, lv->cache),
			"%s.index ipoly needs 16, 32 or 64 sets, not %u", n, k->sets);
	if (k->write == GC_WRITE_BACK && k->alloc != GC_ALLOC_ON_MISS)
		return failk(c, err, len, BLAME(lv->write, lv->alloc, lv->cache),
			"%s.alloc %s cannot be used with %s.write write-back", n,
			gpu_enum_name(gpu_e_alloc, k->alloc), n);
	if ((k->walloc == GC_WALLOC_FETCH_ON_WRITE || k->walloc == GC_WALLOC_LAZY_FETCH_ON_READ) &&
	    k->alloc != GC_ALLOC_ON_MISS)
		return failk(c, err, len, BLAME(lv->walloc, lv->alloc, lv->cache),
			"%s.write_alloc %s needs %s.alloc on-miss", n,
			gpu_enum_name(gpu_e_walloc, k->walloc), n);
	if (k->port && (k->port > k->line || k->line % k->port))
		return failk(c, err, len, BLAME(lv->port, lv->line, lv->cache),
			"%s.port %u does not divide %s.line %u", n, k->port, n, k->line);
	if (lv == &gpu_level_l1 && k->mshr_per_warp > k->mshr_entries)
		return failk(c, err, len, BLAME(KEY_L1_MSHR_PER_WARP, KEY_L1_MSHR_ENTRIES, KEY_L1_CACHE),
			"l1.mshr_per_warp %u is more than l1.mshr_entries %u",
			k->mshr_per_warp, k->mshr_entries);
	return 0;
}

static int check_sm(gc_gpu_config *c, char *err, size_t len)
{
	char a[32], b[32], d[32];
	if ((uint64_t)c->sm.max_warps * c->sm.warp_size != c->sm.max_threads)
		return failk(c, err, len, BLAME(KEY_SM_MAX_WARPS, KEY_SM_MAX_THREADS, KEY_SM_WARP_SIZE),
			"sm.max_threads %u is not sm.max_warps * sm.warp_size = %u * %u",
			c->sm.max_threads, c->sm.max_warps, c->sm.warp_size);
	if (c->sm.max_threads_per_block > c->sm.max_threads)
		return failk(c, err, len, BLAME(KEY_SM_MAX_THREADS_PER_BLOCK, KEY_SM_MAX_THREADS),
			"sm.max_threads_per_block %u is more than sm.max_threads %u",
			c->sm.max_threads_per_block, c->sm.max_threads);
	if (c->sm.max_regs_per_block > c->sm.registers)
		return failk(c, err, len, BLAME(KEY_SM_MAX_REGS_PER_BLOCK, KEY_SM_REGISTERS),
			"sm.max_regs_per_block %u is more than sm.registers %u",
			c->sm.max_regs_per_block, c->sm.registers);
	if (c->sm.registers % c->sm.reg_partitions)
		return failk(c, err, len, BLAME(KEY_SM_REG_PARTITIONS, KEY_SM_REGISTERS),
			"sm.reg_partitions %u does not divide sm.registers %u",
			c->sm.reg_partitions, c->sm.registers);
	if (c->sm.max_shmem_per_block > c->sm.shmem)
		return failk(c, err, len, BLAME(KEY_SM_MAX_SHMEM_PER_BLOCK, KEY_SM_SHMEM),
			"sm.max_shmem_per_block %s is more than sm.shmem %s",
			SZ(a, c->sm.max_shmem_per_block), SZ(b, c->sm.shmem));

	/* The carve-out (reference §3.4). */
	uint64_t u = c->sm.unified;
	const gc_gpu_cache *l1 = &c->l1;
	if (c->sm.carveout == GC_CARVEOUT_NONE) {
		if (u || c->sm.noptions)
			return failk(c, err, len, BLAME(KEY_SM_CARVEOUT, KEY_SM_UNIFIED, KEY_SM_OPTIONS),
				"sm.carveout none needs sm.unified_size 0 and sm.shmem_options none");
		return 0;
	}
	if (!u || !c->sm.noptions)
		return failk(c, err, len, BLAME(KEY_SM_CARVEOUT, KEY_SM_UNIFIED, KEY_SM_OPTIONS),
			"sm.carveout %s needs sm.unified_size and sm.shmem_options",
			gpu_enum_name(gpu_e_carveout, c->sm.carveout));
	for (int i = 0; i < c->sm.noptions; i++)
		if (c->sm.options[i] >= u)
			return failk(c, err, len, BLAME(KEY_SM_OPTIONS, KEY_SM_UNIFIED),
				"sm.shmem_options: %s leaves no L1 in sm.unified_size %s",
				SZ(a, c->sm.options[i]), SZ(b, u));
	if (c->sm.carveout == GC_CARVEOUT_FIXED) {
		int found = 0;
		for (int i = 0; i < c->sm.noptions; i++)
			found |= c->sm.options[i] == c->sm.shmem;
		if (!found)
			return failk(c, err, len, BLAME(KEY_SM_SHMEM, KEY_SM_OPTIONS),
				"sm.shmem %s is not one of sm.shmem_options",
				SZ(a, c->sm.shmem));
		if (l1->size + c->sm.shmem != u)
			return failk(c, err, len, BLAME(KEY_L1_SIZE, KEY_SM_SHMEM, KEY_SM_UNIFIED, KEY_L1_CACHE,
				    KEY_L1_SETS, KEY_L1_WAYS),
				"l1.size %s + sm.shmem %s is not sm.unified_size %s",
				SZ(a, l1->size), SZ(b, c->sm.shmem), SZ(d, u));
		return 0;
	}
	if (c->sm.options[c->sm.noptions - 1] != c->sm.shmem)
		return failk(c, err, len, BLAME(KEY_SM_SHMEM, KEY_SM_OPTIONS),
			"sm.shmem %s is not the largest of sm.shmem_options (%s)",
			SZ(a, c->sm.shmem), SZ(b, c->sm.options[c->sm.noptions - 1]));
	uint64_t unit;
	if (l1->scale == GC_SCALE_WAYS) {
		/* GPGPU-Sim asserts that the unified size is a multiple of the
		 * base L1; every option must leave a whole number of ways. */
		if (u % l1->size)
			return failk(c, err, len, BLAME(KEY_SM_UNIFIED, KEY_L1_SIZE, KEY_L1_CACHE, KEY_L1_SETS,
				    KEY_L1_WAYS),
				"sm.unified_size %s is not a multiple of l1.size %s",
				SZ(a, u), SZ(b, l1->size));
		unit = (uint64_t)l1->sets * l1->line;
	} else {
		if (l1->index != GC_INDEX_LINEAR && l1->index != GC_INDEX_FIBONACCI)
			return failk(c, err, len, BLAME(KEY_L1_SCALE, KEY_L1_INDEX, KEY_L1_CACHE),
				"l1.carveout_scales sets needs l1.index linear or fibonacci (the "
				"set count changes with the carve-out)");
		unit = (uint64_t)l1->ways * l1->line;
	}
	for (int i = 0; i < c->sm.noptions; i++)
		if ((u - c->sm.options[i]) % unit)
			return failk(c, err, len, BLAME(KEY_SM_OPTIONS, KEY_SM_UNIFIED, KEY_L1_SCALE),
				"sm.shmem_options: %s leaves %s of L1, not a multiple of %s "
				"(l1.%s * l1.line)", SZ(a, c->sm.options[i]),
				SZ(b, u - c->sm.options[i]), SZ(d, unit),
				l1->scale == GC_SCALE_WAYS ? "sets" : "ways");
	return 0;
}

static int check_l2_dram(gc_gpu_config *c, char *err, size_t len)
{
	gc_gpu_cache *l2 = &c->l2;
	char a[32], b[32], d[32];
	struct mapping m;
	char why[96];
	if (!c->given[KEY_L2_SIZE]) {
		l2->total = (uint64_t)l2->channels * l2->sub_partitions * l2->size;
		if (l2->total > gpu_keys[KEY_L2_SIZE].max)
			return failk(c, err, len, BLAME(KEY_L2_CHANNELS, KEY_L2_SUB, KEY_L2_SLICE, KEY_L2_CACHE),
				"l2.size %s is more than %s", SZ(a, l2->total),
				SZ(b, gpu_keys[KEY_L2_SIZE].max));
	}
	if (l2->total != (uint64_t)l2->channels * l2->sub_partitions * l2->size)
		return failk(c, err, len, BLAME(KEY_L2_SIZE, KEY_L2_CHANNELS, KEY_L2_SUB,
						KEY_L2_SLICE, KEY_L2_CACHE, KEY_L2_SETS, KEY_L2_WAYS),
			"l2.size %s is not l2.channels * l2.sub_partitions * l2.slice_size = "
			"%u * %u * %s = %s", SZ(a, l2->total), l2->channels, l2->sub_partitions,
			SZ(b, l2->size), SZ(d, (uint64_t)l2->channels * l2->sub_partitions * l2->size));
	if (l2->pindex == GC_PINDEX_IPOLY) {
		unsigned p = 1;
		while (p < l2->channels)
			p <<= 1;
		unsigned total = p * l2->sub_partitions;
		if (total != 16 && total != 32 && total != 64)
			return failk(c, err, len, BLAME(KEY_L2_PINDEX, KEY_L2_CHANNELS, KEY_L2_SUB),
				"l2.partition_index ipoly needs 16, 32 or 64 sub-partitions after "
				"rounding l2.channels up to a power of two (%u * %u = %u)", p,
				l2->sub_partitions, total);
	}
	if (l2->pindex == GC_PINDEX_BITWISE_PERMUTATION && !gc_is_pow2(l2->channels))
		return failk(c, err, len, BLAME(KEY_L2_PINDEX, KEY_L2_CHANNELS),
			"l2.partition_index bitwise-permutation needs a power-of-two "
			"l2.channels, not %u", l2->channels);
	if (gpu_mapping_parse(l2->mapping, &m, why, sizeof why) < 0)
		return failk(c, err, len, BLAME(KEY_L2_MAPPING), "l2.mapping: %s", why);
	if (m.dramid < 0 && m.nD < 32 && (1u << m.nD) < l2->channels)
		return failk(c, err, len, BLAME(KEY_L2_MAPPING, KEY_L2_CHANNELS),
			"l2.mapping has %d D bits, too few for %u channels", m.nD, l2->channels);
	if ((unsigned)m.nB < gc_log2(l2->sub_partitions))
		return failk(c, err, len, BLAME(KEY_L2_MAPPING, KEY_L2_SUB),
			"l2.mapping has %d B bits, too few to pick one of %u sub-partitions",
			m.nB, l2->sub_partitions);
	if (m.nB > 20 || c->dram.banks != (1u << m.nB))
		return failk(c, err, len, BLAME(KEY_DRAM_BANKS, KEY_L2_MAPPING),
			"dram.banks %u is not 2^%d (the B bits of l2.mapping)", c->dram.banks, m.nB);
	if (m.nC > 40 || c->dram.row != (1ull << (m.nC)))
		return failk(c, err, len, BLAME(KEY_DRAM_ROW, KEY_L2_MAPPING),
			"dram.row_size %s is not 2^%d (the C and S bits of l2.mapping)",
			SZ(a, c->dram.row), m.nC);
	if (c->dram.banks % c->dram.bank_groups)
		return failk(c, err, len, BLAME(KEY_DRAM_BANK_GROUPS, KEY_DRAM_BANKS),
			"dram.bank_groups %u does not divide dram.banks %u", c->dram.bank_groups,
			c->dram.banks);
	if (c->dram.channels % l2->channels)
		return failk(c, err, len, BLAME(KEY_DRAM_CHANNELS, KEY_L2_CHANNELS),
			"dram.channels %u is not a multiple of l2.channels %u", c->dram.channels,
			l2->channels);
	return 0;
}

int gc_gpu_finish(gc_gpu_config *c, char *err, size_t len)
{
	c->err_line = 0;
	if (derive_cache(c, &gpu_level_l1, err, len) < 0 || derive_cache(c, &gpu_level_l2, err, len) < 0 ||
	    check_sm(c, err, len) < 0 || check_cache(c, &gpu_level_l1, err, len) < 0 ||
	    check_cache(c, &gpu_level_l2, err, len) < 0 || check_l2_dram(c, err, len) < 0)
		return -1;
	return 0;
}
