/*
 * metrics.c - the stages' --stats JSON as Nsight Compute metrics and
 * GPGPU-Sim log lines, and predicted against an ncu --csv export
 * (metrics.h).
 *
 * The JSON keys are read through one table (keys[]): a key renamed in a
 * stage is one line here, and both names can be listed.  Kernel lists are
 * "kernels" (or the older "per_kernel"), per-unit lists "per_sm" (gc-l1)
 * and "per_slice" or "per_bank" (gc-l2), for the run and in a kernel's
 * element (the kernel's own counts by unit); an element's "id", "name"
 * and unit number ("sm", "slice", "bank") are read by name.
 *
 * The mapping to the field's counters is defs[] (ncu) and accelsim()'s
 * classes; gc-stats(1) and DESIGN-NOTES.md say where they differ.
 */
#include "report/metrics.h"
#include "report/jsonflat.h"
#include "base/grow.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ---- the counters read ------------------------------------------------------ */

enum { ST_L1, ST_L2, ST_DRAM, NSTAGES };
static const char *const tools[NSTAGES] = {"gc-l1", "gc-l2", "gc-dram"};

/* Sector fields of one operation, at OPF(op, k): op 0 loads, 1 stores,
 * 2 atomics. */
enum { K_REQ, K_HITS, K_LINE, K_SECMISS, K_MERGED, K_HW, K_RESFAIL, NK };
#define OPF(op, k) ((op) * NK + (k))
enum {
	F_SEC_REQ = 3 * NK, F_SEC_HITS,
	F_INST_LD, F_INST_ST, F_INST_AT,
	F_READS, F_WRITES, F_SECTOR, F_L2_DRAM_READS, F_L2_DRAM_WRITES,
	NF
};

#define L1 (1u << ST_L1)
#define L2 (1u << ST_L2)
#define DR (1u << ST_DRAM)

/* The keys: a path below the document, a kernel or a unit, the stages
 * whose JSON has it, and the field it fills.  Old and new names may both
 * be listed. */
static const struct key {
	const char *path;
	unsigned tools;
	int field;
} keys[] = {
	{"sectors.requested", L1 | L2, F_SEC_REQ},
	{"sectors.hits", L1 | L2, F_SEC_HITS},
#define OPKEYS(opname, op)                                                   \
	{"sectors." opname ".requested", L1 | L2, OPF(op, K_REQ)},           \
	{"sectors." opname ".hits", L1 | L2, OPF(op, K_HITS)},               \
	{"sectors." opname ".line_misses", L1 | L2, OPF(op, K_LINE)},        \
	{"sectors." opname ".sector_misses", L1 | L2, OPF(op, K_SECMISS)},   \
	{"sectors." opname ".merged", L1 | L2, OPF(op, K_MERGED)},           \
	{"sectors." opname ".hardware_hits", L2, OPF(op, K_HW)},             \
	{"sectors." opname ".reservation_fails", L1 | L2, OPF(op, K_RESFAIL)}
	OPKEYS("loads", 0),
	OPKEYS("stores", 1),
	OPKEYS("atomics", 2),
#undef OPKEYS
	{"instructions.loads", L1, F_INST_LD},
	{"instructions.stores", L1, F_INST_ST},
	{"instructions.atomics", L1, F_INST_AT},
	{"reads", DR, F_READS},
	{"writes", DR, F_WRITES},
	{"config.sector", L2 | DR, F_SECTOR},
	{"dram_reads", L2, F_L2_DRAM_READS},
	{"dram_writes", L2, F_L2_DRAM_WRITES},
};
#define NKEYS (sizeof keys / sizeof keys[0])

/* The lists: kernels, and the per-unit lists with their number key. */
static const char *const kernel_lists[] = {"kernels", "per_kernel"};
static const char *const unit_lists[] = {"per_sm", "per_slice", "per_bank"};
static const char *const unit_keys[] = {"sm", "slice", "bank"};

struct unit {
	uint64_t v[NF];
	uint64_t seen;  /* bit f: field f was read */
	uint64_t id;    /* a kernel's id, a unit's number */
	char *name;
	struct unit *u; /* a kernel's units, by index in its list */
	size_t nu;
};

struct stage {
	char *file;
	struct unit tot;
	struct unit *k, *u; /* kernels, units, by index in their list */
	size_t nk, nu;
};

struct gc_metrics {
	struct stage st[NSTAGES];
	int have[NSTAGES];
};

gc_metrics *gc_metrics_new(void)
{
	return calloc(1, sizeof(gc_metrics));
}

static void free_units(struct unit *u, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(u[i].name);
		free_units(u[i].u, u[i].nu);
	}
	free(u);
}

void gc_metrics_free(gc_metrics *M)
{
	if (!M)
		return;
	for (int s = 0; s < NSTAGES; s++) {
		free(M->st[s].file);
		free(M->st[s].tot.name);
		free_units(M->st[s].k, M->st[s].nk);
		free_units(M->st[s].u, M->st[s].nu);
	}
	free(M);
}

static int has(const struct unit *u, int f)
{
	return (u->seen >> f) & 1;
}

/* ---- reading a --stats file ---------------------------------------------------- */

struct reader {
	gc_metrics *M;
	int stage;        /* -1 until "tool" */
	char *err;
	size_t errlen;
	int oom;
};

/* Element n of list *a (of *n), made on first use; NULL when out of memory. */
static struct unit *element(struct unit **a, size_t *n, size_t i)
{
	if (i >= 1u << 20)
		return NULL;
	if (i >= *n) {
		struct unit *b = realloc(*a, (i + 1) * sizeof *b);
		if (!b)
			return NULL;
		memset(b + *n, 0, (i + 1 - *n) * sizeof *b);
		*a = b;
		*n = i + 1;
	}
	return &(*a)[i];
}

/* If path is "LIST.N.rest" for a LIST of names[0..n): its index, rest in
 * *rest; else -1. */
static long list_index(const char *path, const char *const *names, size_t n, const char **rest)
{
	for (size_t i = 0; i < n; i++) {
		size_t len = strlen(names[i]);
		if (strncmp(path, names[i], len) || path[len] != '.' || !isdigit((unsigned char)path[len + 1]))
			continue;
		char *end;
		long x = strtol(path + len + 1, &end, 10);
		if (*end != '.')
			return -1;
		*rest = end + 1;
		return x;
	}
	return -1;
}

/* If path is "LIST.rest.N" for a unit LIST written as columns (a
 * kernel's units, unitjson.h): N, rest copied to col and *rest pointing
 * at it; else -1. */
static long column_index(const char *path, char *col, const char **rest)
{
	for (size_t i = 0; i < 3; i++) {
		size_t len = strlen(unit_lists[i]);
		if (strncmp(path, unit_lists[i], len) || path[len] != '.')
			continue;
		const char *c = path + len + 1, *dot = strrchr(c, '.');
		if (!dot || !isdigit((unsigned char)dot[1]) || (size_t)(dot - c) >= GC_JSONFLAT_PATH)
			return -1;
		char *end;
		long x = strtol(dot + 1, &end, 10);
		if (*end)
			return -1;
		memcpy(col, c, (size_t)(dot - c));
		col[dot - c] = 0;
		*rest = col;
		return x;
	}
	return -1;
}

static int on_value(void *ctx, const char *path, const char *value, int type, int arrays)
{
	struct reader *r = ctx;
	(void)arrays;
	if (strcmp(path, "tool") == 0) {
		for (int s = 0; s < NSTAGES; s++)
			if (type == GC_JF_STRING && strcmp(value, tools[s]) == 0)
				r->stage = s;
		if (r->stage < 0) {
			snprintf(r->err, r->errlen, "tool: '%s' is not gc-l1, gc-l2 or gc-dram", value);
			return 1;
		}
		if (r->M->have[r->stage]) {
			snprintf(r->err, r->errlen, "a second %s file (one of each stage)", value);
			return 1;
		}
		r->M->have[r->stage] = 1;
		return 0;
	}
	if (r->stage < 0)
		return 0;
	struct stage *st = &r->M->st[r->stage];
	struct unit *u = &st->tot;
	const char *rest = path;
	int unit_list = 0;
	long i = list_index(path, kernel_lists, 2, &rest);
	char col[GC_JSONFLAT_PATH];
	if (i >= 0) {
		u = element(&st->k, &st->nk, (size_t)i);
		if (u && (i = column_index(rest, col, &rest)) >= 0) {
			u = element(&u->u, &u->nu, (size_t)i);
			unit_list = 1;
		}
	} else if ((i = list_index(path, unit_lists, 3, &rest)) >= 0) {
		u = element(&st->u, &st->nu, (size_t)i);
		unit_list = 1;
	}
	if (!u) {
		r->oom = 1;
		return 1;
	}
	if (u != &st->tot) {
		if (strcmp(rest, "name") == 0 && type == GC_JF_STRING) {
			free(u->name);
			u->name = strdup(value);
			if (!u->name) {
				r->oom = 1;
				return 1;
			}
			return 0;
		}
		int idkey = strcmp(rest, "id") == 0;
		for (size_t k = 0; unit_list && k < 3; k++)
			idkey |= strcmp(rest, unit_keys[k]) == 0;
		if (idkey && type == GC_JF_NUMBER) {
			u->id = strtoull(value, NULL, 10);
			return 0;
		}
	}
	if (type != GC_JF_NUMBER)
		return 0;
	for (size_t k = 0; k < NKEYS; k++)
		if ((keys[k].tools >> r->stage & 1) && strcmp(rest, keys[k].path) == 0) {
			u->v[keys[k].field] = strtoull(value, NULL, 10);
			u->seen |= UINT64_C(1) << keys[k].field;
		}
	return 0;
}

int gc_metrics_add(gc_metrics *M, const char *name, const char *text, size_t len, char *err,
		   size_t errlen)
{
	char why[256] = "";
	struct reader r = {M, -1, why, sizeof why, 0};
	int rc = gc_jsonflat(text, len, on_value, &r, why, sizeof why);
	if (r.oom) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	if (rc != 0) {
		snprintf(err, errlen, "%s: %s", name, why);
		return -1;
	}
	if (r.stage < 0) {
		snprintf(err, errlen, "%s: no \"tool\" key: not the --stats of gc-l1, gc-l2 or "
			 "gc-dram", name);
		return -1;
	}
	M->st[r.stage].file = strdup(name);
	if (!M->st[r.stage].file) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	return 0;
}

/* ---- the kernels, over the stages ------------------------------------------------ */

/* Kernels match by their place in the lists (launch order); their ids
 * must agree. */
static int nkernels(const gc_metrics *M, char *err, size_t errlen)
{
	size_t n = 0;
	int first = -1;
	for (int s = 0; s < NSTAGES; s++) {
		if (!M->have[s])
			continue;
		if (first < 0) {
			first = s;
			n = M->st[s].nk;
			continue;
		}
		const struct stage *a = &M->st[first], *b = &M->st[s];
		if (b->nk != n) {
			snprintf(err, errlen, "%s has %zu kernels, %s %zu: not the same run", a->file,
				 n, b->file, b->nk);
			return -1;
		}
		for (size_t i = 0; i < n; i++)
			if (a->k[i].id != b->k[i].id) {
				snprintf(err, errlen, "kernel %zu is id %llu in %s, %llu in %s: not the "
					 "same run", i + 1, (unsigned long long)a->k[i].id, a->file,
					 (unsigned long long)b->k[i].id, b->file);
				return -1;
			}
	}
	if (first < 0) {
		snprintf(err, errlen, "no --stats file of gc-l1, gc-l2 or gc-dram");
		return -1;
	}
	return (int)n;
}

/* Stage s's counts for kernel i (-1: the whole run), or NULL. */
static const struct unit *unit_of(const gc_metrics *M, int s, long i)
{
	if (!M->have[s])
		return NULL;
	if (i < 0)
		return &M->st[s].tot;
	return (size_t)i < M->st[s].nk ? &M->st[s].k[i] : NULL;
}

static const char *kernel_name(const gc_metrics *M, long i)
{
	for (int s = 0; s < NSTAGES; s++) {
		const struct unit *u = unit_of(M, s, i);
		if (u && u->name)
			return u->name;
	}
	return "-";
}

static uint64_t kernel_id(const gc_metrics *M, long i)
{
	for (int s = 0; s < NSTAGES; s++) {
		const struct unit *u = unit_of(M, s, i);
		if (u)
			return u->id;
	}
	return 0;
}

/* ---- Nsight Compute ----------------------------------------------------------- */

enum kind { COUNT, PCT, RATIO, BYTES };

/* A metric: sum(num) [/ sum(den)]; BYTES: sum(num) x the stage's sector
 * bytes.  alt: the stage and fields that stand in when `stage` was not
 * given (DRAM traffic from gc-l2's counts). */
static const struct def {
	const char *name, *unit;
	int stage, kind;
	int num[3], den[3];
	int alt, altnum;
} defs[] = {
	{"l1tex__t_sector_hit_rate.pct", "%", ST_L1, PCT,
	 {OPF(0, K_HITS), OPF(1, K_HITS), -1}, {OPF(0, K_REQ), OPF(1, K_REQ), -1}, -1, -1},
	{"l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct", "%", ST_L1, PCT,
	 {OPF(0, K_HITS), -1}, {OPF(0, K_REQ), -1}, -1, -1},
	{"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", "sector", ST_L1, COUNT,
	 {OPF(0, K_REQ), -1}, {-1}, -1, -1},
	{"l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum", "sector", ST_L1, COUNT,
	 {OPF(0, K_HITS), -1}, {-1}, -1, -1},
	{"l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", "sector", ST_L1, COUNT,
	 {OPF(1, K_REQ), -1}, {-1}, -1, -1},
	{"l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum", "sector", ST_L1, COUNT,
	 {OPF(2, K_REQ), -1}, {-1}, -1, -1},
	{"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", "request", ST_L1, COUNT,
	 {F_INST_LD, -1}, {-1}, -1, -1},
	{"l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", "request", ST_L1, COUNT,
	 {F_INST_ST, -1}, {-1}, -1, -1},
	{"l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum", "request", ST_L1, COUNT,
	 {F_INST_AT, -1}, {-1}, -1, -1},
	{"l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_ld.ratio", "sector",
	 ST_L1, RATIO, {OPF(0, K_REQ), -1}, {F_INST_LD, -1}, -1, -1},
	{"l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_st.ratio", "sector",
	 ST_L1, RATIO, {OPF(1, K_REQ), -1}, {F_INST_ST, -1}, -1, -1},
	{"lts__t_sector_hit_rate.pct", "%", ST_L2, PCT,
	 {OPF(0, K_HW), OPF(1, K_HW), OPF(2, K_HW)}, {OPF(0, K_REQ), OPF(1, K_REQ), OPF(2, K_REQ)},
	 -1, -1},
	{"lts__t_sectors_srcunit_tex_op_read.sum", "sector", ST_L2, COUNT,
	 {OPF(0, K_REQ), -1}, {-1}, -1, -1},
	{"lts__t_sectors_srcunit_tex_op_write.sum", "sector", ST_L2, COUNT,
	 {OPF(1, K_REQ), -1}, {-1}, -1, -1},
	{"lts__t_sectors_srcunit_tex_op_atom.sum", "sector", ST_L2, COUNT,
	 {OPF(2, K_REQ), -1}, {-1}, -1, -1},
	{"lts__t_sector_op_read_hit_rate.pct", "%", ST_L2, PCT,
	 {OPF(0, K_HW), -1}, {OPF(0, K_REQ), -1}, -1, -1},
	{"lts__t_sector_op_write_hit_rate.pct", "%", ST_L2, PCT,
	 {OPF(1, K_HW), -1}, {OPF(1, K_REQ), -1}, -1, -1},
	{"dram__bytes_read.sum", "byte", ST_DRAM, BYTES, {F_READS, -1}, {-1}, ST_L2,
	 F_L2_DRAM_READS},
	{"dram__bytes_write.sum", "byte", ST_DRAM, BYTES, {F_WRITES, -1}, {-1}, ST_L2,
	 F_L2_DRAM_WRITES},
};
#define NDEFS (sizeof defs / sizeof defs[0])

/* Sum of fields f[] (ended by -1, at most 3) of u; 0 when one is missing. */
static int sum(const struct unit *u, const int *f, uint64_t *out)
{
	*out = 0;
	for (int i = 0; i < 3 && f[i] >= 0; i++) {
		if (!has(u, f[i]))
			return 0;
		*out += u->v[f[i]];
	}
	return 1;
}

/* Metric d for kernel i (-1: all): 1 and *v, 0 when the files do not give
 * it, -1 when its denominator is 0 (n/a). */
static int metric(const gc_metrics *M, const struct def *d, long i, double *v)
{
	const struct unit *u = unit_of(M, d->stage, i);
	int num[3] = {-1, -1, -1};
	memcpy(num, d->num, sizeof num);
	if (!u && d->alt >= 0) {
		u = unit_of(M, d->alt, i);
		num[0] = d->altnum;
		num[1] = -1;
	}
	if (!u)
		return 0;
	uint64_t n, q;
	if (!sum(u, num, &n))
		return 0;
	switch (d->kind) {
	case COUNT:
		*v = (double)n;
		return 1;
	case BYTES: {
		/* the stage's sector bytes, in its totals */
		const struct unit *t = u == unit_of(M, d->stage, i) ? unit_of(M, d->stage, -1)
								      : unit_of(M, d->alt, -1);
		uint64_t sector = t && has(t, F_SECTOR) ? t->v[F_SECTOR] : 32;
		*v = (double)n * (double)sector;
		return 1;
	}
	default:
		if (!sum(u, d->den, &q))
			return 0;
		if (!q)
			return -1;
		*v = (double)n / (double)q * (d->kind == PCT ? 100.0 : 1.0);
		return 1;
	}
}

static void put_value(FILE *f, const struct def *d, int rc, double v)
{
	if (rc < 0)
		fprintf(f, "n/a");
	else if (d->kind == COUNT || d->kind == BYTES)
		fprintf(f, "%.0f", v);
	else
		fprintf(f, "%.2f", v);
}

/* One block: kernel i's metrics (or the run's). */
static void ncu_block(const gc_metrics *M, FILE *f, long i)
{
	for (size_t k = 0; k < NDEFS; k++) {
		double v;
		int rc = metric(M, &defs[k], i, &v);
		if (!rc)
			continue;
		fprintf(f, "    %-70s %-8s ", defs[k].name, defs[k].unit);
		put_value(f, &defs[k], rc, v);
		putc('\n', f);
	}
	/* Our model's own class, where it is not the hardware's count. */
	const struct unit *u = unit_of(M, ST_L2, i);
	uint64_t h, q;
	int hits[2] = {OPF(1, K_HITS), -1}, req[2] = {OPF(1, K_REQ), -1};
	if (u && sum(u, hits, &h) && sum(u, req, &q) && q)
		fprintf(f, "    %-70s %-8s %.2f\n",
			"gc: L2 write sector hit rate, model (present at the lookup)", "%",
			100.0 * (double)h / (double)q);
}

int gc_metrics_ncu(const gc_metrics *M, FILE *f, char *err, size_t errlen)
{
	int n = nkernels(M, err, errlen);
	if (n < 0)
		return -1;
	for (long i = 0; i < n; i++) {
		fprintf(f, "  %s (%llu)\n", kernel_name(M, i), (unsigned long long)kernel_id(M, i));
		fprintf(f, "    %-70s %-8s %s\n", "Metric Name", "Unit", "Value");
		ncu_block(M, f, i);
	}
	fprintf(f, "  all kernels (%d)\n", n);
	fprintf(f, "    %-70s %-8s %s\n", "Metric Name", "Unit", "Value");
	ncu_block(M, f, -1);
	return 0;
}

/* ---- Accel-Sim / GPGPU-Sim ------------------------------------------------------- */

/* GPGPU-Sim's request statuses, in its order, and the access types we
 * model (GLOBAL_ACC_R: loads, GLOBAL_ACC_W: stores). */
enum { S_HIT, S_HIT_RESERVED, S_MISS, S_RESERVATION_FAIL, S_SECTOR_MISS, S_MSHR_HIT, NSTATUS };
static const char *const status_names[NSTATUS] = {"HIT", "HIT_RESERVED", "MISS",
						  "RESERVATION_FAIL", "SECTOR_MISS", "MSHR_HIT"};
static const char *const type_names[2] = {"GLOBAL_ACC_R", "GLOBAL_ACC_W"};

/* The classes of operation op (0 loads, 1 stores) in u, added to c[]:
 * HIT the sectors present, HIT_RESERVED and MSHR_HIT the merged ones
 * (timing; GPGPU-Sim counts both for a sector in flight), MISS the line
 * misses, SECTOR_MISS the rest; RESERVATION_FAIL the failed attempts
 * (gc-l1 --timing: an instruction cancelled for want of an MSHR). */
static void classes(const struct unit *u, int op, uint64_t c[NSTATUS])
{
	const uint64_t *v = u->v + OPF(op, 0);
	c[S_HIT] += v[K_HITS];
	c[S_HIT_RESERVED] += v[K_MERGED];
	c[S_MISS] += v[K_LINE];
	c[S_SECTOR_MISS] += v[K_REQ] - v[K_HITS] - v[K_LINE] - v[K_MERGED];
	c[S_MSHR_HIT] += v[K_MERGED];
	c[S_RESERVATION_FAIL] += v[K_RESFAIL];
}

static int has_classes(const struct unit *u)
{
	for (int op = 0; op < 2; op++)
		for (int k = K_REQ; k <= K_MERGED; k++)
			if (!has(u, OPF(op, k)))
				return 0;
	return 1;
}

/* Sums over kernels [0, upto] (cumulative, as the log after a kernel) or
 * the totals (upto < 0) of stage s: the classes by type. */
static int cumulate(const gc_metrics *M, int s, long upto, uint64_t c[2][NSTATUS])
{
	memset(c, 0, 2 * NSTATUS * sizeof c[0][0]);
	long first = upto < 0 ? -1 : 0, last = upto < 0 ? -1 : upto;
	for (long i = first; i <= last; i++) {
		const struct unit *u = unit_of(M, s, i);
		if (!u || !has_classes(u))
			return 0;
		for (int op = 0; op < 2; op++)
			classes(u, op, c[op]);
	}
	return 1;
}

/* Field f of stage s summed over kernels [0, upto], or its total (upto
 * < 0): 0 when a file lacks it. */
static int cum_field(const gc_metrics *M, int s, long upto, int f, uint64_t *v)
{
	*v = 0;
	long first = upto < 0 ? -1 : 0, last = upto < 0 ? -1 : upto;
	for (long i = first; i <= last; i++) {
		const struct unit *u = unit_of(M, s, i);
		if (!u || !has(u, f))
			return 0;
		*v += u->v[f];
	}
	return 1;
}

/* accesses = HIT + HIT_RESERVED + MISS + SECTOR_MISS, misses = MISS +
 * SECTOR_MISS (GPGPU-Sim's cache_sub_stats). */
static uint64_t accesses(const uint64_t c[NSTATUS])
{
	return c[S_HIT] + c[S_HIT_RESERVED] + c[S_MISS] + c[S_SECTOR_MISS];
}

static uint64_t misses(const uint64_t c[NSTATUS])
{
	return c[S_MISS] + c[S_SECTOR_MISS];
}

static void totals(FILE *f, const char *tab, const char *cache, uint64_t c[2][NSTATUS])
{
	uint64_t a = accesses(c[0]) + accesses(c[1]), m = misses(c[0]) + misses(c[1]);
	fprintf(f, "%s%s_total_cache_accesses = %llu\n", tab, cache, (unsigned long long)a);
	fprintf(f, "%s%s_total_cache_misses = %llu\n", tab, cache, (unsigned long long)m);
	if (a)
		fprintf(f, "%s%s_total_cache_miss_rate = %.4f\n", tab, cache,
			(double)m / (double)a);
	fprintf(f, "%s%s_total_cache_pending_hits = %llu\n", tab, cache,
		(unsigned long long)(c[0][S_HIT_RESERVED] + c[1][S_HIT_RESERVED]));
	fprintf(f, "%s%s_total_cache_reservation_fails = %llu\n", tab, cache,
		(unsigned long long)(c[0][S_RESERVATION_FAIL] + c[1][S_RESERVATION_FAIL]));
}

static void breakdown(FILE *f, const char *name, uint64_t c[2][NSTATUS])
{
	for (int t = 0; t < 2; t++)
		for (int s = 0; s < NSTATUS; s++)
			fprintf(f, "\t%s[%s][%s] = %llu\n", name, type_names[t], status_names[s],
				(unsigned long long)c[t][s]);
	for (int t = 0; t < 2; t++)
		if (accesses(c[t]))
			fprintf(f, "\t%s[%s][TOTAL_ACCESS] = %llu\n", name, type_names[t],
				(unsigned long long)accesses(c[t]));
}

/* A per-unit line: Access, Miss, Miss_rate, Pending_hits,
 * Reservation_fails of unit u (its sectors). */
static void unit_line(FILE *f, const char *fmt_name, const struct unit *u)
{
	uint64_t c[2][NSTATUS];
	memset(c, 0, sizeof c);
	uint64_t a, m;
	if (has_classes(u)) {
		for (int op = 0; op < 2; op++)
			classes(u, op, c[op]);
		a = accesses(c[0]) + accesses(c[1]);
		m = misses(c[0]) + misses(c[1]);
	} else {
		/* a unit with its sectors only (gc-l2's slices): nothing merged */
		a = u->v[F_SEC_REQ];
		m = a - u->v[F_SEC_HITS];
	}
	char rate[32];
	/* 0/0: what GPGPU-Sim's printf of a double 0/0 writes */
	snprintf(rate, sizeof rate, a ? "%.3f" : "-nan", a ? (double)m / (double)a : 0.0);
	fprintf(f, fmt_name, (unsigned long long)u->id);
	fprintf(f, ": Access = %llu, Miss = %llu, Miss_rate = %s, Pending_hits = %llu, "
		"Reservation_fails = %llu\n", (unsigned long long)a, (unsigned long long)m, rate,
		(unsigned long long)(c[0][S_HIT_RESERVED] + c[1][S_HIT_RESERVED]),
		(unsigned long long)(c[0][S_RESERVATION_FAIL] + c[1][S_RESERVATION_FAIL]));
}

/* The per-unit lines of stage s: the run's units (upto < 0), or their
 * counts summed over kernels [0, upto] as the log prints them after a
 * kernel (cum: the sums so far, by the run's units; kernel upto is added
 * here).  A stage whose kernels carry no units has them for the run
 * only; one whose run's units have no classes (gc-l2's slices) has the
 * sums over all kernels for the run. */
static void unit_lines(const gc_metrics *M, FILE *f, int s, long upto, struct unit *cum,
		       const char *fmt)
{
	const struct stage *st = &M->st[s];
	if (upto < 0) {
		for (size_t i = 0; i < st->nu; i++)
			unit_line(f, fmt, cum && !has_classes(&st->u[i]) ? &cum[i] : &st->u[i]);
		return;
	}
	if (!cum)
		return;
	const struct unit *k = &st->k[upto];
	for (size_t i = 0; i < k->nu; i++)
		for (size_t j = 0; j < st->nu; j++)
			if (cum[j].id == k->u[i].id) {
				for (int x = 0; x < NF; x++)
					cum[j].v[x] += k->u[i].v[x];
				cum[j].seen |= k->u[i].seen;
				break;
			}
	for (size_t j = 0; j < st->nu; j++)
		unit_line(f, fmt, &cum[j]);
}

/* Stage s's sums so far by unit (zero) into *c when its kernels carry
 * units, else NULL (the caller frees it): 0, or -1 when out of memory. */
static int cum_units(const gc_metrics *M, int s, struct unit **c)
{
	const struct stage *st = &M->st[s];
	int any = 0;
	*c = NULL;
	for (size_t i = 0; i < st->nk; i++)
		any |= st->k[i].nu > 0;
	if (!any || !st->nu)
		return 0;
	*c = calloc(st->nu, sizeof **c);
	if (!*c)
		return -1;
	for (size_t j = 0; j < st->nu; j++)
		(*c)[j].id = st->u[j].id;
	return 0;
}

/* The statistics after kernel `upto` (totals so far, the per-unit lines
 * too when the kernels carry them: cum[] of unit_lines, for L1 and L2),
 * or of the whole run (upto < 0). */
static void accelsim_block(const gc_metrics *M, FILE *f, long upto, struct unit *cum[2])
{
	uint64_t c[2][NSTATUS];
	if (cumulate(M, ST_L1, upto, c)) {
		fprintf(f, "L1D_cache:\n");
		unit_lines(M, f, ST_L1, upto, cum[0], "\tL1D_cache_core[%llu]");
		totals(f, "\t", "L1D", c);
		fprintf(f, "\nTotal_core_cache_stats:\n");
		breakdown(f, "Total_core_cache_stats_breakdown", c);
	}
	/* DRAM sectors read and written (gc-dram's, else gc-l2's), as
	 * GPGPU-Sim's memory statistics print them */
	int ds = M->have[ST_DRAM] ? ST_DRAM : ST_L2;
	int fr = ds == ST_DRAM ? F_READS : F_L2_DRAM_READS;
	uint64_t rw[2];
	if (cum_field(M, ds, upto, fr, &rw[0]) && cum_field(M, ds, upto, fr + 1, &rw[1])) {
		fprintf(f, "total dram reads = %llu\n", (unsigned long long)rw[0]);
		fprintf(f, "total dram writes = %llu\n", (unsigned long long)rw[1]);
	}
	if (cumulate(M, ST_L2, upto, c)) {
		fprintf(f, "\n========= L2 cache stats =========\n");
		unit_lines(M, f, ST_L2, upto, cum[1], "L2_cache_bank[%llu]");
		totals(f, "", "L2", c);
		fprintf(f, "L2_total_cache_breakdown:\n");
		breakdown(f, "L2_cache_stats_breakdown", c);
	}
}

int gc_metrics_accelsim(const gc_metrics *M, FILE *f, char *err, size_t errlen)
{
	int n = nkernels(M, err, errlen);
	if (n < 0)
		return -1;
	if (!M->have[ST_L1] && !M->have[ST_L2]) {
		snprintf(err, errlen, "--metrics accelsim: no gc-l1 or gc-l2 --stats file");
		return -1;
	}
	struct unit *cum[2];
	if (cum_units(M, ST_L1, &cum[0]) < 0 || cum_units(M, ST_L2, &cum[1]) < 0) {
		free(cum[0]);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (long i = 0; i < n; i++) {
		fprintf(f, "kernel_name = %s \n", kernel_name(M, i));
		fprintf(f, "kernel_launch_uid = %llu \n", (unsigned long long)kernel_id(M, i));
		accelsim_block(M, f, i, cum);
		putc('\n', f);
	}
	fprintf(f, "all kernels\n");
	accelsim_block(M, f, -1, cum);
	free(cum[0]);
	free(cum[1]);
	return 0;
}

/* ---- ncu --csv --------------------------------------------------------------- */

/* A CSV reader: RFC 4180 fields (quoted with "" inside, or bare), rows
 * ended by LF or CRLF; a quoted field may hold line ends.  Fields point
 * into a buffer of the caller's (decoded in place). */
struct csv {
	const char *name, *s, *end;
	size_t line;      /* of the row read last */
	size_t next_line;
	char *buf;        /* decoded fields, NUL-separated */
	size_t cap;
	char **field;
	size_t nf, fcap;
	char *err;
	size_t errlen;
};

/* The next row: 1, 0 at the end, -1 on an error. */
static int csv_row(struct csv *c)
{
	if (c->s >= c->end)
		return 0;
	c->line = c->next_line;
	c->nf = 0;
	size_t need = (size_t)(c->end - c->s) + 1;
	if (need > c->cap) {
		char *b = realloc(c->buf, need);
		if (!b)
			goto oom;
		c->buf = b;
		c->cap = need;
	}
	char *o = c->buf;
	for (;;) {
		if (c->nf == c->fcap) {
			char **f = gc_grow(c->field, &c->fcap, c->nf + 1, sizeof *f, 32);
			if (!f)
				goto oom;
			c->field = f;
		}
		c->field[c->nf++] = o;
		if (c->s < c->end && *c->s == '"') {
			size_t at = c->next_line;
			c->s++;
			for (;;) {
				if (c->s >= c->end) {
					snprintf(c->err, c->errlen, "%s: line %zu: field %zu: a quoted "
						 "field without its closing quote", c->name, at, c->nf);
					return -1;
				}
				if (*c->s == '"') {
					if (c->s + 1 < c->end && c->s[1] == '"') {
						*o++ = '"';
						c->s += 2;
						continue;
					}
					c->s++;
					break;
				}
				if (*c->s == '\n')
					c->next_line++;
				*o++ = *c->s++;
			}
			if (c->s < c->end && *c->s != ',' && *c->s != '\n' && *c->s != '\r') {
				snprintf(c->err, c->errlen, "%s: line %zu: field %zu: text after the "
					 "closing quote", c->name, c->next_line, c->nf);
				return -1;
			}
		} else {
			while (c->s < c->end && *c->s != ',' && *c->s != '\n' && *c->s != '\r') {
				if (*c->s == '"') {
					snprintf(c->err, c->errlen, "%s: line %zu: field %zu: a quote "
						 "inside an unquoted field", c->name, c->next_line,
						 c->nf);
					return -1;
				}
				*o++ = *c->s++;
			}
		}
		*o++ = 0;
		if (c->s < c->end && *c->s == ',') {
			c->s++;
			continue;
		}
		if (c->s < c->end && *c->s == '\r')
			c->s++;
		if (c->s < c->end && *c->s == '\n')
			c->s++;
		c->next_line++;
		return 1;
	}
oom:
	snprintf(c->err, c->errlen, "out of memory");
	return -1;
}

/* A measured kernel: its ID and name, the line it began on, and the
 * values of the metrics we predict (by index in defs). */
struct meas {
	long id;
	char *name;
	size_t line;
	double v[NDEFS];
	unsigned char have[NDEFS];
};

struct cmp {
	struct meas *k;
	size_t n, cap;
};

static void cmp_free(struct cmp *m)
{
	for (size_t i = 0; i < m->n; i++)
		free(m->k[i].name);
	free(m->k);
}

static int column(const struct csv *c, char **hdr, size_t n, const char *want, int must)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(hdr[i], want) == 0)
			return (int)i;
	if (must)
		snprintf(c->err, c->errlen, "%s: line %zu: header: no column \"%s\"", c->name,
			 c->line, want);
	return -1;
}

static int def_index(const char *name)
{
	for (size_t i = 0; i < NDEFS; i++)
		if (strcmp(defs[i].name, name) == 0)
			return (int)i;
	return -1;
}

/* A number as ncu writes it ("1,024", "19.40"), scaled by its unit to the
 * metric's (bytes: byte, Kbyte, Mbyte, Gbyte, Tbyte as powers of 1000). */
static int number(struct csv *c, const char *field, const char *text, const char *unit,
		  double *v)
{
	char tmp[64];
	size_t k = 0;
	for (const char *p = text; *p; p++)
		if (*p != ',' && k + 1 < sizeof tmp)
			tmp[k++] = *p;
	tmp[k] = 0;
	char *end;
	errno = 0;
	*v = strtod(tmp, &end);
	if (!k || *end || errno || !isfinite(*v)) {
		snprintf(c->err, c->errlen, "%s: line %zu: %s: '%s' is not a number", c->name,
			 c->line, field, text);
		return -1;
	}
	static const char *const scale[] = {"byte", "Kbyte", "Mbyte", "Gbyte", "Tbyte"};
	if (unit)
		for (int i = 0; i < 5; i++)
			if (strcmp(unit, scale[i]) == 0)
				*v *= pow(1000.0, i);
	return 0;
}

/* The kernel of ID text (a new one when not seen): NULL on an error. */
static struct meas *kernel_of(struct csv *c, struct cmp *m, const char *idtext,
			      const char *name)
{
	char *end;
	long id = strtol(idtext, &end, 10);
	if (!*idtext || *end || id < 0) {
		snprintf(c->err, c->errlen, "%s: line %zu: ID: '%s' is not a kernel ID", c->name,
			 c->line, idtext);
		return NULL;
	}
	for (size_t i = 0; i < m->n; i++)
		if (m->k[i].id == id)
			return &m->k[i];
	if (m->n == m->cap) {
		struct meas *k = gc_grow(m->k, &m->cap, m->n + 1, sizeof *k, 16);
		if (!k)
			goto oom;
		m->k = k;
	}
	struct meas *k = &m->k[m->n];
	memset(k, 0, sizeof *k);
	k->id = id;
	k->line = c->line;
	k->name = strdup(name);
	if (!k->name)
		goto oom;
	m->n++;
	return k;
oom:
	snprintf(c->err, c->errlen, "out of memory");
	return NULL;
}

/* The export: the details page (a row per kernel and metric: "ID",
 * "Kernel Name", "Metric Name", "Metric Unit", "Metric Value") or the
 * raw page (a row per kernel: "ID", "Kernel Name" and a column per
 * metric, a row of units first). */
static int read_csv(struct csv *c, struct cmp *m)
{
	int rc = csv_row(c);
	if (rc <= 0) {
		if (!rc)
			snprintf(c->err, c->errlen, "%s: line 1: header: the file is empty", c->name);
		return -1;
	}
	size_t nh = c->nf;
	char **hdr = malloc(nh * sizeof *hdr);
	int *mcol = malloc(nh * sizeof *mcol);
	char **units = calloc(nh, sizeof *units);
	if (!hdr || !mcol || !units) {
		free(hdr);
		free(mcol);
		free(units);
		snprintf(c->err, c->errlen, "out of memory");
		return -1;
	}
	int ret = -1;
	for (size_t i = 0; i < nh; i++) {
		hdr[i] = strdup(c->field[i]);
		if (!hdr[i]) {
			nh = i;
			snprintf(c->err, c->errlen, "out of memory");
			goto out;
		}
	}
	int cid = column(c, hdr, nh, "ID", 1);
	if (cid < 0)
		goto out;
	int cname = column(c, hdr, nh, "Kernel Name", 1);
	if (cname < 0)
		goto out;
	/* the details page when it has one of its metric columns */
	int cmetric = column(c, hdr, nh, "Metric Name", 0);
	int cunit = column(c, hdr, nh, "Metric Unit", 0);
	int cvalue = column(c, hdr, nh, "Metric Value", 0);
	if (cmetric >= 0 || cunit >= 0 || cvalue >= 0) {
		if ((cmetric = column(c, hdr, nh, "Metric Name", 1)) < 0 ||
		    (cunit = column(c, hdr, nh, "Metric Unit", 1)) < 0 ||
		    (cvalue = column(c, hdr, nh, "Metric Value", 1)) < 0)
			goto out;
	}
	for (size_t i = 0; i < nh; i++)
		mcol[i] = cmetric < 0 ? def_index(hdr[i]) : -1;
	int row = 0;
	while ((rc = csv_row(c)) > 0) {
		row++;
		if (c->nf == 1 && !c->field[0][0])
			continue; /* an empty line */
		if (c->nf != nh) {
			snprintf(c->err, c->errlen, "%s: line %zu: %zu fields, the header has %zu",
				 c->name, c->line, c->nf, nh);
			goto out;
		}
		if (cmetric < 0 && row == 1 && !c->field[cid][0]) {
			/* the raw page's units */
			for (size_t i = 0; i < nh; i++)
				if (!(units[i] = strdup(c->field[i]))) {
					snprintf(c->err, c->errlen, "out of memory");
					goto out;
				}
			continue;
		}
		struct meas *k = kernel_of(c, m, c->field[cid], c->field[cname]);
		if (!k)
			goto out;
		if (cmetric >= 0) {
			int d = def_index(c->field[cmetric]);
			if (d < 0)
				continue;
			if (number(c, "Metric Value", c->field[cvalue], c->field[cunit], &k->v[d]) < 0)
				goto out;
			k->have[d] = 1;
			continue;
		}
		for (size_t i = 0; i < nh; i++) {
			if (mcol[i] < 0 || !c->field[i][0] || strcmp(c->field[i], "n/a") == 0)
				continue;
			if (number(c, hdr[i], c->field[i], units[i], &k->v[mcol[i]]) < 0)
				goto out;
			k->have[mcol[i]] = 1;
		}
	}
	if (rc < 0)
		goto out;
	if (!m->n) {
		snprintf(c->err, c->errlen, "%s: line %zu: no kernel in the export", c->name,
			 c->line);
		goto out;
	}
	ret = 0;
out:
	for (size_t i = 0; i < nh; i++) {
		free(hdr[i]);
		free(units[i]);
	}
	free(hdr);
	free(mcol);
	free(units);
	return ret;
}

/* The function's name in a mangled (_Z<len><name>...) or demangled
 * ("void name<...>(args)", "ns::name(args)") kernel name, into out. */
static void base_name(const char *s, char *out, size_t len)
{
	const char *b = s, *e;
	if (strncmp(s, "_Z", 2) == 0 && isdigit((unsigned char)s[2])) {
		char *end;
		unsigned long n = strtoul(s + 2, &end, 10);
		if (n < len && strlen(end) >= n) {
			memcpy(out, end, n);
			out[n] = 0;
			return;
		}
	}
	if (strncmp(b, "void ", 5) == 0)
		b += 5;
	e = b + strcspn(b, "(<");
	for (const char *p = b; p < e; p++)
		if (p[0] == ':' && p[1] == ':')
			b = p + 2;
	size_t n = (size_t)(e - b) < len - 1 ? (size_t)(e - b) : len - 1;
	memcpy(out, b, n);
	out[n] = 0;
}

static int same_kernel(const char *ours, const char *theirs)
{
	if (strcmp(ours, theirs) == 0)
		return 1;
	char a[256], b[256];
	base_name(ours, a, sizeof a);
	base_name(theirs, b, sizeof b);
	return a[0] && strcmp(a, b) == 0;
}

int gc_metrics_compare(const gc_metrics *M, const char *name, const char *text, size_t len,
		       FILE *f, char *err, size_t errlen)
{
	int n = nkernels(M, err, errlen);
	if (n < 0)
		return -1;
	struct csv c = {name, text, text + len, 0, 1, NULL, 0, NULL, 0, 0, err, errlen};
	struct cmp m = {NULL, 0, 0};
	int ret = -1;
	if (read_csv(&c, &m) < 0)
		goto out;
	if (m.n != (size_t)n) {
		snprintf(err, errlen, "%s: %zu kernels, the --stats files %d (kernels match by "
			 "launch order: profile every launch, or give the stages those alone)",
			 name, m.n, n);
		goto out;
	}
	for (size_t i = 0; i < m.n; i++)
		if (!same_kernel(kernel_name(M, (long)i), m.k[i].name)) {
			snprintf(err, errlen, "%s: line %zu: Kernel Name: '%s' is not launch %zu of "
				 "the --stats files, %s", name, m.k[i].line, m.k[i].name, i + 1,
				 kernel_name(M, (long)i));
			goto out;
		}
	fprintf(f, "%-4s %-6s %-24s %-70s %14s %14s %12s\n", "id", "ncu_id", "kernel", "metric",
		"predicted", "measured", "error");
	size_t compared = 0;
	for (size_t i = 0; i < m.n; i++) {
		char base[25];
		base_name(kernel_name(M, (long)i), base, sizeof base);
		for (size_t d = 0; d < NDEFS; d++) {
			double p;
			int rc;
			if (!m.k[i].have[d] || (rc = metric(M, &defs[d], (long)i, &p)) == 0)
				continue;
			double v = m.k[i].v[d];
			compared++;
			char pv[32], mv[32], ev[32];
			if (rc < 0)
				snprintf(pv, sizeof pv, "n/a");
			else if (defs[d].kind == COUNT || defs[d].kind == BYTES)
				snprintf(pv, sizeof pv, "%.0f", p);
			else
				snprintf(pv, sizeof pv, "%.2f", p);
			if (defs[d].kind == COUNT || defs[d].kind == BYTES)
				snprintf(mv, sizeof mv, "%.0f", v);
			else
				snprintf(mv, sizeof mv, "%.2f", v);
			if (rc < 0)
				snprintf(ev, sizeof ev, "n/a");
			else if (defs[d].kind == PCT)
				snprintf(ev, sizeof ev, "%+.2f pp", p - v);
			else if (v != 0)
				snprintf(ev, sizeof ev, "%+.2f%%", 100.0 * (p - v) / fabs(v));
			else
				snprintf(ev, sizeof ev, p == 0 ? "+0.00%%" : "n/a");
			fprintf(f, "%-4llu %-6ld %-24s %-70s %14s %14s %12s\n",
				(unsigned long long)kernel_id(M, (long)i), m.k[i].id, base,
				defs[d].name, pv, mv, ev);
		}
	}
	if (!compared) {
		snprintf(err, errlen, "%s: no metric of the export is one gc predicts (gc-stats(1) "
			 "lists them)", name);
		goto out;
	}
	ret = 0;
out:
	cmp_free(&m);
	free(c.buf);
	free(c.field);
	return ret;
}
