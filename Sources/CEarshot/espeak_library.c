// Opening libespeak-ng at run time (see espeak_library.h for why it is not linked).
#define _GNU_SOURCE  // dlinfo
#include "espeak_library.h"

#include "CEarshot.h"
#include "memory_snapshot.h"

#include <dlfcn.h>
#include <pthread.h>
#ifdef __linux__
#include <link.h>
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/// The names tried, in order, when EARSHOT_ESPEAK_LIBRARY is not set: the versioned names a runtime
/// package installs, then the unversioned development links.
static const char *const standard_names[] = {
#ifdef __APPLE__
    "libespeak-ng.1.dylib",
    "libespeak-ng.dylib",
#else
    "libespeak-ng.so.1",
    "libespeak-ng.so",
#endif
    NULL,
};

static pthread_once_t opening = PTHREAD_ONCE_INIT;
static espeak_functions functions;
static int opened;
static char problem_text[1024];
static char opened_path[4096];
static char stand_in_path[4096];

/// The functions espeak-ng 1.51 calls in libpcaudio, which a stand-in must have.
static const char *const playback_functions[] = {
    "create_audio_device_object", "audio_object_open", "audio_object_close", "audio_object_destroy",
    "audio_object_write", "audio_object_drain", "audio_object_flush", "audio_object_strerror", NULL,
};

void earshot_espeak_set_playback_stand_in(const char *path) {
    if (path == NULL || strlen(path) >= sizeof stand_in_path) return;
    snprintf(stand_in_path, sizeof stand_in_path, "%s", path);
}

/// Loads the stand-in for libpcaudio when one was set, the real one is not loaded yet, and it has every
/// function espeak-ng calls; libespeak-ng opened next then takes it for its libpcaudio.so.0 (the loader
/// matches a dependency to a library already loaded by its soname). Returns its handle, or NULL.
static void *load_stand_in(void) {
    if (stand_in_path[0] == 0) return NULL;
    void *real = dlopen("libpcaudio.so.0", RTLD_NOW | RTLD_NOLOAD);
    if (real != NULL) {
        dlclose(real);
        return NULL;
    }
    void *stand_in = dlopen(stand_in_path, RTLD_NOW | RTLD_LOCAL);
    if (stand_in == NULL) return NULL;
    for (int index = 0; playback_functions[index] != NULL; index++) {
        if (dlsym(stand_in, playback_functions[index]) == NULL) {
            dlclose(stand_in);
            return NULL;
        }
    }
    return stand_in;
}

/// Opens `name` and looks up every function into `table`. Returns the handle, or NULL with the reason in
/// `problem` (the library closed again).
static void *open_into(const char *name, espeak_functions *table, char *problem, size_t length) {
    void *library = dlopen(name, RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        const char *reason = dlerror();
        snprintf(problem, length, "%s", reason != NULL ? reason : "dlopen failed");
        return NULL;
    }
    struct {
        void **slot;
        const char *symbol;
    } const wanted[] = {
        {(void **)&table->initialize_path, "espeak_ng_InitializePath"},
        {(void **)&table->initialize, "espeak_ng_Initialize"},
        {(void **)&table->clear_error_context, "espeak_ng_ClearErrorContext"},
        {(void **)&table->initialize_output, "espeak_ng_InitializeOutput"},
        {(void **)&table->set_synth_callback, "espeak_SetSynthCallback"},
        {(void **)&table->get_sample_rate, "espeak_ng_GetSampleRate"},
        {(void **)&table->info, "espeak_Info"},
        {(void **)&table->get_status_code_message, "espeak_ng_GetStatusCodeMessage"},
        {(void **)&table->set_voice_by_name, "espeak_ng_SetVoiceByName"},
        {(void **)&table->list_voices, "espeak_ListVoices"},
        {(void **)&table->set_parameter, "espeak_ng_SetParameter"},
        {(void **)&table->synthesize, "espeak_ng_Synthesize"},
    };
    for (size_t index = 0; index < sizeof wanted / sizeof wanted[0]; index++) {
        *wanted[index].slot = dlsym(library, wanted[index].symbol);
        if (*wanted[index].slot == NULL) {
            snprintf(problem, length, "%s has no function %s (not an espeak-ng library)", name,
                     wanted[index].symbol);
            dlclose(library);
            return NULL;
        }
    }
    return library;
}

static void open_once(void) {
    const char *chosen = getenv("EARSHOT_ESPEAK_LIBRARY");
    const char *single[] = {chosen, NULL};
    const char *const *names = chosen != NULL && chosen[0] != 0 ? single : standard_names;
    char reason[sizeof problem_text];
    problem_text[0] = 0;
    void *stand_in = load_stand_in();
    for (int index = 0; names[index] != NULL; index++) {
        void *library = open_into(names[index], &functions, reason, sizeof reason);
        if (library == NULL && stand_in != NULL) {
            // Whatever the reason, the library is tried once more as it comes, with the real libpcaudio.
            dlclose(stand_in);
            stand_in = NULL;
            library = open_into(names[index], &functions, reason, sizeof reason);
        }
        if (library == NULL) {
            // The first name's reason is the one worth showing (later names are fallbacks).
            if (problem_text[0] == 0) snprintf(problem_text, sizeof problem_text, "%s", reason);
            continue;
        }
        snprintf(opened_path, sizeof opened_path, "%s", names[index]);
#ifdef __linux__
        struct link_map *map = NULL;
        if (dlinfo(library, RTLD_DI_LINKMAP, &map) == 0 && map != NULL && map->l_name != NULL
            && map->l_name[0] != 0)
            snprintf(opened_path, sizeof opened_path, "%s", map->l_name);
#endif
        // Its writable memory holds espeak-ng's state, whatever the file is called.
        earshot_memory_snapshot_add_state_library(opened_path);
        opened = 1;
        return;
    }
    if (stand_in != NULL) dlclose(stand_in);
}

const espeak_functions *espeak_library(void) {
    pthread_once(&opening, open_once);
    return opened ? &functions : NULL;
}

int32_t earshot_espeak_open(char *problem, size_t length) {
    if (espeak_library() != NULL) return EARSHOT_ESPEAK_OK;
    if (length > 0) snprintf(problem, length, "%s", problem_text);
    return EARSHOT_ESPEAK_LIBRARY_UNAVAILABLE;
}

void earshot_espeak_library_name(char *buffer, size_t length) {
    if (length == 0) return;
    const char *chosen = getenv("EARSHOT_ESPEAK_LIBRARY");
    if (espeak_library() != NULL)
        snprintf(buffer, length, "%s", opened_path);
    else
        snprintf(buffer, length, "%s", chosen != NULL && chosen[0] != 0 ? chosen : standard_names[0]);
}

static void *open_in_background(void *unused) {
    (void)unused;
    espeak_library();
    return NULL;
}

void earshot_espeak_open_in_background(void) {
    pthread_attr_t attributes;
    if (pthread_attr_init(&attributes) != 0) return;
    pthread_attr_setdetachstate(&attributes, PTHREAD_CREATE_DETACHED);
    pthread_t thread;
    // Without a thread the library is simply opened by the first caller that needs it.
    (void)pthread_create(&thread, &attributes, open_in_background, NULL);
    pthread_attr_destroy(&attributes);
}

int32_t earshot_espeak_try_library(const char *name, char *problem, size_t length) {
    espeak_functions scratch;
    void *library = open_into(name, &scratch, problem, length);
    if (library == NULL) return EARSHOT_ESPEAK_LIBRARY_UNAVAILABLE;
    dlclose(library);
    if (length > 0) problem[0] = 0;
    return EARSHOT_ESPEAK_OK;
}
