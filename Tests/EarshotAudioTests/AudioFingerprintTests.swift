import Testing

@testable import EarshotAudio

@Suite("Audio fingerprint")
struct AudioFingerprintTests {
    /// The definitions written out plainly, one sample at a time, to hold the fast code to.
    enum Reference {
        static let basis: UInt64 = 0xcbf2_9ce4_8422_2325
        static let prime: UInt64 = 0x0000_0100_0000_01b3

        static func bytes(_ samples: [Int16]) -> UInt64 {
            var hash = basis
            for sample in samples {
                let bits = UInt16(bitPattern: sample)
                for byte in [bits & 0xFF, bits >> 8] { hash = (hash ^ UInt64(byte)) &* prime }
            }
            return hash
        }

        static func lanes(_ samples: [Int16]) -> UInt64 {
            var lanes = (0..<4).map { basis ^ UInt64($0) }
            for (index, sample) in samples.enumerated() {
                lanes[index % 4] = (lanes[index % 4] ^ UInt64(UInt16(bitPattern: sample))) &* prime
            }
            var hash = basis
            for lane in lanes {
                for shift in stride(from: 0, to: 64, by: 8) {
                    hash = (hash ^ ((lane >> UInt64(shift)) & 0xFF)) &* prime
                }
            }
            return hash
        }
    }

    static let samples: [Int16] = (0..<1037).map { Int16(truncatingIfNeeded: $0 &* 40_503 &+ 17) }

    @Test func rendersWriteTheFourLaneMethod() {
        #expect(AudioFingerprint().method == .fnv1a64x4)
        #expect(AudioFingerprint(samples: [1, 2]).description.hasPrefix("fnv1a64x4:"))
    }

    @Test(arguments: AudioFingerprint.Method.allCases)
    func theTextFormRoundTripsAndNamesTheFrameCount(method: AudioFingerprint.Method) throws {
        let fingerprint = AudioFingerprint(samples: [1, -2, 300, Int16.min, Int16.max], method: method)
        #expect(fingerprint.description.hasPrefix(method.rawValue + ":"))
        #expect(fingerprint.description.hasSuffix(":5"))
        #expect(AudioFingerprint(fingerprint.description) == fingerprint)
    }

    @Test func eachMethodComputesItsDefinition() {
        for count in [0, 1, 3, 4, 5, 8, 1037] {
            let samples = Array(Self.samples.prefix(count))
            #expect(AudioFingerprint(samples: samples, method: .fnv1a64).digest == Reference.bytes(samples))
            #expect(AudioFingerprint(samples: samples, method: .fnv1a64x4).digest == Reference.lanes(samples))
        }
        #expect(AudioFingerprint(method: .fnv1a64).description == "fnv1a64:cbf29ce484222325:0")
    }

    @Test(arguments: AudioFingerprint.Method.allCases)
    func streamingInPiecesEqualsTheWhole(method: AudioFingerprint.Method) {
        let samples = Array(Self.samples.prefix(23))
        let whole = AudioFingerprint(samples: samples, method: method)
        // Every way of cutting it in three, across the four hashes' boundaries.
        for first in 0...samples.count {
            for second in first...samples.count {
                var pieces = AudioFingerprint(method: method)
                pieces.update(samples[..<first])
                pieces.update(samples[first..<second])
                pieces.update(samples[second...])
                #expect(pieces == whole, "cut at \(first) and \(second)")
            }
        }
        // Samples without contiguous storage take the general path.
        #expect(AudioFingerprint(samples: samples.lazy.map { $0 }, method: method) == whole)
    }

    @Test(arguments: AudioFingerprint.Method.allCases)
    func anyChangedSampleOrLengthChangesIt(method: AudioFingerprint.Method) {
        let base = AudioFingerprint(samples: [1, 2, 3, 4, 5], method: method)
        #expect(AudioFingerprint(samples: [1, 2, 3, 4, 6], method: method) != base)
        #expect(AudioFingerprint(samples: [1, 2, 3, 4, 5, 0], method: method) != base)
        #expect(AudioFingerprint(samples: [2, 1, 3, 4, 5], method: method) != base)
        // Samples moved to another of the four hashes.
        #expect(AudioFingerprint(samples: [5, 1, 2, 3, 4], method: method) != base)
        #expect(AudioFingerprint(samples: [0, 0, 0, 0], method: method) != AudioFingerprint(method: method))
    }

    @Test func theSameDigestUnderAnotherMethodIsAnotherFingerprint() {
        #expect(AudioFingerprint("fnv1a64:cbf29ce484222325:0") != AudioFingerprint("fnv1a64x4:cbf29ce484222325:0"))
    }

    @Test(arguments: [
        "", "fnv1a64", "fnv1a64:cbf29ce484222325", "md5:cbf29ce484222325:0", "fnv1a64:cbf29ce48422232:0",
        "fnv1a64:cbf29ce484222325:-1", "fnv1a64:zzf29ce484222325:0", "fnv1a64:cbf29ce484222325:0:1",
        "fnv1a64x5:cbf29ce484222325:0", "fnv1a64x4:cbf29ce48422232:0", "FNV1A64X4:cbf29ce484222325:0",
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
