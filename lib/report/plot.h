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

/* A numeric axis over [lo, hi], widened to round tick values (log: to
 * powers of ten; lo must then be > 0). */
void gc_plot_axis_num(gc_plot_axis *a, const char *label, double lo, double hi, int log);
/* A categorical axis: n equal bands named by cats (kept by pointer). */
void gc_plot_axis_cat(gc_plot_axis *a, const char *label, const char *const *cats, size_t n);

/* Axes, grid lines and tick labels. */
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

/* A legend in the right margin: a swatch and a name per series. */
void gc_plot_legend(gc_plot *p, const char *const *names, size_t n);

/* A number as short text: integers plainly, else 4 significant digits,
 * K/M/G suffixes from 10^4 up. */
void gc_plot_num(double v, char *buf, size_t len);

#endif
