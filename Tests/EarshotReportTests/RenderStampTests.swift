import EarshotAudio
import Foundation
import Testing

@testable import EarshotReport

/// `verify` checks each companion file by the fingerprint method it names, so renders made before `fnv1a64x4`
/// still verify, and a file from other audio is found whichever method it uses.
@Suite struct RenderStampTests {
    /// A WAV of `samples` with a transcript and timeline naming `transcript` and `timeline`; returns the WAV.
    private func set(
        in folder: String, samples: [Int16], transcript: AudioFingerprint, timeline: AudioFingerprint
    ) throws -> String {
        let wav = folder + "/out.wav"
        let writer = try WAVWriter(path: wav, sampleRate: 22_050)
        try writer.append(samples)
        try writer.finish()
        try RenderStamp.stamp(transcript: "WEBVTT\n", with: transcript)
            .write(toFile: folder + "/out.vtt", atomically: true, encoding: .utf8)
        try RenderStamp.timelineLine(for: timeline, sampleRate: 22_050)
            .write(toFile: folder + "/out.jsonl", atomically: true, encoding: .utf8)
        return wav
    }

    private func scratch() throws -> String {
        let folder = NSTemporaryDirectory() + "earshot-stamp-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }

    @Test func filesNamingEitherMethodForTheSameAudioAreWhole() throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let samples: [Int16] = (0..<3001).map { Int16(truncatingIfNeeded: $0 &* 7919) }
        let wav = try set(
            in: folder, samples: samples, transcript: AudioFingerprint(samples: samples, method: .fnv1a64),
            timeline: AudioFingerprint(samples: samples, method: .fnv1a64x4))
        #expect(try RenderStamp.check(wav: wav).isEmpty)
    }

    @Test(arguments: AudioFingerprint.Method.allCases)
    func aFileNamingOtherAudioIsFoundWhicheverMethodItUses(method: AudioFingerprint.Method) throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let samples: [Int16] = (0..<3001).map { Int16(truncatingIfNeeded: $0 &* 7919) }
        var other = samples
        other[1500] &+= 1
        let wav = try set(
            in: folder, samples: samples, transcript: AudioFingerprint(samples: other, method: method),
            timeline: AudioFingerprint(samples: samples))
        let mismatches = try RenderStamp.check(wav: wav)
        #expect(mismatches.map(\.path) == [folder + "/out.vtt"])
        #expect(mismatches.first?.problem.contains("was written for other audio (\(method.rawValue):") == true)
    }
}
