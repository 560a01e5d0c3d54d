import Testing

@testable import EarshotAudio

@Suite("Audio fingerprint")
struct AudioFingerprintTests {
    @Test func theTextFormRoundTripsAndNamesTheFrameCount() throws {
        let fingerprint = AudioFingerprint(samples: [1, -2, 300, Int16.min, Int16.max])
        #expect(fingerprint.description.hasPrefix("fnv1a64:"))
        #expect(fingerprint.description.hasSuffix(":5"))
        #expect(AudioFingerprint(fingerprint.description) == fingerprint)
    }

    @Test func theEmptyFingerprintIsFNVsOffsetBasis() {
        #expect(AudioFingerprint().description == "fnv1a64:cbf29ce484222325:0")
    }

    @Test func streamingInPiecesEqualsTheWhole() {
        var pieces = AudioFingerprint()
        pieces.update([1, 2, 3])
        pieces.update([4, 5])
        #expect(pieces == AudioFingerprint(samples: [1, 2, 3, 4, 5]))
    }

    @Test func anyChangedSampleOrLengthChangesIt() {
        let base = AudioFingerprint(samples: [1, 2, 3])
        #expect(AudioFingerprint(samples: [1, 2, 4]) != base)
        #expect(AudioFingerprint(samples: [1, 2, 3, 0]) != base)
        #expect(AudioFingerprint(samples: [2, 1, 3]) != base)
    }

    @Test(arguments: [
        "", "fnv1a64", "fnv1a64:cbf29ce484222325", "md5:cbf29ce484222325:0", "fnv1a64:cbf29ce48422232:0",
        "fnv1a64:cbf29ce484222325:-1", "fnv1a64:zzf29ce484222325:0", "fnv1a64:cbf29ce484222325:0:1",
    ])
    func malformedTextIsNotAFingerprint(text: String) {
        #expect(AudioFingerprint(text) == nil)
    }

    @Test func theWriterFingerprintsWhatItAppends() throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        let writer = try WAVWriter(path: folder.file("a.wav"), sampleRate: 22_050)
        let samples: [Int16] = (0..<5000).map { Int16(truncatingIfNeeded: $0 * 37) }
        try writer.append(samples[..<1234])
        try writer.append(samples[1234...])
        try writer.finish()
        #expect(writer.fingerprint == AudioFingerprint(samples: samples))
        #expect(AudioFingerprint(samples: try WAVFile.read(path: folder.file("a.wav")).samples) == writer.fingerprint)
    }
}
