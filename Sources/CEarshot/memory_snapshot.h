// A copy of the memory espeak-ng keeps its state in, for a worker process that synthesizes many phrases,
// each from the same state (see memory_snapshot.c). Private to CEarshot.
#ifndef EARSHOT_MEMORY_SNAPSHOT_H
#define EARSHOT_MEMORY_SNAPSHOT_H

#include <stddef.h>

/// Copies the writable memory of espeak-ng and the libraries it runs on, the main heap and every malloc
/// arena. Call once, in a single-threaded process, in the state every phrase must start from. Returns 0,
/// or -1 when the memory map could not be read or the copy not made (nothing is then kept).
__attribute__((visibility("hidden"))) int earshot_memory_snapshot_take(void);

/// Writes the copy back: every page that was in memory gets its copied bytes, every page that was not is
/// dropped again (so it reads as it did: zeros, or the file it maps). Call only from the function that
/// called `earshot_memory_snapshot_take` or one it calls, never from inside espeak-ng.
__attribute__((visibility("hidden"))) void earshot_memory_snapshot_restore(void);

/// Counts the library at `path` (the espeak-ng library opened at run time, under whatever file name) among
/// the libraries whose writable memory is copied. Call before `earshot_memory_snapshot_take`.
__attribute__((visibility("hidden"))) void earshot_memory_snapshot_add_state_library(const char *path);

/// Bytes the copy holds (0 when none was taken).
__attribute__((visibility("hidden"))) size_t earshot_memory_snapshot_size(void);

#endif
