/* pcreport.c - the per-PC table as text and JSON (pcreport.h). */
#include "base/bits.h"
#include "report/pcreport.h"

#include <string.h>


static uint64_t all_misses(const gc_pcrow *rows, size_t n)
{
	uint64_t m = 0;
	for (size_t i = 0; i < n; i++)
		m += rows[i].misses;
	return m;
}

/* The opcode of row r, or NULL. */
static const char *opcode(const gc_pctab *t, const gc_opmap *ops, const gc_pcrow *r)
{
	return ops ? gc_opmap_get(ops, gc_pctab_name(t, r->kernel), r->pc) : NULL;
}

void gc_pcreport_json(gc_json *j, const gc_pctab *t, const gc_opmap *ops,
		      const gc_pcrow *rows, size_t n, size_t top)
{
	uint64_t misses = all_misses(rows, n);
	size_t shown = top && top < n ? top : n;
	char pc[16];
	gc_json_arr(j, "pcs");
	for (size_t i = 0; i < shown; i++) {
		const gc_pcrow *r = &rows[i];
		gc_json_obj(j, NULL);
		gc_json_str(j, "kernel", gc_pctab_name(t, r->kernel));
		snprintf(pc, sizeof pc, "0x%x", r->pc);
		gc_json_str(j, "pc", pc);
		const char *op = opcode(t, ops, r);
		if (op)
			gc_json_str(j, "opcode", op);
		else
			gc_json_null(j, "opcode");
		gc_json_u64(j, "requests", r->requests);
		gc_json_u64(j, "hits", r->hits);
		gc_json_u64(j, "misses", r->misses);
		if (r->hits + r->misses)
			gc_json_num(j, "hit_rate", (double)r->hits / (double)(r->hits + r->misses));
		else
			gc_json_null(j, "hit_rate");
		gc_json_num(j, "miss_share", misses ? (double)r->misses / (double)misses : 0.0);
		gc_json_close(j);
	}
	gc_json_close(j);
}

static int wider(int w, int v)
{
	return v > w ? v : w;
}

void gc_pcreport_text(FILE *f, const char *prefix, const gc_pctab *t, const gc_opmap *ops,
		      const gc_pcrow *rows, size_t n, size_t top)
{
	uint64_t misses = all_misses(rows, n);
	size_t shown = top && top < n ? top : n;
	fprintf(f, "%s: per PC, by misses: %zu of %zu (kernel, PC) rows, %llu misses in all\n",
		prefix, shown, n, (unsigned long long)misses);
	if (!shown)
		return;
	/* Widths: the header's, or the widest value. */
	int wpc = 4, wop = 6, wreq = 8, whit = 4, wmiss = 6;
	char cell[24];
	for (size_t i = 0; i < shown; i++) {
		const char *op = opcode(t, ops, &rows[i]);
		wpc = wider(wpc, snprintf(cell, sizeof cell, "0x%x", rows[i].pc));
		wop = wider(wop, op ? (int)strlen(op) : 1);
		wreq = wider(wreq, gc_digits(rows[i].requests));
		whit = wider(whit, gc_digits(rows[i].hits));
		wmiss = wider(wmiss, gc_digits(rows[i].misses));
	}
	fprintf(f, "%s: %*s %-*s %*s %*s %*s %8s %7s %7s  %s\n", prefix, wpc, "pc", wop, "opcode",
		wreq, "requests", whit, "hits", wmiss, "misses", "hit-rate", "miss%", "cumul%",
		"kernel");
	uint64_t cum = 0;
	for (size_t i = 0; i < shown; i++) {
		const gc_pcrow *r = &rows[i];
		char rate[16];
		cum += r->misses;
		snprintf(cell, sizeof cell, "0x%x", r->pc);
		if (r->hits + r->misses)
			snprintf(rate, sizeof rate, "%.4f",
				 (double)r->hits / (double)(r->hits + r->misses));
		else
			snprintf(rate, sizeof rate, "-");
		const char *name = gc_pctab_name(t, r->kernel);
		const char *op = opcode(t, ops, r);
		fprintf(f, "%s: %*s %-*s %*llu %*llu %*llu %8s %6.2f%% %6.2f%%  %s\n", prefix, wpc,
			cell, wop, op ? op : "-", wreq, (unsigned long long)r->requests, whit,
			(unsigned long long)r->hits, wmiss, (unsigned long long)r->misses, rate,
			misses ? 100.0 * (double)r->misses / (double)misses : 0.0,
			misses ? 100.0 * (double)cum / (double)misses : 0.0, *name ? name : "-");
	}
}
