/* svg.c - small SVG pictures as text (svg.h). */
#include "report/svg.h"

void gc_svg_escape(FILE *f, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		default:
			/* Control characters are not allowed in XML 1.0. */
			if ((unsigned char)*s < 0x20 && *s != '\n' && *s != '\t')
				fputc(' ', f);
			else
				fputc(*s, f);
		}
	}
}

static void attr_class(FILE *f, const char *cls)
{
	if (cls) {
		fputs(" class=\"", f);
		gc_svg_escape(f, cls);
		fputc('"', f);
	}
}

void gc_svg_begin(FILE *f, double width, double height, const char *title)
{
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" "
		"width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
		"font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\">\n",
		width, height, width, height);
	if (title) {
		fputs("<title>", f);
		gc_svg_escape(f, title);
		fputs("</title>\n", f);
	}
	fprintf(f, "<rect x=\"0\" y=\"0\" width=\"%.0f\" height=\"%.0f\" fill=\"white\"/>\n",
		width, height);
}

void gc_svg_end(FILE *f)
{
	fputs("</svg>\n", f);
}

void gc_svg_rect(FILE *f, double x, double y, double w, double h, const char *fill,
		 const char *cls, const char *tip)
{
	fprintf(f, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"%s\"",
		x, y, w < 0 ? 0 : w, h < 0 ? 0 : h, fill);
	attr_class(f, cls);
	if (tip) {
		fputs("><title>", f);
		gc_svg_escape(f, tip);
		fputs("</title></rect>\n", f);
	} else {
		fputs("/>\n", f);
	}
}

void gc_svg_line(FILE *f, double x1, double y1, double x2, double y2, const char *stroke,
		 double width, const char *dash, const char *cls)
{
	fprintf(f, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" stroke=\"%s\" "
		"stroke-width=\"%.2f\"", x1, y1, x2, y2, stroke, width);
	if (dash)
		fprintf(f, " stroke-dasharray=\"%s\"", dash);
	attr_class(f, cls);
	fputs("/>\n", f);
}

void gc_svg_polyline(FILE *f, const double *xy, size_t n, const char *stroke, double width,
		     const char *cls)
{
	gc_svg_polyline_dash(f, xy, n, stroke, width, NULL, cls);
}

void gc_svg_polyline_dash(FILE *f, const double *xy, size_t n, const char *stroke, double width,
			  const char *dash, const char *cls)
{
	fputs("<polyline fill=\"none\"", f);
	fprintf(f, " stroke=\"%s\" stroke-width=\"%.2f\"", stroke, width);
	if (dash)
		fprintf(f, " stroke-dasharray=\"%s\"", dash);
	attr_class(f, cls);
	fputs(" points=\"", f);
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%s%.2f,%.2f", i ? " " : "", xy[2 * i], xy[2 * i + 1]);
	fputs("\"/>\n", f);
}

void gc_svg_circle(FILE *f, double cx, double cy, double r, const char *fill, const char *stroke,
		   double width, const char *cls)
{
	fprintf(f, "<circle cx=\"%.2f\" cy=\"%.2f\" r=\"%.2f\" fill=\"%s\" stroke=\"%s\" "
		"stroke-width=\"%.2f\"", cx, cy, r, fill, stroke, width);
	attr_class(f, cls);
	fputs("/>\n", f);
}

void gc_svg_path(FILE *f, const char *d, const char *fill, const char *stroke, double width,
		 const char *cls)
{
	fprintf(f, "<path d=\"%s\" fill=\"%s\" stroke=\"%s\" stroke-width=\"%.2f\"", d, fill,
		stroke, width);
	attr_class(f, cls);
	fputs("/>\n", f);
}

void gc_svg_text(FILE *f, double x, double y, const char *anchor, double size, double rotate,
		 const char *cls, const char *text)
{
	fprintf(f, "<text x=\"%.2f\" y=\"%.2f\" text-anchor=\"%s\" font-size=\"%.1f\"", x, y,
		anchor, size);
	if (rotate != 0)
		fprintf(f, " transform=\"rotate(%.1f %.2f %.2f)\"", rotate, x, y);
	attr_class(f, cls);
	fputc('>', f);
	gc_svg_escape(f, text);
	fputs("</text>\n", f);
}
