/*
 * plot.h - charts on top of svg.h: a frame with numeric, logarithmic or
 * categorical axes, tick labels, a legend, a colour palette and a colour
 * ramp for heat-maps.  Used by gc-plot; deterministic text output.
 *
 *     gc_plot p;
 *     gc_plot_begin(&p, f, 720, 440, "title");
 *     gc_plot_axis_num(&p.x, "loads", xmin, xmax, 0);
 *     gc_plot_axis_cat(&p.y, "config", names, n);
 *     gc_plot_frame(&p);                  axes, grid, tick labels
 *     gc_plot_x(&p, v), gc_plot_y(&p, v)  data -> picture coordinates
 *     gc_plot_legend(&p, names, n);
 *     gc_plot_end(&p);
 */
#ifndef GC_PLOT_H
#define GC_PLOT_H

#include <stddef.h>
#include <stdio.h>

#define GC_PLOT_TICKS_MAX 32
/* The width of an average character of the font, in ems (DejaVu Sans's
 * digits are 0.64 em, its lower-case letters about 0.6). */
#define GC_PLOT_EM 0.62

typedef struct gc_plot_axis {
	const char *label;
	int log;             /* log10 scale (numeric only) */
	int cat;             /* categorical: ncat bands */
	const char *const *cats;
	size_t ncat;
	double lo, hi;       /* numeric range, after rounding to ticks */
	double ticks[GC_PLOT_TICKS_MAX];
	int nticks;
} gc_plot_axis;

typedef struct gc_plot {
	FILE *f;
	double width, height;
	double left, top, right, bottom; /* the plotting area in pixels */
	gc_plot_axis x, y;
} gc_plot;

/* Start the picture; the plotting area leaves room for the labels and a
 * legend column on the right when legend_width > 0. */
void gc_plot_begin(gc_plot *p, FILE *f, double width, double height, const char *title,
		   double legend_width);
void gc_plot_end(gc_plot *p);

/* A numeric axis over [lo, hi], widened to round tick values at steps of
 * 1, 2 or 5 times a power of ten (log: to powers of ten, ticks at 1, 2
 * and 5 times them when the data span two decades or less; lo must then
 * be > 0). */
void gc_plot_axis_num(gc_plot_axis *a, const char *label, double lo, double hi, int log);
/* A categorical axis: n equal bands named by cats (kept by pointer). */
void gc_plot_axis_cat(gc_plot_axis *a, const char *label, const char *const *cats, size_t n);

/* Axes, grid lines and tick labels; first widens the left and bottom
 * margins when the tick labels need it (so call it before gc_plot_x). */
void gc_plot_frame(gc_plot *p);

/* Picture coordinates of a value (numeric axes) or of band i's centre
 * (categorical axes: pass i as the value). */
double gc_plot_x(const gc_plot *p, double v);
double gc_plot_y(const gc_plot *p, double v);
/* The width of one band of a categorical axis (0 for numeric ones). */
double gc_plot_band(const gc_plot *p, int axis_y);

/* Series colour i (a fixed palette, repeating after 10). */
const char *gc_plot_color(size_t i);
/* A colour on a dark-blue to yellow ramp for t in [0, 1], as "#rrggbb". */
void gc_plot_ramp(double t, char buf[8]);
/* t's text colour on the ramp: black or white. */
const char *gc_plot_ramp_ink(double t);

/* Series i's dash array (NULL for the first: solid; 6 patterns). */
const char *gc_plot_dash(size_t i);
/* Series i's marker at (x, y): an outline of one of 6 shapes (circle,
 * square, triangle, diamond, triangle down, cross), so that coinciding
 * series stay visible. */
void gc_plot_marker(FILE *f, size_t i, double x, double y, const char *color, const char *cls);
/* A legend for lines: a stretch of each series' line with its marker. */
void gc_plot_legend_lines(gc_plot *p, const char *const *names, size_t n);
/* The estimated width of text s at a font size, from GC_PLOT_EM. */
double gc_plot_text_width(double size, const char *s);

/* A legend in the right margin: a swatch and a name per series. */
void gc_plot_legend(gc_plot *p, const char *const *names, size_t n);

/* A number as short text: integers plainly, else 4 significant digits,
 * K/M/G suffixes from 10^4 up. */
void gc_plot_num(double v, char *buf, size_t len);

#endif
