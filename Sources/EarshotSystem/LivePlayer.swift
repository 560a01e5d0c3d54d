import EarshotCore
import Foundation

/// Plays utterances on an ALSA device in real time and cuts them at once: the audio half of live mode.
///
/// One audio thread owns the ``PCMDevice``. Other threads send it commands, which wake it at once
/// (``PCMDevice/wake()`` plus a semaphore when it is idle):
///
/// 1. ``play(_:samples:requestedAt:)`` appends an utterance's samples to the stream. When the device has
///    played everything before, the stream is restarted (drop, prepare) so the new speech starts at once;
///    otherwise it follows what is still sounding, as the engine's timeline says it does.
/// 2. The thread writes without blocking and waits in `poll()` on the PCM's descriptors and the wake-up
///    eventfd. After the write that carries an utterance's first frame, `snd_pcm_delay` tells when that
///    frame reaches the device: the start latency.
/// 3. ``cut(_:engineHeardFrames:requestedAt:)``: the audio thread itself reads `snd_pcm_delay`, computes
///    heard = frames written − delay, calls `snd_pcm_drop` and `snd_pcm_prepare` (the barge-in that
///    measured exact on this ALSA path), and records the measured position against the engine's.
/// 4. An ALSA failure (the device went away) stops the thread's writing and is kept in ``failure``.
///
/// Call ``close()`` when done: it stops the thread and closes the device.
public final class LivePlayer: @unchecked Sendable {
    private enum Command {
        case play(UtteranceID, [Int16], requestedAt: Instant)
        case cut(UtteranceID, engineHeardFrames: Int, requestedAt: Instant)
        case silence
        case shutdown
    }

    private struct Segment {
        var id: UtteranceID
        var samples: [Int16]
        var requestedAt: Instant
        var written = 0
        /// The stream frame of its first sample, known once its first frames are written.
        var streamStart: Int?
        var isWritten: Bool { written >= samples.count }
    }

    /// The device played on.
    public let device: PCMDevice
    /// The clock that engine instants are read on.
    public let clock: RealTimeClock

    private let lock = NSLock()
    private var commands: [Command] = []
    private var failed: ALSAError?
    private var measured = LiveMeasurements()
    private var idle = true
    private var thread: Thread?
    /// Set once by the first `close()`: later commands and closes do nothing.
    private var closing = false
    private let commandSignal = DispatchSemaphore(value: 0)
    private let stopped = DispatchSemaphore(value: 0)

    // Audio thread only.
    private var segments: [Segment] = []
    private var streamWritten = 0
    private var underrunsSeen = 0
    /// When the last frame written will have played, from `snd_pcm_delay` after the last write.
    private var drainsAt = Instant.zero

    /// Opens `device` and starts the audio thread.
    ///
    /// A small period and buffer keep the start latency low (256 and 1024 frames: 12 ms and 46 ms at 22050 Hz).
    /// - Throws: `ALSAError` with ALSA's reason when the device cannot be opened.
    public init(
        device name: String, sampleRate: Int, clock: RealTimeClock, periodFrames: Int = 256, bufferFrames: Int = 1024
    ) throws(ALSAError) {
        device = try PCMDevice(
            device: name, sampleRate: sampleRate, periodFrames: periodFrames, bufferFrames: bufferFrames)
        self.clock = clock
        let thread = Thread { [self] in run() }
        thread.name = "earshot.audio"
        thread.qualityOfService = .userInteractive
        self.thread = thread
        thread.start()
    }

    /// Frames per second the device plays.
    public var sampleRate: Int { device.sampleRate }

    /// The ALSA error that stopped playback, if one did.
    public var failure: ALSAError? { lock.withLock { failed } }

    /// True when nothing is waiting to be written or sounding.
    public var isIdle: Bool { lock.withLock { idle && commands.isEmpty } }

    /// Everything measured so far.
    public var measurements: LiveMeasurements { lock.withLock { measured } }

    /// Returns what was measured since the last call and starts afresh.
    public func takeMeasurements() -> LiveMeasurements {
        lock.withLock {
            defer { measured = LiveMeasurements() }
            return measured
        }
    }

    /// Starts playing an utterance the engine started at `requestedAt`.
    public func play(_ id: UtteranceID, samples: [Int16], requestedAt: Instant) {
        send(.play(id, samples, requestedAt: requestedAt))
    }

    /// Cuts an utterance now; `engineHeardFrames` is the engine's position, recorded next to the device's.
    public func cut(_ id: UtteranceID, engineHeardFrames: Int, requestedAt: Instant) {
        send(.cut(id, engineHeardFrames: engineHeardFrames, requestedAt: requestedAt))
    }

    /// Stops all sound at once (Ctrl-C, the end of a session). Safe from any thread.
    public func silence() { send(.silence) }

    /// Waits until everything sent has played, or `timeout` passed; true when it played.
    @discardableResult
    public func waitUntilPlayed(timeout: TimeSpan) -> Bool {
        let deadline = clock.now + timeout
        while clock.now < deadline {
            if isIdle || failure != nil { return failure == nil }
            usleep(2000)
        }
        return false
    }

    /// Stops the audio thread (silencing the device) and closes the device. Later commands do nothing.
    public func close() {
        // Only the first caller shuts down; commands sent after that are ignored.
        let first = lock.withLock { () -> Bool in
            guard thread != nil, !closing else { return false }
            closing = true
            commands.append(.shutdown)
            idle = false
            return true
        }
        guard first else { return }
        device.wake()
        commandSignal.signal()
        stopped.wait()
        lock.withLock { thread = nil }
        device.close()
    }

    private func send(_ command: Command) {
        let accepted = lock.withLock { () -> Bool in
            guard !closing else { return false }
            commands.append(command)
            idle = false
            return true
        }
        guard accepted else { return }
        device.wake()
        commandSignal.signal()
    }

    // MARK: Audio thread

    private func run() {
        while true {
            let pending = lock.withLock { () -> [Command] in
                defer { commands.removeAll() }
                return commands
            }
            for command in pending {
                if case .shutdown = command {
                    try? device.drop()
                    stopped.signal()
                    return
                }
                guard failure == nil else { continue }
                do {
                    try perform(command)
                } catch {
                    fail(error)
                }
            }
            if failure != nil {
                commandSignal.wait()
                continue
            }
            do {
                try waitForWork()
            } catch {
                fail(error)
            }
        }
    }

    private func fail(_ error: ALSAError) {
        segments.removeAll()
        lock.withLock {
            failed = failed ?? error
            idle = true
        }
    }

    private func perform(_ command: Command) throws(ALSAError) {
        switch command {
        case .play(let id, let samples, let requestedAt):
            if segments.allSatisfy(\.isWritten), clock.now >= drainsAt {
                // Nothing is sounding: start the stream afresh so the new speech is not behind stale state.
                try restart()
            }
            segments.append(Segment(id: id, samples: samples, requestedAt: requestedAt))
        case .cut(let id, let engineHeardFrames, let requestedAt):
            guard let segment = segments.last(where: { $0.id == id }) else { return }
            let played = streamWritten - (try pendingFrames())
            let heard = segment.streamStart.map { min(max(played - $0, 0), segment.samples.count) } ?? 0
            try device.drop()
            let silentAt = clock.now
            try restart(dropFirst: false)
            let cut = LiveCut(
                utterance: id, requestedAt: requestedAt, silentAt: silentAt, engineHeardFrames: engineHeardFrames,
                measuredHeardFrames: heard, sampleRate: device.sampleRate)
            lock.withLock { measured.cuts.append(cut) }
        case .silence:
            try restart()
        case .shutdown:
            break
        }
    }

    private func restart(dropFirst: Bool = true) throws(ALSAError) {
        if dropFirst { try device.drop() }
        try device.prepare()
        segments.removeAll()
        streamWritten = 0
        underrunsSeen = device.underrunCount
        drainsAt = clock.now
    }

    /// Writes what fits, then sleeps until the device has room, a command arrives, or (idle) a command arrives.
    private func waitForWork() throws(ALSAError) {
        if try writeAvailable() {
            _ = try device.wait(timeoutMilliseconds: 100)
            return
        }
        let remaining = drainsAt - clock.now
        if remaining > .zero {
            // Everything is written and still sounding: wake when it has played, so `isIdle` turns true on time.
            _ = commandSignal.wait(timeout: .now() + .nanoseconds(Int(min(remaining, .milliseconds(50)).nanoseconds)))
            return
        }
        if !segments.isEmpty {
            // Played out. The device has run dry (ALSA's pulse plugin then sits in XRUN with a stale delay), so
            // the stream is reset now rather than when the next utterance is already waiting.
            try restart()
        }
        let quiet = lock.withLock { () -> Bool in
            if commands.isEmpty { idle = true }
            return idle
        }
        if quiet { _ = commandSignal.wait(timeout: .now() + .milliseconds(200)) }
    }

    /// Frames written but not yet heard (`snd_pcm_delay`).
    ///
    /// ALSA's pulse plugin answers EIO while its stream is prepared but not started, or has just started and
    /// has no timing yet; then nothing has played, so every frame written is still pending. With `settling`,
    /// the question is asked again for up to 5 ms first (the audio thread has just filled the buffer).
    private func pendingFrames(settling: Bool = false) throws(ALSAError) -> Int {
        for _ in 0..<(settling ? 10 : 1) {
            do {
                return try device.delay()
            } catch  where error.code == -Int(EIO) {
                if settling { usleep(500) }
            }
        }
        return streamWritten
    }

    /// Writes queued frames until the device is full; true when frames are still waiting.
    private func writeAvailable() throws(ALSAError) -> Bool {
        while let index = segments.firstIndex(where: { !$0.isWritten }) {
            let offset = segments[index].written
            let count = try device.write(segments[index].samples[offset...])
            if count == 0 { return true }
            if device.underrunCount != underrunsSeen {
                // The device ran dry and restarted its stream: frame numbers begin again with this write.
                underrunsSeen = device.underrunCount
                streamWritten = 0
                for other in segments.indices { segments[other].streamStart = nil }
            }
            let start = segments[index].streamStart ?? streamWritten - offset
            segments[index].streamStart = start
            segments[index].written += count
            streamWritten += count
            let pending = try pendingFrames(settling: offset == 0)
            drainsAt = clock.now + TimeSpan.frames(pending, rate: device.sampleRate)
            if offset == 0 {
                // The frames queued ahead of this utterance's first frame tell when it reaches the device.
                let ahead = max(0, pending - (streamWritten - start))
                let record = LiveStart(
                    utterance: segments[index].id, requestedAt: segments[index].requestedAt,
                    firstSampleAt: clock.now + TimeSpan.frames(ahead, rate: device.sampleRate))
                lock.withLock { measured.starts.append(record) }
            }
        }
        return false
    }
}
