/*
 * svg.h - writing small SVG pictures (plots) as text, with no library:
 * a document, rectangles, lines, polylines and escaped text.  Coordinates
 * are user units (pixels at 100%); numbers are written with two decimals
 * so the output is deterministic and diffable.  Every element may carry a
 * class (for tests and style sheets) and a <title> (a tooltip).
 *
 * Writing goes to a stdio stream; the caller checks ferror() (gc_close_text
 * does) -- these calls neither print messages nor exit.
 */
#ifndef GC_SVG_H
#define GC_SVG_H

#include <stdio.h>

/* <svg> with the given size, a white background and a default font. */
void gc_svg_begin(FILE *f, double width, double height, const char *title);
void gc_svg_end(FILE *f);

/* A filled rectangle (x, y top left); cls and tip may be NULL. */
void gc_svg_rect(FILE *f, double x, double y, double w, double h, const char *fill,
		 const char *cls, const char *tip);
/* A line; dash NULL for solid, else an SVG dash array ("6,4"). */
void gc_svg_line(FILE *f, double x1, double y1, double x2, double y2, const char *stroke,
		 double width, const char *dash, const char *cls);
/* A polyline through n points xy[0..2n). */
void gc_svg_polyline(FILE *f, const double *xy, size_t n, const char *stroke, double width,
		     const char *cls);
/* A polyline with a dash array (NULL: solid, as gc_svg_polyline). */
void gc_svg_polyline_dash(FILE *f, const double *xy, size_t n, const char *stroke, double width,
			  const char *dash, const char *cls);
/* A circle; fill and stroke are colours or "none". */
void gc_svg_circle(FILE *f, double cx, double cy, double r, const char *fill, const char *stroke,
		   double width, const char *cls);
/* A path of SVG path data d ("M1,2 L3,4 Z"); fill and stroke as above. */
void gc_svg_path(FILE *f, const char *d, const char *fill, const char *stroke, double width,
		 const char *cls);
/* Text at (x, y); anchor "start", "middle" or "end"; rotate in degrees
 * about (x, y) (0: none); the text is escaped. */
void gc_svg_text(FILE *f, double x, double y, const char *anchor, double size, double rotate,
		 const char *cls, const char *text);
/* s with &, <, >, " escaped. */
void gc_svg_escape(FILE *f, const char *s);

#endif
