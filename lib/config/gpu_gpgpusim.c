/*
 * gpu_gpgpusim.c - GPGPU-Sim and Accel-Sim configurations (gc-config(5),
 * GPGPU-SIM CONFIGURATIONS): a gpgpusim.config and, optionally, Accel-Sim's
 * trace.config read as GPGPU-Sim reads them (one "-option value" pair after
 * another, '#' comments, double quotes around values with spaces, the last
 * of a repeated option counts), then turned into our keys, each with the
 * options it came from.  The table below is every option we know: the keys
 * it sets, or why it is ignored.
 */
#include "config/gpu.h"
#include "base/bits.h"
#include "config/gpu_impl.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the options we know ----------------------------------------------- */

struct gopt {
	const char *name, *keys, *why; /* keys: what it sets; why: why it is ignored */
};

#define USE(n, k) {n, k, NULL}
#define IGN(n, w) {n, NULL, w}

static const struct gopt options[] = {
	USE("-gpgpu_compute_capability_major", "cc"),
	USE("-gpgpu_compute_capability_minor", "cc"),
	USE("-gpgpu_ptx_force_max_capability", "cc (when the two above are absent)"),
	USE("-gpgpu_n_clusters", "sm.count (times the cores per cluster)"),
	USE("-gpgpu_n_cores_per_cluster", "sm.count"),
	USE("-gpgpu_clock_domains", "sm.clock (the core clock); dram.clock, dram.bandwidth, "
	    "noc.bandwidth, mem.dram_latency (the others)"),
	USE("-gpgpu_shader_core_pipeline", "sm.max_threads, sm.warp_size, sm.max_warps"),
	USE("-gpgpu_shader_cta", "sm.max_blocks"),
	USE("-gpgpu_shader_registers", "sm.registers"),
	USE("-gpgpu_registers_per_block", "sm.max_regs_per_block"),
	USE("-gpgpu_shmem_size", "sm.shmem (the largest carve-out option)"),
	USE("-gpgpu_shmem_sizeDefault", "sm.shmem when -gpgpu_shmem_size is absent"),
	USE("-gpgpu_shmem_per_block", "sm.max_shmem_per_block"),
	USE("-gpgpu_adaptive_cache_config", "sm.carveout (1: adaptive, 0: none), l1.carveout_scales"),
	USE("-gpgpu_unified_l1d_size", "sm.unified_size (KB)"),
	USE("-gpgpu_shmem_option", "sm.shmem_options (KB)"),
	USE("-gpgpu_cache:dl1", "l1.cache"),
	USE("-gpgpu_l1_latency", "l1.latency"),
	USE("-gpgpu_gmem_skip_L1D", "l1.skip_global"),
	USE("-gpgpu_flush_l1_cache", "l1.kernel_flush"),
	USE("-gpgpu_n_mem", "l2.channels, dram.channels"),
	USE("-gpgpu_n_sub_partition_per_mchannel", "l2.sub_partitions"),
	USE("-gpgpu_cache:dl2", "l2.cache, l2.size"),
	USE("-gpgpu_l2_rop_latency", "l2.latency"),
	USE("-gpgpu_mem_addr_mapping", "l2.mapping, dram.row_size"),
	USE("-gpgpu_memory_partition_indexing", "l2.partition_index"),
	USE("-gpgpu_flush_l2_cache", "l2.kernel_flush"),
	USE("-gpgpu_n_mem_per_ctrlr", "dram.channels, dram.bandwidth"),
	USE("-gpgpu_dram_timing_opt", "dram.banks (nbk), dram.bank_groups (nbkgrp), the dram.t* "
	    "keys (CCD, CCDL, RRD, RCD, RAS, RP, RC, CL, WL, CDLR, WR, RTPL), "
	    "mem.dram_latency (RCD, CL)"),
	USE("-gpgpu_dram_buswidth", "dram.bus_width, dram.bandwidth"),
	USE("-gpgpu_dram_burst_length", "dram.burst_length, dram.type (16: gddr6)"),
	USE("-dram_data_command_freq_ratio", "dram.data_rate, dram.bandwidth"),
	USE("-dram_dual_bus_interface", "dram.type (1: hbm2)"),
	USE("-dram_latency", "dram.latency"),
	USE("-gpgpu_coalesce_arch", "coalesce.arch"),
	USE("-gpgpu_num_sched_per_core", "sm.issue_width"),
	USE("-icnt_flit_size", "noc.bandwidth"),
	USE("-gpgpu_kernel_launch_latency", "kernel.launch_latency"),
	USE("-trace_opcode_latency_initiation_int", "op.int.latency, op.int.initiation"),
	USE("-trace_opcode_latency_initiation_sp", "op.sp.latency, op.sp.initiation"),
	USE("-trace_opcode_latency_initiation_dp", "op.dp.latency, op.dp.initiation"),
	USE("-trace_opcode_latency_initiation_sfu", "op.sfu.latency, op.sfu.initiation"),
	USE("-trace_opcode_latency_initiation_tensor", "op.tensor.latency, op.tensor.initiation"),
	USE("-specialized_unit_1", "op.branch.* when its name is BRA"),
	USE("-specialized_unit_2", "op.branch.* when its name is BRA"),
	USE("-specialized_unit_3", "op.branch.* when its name is BRA"),
	USE("-specialized_unit_4", "op.branch.* when its name is BRA"),
	USE("-trace_opcode_latency_initiation_spec_op_1", "op.branch.* (unit 1 is BRA)"),
	USE("-trace_opcode_latency_initiation_spec_op_2", "op.branch.* (unit 2 is BRA)"),
	USE("-trace_opcode_latency_initiation_spec_op_3", "op.branch.* (unit 3 is BRA)"),
	USE("-trace_opcode_latency_initiation_spec_op_4", "op.branch.* (unit 4 is BRA)"),

	IGN("-gpgpu_cache:dl1PrefL1", "cudaFuncSetCacheConfig per kernel: traces do not say"),
	IGN("-gpgpu_cache:dl1PrefShared", "cudaFuncSetCacheConfig per kernel: traces do not say"),
	IGN("-gpgpu_shmem_size_PrefL1", "cudaFuncSetCacheConfig per kernel: traces do not say"),
	IGN("-gpgpu_shmem_size_PrefShared", "cudaFuncSetCacheConfig per kernel: traces do not say"),
	IGN("-gpgpu_cache:dl2_texture_only", "gc models data caches; no texture path"),
	IGN("-gpgpu_cache:il1", "instruction cache: traces carry no fetches"),
	IGN("-gpgpu_tex_cache:l1", "texture cache: not modelled"),
	IGN("-gpgpu_const_cache:l1", "constant cache: not modelled"),
	IGN("-gpgpu_perfect_inst_const_cache", "instruction and constant caches: not modelled"),
	IGN("-gpgpu_inst_fetch_throughput", "instruction fetch: not modelled"),
	IGN("-gpgpu_l1_banks", "L1 banks: gc-l1's port is one line (l1.port) a cycle"),
	IGN("-gpgpu_l1_banks_byte_interleaving", "L1 banks: not modelled"),
	IGN("-gpgpu_l1_banks_hashing_function", "L1 banks: not modelled"),
	IGN("-gpgpu_l1_cache_write_ratio", "a write share of the L1 no key models"),
	IGN("-gpgpu_smem_latency", "shared memory accesses are not cache traffic"),
	IGN("-gpgpu_shmem_num_banks", "shared-memory bank conflicts: not modelled"),
	IGN("-gpgpu_shmem_limited_broadcast", "shared-memory bank conflicts: not modelled"),
	IGN("-gpgpu_shmem_warp_parts", "shared-memory bank conflicts: not modelled"),
	IGN("-gpgpu_n_cluster_ejection_buffer_size", "interconnect buffers: not modelled"),
	IGN("-gpgpu_n_ldst_response_buffer_size", "interconnect buffers: not modelled"),
	IGN("-gpgpu_dram_partition_queues", "queues of the memory partition: not modelled"),
	IGN("-gpgpu_perf_sim_memcpy", "host-to-device copies do not fill gc's L2"),
	IGN("-gpgpu_mem_address_mask", "preset masks; -gpgpu_mem_addr_mapping overrides them "
	    "in every config that sets it"),
	IGN("-gpgpu_dram_scheduler", "DRAM scheduling: gc-dram's model is FR-FCFS (1)"),
	USE("-gpgpu_frfcfs_dram_sched_queue_size", "dram.queue (0, unlimited: not set)"),
	IGN("-gpgpu_dram_return_queue_size", "DRAM queues: not modelled"),
	IGN("-dram_bnk_indexing_policy", "bank indexing: gc-dram uses the mapping's B bits"),
	IGN("-dram_bnkgrp_indexing_policy", "bank-group indexing: not modelled"),
	IGN("-dram_seperate_write_queue_enable", "DRAM queues: not modelled"),
	IGN("-dram_write_queue_size", "DRAM queues: not modelled"),
	IGN("-dram_elimnate_rw_turnaround", "DRAM turnaround: not modelled"),
	IGN("-gpgpu_simple_dram_model", "DRAM model choice: gc-dram has one"),
	IGN("-network_mode", "interconnect: noc.bandwidth only"),
	IGN("-inter_config_file", "interconnect: noc.bandwidth only"),
	IGN("-icnt_in_buffer_limit", "interconnect: noc.bandwidth only"),
	IGN("-icnt_out_buffer_limit", "interconnect: noc.bandwidth only"),
	IGN("-icnt_subnets", "interconnect: noc.bandwidth only"),
	IGN("-icnt_arbiter_algo", "interconnect: noc.bandwidth only"),
	IGN("-gpgpu_pipeline_widths", "pipeline registers: gc-perf models issue only"),
	IGN("-gpgpu_num_sp_units", "execution units: op.* gives latencies and initiation"),
	IGN("-gpgpu_num_sfu_units", "execution units: op.* gives latencies and initiation"),
	IGN("-gpgpu_num_dp_units", "execution units: op.* gives latencies and initiation"),
	IGN("-gpgpu_num_int_units", "execution units: op.* gives latencies and initiation"),
	IGN("-gpgpu_tensor_core_avail", "execution units: op.* gives latencies and initiation"),
	IGN("-gpgpu_num_tensor_core_units", "execution units: op.* gives latencies and initiation"),
	IGN("-ptx_opcode_latency_int", "PTX mode; traces use -trace_opcode_latency_initiation_*"),
	IGN("-ptx_opcode_initiation_int", "PTX mode; traces use -trace_opcode_latency_initiation_*"),
	IGN("-ptx_opcode_latency_fp", "PTX mode; traces use -trace_opcode_latency_initiation_*"),
	IGN("-ptx_opcode_initiation_fp", "PTX mode; traces use -trace_opcode_latency_initiation_*"),
	IGN("-ptx_opcode_latency_dp", "PTX mode; traces use -trace_opcode_latency_initiation_*"),
	IGN("-ptx_opcode_initiation_dp", "PTX mode; traces use -trace_opcode_latency_initiation_*"),
	IGN("-ptx_opcode_latency_sfu", "PTX mode; traces use -trace_opcode_latency_initiation_*"),
	IGN("-ptx_opcode_initiation_sfu", "PTX mode; traces use -trace_opcode_latency_initiation_*"),
	IGN("-ptx_opcode_latency_tesnor", "PTX mode; traces use -trace_opcode_latency_initiation_*"),
	IGN("-ptx_opcode_initiation_tensor", "PTX mode; traces use -trace_opcode_latency_initiation_*"),
	IGN("-gpgpu_sub_core_model", "scheduler internals: not modelled"),
	IGN("-gpgpu_enable_specialized_operand_collector", "operand collectors: not modelled"),
	IGN("-gpgpu_operand_collector_num_units_gen", "operand collectors: not modelled"),
	IGN("-gpgpu_operand_collector_num_in_ports_gen", "operand collectors: not modelled"),
	IGN("-gpgpu_operand_collector_num_out_ports_gen", "operand collectors: not modelled"),
	IGN("-gpgpu_operand_collector_num_units_sp", "operand collectors: not modelled"),
	IGN("-gpgpu_operand_collector_num_units_sfu", "operand collectors: not modelled"),
	IGN("-gpgpu_operand_collector_num_in_ports_sp", "operand collectors: not modelled"),
	IGN("-gpgpu_operand_collector_num_out_ports_sp", "operand collectors: not modelled"),
	IGN("-gpgpu_num_reg_banks", "register banks: not modelled"),
	IGN("-gpgpu_reg_file_port_throughput", "register file ports: not modelled"),
	IGN("-gpgpu_scheduler", "warp scheduling policy: gc-sched has its own (--policy)"),
	IGN("-gpgpu_max_insn_issue_per_warp", "dual issue: not modelled"),
	IGN("-gpgpu_dual_issue_diff_exec_units", "dual issue: not modelled"),
	IGN("-gpgpu_simd_model", "divergence model of PTX mode"),
	IGN("-gpgpu_occupancy_sm_number", "the ptxas target for occupancy; cc names the GPU"),
	IGN("-gpgpu_ignore_resources_limitation", "occupancy checks stay on in gc"),
	IGN("-gpgpu_TB_launch_latency", "block launch latency: not modelled"),
	IGN("-gpgpu_stack_size_limit", "CUDA runtime limit"),
	IGN("-gpgpu_heap_size_limit", "CUDA runtime limit"),
	IGN("-gpgpu_runtime_sync_depth_limit", "CUDA runtime limit"),
	IGN("-gpgpu_runtime_pending_launch_count_limit", "CUDA runtime limit"),
	IGN("-gpgpu_ptx_instruction_classification", "PTX functional simulation"),
	IGN("-gpgpu_ptx_sim_mode", "PTX functional simulation"),
	IGN("-gpgpu_ptx_convert_to_ptxplus", "PTX functional simulation"),
	IGN("-gpgpu_ptx_save_converted_ptxplus", "PTX functional simulation"),
	IGN("-gpgpu_memlatency_stat", "simulator statistics"),
	IGN("-gpgpu_runtime_stat", "simulator statistics"),
	IGN("-enable_ptx_file_line_stats", "simulator statistics"),
	IGN("-visualizer_enabled", "simulator statistics"),
	IGN("-power_simulation_enabled", "power model: not modelled"),
	IGN("-gpuwattch_xml_file", "power model: not modelled"),
	IGN("-trace_enabled", "simulator tracing"),
	IGN("-trace_components", "simulator tracing"),
	IGN("-trace_sampling_core", "simulator tracing"),
	IGN("-specialized_unit_5", "units other than BRA: not modelled"),
	IGN("-specialized_unit_6", "units other than BRA: not modelled"),
	IGN("-specialized_unit_7", "units other than BRA: not modelled"),
	IGN("-specialized_unit_8", "units other than BRA: not modelled"),
	IGN("-trace_opcode_latency_initiation_spec_op_5", "units other than BRA: not modelled"),
	IGN("-trace_opcode_latency_initiation_spec_op_6", "units other than BRA: not modelled"),
	IGN("-trace_opcode_latency_initiation_spec_op_7", "units other than BRA: not modelled"),
	IGN("-trace_opcode_latency_initiation_spec_op_8", "units other than BRA: not modelled"),
};

#define NOPTIONS (int)(sizeof options / sizeof options[0])

int gc_gpgpusim_noptions(void)
{
	return NOPTIONS;
}

const char *gc_gpgpusim_option(int i, const char **keys, const char **why)
{
	if (i < 0 || i >= NOPTIONS)
		return NULL;
	*keys = options[i].keys;
	*why = options[i].why;
	return options[i].name;
}

static int known(const char *name)
{
	for (int i = 0; i < NOPTIONS; i++)
		if (strcmp(options[i].name, name) == 0)
			return 1;
	return 0;
}

/* ---- reading the files ----------------------------------------------- */

#define OPTS_MAX 1024

struct opt {
	char *name, *val;
	int line, file; /* file 0: gpgpusim.config, 1: trace.config */
};

struct conv {
	struct opt o[OPTS_MAX];
	int n;
	const char *path[2];
	gc_gpgpusim *s;
	char *err;
	size_t len;
};

static char *read_all(const char *path, char *err, size_t len)
{
	FILE *f = fopen(path, "r");
	if (!f) {
		gpu_msgf(err, len, "%s: %s", path, strerror(errno));
		return NULL;
	}
	size_t cap = 8192, n = 0;
	char *b = malloc(cap);
	for (size_t r; b && (r = fread(b + n, 1, cap - n - 1, f)) > 0;) {
		n += r;
		if (cap - n - 1 == 0) {
			char *nb = cap < (64u << 20) ? realloc(b, cap * 2) : NULL;
			if (!nb) {
				free(b);
				b = NULL;
				break;
			}
			b = nb;
			cap *= 2;
		}
	}
	int bad = ferror(f);
	fclose(f);
	if (!b) {
		gpu_msgf(err, len, "%s: out of memory or too large", path);
		return NULL;
	}
	if (bad) {
		free(b);
		gpu_msgf(err, len, "%s: read error", path);
		return NULL;
	}
	b[n] = 0;
	return b;
}

static int set_opt(struct conv *cv, const char *name, const char *val, int line, int file)
{
	for (int i = 0; i < cv->n; i++)
		if (strcmp(cv->o[i].name, name) == 0) { /* the last one counts */
			char *v = strdup(val);
			if (!v)
				return gpu_msgf(cv->err, cv->len, "out of memory");
			free(cv->o[i].val);
			cv->o[i].val = v;
			cv->o[i].line = line;
			cv->o[i].file = file;
			return 0;
		}
	if (cv->n == OPTS_MAX)
		return gpu_msgf(cv->err, cv->len, "%s: line %d: more than %d options", cv->path[file],
				line, OPTS_MAX);
	struct opt *o = &cv->o[cv->n];
	o->name = strdup(name);
	o->val = strdup(val);
	if (!o->name || !o->val) {
		free(o->name);
		free(o->val);
		return gpu_msgf(cv->err, cv->len, "out of memory");
	}
	o->line = line;
	o->file = file;
	cv->n++;
	return 0;
}

/* The tokens of a file as GPGPU-Sim's option parser splits them: '#' to the
 * end of the line is a comment, blanks separate tokens, a double-quoted
 * token may hold blanks and newlines (dropped here: the quoted values are
 * lists such as -gpgpu_dram_timing_opt's, where they mean nothing). */
static int read_options(struct conv *cv, int file)
{
	const char *path = cv->path[file];
	char *text = read_all(path, cv->err, cv->len);
	if (!text)
		return -1;
	char tok[4096], name[256];
	int line = 1, tline = 0, nline = 0, have_name = 0, rc = 0;
	for (char *p = text; *p && rc == 0;) {
		if (*p == '\n') {
			line++;
			p++;
			continue;
		}
		if (*p == ' ' || *p == '\t' || *p == '\r') {
			p++;
			continue;
		}
		if (*p == '#') {
			while (*p && *p != '\n')
				p++;
			continue;
		}
		size_t n = 0;
		int quoted = 0;
		tline = line;
		while (*p && rc == 0) {
			if (*p == '"') {
				quoted = !quoted;
				p++;
				continue;
			}
			if (!quoted && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n' || *p == '#'))
				break;
			if (*p == '\n')
				line++;
			if (!(quoted && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n'))) {
				if (n + 1 >= sizeof tok)
					rc = gpu_msgf(cv->err, cv->len, "%s: line %d: value too long", path,
						      tline);
				else
					tok[n++] = *p;
			}
			p++;
		}
		if (rc)
			break;
		if (quoted) {
			rc = gpu_msgf(cv->err, cv->len, "%s: line %d: unterminated '\"'", path, tline);
			break;
		}
		tok[n] = 0;
		if (!have_name) {
			if (tok[0] != '-' || n < 2) {
				rc = gpu_msgf(cv->err, cv->len, "%s: line %d: expected '-option value', "
					      "not '%s'", path, tline, tok);
				break;
			}
			if (n >= sizeof name) {
				rc = gpu_msgf(cv->err, cv->len, "%s: line %d: option name too long", path,
					      tline);
				break;
			}
			memcpy(name, tok, n + 1);
			nline = tline;
			have_name = 1;
		} else {
			rc = set_opt(cv, name, tok, nline, file);
			have_name = 0;
		}
	}
	if (rc == 0 && have_name)
		rc = gpu_msgf(cv->err, cv->len, "%s: line %d: %s: no value", path, nline, name);
	free(text);
	return rc;
}

/* ---- the conversion -------------------------------------------------- */

static struct opt *find(struct conv *cv, const char *name)
{
	for (int i = 0; i < cv->n; i++)
		if (strcmp(cv->o[i].name, name) == 0)
			return &cv->o[i];
	return NULL;
}

static const char *val(struct conv *cv, const char *name)
{
	struct opt *o = find(cv, name);
	return o ? o->val : NULL;
}

/* A whole number option, or def when absent; -1 for a malformed one. */
static int num(struct conv *cv, const char *name, double def, double *out)
{
	struct opt *o = find(cv, name);
	if (!o) {
		*out = def;
		return 0;
	}
	char *end;
	errno = 0;
	double v = strtod(o->val, &end);
	if (end == o->val || *end || errno || !isfinite(v) || v < 0)
		return gpu_msgf(cv->err, cv->len, "%s: line %d: %s: bad number '%s'",
				cv->path[o->file], o->line, name, o->val);
	*out = v;
	return 0;
}

/* Add key = value with the line of `from` (the option it came from) and a
 * source comment. */
static int add(struct conv *cv, const char *key, const char *from, const char *value,
	       const char *fmt, ...) __attribute__((format(printf, 5, 6)));
static int add(struct conv *cv, const char *key, const char *from, const char *value,
	       const char *fmt, ...)
{
	gc_gpgpusim *s = cv->s;
	if (s->g.n == (int)(sizeof s->g.key / sizeof s->g.key[0]))
		return gpu_msgf(cv->err, cv->len, "too many keys");
	char why[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(why, sizeof why, fmt, ap);
	va_end(ap);
	struct opt *o = from ? find(cv, from) : NULL;
	int i = s->g.n;
	s->g.key[i] = strdup(key);
	s->g.val[i] = strdup(value);
	s->why[i] = strdup(why);
	s->g.line[i] = o && o->file == 0 ? o->line : 0;
	if (!s->g.key[i] || !s->g.val[i] || !s->why[i]) {
		free(s->g.key[i]);
		free(s->g.val[i]);
		free(s->why[i]);
		return gpu_msgf(cv->err, cv->len, "out of memory");
	}
	s->g.n++;
	return 0;
}

static int addu(struct conv *cv, const char *key, const char *from, uint64_t v, const char *why)
{
	char b[32];
	snprintf(b, sizeof b, "%llu", (unsigned long long)v);
	return add(cv, key, from, b, "%s", why);
}

static int adds(struct conv *cv, const char *key, const char *from, uint64_t v, const char *why)
{
	char b[32];
	gpu_fmt_size(b, sizeof b, v);
	return add(cv, key, from, b, "%s", why);
}

/* "GPGPU-Sim -opt V" or "GPGPU-Sim's default of -opt, V" */
static const char *src(struct conv *cv, const char *name, char *buf, size_t len)
{
	struct opt *o = find(cv, name);
	if (o)
		snprintf(buf, len, "%s %s", name, o->val);
	else
		snprintf(buf, len, "%s absent: GPGPU-Sim's default", name);
	return buf;
}

/* The numbers of "a:b:c" (clock domains, the pipeline). */
static int fields(const char *s, double *out, int max)
{
	int n = 0;
	while (n < max && *s) {
		char *end;
		out[n++] = strtod(s, &end);
		if (end == s)
			return -1;
		s = end;
		if (*s == ':' || *s == ',')
			s++;
		else if (*s)
			return -1;
	}
	return n;
}

/* name=value of -gpgpu_dram_timing_opt, or -1. */
static long timing(const char *t, const char *name)
{
	size_t n = strlen(name);
	for (const char *p = t; p && *p; p = strchr(p, ':'), p = p ? p + 1 : NULL)
		if (strncmp(p, name, n) == 0 && p[n] == '=')
			return strtol(p + n + 1, NULL, 10);
	return -1;
}

static int bad_opt(struct conv *cv, const char *name, const char *what);

/* The FR-FCFS controller's keys: every timing parameter t names (t may be
 * NULL), the burst, the data rate, the DRAM clock and the queue. */
static int dram_timing(struct conv *cv, const char *t, double burst, double ratio, double clock)
{
	static const char *const tk[][2] = {
		{"CCD", "dram.tccd"}, {"CCDL", "dram.tccdl"}, {"RRD", "dram.trrd"},
		{"RCD", "dram.trcd"}, {"RAS", "dram.tras"},   {"RP", "dram.trp"},
		{"RC", "dram.trc"},   {"CL", "dram.tcl"},     {"WL", "dram.twl"},
		{"CDLR", "dram.tcdlr"}, {"WR", "dram.twr"},   {"RTPL", "dram.trtpl"}};
	char why[128], b[32];
	double q;
	for (size_t i = 0; t && i < sizeof tk / sizeof tk[0]; i++) {
		long v = timing(t, tk[i][0]);
		snprintf(why, sizeof why, "-gpgpu_dram_timing_opt %s=%ld", tk[i][0], v);
		if (v >= 0 && addu(cv, tk[i][1], "-gpgpu_dram_timing_opt", (uint64_t)v, why) < 0)
			return -1;
	}
	if (addu(cv, "dram.burst_length", "-gpgpu_dram_burst_length", (uint64_t)burst,
		 src(cv, "-gpgpu_dram_burst_length", why, sizeof why)) < 0 ||
	    addu(cv, "dram.data_rate", "-dram_data_command_freq_ratio", (uint64_t)ratio,
		 src(cv, "-dram_data_command_freq_ratio", why, sizeof why)) < 0)
		return -1;
	gpu_fmt_real(b, sizeof b, clock);
	if (add(cv, "dram.clock", "-gpgpu_clock_domains", b,
		"-gpgpu_clock_domains (the fourth, the DRAM clock)") < 0)
		return -1;
	if (num(cv, "-gpgpu_frfcfs_dram_sched_queue_size", 0, &q) < 0)
		return -1;
	if (q >= 1 && addu(cv, "dram.queue", "-gpgpu_frfcfs_dram_sched_queue_size", (uint64_t)q,
			   src(cv, "-gpgpu_frfcfs_dram_sched_queue_size", why, sizeof why)) < 0)
		return -1;
	return 0;
}

static int bad_opt(struct conv *cv, const char *name, const char *what)
{
	struct opt *o = find(cv, name);
	if (o)
		return gpu_msgf(cv->err, cv->len, "%s: line %d: %s: %s", cv->path[o->file], o->line,
				name, what);
	return gpu_msgf(cv->err, cv->len, "%s: %s: %s", cv->path[0], name, what);
}

static int lat_init(struct conv *cv, const char *cls, const char *name, const char *why)
{
	const char *v = val(cv, name);
	double f[2];
	char key[48], b[32];
	if (!v)
		return 0;
	if (fields(v, f, 2) != 2 || f[0] < 1 || f[1] < 1)
		return bad_opt(cv, name, "expected LATENCY,INITIATION");
	snprintf(key, sizeof key, "op.%s.latency", cls);
	snprintf(b, sizeof b, "%.0f", f[0]);
	if (add(cv, key, name, b, "%s %s%s", name, v, why) < 0)
		return -1;
	snprintf(key, sizeof key, "op.%s.initiation", cls);
	snprintf(b, sizeof b, "%.0f", f[1]);
	return add(cv, key, name, b, "%s %s%s", name, v, why);
}

static int convert(struct conv *cv)
{
	char s1[320], s2[700], b[320];
	double x, y, z;
	const char *v;

	/* The name: the folder of a gpgpusim.config, else the file's name. */
	const char *path = cv->path[0], *base = strrchr(path, '/');
	char name[64] = "";
	base = base ? base + 1 : path;
	if (strcmp(base, "gpgpusim.config") == 0 && base > path) {
		const char *end = base - 1, *start = end;
		while (start > path && start[-1] != '/')
			start--;
		snprintf(name, sizeof name, "%.*s", (int)(end - start), start);
	} else {
		snprintf(name, sizeof name, "%.*s", (int)strcspn(base, "."), base);
	}
	for (char *q = name; *q; q++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-", *q))
			*q = '_';
	if (!*name || strcmp(name, "..") == 0 || strcmp(name, ".") == 0)
		snprintf(name, sizeof name, "gpgpusim");
	if (add(cv, "name", NULL, name, "the config's folder or file name") < 0)
		return -1;
	snprintf(b, sizeof b, "GPGPU-Sim configuration %s%s%s", name, cv->path[1] ? " with " : "",
		 cv->path[1] ? "trace.config" : "");
	if (add(cv, "description", NULL, b, "gc-config --from") < 0)
		return -1;

	/* cc */
	double maj, min, force;
	if (num(cv, "-gpgpu_compute_capability_major", 0, &maj) < 0 ||
	    num(cv, "-gpgpu_compute_capability_minor", 0, &min) < 0 ||
	    num(cv, "-gpgpu_ptx_force_max_capability", 0, &force) < 0)
		return -1;
	if (find(cv, "-gpgpu_compute_capability_major")) {
		snprintf(b, sizeof b, "%.0f.%.0f", maj, min);
		if (add(cv, "cc", "-gpgpu_compute_capability_major", b,
			"-gpgpu_compute_capability_major/minor %s", b) < 0)
			return -1;
	} else if (force >= 10) {
		snprintf(b, sizeof b, "%u.%u", (unsigned)force / 10, (unsigned)force % 10);
		if (add(cv, "cc", "-gpgpu_ptx_force_max_capability", b,
			"-gpgpu_ptx_force_max_capability %.0f", force) < 0)
			return -1;
	}

	/* The SMs. */
	if (num(cv, "-gpgpu_n_clusters", 10, &x) < 0 || num(cv, "-gpgpu_n_cores_per_cluster", 3, &y) < 0)
		return -1;
	snprintf(s2, sizeof s2, "%s * %s", src(cv, "-gpgpu_n_clusters", s1, sizeof s1),
		 src(cv, "-gpgpu_n_cores_per_cluster", b, sizeof b));
	unsigned sms = (unsigned)(x * y);
	if (addu(cv, "sm.count", "-gpgpu_n_clusters", sms, s2) < 0)
		return -1;
	double clk[4] = {500, 2000, 2000, 2000};
	v = val(cv, "-gpgpu_clock_domains");
	if (v && fields(v, clk, 4) != 4)
		return bad_opt(cv, "-gpgpu_clock_domains", "expected CORE:ICNT:L2:DRAM in MHz");
	snprintf(s2, sizeof s2, "%s (the core clock)", src(cv, "-gpgpu_clock_domains", s1, sizeof s1));
	if (addu(cv, "sm.clock", "-gpgpu_clock_domains", (uint64_t)llround(clk[0]), s2) < 0)
		return -1;
	double pipe[2] = {1024, 32};
	v = val(cv, "-gpgpu_shader_core_pipeline");
	if (v && (fields(v, pipe, 2) != 2 || pipe[1] < 1))
		return bad_opt(cv, "-gpgpu_shader_core_pipeline", "expected THREADS:WARP_SIZE");
	src(cv, "-gpgpu_shader_core_pipeline", s1, sizeof s1);
	if (addu(cv, "sm.warp_size", "-gpgpu_shader_core_pipeline", (uint64_t)pipe[1], s1) < 0 ||
	    addu(cv, "sm.max_threads", "-gpgpu_shader_core_pipeline", (uint64_t)pipe[0], s1) < 0 ||
	    addu(cv, "sm.max_warps", "-gpgpu_shader_core_pipeline", (uint64_t)(pipe[0] / pipe[1]), s1) < 0)
		return -1;
	if (num(cv, "-gpgpu_shader_cta", 32, &x) < 0 ||
	    addu(cv, "sm.max_blocks", "-gpgpu_shader_cta", (uint64_t)x,
		 src(cv, "-gpgpu_shader_cta", s1, sizeof s1)) < 0)
		return -1;
	if (num(cv, "-gpgpu_shader_registers", 8192, &x) < 0 ||
	    addu(cv, "sm.registers", "-gpgpu_shader_registers", (uint64_t)x,
		 src(cv, "-gpgpu_shader_registers", s1, sizeof s1)) < 0)
		return -1;
	/* GPGPU-Sim limits blocks by -gpgpu_shader_registers alone (shader.cc
	 * max_cta); -gpgpu_registers_per_block only reports a device property,
	 * so without it the whole file may go to one block. */
	if (find(cv, "-gpgpu_registers_per_block")) {
		if (num(cv, "-gpgpu_registers_per_block", 8192, &y) < 0 ||
		    addu(cv, "sm.max_regs_per_block", "-gpgpu_registers_per_block",
			 (uint64_t)(y < x ? y : x), src(cv, "-gpgpu_registers_per_block", s1, sizeof s1)) < 0)
			return -1;
	} else if (addu(cv, "sm.max_regs_per_block", "-gpgpu_shader_registers", (uint64_t)x,
			"-gpgpu_registers_per_block absent: -gpgpu_shader_registers (GPGPU-Sim's "
			"max_cta limits blocks by that alone)") < 0) {
		return -1;
	}

	/* Shared memory and the carve-out. */
	const char *shname = find(cv, "-gpgpu_shmem_size") || !find(cv, "-gpgpu_shmem_sizeDefault")
		? "-gpgpu_shmem_size" : "-gpgpu_shmem_sizeDefault";
	double shmem, perblock, adaptive, unified;
	if (num(cv, shname, 16384, &shmem) < 0 || num(cv, "-gpgpu_shmem_per_block", 49152, &perblock) < 0 ||
	    num(cv, "-gpgpu_adaptive_cache_config", 0, &adaptive) < 0 ||
	    num(cv, "-gpgpu_unified_l1d_size", 0, &unified) < 0)
		return -1;
	gc_gpu_cache l1 = {0}, l2 = {0};
	char why[160];
	const char *dl1 = val(cv, "-gpgpu_cache:dl1");
	if (!dl1 || strcmp(dl1, "none") == 0)
		return bad_opt(cv, "-gpgpu_cache:dl1", dl1 ? "'none': gc needs an L1 to model"
			       : "absent (GPGPU-Sim's default is none): gc needs an L1 to model");
	if (gc_gpu_cache_parse(&l1, dl1, why, sizeof why) < 0)
		return bad_opt(cv, "-gpgpu_cache:dl1", why);
	uint64_t opts[GC_GPU_OPTIONS_MAX];
	int nopt = 0;
	char optsrc[320] = "";
	if (adaptive >= 1) {
		uint64_t u = (uint64_t)unified * 1024;
		if (!u) {
			u = 4 * l1.size;
			snprintf(s1, sizeof s1, "-gpgpu_unified_l1d_size absent: 4 * the -gpgpu_cache:dl1 "
				 "size, GPGPU-Sim's MAX_DEFAULT_CACHE_SIZE_MULTIBLIER");
		} else {
			src(cv, "-gpgpu_unified_l1d_size", s1, sizeof s1);
		}
		v = val(cv, "-gpgpu_shmem_option");
		if (v) {
			double f[GC_GPU_OPTIONS_MAX];
			int n = fields(v, f, GC_GPU_OPTIONS_MAX);
			if (n < 1)
				return bad_opt(cv, "-gpgpu_shmem_option", "expected KB,KB,...");
			for (int i = 0; i < n; i++)
				opts[nopt++] = (uint64_t)f[i] * 1024;
			src(cv, "-gpgpu_shmem_option", optsrc, sizeof optsrc);
		} else {
			static const unsigned volta[] = {0, 8, 16, 32, 64, 96};
			for (size_t i = 0; i < sizeof volta / sizeof volta[0]; i++)
				if ((uint64_t)volta[i] * 1024 <= (uint64_t)shmem && nopt < GC_GPU_OPTIONS_MAX)
					opts[nopt++] = (uint64_t)volta[i] * 1024;
			gpu_msgf(optsrc, sizeof optsrc, "-gpgpu_shmem_option absent: GPGPU-Sim 4.0's "
				 "fixed Volta steps up to %s", src(cv, shname, b, sizeof b));
		}
		/* Ascending, as GPGPU-Sim sorts them. */
		for (int i = 1; i < nopt; i++)
			for (int j = i; j > 0 && opts[j - 1] > opts[j]; j--) {
				uint64_t t = opts[j];
				opts[j] = opts[j - 1];
				opts[j - 1] = t;
			}
		if (adds(cv, "sm.shmem", shname, opts[nopt - 1],
			 "the largest carve-out option (sm.shmem_options)") < 0)
			return -1;
		if (perblock > opts[nopt - 1])
			perblock = (double)opts[nopt - 1];
		if (adds(cv, "sm.max_shmem_per_block", "-gpgpu_shmem_per_block", (uint64_t)perblock,
			 src(cv, "-gpgpu_shmem_per_block", b, sizeof b)) < 0)
			return -1;
		if (adds(cv, "sm.unified_size", "-gpgpu_unified_l1d_size", u, s1) < 0)
			return -1;
		size_t at = 0;
		for (int i = 0; i < nopt; i++) {
			char one[32];
			gpu_fmt_size(one, sizeof one, opts[i]);
			at += (size_t)snprintf(b + at, sizeof b - at, "%s%s", i ? "," : "", one);
		}
		if (add(cv, "sm.shmem_options", "-gpgpu_shmem_option", b, "%s", optsrc) < 0 ||
		    add(cv, "sm.carveout", "-gpgpu_adaptive_cache_config", "adaptive",
			"-gpgpu_adaptive_cache_config 1") < 0)
			return -1;
	} else {
		if (adds(cv, "sm.shmem", shname, (uint64_t)shmem, src(cv, shname, s1, sizeof s1)) < 0)
			return -1;
		if (perblock > shmem)
			perblock = shmem;
		if (adds(cv, "sm.max_shmem_per_block", "-gpgpu_shmem_per_block", (uint64_t)perblock,
			 src(cv, "-gpgpu_shmem_per_block", s1, sizeof s1)) < 0)
			return -1;
		gpu_msgf(s1, sizeof s1, "%s: separate L1 and shared memory",
			 src(cv, "-gpgpu_adaptive_cache_config", b, sizeof b));
		if (adds(cv, "sm.unified_size", "-gpgpu_adaptive_cache_config", 0, s1) < 0 ||
		    add(cv, "sm.shmem_options", "-gpgpu_adaptive_cache_config", "none", "%s", s1) < 0 ||
		    add(cv, "sm.carveout", "-gpgpu_adaptive_cache_config", "none", "%s", s1) < 0)
			return -1;
	}

	/* L1. */
	if (add(cv, "l1.cache", "-gpgpu_cache:dl1", dl1, "-gpgpu_cache:dl1 (%s base size)",
		(gpu_fmt_size(b, sizeof b, l1.size), b)) < 0)
		return -1;
	if (num(cv, "-gpgpu_l1_latency", 1, &x) < 0 ||
	    addu(cv, "l1.latency", "-gpgpu_l1_latency", (uint64_t)x,
		 src(cv, "-gpgpu_l1_latency", s1, sizeof s1)) < 0)
		return -1;
	if (num(cv, "-gpgpu_gmem_skip_L1D", 0, &x) < 0 ||
	    add(cv, "l1.skip_global", "-gpgpu_gmem_skip_L1D", x ? "yes" : "no", "%s",
		src(cv, "-gpgpu_gmem_skip_L1D", s1, sizeof s1)) < 0)
		return -1;
	if (num(cv, "-gpgpu_flush_l1_cache", 0, &x) < 0 ||
	    add(cv, "l1.kernel_flush", "-gpgpu_flush_l1_cache", x ? "yes" : "no", "%s",
		src(cv, "-gpgpu_flush_l1_cache", s1, sizeof s1)) < 0)
		return -1;
	if (adaptive >= 1 && add(cv, "l1.carveout_scales", "-gpgpu_adaptive_cache_config", "ways",
				 "GPGPU-Sim's adaptive carve-out changes the ways at fixed sets") < 0)
		return -1;

	/* L2 and DRAM. */
	double nmem, nsub, perctrl;
	if (num(cv, "-gpgpu_n_mem", 8, &nmem) < 0 || num(cv, "-gpgpu_n_sub_partition_per_mchannel", 1, &nsub) < 0 ||
	    num(cv, "-gpgpu_n_mem_per_ctrlr", 1, &perctrl) < 0)
		return -1;
	if (addu(cv, "l2.channels", "-gpgpu_n_mem", (uint64_t)nmem, src(cv, "-gpgpu_n_mem", s1, sizeof s1)) < 0 ||
	    addu(cv, "l2.sub_partitions", "-gpgpu_n_sub_partition_per_mchannel", (uint64_t)nsub,
		 src(cv, "-gpgpu_n_sub_partition_per_mchannel", s1, sizeof s1)) < 0)
		return -1;
	const char *dl2 = val(cv, "-gpgpu_cache:dl2");
	if (!dl2)
		dl2 = "64:128:8,L:B:m:N,A:16:4,4";
	if (gc_gpu_cache_parse(&l2, dl2, why, sizeof why) < 0)
		return bad_opt(cv, "-gpgpu_cache:dl2", why);
	gpu_fmt_size(b, sizeof b, l2.size);
	if (add(cv, "l2.cache", "-gpgpu_cache:dl2", dl2, "-gpgpu_cache:dl2%s (%s per sub-partition)",
		find(cv, "-gpgpu_cache:dl2") ? "" : " absent: GPGPU-Sim's default", b) < 0)
		return -1;
	snprintf(s2, sizeof s2, "%.0f channels * %.0f sub-partitions * %s", nmem, nsub, b);
	if (adds(cv, "l2.size", "-gpgpu_cache:dl2", (uint64_t)nmem * (uint64_t)nsub * l2.size, s2) < 0)
		return -1;
	if (num(cv, "-gpgpu_l2_rop_latency", 85, &x) < 0 ||
	    addu(cv, "l2.latency", "-gpgpu_l2_rop_latency", (uint64_t)x,
		 src(cv, "-gpgpu_l2_rop_latency", s1, sizeof s1)) < 0)
		return -1;
	const char *map = val(cv, "-gpgpu_mem_addr_mapping");
	struct mapping m = {.nB = -1};
	if (map) {
		if (gpu_mapping_parse(map, &m, why, sizeof why) < 0)
			return bad_opt(cv, "-gpgpu_mem_addr_mapping", why);
		if (add(cv, "l2.mapping", "-gpgpu_mem_addr_mapping", map, "-gpgpu_mem_addr_mapping") < 0)
			return -1;
	}
	if (num(cv, "-gpgpu_memory_partition_indexing", 0, &x) < 0)
		return -1;
	static const char *const pidx[] = {"consecutive", "bitwise-permutation", "ipoly", NULL,
					   "random", "consecutive", "ipoly-modulo"};
	if (x > 6 || !pidx[(int)x])
		return bad_opt(cv, "-gpgpu_memory_partition_indexing",
			       "not 0, 1, 2, 4, 5 or 6 (3, PAE, asserts in GPGPU-Sim)");
	snprintf(s2, sizeof s2, "%s%s", src(cv, "-gpgpu_memory_partition_indexing", s1, sizeof s1),
		 x == 5 ? " (custom: a no-op, consecutive)" : "");
	if (add(cv, "l2.partition_index", "-gpgpu_memory_partition_indexing", pidx[(int)x], "%s", s2) < 0)
		return -1;
	if (num(cv, "-gpgpu_flush_l2_cache", 0, &x) < 0 ||
	    add(cv, "l2.kernel_flush", "-gpgpu_flush_l2_cache", x ? "yes" : "no", "%s",
		src(cv, "-gpgpu_flush_l2_cache", s1, sizeof s1)) < 0)
		return -1;

	double burst, ratio, dual, bus;
	if (num(cv, "-gpgpu_dram_burst_length", 4, &burst) < 0 ||
	    num(cv, "-dram_data_command_freq_ratio", 2, &ratio) < 0 ||
	    num(cv, "-dram_dual_bus_interface", 0, &dual) < 0 ||
	    num(cv, "-gpgpu_dram_buswidth", 4, &bus) < 0)
		return -1;
	if (dual >= 1)
		x = add(cv, "dram.type", "-dram_dual_bus_interface", "hbm2",
			"estimate: -dram_dual_bus_interface 1 (HBM's two command buses)");
	else if (burst == 16)
		x = add(cv, "dram.type", "-gpgpu_dram_burst_length", "gddr6",
			"estimate: -gpgpu_dram_burst_length 16 (GDDR6)");
	else
		x = add(cv, "dram.type", "-gpgpu_dram_burst_length", "gddr5",
			"estimate: neither HBM's dual bus nor GDDR6's burst of 16");
	if (x < 0)
		return -1;
	snprintf(s2, sizeof s2, "%s * %s", src(cv, "-gpgpu_n_mem", s1, sizeof s1),
		 src(cv, "-gpgpu_n_mem_per_ctrlr", b, sizeof b));
	if (addu(cv, "dram.channels", "-gpgpu_n_mem", (uint64_t)(nmem * perctrl), s2) < 0)
		return -1;
	const char *t = val(cv, "-gpgpu_dram_timing_opt");
	long nbk = t ? timing(t, "nbk") : -1, nbkgrp = t ? timing(t, "nbkgrp") : -1;
	long rcd = t ? timing(t, "RCD") : -1, cl = t ? timing(t, "CL") : -1;
	if (nbk > 0 && addu(cv, "dram.banks", "-gpgpu_dram_timing_opt", (uint64_t)nbk,
			    "-gpgpu_dram_timing_opt nbk") < 0)
		return -1;
	if (nbkgrp > 0 && addu(cv, "dram.bank_groups", "-gpgpu_dram_timing_opt", (uint64_t)nbkgrp,
			       "-gpgpu_dram_timing_opt nbkgrp") < 0)
		return -1;
	if (dram_timing(cv, t, burst, ratio, clk[3]) < 0)
		return -1;
	if (map) {
		snprintf(s1, sizeof s1, "-gpgpu_mem_addr_mapping (%d C and S bits)", m.nC);
		if (adds(cv, "dram.row_size", "-gpgpu_mem_addr_mapping", 1ull << m.nC, s1) < 0)
			return -1;
	}
	if (addu(cv, "dram.bus_width", "-gpgpu_dram_buswidth", (uint64_t)bus,
		 src(cv, "-gpgpu_dram_buswidth", s1, sizeof s1)) < 0)
		return -1;
	double bw = nmem * perctrl * bus * ratio * clk[3] / 1000.0;
	gpu_fmt_real(b, sizeof b, round(bw * 1000) / 1000);
	if (add(cv, "dram.bandwidth", "-gpgpu_dram_buswidth", b,
		"%.0f channels * %.0f per controller * %.0f B * %.0f (-dram_data_command_freq_ratio) "
		"* %s MHz (the DRAM clock of -gpgpu_clock_domains)", nmem, perctrl, bus, ratio,
		(gpu_fmt_real(s2, sizeof s2, clk[3]), s2)) < 0)
		return -1;
	double dlat, l1lat, l2lat;
	if (num(cv, "-dram_latency", 30, &dlat) < 0 ||
	    addu(cv, "dram.latency", "-dram_latency", (uint64_t)dlat, src(cv, "-dram_latency", s1, sizeof s1)) < 0)
		return -1;
	if (num(cv, "-gpgpu_l1_latency", 1, &l1lat) < 0 || num(cv, "-gpgpu_l2_rop_latency", 85, &l2lat) < 0)
		return -1;
	if (addu(cv, "miss.lambda_min", NULL, (uint64_t)(l1lat + l2lat),
		 "estimate: l1.latency + l2.latency (an L2 hit, the best case)") < 0)
		return -1;
	gpu_fmt_real(b, sizeof b, (l1lat + l2lat) / 20.0);
	if (add(cv, "miss.sigma", NULL, b, "estimate: 5%% of miss.lambda_min") < 0)
		return -1;
	if (find(cv, "-gpgpu_coalesce_arch") &&
	    add(cv, "coalesce.arch", "-gpgpu_coalesce_arch", val(cv, "-gpgpu_coalesce_arch"), "%s",
		src(cv, "-gpgpu_coalesce_arch", s1, sizeof s1)) < 0)
		return -1;

	/* trace.config's latencies. */
	if (lat_init(cv, "int", "-trace_opcode_latency_initiation_int", "") < 0 ||
	    lat_init(cv, "sp", "-trace_opcode_latency_initiation_sp", "") < 0 ||
	    lat_init(cv, "dp", "-trace_opcode_latency_initiation_dp", "") < 0 ||
	    lat_init(cv, "sfu", "-trace_opcode_latency_initiation_sfu", "") < 0 ||
	    lat_init(cv, "tensor", "-trace_opcode_latency_initiation_tensor", "") < 0)
		return -1;
	for (int u = 1; u <= 4; u++) {
		char unit[48], op[64];
		snprintf(unit, sizeof unit, "-specialized_unit_%d", u);
		v = val(cv, unit);
		size_t n = v ? strlen(v) : 0;
		if (v && v[0] == '1' && n >= 4 && strcmp(v + n - 4, ",BRA") == 0) {
			snprintf(op, sizeof op, "-trace_opcode_latency_initiation_spec_op_%d", u);
			snprintf(s1, sizeof s1, " (%s %s)", unit, v);
			if (lat_init(cv, "branch", op, s1) < 0)
				return -1;
			break;
		}
	}
	if (find(cv, "-gpgpu_num_sched_per_core") &&
	    (num(cv, "-gpgpu_num_sched_per_core", 1, &x) < 0 ||
	     addu(cv, "sm.issue_width", "-gpgpu_num_sched_per_core", (uint64_t)x,
		  src(cv, "-gpgpu_num_sched_per_core", s1, sizeof s1)) < 0))
		return -1;

	/* The performance model's memory system, by the presets' formulas. */
	double flit, subs = nmem * nsub;
	if (num(cv, "-icnt_flit_size", 32, &flit) < 0)
		return -1;
	z = flit * clk[1] * (sms < subs ? sms : subs) / 1000.0;
	gpu_fmt_real(b, sizeof b, round(z * 1000) / 1000);
	if (add(cv, "noc.bandwidth", "-icnt_flit_size", b,
		"estimate: %.0f B (-icnt_flit_size) * %s MHz (the interconnect clock) * min(%u SMs, "
		"%.0f sub-partitions)", flit, (gpu_fmt_real(s2, sizeof s2, clk[1]), s2), sms, subs) < 0)
		return -1;
	if (addu(cv, "mem.llc_latency", NULL, (uint64_t)(l1lat + l2lat + 5),
		 "estimate: l1.latency + l2.latency + 5 (NoC)") < 0)
		return -1;
	if (rcd >= 0 && cl >= 0) {
		y = (double)(rcd + cl) * clk[0] / clk[3];
		if (addu(cv, "mem.dram_latency", "-gpgpu_dram_timing_opt", (uint64_t)(dlat + llround(y)),
			 "estimate: dram.latency + (RCD + CL of -gpgpu_dram_timing_opt) DRAM cycles "
			 "in SM cycles") < 0)
			return -1;
	}
	if (num(cv, "-gpgpu_kernel_launch_latency", 0, &x) < 0 ||
	    addu(cv, "kernel.launch_latency", "-gpgpu_kernel_launch_latency", (uint64_t)x,
		 src(cv, "-gpgpu_kernel_launch_latency", s1, sizeof s1)) < 0)
		return -1;
	return 0;
}

/* ---- the API ----------------------------------------------------------- */

int gc_gpu_is_gpgpusim(const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	char line[1024];
	int r = 0;
	while (fgets(line, sizeof line, f)) {
		char *s = line + strspn(line, " \t\r\n");
		if (!*s || *s == '#')
			continue;
		r = s[0] == '-' && ((s[1] >= 'a' && s[1] <= 'z') || (s[1] >= 'A' && s[1] <= 'Z'));
		break;
	}
	fclose(f);
	return r;
}

int gc_gpgpusim_convert(gc_gpgpusim *s, const char *config, const char *trace, char *err,
			size_t len)
{
	memset(s, 0, sizeof *s);
	snprintf(s->g.name, sizeof s->g.name, "%s", config);
	snprintf(s->g.path, sizeof s->g.path, "%s", config);
	struct conv *cv = calloc(1, sizeof *cv);
	if (!cv)
		return gpu_msgf(err, len, "out of memory");
	cv->path[0] = config;
	cv->path[1] = trace;
	cv->s = s;
	cv->err = err;
	cv->len = len;
	int rc = read_options(cv, 0);
	if (rc == 0 && trace)
		rc = read_options(cv, 1);
	if (rc == 0)
		rc = convert(cv);
	for (int i = 0; rc == 0 && i < cv->n; i++)
		if (!known(cv->o[i].name)) {
			if (!s->nunknown)
				snprintf(s->unknown, sizeof s->unknown, "%s (%s line %d)", cv->o[i].name,
					 cv->path[cv->o[i].file], cv->o[i].line);
			s->nunknown++;
		}
	for (int i = 0; i < cv->n; i++) {
		free(cv->o[i].name);
		free(cv->o[i].val);
	}
	free(cv);
	if (rc < 0)
		gc_gpgpusim_free(s);
	return rc;
}

void gc_gpgpusim_free(gc_gpgpusim *s)
{
	for (int i = 0; i < s->g.n; i++)
		free(s->why[i]);
	gc_gpu_free(&s->g);
}

/* ---- the preset of a compute capability --------------------------------- */

const char *gc_gpu_preset_of_cc(unsigned cc)
{
	static const struct {
		unsigned cc;
		const char *name;
	} t[] = {
		{20, "fermi-gtx470-16k"}, {21, "fermi-gtx470-16k"}, {60, "pascal-gtx1080"},
		{61, "pascal-gtx1080"},   {70, "volta-v100"},       {75, "turing-rtx2060"},
		{80, "ampere-a100"},      {86, "ampere-rtx3070"},   {90, "hopper-h100"},
	};
	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
		if (t[i].cc == cc)
			return t[i].name;
	return NULL;
}
