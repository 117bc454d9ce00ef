/*
 * rdplot.c - gc-rd's picture (rdplot.h).
 */
#include "report/rdplot.h"

#include "report/plot.h"
#include "report/svg.h"

#include <math.h>
#include <stdlib.h>

#define PW 860.0          /* picture */
#define PH 800.0
#define PL 90.0           /* plot area left, right */
#define PR 830.0
#define H_TOP 60.0        /* histogram panel */
#define H_BOT 320.0
#define M_TOP 470.0       /* miss-ratio panel */
#define M_BOT 730.0

static double frac(double a, double b)
{
	return b > 0 ? a / b : 0;
}

static void axis_label(FILE *f, double x, double y, const char *s)
{
	gc_svg_text(f, x, y, "middle", 13, 0, "axis-label", s);
}

void gc_rdplot_range(char *buf, size_t len, const gc_rdplot_bin *b)
{
	if (b->lo == GC_RDPLOT_INF)
		snprintf(buf, len, "inf");
	else if (b->lo == b->hi || b->hi == GC_RDPLOT_INF)
		snprintf(buf, len, "%llu", (unsigned long long)b->lo);
	else
		snprintf(buf, len, "%llu-%llu", (unsigned long long)b->lo, (unsigned long long)b->hi);
}

/* The y axis of a panel from 0 to at least ymax: ticks at a round step
 * (1, 2 or 5 times a power of ten, plot.h's rule); returns the top. */
static double y_axis(FILE *f, double ymax, double top, double bot, int pct)
{
	gc_plot_axis a;
	char lab[64];
	gc_plot_axis_num(&a, NULL, 0, ymax, 0);
	for (int t = 0; t < a.nticks; t++) {
		double y = bot - (bot - top) * a.ticks[t] / a.hi;
		if (pct)
			snprintf(lab, sizeof lab, "%.2f", a.ticks[t]);
		else
			gc_plot_num(a.ticks[t], lab, sizeof lab);
		gc_svg_line(f, PL - 5, y, PL, y, "black", 1, NULL, "tick");
		gc_svg_text(f, PL - 8, y + 4, "end", 11, 0, "tick-label", lab);
	}
	return a.hi;
}

/* The cut-off's label above a panel (top), beside the line at px: right
 * of it when it fits in the picture, else left of it, never across it. */
static void cut_label(FILE *f, double px, double top, const char *text)
{
	double w = gc_plot_text_width(11, text);
	if (px + 4 + w <= PW - 8)
		gc_svg_text(f, px + 4, top - 6, "start", 11, 0, "cutoff-label", text);
	else if (px - 4 - w >= 8)
		gc_svg_text(f, px - 4, top - 6, "end", 11, 0, "cutoff-label", text);
	else
		gc_svg_text(f, PW - 8, top - 6, "end", 11, 0, "cutoff-label", text);
}

/* A power of two as a tick label: 512, 1Ki, 2Mi, 4Gi. */
static void pow2_label(char *buf, size_t len, unsigned k)
{
	static const char *const suf[] = {"", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"};
	unsigned g = k >= 10 ? k / 10 : 0;
	snprintf(buf, len, "%llu%s", (unsigned long long)(UINT64_C(1) << (k - 10 * g)), suf[g]);
}

static void plot_hist(FILE *f, const gc_rdplot *p)
{
	const gc_rdplot_bin *b = p->bins;
	size_t n = p->nbins;
	uint64_t clines = p->lines;
	char buf[160], lab[64];
	double ymax = 0;
	for (size_t i = 0; i < n; i++)
		if (frac(b[i].count, p->total) > ymax)
			ymax = frac(b[i].count, p->total);
	if (!(ymax > 0))
		ymax = 1;
	gc_svg_text(f, PW / 2, H_TOP - 25, "middle", 16, 0, "title",
		    "Reuse distance histogram");
	gc_svg_line(f, PL, H_BOT, PR, H_BOT, "black", 1, NULL, "axis");
	gc_svg_line(f, PL, H_TOP, PL, H_BOT, "black", 1, NULL, "axis");
	ymax = y_axis(f, ymax, H_TOP, H_BOT, 0);
	/* below the slanted bar labels (up to 2^31-2^32-1, about 60 units down) */
	snprintf(buf, sizeof buf, "reuse distance (distinct %s in between)", p->unit);
	axis_label(f, PL + (PR - PL) / 2, H_BOT + 80, buf);
	gc_svg_text(f, 25, (H_TOP + H_BOT) / 2, "middle", 13, -90, "axis-label",
		    "fraction of references");
	double slot = n ? (PR - PL) / (double)n : 0;
	double cut_x = -1;
	for (size_t i = 0; i < n; i++) {
		double fr = frac(b[i].count, p->total);
		double bh = (H_BOT - H_TOP) * fr / ymax;
		double x0 = PL + slot * (double)i;
		int miss = clines && b[i].lo >= clines;
		const char *fill = b[i].lo == GC_RDPLOT_INF ? "#7f7f7f" : !clines ? "#4c72b0"
				   : miss ? "#c44e52" : "#4c72b0";
		gc_rdplot_range(lab, sizeof lab, &b[i]);
		snprintf(buf, sizeof buf, "distance %s: %.0f references (%.2f%%)", lab, b[i].count,
			 100 * fr);
		gc_svg_rect(f, x0 + slot * 0.1, H_BOT - bh, slot * 0.8, bh, fill, "bar", buf);
		gc_svg_text(f, x0 + slot / 2, H_BOT + 14, "end", 10, -45, "bar-label",
			    b[i].lo == GC_RDPLOT_INF ? "\xe2\x88\x9e" : lab);
		/* the cut-off: where distance == cache lines begins */
		if (clines && cut_x < 0 && b[i].hi != GC_RDPLOT_INF && b[i].lo <= clines &&
		    clines <= b[i].hi)
			cut_x = x0 + slot * (double)(clines - b[i].lo) /
					     (double)(b[i].hi - b[i].lo + 1);
		else if (clines && cut_x < 0 && b[i].lo > clines)
			cut_x = x0;
	}
	if (clines) {
		if (cut_x < 0)
			cut_x = n && b[n - 1].lo == GC_RDPLOT_INF ? PL + slot * (double)(n - 1) : PR;
		gc_svg_line(f, cut_x, H_TOP, cut_x, H_BOT, "black", 1.5, "6,4", "cutoff");
		snprintf(buf, sizeof buf, "cache of %llu lines: hits left, misses right",
			 (unsigned long long)clines);
		cut_label(f, cut_x, H_TOP, buf);
	}
}

static void plot_mrc(FILE *f, const gc_rdplot *p)
{
	char lab[64], buf[200];
	uint64_t top = p->top;
	if (p->lines > top)
		top = p->lines;
	unsigned kmax = 63u - (unsigned)__builtin_clzll(top) + (top & (top - 1) ? 1 : 0);
	if (kmax == 0)
		kmax = 1;
	double span = (double)kmax;
	gc_svg_text(f, PW / 2, M_TOP - 25, "middle", 16, 0, "title",
		    "Miss-ratio curve (fully associative LRU)");
	gc_svg_line(f, PL, M_BOT, PR, M_BOT, "black", 1, NULL, "axis");
	gc_svg_line(f, PL, M_TOP, PL, M_BOT, "black", 1, NULL, "axis");
	y_axis(f, 1, M_TOP, M_BOT, 1);
	unsigned step = kmax > 16 ? (kmax + 15) / 16 : 1;
	for (unsigned k = 0; k <= kmax; k += step) {
		double px = PL + (PR - PL) * k / span;
		pow2_label(lab, sizeof lab, k);
		gc_svg_line(f, px, M_BOT, px, M_BOT + 5, "black", 1, NULL, "tick");
		gc_svg_text(f, px, M_BOT + 18, "middle", 11, 0, "tick-label", lab);
	}
	snprintf(buf, sizeof buf, "cache size (%s, log scale)", p->unit);
	axis_label(f, PL + (PR - PL) / 2, M_BOT + 40, buf);
	gc_svg_text(f, 25, (M_TOP + M_BOT) / 2, "middle", 13, -90, "axis-label", "miss ratio");
	/* 16 points an octave (each size once), as steps. */
	size_t cap = (size_t)kmax * 16 + 8, np = 0;
	double *xy = malloc(2 * 2 * cap * sizeof *xy);
	uint64_t prev = 0;
	double prev_y = M_TOP;
	for (unsigned i = 0; xy && i <= kmax * 16; i++) {
		uint64_t s = (uint64_t)llround(pow(2.0, i / 16.0));
		if (s <= prev)
			continue;
		double px = PL + (PR - PL) * log2((double)s) / span;
		double py = M_BOT - (M_BOT - M_TOP) * frac(p->misses(p->ctx, s), p->total);
		if (np) { /* the step */
			xy[2 * np] = px;
			xy[2 * np + 1] = prev_y;
			np++;
		}
		xy[2 * np] = px;
		xy[2 * np + 1] = py;
		np++;
		prev = s;
		prev_y = py;
	}
	gc_svg_polyline(f, xy, np, "#4c72b0", 2, "mrc");
	free(xy);
	if (p->lines) {
		double px = PL + (PR - PL) * log2((double)p->lines) / span;
		gc_svg_line(f, px, M_TOP, px, M_BOT, "black", 1.5, "6,4", "cutoff");
		snprintf(buf, sizeof buf, "%llu lines: LRU miss ratio %.3f, SDCM (%llu-way) %.3f",
			 (unsigned long long)p->lines, frac(p->lru_misses, p->total),
			 (unsigned long long)p->ways, 1 - p->sdcm);
		cut_label(f, px, M_TOP, buf);
	}
}

void gc_rdplot_svg(FILE *f, const gc_rdplot *p)
{
	char title[300];
	snprintf(title, sizeof title, "gc-rd: reuse distances of %s", p->input);
	gc_svg_begin(f, PW, PH, title);
	plot_hist(f, p);
	plot_mrc(f, p);
	gc_svg_end(f);
}
