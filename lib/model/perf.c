/*
 * perf.c - seed 004's equations, one function each, and the five models
 * of its Table V (perf.h).  The equation numbers are the seed's.
 */
#include "model/perf.h"

#include <math.h>
#include <string.h>

static const char *const model_names[GC_PERF_NMODELS] = {
	"mdm", "mdm-queue", "mdm-mshr", "gpumech-plus", "gpumech",
};

const char *gc_perf_model_name(int model)
{
	return model >= 0 && model < GC_PERF_NMODELS ? model_names[model] : "?";
}

int gc_perf_model_parse(const char *s)
{
	for (int i = 0; i < GC_PERF_NMODELS; i++)
		if (strcmp(s, model_names[i]) == 0)
			return i;
	return -1;
}

/* eq. 2 */
int gc_perf_md(const gc_perf_params *p, double m_read)
{
	return m_read * p->warps > p->mshrs;
}

/* eq. 3: reads hold MSHRs, so at most #MSHRs of them are in flight;
 * writes go around a write-through, no-allocate L1 and hold none. */
double gc_perf_m(const gc_perf_params *p, double m_read, double m_write)
{
	return fmin(m_read * p->warps, p->mshrs) + m_write * p->warps;
}

/* eq. 4 */
double gc_perf_no_contention(const gc_perf_params *p)
{
	return p->llc_latency + p->llc_miss_rate * p->dram_latency;
}

/* eq. 7: GHz x bytes / (GB/s) is cycles. */
double gc_perf_noc_service(const gc_perf_params *p)
{
	return p->clock * p->block_size / p->noc_bandwidth;
}

/* eq. 8: only the LLC misses reach DRAM. */
double gc_perf_dram_service(const gc_perf_params *p)
{
	return p->clock * p->llc_miss_rate * p->block_size / p->dram_bandwidth;
}

/* eq. 10 */
int gc_perf_saturated(const gc_perf_params *p, double m)
{
	return gc_perf_noc_service(p) * m * p->sms > p->llc_latency + p->dram_latency;
}

/* eq. 9 (and, with `full` 0, GPUMech's "each request waits for half of
 * the requests") */
double gc_perf_queue(const gc_perf_params *p, int full, double m, double service)
{
	return (full ? 1.0 : 0.5) * p->sms * m * service;
}

/* eq. 6: the batches after the first, each a whole memory latency; the
 * last batch's latency is the queueing model's. */
double gc_perf_mshr_batches(const gc_perf_params *p, double m_read, double s_mem)
{
	if (!gc_perf_md(p, m_read))
		return 0.0;
	return (ceil(m_read * p->warps / p->mshrs) - 1.0) * s_mem;
}

double gc_perf_mshr_gpumech(const gc_perf_params *p, double m_read, double latency)
{
	double over = m_read * p->warps / p->mshrs - 1.0;
	return over > 0.0 ? over * latency : 0.0;
}

void gc_perf_interval_cost(const gc_perf_params *p, const gc_perf_interval *iv,
			   gc_perf_cost *out)
{
	memset(out, 0, sizeof *out);
	double l_nc = gc_perf_no_contention(p);
	/* C_i, GPUMech's multithreading: the W warps issue W n instructions
	 * (issue-bound) unless one warp's own path, its dependencies, its L1
	 * hits and its miss without contention, is longer (latency-bound). */
	out->path = iv->c + iv->hit_waits * p->l1_latency + (iv->miss ? l_nc : 0.0);
	out->compute = fmax(p->warps * iv->n / p->issue_width, out->path);
	out->md = gc_perf_md(p, iv->m_read);
	out->m = gc_perf_m(p, iv->m_read, iv->m_write);
	out->saturated = gc_perf_saturated(p, out->m);

	double noc_s = gc_perf_noc_service(p), dram_s = gc_perf_dram_service(p);
	switch (p->model) {
	case GC_PERF_MDM:
	case GC_PERF_MDM_QUEUE: {
		int full = out->md && out->saturated; /* eq. 9 */
		out->noc = gc_perf_queue(p, full, out->m, noc_s);
		out->dram = gc_perf_queue(p, full, out->m, dram_s);
		break;
	}
	case GC_PERF_MDM_MSHR:
	case GC_PERF_GPUMECH_PLUS:
		out->noc = gc_perf_queue(p, 0, out->m, noc_s);
		out->dram = gc_perf_queue(p, 0, out->m, dram_s);
		break;
	default: /* GPUMech: no NoC queue */
		out->dram = gc_perf_queue(p, 0, out->m, dram_s);
		break;
	}
	out->s_mem = l_nc + out->noc + out->dram; /* eq. 5 */

	switch (p->model) {
	case GC_PERF_MDM:
	case GC_PERF_MDM_MSHR:
		out->mshr = gc_perf_mshr_batches(p, iv->m_read, out->s_mem);
		break;
	case GC_PERF_MDM_QUEUE:
	case GC_PERF_GPUMECH_PLUS:
		out->mshr = gc_perf_mshr_gpumech(p, iv->m_read, out->s_mem);
		break;
	default:
		out->mshr = gc_perf_mshr_gpumech(p, iv->m_read, l_nc);
		break;
	}
}

/* eq. 1 */
void gc_perf_evaluate(const gc_perf_params *p, const gc_perf_interval *iv, size_t n,
		      gc_perf_total *out)
{
	memset(out, 0, sizeof *out);
	for (size_t i = 0; i < n; i++) {
		gc_perf_cost c;
		gc_perf_interval_cost(p, &iv[i], &c);
		out->n += iv[i].n;
		out->compute += c.compute;
		out->path += c.path;
		out->mshr += c.mshr;
		out->noc += c.noc;
		out->dram += c.dram;
		out->md += (size_t)c.md;
	}
	out->intervals = n;
	double cycles = out->compute + out->mshr + out->noc + out->dram;
	out->ipc_sm = cycles > 0.0 ? p->warps * out->n / cycles : 0.0;
}
