/*
 * atomic.h - output files that appear whole or not at all (atomic.c).
 *
 * gc_atomic_open opens a path for writing the way open(2) with O_WRONLY |
 * O_CREAT | O_TRUNC does, but when the path is a regular file or does not
 * exist yet, the bytes go to a temporary name beside it (".NAME.XXXXXX",
 * the mode the file would have had) until gc_atomic_commit renames it to
 * the path.  A tool that dies first (an error, a dead upstream stage, a
 * full disk) leaves the path as it was: no --stats file, report or stream
 * that looks complete and is not.  gc_atomic_discard, or the exit of the
 * process (an atexit handler), removes what was not committed.  Devices,
 * FIFOs and symbolic links are written in place (/dev/null, /dev/full, a
 * named pipe: nothing to rename).
 */
#ifndef GC_ATOMIC_H
#define GC_ATOMIC_H

/* A writable fd, or -1 with errno set. */
int gc_atomic_open(const char *path);
/* After fd is closed (and its writes checked): put the file in place.  0,
 * or -1 with errno set (the temporary is removed).  0 for an fd that was
 * written in place. */
int gc_atomic_commit(int fd);
/* Remove the temporary of fd, written or not (nothing for an fd written in
 * place); before or after fd is closed. */
void gc_atomic_discard(int fd);

#endif
