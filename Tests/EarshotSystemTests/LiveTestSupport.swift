import EarshotTestSupport
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A private PulseAudio daemon with a real-time paced null sink (`tools/paced-audio.sh`), reached through
/// ALSA's `pulse` PCM. Each test starts its own and stops it by PID.
final class PacedSink: @unchecked Sendable {
    static let script = PacedAudio.script

    /// The ALSA device that plays on it.
    let device = "pulse"
    let directory: String
    let pid: Int32
    let server: String
    private let daemon: PacedAudio
    private var recorder: Process?

    /// Starts a daemon and points this process's PulseAudio clients (the ALSA plugin) at it.
    init() throws {
        directory = NSTemporaryDirectory() + "earshot-paced-" + UUID().uuidString.prefix(8)
        daemon = try PacedAudio(directory: directory)
        pid = daemon.pid
        server = daemon.server
        setenv("PULSE_SERVER", server, 1)
    }

    /// Records the sink's monitor (what was actually played) into `path` until ``stopRecording()``.
    func startRecording(to path: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.script)
        process.arguments = ["record", directory, path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        recorder = process
        usleep(300_000)  // parec connects and starts recording
    }

    /// Stops the recorder and reads what it recorded (raw 16-bit mono: complete whichever signal ends parec; a
    /// child of the test runner may inherit blocked SIGINT/SIGTERM, so a WAV header might never be finished).
    func stopRecording() throws -> [Int16] {
        guard let recorder else { return [] }
        usleep(200_000)
        Self.terminate(recorder)
        self.recorder = nil
        let path = recorder.arguments?.last ?? ""
        defer { try? FileManager.default.removeItem(atPath: path) }
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        return stride(from: 0, to: bytes.count - 1, by: 2).map {
            Int16(bitPattern: UInt16(bytes[$0]) | UInt16(bytes[$0 + 1]) << 8)
        }
    }

    /// Ends a child: SIGTERM, then SIGKILL if it is still there after 2 s.
    static func terminate(_ process: Process) {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGTERM)
        for _ in 0..<50 where process.isRunning { usleep(10_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    /// Kills the daemon by its PID now (the "device disappears" case), without cleaning up.
    func killDaemon() { kill(pid, SIGKILL) }

    /// Stops the daemon by its PID and removes its folder.
    func stop() {
        if let recorder { Self.terminate(recorder) }
        daemon.stop()
    }
}

/// Where one clip sits in a recording: found by normalized cross-correlation.
enum AudioMatch {
    /// Root mean square of `samples[range]`.
    static func rms(_ samples: [Int16], _ range: Range<Int>) -> Double {
        let clamped = range.clamped(to: 0..<samples.count)
        guard !clamped.isEmpty else { return 0 }
        var sum = 0.0
        for index in clamped { sum += Double(samples[index]) * Double(samples[index]) }
        return (sum / Double(clamped.count)).squareRoot()
    }

    /// The first frame where 5 ms windows get louder than `threshold` RMS.
    static func onset(_ samples: [Int16], from start: Int = 0, threshold: Double = 300) -> Int? {
        var frame = max(0, start)
        while frame + 110 <= samples.count {
            if rms(samples, frame..<(frame + 110)) > threshold { return frame }
            frame += 110
        }
        return nil
    }

    /// The lag in `searchRange` at which `clip` best matches `recording` (frame of clip[0]), with the
    /// normalized correlation there (1 = identical shape).
    static func bestMatch(
        of clip: ArraySlice<Int16>, in recording: [Int16], lags searchRange: Range<Int>, step: Int = 1
    )
        -> (lag: Int, score: Double)
    {
        let clip = Array(clip)
        let clipEnergy = clip.reduce(0.0) { $0 + Double($1) * Double($1) }
        var best = (lag: searchRange.lowerBound, score: -1.0)
        var lag = max(0, searchRange.lowerBound)
        while lag < searchRange.upperBound, lag + clip.count <= recording.count {
            var dot = 0.0
            var energy = 0.0
            for index in 0..<clip.count {
                let value = Double(recording[lag + index])
                dot += value * Double(clip[index])
                energy += value * value
            }
            let score = energy > 0 && clipEnergy > 0 ? dot / (energy * clipEnergy).squareRoot() : 0
            if score > best.score { best = (lag, score) }
            lag += step
        }
        return best
    }

    /// A coarse-then-fine search: every 4th lag, then every lag around the best few coarse peaks. Speech's
    /// correlation peak is only a few samples wide, so one coarse best can be a side lobe of the true one.
    static func locate(_ clip: ArraySlice<Int16>, in recording: [Int16], lags: Range<Int>) -> (lag: Int, score: Double)
    {
        var coarse: [(lag: Int, score: Double)] = []
        var lag = max(0, lags.lowerBound)
        while lag < lags.upperBound {
            coarse.append(bestMatch(of: clip, in: recording, lags: lag..<(lag + 1)))
            lag += 4
        }
        let candidates = coarse.sorted { $0.score > $1.score }.prefix(5)
        var best = (lag: lags.lowerBound, score: -1.0)
        for candidate in candidates {
            let fine = bestMatch(of: clip, in: recording, lags: (candidate.lag - 4)..<(candidate.lag + 5))
            if fine.score > best.score { best = fine }
        }
        return best
    }
}
