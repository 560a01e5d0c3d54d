// The espeak-ng half of the shim. espeak-ng keeps all its state in globals and is not re-entrant, so
// this file does too: the Swift owner thread is the only caller (see EspeakSynthesizer).
#define _GNU_SOURCE  // close_range
#include "CEarshot.h"
#include "espeak_library.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

enum { EVENT_CAPACITY = 64 };

/// State of the one synthesis in progress (espeak-ng runs one at a time, on the caller's thread).
static struct {
    earshot_speech_sink sink;
    void *context;
    int64_t limit;      // < 0: none
    int64_t delivered;  // frames handed to the sink so far
    int reached_limit;  // delivered == limit; any further audio means the text was cut
    int stopped;
} current;

static void flush_events(earshot_speech_event *events, int32_t *count, const int16_t *samples,
                         int64_t sample_count) {
    if (current.sink(samples, sample_count, events, *count, current.context) != 0) current.stopped = 1;
    *count = 0;
}

static int on_synth(short *wav, int numsamples, espeak_EVENT *events) {
    if (current.stopped) return 1;
    if (numsamples < 0) numsamples = 0;
    if (current.reached_limit && numsamples > 0) {
        current.stopped = 1;
        return 1;
    }
    int64_t count = numsamples;
    int cut = 0;
    if (current.limit >= 0 && current.delivered + count >= current.limit) {
        if (current.delivered + count > current.limit) cut = 1;
        count = current.limit - current.delivered;
        current.reached_limit = 1;
    }
    earshot_speech_event batch[EVENT_CAPACITY];
    int32_t batch_count = 0;
    for (espeak_EVENT *event = events; event != NULL && event->type != espeakEVENT_LIST_TERMINATED;
         event++) {
        if (event->type != espeakEVENT_WORD && event->type != espeakEVENT_SENTENCE
            && event->type != espeakEVENT_END)
            continue;
        if (current.limit >= 0 && event->sample >= current.limit) continue;
        if (batch_count == EVENT_CAPACITY) flush_events(batch, &batch_count, NULL, 0);
        batch[batch_count].kind = (int32_t)event->type;
        batch[batch_count].frame = event->sample;
        batch[batch_count].text_position = event->text_position;
        batch[batch_count].length = event->length;
        batch_count++;
    }
    if (count > 0 || batch_count > 0) flush_events(batch, &batch_count, wav, count);
    current.delivered += count;
    if (cut) current.stopped = 1;
    return current.stopped ? 1 : 0;
}

int32_t earshot_espeak_initialize(const char *data_path, int32_t *sample_rate) {
    const espeak_functions *espeak = espeak_library();
    if (espeak == NULL) return EARSHOT_ESPEAK_LIBRARY_UNAVAILABLE;
    espeak->initialize_path(data_path);
    espeak_ng_ERROR_CONTEXT context = NULL;
    espeak_ng_STATUS status = espeak->initialize(&context);
    espeak->clear_error_context(&context);
    if (status != ENS_OK) return (int32_t)status;
    status = espeak->initialize_output(ENOUTPUT_MODE_SYNCHRONOUS, 0, NULL);
    if (status != ENS_OK) return (int32_t)status;
    espeak->set_synth_callback(on_synth);
    *sample_rate = espeak->get_sample_rate();
    return ENS_OK;
}

void earshot_espeak_version(char *buffer, size_t length) {
    if (length == 0) return;
    buffer[0] = 0;
    const espeak_functions *espeak = espeak_library();
    if (espeak == NULL) return;
    const char *path = NULL;
    const char *version = espeak->info(&path);
    snprintf(buffer, length, "%s", version != NULL ? version : "");
}

void earshot_espeak_status_message(int32_t status, char *buffer, size_t length) {
    if (length == 0) return;
    buffer[0] = 0;
    const espeak_functions *espeak = espeak_library();
    if (status == EARSHOT_ESPEAK_LIBRARY_UNAVAILABLE || espeak == NULL) {
        earshot_espeak_open(buffer, length);
        return;
    }
    espeak->get_status_code_message((espeak_ng_STATUS)status, buffer, length);
    buffer[length - 1] = 0;
}

int32_t earshot_espeak_set_voice(const char *name) {
    if (name == NULL || strchr(name, '/') != NULL) return EARSHOT_ESPEAK_VOICE_NOT_FOUND;
    const char *plus = strchr(name, '+');
    size_t voice_length = plus != NULL ? (size_t)(plus - name) : strnlen(name, EARSHOT_VOICE_NAME_MAX + 1);
    if (voice_length == 0 || voice_length > EARSHOT_VOICE_NAME_MAX) return EARSHOT_ESPEAK_VOICE_NOT_FOUND;
    if (plus != NULL) {
        size_t variant_length = strnlen(plus + 1, EARSHOT_VARIANT_NAME_MAX + 1);
        if (variant_length == 0 || variant_length > EARSHOT_VARIANT_NAME_MAX || strchr(plus + 1, '+') != NULL)
            return EARSHOT_ESPEAK_VOICE_NOT_FOUND;
    }
    const espeak_functions *espeak = espeak_library();
    if (espeak == NULL) return EARSHOT_ESPEAK_LIBRARY_UNAVAILABLE;
    return (int32_t)espeak->set_voice_by_name(name);
}

/// Appends `text` (of `count` bytes) and a newline at `*used`, writing only what fits in `length - 1`.
static void append_line(char *buffer, size_t length, size_t *used, const char *text, size_t count) {
    for (size_t index = 0; index <= count; index++, (*used)++) {
        if (length > 0 && *used < length - 1) buffer[*used] = index < count ? text[index] : '\n';
    }
}

size_t earshot_espeak_voice_names(char *buffer, size_t length) {
    size_t used = 0;
    const espeak_functions *espeak = espeak_library();
    const espeak_VOICE **voices = espeak != NULL ? espeak->list_voices(NULL) : NULL;
    for (size_t ix = 0; voices != NULL && voices[ix] != NULL; ix++) {
        const espeak_VOICE *voice = voices[ix];
        if (voice->name != NULL) append_line(buffer, length, &used, voice->name, strlen(voice->name));
        if (voice->identifier != NULL) {
            const char *last = strrchr(voice->identifier, '/');
            last = last != NULL ? last + 1 : voice->identifier;
            append_line(buffer, length, &used, last, strlen(last));
        }
        // `languages` is a list of (priority byte, NUL-terminated code), ended by a zero priority byte.
        for (const char *entry = voice->languages; entry != NULL && entry[0] != 0;) {
            const char *code = entry + 1;
            size_t count = strlen(code);
            append_line(buffer, length, &used, code, count);
            entry = code + count + 1;
        }
    }
    if (length > 0) buffer[used < length ? used : length - 1] = 0;
    return used;
}

int32_t earshot_espeak_set_parameter(int32_t parameter, int32_t value) {
    const espeak_functions *espeak = espeak_library();
    if (espeak == NULL) return EARSHOT_ESPEAK_LIBRARY_UNAVAILABLE;
    return (int32_t)espeak->set_parameter((espeak_PARAMETER)parameter, value, 0);
}

int32_t earshot_espeak_synthesize(const char *text, int64_t frame_limit, earshot_speech_sink sink,
                                  void *context, int32_t *stopped_early) {
    *stopped_early = 0;
    const espeak_functions *espeak = espeak_library();
    if (espeak == NULL) return EARSHOT_ESPEAK_LIBRARY_UNAVAILABLE;
    current.sink = sink;
    current.context = context;
    current.limit = frame_limit;
    current.delivered = 0;
    current.reached_limit = frame_limit == 0;
    current.stopped = 0;
    unsigned int identifier = 0;
    espeak_ng_STATUS status = espeak->synthesize(text, strlen(text) + 1, 0, POS_CHARACTER, 0, espeakCHARS_UTF8,
                                                 &identifier, NULL);
    *stopped_early = current.stopped;
    current.sink = NULL;
    current.context = NULL;
    if (status == ENS_SPEECH_STOPPED) return ENS_OK;
    return (int32_t)status;
}

// MARK: - Synthesis from a clean state
//
// espeak-ng carries state from one synthesis to the next (wave phase, gain control, echo buffer, the
// pitch envelope, static counters inside its wave generator), none of it reachable through its API, so
// the same text came out a few percent longer or shorter depending on what was said before. Here the
// calling process never synthesizes and never changes voice or parameters after
// `earshot_espeak_prepare_isolation`: it keeps espeak-ng in one fixed state. (Selecting a voice or
// setting the rate queues commands for the wave generator that only a synthesis consumes; done in this
// process they would pile up and overflow its queue.)
//
// Phrases are synthesized by worker processes forked from that fixed state, one per voice in each slot
// (one slot per phrase that may be synthesized at the same time). A worker selects its voice once, then
// copies the memory espeak-ng's state lives in (memory_snapshot.c) and writes that copy back before every
// phrase: each phrase starts from the bytes a process freshly forked for it would start from, without the
// fork. Its chunks go back through a socket as they are made. When the copy cannot be taken, the worker
// forks a child per phrase instead, from the same state. A worker that dies is simply started again.

#include <sys/mman.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <sys/socket.h>

#include "memory_snapshot.h"

enum { MESSAGE_CHUNK = 2, MESSAGE_DONE = 3 };
enum { MESSAGE_CAPACITY = 1 << 18 };
enum { REQUEST_SPEAK = 1, REQUEST_STOP = 2 };
/// Voices a slot keeps a worker for; the least recently used one is stopped for another.
enum { WORKER_VOICES = 4 };
/// The longest voice name a worker is started for (`voice+variant`); longer ones are not valid names.
enum { WORKER_VOICE_MAX = EARSHOT_VOICE_NAME_MAX + 1 + EARSHOT_VARIANT_NAME_MAX };

/// What starts each message from a worker.
typedef struct {
    int32_t type;
    int32_t event_count;   // chunk: events after the samples
    int64_t sample_count;  // chunk: samples that follow
    int32_t status;        // done: espeak-ng status, or EARSHOT_ISOLATION_FAILED when a forked child died
    int32_t stopped;       // done: stopped early
} worker_message;

/// One request to a worker: speak (the text's bytes follow), or stop the phrase being spoken.
typedef struct {
    int32_t type;
    int32_t text_length;
    int64_t frame_limit;
    earshot_voice_parameters parameters;
    int32_t streaming;     // speak: chunks as they are made (1), or the phrase in as few messages as fit (0)
} worker_request;

/// The voice selected by `earshot_espeak_prepare_isolation`: a worker speaking with it need not select
/// it again (every phrase in that voice takes the same path, so its audio is still the same every time).
static char prepared_voice[128];

/// Whether workers fork a child per phrase instead of writing back their copy of espeak-ng's memory:
/// set by EARSHOT_ISOLATION=fork when the fixed state is prepared (the slower way, which workers also fall
/// back to by themselves; tests compare the two).
static int fork_per_phrase = 0;

/// One worker as this process sees it. Workers are started only on the owner thread (forked from the
/// fixed state); a slot is used by one caller at a time, which the Swift pool guarantees.
typedef struct {
    pid_t pid;         // 0: none running
    int requests;      // stream socket: requests to the worker
    int replies;       // sequenced-packet socket: messages from the worker
    uint64_t used;     // the slot's clock when it last spoke
    int processor;     // the one processor it may run on (see pin_beside_caller); -1: any of the caller's; -2: unknown
    int via_zygote;    // forked by the zygote (which waits for it), not by this process
    uint64_t zygote_generation;  // which zygote, when via_zygote
    char voice[WORKER_VOICE_MAX + 1];
} voice_worker;

typedef struct {
    voice_worker workers[WORKER_VOICES];
    uint64_t clock;
    char *buffer;      // one message from a worker (MESSAGE_CAPACITY bytes)
} worker_slot;

static worker_slot slots[EARSHOT_SYNTHESIS_SLOTS];

static void start_zygote(void);

int32_t earshot_espeak_prepare_isolation(const char *voice) {
    const char *isolation = getenv("EARSHOT_ISOLATION");
    fork_per_phrase = isolation != NULL && strcmp(isolation, "fork") == 0;
    int32_t status = earshot_espeak_set_voice(voice);
    prepared_voice[0] = 0;
    if (status == EARSHOT_ESPEAK_OK && strlen(voice) < sizeof prepared_voice) strcpy(prepared_voice, voice);
    if (status == EARSHOT_ESPEAK_OK) start_zygote();
    return (int32_t)status;
}

static int write_all(int fd, const void *bytes, size_t length) {
    const char *cursor = bytes;
    while (length > 0) {
        ssize_t written = send(fd, cursor, length, MSG_NOSIGNAL);
        if (written < 0 && errno == EINTR) continue;
        if (written <= 0) return -1;
        cursor += written;
        length -= (size_t)written;
    }
    return 0;
}

/// Sends a request and its text in one call, so the worker wakes once and finds both (a request over the
/// socket's buffer is sent in parts, the rest as write_all does). 0, or -1 when the worker is gone.
static int send_request(int fd, const worker_request *request, const char *text) {
    size_t text_length = (size_t)request->text_length;
    struct iovec parts[2] = {{(void *)request, sizeof *request}, {(void *)text, text_length}};
    struct msghdr message = {0};
    message.msg_iov = parts;
    message.msg_iovlen = 2;
    ssize_t sent;
    do {
        sent = sendmsg(fd, &message, MSG_NOSIGNAL);
    } while (sent < 0 && errno == EINTR);
    if (sent < 0) return -1;
    size_t done = (size_t)sent;
    if (done < sizeof *request)
        return write_all(fd, (const char *)request + done, sizeof *request - done) == 0
                       && write_all(fd, text, text_length) == 0
                   ? 0
                   : -1;
    done -= sizeof *request;
    return done < text_length ? write_all(fd, text + done, text_length - done) : 0;
}

/// 1: read everything; 0: end of file before anything; -1: error or a partial request.
static int read_all(int fd, void *bytes, size_t length) {
    char *cursor = bytes;
    size_t done = 0;
    while (done < length) {
        ssize_t got = read(fd, cursor + done, length - done);
        if (got < 0 && errno == EINTR) continue;
        if (got < 0) return -1;
        if (got == 0) return done == 0 ? 0 : -1;
        done += (size_t)got;
    }
    return 1;
}

/// Sends one whole message (a sequenced packet arrives whole or not at all).
static int send_message(int fd, const worker_message *header, const void *first, size_t first_length,
                        const void *second, size_t second_length) {
    struct iovec parts[3] = {
        {(void *)header, sizeof *header}, {(void *)first, first_length}, {(void *)second, second_length}};
    struct msghdr message = {0};
    message.msg_iov = parts;
    message.msg_iovlen = 3;
    for (;;) {
        ssize_t sent = sendmsg(fd, &message, MSG_NOSIGNAL);
        if (sent < 0 && errno == EINTR) continue;
        return sent < 0 ? -1 : 0;
    }
}

/// Samples a streaming worker gathers before it sends them (0.74 s at 22,050 Hz): espeak-ng hands over a few
/// milliseconds at a time, and a message each time would wake this process hundreds of times per phrase.
enum { BATCH_SAMPLES = 16384 };
/// Samples a whole-phrase batch holds (2.2 s at 22,050 Hz: most phrases in one message). A sequenced packet
/// must fit in the socket's send buffer (212,992 bytes by default on Linux; a larger one fails with EMSGSIZE),
/// so a message stays under 128 KB.
enum { WHOLE_BATCH_SAMPLES = 49152 };
_Static_assert(sizeof(worker_message) + WHOLE_BATCH_SAMPLES * sizeof(int16_t)
                   + EVENT_CAPACITY * sizeof(earshot_speech_event) <= 128 * 1024,
               "a whole-phrase message must fit in a socket's default send buffer");

/// What a worker has gathered and not yet sent for the phrase it speaks.
/// - Streaming (playback, `earshot say`): the first chunk goes out at once, so sound starts as soon as there is
///   audio, later ones in batches of BATCH_SAMPLES, and the worker looks for a stop request at every chunk.
/// - Whole (headless runs, renders): everything in batches of WHOLE_BATCH_SAMPLES, so a phrase of up to 2.2 s is
///   one message and the caller wakes once for it; no one asks such a phrase to stop.
static struct {
    int replies;
    int requests;
    int streaming;
    int sent_any;
    int64_t capacity;
    int64_t sample_count;
    int32_t event_count;
    int16_t samples[WHOLE_BATCH_SAMPLES];
    earshot_speech_event events[EVENT_CAPACITY];
} batch;

/// Sends one chunk message; 0 on success, 1 when no one listens.
static int32_t send_chunk(const int16_t *samples, int64_t sample_count, const earshot_speech_event *events,
                          int32_t event_count) {
    worker_message header = {MESSAGE_CHUNK, event_count, sample_count, 0, 0};
    batch.sent_any = 1;
    return send_message(batch.replies, &header, samples,
                        sample_count > 0 ? (size_t)sample_count * sizeof(int16_t) : 0, events,
                        event_count > 0 ? (size_t)event_count * sizeof(earshot_speech_event) : 0)
                   == 0
               ? 0
               : 1;
}

/// Sends what the batch holds, if anything; 0 on success, 1 when no one listens.
static int32_t send_batch(void) {
    if (batch.sample_count == 0 && batch.event_count == 0) return 0;
    int32_t result = send_chunk(batch.samples, batch.sample_count, batch.events, batch.event_count);
    batch.sample_count = 0;
    batch.event_count = 0;
    return result;
}

/// Whether the caller asked to stop the phrase (or went away). The only request that can arrive while a
/// phrase is spoken is a stop: the caller sends the next phrase only after this one's end.
static int stop_requested(void) {
    worker_request request;
    ssize_t got = recv(batch.requests, &request, sizeof request, MSG_DONTWAIT | MSG_PEEK);
    if (got == 0) return 1;
    if (got < (ssize_t)sizeof request) return 0;
    if (read_all(batch.requests, &request, sizeof request) != 1) return 1;
    return request.type == REQUEST_STOP;
}

/// The worker's sink: gathers chunks into batches (event frames count from the phrase's start, so joining
/// chunks changes no frame); stops when the caller asks to or no one listens.
static int32_t forward_chunk(const int16_t *samples, int64_t sample_count, const earshot_speech_event *events,
                             int32_t event_count, void *context) {
    (void)context;
    if (batch.streaming && stop_requested()) return 1;
    if (sample_count < 0) sample_count = 0;
    if (event_count < 0) event_count = 0;
    if (sample_count > batch.capacity || event_count > EVENT_CAPACITY) {
        if (send_batch() != 0) return 1;
        return send_chunk(samples, sample_count, events, event_count);
    }
    if (batch.sample_count + sample_count > batch.capacity || batch.event_count + event_count > EVENT_CAPACITY) {
        if (send_batch() != 0) return 1;
    }
    if (sample_count > 0) memcpy(batch.samples + batch.sample_count, samples, (size_t)sample_count * sizeof(int16_t));
    if (event_count > 0)
        memcpy(batch.events + batch.event_count, events, (size_t)event_count * sizeof(earshot_speech_event));
    batch.sample_count += sample_count;
    batch.event_count += event_count;
    return batch.sent_any || !batch.streaming ? 0 : send_batch();
}

/// Sets the phrase's parameters; an espeak-ng status.
static int32_t apply_parameters(const earshot_voice_parameters *parameters) {
    const int32_t values[][2] = {
        {EARSHOT_PARAM_RATE, parameters->rate},
        {EARSHOT_PARAM_PITCH, parameters->pitch},
        {EARSHOT_PARAM_VOLUME, parameters->volume},
        {EARSHOT_PARAM_WORDGAP, parameters->word_gap},
    };
    for (size_t index = 0; index < sizeof values / sizeof values[0]; index++) {
        int32_t status = earshot_espeak_set_parameter(values[index][0], values[index][1]);
        if (status != ENS_OK) return status;
    }
    return ENS_OK;
}

/// Speaks one phrase from the state the worker is in and sends its end; 0, or -1 when no one listens.
static int speak_phrase(const worker_request *request, const char *text) {
    batch.streaming = request->streaming != 0;
    batch.capacity = batch.streaming ? BATCH_SAMPLES : WHOLE_BATCH_SAMPLES;
    batch.sent_any = 0;
    batch.sample_count = 0;
    batch.event_count = 0;
    int32_t stopped = 0;
    int32_t status = apply_parameters(&request->parameters);
    if (status == ENS_OK) {
        status = earshot_espeak_synthesize(text, request->frame_limit, forward_chunk, NULL, &stopped);
        if (send_batch() != 0) return -1;
    }
    worker_message done = {MESSAGE_DONE, 0, 0, status, stopped};
    return send_message(batch.replies, &done, NULL, 0, NULL, 0);
}

/// A buffer for a request's text, from its own mapping so that restoring the copied memory leaves it be.
static char *text_buffer(size_t needed) {
    static char *buffer = NULL;
    static size_t capacity = 0;
    if (needed <= capacity) return buffer;
    size_t size = capacity > 0 ? capacity : 4096;
    while (size < needed) size *= 2;
    char *grown = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (grown == MAP_FAILED) return NULL;
    if (buffer != NULL) munmap(buffer, capacity);
    buffer = grown;
    capacity = size;
    return buffer;
}

/// A helper process's start (a worker's, the zygote's): the signals' default actions back, and killed when the
/// process it was forked from ends.
static void become_helper(void) {
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    signal(SIGHUP, SIG_DFL);
    signal(SIGPIPE, SIG_DFL);
    signal(SIGCHLD, SIG_DFL);
    prctl(PR_SET_PDEATHSIG, SIGKILL);
}

/// A worker: selects its voice once, then speaks each request from the same state until the caller goes away.
static void run_worker(int requests, int replies, const char *voice) {
    become_helper();
    // Keep nothing else of this process's open files: a pipe held open here would never reach its end.
    int low = requests < replies ? requests : replies;
    int high = requests < replies ? replies : requests;
    if (low > 3) close_range(3, (unsigned)low - 1, 0);
    if (high > low + 1) close_range((unsigned)low + 1, (unsigned)high - 1, 0);
    close_range((unsigned)high + 1, ~0U, 0);
    batch.requests = requests;
    batch.replies = replies;
    int32_t voice_status = ENS_OK;
    if (prepared_voice[0] == 0 || strcmp(voice, prepared_voice) != 0) voice_status = earshot_espeak_set_voice(voice);
    int restoring = !fork_per_phrase && earshot_memory_snapshot_take() == 0;
    for (;;) {
        worker_request request;
        if (read_all(requests, &request, sizeof request) != 1) _exit(0);
        if (request.type == REQUEST_STOP) continue;  // the phrase it meant had ended already
        if (request.type != REQUEST_SPEAK || request.text_length < 0) _exit(1);
        char *text = text_buffer((size_t)request.text_length + 1);
        if (text == NULL) _exit(1);
        if (request.text_length > 0 && read_all(requests, text, (size_t)request.text_length) != 1) _exit(0);
        text[request.text_length] = 0;
        if (voice_status != ENS_OK) {
            worker_message done = {MESSAGE_DONE, 0, 0, voice_status, 0};
            if (send_message(replies, &done, NULL, 0, NULL, 0) != 0) _exit(0);
            continue;
        }
        if (restoring) {
            earshot_memory_snapshot_restore();
            if (speak_phrase(&request, text) != 0) _exit(0);
            continue;
        }
        pid_t child = fork();
        if (child == 0) _exit(speak_phrase(&request, text) == 0 ? 0 : 1);
        int child_status = 0;
        if (child > 0) {
            while (waitpid(child, &child_status, 0) < 0 && errno == EINTR) {
            }
        }
        if (child < 0 || !WIFEXITED(child_status) || WEXITSTATUS(child_status) != 0) {
            // The child died before it said the phrase ended: say so for it.
            worker_message done = {MESSAGE_DONE, 0, 0, EARSHOT_ISOLATION_FAILED, 0};
            if (send_message(replies, &done, NULL, 0, NULL, 0) != 0) _exit(0);
        }
    }
}

// The zygote: the process workers are forked from.
//
// A worker forked from this process copies, in its memory snapshot, this process's whole heap as it is at the
// fork: the first phrase of a long script comes after its document is read and its events laid out, so a check of
// 25,600 announcements forked its worker with a 12.7 MB heap (a short script's: 0.5 MB). Worse, this process keeps
// writing its heap while the run goes on, and every page it writes after the fork is then the worker's own copy,
// which the worker compares before each phrase: half of that check's time went to comparing memory and reading
// the page map, and its cost per phrase grew with the length of the run. So a small process, the zygote, is forked
// from the fixed state once, when it is prepared (the heap then holds little more than espeak-ng), and forks every
// worker: a worker's pages are shared with the zygote, which writes nothing, until espeak-ng writes them.
//
// The zygote answers requests over a sequenced-packet socket: start a worker for a voice (its two sockets travel
// with the request) and answer its process id; or wait for a worker this process killed, so that its process id is
// never reused while this process may still name it. When this process closes the socket (at exit), the zygote
// kills the workers it still has, waits for them and exits; this process waits for the zygote, so every worker's
// time counts in this process's children, as before. Without a zygote (it could not be started, or it died),
// workers are forked from this process as before.

enum { ZYGOTE_START = 1, ZYGOTE_REAP = 2 };
/// Workers the zygote may have at once (running, or killed and not yet waited for).
enum { ZYGOTE_CHILDREN = 256 };

typedef struct {
    int32_t type;
    int32_t pid;  // ZYGOTE_REAP: the worker to wait for
    char voice[WORKER_VOICE_MAX + 1];
} zygote_request;

static struct {
    pid_t pid;              // 0: none
    int control;            // this process's end of the socket
    uint64_t generation;    // counts the zygotes started: a worker of an ended one died with it
    pthread_mutex_t lock;   // one request at a time (workers are stopped on callers' threads)
} zygote = {0, -1, 0, PTHREAD_MUTEX_INITIALIZER};

/// Receives one request and the descriptors sent with it (up to two; -1 for those missing). The request's size,
/// or 0 at the end, -1 on an error.
static ssize_t receive_request(int control, zygote_request *request, int descriptors[2]) {
    union {
        char buffer[CMSG_SPACE(2 * sizeof(int))];
        struct cmsghdr align;
    } control_data;
    struct iovec part = {request, sizeof *request};
    struct msghdr message = {0};
    message.msg_iov = &part;
    message.msg_iovlen = 1;
    message.msg_control = control_data.buffer;
    message.msg_controllen = sizeof control_data.buffer;
    descriptors[0] = descriptors[1] = -1;
    ssize_t got;
    do {
        got = recvmsg(control, &message, MSG_CMSG_CLOEXEC);
    } while (got < 0 && errno == EINTR);
    for (struct cmsghdr *header = CMSG_FIRSTHDR(&message); header != NULL; header = CMSG_NXTHDR(&message, header)) {
        if (header->cmsg_level != SOL_SOCKET || header->cmsg_type != SCM_RIGHTS) continue;
        size_t count = (header->cmsg_len - CMSG_LEN(0)) / sizeof(int);
        for (size_t index = 0; index < count && index < 2; index++)
            memcpy(&descriptors[index], CMSG_DATA(header) + index * sizeof(int), sizeof(int));
    }
    return got;
}

/// The zygote's loop: only system calls and its own stack, so its memory stays the fixed state it was forked with.
static void run_zygote(int control, pid_t parent) {
    become_helper();
    if (getppid() != parent) _exit(0);  // the parent ended before the death signal was asked for
    if (control > 3) close_range(3, (unsigned)control - 1, 0);
    close_range((unsigned)control + 1, ~0U, 0);
    pid_t children[ZYGOTE_CHILDREN];
    int child_count = 0;
    for (;;) {
        zygote_request request;
        int descriptors[2];
        ssize_t got = receive_request(control, &request, descriptors);
        if (got <= 0) break;
        int32_t answer = -1;
        if (got == (ssize_t)sizeof request && request.type == ZYGOTE_REAP) {
            for (int index = 0; index < child_count; index++) {
                if (children[index] != request.pid) continue;
                while (waitpid(request.pid, NULL, 0) < 0 && errno == EINTR) {
                }
                children[index] = children[--child_count];
                answer = 0;
                break;
            }
        } else if (got == (ssize_t)sizeof request && request.type == ZYGOTE_START && descriptors[0] >= 0
                   && descriptors[1] >= 0 && child_count < ZYGOTE_CHILDREN) {
            request.voice[WORKER_VOICE_MAX] = 0;
            pid_t pid = fork();
            if (pid == 0) {
                close(control);
                run_worker(descriptors[0], descriptors[1], request.voice);
                _exit(0);
            }
            if (pid > 0) children[child_count++] = pid;
            answer = pid > 0 ? pid : -1;
        }
        for (int index = 0; index < 2; index++)
            if (descriptors[index] >= 0) close(descriptors[index]);
        if (send(control, &answer, sizeof answer, MSG_NOSIGNAL) != (ssize_t)sizeof answer) break;
    }
    for (int index = 0; index < child_count; index++) kill(children[index], SIGKILL);
    while (waitpid(-1, NULL, 0) > 0 || errno == EINTR) {
    }
    _exit(0);
}

static void stop_workers_at_exit(void);

/// Has the workers and the zygote stopped and waited for at exit (registered once; owner thread).
static void reap_at_exit(void) {
    static int registered = 0;
    if (!registered) registered = atexit(stop_workers_at_exit) == 0;
}

/// Forks the zygote from the fixed state (owner thread). Without it, workers are forked from this process.
static void start_zygote(void) {
    if (zygote.pid > 0) return;
    reap_at_exit();
    int ends[2];
    if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, ends) != 0) return;
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid == 0) {
        close(ends[0]);
        run_zygote(ends[1], parent);
    }
    close(ends[1]);
    if (pid < 0) {
        close(ends[0]);
        return;
    }
    pthread_mutex_lock(&zygote.lock);
    zygote.pid = pid;
    zygote.control = ends[0];
    zygote.generation++;
    pthread_mutex_unlock(&zygote.lock);
}

/// Closes the socket to the zygote and waits for it (it waits for its workers first). Call with the lock held.
static void end_zygote(int killing) {
    if (zygote.pid <= 0) return;
    if (killing) kill(zygote.pid, SIGKILL);
    if (zygote.control >= 0) close(zygote.control);
    while (waitpid(zygote.pid, NULL, 0) < 0 && errno == EINTR) {
    }
    zygote.pid = 0;
    zygote.control = -1;
}

/// Sends `request` (with `descriptors`, when given) and returns the zygote's answer; -1 when it is gone (it is then
/// waited for, and the next worker's start makes a new one).
static int32_t ask_zygote(const zygote_request *request, const int descriptors[2]) {
    pthread_mutex_lock(&zygote.lock);
    int32_t answer = -1;
    if (zygote.pid > 0 && zygote.control >= 0) {
        union {
            char buffer[CMSG_SPACE(2 * sizeof(int))];
            struct cmsghdr align;
        } control_data;
        struct iovec part = {(void *)request, sizeof *request};
        struct msghdr message = {0};
        message.msg_iov = &part;
        message.msg_iovlen = 1;
        if (descriptors != NULL) {
            memset(&control_data, 0, sizeof control_data);
            message.msg_control = control_data.buffer;
            message.msg_controllen = sizeof control_data.buffer;
            struct cmsghdr *header = CMSG_FIRSTHDR(&message);
            header->cmsg_level = SOL_SOCKET;
            header->cmsg_type = SCM_RIGHTS;
            header->cmsg_len = CMSG_LEN(2 * sizeof(int));
            memcpy(CMSG_DATA(header), descriptors, 2 * sizeof(int));
        }
        ssize_t sent;
        do {
            sent = sendmsg(zygote.control, &message, MSG_NOSIGNAL);
        } while (sent < 0 && errno == EINTR);
        ssize_t got = -1;
        if (sent == (ssize_t)sizeof *request) {
            do {
                got = recv(zygote.control, &answer, sizeof answer, 0);
            } while (got < 0 && errno == EINTR);
        }
        if (got != (ssize_t)sizeof answer) {
            answer = -1;
            end_zygote(1);
        }
    }
    pthread_mutex_unlock(&zygote.lock);
    return answer;
}

/// Whether the worker's process may still be signalled by its id: this process's child, or the live zygote's (a
/// worker of a zygote that ended died with it, and its id may belong to another process by now).
static int may_signal(const voice_worker *worker) {
    if (worker->pid <= 0) return 0;
    if (!worker->via_zygote) return 1;
    pthread_mutex_lock(&zygote.lock);
    int live = zygote.pid > 0 && zygote.generation == worker->zygote_generation;
    pthread_mutex_unlock(&zygote.lock);
    return live;
}

static void stop_worker(voice_worker *worker) {
    if (worker->pid <= 0) return;
    close(worker->requests);
    close(worker->replies);
    if (may_signal(worker)) {
        kill(worker->pid, SIGKILL);
        if (worker->via_zygote) {
            zygote_request request = {ZYGOTE_REAP, worker->pid, {0}};
            ask_zygote(&request, NULL);
        } else {
            while (waitpid(worker->pid, NULL, 0) < 0 && errno == EINTR) {
            }
        }
    }
    worker->pid = 0;
}

/// What runs at exit while the killed workers are torn down (see earshot_espeak_set_exit_work).
static void (*exit_work)(void);

void earshot_espeak_set_exit_work(void (*work)(void)) { exit_work = work; }

/// At exit every worker is stopped and waited for, so their CPU time (and that of any child a worker
/// waited for) is counted in this process's children, where `earshot bench` and `time` look for it.
///
/// Every worker is killed before any is waited for, so they are torn down side by side (each takes 1-2 ms
/// to exit: its copy of this process's memory is unmapped), while this process does its own exit work.
static void stop_workers_at_exit(void) {
    for (int slot = 0; slot < EARSHOT_SYNTHESIS_SLOTS; slot++)
        for (int index = 0; index < WORKER_VOICES; index++) {
            voice_worker *worker = &slots[slot].workers[index];
            if (may_signal(worker)) kill(worker->pid, SIGKILL);
        }
    // The zygote waits for its workers and ends while this process does its own exit work.
    pthread_mutex_lock(&zygote.lock);
    if (zygote.control >= 0) close(zygote.control);
    zygote.control = -1;
    pthread_mutex_unlock(&zygote.lock);
    if (exit_work != NULL) exit_work();
    for (int slot = 0; slot < EARSHOT_SYNTHESIS_SLOTS; slot++)
        for (int index = 0; index < WORKER_VOICES; index++) {
            voice_worker *worker = &slots[slot].workers[index];
            // The zygote waits for its own, all at once, when its socket closes.
            if (worker->via_zygote && worker->pid > 0) {
                close(worker->requests);
                close(worker->replies);
                worker->pid = 0;
            }
            stop_worker(worker);
        }
    pthread_mutex_lock(&zygote.lock);
    end_zygote(0);
    pthread_mutex_unlock(&zygote.lock);
}

static worker_slot *slot_at(int32_t slot) {
    return slot >= 0 && slot < EARSHOT_SYNTHESIS_SLOTS ? &slots[slot] : NULL;
}

static voice_worker *worker_for(worker_slot *slot, const char *voice) {
    for (int index = 0; index < WORKER_VOICES; index++) {
        voice_worker *worker = &slot->workers[index];
        if (worker->pid > 0 && strcmp(worker->voice, voice) == 0) return worker;
    }
    return NULL;
}

int32_t earshot_espeak_has_worker(int32_t slot_index, const char *voice) {
    worker_slot *slot = slot_at(slot_index);
    if (slot == NULL || voice == NULL || slot->buffer == NULL) return 0;
    return strlen(voice) > WORKER_VOICE_MAX || worker_for(slot, voice) != NULL;
}

int32_t earshot_espeak_start_worker(int32_t slot_index, const char *voice) {
    worker_slot *slot = slot_at(slot_index);
    if (slot == NULL || voice == NULL) return EARSHOT_ISOLATION_FAILED;
    // A longer name is no voice; synthesizing with it answers that without a worker.
    if (strlen(voice) > WORKER_VOICE_MAX || worker_for(slot, voice) != NULL) return EARSHOT_ESPEAK_OK;
    reap_at_exit();
    if (slot->buffer == NULL && (slot->buffer = malloc(MESSAGE_CAPACITY)) == NULL) return EARSHOT_ISOLATION_FAILED;
    voice_worker *worker = &slot->workers[0];
    for (int index = 0; index < WORKER_VOICES; index++) {
        voice_worker *candidate = &slot->workers[index];
        if (candidate->pid <= 0) {
            worker = candidate;
            break;
        }
        if (candidate->used < worker->used) worker = candidate;
    }
    stop_worker(worker);
    int requests[2];
    int replies[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, requests) != 0) return EARSHOT_ISOLATION_FAILED;
    if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, replies) != 0) {
        close(requests[0]);
        close(requests[1]);
        return EARSHOT_ISOLATION_FAILED;
    }
    zygote_request request = {ZYGOTE_START, 0, {0}};
    strcpy(request.voice, voice);
    int ends[2] = {requests[1], replies[1]};
    pid_t pid = ask_zygote(&request, ends);
    if (pid <= 0) {
        // A zygote that died (killed from outside) is replaced: from this process as it is now, which is still
        // better than forking every later worker from it as it goes on growing.
        start_zygote();
        pid = ask_zygote(&request, ends);
    }
    int via_zygote = pid > 0;
    if (!via_zygote) pid = fork();
    if (pid < 0) {
        close(requests[0]);
        close(requests[1]);
        close(replies[0]);
        close(replies[1]);
        return EARSHOT_ISOLATION_FAILED;
    }
    if (pid == 0) {
        // run_worker closes every other descriptor, other workers' sockets included.
        close(requests[0]);
        close(replies[0]);
        run_worker(requests[1], replies[1], voice);
        _exit(0);
    }
    close(requests[1]);
    close(replies[1]);
    worker->pid = pid;
    worker->via_zygote = via_zygote;
    worker->zygote_generation = zygote.generation;
    worker->requests = requests[0];
    worker->replies = replies[0];
    worker->used = ++slot->clock;
    worker->processor = -1;
    strcpy(worker->voice, voice);
    return EARSHOT_ESPEAK_OK;
}

/// The worker the calling thread is waiting for (its process id), or 0: see earshot_espeak_current_worker.
static _Thread_local int32_t current_worker;

int32_t earshot_espeak_current_worker(void) { return current_worker; }

/// Where a waiting caller and its worker run. A caller that wants a whole phrase only waits while its worker
/// synthesizes, so the two never run at the same time. Left to the scheduler, the worker wakes on whichever
/// processor is idle, the other one from the caller, and each phrase then crosses between processors twice:
/// each time the idle one is woken by an interrupt, which on a virtual machine is a trip through the host, and the
/// audio arrives in the other processor's cache. Measured on a two-core VM, a check of a 16-minute countdown (961
/// phrases) took 0.76 s, and 0.66 s held together: 0.1 ms per phrase, half of it system time.
/// So for such a phrase both are held to one processor of the caller's set, and the caller gets its set back as
/// soon as the phrase is in. That is the processor the caller is on, unless another phrase in flight holds it: then
/// a free one of the set (moving the caller there), or none at all when every one is held. So phrases in flight at
/// the same time never share a processor while another idles, which holding each pair where its caller happened to
/// be allowed (a caller could start its phrase on the processor another pair's worker was running on). A caller
/// moves only in that case: giving each slot a processor of its own instead moved callers at most phrases of a
/// folder run, which made it slower (two jobs: 0.103 s became 0.114 s). A streaming caller (playback) works on
/// chunks while the worker makes the next ones, so its worker may run anywhere the caller may, as may the worker of
/// a phrase that could not be held. Nothing here changes a sample.
typedef struct {
    cpu_set_t original;  // the caller's own set, given back by unpin_caller
    int processor;       // the one it is held to, or -1
    voice_worker *worker;
    struct timespec since;  // when the hold began
} caller_placement;

// How long a phrase may keep its caller and worker held to one processor is EARSHOT_HOLD_LIMIT_MS (CEarshot.h).
// Holding saves about 0.1 ms a phrase; a phrase still in flight after this long gains nothing from it, and may be
// stuck behind something that keeps that processor busy (a real-time process spinning there left a held phrase
// about 5 % of it: 170 ms a phrase). Both are then let go to run wherever they may.

/// Processors a whole phrase in flight holds (see pin_beside_caller).
static struct {
    pthread_mutex_t lock;
    cpu_set_t held;
} held_processors = {PTHREAD_MUTEX_INITIALIZER, {{0}}};

/// Takes a processor of `allowed` no phrase in flight holds, `preferred` when it is free; -1 when none is.
static int hold_processor(const cpu_set_t *allowed, int preferred) {
    int chosen = -1;
    pthread_mutex_lock(&held_processors.lock);
    if (preferred >= 0 && preferred < CPU_SETSIZE && CPU_ISSET(preferred, allowed)
        && !CPU_ISSET(preferred, &held_processors.held))
        chosen = preferred;
    for (int processor = 0; chosen < 0 && processor < CPU_SETSIZE; processor++)
        if (CPU_ISSET(processor, allowed) && !CPU_ISSET(processor, &held_processors.held)) chosen = processor;
    if (chosen >= 0) CPU_SET(chosen, &held_processors.held);
    pthread_mutex_unlock(&held_processors.lock);
    return chosen;
}

static void release_processor(int processor) {
    pthread_mutex_lock(&held_processors.lock);
    CPU_CLR(processor, &held_processors.held);
    pthread_mutex_unlock(&held_processors.lock);
}

static void pin_beside_caller(voice_worker *worker, int streaming, caller_placement *placement) {
    placement->processor = -1;
    placement->worker = worker;
    clock_gettime(CLOCK_MONOTONIC, &placement->since);
    if (sched_getaffinity(0, sizeof placement->original, &placement->original) != 0) return;
    cpu_set_t one;
    CPU_ZERO(&one);
    if (!streaming && CPU_COUNT(&placement->original) >= 2) {
        int processor = hold_processor(&placement->original, sched_getcpu());
        if (processor >= 0) {
            CPU_SET(processor, &one);
            if (sched_setaffinity(0, sizeof one, &one) == 0)
                placement->processor = processor;
            else
                release_processor(processor);
        }
    }
    // The worker goes where its caller now is: the one processor, or the caller's whole set.
    int wanted = placement->processor;
    if (worker->processor == wanted) return;
    const cpu_set_t *set = wanted >= 0 ? &one : &placement->original;
    worker->processor = sched_setaffinity(worker->pid, sizeof *set, set) == 0 ? wanted : -2;
}

static void unpin_caller(caller_placement *placement) {
    if (placement->processor < 0) return;
    sched_setaffinity(0, sizeof placement->original, &placement->original);
    release_processor(placement->processor);
    placement->processor = -1;
}

/// Milliseconds the hold may still last: 0 once it is over, -1 when nothing is held.
static int hold_remaining(const caller_placement *placement) {
    if (placement->processor < 0) return -1;
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    int64_t elapsed = (int64_t)(now.tv_sec - placement->since.tv_sec) * 1000
                      + (now.tv_nsec - placement->since.tv_nsec) / 1000000;
    return elapsed >= EARSHOT_HOLD_LIMIT_MS ? 0 : (int)(EARSHOT_HOLD_LIMIT_MS - elapsed);
}

/// Waits until the worker's next message can be read. A hold that outlasts EARSHOT_HOLD_LIMIT_MS is let go meanwhile:
/// the caller gets its own set back, and its worker may run anywhere the caller may.
static void wait_for_message(int replies, caller_placement *placement) {
    for (;;) {
        int remaining = hold_remaining(placement);
        if (remaining < 0) return;  // nothing held: recv waits
        if (remaining == 0) {
            unpin_caller(placement);
            voice_worker *worker = placement->worker;
            worker->processor =
                sched_setaffinity(worker->pid, sizeof placement->original, &placement->original) == 0 ? -1 : -2;
            return;
        }
        struct pollfd ready = {replies, POLLIN, 0};
        if (poll(&ready, 1, remaining) != 0) return;  // a message, the end, an error or an interruption: recv tells
    }
}

/// Sends one phrase to `worker` and hands its chunks to `sink`, as earshot_espeak_synthesize_in_worker says.
static int32_t speak_through(worker_slot *slot, voice_worker *worker, const char *text, int64_t frame_limit,
                             const earshot_voice_parameters *parameters, int32_t streaming, earshot_speech_sink sink,
                             void *context, int32_t *stopped_early, int64_t *chunks_delivered,
                             caller_placement *placement) {
    char *buffer = slot->buffer;
    int64_t chunks_seen = 0;
    worker_request request = {REQUEST_SPEAK, (int32_t)strlen(text), frame_limit, *parameters, streaming != 0};
    if (send_request(worker->requests, &request, text) != 0) {
        stop_worker(worker);
        return EARSHOT_ISOLATION_FAILED;
    }
    int listening = 1;
    for (;;) {
        wait_for_message(worker->replies, placement);
        ssize_t got = recv(worker->replies, buffer, MESSAGE_CAPACITY, 0);
        if (got < 0 && errno == EINTR) continue;
        if (got < (ssize_t)sizeof(worker_message)) {
            // The worker is gone (or spoke nonsense): the next attempt gets a new one.
            stop_worker(worker);
            return EARSHOT_ISOLATION_FAILED;
        }
        worker_message header;
        memcpy(&header, buffer, sizeof header);
        if (header.type == MESSAGE_DONE) {
            if (!listening) return ENS_OK;
            *stopped_early = header.stopped;
            return header.status;
        }
        if (header.type != MESSAGE_CHUNK) {
            stop_worker(worker);
            return EARSHOT_ISOLATION_FAILED;
        }
        if (!listening) continue;
        size_t sample_bytes = header.sample_count > 0 ? (size_t)header.sample_count * sizeof(int16_t) : 0;
        size_t event_bytes = header.event_count > 0 ? (size_t)header.event_count * sizeof(earshot_speech_event) : 0;
        if (header.sample_count < 0 || header.event_count < 0 || header.event_count > EVENT_CAPACITY
            || sizeof header + sample_bytes + event_bytes != (size_t)got) {
            stop_worker(worker);
            return EARSHOT_ISOLATION_FAILED;
        }
        earshot_speech_event events[EVENT_CAPACITY];
        memcpy(events, buffer + sizeof header + sample_bytes, event_bytes);
        int16_t *samples = sample_bytes > 0 ? (int16_t *)(void *)(buffer + sizeof header) : NULL;
        if (++chunks_seen <= *chunks_delivered) continue;
        *chunks_delivered = chunks_seen;
        if (sink(samples, header.sample_count, events, header.event_count, context) != 0) {
            // The caller stopped listening: ask the worker to stop, then wait for it to say the phrase ended. A
            // whole-phrase worker does not look for the request while it speaks; it skips it before the next.
            listening = 0;
            *stopped_early = 1;
            worker_request stop = {REQUEST_STOP, 0, 0, {0, 0, 0, 0}, 0};
            if (write_all(worker->requests, &stop, sizeof stop) != 0) {
                stop_worker(worker);
                return ENS_OK;
            }
        }
    }
}

int32_t earshot_espeak_synthesize_in_worker(int32_t slot_index, const char *voice,
                                            const earshot_voice_parameters *parameters, const char *text,
                                            int64_t frame_limit, int32_t streaming, earshot_speech_sink sink,
                                            void *context, int32_t *stopped_early, int64_t *chunks_delivered) {
    *stopped_early = 0;
    worker_slot *slot = slot_at(slot_index);
    if (slot == NULL || slot->buffer == NULL) return EARSHOT_ISOLATION_FAILED;
    if (strlen(voice) > WORKER_VOICE_MAX) return EARSHOT_ESPEAK_VOICE_NOT_FOUND;
    voice_worker *worker = worker_for(slot, voice);
    if (worker == NULL) return EARSHOT_ISOLATION_FAILED;
    worker->used = ++slot->clock;
    caller_placement placement;
    pin_beside_caller(worker, streaming, &placement);
    current_worker = worker->pid;
    int32_t status = speak_through(slot, worker, text, frame_limit, parameters, streaming, sink, context,
                                   stopped_early, chunks_delivered, &placement);
    current_worker = 0;
    unpin_caller(&placement);
    return status;
}
