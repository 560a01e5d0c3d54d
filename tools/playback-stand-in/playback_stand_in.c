// A stand-in for libpcaudio, the library espeak-ng plays audio through, built with its soname
// (libpcaudio.so.0) and loaded before libespeak-ng so that the loader takes it for the real one.
//
// Earshot never lets espeak-ng play anything: it runs espeak-ng in synchronous mode and plays or mixes the
// samples itself. espeak-ng still needs libpcaudio, which brings in PulseAudio, X11, systemd, libsndfile and
// codecs (about 30 libraries, 3 ms of dynamic linking) and opens a PulseAudio client context when it starts
// (1.1 ms against 0.7 ms with this stand-in, measured with a C program). In synchronous mode espeak-ng 1.51
// calls only create_audio_device_object, once, and uses the object only in its playback modes; the other
// functions are here so that the library resolves. Every one answers "no audio device".
#include "playback_stand_in.h"

/// What espeak-ng asks for when it starts its output: no device.
struct audio_object *create_audio_device_object(const char *device, const char *application_name,
                                                const char *description) {
    (void)device;
    (void)application_name;
    (void)description;
    return NULL;
}

int audio_object_open(struct audio_object *object, int format, unsigned int rate, unsigned char channels) {
    (void)object;
    (void)format;
    (void)rate;
    (void)channels;
    return -1;
}

void audio_object_close(struct audio_object *object) { (void)object; }

void audio_object_destroy(struct audio_object *object) { (void)object; }

int audio_object_write(struct audio_object *object, const void *data, size_t bytes) {
    (void)object;
    (void)data;
    (void)bytes;
    return -1;
}

int audio_object_drain(struct audio_object *object) {
    (void)object;
    return 0;
}

int audio_object_flush(struct audio_object *object) {
    (void)object;
    return 0;
}

const char *audio_object_strerror(struct audio_object *object, int error) {
    (void)object;
    (void)error;
    return "Earshot's stand-in for libpcaudio plays no audio";
}
