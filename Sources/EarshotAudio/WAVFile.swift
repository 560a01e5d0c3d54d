#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A WAV file read into memory as mono 16-bit samples.
///
/// Reads 16-bit PCM WAV (`WAVE_FORMAT_PCM`, or `WAVE_FORMAT_EXTENSIBLE` with a PCM subformat) with one
/// or two channels; stereo is down-mixed to mono by averaging the two channels. Unknown chunks
/// (`LIST`, `fact`, `cue `, …) are skipped. Anything else is refused with an `AudioFileError` whose
/// reason says what the file is and how to convert it, for example
/// `x.wav: 24-bit PCM is not supported; convert to 16-bit PCM WAV (e.g. sox in.wav -b 16 out.wav)`.
public struct WAVFile: Hashable, Sendable {
    /// Mono frames (down-mixed when the file is stereo).
    public var samples: [Int16]
    /// Frames per second.
    public var sampleRate: Int
    /// The channel count stored in the file (1 or 2); `samples` is always mono.
    public var channels: Int

    /// Creates a file's contents.
    public init(samples: [Int16], sampleRate: Int, channels: Int = 1) {
        self.samples = samples
        self.sampleRate = sampleRate
        self.channels = channels
    }

    /// How long the audio lasts, in seconds.
    public var durationSeconds: Double { sampleRate > 0 ? Double(samples.count) / Double(sampleRate) : 0 }

    /// The advice appended to every "not supported" message.
    static let conversionHint = "convert to 16-bit PCM WAV (e.g. sox in.wav -b 16 out.wav)"

    /// Reads the WAV file at `path`.
    ///
    /// - Throws: `AudioFileError` (`.read` with the OS reason, or `.format` with what is wrong).
    public static func read(path: String) throws -> WAVFile {
        try parse(readBytes(path: path), path: path)
    }

    /// Decodes WAV bytes; `path` only names the file in errors.
    public static func parse(_ bytes: [UInt8], path: String) throws -> WAVFile {
        func fail(_ reason: String) -> AudioFileError { .format(path, reason) }
        guard bytes.count >= 12, bytes.ascii(at: 0) == "RIFF", bytes.ascii(at: 8) == "WAVE" else {
            if bytes.count >= 4, bytes.ascii(at: 0) == "RF64" {
                throw fail("RF64 (64-bit WAV) is not supported; \(conversionHint)")
            }
            throw fail("not a WAV file (no RIFF/WAVE header); \(conversionHint)")
        }
        var format: (channels: Int, rate: Int)?
        var offset = 12
        while offset + 8 <= bytes.count {
            let id = bytes.ascii(at: offset)
            let size = Int(bytes.le32(at: offset + 4))
            let body = offset + 8
            switch id {
            case "fmt ":
                guard size >= 16, body + size <= bytes.count else {
                    throw fail("truncated: the fmt chunk is cut short")
                }
                format = try checkFormat(bytes, at: body, size: size, fail: fail)
            case "data":
                guard let format else { throw fail("malformed: the data chunk comes before the fmt chunk") }
                let available = bytes.count - body
                guard size <= available else {
                    throw fail("truncated: the data chunk declares \(size) bytes but only \(available) are present")
                }
                let frameBytes = 2 * format.channels
                guard size % frameBytes == 0 else {
                    throw fail("truncated: the data chunk ends in the middle of a frame")
                }
                let samples = decode(bytes, from: body, frames: size / frameBytes, channels: format.channels)
                return WAVFile(samples: samples, sampleRate: format.rate, channels: format.channels)
            default:
                break  // LIST, fact, cue, bext, …: not needed
            }
            offset = body + size + (size & 1)  // chunks are padded to an even length
        }
        throw fail(format == nil ? "truncated: no fmt chunk" : "truncated: no data chunk")
    }

    private static func checkFormat(
        _ bytes: [UInt8], at body: Int, size: Int, fail: (String) -> AudioFileError
    ) throws -> (channels: Int, rate: Int) {
        var tag = Int(bytes.le16(at: body))
        let channels = Int(bytes.le16(at: body + 2))
        let rate = Int(bytes.le32(at: body + 4))
        let bits = Int(bytes.le16(at: body + 14))
        if tag == 0xFFFE, size >= 40 {
            tag = Int(bytes.le16(at: body + 24))  // the subformat GUID starts with the format tag
        }
        switch tag {
        case 1:
            guard bits == 16 else { throw fail("\(bits)-bit PCM is not supported; \(conversionHint)") }
        case 3:
            throw fail("\(bits)-bit floating-point audio is not supported; \(conversionHint)")
        default:
            let name = compressedNames[tag].map { "\($0) " } ?? ""
            throw fail(
                "compressed audio (\(name)format 0x\(String(tag, radix: 16))) is not supported; \(conversionHint)")
        }
        guard channels == 1 || channels == 2 else {
            throw fail("\(channels) channels are not supported; convert to mono (e.g. sox in.wav -c 1 out.wav)")
        }
        guard rate > 0 else { throw fail("malformed: the sample rate is 0") }
        return (channels, rate)
    }

    private static let compressedNames: [Int: String] = [
        2: "Microsoft ADPCM", 6: "A-law", 7: "µ-law", 0x11: "IMA ADPCM", 0x55: "MP3",
    ]

    private static func decode(_ bytes: [UInt8], from start: Int, frames: Int, channels: Int) -> [Int16] {
        var samples = [Int16]()
        samples.reserveCapacity(frames)
        var position = start
        for _ in 0..<frames {
            if channels == 1 {
                samples.append(Int16(bitPattern: bytes.le16(at: position)))
            } else {
                let left = Int(Int16(bitPattern: bytes.le16(at: position)))
                let right = Int(Int16(bitPattern: bytes.le16(at: position + 2)))
                samples.append(Int16((left + right) / 2))
            }
            position += 2 * channels
        }
        return samples
    }

    /// The whole file's bytes, with `strerror` text on failure.
    private static func readBytes(path: String) throws -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw AudioFileError.system(.read, path: path, code: errno) }
        defer { _ = close(descriptor) }
        var result: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { buffer in
                #if canImport(Glibc)
                    Glibc.read(descriptor, buffer.baseAddress, buffer.count)
                #else
                    Darwin.read(descriptor, buffer.baseAddress, buffer.count)
                #endif
            }
            if count == 0 { return result }
            if count < 0 {
                if errno == EINTR { continue }
                throw AudioFileError.system(.read, path: path, code: errno)
            }
            result.append(contentsOf: chunk[0..<count])
        }
    }
}

extension [UInt8] {
    /// Four bytes at `offset` as ASCII (empty when out of range).
    fileprivate func ascii(at offset: Int) -> String {
        guard offset >= 0, offset + 4 <= count else { return "" }
        return String(decoding: self[offset..<offset + 4], as: UTF8.self)
    }

    /// A little-endian `UInt16` at `offset` (0 when out of range).
    fileprivate func le16(at offset: Int) -> UInt16 {
        guard offset >= 0, offset + 2 <= count else { return 0 }
        return UInt16(self[offset]) | UInt16(self[offset + 1]) << 8
    }

    /// A little-endian `UInt32` at `offset` (0 when out of range).
    fileprivate func le32(at offset: Int) -> UInt32 {
        guard offset >= 0, offset + 4 <= count else { return 0 }
        return UInt32(le16(at: offset)) | UInt32(le16(at: offset + 2)) << 16
    }
}
