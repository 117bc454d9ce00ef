/* plot.c - axes, legends and colours over svg.h (plot.h). */
#include "report/plot.h"
#include "report/svg.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define FONT 12.0
#define TICK_FONT 11.0

void gc_plot_num(double v, char *buf, size_t len)
{
	double a = fabs(v);
	if (a >= 1e4 && a == floor(a)) {
		static const char *const suf[] = {"", "K", "M", "G", "T"};
		int k = 0;
		while (a >= 1000 && k < 4 && fmod(a, 1000) == 0) {
			a /= 1000;
			k++;
		}
		if (k) {
			snprintf(buf, len, "%s%.0f%s", v < 0 ? "-" : "", a, suf[k]);
			return;
		}
	}
	if (v == floor(v) && a < 1e15)
		snprintf(buf, len, "%.0f", v);
	else
		snprintf(buf, len, "%.4g", v);
}

void gc_plot_begin(gc_plot *p, FILE *f, double width, double height, const char *title,
		   double legend_width)
{
	memset(p, 0, sizeof *p);
	p->f = f;
	p->width = width;
	p->height = height;
	p->left = 72;
	p->top = title ? 36 : 16;
	p->right = width - 20 - (legend_width > 0 ? legend_width + 10 : 0);
	p->bottom = height - 56;
	gc_svg_begin(f, width, height, title);
	if (title) {
		/* a long title in a smaller font, to stay inside the picture */
		double size = FONT + 2, w = gc_plot_text_width(size, title);
		if (w > width - 16)
			size = size * (width - 16) / w < 8 ? 8 : floor(size * (width - 16) / w * 10) / 10;
		gc_svg_text(f, width / 2, 22, "middle", size, 0, "title", title);
	}
}

void gc_plot_end(gc_plot *p)
{
	gc_svg_end(p->f);
}

/* A step of 1, 2 or 5 times a power of ten giving about 6 ticks. */
static double nice_step(double span)
{
	if (!(span > 0))
		return 1;
	double raw = span / 6;
	double mag = pow(10, floor(log10(raw)));
	double r = raw / mag;
	return (r < 1.5 ? 1 : r < 3.5 ? 2 : r < 7.5 ? 5 : 10) * mag;
}

/* The ticks of a log axis over at most two decades [10^l, 10^h]: the
 * values 1, 2 and 5 times 10^e from the largest not above lo to the
 * smallest not below hi. */
static void log125(gc_plot_axis *a, double lo, double hi, double l, double h)
{
	static const double m[3] = {1, 2, 5};
	double v[3 * 4 + 1];
	int n = 0;
	for (double e = l; e < h; e++)
		for (int k = 0; k < 3; k++)
			v[n++] = m[k] * pow(10, e);
	v[n++] = pow(10, h);
	int first = 0, last = n - 1;
	for (int i = 0; i < n; i++)
		if (v[i] <= lo * (1 + 1e-9))
			first = i;
	for (int i = n - 1; i >= 0; i--)
		if (v[i] >= hi * (1 - 1e-9))
			last = i;
	if (last <= first)
		last = first + 1 < n ? first + 1 : first, first = last - 1;
	a->lo = v[first];
	a->hi = v[last];
	for (int i = first; i <= last; i++)
		a->ticks[a->nticks++] = v[i];
}

void gc_plot_axis_num(gc_plot_axis *a, const char *label, double lo, double hi, int log)
{
	memset(a, 0, sizeof *a);
	a->label = label;
	a->log = log;
	if (!(hi >= lo)) {
		lo = 0;
		hi = 1;
	}
	if (log) {
		if (!(lo > 0))
			lo = hi > 0 ? hi / 10 : 1;
		double l = floor(log10(lo)), h = ceil(log10(hi));
		if (h <= l)
			h = l + 1;
		a->lo = pow(10, l);
		a->hi = pow(10, h);
		if (h - l <= 2) {
			/* Two decades or less: ticks at 1, 2 and 5 times the powers
			 * of ten, the ends the nearest of them around the data. */
			log125(a, lo, hi, l, h);
			return;
		}
		double every = ceil((h - l + 1) / (double)GC_PLOT_TICKS_MAX);
		for (double e = l; e <= h && a->nticks < GC_PLOT_TICKS_MAX; e += every)
			a->ticks[a->nticks++] = pow(10, e);
		return;
	}
	if (hi == lo) {
		double pad = lo == 0 ? 1 : fabs(lo) / 2;
		lo -= pad;
		hi += pad;
		if (lo < 0 && lo + pad >= 0)
			lo = 0;
	}
	double step = nice_step(hi - lo);
	a->lo = floor(lo / step) * step;
	a->hi = ceil(hi / step) * step;
	for (double t = a->lo; t <= a->hi + step / 2 && a->nticks < GC_PLOT_TICKS_MAX; t += step)
		a->ticks[a->nticks++] = fabs(t) < step / 1e6 ? 0 : t;
}

void gc_plot_axis_cat(gc_plot_axis *a, const char *label, const char *const *cats, size_t n)
{
	memset(a, 0, sizeof *a);
	a->label = label;
	a->cat = 1;
	a->cats = cats;
	a->ncat = n ? n : 1;
	a->lo = 0;
	a->hi = (double)a->ncat;
}

static double frac(const gc_plot_axis *a, double v)
{
	if (a->cat)
		return (v + 0.5) / (double)a->ncat;
	if (a->log) {
		if (!(v > 0))
			return -0.02;
		return (log10(v) - log10(a->lo)) / (log10(a->hi) - log10(a->lo));
	}
	return (v - a->lo) / (a->hi - a->lo);
}

double gc_plot_x(const gc_plot *p, double v)
{
	return p->left + frac(&p->x, v) * (p->right - p->left);
}

double gc_plot_y(const gc_plot *p, double v)
{
	return p->bottom - frac(&p->y, v) * (p->bottom - p->top);
}

double gc_plot_band(const gc_plot *p, int axis_y)
{
	const gc_plot_axis *a = axis_y ? &p->y : &p->x;
	if (!a->cat)
		return 0;
	return (axis_y ? p->bottom - p->top : p->right - p->left) / (double)a->ncat;
}

double gc_plot_text_width(double size, const char *s)
{
	size_t n = 0;
	for (; *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80; /* UTF-8: count the characters */
	return GC_PLOT_EM * size * (double)n;
}

/* The widest tick label of an axis, in pixels at TICK_FONT. */
static double widest_tick(const gc_plot_axis *a)
{
	char buf[64];
	double w = 0;
	if (a->cat) {
		for (size_t i = 0; i < a->ncat; i++)
			if (gc_plot_text_width(TICK_FONT, a->cats[i]) > w)
				w = gc_plot_text_width(TICK_FONT, a->cats[i]);
		return w;
	}
	for (int i = 0; i < a->nticks; i++) {
		gc_plot_num(a->ticks[i], buf, sizeof buf);
		if (gc_plot_text_width(TICK_FONT, buf) > w)
			w = gc_plot_text_width(TICK_FONT, buf);
	}
	return w;
}

/* Room for the tick labels: the y labels between the rotated axis label
 * (x 16, about FONT high) and the axis; slanted x labels above the x axis
 * label.  Moves the plotting area's left and bottom edges. */
static void fit_margins(gc_plot *p)
{
	double need = 16 + FONT / 2 + 8 + widest_tick(&p->y) + 6;
	if (need > p->left && need < (p->right - p->left) / 2 + p->left)
		p->left = need;
	if (p->x.cat) {
		double w = widest_tick(&p->x);
		if (w * 1.15 > gc_plot_band(p, 0)) {
			/* rotated by 30 degrees: w/2 down, plus the font's height */
			double depth = 16 + w * 0.5 + TICK_FONT;
			double room = p->height - FONT - 14 - p->bottom;
			if (depth > room && p->height / 2 < p->bottom - (depth - room))
				p->bottom -= depth - room;
		}
	}
}

void gc_plot_frame(gc_plot *p)
{
	FILE *f = p->f;
	char buf[64];

	fit_margins(p);

	/* Grid and tick labels of y. */
	if (p->y.cat) {
		for (size_t i = 0; i < p->y.ncat; i++)
			gc_svg_text(f, p->left - 6, gc_plot_y(p, (double)i) + 4, "end", TICK_FONT, 0,
				    "ytick cat", p->y.cats[i]);
	} else {
		for (int i = 0; i < p->y.nticks; i++) {
			double y = gc_plot_y(p, p->y.ticks[i]);
			gc_svg_line(f, p->left, y, p->right, y, "#dddddd", 1, NULL, "grid");
			gc_plot_num(p->y.ticks[i], buf, sizeof buf);
			gc_svg_text(f, p->left - 6, y + 4, "end", TICK_FONT, 0, "ytick", buf);
		}
	}
	/* Tick labels of x: rotated when categories are many or long. */
	if (p->x.cat) {
		size_t longest = 0;
		for (size_t i = 0; i < p->x.ncat; i++)
			if (strlen(p->x.cats[i]) > longest)
				longest = strlen(p->x.cats[i]);
		(void)longest;
		int rot = widest_tick(&p->x) * 1.15 > gc_plot_band(p, 0);
		for (size_t i = 0; i < p->x.ncat; i++)
			gc_svg_text(f, gc_plot_x(p, (double)i), p->bottom + 16, rot ? "end" : "middle",
				    TICK_FONT, rot ? -30 : 0, "xtick cat", p->x.cats[i]);
	} else {
		for (int i = 0; i < p->x.nticks; i++) {
			double x = gc_plot_x(p, p->x.ticks[i]);
			gc_svg_line(f, x, p->top, x, p->bottom, "#eeeeee", 1, NULL, "grid");
			gc_plot_num(p->x.ticks[i], buf, sizeof buf);
			gc_svg_text(f, x, p->bottom + 16, "middle", TICK_FONT, 0, "xtick", buf);
		}
	}
	gc_svg_line(f, p->left, p->bottom, p->right, p->bottom, "black", 1, NULL, "axis");
	gc_svg_line(f, p->left, p->top, p->left, p->bottom, "black", 1, NULL, "axis");
	if (p->x.label)
		gc_svg_text(f, (p->left + p->right) / 2, p->height - 10, "middle", FONT, 0, "xlabel",
			    p->x.label);
	if (p->y.label)
		gc_svg_text(f, 16, (p->top + p->bottom) / 2, "middle", FONT, -90, "ylabel",
			    p->y.label);
}

const char *gc_plot_color(size_t i)
{
	/* Distinguishable on screen and in grey print (Tableau 10). */
	static const char *const pal[] = {
		"#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f",
		"#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac",
	};
	return pal[i % 10];
}

void gc_plot_ramp(double t, char buf[8])
{
	/* Piecewise linear through dark blue, teal, green and yellow. */
	static const double stops[5][3] = {
		{68, 1, 84}, {59, 82, 139}, {33, 145, 140}, {94, 201, 98}, {253, 231, 37},
	};
	if (!(t >= 0))
		t = 0;
	if (t > 1)
		t = 1;
	double s = t * 4;
	int i = s >= 4 ? 3 : (int)s;
	double u = s - i;
	int c[3];
	for (int k = 0; k < 3; k++)
		c[k] = (int)lround(stops[i][k] + u * (stops[i + 1][k] - stops[i][k]));
	snprintf(buf, 8, "#%02x%02x%02x", c[0], c[1], c[2]);
}

const char *gc_plot_ramp_ink(double t)
{
	return t > 0.55 ? "black" : "white";
}

const char *gc_plot_dash(size_t i)
{
	static const char *const dash[] = {NULL, "8,4", "2,3", "10,3,2,3", "4,4", "12,3,2,3,2,3"};
	return dash[i % 6];
}

void gc_plot_marker(FILE *f, size_t i, double x, double y, const char *color, const char *cls)
{
	char d[160];
	double r = 3.5;
	switch (i % 6) {
	case 0:
		gc_svg_circle(f, x, y, r + 1, "none", color, 1.5, cls); /* round a square */
		return;
	case 1:
		snprintf(d, sizeof d, "M%.2f,%.2f h%.2f v%.2f h%.2f Z", x - r, y - r, 2 * r, 2 * r,
			 -2 * r);
		break;
	case 2: /* triangle up */
		snprintf(d, sizeof d, "M%.2f,%.2f L%.2f,%.2f L%.2f,%.2f Z", x, y - r - 1, x + r + 0.5,
			 y + r - 0.5, x - r - 0.5, y + r - 0.5);
		break;
	case 3: /* diamond */
		snprintf(d, sizeof d, "M%.2f,%.2f L%.2f,%.2f L%.2f,%.2f L%.2f,%.2f Z", x, y - r - 1,
			 x + r + 1, y, x, y + r + 1, x - r - 1, y);
		break;
	case 4: /* triangle down */
		snprintf(d, sizeof d, "M%.2f,%.2f L%.2f,%.2f L%.2f,%.2f Z", x, y + r + 1, x + r + 0.5,
			 y - r + 0.5, x - r - 0.5, y - r + 0.5);
		break;
	default: /* a cross */
		snprintf(d, sizeof d, "M%.2f,%.2f L%.2f,%.2f M%.2f,%.2f L%.2f,%.2f", x - r, y - r,
			 x + r, y + r, x - r, y + r, x + r, y - r);
		break;
	}
	gc_svg_path(f, d, "none", color, 1.5, cls);
}

void gc_plot_legend_lines(gc_plot *p, const char *const *names, size_t n)
{
	double x = p->right + 14, y = p->top + 4;
	for (size_t i = 0; i < n; i++, y += 18) {
		gc_svg_line(p->f, x - 2, y + 6, x + 16, y + 6, gc_plot_color(i), 2, gc_plot_dash(i),
			    "legend");
		gc_plot_marker(p->f, i, x + 7, y + 6, gc_plot_color(i), "legend-marker");
		gc_svg_text(p->f, x + 22, y + 10, "start", TICK_FONT, 0, "legend", names[i]);
	}
}

void gc_plot_legend(gc_plot *p, const char *const *names, size_t n)
{
	double x = p->right + 14, y = p->top + 4;
	for (size_t i = 0; i < n; i++, y += 18) {
		gc_svg_rect(p->f, x, y, 12, 12, gc_plot_color(i), "legend", NULL);
		gc_svg_text(p->f, x + 18, y + 10, "start", TICK_FONT, 0, "legend", names[i]);
	}
}
