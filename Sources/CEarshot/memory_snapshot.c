// Starting every phrase from one espeak-ng state without forking for it.
//
// espeak-ng keeps its state in its own global variables, in heap blocks it allocates and in the C
// library's allocator; none of it can be reset through its API. A worker process that has reached the
// state every phrase must start from copies that memory once: the writable segments of libespeak-ng and
// of the libraries it runs on (the C and maths libraries, sonic, pcaudio, the dynamic loader), with the
// zero-filled tail that follows each, the main heap and every malloc arena. Before each
// phrase the copy is written back, so the phrase starts from exactly the bytes a freshly forked process
// would see. Pages that were not in memory when the copy was taken are dropped instead, so they read as
// zeros (or as the file they map) again, as they would in a fresh fork.
//
// The caller must keep everything it needs across a restore out of that memory: its own buffers come
// from separate mappings or from its own globals, and it keeps no heap block allocated after the copy.
// The copy is 0.5-0.7 MB when the worker is forked early in a run (more when the process's heap was larger);
// writing it back costs a few tens of microseconds, against a millisecond or two for forking a process per
// phrase and faulting its pages in again. Only the pages this worker wrote since its fork are compared and
// written back (see write_back_changed).
#define _GNU_SOURCE
#include "memory_snapshot.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <malloc.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef PR_GET_MEMORY_MERGE
#define PR_GET_MEMORY_MERGE 68  // Linux 6.4: whether the kernel merges this process's identical pages
#endif

enum { SNAPSHOT_RUNS_MAX = 512 };

/// A run of pages inside one copied mapping: present pages are copied, absent ones dropped on restore.
typedef struct {
    char *start;
    size_t length;
    size_t copy_offset;  // where its bytes are in the copy; SIZE_MAX for absent pages
} snapshot_run;

static struct {
    snapshot_run runs[SNAPSHOT_RUNS_MAX];
    int run_count;
    char *copy;
    size_t copy_size;
    uintptr_t program_break;  // the end of the main heap when the copy was taken (0: no main heap)
    int pagemap;              // /proc/self/pagemap, kept open to tell pages still shared (-1: compare all)
    size_t page;
} snapshot = {.pagemap = -1};

/// Libraries whose writable memory holds state while espeak-ng synthesizes (by file name prefix).
static const char *const state_libraries[] = {
    "libespeak-ng.so", "libc.so", "libm.so", "libsonic.so", "libpcaudio.so", "ld-linux", NULL,
};

/// The file name of the espeak-ng library this process opened, when it is not called libespeak-ng.so*.
static char opened_library[256];

void earshot_memory_snapshot_add_state_library(const char *path) {
    const char *name = strrchr(path, '/');
    name = name != NULL ? name + 1 : path;
    size_t length = strlen(name);
    if (length == 0 || length >= sizeof opened_library) return;
    memcpy(opened_library, name, length + 1);
}

static int is_state_library(const char *path, size_t length) {
    const char *name = path;
    for (size_t index = 0; index < length; index++)
        if (path[index] == '/') name = path + index + 1;
    size_t name_length = length - (size_t)(name - path);
    for (int index = 0; state_libraries[index] != NULL; index++) {
        size_t prefix = strlen(state_libraries[index]);
        if (name_length >= prefix && memcmp(name, state_libraries[index], prefix) == 0) return 1;
    }
    size_t opened_length = strlen(opened_library);
    if (opened_length > 0 && name_length == opened_length && memcmp(name, opened_library, opened_length) == 0)
        return 1;
    return 0;
}

/// Reads a whole file of unknown size into a fresh anonymous mapping (no malloc: the heap is what is
/// being copied). Returns the mapping, or NULL; `*length` is the bytes read, `*capacity` the mapping's size.
static char *read_whole(const char *path, size_t *length, size_t *capacity) {
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return NULL;
    size_t size = 1 << 18;
    char *buffer = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    size_t used = 0;
    while (buffer != MAP_FAILED) {
        if (used + 1 >= size) {
            char *grown = mremap(buffer, size, size * 2, MREMAP_MAYMOVE);
            if (grown == MAP_FAILED) {
                munmap(buffer, size);
                buffer = MAP_FAILED;
                break;
            }
            buffer = grown;
            size *= 2;
        }
        ssize_t got = read(fd, buffer + used, size - used - 1);
        if (got < 0 && errno == EINTR) continue;
        if (got < 0) {
            munmap(buffer, size);
            buffer = MAP_FAILED;
            break;
        }
        if (got == 0) break;
        used += (size_t)got;
    }
    close(fd);
    if (buffer == MAP_FAILED) return NULL;
    buffer[used] = 0;
    *length = used;
    *capacity = size;
    return buffer;
}

static uintptr_t parse_hex(const char **cursor) {
    uintptr_t value = 0;
    for (;;) {
        char c = **cursor;
        int digit = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
        if (digit < 0) return value;
        value = value * 16 + (uintptr_t)digit;
        (*cursor)++;
    }
}

/// The pagemap entries read last.
enum { PAGEMAP_BLOCK = 512 };
static struct {
    uint64_t entries[PAGEMAP_BLOCK];
    uintptr_t first;
    size_t count;
} pagemap_block;

/// Whether the page at `address` is in memory (or swapped out), as /proc/self/pagemap tells; entries are
/// read a block at a time. Every page counts as present when the pagemap cannot be read.
static int page_present(int pagemap, uintptr_t address, size_t page) {
    uint64_t *entries = pagemap_block.entries;
    uintptr_t first = pagemap_block.first;
    size_t count = pagemap_block.count;
    if (pagemap < 0) return 1;
    uintptr_t index = address / page;
    if (count == 0 || index < first || index >= first + count) {
        ssize_t got = pread(pagemap, entries, sizeof pagemap_block.entries, (off_t)(index * sizeof(uint64_t)));
        if (got < (ssize_t)sizeof(uint64_t)) {
            pagemap_block.count = 0;
            return 1;
        }
        first = pagemap_block.first = index;
        count = pagemap_block.count = (size_t)got / sizeof(uint64_t);
    }
    uint64_t entry = entries[index - first];
    return (int)((entry >> 63) & 1) | (int)((entry >> 62) & 1);
}

/// Adds the pages of [start, end) as runs of present and absent pages. Returns -1 when there are too many
/// runs.
static int add_mapping(int pagemap, uintptr_t start, uintptr_t end, size_t page, size_t *copy_size) {
    uintptr_t run_start = start;
    int run_present = -1;
    for (uintptr_t address = start; address <= end; address += page) {
        int present = address < end ? page_present(pagemap, address, page) : -1;
        if (address < end && (run_present < 0 || present == run_present)) {
            run_present = present;
            continue;
        }
        if (snapshot.run_count == SNAPSHOT_RUNS_MAX) return -1;
        snapshot_run *run = &snapshot.runs[snapshot.run_count++];
        run->start = (char *)run_start;
        run->length = address - run_start;
        run->copy_offset = run_present ? *copy_size : SIZE_MAX;
        if (run_present) *copy_size += run->length;
        run_start = address;
        run_present = present;
    }
    return 0;
}

/// One line of /proc/self/maps.
typedef struct {
    uintptr_t start;
    uintptr_t end;
    char permissions[5];
    const char *path;  // inside the maps text; not NUL-terminated
    size_t path_length;
} mapping;

enum { MAPPINGS_MAX = 8192, ARENA_RESERVES_MAX = 64 };
static mapping mappings[MAPPINGS_MAX];

/// The reserved rests of thread arenas (see `earshot_memory_snapshot_take`).
static struct {
    char *start;
    size_t length;
} arena_reserves[ARENA_RESERVES_MAX];
static int arena_reserve_count;

/// Parses the maps text into `mappings`; the count, or -1 when there are more than MAPPINGS_MAX.
static int parse_maps(const char *maps) {
    int count = 0;
    for (const char *line = maps; *line != 0;) {
        if (count == MAPPINGS_MAX) return -1;
        mapping *entry = &mappings[count++];
        const char *cursor = line;
        entry->start = parse_hex(&cursor);
        if (*cursor == '-') cursor++;
        entry->end = parse_hex(&cursor);
        while (*cursor == ' ') cursor++;
        for (int index = 0; index < 4; index++) entry->permissions[index] = *cursor != 0 ? *cursor++ : '-';
        entry->permissions[4] = 0;
        // Skip the rest of the permissions, the offset, device and inode; the rest of the line is the path.
        for (int field = 0; field < 4 && *cursor != '\n' && *cursor != 0; field++) {
            while (*cursor != ' ' && *cursor != '\n' && *cursor != 0) cursor++;
            while (*cursor == ' ') cursor++;
        }
        entry->path = cursor;
        while (*cursor != '\n' && *cursor != 0) cursor++;
        entry->path_length = (size_t)(cursor - entry->path);
        line = *cursor == '\n' ? cursor + 1 : cursor;
    }
    return count;
}

/// glibc's thread arenas live in heaps of this size, aligned to it: a writable start, then a reserved rest
/// the allocator makes writable as the arena grows.
static const uintptr_t ARENA_HEAP_SIZE = (uintptr_t)64 << 20;

/// The start of such a heap, as glibc (2.26 and later) lays it out.
typedef struct {
    void *arena;
    void *previous;
    size_t size;           // in use
    size_t writable_size;  // made writable so far
} arena_heap_header;

/// The writable part of the arena heap starting at `start`, or 0 when `start` does not hold one.
static size_t arena_heap_writable(uintptr_t start, size_t page) {
    const arena_heap_header *header = (const arena_heap_header *)start;
    uintptr_t arena = (uintptr_t)header->arena;
    uintptr_t previous = (uintptr_t)header->previous;
    int first = previous == 0 && arena > start && arena < start + page;
    int later = previous != 0 && previous % ARENA_HEAP_SIZE == 0 && arena != 0;
    if (!first && !later) return 0;
    if (header->size == 0 || header->size % page != 0 || header->writable_size % page != 0) return 0;
    if (header->size > header->writable_size || header->writable_size > ARENA_HEAP_SIZE) return 0;
    return header->writable_size;
}

/// Whether the mapping is anonymous memory: no path, or one the kernel gives named anonymous memory.
static int is_anonymous(const mapping *entry) {
    return entry->path_length == 0 || (entry->path_length >= 6 && memcmp(entry->path, "[anon:", 6) == 0);
}

/// The end of the writable private anonymous memory that runs on without a gap from `mappings[index]`, looking
/// no further than `needed`.
static uintptr_t writable_anonymous_end(int index, int count, uintptr_t needed) {
    uintptr_t end = mappings[index].end;
    for (int next = index + 1; next < count && end < needed; next++) {
        const mapping *entry = &mappings[next];
        if (entry->start != end || strcmp(entry->permissions, "rw-p") != 0 || !is_anonymous(entry)) break;
        end = entry->end;
    }
    return end;
}

/// Bit 63 of a pagemap entry: the page is in memory; bit 62: it is swapped out; bit 56: only this process maps it.
enum { PAGE_PRESENT_BIT = 63, PAGE_SWAPPED_BIT = 62, PAGE_EXCLUSIVE_BIT = 56 };

/// The pagemap, open, when it tells which pages are still shared: a page of `written` (just written by this
/// process) must read as mapped by this process alone (kernels before 4.2 always say not); -1 otherwise, and
/// when the process asked the kernel to merge identical pages (a merged page would read as shared though
/// written).
static int sharing_reader(const char *written) {
    if (prctl(PR_GET_MEMORY_MERGE, 0, 0, 0, 0) > 0) return -1;
    int pagemap = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
    if (pagemap < 0) return -1;
    uint64_t entry = 0;
    off_t offset = (off_t)((uintptr_t)written / (uintptr_t)sysconf(_SC_PAGESIZE) * sizeof entry);
    if (pread(pagemap, &entry, sizeof entry, offset) != (ssize_t)sizeof entry
        || !((entry >> PAGE_PRESENT_BIT) & 1) || !((entry >> PAGE_EXCLUSIVE_BIT) & 1)) {
        close(pagemap);
        return -1;
    }
    return pagemap;
}

int earshot_memory_snapshot_take(void) {
    if (snapshot.copy != NULL) return 0;
    // The allocator must never hand heap memory back to the kernel: after a restore it would count memory
    // as its own that is no longer mapped (or no longer writable). Freed memory stays for the next phrase.
    mallopt(M_TRIM_THRESHOLD, INT_MAX);
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    uintptr_t stack = (uintptr_t)&page;
    size_t length = 0;
    size_t capacity = 0;
    char *maps = read_whole("/proc/self/maps", &length, &capacity);
    if (maps == NULL) return -1;
    int count = parse_maps(maps);
    int pagemap = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
    pagemap_block.count = 0;
    snapshot.run_count = 0;
    snapshot.program_break = 0;
    arena_reserve_count = 0;
    size_t copy_size = 0;
    int failed = count < 0;
    int after_library = 0;  // the previous mapping was (or followed) a state library's writable segment
    for (int index = 0; index < count && !failed; index++) {
        const mapping *entry = &mappings[index];
        int writable_private = strcmp(entry->permissions, "rw-p") == 0;
        int anonymous = is_anonymous(entry);
        int library = !anonymous && is_state_library(entry->path, entry->path_length);
        int tail = anonymous && after_library && index > 0 && entry->start == mappings[index - 1].end;
        int heap = entry->path_length == 6 && memcmp(entry->path, "[heap]", 6) == 0;
        after_library = writable_private && (library || tail);
        if (!writable_private) continue;
        if (library || tail || heap) {
            if (add_mapping(pagemap, entry->start, entry->end, page, &copy_size) != 0) failed = 1;
            if (heap) snapshot.program_break = entry->end;
            continue;
        }
        if (!anonymous) continue;
        // Every thread arena, not only this thread's: a block another thread allocated can be freed here, and
        // the allocator then changes that block's arena. They are found by their headers, as the kernel may
        // have merged an arena's mapping with its neighbours, or split it: memory a forked process makes
        // writable is never merged with what it inherited, so an arena that grew in a worker spans two
        // mappings or more.
        uintptr_t first = (entry->start + ARENA_HEAP_SIZE - 1) / ARENA_HEAP_SIZE * ARENA_HEAP_SIZE;
        for (uintptr_t start = first; start + page <= entry->end && !failed; start += ARENA_HEAP_SIZE) {
            size_t writable = arena_heap_writable(start, page);
            if (writable == 0) continue;
            if (stack >= start && stack < start + writable) continue;  // never this very stack
            // A header whose writable part is not all writable anonymous memory would be an arena this code
            // does not understand: leaving it out would restore the allocator half-way, so no copy at all.
            if (writable_anonymous_end(index, count, start + writable) < start + writable) {
                failed = 1;
                break;
            }
            if (add_mapping(pagemap, start, start + writable, page, &copy_size) != 0) failed = 1;
            if (writable < ARENA_HEAP_SIZE) {
                if (arena_reserve_count == ARENA_RESERVES_MAX) {
                    failed = 1;
                } else {
                    arena_reserves[arena_reserve_count].start = (char *)(start + writable);
                    arena_reserves[arena_reserve_count].length = ARENA_HEAP_SIZE - writable;
                    arena_reserve_count++;
                }
            }
        }
    }
    if (pagemap >= 0) close(pagemap);
    munmap(maps, capacity);
    if (failed || copy_size == 0) {
        snapshot.run_count = 0;
        return -1;
    }
    char *copy = mmap(NULL, copy_size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (copy == MAP_FAILED) {
        snapshot.run_count = 0;
        return -1;
    }
    for (int index = 0; index < snapshot.run_count; index++) {
        const snapshot_run *run = &snapshot.runs[index];
        if (run->copy_offset != SIZE_MAX) memcpy(copy + run->copy_offset, run->start, run->length);
    }
    snapshot.copy = copy;
    snapshot.copy_size = copy_size;
    snapshot.page = page;
    snapshot.pagemap = sharing_reader(copy);
    return 0;
}

/// The pagemap entries a restore read last. Runs of one mapping lie side by side; one read covers as many of
/// them as lie within PAGEMAP_BLOCK pages, and no page past them, as the kernel walks every page it is asked about.
/// A phrase of a long countdown's check then makes 9 reads, not 18 (one per run).
static struct {
    uint64_t entries[PAGEMAP_BLOCK];
    uintptr_t first;
    size_t count;
} restore_block;

/// The pages from `address` (inside run `index`) to the end of the runs that follow it without a gap, at most
/// PAGEMAP_BLOCK; an absent run longer than that ends the chain (it is dropped without reading its entries).
static size_t chain_pages(int index, uintptr_t address) {
    size_t page = snapshot.page;
    uintptr_t end = (uintptr_t)snapshot.runs[index].start + snapshot.runs[index].length;
    for (int next = index + 1; next < snapshot.run_count && (end - address) / page < PAGEMAP_BLOCK; next++) {
        const snapshot_run *run = &snapshot.runs[next];
        if ((uintptr_t)run->start != end) break;
        if (run->copy_offset == SIZE_MAX && run->length / page > PAGEMAP_BLOCK) break;
        end += run->length;
    }
    size_t pages = (end - address) / page;
    return pages < PAGEMAP_BLOCK ? pages : PAGEMAP_BLOCK;
}

/// The pagemap entry of the page at `address` in run `index`, into `entry`; 0 when it cannot be told (no trusted
/// pagemap, or the read failed).
static int restore_entry(int index, uintptr_t address, uint64_t *entry) {
    if (snapshot.pagemap < 0) return 0;
    uintptr_t page_index = address / snapshot.page;
    if (restore_block.count == 0 || page_index < restore_block.first
        || page_index >= restore_block.first + restore_block.count) {
        size_t wanted = chain_pages(index, address);
        ssize_t got = pread(snapshot.pagemap, restore_block.entries, wanted * sizeof restore_block.entries[0],
                            (off_t)(page_index * sizeof restore_block.entries[0]));
        restore_block.first = page_index;
        restore_block.count = got > 0 ? (size_t)got / sizeof restore_block.entries[0] : 0;
        if (restore_block.count == 0) return 0;
    }
    *entry = restore_block.entries[page_index - restore_block.first];
    return 1;
}

/// Writes run `index`'s copy back a page at a time, only where the page differs. A worker shares its pages
/// with the process it was forked from until it writes them: writing back an unchanged page would copy it
/// (a page fault and 4 KB), which the first restore after the fork did for the whole copy, about 150 pages
/// espeak-ng never touched. Comparing reads them only; the memory ends the same either way.
///
/// A page still in memory and mapped by another process too (this worker's parent or a sibling) was not
/// written since the fork: it is skipped unread. Written, it would have been copied for this process alone.
/// A worker forked from a process with a large heap (a render whose timings a check left in the cache builds
/// its whole timeline before the first phrase: a 14 MB copy) otherwise compared all of it before every phrase.
static void write_back_changed(int index) {
    const snapshot_run *run = &snapshot.runs[index];
    const char *copy = snapshot.copy + run->copy_offset;
    for (size_t offset = 0; offset < run->length; offset += snapshot.page) {
        uint64_t entry;
        if (restore_entry(index, (uintptr_t)run->start + offset, &entry) && ((entry >> PAGE_PRESENT_BIT) & 1)
            && !((entry >> PAGE_EXCLUSIVE_BIT) & 1))
            continue;
        if (memcmp(run->start + offset, copy + offset, snapshot.page) != 0)
            memcpy(run->start + offset, copy + offset, snapshot.page);
    }
}

/// Whether absent run `index` may hold a page now: one in memory or swapped out, which the restore must drop. A
/// run longer than a block is not looked at (dropping it costs less than reading its entries). Most phrases
/// touch few of them: a phrase of a long countdown's check drops 2 runs, not 12 (and the 3 arenas' reserves).
static int may_hold_pages(int index) {
    const snapshot_run *run = &snapshot.runs[index];
    if (run->length / snapshot.page > PAGEMAP_BLOCK) return 1;
    for (size_t offset = 0; offset < run->length; offset += snapshot.page) {
        uint64_t entry;
        if (!restore_entry(index, (uintptr_t)run->start + offset, &entry)) return 1;
        if (((entry >> PAGE_PRESENT_BIT) & 1) || ((entry >> PAGE_SWAPPED_BIT) & 1)) return 1;
    }
    return 0;
}

void earshot_memory_snapshot_restore(void) {
    // Heap memory the allocator took since the copy must read as new again (zeros): the allocator counts on
    // fresh memory being zeroed (calloc skips clearing it), and a process forked for the phrase would see
    // none of it. The main heap gets its old end back; an arena's reserve is dropped.
    if (snapshot.program_break != 0) {
        uintptr_t current = (uintptr_t)syscall(SYS_brk, 0);
        if (current > snapshot.program_break) syscall(SYS_brk, snapshot.program_break);
    }
    for (int index = 0; index < arena_reserve_count; index++)
        madvise(arena_reserves[index].start, arena_reserves[index].length, MADV_DONTNEED);
    restore_block.count = 0;  // the last restore's entries are stale
    for (int index = 0; index < snapshot.run_count; index++) {
        const snapshot_run *run = &snapshot.runs[index];
        if (run->copy_offset != SIZE_MAX)
            write_back_changed(index);
        else if (may_hold_pages(index))
            madvise(run->start, run->length, MADV_DONTNEED);
    }
}

size_t earshot_memory_snapshot_size(void) { return snapshot.copy_size; }
