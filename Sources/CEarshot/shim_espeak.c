// The espeak-ng half of the shim. espeak-ng keeps all its state in globals and is not re-entrant, so
// this file does too: the Swift owner thread is the only caller (see EspeakSynthesizer).
#define _GNU_SOURCE  // pipe2
#include "CEarshot.h"

#include <espeak-ng/espeak_ng.h>
#include <espeak-ng/speak_lib.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
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

void earshot_espeak_status_message(int32_t status, char *buffer, size_t length) {
    if (length == 0) return;
    buffer[0] = 0;
    espeak_ng_GetStatusCodeMessage((espeak_ng_STATUS)status, buffer, length);
    buffer[length - 1] = 0;
}

int32_t earshot_espeak_set_voice(const char *name) {
    return (int32_t)espeak_ng_SetVoiceByName(name);
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
// `earshot_espeak_prepare_isolation`: it keeps espeak-ng in one fixed state, and each phrase is
// synthesized in a child forked from that state, which selects the voice, sets the parameters and
// speaks. (Selecting a voice or setting the rate queues commands for the wave generator that only a
// synthesis consumes; done in this process they would pile up and overflow its queue.) The child
// streams its chunks back through a pipe and exits; the parent hands them to the sink as they arrive.

enum { ISOLATED_CHUNK = 1, ISOLATED_DONE = 2 };

/// What precedes each message on the pipe.
typedef struct {
    int32_t type;          // ISOLATED_CHUNK or ISOLATED_DONE
    int32_t event_count;   // chunk: events after the samples
    int64_t sample_count;  // chunk: samples that follow
    int32_t status;        // done: espeak-ng status
    int32_t stopped;       // done: stopped early
} isolated_header;

static int write_all(int fd, const void *bytes, size_t length) {
    const char *cursor = bytes;
    while (length > 0) {
        ssize_t written = write(fd, cursor, length);
        if (written < 0 && errno == EINTR) continue;
        if (written <= 0) return -1;
        cursor += written;
        length -= (size_t)written;
    }
    return 0;
}

/// 1: read everything; 0: end of file before anything; -1: error or a partial message.
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

/// The child's sink: forwards each chunk to the parent; stops when the parent is gone.
static int32_t forward_chunk(const int16_t *samples, int64_t sample_count, const earshot_speech_event *events,
                             int32_t event_count, void *context) {
    int fd = *(int *)context;
    isolated_header header = {ISOLATED_CHUNK, event_count, sample_count, 0, 0};
    if (write_all(fd, &header, sizeof header) != 0) return 1;
    if (sample_count > 0 && write_all(fd, samples, (size_t)sample_count * sizeof(int16_t)) != 0) return 1;
    if (event_count > 0 && write_all(fd, events, (size_t)event_count * sizeof(earshot_speech_event)) != 0)
        return 1;
    return 0;
}

/// The voice selected by `earshot_espeak_prepare_isolation`: a child speaking with it need not select it
/// again (every phrase in that voice takes the same path, so its audio is still the same every time).
static char prepared_voice[128];

int32_t earshot_espeak_prepare_isolation(const char *voice) {
    espeak_ng_STATUS status = espeak_ng_SetVoiceByName(voice);
    prepared_voice[0] = 0;
    if (status == ENS_OK && strlen(voice) < sizeof prepared_voice) strcpy(prepared_voice, voice);
    return (int32_t)status;
}

/// Selects the voice and sets the parameters in the child; an espeak-ng status.
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

static void run_isolated_child(int fd, const char *voice, const earshot_voice_parameters *parameters,
                               const char *text, int64_t frame_limit) {
    // The child must not run the parent's handlers (an interrupt handler removing output files) and
    // must die with the thread that forked it.
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    signal(SIGHUP, SIG_DFL);
    signal(SIGPIPE, SIG_DFL);
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    int32_t stopped = 0;
    int32_t status = apply_isolated_voice(voice, parameters);
    if (status == ENS_OK) status = earshot_espeak_synthesize(text, frame_limit, forward_chunk, &fd, &stopped);
    isolated_header done = {ISOLATED_DONE, 0, 0, status, stopped};
    _exit(write_all(fd, &done, sizeof done) == 0 ? 0 : 1);
}

int32_t earshot_espeak_synthesize_isolated(const char *voice, const earshot_voice_parameters *parameters,
                                           const char *text, int64_t frame_limit, earshot_speech_sink sink,
                                           void *context, int32_t *stopped_early) {
    *stopped_early = 0;
    int pipe_fds[2];
    if (pipe2(pipe_fds, O_CLOEXEC) != 0) return EARSHOT_ISOLATION_FAILED;
    pid_t child = fork();
    if (child < 0) {
        close(pipe_fds[0]);
        close(pipe_fds[1]);
        return EARSHOT_ISOLATION_FAILED;
    }
    if (child == 0) {
        close(pipe_fds[0]);
        run_isolated_child(pipe_fds[1], voice, parameters, text, frame_limit);
    }
    close(pipe_fds[1]);
    int fd = pipe_fds[0];
    int32_t result = EARSHOT_ISOLATION_FAILED;
    int16_t *samples = NULL;
    size_t sample_capacity = 0;
    earshot_speech_event events[EVENT_CAPACITY];
    for (;;) {
        isolated_header header;
        if (read_all(fd, &header, sizeof header) != 1) break;
        if (header.type == ISOLATED_DONE) {
            result = header.status;
            *stopped_early = header.stopped;
            break;
        }
        if (header.type != ISOLATED_CHUNK || header.sample_count < 0 || header.event_count < 0
            || header.event_count > EVENT_CAPACITY)
            break;
        if ((size_t)header.sample_count > sample_capacity) {
            int16_t *grown = realloc(samples, (size_t)header.sample_count * sizeof(int16_t));
            if (grown == NULL) break;
            samples = grown;
            sample_capacity = (size_t)header.sample_count;
        }
        if (header.sample_count > 0
            && read_all(fd, samples, (size_t)header.sample_count * sizeof(int16_t)) != 1)
            break;
        if (header.event_count > 0
            && read_all(fd, events, (size_t)header.event_count * sizeof(earshot_speech_event)) != 1)
            break;
        if (sink(header.sample_count > 0 ? samples : NULL, header.sample_count, events, header.event_count,
                 context)
            != 0) {
            // The caller stopped listening: the rest of the phrase is not needed.
            kill(child, SIGKILL);
            *stopped_early = 1;
            result = ENS_OK;
            break;
        }
    }
    free(samples);
    close(fd);
    if (result == EARSHOT_ISOLATION_FAILED) kill(child, SIGKILL);
    int child_status = 0;
    while (waitpid(child, &child_status, 0) < 0 && errno == EINTR) {
    }
    return result;
}
