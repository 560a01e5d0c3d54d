// The espeak-ng half of the shim. espeak-ng keeps all its state in globals and is not re-entrant, so
// this file does too: the Swift owner thread is the only caller (see EspeakSynthesizer).
#include "CEarshot.h"

#include <espeak-ng/espeak_ng.h>
#include <espeak-ng/speak_lib.h>
#include <string.h>

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
