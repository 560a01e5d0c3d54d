// libespeak-ng's functions, reached through a table filled when the library is first opened.
//
// The shim used to be linked against libespeak-ng, so every Earshot process loaded it and the ~30
// libraries it needs (PulseAudio, X11, systemd, codecs: 3.2 ms of dynamic linking, measured on a C hello
// world) before main, even `earshot --version` and a check answered from the phrase cache. Now the
// library is opened with dlopen the first time espeak-ng is needed (or ahead of time on a background
// thread, see earshot_espeak_open_in_background), and these pointers are the only way the shim calls it.
#ifndef EARSHOT_ESPEAK_LIBRARY_H
#define EARSHOT_ESPEAK_LIBRARY_H

#include <espeak-ng/espeak_ng.h>
#include <espeak-ng/speak_lib.h>

/// The espeak-ng functions the shim uses, typed exactly as the installed headers declare them.
typedef struct {
    __typeof__(espeak_ng_InitializePath) *initialize_path;
    __typeof__(espeak_ng_Initialize) *initialize;
    __typeof__(espeak_ng_ClearErrorContext) *clear_error_context;
    __typeof__(espeak_ng_InitializeOutput) *initialize_output;
    __typeof__(espeak_SetSynthCallback) *set_synth_callback;
    __typeof__(espeak_ng_GetSampleRate) *get_sample_rate;
    __typeof__(espeak_Info) *info;
    __typeof__(espeak_ng_GetStatusCodeMessage) *get_status_code_message;
    __typeof__(espeak_ng_SetVoiceByName) *set_voice_by_name;
    __typeof__(espeak_ListVoices) *list_voices;
    __typeof__(espeak_ng_SetParameter) *set_parameter;
    __typeof__(espeak_ng_Synthesize) *synthesize;
} espeak_functions;

/// The process's table, opening the library on the first call (every caller waits for one opening);
/// NULL when it cannot be opened (earshot_espeak_open says why).
const espeak_functions *espeak_library(void);

#endif
