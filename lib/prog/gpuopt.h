/*
 * gpuopt.h - program support for --gpu and the options that set GPU keys:
 * the preset search path, and config/gpu.h's checks turned into messages
 * and exit statuses (gpuopt.c).  For main only: these print and exit.
 */
#ifndef GC_GPUOPT_H
#define GC_GPUOPT_H

#include "config/gpu.h"
#include "stream/format.h"

#include <stddef.h>
#include <stdio.h>

/* Find and parse NAME (searched in $GC_GPU_PATH, the build tree's share/gpus
 * and the installed data directory), FILE (ours, or a GPGPU-Sim
 * gpgpusim.config by its content) or DIR (its gpgpusim.config and
 * trace.config); exit 2 with file:line on a bad line, and listing the
 * presets for an unknown NAME. */
void gc_gpu_load(gc_gpu *g, const char *name_or_file);
/* The presets on the search path, sorted; caller frees each and the list.
 * Returns how many. */
int gc_gpu_presets(char ***names);
/* "NAME  DESCRIPTION" lines of every preset. */
void gc_gpu_list_presets(FILE *f);
/* --gpu NAME|FILE: gc_gpu_load (search path, file:line syntax errors) and
 * then every key and value checked; exit 2 with "FILE:LINE: ..." */
void gc_gpu_config_load(gc_gpu_config *c, const char *name_or_file);
/* An option that overrides a key (after gc_gpu_begin): a usage error
 * "OPT: bad value ..." on failure. */
void gc_gpu_config_option(gc_gpu_config *c, const char *opt, const char *key,
			  const char *val);
/* A tool's options that each set one key: `opt` its getopt code, `name`
 * as messages spell it ("--ways"), `key` the gpu key. */
typedef struct gc_gpu_keyopt {
	int opt;
	const char *name, *key;
} gc_gpu_keyopt;
/* The index of getopt code opt in t[0..n), or -1. */
int gc_gpu_keyopt_find(const gc_gpu_keyopt *t, size_t n, int opt);
/* gc_gpu_config_option for each option given (vals[i] not NULL), in table
 * order. */
void gc_gpu_keyopts_apply(gc_gpu_config *c, const gc_gpu_keyopt *t, size_t n,
			  const char *const *vals);
/* gc_gpu_finish after the options; exit 2 with "options: ..." */
void gc_gpu_config_finish(gc_gpu_config *c);

/* --op-latency CLASS=LAT[,INIT] of the compute intervals (gc-import and
 * gc-gen --intervals), repeatable: the latency, and the initiation
 * interval when given, of an opcode class (gc_gpu_op_name), overriding the
 * GPU's op.CLASS.latency and op.CLASS.initiation; for a class given twice
 * the last one counts.  0: the GPU's. */
typedef struct gc_gpu_oplat {
	int given; /* any --op-latency */
	unsigned latency[GC_NOPS], initiation[GC_NOPS];
} gc_gpu_oplat;
/* One --op-latency argument into o (zeroed before the first); a usage
 * error naming the option and the bad part: the form, the class, or the
 * value as the key's range has it. */
void gc_gpu_oplat_parse(gc_gpu_oplat *o, const char *arg);
/* Set the latencies of o in c as --op-latency: after gc_gpu_for_stream (or
 * gc_gpu_config_load and gc_gpu_begin), before gc_gpu_config_finish. */
void gc_gpu_oplat_apply(gc_gpu_config *c, const gc_gpu_oplat *o);

/* The GPU a stage runs with -- the one path every tool takes:
 *
 *   gc_gpu_config gpu;
 *   gc_gpu_for_stream(&gpu, cl.c.gpu, gc_reader_header(r));
 *   if (cl.l1_size)                      (the tool's own options, a layer)
 *           gc_gpu_config_option(&gpu, "--l1-size", "l1.size", cl.l1_size);
 *   gc_gpu_config_finish(&gpu);
 *   ...
 *   gc_gpu_config_header(&gpu, cl.c.gpu, &out_header);
 *
 * Precedence, highest first (gc-config(5), GPU SELECTION):
 *   1. the tool's options (gc_gpu_config_option, after this call);
 *   2. --gpu NAME|FILE (gpu_opt; NULL when not given): the preset or file,
 *      and the input's gpu.* keys are ignored;
 *   3. the input stream header's gpu.* keys (the configuration the
 *      previous stage ran with; `in` may be NULL for a tool without input);
 *   4. the input header's `gpu` key (a preset named to an earlier tool
 *      that wrote no gpu.* keys, as gc-gen --gpu NAME did);
 *   5. the preset of the trace's binary version (gc-import's
 *      binary_version key; gc_gpu_preset_of_cc), with a one-line note;
 *   6. the built-in default, the seed-000 GPU (fermi-gtx470-16k), with a
 *      one-line warning when the tool has an input.
 * With --gpu, a warning when the input's gpu.name differs.  Notes and
 * warnings are off with -q (gc_prog_quiet).
 * Every layer is fully checked (gc_gpu_finish).  Exits 2 for a bad --gpu
 * (file:line), 1 for bad gpu.* keys in the input ("input: stream header
 * key ...").  Returns with a new layer begun (gc_gpu_begin), so the
 * options that follow may override any key; then gc_gpu_config_finish. */
void gc_gpu_for_stream(gc_gpu_config *c, const char *gpu_opt, const gc_header *in);
/* Write every parameter into the output header h as gpu.* keys, and
 * gpu=<gpu_opt> when --gpu was given; exit 1 when the header is full. */
void gc_gpu_config_header(const gc_gpu_config *c, const char *gpu_opt, gc_header *h);
/* The GPU a stream's header h names, as a stage that reads the stream
 * without --gpu takes it (gc_gpu_for_stream, layers 3 to 5): its gpu.name,
 * its gpu key, or the preset of the trace's binary version; NULL when it
 * names none (that stage then takes the default GPU).  The --stats `gpu`
 * of the tools that start a stream: gc-import, gc-gen, gc-clone. */
const char *gc_gpu_header_named(const gc_header *h);

#endif
