/*
 * gpu.c - the typed GPU configuration (gc-config(5)): setting a key's
 * value in a layer, with its check, formatting it back, the text of a
 * whole configuration, and the defaults.  The module's other files
 * (gpu_impl.h lists them) hold the key table, the GPGPU-Sim cache strings,
 * the cross-checks, files and the stream header, occupancy and the
 * carve-out.
 */
#include "config/gpu.h"
#include "base/bits.h"
#include "config/addrmap.h"
#include "config/gpu_impl.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- small helpers ---------------------------------------------------- */

/* Sizes print with the largest binary suffix that is exact: 16K, 6M. */
void gpu_fmt_size(char *b, size_t n, uint64_t v)
{
	if (v && v % GB(1) == 0)
		snprintf(b, n, "%lluG", (unsigned long long)(v >> 30));
	else if (v && v % MB(1) == 0)
		snprintf(b, n, "%lluM", (unsigned long long)(v >> 20));
	else if (v && v % KB(1) == 0)
		snprintf(b, n, "%lluK", (unsigned long long)(v >> 10));
	else
		snprintf(b, n, "%llu", (unsigned long long)v);
}

/* The shortest decimal text that reads back as exactly v. */
void gpu_fmt_real(char *b, size_t n, double v)
{
	if (v == floor(v) && fabs(v) < 1e15) {
		snprintf(b, n, "%.0f", v);
		return;
	}
	for (int p = 1; p <= 17; p++) {
		snprintf(b, n, "%.*g", p, v);
		if (strtod(b, NULL) == v)
			return;
	}
}

/* Decimal or 0x hex; decimal may end in K, M or G (x1024^n). */
static int parse_u64(const char *s, uint64_t *out)
{
	int base = 10;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
	}
	if (!((*s >= '0' && *s <= '9') ||
	      (base == 16 && *s && strchr("abcdefABCDEF", *s))))
		return -1;
	errno = 0;
	char *end;
	unsigned long long v = strtoull(s, &end, base);
	if (errno == ERANGE)
		return -1;
	unsigned shift = 0;
	if (*end && base == 10) {
		switch (*end) {
		case 'k': case 'K': shift = 10; break;
		case 'm': case 'M': shift = 20; break;
		case 'g': case 'G': shift = 30; break;
		default: return -1;
		}
		end++;
	}
	if (*end || (shift && v > (~0ULL >> shift)))
		return -1;
	*out = (uint64_t)v << shift;
	return 0;
}

static void *field(gc_gpu_config *c, int k)
{
	return (char *)c + gpu_keys[k].off;
}

static const void *cfield(const gc_gpu_config *c, int k)
{
	return (const char *)c + gpu_keys[k].off;
}

const char *gpu_enum_name(const struct genum *e, int v)
{
	for (; e->name; e++)
		if (e->value == v)
			return e->name;
	return "?";
}


/* Write a message into buf and return -1. */
int gpu_msgf(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, len, fmt, ap);
	va_end(ap);
	return -1;
}

/* ---- address mappings (reference §3.5) --------------------------------- */

/* The bit counts of a mapping string's fields, through gc_addrmap_parse. */
int gpu_mapping_parse(const char *s, struct mapping *m, char *why, size_t len)
{
	gc_addrmap am;
	if (gc_addrmap_parse(&am, s, why, len) < 0)
		return -1;
	m->dramid = am.dramid;
	m->nD = __builtin_popcountll(am.mask[GC_AM_CHIP]);
	m->nB = __builtin_popcountll(am.mask[GC_AM_BANK]);
	m->nR = __builtin_popcountll(am.mask[GC_AM_ROW]);
	m->nC = __builtin_popcountll(am.mask[GC_AM_COL]);
	return 0;
}

/* ---- setting values --------------------------------------------------- */

void gc_gpu_defaults(gc_gpu_config *c)
{
	memset(c, 0, sizeof *c);
	/* The seed-000 GPU: share/gpus/fermi-gtx470-16k.gpu gives the sources. */
	snprintf(c->name, sizeof c->name, "fermi-gtx470-16k");
	snprintf(c->description, sizeof c->description,
		 "NVIDIA GeForce GTX 470 (Fermi GF100), 16 KB L1 and 48 KB shared memory");
	c->cc = 20;
	c->sm.count = 14;
	c->sm.clock = 1215;
	c->sm.warp_size = 32;
	c->sm.max_threads = 1536;
	c->sm.max_warps = 48;
	c->sm.max_blocks = 8;
	c->sm.max_threads_per_block = 1024;
	c->sm.registers = 32768;
	c->sm.max_regs_per_block = 32768;
	c->sm.max_regs_per_thread = 63;
	c->sm.reg_alloc_unit = 64;
	c->sm.reg_partitions = 2;
	c->sm.shmem = KB(48);
	c->sm.max_shmem_per_block = KB(48);
	c->sm.shmem_alloc_unit = 128;
	c->sm.unified = KB(64);
	c->sm.carveout = GC_CARVEOUT_FIXED;
	c->sm.noptions = 2;
	c->sm.options[0] = KB(16);
	c->sm.options[1] = KB(48);

	gc_gpu_cache *l1 = &c->l1;
	l1->kernel_flush = 1; /* -gpgpu_flush_l1_cache 1 */
	l1->line = l1->sector = 128;
	l1->sets = 32;
	l1->ways = 4;
	l1->size = KB(16);
	l1->index = GC_INDEX_FERMI;
	l1->repl = GC_REPL_LRU;
	l1->write = GC_WRITE_LOCAL_BACK;
	l1->alloc = GC_ALLOC_ON_MISS;
	l1->walloc = GC_WALLOC_NONE;
	l1->mshr = GC_MSHR_ASSOC;
	l1->mshr_entries = 64;
	l1->mshr_merge = 8;
	l1->mshr_per_warp = 6;
	l1->miss_queue = 8;
	l1->latency = 0;
	l1->scale = GC_SCALE_WAYS;
	l1->prefetch = GC_PF_NONE; /* no prefetcher: as the parts we model */
	l1->pf_degree = 1;
	l1->pf_distance = 1;
	l1->pf_table = 64;
	l1->pf_window = 16;

	gc_gpu_cache *l2 = &c->l2;
	l2->line = 128;
	l2->sector = 32;
	l2->sets = 64;
	l2->ways = 8;
	l2->size = KB(64);
	l2->channels = 5;
	l2->sub_partitions = 2;
	l2->total = KB(640);
	l2->index = GC_INDEX_LINEAR;
	l2->repl = GC_REPL_LRU;
	l2->write = GC_WRITE_BACK;
	l2->alloc = GC_ALLOC_ON_MISS;
	l2->walloc = GC_WALLOC_LAZY_FETCH_ON_READ;
	l2->mshr = GC_MSHR_ASSOC;
	l2->mshr_entries = 256;
	l2->mshr_merge = 4;
	l2->miss_queue = 4;
	l2->port = 32;
	l2->latency = 120;
	l2->pindex = GC_PINDEX_CONSECUTIVE;
	l2->prefetch = GC_PF_NONE;
	l2->pf_degree = 1;
	l2->pf_distance = 1;
	l2->pf_table = 16;
	l2->pf_window = 16;
	snprintf(l2->mapping, sizeof l2->mapping, "dramid@8;00000000.00000000.00000000."
		 "00000000.0000RRRR.RRRRRRRR.BBBCCCCB.CCSSSSSS");

	c->dram.type = GC_DRAM_GDDR5;
	c->dram.channels = 5;
	c->dram.banks = 16;
	c->dram.bank_groups = 4;
	c->dram.row = KB(4);
	c->dram.bus_width = 8;
	c->dram.bandwidth = 133.9;
	c->dram.latency = 100;
	/* GPGPU-Sim SM2_GTX480: -gpgpu_clock_domains ...:924, burst 8, QDR,
	 * -gpgpu_dram_timing_opt nbk=16:CCD=2:RRD=6:RCD=12:RAS=28:RP=12:RC=40:
	 * CL=12:WL=4:CDLR=5:WR=12:nbkgrp=4:CCDL=3:RTPL=2, queue 64. */
	c->dram.clock = 924;
	c->dram.burst = 8;
	c->dram.data_rate = 4;
	c->dram.queue = 64;
	c->dram.tccd = 2;
	c->dram.tccdl = 3;
	c->dram.trrd = 6;
	c->dram.trcd = 12;
	c->dram.tras = 28;
	c->dram.trp = 12;
	c->dram.trc = 40;
	c->dram.tcl = 12;
	c->dram.twl = 4;
	c->dram.tcdlr = 5;
	c->dram.twr = 12;
	c->dram.trtpl = 2;
	c->miss.lambda_min = 100;
	c->miss.sigma = 5;
	c->coalesce = GC_COALESCE_FERMI;
	static const unsigned lat[GC_NOPS] = {4, 4, 8, 20, 8, 4}, init[GC_NOPS] = {1, 1, 8, 4, 4, 4};
	for (int i = 0; i < GC_NOPS; i++) {
		c->op.latency[i] = lat[i];
		c->op.initiation[i] = init[i];
	}
	c->op.issue_width = 2;
	c->perf.noc_bandwidth = 243;
	c->perf.llc_latency = 130;
	c->perf.dram_latency = 132;
	c->perf.launch_latency = 5000;
	gc_gpu_begin(c);
}

void gc_gpu_begin(gc_gpu_config *c)
{
	memset(c->given, 0, sizeof c->given);
	memset(c->line, 0, sizeof c->line);
	for (int i = 0; i < GC_GPU_KEYS_MAX; i++)
		c->by[i] = -1;
	c->err_line = 0;
}

/* Note that key k is set in this layer through key `by`.  A key set both
 * directly and through a cache string is a conflict. */
static int mark(gc_gpu_config *c, int k, int by, int line, char *err, size_t len)
{
	if (c->given[k] && c->by[k] != by) {
		char at[32] = "";
		if (c->line[k] > 0)
			snprintf(at, sizeof at, " on line %d", c->line[k]);
		if (by == k)
			return gpu_msgf(err, len, "key '%s' is also set by '%s'%s", gpu_keys[k].name,
					gpu_keys[c->by[k]].name, at);
		return gpu_msgf(err, len, "key '%s' sets '%s', already set%s", gpu_keys[by].name,
				gpu_keys[k].name, at);
	}
	c->given[k] = 1;
	c->by[k] = (short)by;
	c->line[k] = line;
	return 0;
}

static int bad(char *err, size_t len, int k, const char *val, const char *why)
{
	char exp[256];
	gc_gpu_key_expected(k, exp, sizeof exp);
	if (why && *why)
		return gpu_msgf(err, len, "bad value '%s' for key '%s' (expected %s: %s)", val,
				gpu_keys[k].name, exp, why);
	return gpu_msgf(err, len, "bad value '%s' for key '%s' (expected %s)", val, gpu_keys[k].name, exp);
}

static int parse_enum(const struct genum *e, const char *v, int *out)
{
	for (; e->name; e++)
		if (strcmp(e->name, v) == 0 || (e->alias && strcmp(e->alias, v) == 0)) {
			*out = e->value;
			return 0;
		}
	return -1;
}

/* GPGPU-Sim's coalescing numbers by generation (<40: segments). */
static int coalesce_number(const char *v, int *out)
{
	uint64_t n;
	if (parse_u64(v, &n) < 0 || n < 1 || n > 199)
		return -1;
	*out = n < 30 ? GC_COALESCE_FERMI : n < 40 ? GC_COALESCE_KEPLER
		: n < 60 ? GC_COALESCE_MAXWELL : n < 70 ? GC_COALESCE_PASCAL
		: n < 75 ? GC_COALESCE_VOLTA : n < 80 ? GC_COALESCE_TURING
		: n < 90 ? GC_COALESCE_AMPERE : GC_COALESCE_HOPPER;
	return 0;
}

static int set_cache(gc_gpu_config *c, int k, const char *val, int line, char *err, size_t len)
{
	const struct level *lv = k == KEY_L1_CACHE ? &gpu_level_l1 : &gpu_level_l2;
	gc_gpu_cache *cache = (gc_gpu_cache *)((char *)c + lv->off);
	gc_gpu_cache tmp = *cache;
	char why[160];
	if (gc_gpu_cache_parse(&tmp, val, why, sizeof why) < 0)
		return bad(err, len, k, val, why);
	const int set[] = {lv->line, lv->sector, lv->sets, lv->ways, lv->index, lv->repl,
			   lv->write, lv->alloc, lv->walloc, lv->mshr, lv->entries, lv->merge,
			   lv->miss_queue, lv->port};
	for (size_t i = 0; i < sizeof set / sizeof set[0]; i++)
		if (mark(c, set[i], k, line, err, len) < 0)
			return -1;
	tmp.size = cache->size; /* sizes are derived by gc_gpu_finish */
	*cache = tmp;
	c->given[k] = 1;
	c->by[k] = (short)k;
	c->line[k] = line;
	return 0;
}

static int set_list(gc_gpu_config *c, int k, const char *val, char *err, size_t len)
{
	uint64_t v[GC_GPU_OPTIONS_MAX];
	int n = 0;
	char buf[512], why[96];
	if (strcmp(val, "none") != 0) {
		if (strlen(val) >= sizeof buf)
			return bad(err, len, k, val, "too long");
		strcpy(buf, val);
		char *save = NULL;
		for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
			while (*t == ' ' || *t == '\t')
				t++;
			char *e = t + strlen(t);
			while (e > t && (e[-1] == ' ' || e[-1] == '\t'))
				*--e = 0;
			if (n == GC_GPU_OPTIONS_MAX)
				return bad(err, len, k, val, "too many sizes");
			if (parse_u64(t, &v[n]) < 0 || v[n] > GB(1)) {
				snprintf(why, sizeof why, "'%s' is not a size up to 1G", t);
				return bad(err, len, k, val, why);
			}
			if (n && v[n] <= v[n - 1]) {
				char a[32], b[32];
				gpu_fmt_size(a, sizeof a, v[n]);
				gpu_fmt_size(b, sizeof b, v[n - 1]);
				snprintf(why, sizeof why, "%s does not follow %s", a, b);
				return bad(err, len, k, val, why);
			}
			n++;
		}
		if (!n || val[strlen(val) - 1] == ',' || strstr(val, ",,") || val[0] == ',')
			return bad(err, len, k, val, "an empty size");
	}
	c->sm.noptions = n;
	memcpy(c->sm.options, v, sizeof(uint64_t) * (size_t)n);
	return 0;
}

static int set_value(gc_gpu_config *c, int k, const char *val, char *err, size_t len)
{
	const struct key *kp = &gpu_keys[k];
	uint64_t u;
	switch (kp->type) {
	case K_NAME: {
		size_t n = strlen(val);
		if (n == 0 || n > 63 || strspn(val, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
					     "0123456789._-") != n)
			return bad(err, len, k, val, NULL);
		strcpy(field(c, k), val);
		return 0;
	}
	case K_TEXT: {
		size_t n = strlen(val);
		if (n > 127)
			return bad(err, len, k, val, NULL);
		for (const char *p = val; *p; p++)
			if ((unsigned char)*p < 0x20 || (unsigned char)*p > 0x7e)
				return bad(err, len, k, val, NULL);
		strcpy(field(c, k), val);
		return 0;
	}
	case K_CC: {
		if (strlen(val) < 3 || strlen(val) > 4)
			return bad(err, len, k, val, NULL);
		unsigned major = 0;
		const char *p = val;
		while (*p >= '0' && *p <= '9')
			major = major * 10 + (unsigned)(*p++ - '0');
		if (p == val || major < 1 || major > 99 || p[0] != '.' || p[1] < '0' || p[1] > '9' ||
		    p[2])
			return bad(err, len, k, val, NULL);
		*(unsigned *)field(c, k) = major * 10 + (unsigned)(p[1] - '0');
		return 0;
	}
	case K_UINT:
	case K_SIZE:
		if (parse_u64(val, &u) < 0 || u < kp->min || u > kp->max ||
		    ((kp->flags & F_POW2) && !gc_is_pow2(u)))
			return bad(err, len, k, val, NULL);
		if (kp->type == K_UINT)
			*(unsigned *)field(c, k) = (unsigned)u;
		else
			*(uint64_t *)field(c, k) = u;
		return 0;
	case K_REAL: {
		char *end;
		errno = 0;
		double d = strtod(val, &end);
		if (end == val || *end || errno == ERANGE || !isfinite(d) || d < kp->dmin ||
		    d > kp->dmax)
			return bad(err, len, k, val, NULL);
		*(double *)field(c, k) = d;
		return 0;
	}
	case K_ENUM: {
		int v;
		if (parse_enum(kp->e, val, &v) < 0 &&
		    (kp->e != gpu_e_coalesce || coalesce_number(val, &v) < 0))
			return bad(err, len, k, val, NULL);
		*(int *)field(c, k) = v;
		return 0;
	}
	case K_LIST:
		return set_list(c, k, val, err, len);
	case K_MAP: {
		struct mapping m;
		char why[96];
		if (strlen(val) >= sizeof c->l2.mapping)
			return bad(err, len, k, val, "too long");
		if (gpu_mapping_parse(val, &m, why, sizeof why) < 0)
			return bad(err, len, k, val, why);
		strcpy(field(c, k), val);
		return 0;
	}
	case K_CACHE:
		break;
	}
	return -1;
}

int gc_gpu_set(gc_gpu_config *c, const char *key, const char *val, int line, char *err,
	       size_t len)
{
	int k = gc_gpu_key_find(key);
	if (k < 0)
		return gpu_msgf(err, len, "unknown key '%s'", key);
	/* Work on a copy, so a bad value leaves the layer as it was. */
	gc_gpu_config tmp = *c;
	if (gpu_keys[k].type == K_CACHE) {
		if (set_cache(&tmp, k, val, line, err, len) < 0)
			return -1;
	} else if (set_value(&tmp, k, val, err, len) < 0 ||
		   mark(&tmp, k, k, line, err, len) < 0) {
		return -1;
	}
	*c = tmp;
	return 0;
}

int gc_gpu_format(const gc_gpu_config *c, int k, char *buf, size_t len)
{
	const struct key *kp = &gpu_keys[k];
	const void *f = cfield(c, k);
	switch (kp->type) {
	case K_NAME:
	case K_TEXT:
	case K_MAP:
		return snprintf(buf, len, "%s", (const char *)f);
	case K_CC:
		return snprintf(buf, len, "%u.%u", *(const unsigned *)f / 10,
				*(const unsigned *)f % 10);
	case K_UINT:
		return snprintf(buf, len, "%u", *(const unsigned *)f);
	case K_SIZE:
		gpu_fmt_size(buf, len, *(const uint64_t *)f);
		return (int)strlen(buf);
	case K_REAL:
		gpu_fmt_real(buf, len, *(const double *)f);
		return (int)strlen(buf);
	case K_ENUM:
		return snprintf(buf, len, "%s", gpu_enum_name(kp->e, *(const int *)f));
	case K_LIST: {
		if (!c->sm.noptions)
			return snprintf(buf, len, "none");
		size_t n = 0;
		buf[0] = 0;
		for (int i = 0; i < c->sm.noptions && n < len; i++) {
			char s[32];
			gpu_fmt_size(s, sizeof s, c->sm.options[i]);
			n += (size_t)snprintf(buf + n, len - n, "%s%s", i ? "," : "", s);
		}
		return (int)strlen(buf);
	}
	case K_CACHE:
		break;
	}
	return -1;
}

char *gc_gpu_text(const gc_gpu_config *c, const char *prefix, const char *sep)
{
	size_t cap = 8192, n = 0;
	char *s = malloc(cap), val[512];
	if (!s)
		return NULL;
	s[0] = 0;
	for (int k = 0; k < NKEYS; k++) {
		if (gpu_keys[k].flags & F_PSEUDO)
			continue;
		gc_gpu_format(c, k, val, sizeof val);
		size_t need = strlen(prefix) + strlen(gpu_keys[k].name) + strlen(sep) + strlen(val) + 2;
		if (n + need >= cap) {
			cap = 2 * cap + need;
			char *t = realloc(s, cap);
			if (!t) {
				free(s);
				return NULL;
			}
			s = t;
		}
		n += (size_t)snprintf(s + n, cap - n, "%s%s%s%s\n", prefix, gpu_keys[k].name, sep, val);
	}
	return s;
}

/* ---- coalescing --------------------------------------------------------- */

int gc_gpu_coalesce_sectored(const gc_gpu_config *c)
{
	return c->coalesce >= GC_COALESCE_MAXWELL;
}
