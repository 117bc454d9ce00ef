/*
 * gc-plot - draw a CSV table (gc-stats --merge, examples/sweep, gc-rd
 * --csv) as an SVG picture: line plots, grouped bars or a heat-map.
 *
 * Reads: CSV with a header row (RFC 4180 quoting, one record a line).
 * Writes: one SVG document.
 *
 * The whole table is read first (sweep tables are small); rows can be
 * selected with --where; series come from several --y columns or from
 * the distinct values of a --by column.
 */
#include "prog/prog.h"
#include "report/json.h"
#include "report/plot.h"
#include "report/svg.h"
#include "report/table.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char help[] =
	"Usage: gc-plot [options] [file]\n"
	"Draw a CSV table as an SVG picture: lines, grouped bars or a heat-map.\n"
	"\n"
	"      --kind K         line (default), bar or heat\n"
	"      --x COL          the x column (numbers, or categories in table order)\n"
	"      --y COL[,COL...] the y column(s): one series each (heat: the row column)\n"
	"      --by COL         one series per distinct value of COL (with one --y)\n"
	"      --z COL          heat: the value column\n"
	"      --where COL=VAL  keep the rows whose COL is VAL (repeatable, all must hold)\n"
	"      --logx, --logy   logarithmic axes\n"
	"      --title T        the picture's title\n"
	"      --xlabel T       x axis label (default: the column name)\n"
	"      --ylabel T       y axis label (default: the column name(s))\n"
	"      --size WxH       picture size in pixels (default 720x440)\n"
	"  -o, --output FILE    write to FILE (default: stdout)\n"
	"      --stats FILE     also write a JSON summary to FILE\n"
	"      --progress       show progress on a terminal\n"
	"  -q, --quiet          no warnings\n"
	"  -v, --verbose        say what was drawn on stderr\n"
	"  -h, --help           show this help and exit\n"
	"  -V, --version        show versions and exit\n";

enum { OPT_KIND = GC_OPT_TOOL, OPT_X, OPT_Y, OPT_BY, OPT_Z, OPT_WHERE, OPT_LOGX, OPT_LOGY,
       OPT_TITLE, OPT_XLABEL, OPT_YLABEL, OPT_SIZE };
enum kind { K_LINE, K_BAR, K_HEAT };

#define MAX_Y 16
#define MAX_WHERE 16
#define MAX_SERIES 64

struct cmdline {
	gc_common c;
	const char *input;
	enum kind kind;
	const char *x, *by, *z;
	char *ycols[MAX_Y];
	int ny;
	char *where_col[MAX_WHERE], *where_val[MAX_WHERE];
	int nwhere;
	int logx, logy;
	const char *title, *xlabel, *ylabel;
	double width, height;
};




static void parse_cmdline(int argc, char **argv, struct cmdline *cl)
{
	static const struct option longopts[] = {
		GC_BASIC_LONGOPTS,
		{"stats", required_argument, NULL, GC_OPT_STATS},
		{"progress", no_argument, NULL, GC_OPT_PROGRESS},
		{"kind", required_argument, NULL, OPT_KIND},
		{"x", required_argument, NULL, OPT_X},
		{"y", required_argument, NULL, OPT_Y},
		{"by", required_argument, NULL, OPT_BY},
		{"z", required_argument, NULL, OPT_Z},
		{"where", required_argument, NULL, OPT_WHERE},
		{"logx", no_argument, NULL, OPT_LOGX},
		{"logy", no_argument, NULL, OPT_LOGY},
		{"title", required_argument, NULL, OPT_TITLE},
		{"xlabel", required_argument, NULL, OPT_XLABEL},
		{"ylabel", required_argument, NULL, OPT_YLABEL},
		{"size", required_argument, NULL, OPT_SIZE},
		{NULL, 0, NULL, 0},
	};
	int c;
	memset(cl, 0, sizeof *cl);
	cl->width = 720;
	cl->height = 440;
	while ((c = gc_getopt(argc, argv, "hVqvo:", longopts)) != -1) {
		if (gc_common_option(&cl->c, c, optarg, help))
			continue;
		switch (c) {
		case OPT_KIND:
			if (strcmp(optarg, "line") == 0)
				cl->kind = K_LINE;
			else if (strcmp(optarg, "bar") == 0)
				cl->kind = K_BAR;
			else if (strcmp(optarg, "heat") == 0)
				cl->kind = K_HEAT;
			else
				gc_usage_error("--kind: '%s' is not line, bar or heat", optarg);
			break;
		case OPT_X: cl->x = optarg; break;
		case OPT_BY: cl->by = optarg; break;
		case OPT_Z: cl->z = optarg; break;
		case OPT_Y:
			for (char *s = strtok(optarg, ","); s; s = strtok(NULL, ",")) {
				if (cl->ny == MAX_Y)
					gc_usage_error("--y: more than %d columns", MAX_Y);
				cl->ycols[cl->ny++] = s;
			}
			break;
		case OPT_WHERE: {
			char *eq = strchr(optarg, '=');
			if (!eq || eq == optarg)
				gc_usage_error("--where: '%s' is not COLUMN=VALUE", optarg);
			if (cl->nwhere == MAX_WHERE)
				gc_usage_error("--where: more than %d conditions", MAX_WHERE);
			*eq = '\0';
			cl->where_col[cl->nwhere] = optarg;
			cl->where_val[cl->nwhere++] = eq + 1;
			break;
		}
		case OPT_LOGX: cl->logx = 1; break;
		case OPT_LOGY: cl->logy = 1; break;
		case OPT_TITLE: cl->title = optarg; break;
		case OPT_XLABEL: cl->xlabel = optarg; break;
		case OPT_YLABEL: cl->ylabel = optarg; break;
		case OPT_SIZE: {
			unsigned w, h;
			char extra;
			if (sscanf(optarg, "%ux%u%c", &w, &h, &extra) != 2 || w < 200 || h < 150 ||
			    w > 10000 || h > 10000)
				gc_usage_error("--size: '%s' is not WxH from 200x150 to 10000x10000",
					       optarg);
			cl->width = w;
			cl->height = h;
			break;
		}
		default: gc_usage_error("unexpected option");
		}
	}
	if (!cl->x)
		gc_usage_error("--x COLUMN is required");
	if (!cl->ny)
		gc_usage_error("--y COLUMN is required");
	if (cl->by && cl->ny > 1)
		gc_usage_error("--by takes a single --y column");
	if (cl->kind == K_HEAT) {
		if (!cl->z)
			gc_usage_error("--kind heat needs --z COLUMN");
		if (cl->ny > 1 || cl->by)
			gc_usage_error("--kind heat takes one --y column and no --by");
		if (cl->logx || cl->logy)
			gc_usage_error("--kind heat has no logarithmic axes");
	} else if (cl->z) {
		gc_usage_error("--z goes with --kind heat");
	}
	if (cl->kind == K_BAR && cl->logx)
		gc_usage_error("--logx: bars have a categorical x axis");
	cl->input = gc_one_input(argc, argv);
}

/* gc_table_read's progress: the bytes read (the size is not known). */
static void progress(void *ctx, uint64_t bytes)
{
	gc_progress(*(const int *)ctx, bytes, 0);
}

static int column(const gc_table *t, const char *opt, const char *name)
{
	for (size_t i = 0; i < t->ncols; i++)
		if (strcmp(t->cols[i], name) == 0)
			return (int)i;
	gc_usage_error("%s: no column '%s' in %s", opt, name, t->name);
}

/* A number, or NAN for an empty field; a malformed one is an error. */
static double number(const gc_table *t, size_t r, int col)
{
	const char *s = t->rows[r][col];
	if (!*s)
		return NAN;
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	if (*end || errno || !isfinite(v))
		gc_die(GC_EXIT_DATA, "%s:%llu: column %s: '%s' is not a number", t->name,
		       (unsigned long long)t->lineno[r], t->cols[col], s);
	return v;
}

static int is_number(const char *s)
{
	char *end;
	if (!*s)
		return 0;
	double v = strtod(s, &end);
	return !*end && isfinite(v);
}

/* Distinct values of a column over the kept rows, in table order. */
struct cats {
	const char **v;
	size_t n;
};

static size_t cat_index(struct cats *c, const char *s, int add)
{
	for (size_t i = 0; i < c->n; i++)
		if (strcmp(c->v[i], s) == 0)
			return i;
	if (!add)
		return (size_t)-1;
	c->v = gc_xrealloc(c->v, (c->n + 1) * sizeof *c->v);
	c->v[c->n] = s;
	return c->n++;
}

/* ---- drawing ------------------------------------------------------------ */

struct point {
	double x, y;
};

static int by_x(const void *a, const void *b)
{
	double d = ((const struct point *)a)->x - ((const struct point *)b)->x;
	return d < 0 ? -1 : d > 0;
}

/* One picture as it is made: the table, its columns, the kept rows, the
 * categories and series, and the SVG in memory. */
struct job {
	const struct cmdline *cl;
	gc_table t;
	int xc, yc[MAX_Y], bc, zc; /* columns of --x, --y, --by (-1), --z (-1) */
	size_t *keep, nkeep;       /* the rows that --where keeps */
	int xnum;                  /* the x axis is numeric */
	struct cats xs, ys, series;
	char *pic;                 /* the picture, written only when complete */
	size_t piclen;
	FILE *out;
	gc_plot p;
	char ylab[256];            /* the --y columns, joined */
	const char *xl, *yl;       /* the axis labels */
};

/* The columns the options name, and the rows --where keeps. */
static void pick_rows(struct job *j)
{
	const struct cmdline *cl = j->cl;
	const gc_table *t = &j->t;
	j->xc = column(t, "--x", cl->x);
	for (int i = 0; i < cl->ny; i++)
		j->yc[i] = column(t, "--y", cl->ycols[i]);
	j->bc = cl->by ? column(t, "--by", cl->by) : -1;
	j->zc = cl->z ? column(t, "--z", cl->z) : -1;
	int wc[MAX_WHERE];
	for (int i = 0; i < cl->nwhere; i++)
		wc[i] = column(t, "--where", cl->where_col[i]);
	j->keep = gc_xrealloc(NULL, (t->nrows + 1) * sizeof *j->keep);
	j->nkeep = 0;
	for (size_t r = 0; r < t->nrows; r++) {
		int ok = 1;
		for (int i = 0; i < cl->nwhere && ok; i++)
			ok = strcmp(t->rows[r][wc[i]], cl->where_val[i]) == 0;
		if (ok)
			j->keep[j->nkeep++] = r;
	}
	if (!j->nkeep)
		gc_die(GC_EXIT_DATA, "%s: no rows to plot%s", t->name,
		       cl->nwhere ? " (none matches --where)" : "");
}

/* The x axis (numeric when every kept x is a number, lines only), the
 * categories and the series. */
static void categorise(struct job *j)
{
	const struct cmdline *cl = j->cl;
	char ***rows = j->t.rows;
	j->xnum = cl->kind == K_LINE;
	for (size_t k = 0; k < j->nkeep && j->xnum; k++)
		j->xnum = is_number(rows[j->keep[k]][j->xc]);
	if (cl->logx && !j->xnum)
		gc_usage_error("--logx: column %s holds values that are not numbers", cl->x);
	for (size_t k = 0; k < j->nkeep; k++) {
		char **row = rows[j->keep[k]];
		if (!j->xnum)
			cat_index(&j->xs, row[j->xc], 1);
		if (cl->kind == K_HEAT)
			cat_index(&j->ys, row[j->yc[0]], 1);
		if (j->bc >= 0)
			cat_index(&j->series, row[j->bc], 1);
	}
	if (j->bc < 0 && cl->kind != K_HEAT)
		for (int i = 0; i < cl->ny; i++)
			cat_index(&j->series, cl->ycols[i], 1);
	if (j->series.n > MAX_SERIES)
		gc_die(GC_EXIT_DATA, "%s: %zu series (at most %d: narrow them with --where)",
		       j->t.name, j->series.n, MAX_SERIES);
}

/* The picture's start in memory, so that a bad value met half-way leaves
 * nothing on the output: labels, the room of the legend, the title. */
static void begin_picture(struct job *j)
{
	const struct cmdline *cl = j->cl;
	j->out = open_memstream(&j->pic, &j->piclen);
	if (!j->out)
		gc_die(GC_EXIT_DATA, "out of memory");
	j->ylab[0] = '\0';
	for (int i = 0; i < cl->ny; i++)
		snprintf(j->ylab + strlen(j->ylab), sizeof j->ylab - strlen(j->ylab), "%s%s",
			 i ? ", " : "", cl->ycols[i]);
	j->xl = cl->xlabel ? cl->xlabel : cl->x;
	j->yl = cl->ylabel ? cl->ylabel : j->ylab;
	double legend = 0;
	if (cl->kind == K_HEAT) {
		legend = 110; /* the bar, numbers of up to 10 characters, the title */
	} else if (j->series.n > 1) {
		/* the swatch, the gap and the longest name (at most half the width) */
		for (size_t s = 0; s < j->series.n; s++)
			if (28 + gc_plot_text_width(11, j->series.v[s]) > legend)
				legend = 28 + gc_plot_text_width(11, j->series.v[s]);
		if (legend > cl->width / 2)
			legend = cl->width / 2;
	}
	gc_plot_begin(&j->p, j->out, cl->width, cl->height, cl->title, legend);
	fputs("<style>.light { fill: white; }</style>\n", j->out);
}

/* Heat-map cells: x categories x y categories, one value each (NAN: none);
 * *lo and *hi set to the range of the values. */
static double *heat_cells(struct job *j, double *lo, double *hi)
{
	const gc_table *t = &j->t;
	const struct cmdline *cl = j->cl;
	size_t nc = j->xs.n * j->ys.n;
	double *cell = gc_xrealloc(NULL, nc * sizeof *cell);
	for (size_t i = 0; i < nc; i++)
		cell[i] = NAN;
	*lo = INFINITY;
	*hi = -INFINITY;
	for (size_t k = 0; k < j->nkeep; k++) {
		size_t r = j->keep[k];
		size_t i = cat_index(&j->xs, t->rows[r][j->xc], 0) * j->ys.n +
			   cat_index(&j->ys, t->rows[r][j->yc[0]], 0);
		double v = number(t, r, j->zc);
		if (isnan(v))
			continue;
		if (!isnan(cell[i]))
			gc_die(GC_EXIT_DATA, "%s:%llu: a second %s for %s=%s, %s=%s (narrow "
			       "the rows with --where)", t->name, (unsigned long long)t->lineno[r],
			       cl->z, cl->x, t->rows[r][j->xc], cl->ycols[0], t->rows[r][j->yc[0]]);
		cell[i] = v;
		*lo = v < *lo ? v : *lo;
		*hi = v > *hi ? v : *hi;
	}
	return cell;
}

/* The colour scale of a heat-map in the legend column. */
static void heat_scale(struct job *j, double lo, double hi)
{
	FILE *out = j->out;
	double sx = j->p.right + 24, sy = j->p.top, sh = j->p.bottom - j->p.top;
	for (int i = 0; i < 32; i++) {
		char col[8];
		gc_plot_ramp(1 - (i + 0.5) / 32, col);
		gc_svg_rect(out, sx, sy + sh * i / 32, 14, sh / 32 + 0.5, col, "scale", NULL);
	}
	char a[64], b[64];
	gc_plot_num(hi, a, sizeof a);
	gc_plot_num(lo, b, sizeof b);
	gc_svg_text(out, sx + 18, sy + 10, "start", 11, 0, "scale", a);
	gc_svg_text(out, sx + 18, sy + sh, "start", 11, 0, "scale", b);
	/* the title upright beside the numbers, inside the picture */
	double w = gc_plot_text_width(11, a) > gc_plot_text_width(11, b) ? gc_plot_text_width(11, a)
									  : gc_plot_text_width(11, b);
	double tx = sx + 18 + w + 14;
	if (tx > j->p.width - 6)
		tx = j->p.width - 6;
	gc_svg_text(out, tx, sy + sh / 2, "middle", 11, -90, "scale", j->cl->z);
}

static void draw_heat(struct job *j)
{
	const struct cmdline *cl = j->cl;
	gc_plot *p = &j->p;
	double lo, hi;
	double *cell = heat_cells(j, &lo, &hi);
	gc_plot_axis_cat(&p->x, j->xl, j->xs.v, j->xs.n);
	gc_plot_axis_cat(&p->y, j->yl, j->ys.v, j->ys.n);
	gc_plot_frame(p);
	double bw = gc_plot_band(p, 0), bh = gc_plot_band(p, 1);
	for (size_t xi = 0; xi < j->xs.n; xi++)
		for (size_t yi = 0; yi < j->ys.n; yi++) {
			double v = cell[xi * j->ys.n + yi];
			double cx = gc_plot_x(p, (double)xi), cy = gc_plot_y(p, (double)yi);
			char col[8], txt[64], tip[512];
			if (isnan(v))
				continue;
			double u = hi > lo ? (v - lo) / (hi - lo) : 0.5;
			gc_plot_ramp(u, col);
			gc_plot_num(v, txt, sizeof txt);
			snprintf(tip, sizeof tip, "%s=%s %s=%s %s=%s", cl->x, j->xs.v[xi],
				 cl->ycols[0], j->ys.v[yi], cl->z, txt);
			gc_svg_rect(j->out, cx - bw / 2, cy - bh / 2, bw, bh, col, "cell", tip);
			if (bw > 28 && bh > 14)
				gc_svg_text(j->out, cx, cy + 4, "middle", 10, 0,
					    strcmp(gc_plot_ramp_ink(u), "white") == 0 ? "value light"
										     : "value",
					    txt);
		}
	heat_scale(j, lo, hi);
	if (cl->c.verbose)
		fprintf(stderr, "gc-plot: heat-map of %zu x %zu cells, %s from %g to %g\n",
			j->xs.n, j->ys.n, cl->z, lo, hi);
	free(cell);
}

/* Points per series: (x, y), x a number or a category index. */
struct points {
	struct point **pts;
	size_t *np;
	double xlo, xhi, ylo, yhi;
};

static void collect_points(struct job *j, struct points *q)
{
	const struct cmdline *cl = j->cl;
	const gc_table *t = &j->t;
	size_t ns = j->series.n;
	q->pts = gc_xrealloc(NULL, ns * sizeof *q->pts);
	q->np = gc_xrealloc(NULL, ns * sizeof *q->np);
	for (size_t s = 0; s < ns; s++) {
		q->pts[s] = gc_xrealloc(NULL, j->nkeep * sizeof **q->pts);
		q->np[s] = 0;
	}
	q->xlo = INFINITY, q->xhi = -INFINITY, q->ylo = INFINITY, q->yhi = -INFINITY;
	for (size_t k = 0; k < j->nkeep; k++) {
		size_t r = j->keep[k];
		double x = j->xnum ? number(t, r, j->xc)
				   : (double)cat_index(&j->xs, t->rows[r][j->xc], 0);
		for (size_t s = 0; s < ns; s++) {
			int col = j->bc >= 0 ? j->yc[0] : j->yc[s];
			if (j->bc >= 0 && strcmp(t->rows[r][j->bc], j->series.v[s]) != 0)
				continue;
			double y = number(t, r, col);
			if (isnan(y) || (cl->logy && y <= 0) || (cl->logx && x <= 0))
				continue;
			q->pts[s][q->np[s]++] = (struct point){x, y};
			q->xlo = x < q->xlo ? x : q->xlo;
			q->xhi = x > q->xhi ? x : q->xhi;
			q->ylo = y < q->ylo ? y : q->ylo;
			q->yhi = y > q->yhi ? y : q->yhi;
		}
	}
	if (!(q->ylo <= q->yhi))
		gc_die(GC_EXIT_DATA, "%s: no numbers to plot in %s", t->name, j->ylab);
}

/* Series s as bars, side by side within each x category's band. */
static void draw_bars(struct job *j, const struct points *q, size_t s, double band)
{
	const gc_plot *p = &j->p;
	const char *colr = gc_plot_color(s);
	double bw = band * 0.8 / (double)j->series.n;
	double base = gc_plot_y(p, j->cl->logy ? p->y.lo : (p->y.lo > 0 ? p->y.lo : 0));
	for (size_t i = 0; i < q->np[s]; i++) {
		const struct point *pt = &q->pts[s][i];
		double cx = gc_plot_x(p, pt->x) - band * 0.4 + bw * (double)s;
		double y = gc_plot_y(p, pt->y);
		char tip[512], v[64];
		gc_plot_num(pt->y, v, sizeof v);
		snprintf(tip, sizeof tip, "%s, %s: %s", j->series.v[s], j->xs.v[(size_t)pt->x], v);
		/* a zero is a thin bar on the axis, so that it shows */
		double h = fabs(base - y) < 1.5 ? 1.5 : fabs(base - y);
		gc_svg_rect(j->out, cx, y < base ? y : base - h, bw, h, colr, "bar", tip);
	}
}

/* At most this many markers a series: with more points, every k-th. */
#define MARKS_MAX 30

/* Series s as a line through its points (sorted by x when x is a number),
 * in its colour, dash pattern and marker shape (gc_plot_dash and
 * gc_plot_marker), so that series that coincide all show.  Above
 * MARKS_MAX points a marker goes on every k-th point only, each series
 * starting at its own point (k * s / series), so that the markers of
 * coinciding series do not sit on each other either. */
static void draw_line(struct job *j, struct points *q, size_t s)
{
	const gc_plot *p = &j->p;
	const char *colr = gc_plot_color(s);
	size_t n = q->np[s];
	if (j->xnum)
		qsort(q->pts[s], n, sizeof **q->pts, by_x);
	double *xy = gc_xrealloc(NULL, (2 * n + 2) * sizeof *xy);
	for (size_t i = 0; i < n; i++) {
		xy[2 * i] = gc_plot_x(p, q->pts[s][i].x);
		xy[2 * i + 1] = gc_plot_y(p, q->pts[s][i].y);
	}
	if (n > 1)
		gc_svg_polyline_dash(j->out, xy, n, colr, 2, gc_plot_dash(s), "series");
	size_t k = (n + MARKS_MAX - 1) / MARKS_MAX;
	if (k < 1)
		k = 1;
	for (size_t i = k * s / j->series.n % k; i < n; i += k)
		gc_plot_marker(j->out, s, xy[2 * i], xy[2 * i + 1], colr, "point");
	free(xy);
}

static void draw_series(struct job *j)
{
	const struct cmdline *cl = j->cl;
	gc_plot *p = &j->p;
	struct points q;
	collect_points(j, &q);
	if (j->xnum)
		gc_plot_axis_num(&p->x, j->xl, q.xlo, q.xhi, cl->logx);
	else
		gc_plot_axis_cat(&p->x, j->xl, j->xs.v, j->xs.n);
	if (!cl->logy && cl->kind == K_BAR && q.ylo > 0)
		q.ylo = 0;
	gc_plot_axis_num(&p->y, j->yl, q.ylo, q.yhi, cl->logy);
	gc_plot_frame(p);
	double band = gc_plot_band(p, 0);
	for (size_t s = 0; s < j->series.n; s++) {
		if (cl->kind == K_BAR)
			draw_bars(j, &q, s, band);
		else
			draw_line(j, &q, s);
	}
	if (cl->kind == K_BAR && q.ylo == 0 && q.yhi == 0)
		gc_svg_text(j->out, (p->left + p->right) / 2, (p->top + p->bottom) / 2, "middle", 12, 0,
			    "note", "every value is 0");
	if (j->series.n > 1 && cl->kind == K_BAR)
		gc_plot_legend(p, j->series.v, j->series.n);
	else if (j->series.n > 1)
		gc_plot_legend_lines(p, j->series.v, j->series.n);
	if (cl->c.verbose)
		for (size_t s = 0; s < j->series.n; s++)
			fprintf(stderr, "gc-plot: series %s: %zu points\n", j->series.v[s], q.np[s]);
	for (size_t s = 0; s < j->series.n; s++)
		free(q.pts[s]);
	free(q.pts);
	free(q.np);
}

/* The finished picture to the output. */
static void write_picture(struct job *j)
{
	gc_plot_end(&j->p);
	if (fclose(j->out) != 0)
		gc_die(GC_EXIT_DATA, "out of memory");
	FILE *out = gc_open_text(j->cl->c.out);
	fwrite(j->pic, 1, j->piclen, out);
	gc_close_text(out, j->cl->c.out);
	free(j->pic);
}

static void free_job(struct job *j)
{
	gc_table_free(&j->t);
	free(j->keep);
	free(j->xs.v);
	free(j->ys.v);
	free(j->series.v);
}

/* --stats: what was read and drawn (gc(7) VOCABULARY). */
static void write_stats(const struct job *j, const char *path)
{
	static const char *const kinds[] = {"line", "bar", "heat"};
	const struct cmdline *cl = j->cl;
	FILE *f = gc_open_text(path);
	gc_json o;
	gc_json_begin(&o, f);
	gc_json_str(&o, "tool", "gc-plot");
	gc_json_str(&o, "input", j->t.name);
	gc_json_obj(&o, "config");
	gc_json_str(&o, "kind", kinds[cl->kind]);
	if (cl->x)
		gc_json_str(&o, "x", cl->x);
	gc_json_arr(&o, "y");
	for (int i = 0; i < cl->ny; i++)
		gc_json_str(&o, NULL, cl->ycols[i]);
	gc_json_close(&o);
	if (cl->by)
		gc_json_str(&o, "by", cl->by);
	if (cl->z)
		gc_json_str(&o, "z", cl->z);
	gc_json_u64(&o, "width", (uint64_t)cl->width);
	gc_json_u64(&o, "height", (uint64_t)cl->height);
	gc_json_close(&o);
	gc_json_u64(&o, "rows", j->t.nrows);
	gc_json_u64(&o, "rows_kept", j->nkeep);
	if (cl->kind != K_HEAT)
		gc_json_u64(&o, "series", cl->by ? j->series.n : (size_t)cl->ny);
	gc_json_end(&o);
	gc_close_text(f, path);
}

int main(int argc, char **argv)
{
	struct cmdline cl;
	struct job j;

	gc_prog_init("gc-plot", argc, argv);
	parse_cmdline(argc, argv, &cl);
	memset(&j, 0, sizeof j);
	j.cl = &cl;
	char err[GC_TABLE_ERR];
	if (gc_table_read(&j.t, cl.input, progress, &cl.c.progress, err, sizeof err) < 0)
		gc_die(GC_EXIT_DATA, "%s", err);
	gc_progress_end(cl.c.progress);
	pick_rows(&j);
	categorise(&j);
	begin_picture(&j);
	if (cl.kind == K_HEAT)
		draw_heat(&j);
	else
		draw_series(&j);
	write_picture(&j);
	if (cl.c.stats)
		write_stats(&j, cl.c.stats);
	free_job(&j);
	return 0;
}
