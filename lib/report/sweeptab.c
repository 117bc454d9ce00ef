/*
 * sweeptab.c - the table, JSON and report lines of a sweep (sweeptab.h).
 */
#include "report/sweeptab.h"

static double ratio(uint64_t a, uint64_t b)
{
	return b ? (double)a / (double)b : 0.0;
}

static unsigned long long size_of(const gc_waysweep_stats *st, size_t i)
{
	return (unsigned long long)st->units * st->sets * st->ways[i] * st->line;
}

void gc_sweeptab_csv(FILE *f, const gc_waysweep_stats *st)
{
	fprintf(f, "ways,size,requests,hits,misses,sector_misses,hit_rate,"
		"sectors.requested,sectors.hits,sectors.misses,sector_hit_rate%s\n",
		st->l2 ? ",line_misses,reads,read_hits,writes,write_hits,atomics,atomic_hits,"
			 "dram_reads" : "");
	for (size_t i = 0; i < st->nways; i++) {
		const gc_waysweep_counts *c = &st->total[i];
		fprintf(f, "%u,%llu,%llu,%llu,%llu,%llu,%.6g,%llu,%llu,%llu,%.6g", st->ways[i],
			size_of(st, i), (unsigned long long)c->requests, (unsigned long long)c->hits,
			(unsigned long long)c->misses, (unsigned long long)c->sector_misses,
			ratio(c->hits, c->hits + c->misses), (unsigned long long)c->sec_requested,
			(unsigned long long)c->sec_hits,
			(unsigned long long)(c->sec_requested - c->sec_hits),
			ratio(c->sec_hits, c->sec_requested));
		if (st->l2)
			fprintf(f, ",%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu",
				(unsigned long long)(c->misses - c->sector_misses),
				(unsigned long long)c->reads, (unsigned long long)c->read_hits,
				(unsigned long long)c->writes, (unsigned long long)c->write_hits,
				(unsigned long long)c->atomics, (unsigned long long)c->atomic_hits,
				(unsigned long long)c->dram_reads);
		fputc('\n', f);
	}
}

/* The counts of one associativity (or of one kernel at it). */
static void counts_json(gc_json *j, const gc_waysweep_counts *c, int l2)
{
	gc_json_u64(j, "requests", c->requests);
	gc_json_u64(j, "hits", c->hits);
	gc_json_u64(j, "misses", c->misses);
	gc_json_u64(j, "sector_misses", c->sector_misses);
	if (l2)
		gc_json_u64(j, "line_misses", c->misses - c->sector_misses);
	gc_json_num(j, "hit_rate", ratio(c->hits, c->hits + c->misses));
	gc_json_obj(j, "sectors");
	gc_json_u64(j, "requested", c->sec_requested);
	gc_json_u64(j, "hits", c->sec_hits);
	gc_json_u64(j, "misses", c->sec_requested - c->sec_hits);
	gc_json_close(j);
	gc_json_num(j, "sector_hit_rate", ratio(c->sec_hits, c->sec_requested));
	if (!l2)
		return;
	gc_json_u64(j, "reads", c->reads);
	gc_json_u64(j, "read_hits", c->read_hits);
	gc_json_u64(j, "writes", c->writes);
	gc_json_u64(j, "write_hits", c->write_hits);
	gc_json_u64(j, "atomics", c->atomics);
	gc_json_u64(j, "atomic_hits", c->atomic_hits);
	gc_json_u64(j, "dram_reads", c->dram_reads);
}

void gc_sweeptab_json(gc_json *j, const gc_waysweep_stats *st)
{
	gc_json_arr(j, "sweep");
	for (size_t i = 0; i < st->nways; i++) {
		gc_json_obj(j, NULL);
		gc_json_u64(j, "ways", st->ways[i]);
		gc_json_u64(j, "size", size_of(st, i));
		counts_json(j, &st->total[i], st->l2);
		gc_json_arr(j, "kernels");
		for (size_t k = 0; k < st->nkernels; k++) {
			gc_json_obj(j, NULL);
			gc_json_u64(j, "id", st->kernels[k].id);
			gc_json_str(j, "name", st->kernels[k].name);
			counts_json(j, &st->kernels[k].n[i], st->l2);
			gc_json_close(j);
		}
		gc_json_close(j);
		gc_json_close(j);
	}
	gc_json_close(j);
}

void gc_sweeptab_text(FILE *f, const char *p, const gc_waysweep_stats *st)
{
	for (size_t i = 0; i < st->nways; i++) {
		const gc_waysweep_counts *c = &st->total[i];
		fprintf(f, "%s: %u ways: hits %llu, misses %llu (sector misses %llu); hit rate %.4f",
			p, st->ways[i], (unsigned long long)c->hits, (unsigned long long)c->misses,
			(unsigned long long)c->sector_misses, ratio(c->hits, c->hits + c->misses));
		if (st->l2)
			fprintf(f, "; DRAM %llu sector reads", (unsigned long long)c->dram_reads);
		fputc('\n', f);
	}
	for (size_t k = 0; k < st->nkernels; k++) {
		const gc_waysweep_kernel *K = &st->kernels[k];
		fprintf(f, "%s: kernel %u %s: ways hits misses:", p, K->id, K->name[0] ? K->name : "-");
		for (size_t i = 0; i < st->nways; i++)
			fprintf(f, "%s %u %llu %llu", i ? "," : "", st->ways[i],
				(unsigned long long)K->n[i].hits, (unsigned long long)K->n[i].misses);
		fputc('\n', f);
	}
}
