// CEarshot: the only C in Earshot. A thin, policy-free shim over libespeak-ng and libasound.
//
// This header deliberately includes neither <espeak-ng/...> nor <alsa/...>: Swift sees only plain C
// types and opaque handles. Every symbol carries the `earshot_` prefix. Decisions (which events to
// keep, when to recover from an underrun, how to wait) belong to the Swift wrappers in EarshotSystem.
#ifndef CEARSHOT_H
#define CEARSHOT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

// MARK: - espeak-ng

/// espeak-ng status codes the wrappers need to recognise (values of `espeak_ng_STATUS`).
enum {
    EARSHOT_ESPEAK_OK = 0,
    EARSHOT_ESPEAK_VOICE_NOT_FOUND = 0x100006FF,
    EARSHOT_ESPEAK_SPEECH_STOPPED = 0x10000EFF,
    /// Not an espeak-ng code: the child process that synthesizes could not be started or died.
    EARSHOT_ISOLATION_FAILED = 0x7EA50001,
    /// Not an espeak-ng code: the espeak-ng library could not be opened (earshot_espeak_open says why).
    EARSHOT_ESPEAK_LIBRARY_UNAVAILABLE = 0x7EA50002,
};

/// Opens the espeak-ng library once per process (later calls return at once): `libespeak-ng.so.1` found the
/// way the dynamic loader finds libraries, or the file `EARSHOT_ESPEAK_LIBRARY` names. Every other
/// earshot_espeak_ function opens it first and answers EARSHOT_ESPEAK_LIBRARY_UNAVAILABLE when it cannot.
/// Returns EARSHOT_ESPEAK_OK, or that status with the loader's reason in `problem` (NUL-terminated).
int32_t earshot_espeak_open(char *problem, size_t length);

/// Starts opening the library on a background thread and returns at once, so a command that will speak
/// pays for loading it (and the libraries it needs) while doing other work. Callers that need it before
/// that thread is done wait for it.
void earshot_espeak_open_in_background(void);

/// Has the library opened with the file at `path` standing in for libpcaudio, espeak-ng's playback library
/// (Earshot never lets espeak-ng play; see tools/playback-stand-in). Call before the library is opened; later
/// calls, and a file that cannot stand in, change nothing: the real libpcaudio is loaded as usual.
void earshot_espeak_set_playback_stand_in(const char *path);

/// The library opened (its path, as the loader found it), or the name that could not be opened.
void earshot_espeak_library_name(char *buffer, size_t length);

/// Opens the library `name` apart from the process's own, checks that it has every function the shim
/// uses, and closes it again. Returns EARSHOT_ESPEAK_OK, or EARSHOT_ESPEAK_LIBRARY_UNAVAILABLE with the
/// reason in `problem`. For tests and diagnostics; changes nothing.
int32_t earshot_espeak_try_library(const char *name, char *problem, size_t length);

/// Event kinds delivered with audio (values of `espeak_EVENT_TYPE`).
enum {
    EARSHOT_EVENT_WORD = 1,
    EARSHOT_EVENT_SENTENCE = 2,
    EARSHOT_EVENT_END = 5,
};

/// Parameters settable with `earshot_espeak_set_parameter` (values of `espeak_PARAMETER`).
enum {
    EARSHOT_PARAM_RATE = 1,
    EARSHOT_PARAM_VOLUME = 2,
    EARSHOT_PARAM_PITCH = 3,
    EARSHOT_PARAM_RANGE = 4,
    EARSHOT_PARAM_PUNCTUATION = 5,
    EARSHOT_PARAM_WORDGAP = 7,
};

/// Punctuation modes for `EARSHOT_PARAM_PUNCTUATION` (values of `espeak_PUNCT_TYPE`).
enum {
    EARSHOT_PUNCT_NONE = 0,
    EARSHOT_PUNCT_ALL = 1,
    EARSHOT_PUNCT_SOME = 2,
};

/// One WORD, SENTENCE or END event, exactly as espeak-ng reported it.
typedef struct {
    /// EARSHOT_EVENT_WORD, EARSHOT_EVENT_SENTENCE or EARSHOT_EVENT_END.
    int32_t kind;
    /// Sample index within the utterance where the event happens.
    int64_t frame;
    /// 1-based position in Unicode code points (0 when espeak-ng gives none).
    int32_t text_position;
    /// Length in code points (words only; 0 otherwise).
    int32_t length;
} earshot_speech_event;

/// Receives one chunk of synthesized audio and the events inside it. Return 0 to continue, 1 to stop
/// synthesis at once. `samples` may be NULL when `sample_count` is 0.
typedef int32_t (*earshot_speech_sink)(const int16_t *samples, int64_t sample_count,
                                       const earshot_speech_event *events, int32_t event_count,
                                       void *context);

/// Initializes espeak-ng once for the process in synchronous mode with `data_path` (NULL: the system
/// data). Never exits the process. Returns an espeak-ng status; on success stores the sample rate.
int32_t earshot_espeak_initialize(const char *data_path, int32_t *sample_rate);

/// Writes espeak-ng's message for `status` into `buffer` (always NUL-terminated).
void earshot_espeak_status_message(int32_t status, char *buffer, size_t length);

/// Longest voice name and variant name `earshot_espeak_set_voice` passes on. espeak-ng 1.51 copies
/// the whole name into a 60-byte buffer and `!v/` plus the variant into a 40-byte one without a length
/// check (a 37-character variant aborts the process), so the shim refuses longer names itself.
enum {
    EARSHOT_VOICE_NAME_MAX = 24,
    EARSHOT_VARIANT_NAME_MAX = 32,
};

/// Has `work` run at exit right after the espeak-ng workers are sent SIGKILL and before they are waited for,
/// so it overlaps their teardown (removing the private data folder: nothing reads it once they are killed).
/// Only when a worker was ever started; `work` must also be safe to run again later, from its own handler.
void earshot_espeak_set_exit_work(void (*work)(void));

/// Selects a voice by name, with an optional `+variant` suffix, for example `en-us+f3`. A voice part
/// over EARSHOT_VOICE_NAME_MAX bytes, a variant over EARSHOT_VARIANT_NAME_MAX, or a `/` anywhere is
/// refused with EARSHOT_ESPEAK_VOICE_NOT_FOUND before espeak-ng sees the name. espeak-ng crashes on
/// some well-formed names (a variant's name used as the voice, such as `f3`), so callers also check
/// the name against `earshot_espeak_voice_names` first.
int32_t earshot_espeak_set_voice(const char *name);

/// Writes every name espeak-ng's voice list (`espeak_ListVoices`, variants excluded) answers to: each
/// voice's name, the last part of its identifier and its language codes, one per line, into `buffer`
/// (truncated to `length`, always NUL-terminated when `length > 0`). Returns the length the whole
/// list needs, without the NUL; call again with a larger buffer when it is `length` or more.
size_t earshot_espeak_voice_names(char *buffer, size_t length);

/// Sets one absolute parameter (EARSHOT_PARAM_...). espeak-ng 1.51 answers EINVAL (22) for
/// EARSHOT_PARAM_PUNCTUATION in synchronous mode; its default is EARSHOT_PUNCT_NONE.
int32_t earshot_espeak_set_parameter(int32_t parameter, int32_t value);

/// Synthesizes UTF-8 `text` literally (no SSML, no phoneme input), synchronously.
///
/// Audio and events go to `sink` in order. With `frame_limit >= 0`, at most `frame_limit` frames are
/// delivered and synthesis stops as soon as more would follow; events at or after the limit are not
/// delivered. `*stopped_early` is set to 1 when audio was cut at the limit or the sink asked to stop.
/// A stop is reported as success (EARSHOT_ESPEAK_OK).
int32_t earshot_espeak_synthesize(const char *text, int64_t frame_limit, earshot_speech_sink sink,
                                  void *context, int32_t *stopped_early);

/// The voice parameters a phrase is synthesized with (values of the EARSHOT_PARAM_... parameters).
typedef struct {
    int32_t rate;
    int32_t pitch;
    int32_t volume;
    int32_t word_gap;
} earshot_voice_parameters;

/// Puts espeak-ng in the fixed state every isolated synthesis starts from: `voice` selected once (so
/// its language's dictionary is loaded for every worker). After this, the process must make no other
/// espeak-ng call; phrases are synthesized by `earshot_espeak_synthesize_in_worker`. With the environment
/// variable EARSHOT_ISOLATION=fork, workers fork a child per phrase instead of writing back a copy of
/// espeak-ng's memory (slower; the same samples). Returns an espeak-ng status.
int32_t earshot_espeak_prepare_isolation(const char *voice);

/// Milliseconds a whole phrase may hold its caller and worker to one processor (see
/// `earshot_espeak_synthesize_in_worker`).
enum { EARSHOT_HOLD_LIMIT_MS = 50 };

/// How many slots (phrases synthesized at the same time) there may be; each keeps a worker process per
/// voice it speaks in.
enum { EARSHOT_SYNTHESIS_SLOTS = 64 };

/// Starts the worker of `slot` (0 ..< EARSHOT_SYNTHESIS_SLOTS) for `voice` (a name with an optional
/// `+variant`) when none is running: a process forked from this process's fixed espeak-ng state that
/// selects the voice once. A slot keeps workers for a few voices and stops the least recently used one
/// for another. Call on the thread that owns espeak-ng only. Returns EARSHOT_ESPEAK_OK, or
/// EARSHOT_ISOLATION_FAILED when it could not be forked.
int32_t earshot_espeak_start_worker(int32_t slot, const char *voice);

/// 1 when `earshot_espeak_synthesize_in_worker` can go ahead for `slot` and `voice` without
/// `earshot_espeak_start_worker` (the worker runs, as far as this process knows), else 0. Any thread may
/// call this for the slot it holds; it only looks at the slot.
int32_t earshot_espeak_has_worker(int32_t slot, const char *voice);

/// Like `earshot_espeak_synthesize`, but from a clean state: the worker of `slot` for `voice` sets
/// `parameters` and synthesizes from the state it had right after selecting its voice, so no phrase's
/// audio depends on what was synthesized before. Any thread may call this, one at a time per slot; it makes
/// no espeak-ng call in this process, only socket I/O.
/// With `streaming`, chunks reach `sink` on the calling thread as the worker produces them (the first at once),
/// and a sink asking to stop stops the worker's phrase at once. Without it, the worker sends the phrase in as
/// few chunks as fit in its messages (a phrase of up to about 2 s is one chunk), so the caller wakes once per
/// phrase; the samples and events are the same, and a sink asking to stop only stops what it is handed.
/// Without `streaming`, the calling thread and the worker are held to one processor of the thread's set until the
/// call returns, when the thread gets its set back: neither wakes the other across processors. It is the one the
/// thread is on, unless another such call holds it (then a free one, or none), so calls in flight at the same time
/// run on different processors. A phrase still in flight after EARSHOT_HOLD_LIMIT_MS lets both go.
/// `*chunks_delivered` counts the chunks handed to `sink` over every attempt of one phrase (start at 0):
/// a retry skips that many, which is exact because a phrase's chunks are the same on every synthesis.
/// Returns the worker's espeak-ng status (EARSHOT_ESPEAK_VOICE_NOT_FOUND for an unknown voice; an empty
/// `text` with `frame_limit` 0 only checks the voice and parameters), or EARSHOT_ISOLATION_FAILED when
/// the worker is not running or died (it is then stopped: start it again and retry).
int32_t earshot_espeak_synthesize_in_worker(int32_t slot, const char *voice,
                                            const earshot_voice_parameters *parameters, const char *text,
                                            int64_t frame_limit, int32_t streaming, earshot_speech_sink sink,
                                            void *context, int32_t *stopped_early, int64_t *chunks_delivered);

/// During a call of `earshot_espeak_synthesize_in_worker` (from its sink), the process id of the worker the
/// calling thread waits for; 0 on a thread that is not in such a call. For tests of where workers run.
int32_t earshot_espeak_current_worker(void);

/// Writes the espeak-ng library's version (for example `1.51`) into `buffer` (always NUL-terminated).
void earshot_espeak_version(char *buffer, size_t length);

// MARK: - ALSA

/// An open ALSA PCM playback stream (S16_LE, mono, non-blocking).
typedef struct earshot_pcm earshot_pcm;

/// Installs an ALSA library error handler that keeps the last message instead of printing it.
void earshot_alsa_silence_errors(void);

/// Copies ALSA's last library error message (may be empty) into `buffer`, NUL-terminated.
void earshot_alsa_last_error(char *buffer, size_t length);

/// The text of an ALSA (negative errno) error code, from snd_strerror.
const char *earshot_alsa_strerror(int32_t code);

/// Opens `name` for non-blocking playback of S16_LE mono at `rate`, asking for the given period and
/// buffer in frames; the start threshold is one period. On success stores the handle and the values
/// ALSA granted and returns 0. On failure returns a negative error code and stores in
/// `*failed_operation` a static string naming the ALSA call that failed.
int32_t earshot_pcm_open(earshot_pcm **pcm, const char *name, uint32_t rate, uint64_t period_frames,
                         uint64_t buffer_frames, uint32_t *granted_rate, uint64_t *granted_period,
                         uint64_t *granted_buffer, const char **failed_operation);

/// Closes the stream and frees the handle.
void earshot_pcm_close(earshot_pcm *pcm);

/// snd_pcm_writei: frames written, or a negative error code (-EAGAIN when the buffer is full,
/// -EPIPE after an underrun).
int64_t earshot_pcm_writei(earshot_pcm *pcm, const int16_t *frames, uint64_t count);

/// snd_pcm_recover, silently.
int32_t earshot_pcm_recover(earshot_pcm *pcm, int32_t error);

/// snd_pcm_delay: frames written but not yet played.
int32_t earshot_pcm_delay(earshot_pcm *pcm, int64_t *frames);

/// snd_pcm_avail_update: frames that can be written now, or a negative error code.
int64_t earshot_pcm_avail(earshot_pcm *pcm);

/// snd_pcm_drop: stop at once, discarding pending frames.
int32_t earshot_pcm_drop(earshot_pcm *pcm);

/// snd_pcm_prepare: ready the stream for writing again.
int32_t earshot_pcm_prepare(earshot_pcm *pcm);

/// snd_pcm_drain: play pending frames and stop (blocks; the shim switches to blocking mode around it).
int32_t earshot_pcm_drain(earshot_pcm *pcm);

/// The state of the stream (snd_pcm_state value).
int32_t earshot_pcm_state(earshot_pcm *pcm);

/// snd_pcm_poll_descriptors_count.
int32_t earshot_pcm_poll_descriptors_count(earshot_pcm *pcm);

/// snd_pcm_poll_descriptors into an array of `struct pollfd` given as raw memory of `capacity` entries.
int32_t earshot_pcm_poll_descriptors(earshot_pcm *pcm, void *pollfds, int32_t capacity);

/// Waits up to `timeout_ms` (-1 forever) for the stream to accept frames or for `wake_fd` (ignored
/// when negative) to become readable. Returns a bit set: 1 = PCM writable, 2 = woken; 0 on timeout;
/// a negative error code on failure.
int32_t earshot_pcm_wait(earshot_pcm *pcm, int32_t wake_fd, int32_t timeout_ms);

// MARK: - eventfd (waking a thread that waits in earshot_pcm_wait)

/// Creates a non-blocking eventfd; returns the descriptor or a negative errno.
int32_t earshot_eventfd_create(void);

/// Makes the eventfd readable.
void earshot_eventfd_signal(int32_t fd);

/// Resets the eventfd to not readable.
void earshot_eventfd_drain(int32_t fd);

/// Closes a descriptor.
void earshot_fd_close(int32_t fd);

#ifdef __cplusplus
}
#endif

#endif
