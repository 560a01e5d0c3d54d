import Foundation
import Testing

@testable import EarshotAudio

@Suite("WAV reader")
struct WAVFileTests {
    static let hint = "convert to 16-bit PCM WAV (e.g. sox in.wav -b 16 out.wav)"

    @Test func unknownChunksAreSkippedAndOddChunksArePadded() throws {
        let bytes = WAVBytes.riff(
            WAVBytes.chunk("LIST", Array("INFOabc".utf8)),  // odd length: one pad byte follows
            WAVBytes.fmt(rate: 8_000),
            WAVBytes.chunk("fact", WAVBytes.le32(3)),
            WAVBytes.chunk("data", WAVBytes.le16(1) + WAVBytes.le16(-2 & 0xFFFF) + WAVBytes.le16(300)))
        let file = try WAVFile.parse(bytes, path: "chunks.wav")
        #expect(file == WAVFile(samples: [1, -2, 300], sampleRate: 8_000, channels: 1))
    }

    @Test func stereoIsDownMixedToMonoByAveraging() throws {
        let frames = [(1000, 3000), (-4000, 0), (32767, 32767)]
        let data = frames.flatMap { WAVBytes.le16($0.0 & 0xFFFF) + WAVBytes.le16($0.1 & 0xFFFF) }
        let bytes = WAVBytes.riff(WAVBytes.fmt(channels: 2, rate: 44_100), WAVBytes.chunk("data", data))
        let file = try WAVFile.parse(bytes, path: "stereo.wav")
        #expect(file.samples == [2000, -2000, 32767])
        #expect(file.channels == 2)
        #expect(file.sampleRate == 44_100)
    }

    @Test(arguments: [
        (WAVBytes.fmt(bits: 8), "x.wav: 8-bit PCM is not supported; \(hint)"),
        (WAVBytes.fmt(bits: 24), "x.wav: 24-bit PCM is not supported; \(hint)"),
        (WAVBytes.fmt(bits: 32), "x.wav: 32-bit PCM is not supported; \(hint)"),
        (WAVBytes.fmt(tag: 3, bits: 32), "x.wav: 32-bit floating-point audio is not supported; \(hint)"),
        (WAVBytes.fmt(tag: 7, bits: 8), "x.wav: compressed audio (µ-law format 0x7) is not supported; \(hint)"),
        (WAVBytes.fmt(tag: 0x55, bits: 0), "x.wav: compressed audio (MP3 format 0x55) is not supported; \(hint)"),
        (
            WAVBytes.fmt(channels: 6),
            "x.wav: 6 channels are not supported; convert to mono (e.g. sox in.wav -c 1 out.wav)"
        ),
    ])
    func unsupportedFormatsAreRefusedWithAConversionHint(fmt: [UInt8], message: String) throws {
        let bytes = WAVBytes.riff(fmt, WAVBytes.chunk("data", [0, 0, 0, 0, 0, 0]))
        let error = #expect(throws: AudioFileError.self) { try WAVFile.parse(bytes, path: "x.wav") }
        #expect(error?.description == message)
        #expect(error?.operation == .format)
    }

    @Test func soxs24BitOutputIsRefusedByName() throws {
        let sox = "/usr/bin/sox"
        try #require(FileManager.default.isExecutableFile(atPath: sox), "sox is installed")
        let folder = try ScratchFolder()
        defer { folder.remove() }
        let path = folder.file("deep.wav")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: sox)
        process.arguments = ["-n", "-r", "22050", "-b", "24", path, "synth", "0.1", "sine", "440"]
        try process.run()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0)
        let error = #expect(throws: AudioFileError.self) { try WAVFile.read(path: path) }
        #expect(error?.description == "\(path): 24-bit PCM is not supported; \(Self.hint)")
    }

    @Test(arguments: [
        (Array("OggS not a wave file".utf8), "x.wav: not a WAV file (no RIFF/WAVE header); \(hint)"),
        ([UInt8](), "x.wav: not a WAV file (no RIFF/WAVE header); \(hint)"),
        (WAVBytes.riff(WAVBytes.fmt()), "x.wav: truncated: no data chunk"),
        (WAVBytes.riff(), "x.wav: truncated: no fmt chunk"),
        (
            WAVBytes.riff(WAVBytes.fmt(), Array("data".utf8) + WAVBytes.le32(100) + [1, 2, 3, 4]),
            "x.wav: truncated: the data chunk declares 100 bytes but only 4 are present"
        ),
        (
            WAVBytes.riff(WAVBytes.fmt(), Array("data".utf8) + WAVBytes.le32(3) + [1, 2, 3, 0]),
            "x.wav: truncated: the data chunk ends in the middle of a frame"
        ),
        (
            WAVBytes.riff(WAVBytes.chunk("data", [0, 0]), WAVBytes.fmt()),
            "x.wav: malformed: the data chunk comes before the fmt chunk"
        ),
    ])
    func damagedFilesAreRefusedSayingWhatIsWrong(bytes: [UInt8], message: String) throws {
        let error = #expect(throws: AudioFileError.self) { try WAVFile.parse(bytes, path: "x.wav") }
        #expect(error?.description == message)
    }

    @Test func aMissingFileNamesThePathAndTheOSReason() throws {
        let error = #expect(throws: AudioFileError.self) { try WAVFile.read(path: "/nonexistent/earshot.wav") }
        #expect(error?.description == "cannot read /nonexistent/earshot.wav: No such file or directory")
    }
}
