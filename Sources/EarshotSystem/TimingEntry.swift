import EarshotCore
import Foundation

/// One cached timing: what the speech library aligned from the synthesizer's answer for a phrase, without the
/// audio (a headless check needs no more).
///
/// On disk (little-endian): the magic `ETIM`, the format version (UInt32), the canonical key's length (UInt32)
/// and UTF-8 bytes, the sample rate (UInt32), 1 when the timing is of the whole phrase (UInt32), the frame count
/// (UInt64), the decided frames (UInt64), the word count (UInt32), each word as (frame, lower, upper) Int64s,
/// and a checksum (UInt64, ``FNV1a/checksum(_:)``) of everything before it. The texts are in the key.
struct TimingEntry: Equatable {
    /// The canonical key it was stored under.
    var key: String
    var sampleRate: Int
    var isComplete: Bool
    var frameCount: Int
    var decidedFrames: Int
    var words: [WordBoundary]

    static let magic: [UInt8] = Array("ETIM".utf8)

    init(key: String, timing: SpeechTiming) {
        self.key = key
        sampleRate = timing.sampleRate
        isComplete = timing.isComplete
        frameCount = timing.frameCount
        decidedFrames = timing.isComplete ? 0 : timing.decidedFrames
        words = timing.words
    }

    /// The timing it holds, of `speechText`.
    func timing(of speechText: SpeechText) -> SpeechTiming {
        SpeechTiming(
            text: speechText.posted, frameCount: frameCount, sampleRate: sampleRate, words: words,
            spokenText: speechText.spoken, decidedFrames: isComplete ? nil : decidedFrames)
    }

    /// The entry's bytes.
    func encoded() -> Data {
        var data = PhraseEntry.header(
            magic: Self.magic, key: key, sampleRate: sampleRate, flag: isComplete, frameCount: frameCount)
        PhraseEntry.append(UInt64(decidedFrames), to: &data)
        PhraseEntry.append(words, to: &data)
        let checksum = data.withUnsafeBytes { FNV1a.checksum($0) }
        PhraseEntry.append(checksum, to: &data)
        return data
    }

    /// The entry in `data` when it is a whole, valid timing entry stored under `key`; nil otherwise.
    init?(decoding data: Data, key: String) {
        guard let decoded = data.withUnsafeBytes({ Self.decode($0, key: key) }) else { return nil }
        self = decoded
    }

    /// True when `data` is a whole, valid timing entry under the key it carries.
    static func isWellFormed(_ data: Data) -> Bool {
        data.withUnsafeBytes { buffer in
            var reader = EntryReader(buffer: buffer)
            guard let magic = reader.bytes(4), Array(magic) == Self.magic, reader.integer(UInt32.self) != nil,
                let length = reader.integer(UInt32.self), let key = reader.bytes(Int(length))
            else { return false }
            return decode(buffer, key: String(decoding: key, as: UTF8.self)) != nil
        }
    }

    private init(
        key: String, sampleRate: Int, isComplete: Bool, frameCount: Int, decidedFrames: Int, words: [WordBoundary]
    ) {
        self.key = key
        self.sampleRate = sampleRate
        self.isComplete = isComplete
        self.frameCount = frameCount
        self.decidedFrames = decidedFrames
        self.words = words
    }

    private static func decode(_ buffer: UnsafeRawBufferPointer, key: String) -> TimingEntry? {
        var reader = EntryReader(buffer: buffer)
        let wordSize = 24
        guard buffer.count >= 16, let (rate, complete, frames) = reader.header(magic: Self.magic, key: key),
            frames <= UInt64(Int.max),
            let decided = reader.integer(UInt64.self), decided <= UInt64(Int.max),
            let wordCount = reader.integer(UInt32.self), UInt64(wordCount) <= UInt64(buffer.count),
            buffer.count == reader.offset + Int(wordCount) * wordSize + 8
        else { return nil }
        let checksum = FNV1a.checksum(UnsafeRawBufferPointer(rebasing: buffer[0..<buffer.count - 8]))
        guard let words = reader.words(count: Int(wordCount)), reader.integer(UInt64.self) == checksum else {
            return nil
        }
        return TimingEntry(
            key: key, sampleRate: Int(rate), isComplete: complete, frameCount: Int(frames),
            decidedFrames: Int(decided), words: words)
    }
}
