// The espeak-ng half of the shim. espeak-ng keeps all its state in globals and is not re-entrant, so
// this file does too: the Swift owner thread is the only caller (see EspeakSynthesizer).
#define _GNU_SOURCE  // close_range
#include "CEarshot.h"

#include <espeak-ng/espeak_ng.h>
#include <espeak-ng/speak_lib.h>
#include <errno.h>
#include <fcntl.h>
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
    espeak_ng_InitializePath(data_path);
    espeak_ng_ERROR_CONTEXT context = NULL;
    espeak_ng_STATUS status = espeak_ng_Initialize(&context);
    espeak_ng_ClearErrorContext(&context);
    if (status != ENS_OK) return (int32_t)status;
    status = espeak_ng_InitializeOutput(ENOUTPUT_MODE_SYNCHRONOUS, 0, NULL);
    if (status != ENS_OK) return (int32_t)status;
    espeak_SetSynthCallback(on_synth);
    *sample_rate = espeak_ng_GetSampleRate();
    return ENS_OK;
}

void earshot_espeak_version(char *buffer, size_t length) {
    if (length == 0) return;
    const char *path = NULL;
    const char *version = espeak_Info(&path);
    snprintf(buffer, length, "%s", version != NULL ? version : "");
}

void earshot_espeak_status_message(int32_t status, char *buffer, size_t length) {
    if (length == 0) return;
    buffer[0] = 0;
    espeak_ng_GetStatusCodeMessage((espeak_ng_STATUS)status, buffer, length);
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
    return (int32_t)espeak_ng_SetVoiceByName(name);
}

/// Appends `text` (of `count` bytes) and a newline at `*used`, writing only what fits in `length - 1`.
static void append_line(char *buffer, size_t length, size_t *used, const char *text, size_t count) {
    for (size_t index = 0; index <= count; index++, (*used)++) {
        if (length > 0 && *used < length - 1) buffer[*used] = index < count ? text[index] : '\n';
    }
}

size_t earshot_espeak_voice_names(char *buffer, size_t length) {
    size_t used = 0;
    const espeak_VOICE **voices = espeak_ListVoices(NULL);
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
    return (int32_t)espeak_ng_SetParameter((espeak_PARAMETER)parameter, value, 0);
}

int32_t earshot_espeak_synthesize(const char *text, int64_t frame_limit, earshot_speech_sink sink,
                                  void *context, int32_t *stopped_early) {
    current.sink = sink;
    current.context = context;
    current.limit = frame_limit;
    current.delivered = 0;
    current.reached_limit = frame_limit == 0;
    current.stopped = 0;
    *stopped_early = 0;
    unsigned int identifier = 0;
    espeak_ng_STATUS status = espeak_ng_Synthesize(text, strlen(text) + 1, 0, POS_CHARACTER, 0,
                                                   espeakCHARS_UTF8, &identifier, NULL);
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
// A small helper process, the zygote, is forked from that state once per slot (one slot per phrase that may
// be synthesized at the same time). For each phrase a zygote forks
// a worker, which selects the voice, sets the parameters, speaks and exits; its chunks come back
// through a socket as they are made. Forking the small zygote is cheap, and this process's memory is
// never shared copy-on-write with a worker, so a long render does not slow down as it grows. The zygote
// is only ever a copy of this process's fixed espeak-ng state, so when it dies a new one is forked.

#include <sys/socket.h>

enum { MESSAGE_STARTED = 1, MESSAGE_CHUNK = 2, MESSAGE_DONE = 3, MESSAGE_FINISHED = 4 };
enum { MESSAGE_CAPACITY = 1 << 18 };

/// What starts each message from a worker (or, for MESSAGE_FINISHED, the zygote).
typedef struct {
    int32_t type;
    int32_t event_count;   // chunk: events after the samples
    int64_t sample_count;  // chunk: samples that follow
    int32_t status;        // done: espeak-ng status; finished: 0, or 1 when the worker died
    int32_t stopped;       // done: stopped early
    int32_t pid;           // started: the worker's process id
    int32_t reserved;
} isolated_header;

/// One request to the zygote: voice and text lengths, then their bytes.
typedef struct {
    int64_t frame_limit;
    earshot_voice_parameters parameters;
    int32_t voice_length;
    int32_t text_length;
} isolated_request;

/// The voice selected by `earshot_espeak_prepare_isolation`: a worker speaking with it need not select
/// it again (every phrase in that voice takes the same path, so its audio is still the same every time).
static char prepared_voice[128];

/// One zygote as this process sees it. A slot's zygote is started only on the owner thread (forked from the
/// fixed state); a slot is used by one caller at a time, which the Swift pool guarantees.
typedef struct {
    pid_t pid;         // 0: none running
    int requests;      // stream socket: requests to the zygote
    int replies;       // sequenced-packet socket: messages from workers and the zygote
    char *buffer;      // one message from a worker (MESSAGE_CAPACITY bytes)
} zygote_slot;

static zygote_slot zygotes[EARSHOT_ZYGOTE_SLOTS];

int32_t earshot_espeak_prepare_isolation(const char *voice) {
    int32_t status = earshot_espeak_set_voice(voice);
    prepared_voice[0] = 0;
    if (status == EARSHOT_ESPEAK_OK && strlen(voice) < sizeof prepared_voice) strcpy(prepared_voice, voice);
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
static int send_message(int fd, const isolated_header *header, const void *first, size_t first_length,
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

/// Samples a worker gathers before it sends them (0.74 s at 22,050 Hz): espeak-ng hands over a few
/// milliseconds at a time, and a message each time would wake this process hundreds of times per phrase.
enum { BATCH_SAMPLES = 16384 };

/// What a worker has gathered and not yet sent. The first chunk of a phrase goes out at once, so playback
/// (`earshot say`) starts as soon as there is audio; later ones go out in batches.
static struct {
    int fd;
    int sent_any;
    int64_t sample_count;
    int32_t event_count;
    int16_t samples[BATCH_SAMPLES];
    earshot_speech_event events[EVENT_CAPACITY];
} batch;

/// Sends one chunk message; 0 on success, 1 when no one listens.
static int32_t send_chunk(const int16_t *samples, int64_t sample_count, const earshot_speech_event *events,
                          int32_t event_count) {
    isolated_header header = {MESSAGE_CHUNK, event_count, sample_count, 0, 0, 0, 0};
    batch.sent_any = 1;
    return send_message(batch.fd, &header, samples, sample_count > 0 ? (size_t)sample_count * sizeof(int16_t) : 0,
                        events, event_count > 0 ? (size_t)event_count * sizeof(earshot_speech_event) : 0)
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

/// The worker's sink: gathers chunks into batches (event frames count from the phrase's start, so joining
/// chunks changes no frame); stops when no one listens.
static int32_t forward_chunk(const int16_t *samples, int64_t sample_count, const earshot_speech_event *events,
                             int32_t event_count, void *context) {
    (void)context;
    if (sample_count < 0) sample_count = 0;
    if (event_count < 0) event_count = 0;
    if (sample_count > BATCH_SAMPLES || event_count > EVENT_CAPACITY) {
        if (send_batch() != 0) return 1;
        return send_chunk(samples, sample_count, events, event_count);
    }
    if (batch.sample_count + sample_count > BATCH_SAMPLES || batch.event_count + event_count > EVENT_CAPACITY) {
        if (send_batch() != 0) return 1;
    }
    if (sample_count > 0) memcpy(batch.samples + batch.sample_count, samples, (size_t)sample_count * sizeof(int16_t));
    if (event_count > 0)
        memcpy(batch.events + batch.event_count, events, (size_t)event_count * sizeof(earshot_speech_event));
    batch.sample_count += sample_count;
    batch.event_count += event_count;
    return batch.sent_any ? 0 : send_batch();
}

/// Selects the voice and sets the parameters in the worker; an espeak-ng status.
static int32_t apply_isolated_voice(const char *voice, const earshot_voice_parameters *parameters) {
    int32_t status = ENS_OK;
    if (prepared_voice[0] == 0 || strcmp(voice, prepared_voice) != 0) status = earshot_espeak_set_voice(voice);
    if (status != ENS_OK) return status;
    const int32_t values[][2] = {
        {EARSHOT_PARAM_RATE, parameters->rate},
        {EARSHOT_PARAM_PITCH, parameters->pitch},
        {EARSHOT_PARAM_VOLUME, parameters->volume},
        {EARSHOT_PARAM_WORDGAP, parameters->word_gap},
    };
    for (size_t index = 0; index < sizeof values / sizeof values[0]; index++) {
        status = earshot_espeak_set_parameter(values[index][0], values[index][1]);
        if (status != ENS_OK) return status;
    }
    return ENS_OK;
}

static void run_worker(int replies, const isolated_request *request, const char *voice, const char *text) {
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    isolated_header started = {MESSAGE_STARTED, 0, 0, 0, 0, (int32_t)getpid(), 0};
    if (send_message(replies, &started, NULL, 0, NULL, 0) != 0) _exit(1);
    int32_t stopped = 0;
    batch.fd = replies;
    int32_t status = apply_isolated_voice(voice, &request->parameters);
    if (status == ENS_OK) {
        status = earshot_espeak_synthesize(text, request->frame_limit, forward_chunk, NULL, &stopped);
        if (send_batch() != 0) _exit(1);
    }
    isolated_header done = {MESSAGE_DONE, 0, 0, status, stopped, 0, 0};
    _exit(send_message(replies, &done, NULL, 0, NULL, 0) == 0 ? 0 : 1);
}

/// The zygote: one worker per request, one at a time, until this process goes away.
static void run_zygote(int requests, int replies) {
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    signal(SIGHUP, SIG_DFL);
    signal(SIGPIPE, SIG_DFL);
    signal(SIGCHLD, SIG_DFL);
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    // Keep nothing else of this process's open files: a pipe held open here would never reach its end.
    int low = requests < replies ? requests : replies;
    int high = requests < replies ? replies : requests;
    if (low > 3) close_range(3, (unsigned)low - 1, 0);
    if (high > low + 1) close_range((unsigned)low + 1, (unsigned)high - 1, 0);
    close_range((unsigned)high + 1, ~0U, 0);
    for (;;) {
        isolated_request request;
        if (read_all(requests, &request, sizeof request) != 1) _exit(0);
        if (request.voice_length < 0 || request.text_length < 0) _exit(1);
        char *voice = malloc((size_t)request.voice_length + 1);
        char *text = malloc((size_t)request.text_length + 1);
        if (voice == NULL || text == NULL) _exit(1);
        if ((request.voice_length > 0 && read_all(requests, voice, (size_t)request.voice_length) != 1)
            || (request.text_length > 0 && read_all(requests, text, (size_t)request.text_length) != 1))
            _exit(0);
        voice[request.voice_length] = 0;
        text[request.text_length] = 0;
        pid_t worker = fork();
        if (worker == 0) {
            close(requests);
            run_worker(replies, &request, voice, text);
        }
        int worker_status = 0;
        if (worker > 0) {
            while (waitpid(worker, &worker_status, 0) < 0 && errno == EINTR) {
            }
        }
        int died = worker < 0 || !WIFEXITED(worker_status) || WEXITSTATUS(worker_status) != 0;
        isolated_header finished = {MESSAGE_FINISHED, 0, 0, died, 0, 0, 0};
        free(voice);
        free(text);
        if (send_message(replies, &finished, NULL, 0, NULL, 0) != 0) _exit(0);
    }
}

static void stop_zygote(zygote_slot *zygote) {
    if (zygote->pid <= 0) return;
    close(zygote->requests);
    close(zygote->replies);
    kill(zygote->pid, SIGKILL);
    while (waitpid(zygote->pid, NULL, 0) < 0 && errno == EINTR) {
    }
    zygote->pid = 0;
}

/// At exit every zygote is stopped and waited for, so the CPU time of every worker (each waited for by its
/// zygote) is counted in this process's children, where `earshot bench` and `time` look for it.
static void stop_zygotes_at_exit(void) {
    for (int slot = 0; slot < EARSHOT_ZYGOTE_SLOTS; slot++) stop_zygote(&zygotes[slot]);
}

static zygote_slot *slot_at(int32_t slot) {
    return slot >= 0 && slot < EARSHOT_ZYGOTE_SLOTS ? &zygotes[slot] : NULL;
}

int32_t earshot_espeak_start_zygote(int32_t slot) {
    static int reaped_at_exit = 0;
    zygote_slot *zygote = slot_at(slot);
    if (zygote == NULL) return EARSHOT_ISOLATION_FAILED;
    if (zygote->pid > 0) return EARSHOT_ESPEAK_OK;
    if (!reaped_at_exit) reaped_at_exit = atexit(stop_zygotes_at_exit) == 0;
    if (zygote->buffer == NULL && (zygote->buffer = malloc(MESSAGE_CAPACITY)) == NULL)
        return EARSHOT_ISOLATION_FAILED;
    int requests[2];
    int replies[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, requests) != 0) return EARSHOT_ISOLATION_FAILED;
    if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, replies) != 0) {
        close(requests[0]);
        close(requests[1]);
        return EARSHOT_ISOLATION_FAILED;
    }
    pid_t pid = fork();
    if (pid < 0) {
        close(requests[0]);
        close(requests[1]);
        close(replies[0]);
        close(replies[1]);
        return EARSHOT_ISOLATION_FAILED;
    }
    if (pid == 0) {
        // run_zygote closes every other descriptor, other zygotes' sockets included.
        close(requests[0]);
        close(replies[0]);
        run_zygote(requests[1], replies[1]);
        _exit(0);
    }
    close(requests[1]);
    close(replies[1]);
    zygote->pid = pid;
    zygote->requests = requests[0];
    zygote->replies = replies[0];
    return EARSHOT_ESPEAK_OK;
}

int32_t earshot_espeak_synthesize_in_zygote(int32_t slot, const char *voice,
                                            const earshot_voice_parameters *parameters, const char *text,
                                            int64_t frame_limit, earshot_speech_sink sink, void *context,
                                            int32_t *stopped_early, int64_t *chunks_delivered) {
    zygote_slot *zygote = slot_at(slot);
    if (zygote == NULL || zygote->pid <= 0 || zygote->buffer == NULL) return EARSHOT_ISOLATION_FAILED;
    char *buffer = zygote->buffer;
    int64_t chunks_seen = 0;
    *stopped_early = 0;
    isolated_request request = {frame_limit, *parameters, (int32_t)strlen(voice), (int32_t)strlen(text)};
    if (write_all(zygote->requests, &request, sizeof request) != 0
        || write_all(zygote->requests, voice, (size_t)request.voice_length) != 0
        || write_all(zygote->requests, text, (size_t)request.text_length) != 0) {
        stop_zygote(zygote);
        return EARSHOT_ISOLATION_FAILED;
    }
    int32_t result = EARSHOT_ISOLATION_FAILED;
    pid_t worker = 0;
    int listening = 1;
    for (;;) {
        ssize_t got = recv(zygote->replies, buffer, MESSAGE_CAPACITY, 0);
        if (got < 0 && errno == EINTR) continue;
        if (got < (ssize_t)sizeof(isolated_header)) {
            // The zygote is gone (or spoke nonsense): the next attempt gets a new one.
            stop_zygote(zygote);
            return EARSHOT_ISOLATION_FAILED;
        }
        isolated_header header;
        memcpy(&header, buffer, sizeof header);
        if (header.type == MESSAGE_FINISHED) {
            if (header.status != 0 && listening) result = EARSHOT_ISOLATION_FAILED;
            break;
        }
        if (header.type == MESSAGE_STARTED) {
            worker = header.pid;
        } else if (header.type == MESSAGE_DONE) {
            if (listening) {
                result = header.status;
                *stopped_early = header.stopped;
            }
        } else if (header.type == MESSAGE_CHUNK && listening) {
            size_t sample_bytes = header.sample_count > 0 ? (size_t)header.sample_count * sizeof(int16_t) : 0;
            size_t event_bytes =
                header.event_count > 0 ? (size_t)header.event_count * sizeof(earshot_speech_event) : 0;
            if (header.sample_count < 0 || header.event_count < 0 || header.event_count > EVENT_CAPACITY
                || sizeof header + sample_bytes + event_bytes != (size_t)got) {
                stop_zygote(zygote);
                return EARSHOT_ISOLATION_FAILED;
            }
            earshot_speech_event events[EVENT_CAPACITY];
            memcpy(events, buffer + sizeof header + sample_bytes, event_bytes);
            int16_t *samples = sample_bytes > 0 ? (int16_t *)(void *)(buffer + sizeof header) : NULL;
            if (++chunks_seen <= *chunks_delivered) continue;
            *chunks_delivered = chunks_seen;
            if (sink(samples, header.sample_count, events, header.event_count, context) != 0) {
                // The caller stopped listening: end the worker, then wait for the zygote to say so.
                listening = 0;
                *stopped_early = 1;
                result = ENS_OK;
                if (worker > 0) kill(worker, SIGKILL);
            }
        }
    }
    return result;
}
