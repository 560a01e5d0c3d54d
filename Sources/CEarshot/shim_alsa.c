// The ALSA half of the shim: one PCM playback handle, its poll descriptors, and an eventfd to wake a
// thread that waits on them. No policy: recovery and waiting decisions are made in Swift (PCMDevice).
#define _GNU_SOURCE
#include "CEarshot.h"

#include <alsa/asoundlib.h>
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

struct earshot_pcm {
    snd_pcm_t *handle;
};

// MARK: - Error messages

static pthread_mutex_t last_error_lock = PTHREAD_MUTEX_INITIALIZER;
static char last_error[512];

static void keep_error(const char *file, int line, const char *function, int err, const char *fmt, ...) {
    (void)file;
    (void)line;
    (void)function;
    char message[sizeof last_error];
    va_list arguments;
    va_start(arguments, fmt);
    vsnprintf(message, sizeof message, fmt, arguments);
    va_end(arguments);
    if (err != 0) {
        size_t used = strlen(message);
        snprintf(message + used, sizeof message - used, ": %s", snd_strerror(err));
    }
    pthread_mutex_lock(&last_error_lock);
    memcpy(last_error, message, sizeof last_error);
    pthread_mutex_unlock(&last_error_lock);
}

void earshot_alsa_silence_errors(void) { snd_lib_error_set_handler(keep_error); }

void earshot_alsa_last_error(char *buffer, size_t length) {
    if (length == 0) return;
    pthread_mutex_lock(&last_error_lock);
    snprintf(buffer, length, "%s", last_error);
    pthread_mutex_unlock(&last_error_lock);
}

const char *earshot_alsa_strerror(int32_t code) { return snd_strerror(code); }

// MARK: - PCM

int32_t earshot_pcm_open(earshot_pcm **pcm, const char *name, uint32_t rate, uint64_t period_frames,
                         uint64_t buffer_frames, uint32_t *granted_rate, uint64_t *granted_period,
                         uint64_t *granted_buffer, const char **failed_operation) {
    *pcm = NULL;
    snd_pcm_t *handle = NULL;
    int err = snd_pcm_open(&handle, name, SND_PCM_STREAM_PLAYBACK, SND_PCM_NONBLOCK);
    if (err < 0) {
        *failed_operation = "snd_pcm_open";
        return err;
    }
    snd_pcm_hw_params_t *hw = NULL;
    snd_pcm_sw_params_t *sw = NULL;
    snd_pcm_hw_params_alloca(&hw);
    snd_pcm_sw_params_alloca(&sw);
    unsigned int actual_rate = rate;
    snd_pcm_uframes_t period = (snd_pcm_uframes_t)period_frames;
    snd_pcm_uframes_t buffer = (snd_pcm_uframes_t)buffer_frames;
    int dir = 0;
#define STEP(call)                  \
    do {                            \
        err = (call);               \
        if (err < 0) {              \
            *failed_operation = #call; \
            goto fail;              \
        }                           \
    } while (0)
    STEP(snd_pcm_hw_params_any(handle, hw));
    STEP(snd_pcm_hw_params_set_rate_resample(handle, hw, 1));
    STEP(snd_pcm_hw_params_set_access(handle, hw, SND_PCM_ACCESS_RW_INTERLEAVED));
    STEP(snd_pcm_hw_params_set_format(handle, hw, SND_PCM_FORMAT_S16_LE));
    STEP(snd_pcm_hw_params_set_channels(handle, hw, 1));
    STEP(snd_pcm_hw_params_set_rate_near(handle, hw, &actual_rate, &dir));
    STEP(snd_pcm_hw_params_set_period_size_near(handle, hw, &period, &dir));
    STEP(snd_pcm_hw_params_set_buffer_size_near(handle, hw, &buffer));
    STEP(snd_pcm_hw_params(handle, hw));
    STEP(snd_pcm_hw_params_get_period_size(hw, &period, &dir));
    STEP(snd_pcm_hw_params_get_buffer_size(hw, &buffer));
    STEP(snd_pcm_sw_params_current(handle, sw));
    STEP(snd_pcm_sw_params_set_start_threshold(handle, sw, period));
    STEP(snd_pcm_sw_params_set_avail_min(handle, sw, period));
    STEP(snd_pcm_sw_params(handle, sw));
#undef STEP
    *pcm = malloc(sizeof **pcm);
    if (*pcm == NULL) {
        *failed_operation = "malloc";
        err = -ENOMEM;
        goto fail;
    }
    (*pcm)->handle = handle;
    *granted_rate = actual_rate;
    *granted_period = period;
    *granted_buffer = buffer;
    return 0;
fail:
    snd_pcm_close(handle);
    return err;
}

void earshot_pcm_close(earshot_pcm *pcm) {
    if (pcm == NULL) return;
    snd_pcm_close(pcm->handle);
    free(pcm);
}

int64_t earshot_pcm_writei(earshot_pcm *pcm, const int16_t *frames, uint64_t count) {
    return snd_pcm_writei(pcm->handle, frames, (snd_pcm_uframes_t)count);
}

int32_t earshot_pcm_recover(earshot_pcm *pcm, int32_t error) { return snd_pcm_recover(pcm->handle, error, 1); }

int32_t earshot_pcm_delay(earshot_pcm *pcm, int64_t *frames) {
    snd_pcm_sframes_t delay = 0;
    int err = snd_pcm_delay(pcm->handle, &delay);
    *frames = err < 0 ? 0 : delay;
    return err;
}

int64_t earshot_pcm_avail(earshot_pcm *pcm) { return snd_pcm_avail_update(pcm->handle); }

int32_t earshot_pcm_drop(earshot_pcm *pcm) { return snd_pcm_drop(pcm->handle); }

int32_t earshot_pcm_prepare(earshot_pcm *pcm) { return snd_pcm_prepare(pcm->handle); }

int32_t earshot_pcm_drain(earshot_pcm *pcm) {
    snd_pcm_nonblock(pcm->handle, 0);
    int err = snd_pcm_drain(pcm->handle);
    snd_pcm_nonblock(pcm->handle, 1);
    return err;
}

int32_t earshot_pcm_state(earshot_pcm *pcm) { return (int32_t)snd_pcm_state(pcm->handle); }

int32_t earshot_pcm_poll_descriptors_count(earshot_pcm *pcm) {
    return snd_pcm_poll_descriptors_count(pcm->handle);
}

int32_t earshot_pcm_poll_descriptors(earshot_pcm *pcm, void *pollfds, int32_t capacity) {
    if (capacity <= 0) return 0;
    return snd_pcm_poll_descriptors(pcm->handle, (struct pollfd *)pollfds, (unsigned int)capacity);
}

int32_t earshot_pcm_wait(earshot_pcm *pcm, int32_t wake_fd, int32_t timeout_ms) {
    enum { CAPACITY = 16 };
    struct pollfd fds[CAPACITY + 1];
    int count = snd_pcm_poll_descriptors_count(pcm->handle);
    if (count < 0) return count;
    if (count > CAPACITY) count = CAPACITY;
    count = snd_pcm_poll_descriptors(pcm->handle, fds, (unsigned int)count);
    if (count < 0) return count;
    int total = count;
    if (wake_fd >= 0) {
        fds[total].fd = wake_fd;
        fds[total].events = POLLIN;
        fds[total].revents = 0;
        total++;
    }
    int ready = poll(fds, (nfds_t)total, timeout_ms);
    if (ready < 0) return errno == EINTR ? 0 : -errno;
    if (ready == 0) return 0;
    int32_t result = 0;
    if (wake_fd >= 0 && (fds[count].revents & POLLIN)) result |= 2;
    unsigned short revents = 0;
    int err = snd_pcm_poll_descriptors_revents(pcm->handle, fds, (unsigned int)count, &revents);
    if (err < 0) return err;
    if (revents & POLLERR) return -EPIPE;
    if (revents & POLLOUT) result |= 1;
    return result;
}

// MARK: - eventfd

int32_t earshot_eventfd_create(void) {
    int fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    return fd < 0 ? -errno : fd;
}

void earshot_eventfd_signal(int32_t fd) {
    uint64_t one = 1;
    ssize_t written = write(fd, &one, sizeof one);
    (void)written;
}

void earshot_eventfd_drain(int32_t fd) {
    uint64_t value = 0;
    ssize_t got = read(fd, &value, sizeof value);
    (void)got;
}

void earshot_fd_close(int32_t fd) {
    if (fd >= 0) close(fd);
}
