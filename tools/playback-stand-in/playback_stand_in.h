// libpcaudio's functions as espeak-ng 1.51 calls them, answered by Earshot's stand-in (see
// playback_stand_in.c). Nothing in Earshot calls them; the dynamic loader hands them to libespeak-ng.
#ifndef EARSHOT_PLAYBACK_STAND_IN_H
#define EARSHOT_PLAYBACK_STAND_IN_H

#include <stddef.h>

struct audio_object;

struct audio_object *create_audio_device_object(const char *device, const char *application_name,
                                                const char *description);
int audio_object_open(struct audio_object *object, int format, unsigned int rate, unsigned char channels);
void audio_object_close(struct audio_object *object);
void audio_object_destroy(struct audio_object *object);
int audio_object_write(struct audio_object *object, const void *data, size_t bytes);
int audio_object_drain(struct audio_object *object);
int audio_object_flush(struct audio_object *object);
const char *audio_object_strerror(struct audio_object *object, int error);

#endif
