import EarshotCore
import Foundation

/// One cached phrase: what the synthesizer returned for a key, whole or stopped at a frame limit.
///
/// On disk (little-endian): the magic `EPHR`, the format version (UInt32), the canonical key's length
/// (UInt32) and UTF-8 bytes, the sample rate (UInt32), 1 when synthesis stopped early (UInt32), the frame
/// count (UInt64), the word count (UInt32), each word as (frame, lower, upper) Int64s, the samples (Int16),
/// and a checksum (UInt64, ``FNV1a/checksum(_:)``) of everything before it. Anything else (wrong magic, version or key,
/// a length that does not add up, a checksum that does not match) is not an entry.
struct PhraseEntry: Equatable {
    /// The canonical key it was stored under.
    var key: String
    /// What the synthesizer returned.
    var speech: SynthesizedSpeech

    static let magic: [UInt8] = Array("EPHR".utf8)

    /// The frames it covers: all of the phrase, or the first `frameCount` when synthesis stopped early.
    var isWhole: Bool { !speech.stoppedEarly }

    /// What synthesizing with `frameLimit` gives, when this entry holds it: a whole phrase answers any limit, a
    /// phrase stopped at N frames answers limits up to N. Words at or after the limit are dropped, as the
    /// synthesizer drops their events.
    func answer(frameLimit: Int?) -> SynthesizedSpeech? {
        let count = speech.frameCount
        guard let limit = frameLimit.map({ max(0, $0) }) else { return isWhole ? speech : nil }
        if isWhole, limit >= count { return speech }
        guard isWhole || limit <= count else { return nil }
        return SynthesizedSpeech(
            samples: Array(speech.samples.prefix(limit)), sampleRate: speech.sampleRate,
            words: speech.words.filter { $0.frame < limit }, stoppedEarly: true)
    }

    /// True when this entry answers every limit `other` answers (so `other` need not replace it).
    func covers(_ other: SynthesizedSpeech) -> Bool {
        isWhole || (other.stoppedEarly && other.frameCount <= speech.frameCount)
    }

    /// The entry's bytes.
    func encoded() -> Data {
        // Room for all of it at once: grown as it went, the audio already in it was copied again at each doubling.
        var data = Self.header(
            magic: Self.magic, key: key, sampleRate: speech.sampleRate, flag: speech.stoppedEarly,
            frameCount: speech.frameCount, followedBy: 4 + 24 * speech.words.count + 2 * speech.samples.count + 8)
        Self.append(speech.words, to: &data)
        #if _endian(little)
            speech.samples.withUnsafeBytes { data.append(contentsOf: $0) }
        #else
            for sample in speech.samples { Self.append(UInt16(bitPattern: sample), to: &data) }
        #endif
        let checksum = data.withUnsafeBytes { FNV1a.checksum($0) }
        Self.append(checksum, to: &data)
        return data
    }

    /// The entry in `data` when it is a whole, valid entry stored under `key`; nil otherwise.
    init?(decoding data: Data, key: String) {
        guard
            let decoded = data.withUnsafeBytes({ buffer -> PhraseEntry? in
                var reader = EntryReader(buffer: buffer)
                return reader.entry(key: key)
            })
        else { return nil }
        self = decoded
    }

    /// True when `data` is a whole, valid entry under the key it carries (a phrase or a timing).
    static func isWellFormed(_ data: Data) -> Bool {
        if data.starts(with: TimingEntry.magic) { return TimingEntry.isWellFormed(data) }
        let header = magic.count + 8
        guard data.count >= header else { return false }
        let length = data.withUnsafeBytes { bytes -> Int in
            var value: UInt32 = 0
            withUnsafeMutableBytes(of: &value) { $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[8..<12])) }
            return Int(UInt32(littleEndian: value))
        }
        guard data.count >= header + length else { return false }
        let key = String(decoding: data[data.startIndex + header..<data.startIndex + header + length], as: UTF8.self)
        return PhraseEntry(decoding: data, key: key) != nil
    }

    init(key: String, speech: SynthesizedSpeech) {
        self.key = key
        self.speech = speech
    }

    /// Appends the word count (UInt32), then each word as (frame, lower, upper) Int64s.
    static func append(_ words: [WordBoundary], to data: inout Data) {
        append(UInt32(words.count), to: &data)
        for word in words {
            append(UInt64(bitPattern: Int64(word.frame)), to: &data)
            append(UInt64(bitPattern: Int64(word.textRange.lowerBound)), to: &data)
            append(UInt64(bitPattern: Int64(word.textRange.upperBound)), to: &data)
        }
    }

    /// The start every entry shares: `magic`, the format version, the key's length and bytes, the sample rate, a
    /// flag (a phrase entry's "stopped early", a timing entry's "complete") and the frame count; with room for
    /// `followedBy` more bytes.
    static func header(magic: [UInt8], key: String, sampleRate: Int, flag: Bool, frameCount: Int, followedBy: Int = 0)
        -> Data
    {
        var data = Data()
        let keyBytes = Array(key.utf8)
        data.reserveCapacity(magic.count + 4 * 4 + 8 + keyBytes.count + followedBy)
        data.append(contentsOf: magic)
        append(UInt32(PhraseCache.formatVersion), to: &data)
        append(UInt32(keyBytes.count), to: &data)
        data.append(contentsOf: keyBytes)
        append(UInt32(sampleRate), to: &data)
        append(UInt32(flag ? 1 : 0), to: &data)
        append(UInt64(frameCount), to: &data)
        return data
    }

    static func append<T: FixedWidthInteger>(_ value: T, to data: inout Data) {
        withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) }
    }

    static func == (left: PhraseEntry, right: PhraseEntry) -> Bool {
        left.key == right.key && left.speech.samples == right.speech.samples
            && left.speech.words == right.speech.words && left.speech.stoppedEarly == right.speech.stoppedEarly
            && left.speech.sampleRate == right.speech.sampleRate
    }
}

/// Reads an entry's fields in order, failing on any byte out of place (phrase and timing entries).
struct EntryReader {
    let buffer: UnsafeRawBufferPointer
    var offset = 0

    init(buffer: UnsafeRawBufferPointer) { self.buffer = buffer }

    mutating func integer<T: FixedWidthInteger>(_: T.Type) -> T? {
        guard offset + MemoryLayout<T>.size <= buffer.count else { return nil }
        var value = T.zero
        withUnsafeMutableBytes(of: &value) {
            $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: buffer[offset..<offset + MemoryLayout<T>.size]))
        }
        offset += MemoryLayout<T>.size
        return T(littleEndian: value)
    }

    mutating func bytes(_ count: Int) -> UnsafeRawBufferPointer? {
        guard count >= 0, offset + count <= buffer.count else { return nil }
        defer { offset += count }
        return UnsafeRawBufferPointer(rebasing: buffer[offset..<offset + count])
    }

    /// `count` words, each as (frame, lower, upper) Int64s; nil when one is cut short or its range is reversed.
    mutating func words(count: Int) -> [WordBoundary]? {
        var words: [WordBoundary] = []
        words.reserveCapacity(count)
        for _ in 0..<count {
            guard let frame = integer(UInt64.self), let lower = integer(UInt64.self),
                let upper = integer(UInt64.self)
            else { return nil }
            let (start, end) = (Int(Int64(bitPattern: lower)), Int(Int64(bitPattern: upper)))
            guard start <= end else { return nil }
            words.append(WordBoundary(frame: Int(Int64(bitPattern: frame)), textRange: start..<end))
        }
        return words
    }

    /// The start every entry shares (``PhraseEntry/header(magic:key:sampleRate:flag:frameCount:followedBy:)``) when
    /// its magic, format version and key are the ones asked for and its flag is 0 or 1; nil otherwise.
    mutating func header(magic expected: [UInt8], key: String) -> (sampleRate: UInt32, flag: Bool, frames: UInt64)? {
        guard let magic = bytes(expected.count), Array(magic) == expected,
            integer(UInt32.self) == UInt32(PhraseCache.formatVersion),
            let keyLength = integer(UInt32.self), let keyBytes = bytes(Int(keyLength)),
            String(decoding: keyBytes, as: UTF8.self) == key,
            let rate = integer(UInt32.self), let flag = integer(UInt32.self), flag <= 1,
            let frames = integer(UInt64.self)
        else { return nil }
        return (rate, flag == 1, frames)
    }

    mutating func entry(key: String) -> PhraseEntry? {
        let wordSize = 24
        guard buffer.count >= 8, let (rate, stopped, frames) = header(magic: PhraseEntry.magic, key: key),
            let wordCount = integer(UInt32.self),
            frames <= UInt64(buffer.count), UInt64(wordCount) <= UInt64(buffer.count),
            buffer.count == offset + Int(wordCount) * wordSize + Int(frames) * 2 + 8
        else { return nil }
        let checksum = FNV1a.checksum(UnsafeRawBufferPointer(rebasing: buffer[0..<buffer.count - 8]))
        guard let words = words(count: Int(wordCount)) else { return nil }
        guard let sampleBytes = bytes(Int(frames) * 2) else { return nil }
        var samples = [Int16](repeating: 0, count: Int(frames))
        samples.withUnsafeMutableBytes { $0.copyMemory(from: sampleBytes) }
        #if _endian(big)
            samples = samples.map { Int16(littleEndian: $0) }
        #endif
        guard integer(UInt64.self) == checksum else { return nil }
        return PhraseEntry(
            key: key,
            speech: SynthesizedSpeech(
                samples: samples, sampleRate: Int(rate), words: words, stoppedEarly: stopped))
    }
}
