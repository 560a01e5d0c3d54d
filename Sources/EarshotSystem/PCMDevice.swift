import CEarshot
import Foundation

/// An ALSA playback stream: 16-bit mono PCM, non-blocking, with a wake-up for the thread that waits.
///
/// Use it from one audio thread: write until ``write(_:)`` returns 0, then ``wait(timeoutMilliseconds:)``
/// for room; another thread may call ``wake()`` (and only that) to end the wait early, which is how
/// barge-in reaches the audio thread without racing it (the barge-in that measured exact on this ALSA path).
/// Underruns are recovered automatically and counted.
public final class PCMDevice: @unchecked Sendable {
    /// The outcome of waiting.
    public enum WaitOutcome: Hashable, Sendable {
        /// The stream has room for at least a period.
        case writable
        /// Another thread called ``PCMDevice/wake()``.
        case woken
        /// The timeout passed first.
        case timedOut
    }

    /// The ALSA device name.
    public let device: String
    /// Frames per second ALSA granted (resampling if the device needs it).
    public let sampleRate: Int
    /// Frames per period ALSA granted.
    public let periodFrames: Int
    /// Frames in the ring buffer ALSA granted: the most that can be written ahead of playback.
    public let bufferFrames: Int
    /// How many underruns were recovered since opening.
    public private(set) var underrunCount = 0

    private var handle: OpaquePointer?
    private let wakeDescriptor: Int32
    /// Guards the wake-up descriptor against `wake()` from another thread racing `close()`: after close its
    /// number may already belong to another file.
    private let wakeLock = NSLock()
    private var wakeOpen = true

    /// Opens `device` for playback at `sampleRate`, asking for the given period and buffer (latency).
    ///
    /// Playback starts once about one period has been written. Throws with ALSA's message when the
    /// device does not exist or refuses the format.
    public init(
        device: String = "default", sampleRate: Int, periodFrames: Int = 1024, bufferFrames: Int = 4096
    ) throws(ALSAError) {
        earshot_alsa_silence_errors()
        self.device = device
        var pcm: OpaquePointer?
        var rate: UInt32 = 0
        var period: UInt64 = 0
        var buffer: UInt64 = 0
        var failed: UnsafePointer<CChar>?
        let status = earshot_pcm_open(
            &pcm, device, UInt32(sampleRate), UInt64(periodFrames), UInt64(bufferFrames), &rate, &period, &buffer,
            &failed)
        guard status >= 0, let pcm else {
            throw Self.error(device, failed.map { String(cString: $0) } ?? "snd_pcm_open", status)
        }
        let descriptor = earshot_eventfd_create()
        guard descriptor >= 0 else {
            earshot_pcm_close(pcm)
            throw ALSAError(
                device: device, operation: "eventfd", code: Int(descriptor),
                message: String(cString: strerror(-descriptor)))
        }
        handle = pcm
        wakeDescriptor = descriptor
        self.sampleRate = Int(rate)
        self.periodFrames = Int(period)
        self.bufferFrames = Int(buffer)
    }

    deinit { close() }

    /// Writes as many of `frames` as fit now without blocking; returns how many were accepted (0 when
    /// the buffer is full). Recovers from an underrun and re-prepares a stream stopped by ``drop()``.
    public func write(_ frames: ArraySlice<Int16>) throws(ALSAError) -> Int {
        let pcm = try open("snd_pcm_writei")
        if frames.isEmpty { return 0 }
        if earshot_pcm_state(pcm) == 1 { try prepare() }  // SND_PCM_STATE_SETUP: after a drop
        for _ in 0..<2 {
            let written = frames.withUnsafeBufferPointer { buffer in
                earshot_pcm_writei(pcm, buffer.baseAddress, UInt64(buffer.count))
            }
            if written >= 0 { return Int(written) }
            if written == -Int64(EAGAIN) { return 0 }
            try recover(pcm, Int32(written), "snd_pcm_writei")
        }
        return 0
    }

    /// Waits up to `timeoutMilliseconds` (negative: forever) until the stream can take more frames or
    /// ``wake()`` is called. A wake-up is consumed by the wait that reports it.
    @discardableResult
    public func wait(timeoutMilliseconds: Int) throws(ALSAError) -> WaitOutcome {
        let pcm = try open("poll")
        let result = earshot_pcm_wait(pcm, wakeDescriptor, Int32(clamping: timeoutMilliseconds))
        if result < 0 {
            try recover(pcm, result, "poll")
            return .writable
        }
        if result & 2 != 0 {
            earshot_eventfd_drain(wakeDescriptor)
            return .woken
        }
        return result & 1 != 0 ? .writable : .timedOut
    }

    /// Ends a ``wait(timeoutMilliseconds:)`` in progress (or the next one) at once. Safe from any thread.
    public func wake() {
        wakeLock.withLock {
            if wakeOpen { earshot_eventfd_signal(wakeDescriptor) }
        }
    }

    /// Frames written but not yet heard (`snd_pcm_delay`); 0 after an underrun or when stopped.
    public func delay() throws(ALSAError) -> Int {
        let pcm = try open("snd_pcm_delay")
        var frames: Int64 = 0
        let status = earshot_pcm_delay(pcm, &frames)
        if status == -EPIPE || status == -EBADFD || status == -ESTRPIPE { return 0 }
        try check(status, "snd_pcm_delay")
        return Int(max(0, frames))
    }

    /// Stops playback at once, discarding every pending frame. ``write(_:)`` prepares again by itself.
    public func drop() throws(ALSAError) {
        try check(earshot_pcm_drop(try open("snd_pcm_drop")), "snd_pcm_drop")
    }

    /// Makes a stopped stream ready for writing.
    public func prepare() throws(ALSAError) {
        try check(earshot_pcm_prepare(try open("snd_pcm_prepare")), "snd_pcm_prepare")
    }

    /// Plays everything written, then stops (blocks until done).
    public func drain() throws(ALSAError) {
        let pcm = try open("snd_pcm_drain")
        let status = earshot_pcm_drain(pcm)
        if status == -EPIPE || status == -EBADFD { return }
        try check(status, "snd_pcm_drain")
    }

    /// Writes all of `samples`, waiting for room as needed, then drains: plain blocking playback.
    public func play(_ samples: [Int16]) throws(ALSAError) {
        var offset = 0
        while offset < samples.count {
            let written = try write(samples[offset...])
            offset += written
            if written == 0 { try wait(timeoutMilliseconds: 1000) }
        }
        try drain()
    }

    /// Closes the stream; every later call throws. Called by `deinit`.
    public func close() {
        if let handle {
            earshot_pcm_close(handle)
            wakeLock.withLock {
                wakeOpen = false
                earshot_fd_close(wakeDescriptor)
            }
        }
        handle = nil
    }

    private func open(_ operation: String) throws(ALSAError) -> OpaquePointer {
        guard let handle else {
            throw ALSAError(device: device, operation: operation, code: -Int(EBADF), message: "the device is closed")
        }
        return handle
    }

    private func recover(_ pcm: OpaquePointer, _ code: Int32, _ operation: String) throws(ALSAError) {
        guard code == -EPIPE || code == -ESTRPIPE || code == -EINTR else { throw Self.error(device, operation, code) }
        if code == -EPIPE { underrunCount += 1 }
        try check(earshot_pcm_recover(pcm, code), "snd_pcm_recover")
    }

    private func check(_ status: Int32, _ operation: String) throws(ALSAError) {
        if status < 0 { throw Self.error(device, operation, status) }
    }

    private static func error(_ device: String, _ operation: String, _ code: Int32) -> ALSAError {
        var buffer = [CChar](repeating: 0, count: 512)
        earshot_alsa_last_error(&buffer, buffer.count)
        let detail = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return ALSAError(
            device: device, operation: operation, code: Int(code),
            message: String(cString: earshot_alsa_strerror(code)), detail: detail)
    }
}
